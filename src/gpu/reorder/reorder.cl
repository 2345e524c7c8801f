// Reorder: dst = (src_scale * (src - src_zp) + beta * (dst - sum_zp)) / dst_scale + dst_zp
// between any blocked layouts and types. Build options: the types (SRC, DST, SRC_SCALE...),
// SRC_SCALE / DST_SCALE / SRC_ZP / DST_ZP / SUM for the terms present, VEC for reorder_dense.
#include "cl/common.h"
#include "cl/vec_io.h"
#include "cl/nibbles.h"

// Where one quantization value sits: index = sum over d of idx[d] / group[d] * stride[d]
// (stride 0 along dimensions the mask leaves out).
typedef struct {
    long stride[MAX_NDIMS];
    long group[MAX_NDIMS];
} quant_index_t;

long quant_offset(const quant_index_t *q, const long *idx, int ndims) {
    long off = 0;
    for (int d = 0; d < ndims; ++d) off += idx[d] / q->group[d] * q->stride[d];
    return off;
}

#define REORDER_PARAMS \
    const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale, \
            const global SRC_ZP_DATA_T *src_zp, const global DST_ZP_DATA_T *dst_zp, \
            float beta, float sum_zp

// Applies the attributes to one element; s, d, sz, dz: the quantization values' offsets.
float quantize(float v, float old, long s, long d, long sz, long dz, REORDER_PARAMS) {
#ifdef SRC_ZP
    v -= LOAD_SRC_ZP(src_zp, sz);
#endif
#ifdef SRC_SCALE
    v *= LOAD_SRC_SCALE(src_scale, s);
#endif
#ifdef SUM
    v += beta * (old - sum_zp);
#endif
#ifdef DST_SCALE
    v /= LOAD_DST_SCALE(dst_scale, d);
#endif
#ifdef DST_ZP
    v += LOAD_DST_ZP(dst_zp, dz);
#endif
    return v;
}

// Element i of a dense reorder whose quantization arrays are single values.
static void reorder_one(const global SRC_DATA_T *src, global DST_DATA_T *dst, long offset_src,
        long offset_dst, long i, REORDER_PARAMS) {
    float old = 0.f;
#ifdef SUM
    old = LOAD_DST(dst, offset_dst + i);
#endif
    STORE_DST(dst, offset_dst + i,
            quantize(LOAD_SRC(src, offset_src + i), old, 0, 0, 0, 0, src_scale, dst_scale,
                    src_zp, dst_zp, beta, sum_zp));
}

#if VEC == 4
static float4 quantize4(float4 v, float4 old, REORDER_PARAMS) {
    return (float4)(
            quantize(v.s0, old.s0, 0, 0, 0, 0, src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp),
            quantize(v.s1, old.s1, 0, 0, 0, 0, src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp),
            quantize(v.s2, old.s2, 0, 0, 0, 0, src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp),
            quantize(v.s3, old.s3, 0, 0, 0, 0, src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp));
}
#endif

// Both tensors in one dense layout, every quantization array a single value. VEC 4: GROUPS
// groups of four elements per work-item, a global size apart (coalesced accesses), all
// loaded before any is stored, the n % 4 tail the first work-item's; otherwise VEC
// consecutive elements per work-item.
kernel void reorder_dense(const global SRC_DATA_T *src, global DST_DATA_T *dst, long offset_src,
        long offset_dst, long n, REORDER_PARAMS) {
#if VEC == 4
    const long groups = n / 4;
    if (((offset_src | offset_dst) & 3) == 0) {
        // Offsets on multiples of 4: one vector access each way (a uniform branch).
        float4 v[GROUPS], old[GROUPS];
        FOR_ITEM_GROUPS(g, j, groups) {
            v[g] = X4(LOAD_SRC)(src, offset_src + j * 4);
#ifdef SUM
            old[g] = X4(LOAD_DST)(dst, offset_dst + j * 4);
#else
            old[g] = 0.f;
#endif
        }
        FOR_ITEM_GROUPS(g, j, groups)
            X4(STORE_DST)(dst, offset_dst + j * 4,
                    quantize4(v[g], old[g], src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp));
    } else {
        FOR_ITEM_GROUPS(g, j, groups)
            for (int k = 0; k < 4; ++k)
                reorder_one(src, dst, offset_src, offset_dst, j * 4 + k, src_scale, dst_scale,
                        src_zp, dst_zp, beta, sum_zp);
    }
    if (get_global_id(0) != 0) return;
    for (long i = groups * 4; i < n; ++i)
        reorder_one(src, dst, offset_src, offset_dst, i, src_scale, dst_scale, src_zp, dst_zp,
                beta, sum_zp);
#else
    const long i0 = get_global_id(0) * VEC;
    for (long i = i0; i < i0 + VEC && i < n; ++i)
        reorder_one(src, dst, offset_src, offset_dst, i, src_scale, dst_scale, src_zp, dst_zp,
                beta, sum_zp);
#endif
}

// One work-item per padded dst element: dst's padding is written as zero.
kernel void reorder_generic(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long n, long8 logical_dims,
        quant_index_t src_scale_q, quant_index_t dst_scale_q, quant_index_t src_zp_q,
        quant_index_t dst_zp_q, REORDER_PARAMS) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&dst_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < dst_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    const long dst_off = layout_offset(&dst_l, idx);
    float v = 0.f;
    if (!pad) {
        const int nd = dst_l.ndims;
        float old = 0.f;
#ifdef SUM
        old = LOAD_DST(dst, dst_off);
#endif
        v = quantize(LOAD_SRC(src, layout_offset(&src_l, idx)), old,
                quant_offset(&src_scale_q, idx, nd), quant_offset(&dst_scale_q, idx, nd),
                quant_offset(&src_zp_q, idx, nd), quant_offset(&dst_zp_q, idx, nd), src_scale,
                dst_scale, src_zp, dst_zp, beta, sum_zp);
    }
    STORE_DST(dst, dst_off, v);
}

// The rows of dst in its memory order: digit k of a row number (slowest first) has extent
// extent[k] and adds digit * mult[k] to the index of dimension dim[k].
#define MAX_ROW_DIGITS (MAX_NDIMS + MAX_BLKS)
typedef struct {
    long extent[MAX_ROW_DIGITS];
    long mult[MAX_ROW_DIGITS];
    int dim[MAX_ROW_DIGITS];
    int count, pad;
} row_order_t;

// One work-item per row along the last dimension, which has one stride in both layouts (no
// inner block on it): index arithmetic once per row, then strided loads and stores. Rows are
// numbered in dst's memory order, so neighbouring work-items write neighbouring addresses.
// Rows in dst's padding are written as zero.
kernel void reorder_rows(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long nrows, long8 logical_dims,
        row_order_t order, quant_index_t src_scale_q, quant_index_t dst_scale_q,
        quant_index_t src_zp_q, quant_index_t dst_zp_q, REORDER_PARAMS) {
    const long r = get_global_id(0);
    if (r >= nrows) return;
    const int nd = dst_l.ndims;
    const int last = nd - 1;
    long idx[MAX_NDIMS];
    for (int d = 0; d < MAX_NDIMS; ++d) idx[d] = 0;
    long rest = r;
    for (int j = order.count - 1; j >= 0; --j) {
        idx[order.dim[j]] += rest % order.extent[j] * order.mult[j];
        rest /= order.extent[j];
    }
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < last; ++d) pad = pad || idx[d] >= lim[d];
    const long len = dst_l.dims[last];
    const long dst_off = layout_offset(&dst_l, idx), dst_step = dst_l.strides[last];
    if (pad) {
        for (long k = 0; k < len; ++k) STORE_DST(dst, dst_off + k * dst_step, 0.f);
        return;
    }
    const long src_off = layout_offset(&src_l, idx), src_step = src_l.strides[last];
#if defined(SRC_SCALE) || defined(DST_SCALE) || defined(SRC_ZP) || defined(DST_ZP) \
        || defined(SUM)
    for (long k = 0; k < len; ++k) {
        idx[last] = k;
        float old = 0.f;
#ifdef SUM
        old = LOAD_DST(dst, dst_off + k * dst_step);
#endif
        const float v = quantize(LOAD_SRC(src, src_off + k * src_step), old,
                quant_offset(&src_scale_q, idx, nd), quant_offset(&dst_scale_q, idx, nd),
                quant_offset(&src_zp_q, idx, nd), quant_offset(&dst_zp_q, idx, nd), src_scale,
                dst_scale, src_zp, dst_zp, beta, sum_zp);
        STORE_DST(dst, dst_off + k * dst_step, v);
    }
#else
    for (long k = 0; k < len; ++k)
        STORE_DST(dst, dst_off + k * dst_step, LOAD_SRC(src, src_off + k * src_step));
#endif
}

#ifdef DST_NIBBLE
// A 4-bit dst (DST_NIBBLE encodes a value: nibble_s4, nibble_f4_e2m1...) without gaps: one work-item per byte computes both of its elements, whose
// offsets p past offset0 (n padded elements in all) are taken apart digit by digit, innermost
// first, into logical indices. Elements in dst's padding are written as zero.
kernel void reorder_nibbles(const global SRC_DATA_T *src, global uchar *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long n, long8 logical_dims,
        row_order_t order, quant_index_t src_scale_q, quant_index_t dst_scale_q,
        quant_index_t src_zp_q, quant_index_t dst_zp_q, REORDER_PARAMS) {
    const long j = get_global_id(0);
    if (j * 2 >= n) return;
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    const int nd = dst_l.ndims;
    uint byte = 0;
    for (int h = 0; h < 2; ++h) {
        const long p = j * 2 + h;
        if (p >= n) break;
        long idx[MAX_NDIMS];
        for (int d = 0; d < MAX_NDIMS; ++d) idx[d] = 0;
        long rest = p;
        for (int k = order.count - 1; k >= 0; --k) {
            idx[order.dim[k]] += rest % order.extent[k] * order.mult[k];
            rest /= order.extent[k];
        }
        bool pad = false;
        for (int d = 0; d < nd; ++d) pad = pad || idx[d] >= lim[d];
        float v = 0.f;
        if (!pad) {
            float old = 0.f;
#ifdef SUM
            old = LOAD_DST(dst, dst_l.offset0 + p);
#endif
            v = quantize(LOAD_SRC(src, layout_offset(&src_l, idx)), old,
                    quant_offset(&src_scale_q, idx, nd), quant_offset(&dst_scale_q, idx, nd),
                    quant_offset(&src_zp_q, idx, nd), quant_offset(&dst_zp_q, idx, nd),
                    src_scale, dst_scale, src_zp, dst_zp, beta, sum_zp);
        }
        byte |= DST_NIBBLE(v) << (4 * h);
    }
    dst[(dst_l.offset0 >> 1) + j] = (uchar)byte;
}
#endif
