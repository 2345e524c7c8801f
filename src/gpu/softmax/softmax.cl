// Softmax (accurate and log) along any axis: one work-group per row, the row's max and sum
// reduced in local memory. Build options: FWD or BWD and the tensors' types; forward: the
// post-op chain (cl/post_ops.h), applied after the src scale and before the dst scale.
#include "cl/group_reduce.h"
#include "cl/post_ops.h"
#include "cl/scales.h"

#ifdef FWD
kernel void softmax_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long8 logical_dims, int axis, int is_log,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf POST_OP_PARAMS) {
    long dims[8], si[MAX_NDIMS], di[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const long r = ROW_ID, C = dims[axis];
    const long lid = ROW_LID, L = ROW_L;
    row_index(dims, src_l.ndims, axis, r, si);
    row_index(dims, src_l.ndims, axis, r, di);
    const long sbase = layout_offset(&src_l, si), dbase = layout_offset(&dst_l, di);
    float m = -INFINITY;
    for (long c = lid; c < C; c += L)
        m = fmax(m, LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)));
    m = group_max(buf, m);
    float s = 0.f;
    for (long c = lid; c < C; c += L)
        s += exp(LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)) - m);
    s = group_sum(buf, s);
    const float k = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float shift = is_log ? m + log(s) : m, inv = k / s;
    const float dst_inv = dst_scale ? 1.f / LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    for (long c = lid; c < C; c += L) {
        const float x = LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)) - shift;
        const long off = axis_offset(&dst_l, di, axis, dbase, c);
        float y = is_log ? x * k : exp(x) * inv;
#if PO_COUNT > 0
        di[axis] = c;
#endif
        y = POST_OPS_AT(y, di, LOAD_DST, dst, off);
        STORE_DST(dst, off, y * dst_inv);
    }
}
#endif

#ifdef BWD
// accurate: diff_src = dst * (diff_dst - sum(diff_dst * dst));
// log: diff_src = diff_dst - exp(dst) * sum(diff_dst).
kernel void softmax_bwd(const global DST_DATA_T *dst, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, tensor_layout_t dst_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, long8 logical_dims, int axis, int is_log, local float *buf) {
    long dims[8], yi[MAX_NDIMS], gi[MAX_NDIMS], si[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const long r = ROW_ID, C = dims[axis];
    const long lid = ROW_LID, L = ROW_L;
    row_index(dims, dst_l.ndims, axis, r, yi);
    row_index(dims, dst_l.ndims, axis, r, gi);
    row_index(dims, dst_l.ndims, axis, r, si);
    const long ybase = layout_offset(&dst_l, yi), gbase = layout_offset(&dd_l, gi),
               sbase = layout_offset(&ds_l, si);
    float s = 0.f;
    for (long c = lid; c < C; c += L) {
        const float g = LOAD_DIFF_DST(diff_dst, axis_offset(&dd_l, gi, axis, gbase, c));
        s += is_log ? g : g * LOAD_DST(dst, axis_offset(&dst_l, yi, axis, ybase, c));
    }
    s = group_sum(buf, s);
    for (long c = lid; c < C; c += L) {
        const float g = LOAD_DIFF_DST(diff_dst, axis_offset(&dd_l, gi, axis, gbase, c));
        const float y = LOAD_DST(dst, axis_offset(&dst_l, yi, axis, ybase, c));
        STORE_DIFF_SRC(diff_src, axis_offset(&ds_l, si, axis, sbase, c),
                is_log ? g - exp(y) * s : y * (g - s));
    }
}
#endif

#ifdef ROWS_F32
#include "cl/rows_f32.h"
// f32 rows contiguous in memory (plain row-major, axis innermost): one work-item per row.
kernel void softmax_fwd_rows_f32(const global float *src, global float *dst, long src_off,
        long dst_off, long C, int is_log) {
    const long r = get_global_id(0);
    const global float *x = src + src_off + r * C;
    global float *y = dst + dst_off + r * C;
    const long C16 = C & ~15L;
    float16 m16 = (float16)(-INFINITY);
    for (long c = 0; c < C16; c += 16) m16 = fmax(m16, vload16(0, x + c));
    float m = hmax16(m16);
    for (long c = C16; c < C; ++c) m = fmax(m, x[c]);
    float16 s16 = (float16)(0.f);
    for (long c = 0; c < C16; c += 16) s16 += exp(vload16(0, x + c) - m);
    float s = hsum16(s16);
    for (long c = C16; c < C; ++c) s += exp(x[c] - m);
    const float shift = is_log ? m + log(s) : m, inv = 1.f / s;
    for (long c = 0; c < C16; c += 16) {
        const float16 v = vload16(0, x + c) - shift;
        vstore16(is_log ? v : exp(v) * inv, 0, y + c);
    }
    for (long c = C16; c < C; ++c) y[c] = is_log ? x[c] - shift : exp(x[c] - shift) * inv;
}
#endif
