// Binary: dst = post_ops(scale0 * src0 op scale1 * src1 [, src2 as select's condition]).
// Build options: ALG, the types (SRC0, SRC1, SRC2, DST, SCALE0, SCALE1), SCALE0 / SCALE1 when
// present, the post-op chain (cl/post_ops.h).
#include "cl/binary.h"
#include "cl/common.h"
#include "cl/post_ops.h"

float scaled0(float v, const global SCALE0_DATA_T *s) {
#ifdef SCALE0
    v *= LOAD_SCALE0(s, 0);
#endif
    return v;
}

float scaled1(float v, const global SCALE1_DATA_T *s) {
#ifdef SCALE1
    v *= LOAD_SCALE1(s, 0);
#endif
    return v;
}

// src0, src1 (and src2) and dst in one dense layout, or src1 / src2 a single value (its
// stride 0): one element per work-item, no index arithmetic.
kernel void binary_dense(const global SRC0_DATA_T *src0, const global SRC1_DATA_T *src1,
        const global SRC2_DATA_T *src2, global DST_DATA_T *dst, long off0, long off1,
        long off2, long offd, long stride1, long stride2, long n,
        const global SCALE0_DATA_T *scale0, const global SCALE1_DATA_T *scale1) {
    const long i = get_global_id(0);
    if (i >= n) return;
    const float a = scaled0(LOAD_SRC0(src0, off0 + i), scale0);
    const float b = scaled1(LOAD_SRC1(src1, off1 + i * stride1), scale1);
    float c = 0.f;
    if (ALG == BINARY_SELECT) c = LOAD_SRC2(src2, off2 + i * stride2);
    STORE_DST(dst, offd + i, binary_op(ALG, a, b, c));
}

// One work-item per padded dst element; sources broadcast along their size-1 dimensions;
// dst's padding is written as zero.
kernel void binary_generic(const global SRC0_DATA_T *src0, const global SRC1_DATA_T *src1,
        const global SRC2_DATA_T *src2, global DST_DATA_T *dst, tensor_layout_t l0,
        tensor_layout_t l1, tensor_layout_t l2, tensor_layout_t ld, long n, long8 logical_dims,
        const global SCALE0_DATA_T *scale0,
        const global SCALE1_DATA_T *scale1 POST_OP_PARAMS) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&ld, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < ld.ndims; ++d) pad = pad || idx[d] >= lim[d];
    const long dst_off = layout_offset(&ld, idx);
    float v = 0.f;
    if (!pad) {
        const float a = scaled0(LOAD_SRC0(src0, bcast_offset(&l0, idx)), scale0);
        const float b = scaled1(LOAD_SRC1(src1, bcast_offset(&l1, idx)), scale1);
        float c = 0.f;
        if (ALG == BINARY_SELECT) c = LOAD_SRC2(src2, bcast_offset(&l2, idx));
        v = binary_op(ALG, a, b, c);
        float old = 0.f;
#ifdef PO_SUM
        old = LOAD_DST(dst, dst_off);
#endif
        v = apply_post_ops(v, idx, old POST_OP_ARGS);
    }
    STORE_DST(dst, dst_off, v);
}

#ifdef VEC
#include "cl/vec_io.h"
// Four elements of src1 for dst elements i .. i + 3, each looked up.
static float4 src1_each4(const global SRC1_DATA_T *src1, long off1, long i, long inner, long mid) {
    return (float4)(LOAD_SRC1(src1, off1 + (i / inner) % mid),
            LOAD_SRC1(src1, off1 + ((i + 1) / inner) % mid),
            LOAD_SRC1(src1, off1 + ((i + 2) / inner) % mid),
            LOAD_SRC1(src1, off1 + ((i + 3) / inner) % mid));
}

// VEC elements of src1 for dst elements i .. i + VEC - 1 (see B_MODE below).
static vf src1_v(const global SRC1_DATA_T *src1, long off1, long i, long inner, long mid) {
#if B_MODE == 1
    return (vf)(LOAD_SRC1(src1, off1 + (i / inner) % mid));
#elif B_MODE == 2
    return LOADV(LOAD_SRC1, src1, off1 + i % mid);
#elif VEC == 8
    return (float8)(src1_each4(src1, off1, i, inner, mid),
            src1_each4(src1, off1, i + 4, inner, mid));
#else
    return src1_each4(src1, off1, i, inner, mid);
#endif
}

static float4 binary_x4(float4 a, float4 b, const global SCALE0_DATA_T *scale0,
        const global SCALE1_DATA_T *scale1) {
    const float4 x = (float4)(scaled0(a.s0, scale0), scaled0(a.s1, scale0),
            scaled0(a.s2, scale0), scaled0(a.s3, scale0));
    const float4 y = (float4)(scaled1(b.s0, scale1), scaled1(b.s1, scale1),
            scaled1(b.s2, scale1), scaled1(b.s3, scale1));
    return (float4)(binary_op(ALG, x.s0, y.s0, 0.f), binary_op(ALG, x.s1, y.s1, 0.f),
            binary_op(ALG, x.s2, y.s2, 0.f), binary_op(ALG, x.s3, y.s3, 0.f));
}

static vf binary_v(vf a, vf b, const global SCALE0_DATA_T *scale0,
        const global SCALE1_DATA_T *scale1) {
#if VEC == 8
    return (float8)(binary_x4(a.lo, b.lo, scale0, scale1), binary_x4(a.hi, b.hi, scale0, scale1));
#else
    return binary_x4(a, b, scale0, scale1);
#endif
}

// src0 and dst dense in one layout, GROUPS groups of VEC (4 or 8) elements per work-item, a
// global size apart (coalesced accesses), all loaded before any is stored; src1 the same or
// broadcast along the outer and inner dimensions of dst's memory order: element i of dst
// takes src1's (i / inner) % mid. B_MODE: 1 every VEC share one src1 value (inner % VEC == 0),
// 2 src1 runs along with dst (inner == 1, mid % VEC == 0), 0 otherwise. The n % VEC tail is
// the first work-item's.
kernel void binary_bcast_vec(const global SRC0_DATA_T *src0, const global SRC1_DATA_T *src1,
        global DST_DATA_T *dst, long off0, long off1, long offd, long inner, long mid, long n,
        const global SCALE0_DATA_T *scale0, const global SCALE1_DATA_T *scale1) {
    const long groups = n / VEC;
    vf a[GROUPS], b[GROUPS];
    FOR_ITEM_GROUPS(g, j, groups) {
        a[g] = LOADV(LOAD_SRC0, src0, off0 + j * VEC);
        b[g] = src1_v(src1, off1, j * VEC, inner, mid);
    }
    FOR_ITEM_GROUPS(g, j, groups)
        STOREV(STORE_DST, dst, offd + j * VEC, binary_v(a[g], b[g], scale0, scale1));
    if (get_global_id(0) != 0) return;
    for (long k = groups * VEC; k < n; ++k) {
        const float x = scaled0(LOAD_SRC0(src0, off0 + k), scale0);
        const float y = scaled1(LOAD_SRC1(src1, off1 + (k / inner) % mid), scale1);
        STORE_DST(dst, offd + k, binary_op(ALG, x, y, 0.f));
    }
}
#endif
