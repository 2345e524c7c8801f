// Batch normalization: one work-group per channel; its work-items stride over the channel's
// N x spatial elements, reduce the statistics (or the backward sums) in local memory, then
// write every element of the channel. Build options: FWD or BWD and the tensors' types
// (SRC, DST or DIFF_DST/DIFF_SRC).
#include "cl/group_reduce.h"

// Flags (an int argument).
#define BN_SCALE 1
#define BN_SHIFT 2
#define BN_GLOBAL 4 // statistics are inputs
#define BN_STATS_OUT 8 // forward writes the statistics
#define BN_RELU 16
#define BN_ADD_RELU 32 // dst = relu(bn(src) + src_1); backward also writes diff_src_1
#define BN_WS 64 // the relu mask lives in the workspace (training)
#define BN_DIFF_SCALE 128
#define BN_DIFF_SHIFT 256
#define BN_PO_RELU 512 // the attribute's relu post-op, slope po_alpha, after the fusions

// Logical index of element k of channel c: k runs over N, then the spatial dims row-major.
void channel_index(const long *dims, int ndims, long c, long k, long *idx) {
    for (int d = ndims - 1; d >= 2; --d) {
        idx[d] = k % dims[d];
        k /= dims[d];
    }
    idx[0] = k;
    idx[1] = c;
}

#ifdef FWD
kernel void bnorm_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst, global float *mean,
        global float *var, const global float *scale, const global float *shift,
        const global DST_DATA_T *src1, global uchar *ws, tensor_layout_t src_l,
        tensor_layout_t dst_l, tensor_layout_t src1_l, tensor_layout_t ws_l,
        tensor_layout_t stat_l, long8 logical_dims, int flags, float eps, float po_alpha,
        local float *buf) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long c = ROW_ID;
    long N = dims[0];
    for (int d = 2; d < nd; ++d) N *= dims[d];
    const long lid = ROW_LID, L = ROW_L;
    idx[0] = c;
    const long so = layout_offset(&stat_l, idx);
    float m, v;
    if (flags & BN_GLOBAL) {
        m = mean[so];
        v = var[so];
    } else {
        float s = 0.f;
        for (long k = lid; k < N; k += L) {
            channel_index(dims, nd, c, k, idx);
            s += LOAD_SRC(src, layout_offset(&src_l, idx));
        }
        m = N ? group_sum(buf, s) / N : 0.f;
        s = 0.f;
        for (long k = lid; k < N; k += L) {
            channel_index(dims, nd, c, k, idx);
            const float x = LOAD_SRC(src, layout_offset(&src_l, idx)) - m;
            s += x * x;
        }
        v = N ? group_sum(buf, s) / N : 0.f;
        if ((flags & BN_STATS_OUT) && lid == 0) {
            mean[so] = m;
            var[so] = v;
        }
    }
    const float sc = (flags & BN_SCALE) ? scale[c] : 1.f;
    const float sh = (flags & BN_SHIFT) ? shift[c] : 0.f;
    const float a = sc * rsqrt(v + eps);
    for (long k = lid; k < N; k += L) {
        channel_index(dims, nd, c, k, idx);
        float y = (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * a + sh;
        if (flags & BN_ADD_RELU) y += LOAD_DST(src1, layout_offset(&src1_l, idx));
        if (flags & BN_RELU) {
            const bool on = y > 0.f;
            if (flags & BN_WS) ws[layout_offset(&ws_l, idx)] = on ? 1 : 0;
            y = on ? y : 0.f;
        }
        if (flags & BN_PO_RELU) y = y > 0.f ? y : y * po_alpha;
        STORE_DST(dst, layout_offset(&dst_l, idx), y);
    }
}
#endif

#ifdef BWD
// g = diff_dst through the relu mask, xh = (x - mean) * inv:
// diff_shift = sum(g), diff_scale = sum(g * xh),
// diff_src = scale * inv * (g - diff_shift / N - xh * diff_scale / N)  (global statistics:
// scale * inv * g).
kernel void bnorm_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, const global float *mean, const global float *var,
        const global float *scale, const global uchar *ws, global float *diff_scale,
        global float *diff_shift, global DIFF_SRC_DATA_T *diff_src1, tensor_layout_t src_l,
        tensor_layout_t dd_l, tensor_layout_t ds_l, tensor_layout_t ws_l,
        tensor_layout_t stat_l, long8 logical_dims, int flags, float eps,
        local float *buf) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long c = ROW_ID;
    long N = dims[0];
    for (int d = 2; d < nd; ++d) N *= dims[d];
    const long lid = ROW_LID, L = ROW_L;
    idx[0] = c;
    const long so = layout_offset(&stat_l, idx);
    const float m = mean[so], inv = rsqrt(var[so] + eps);
    float sg = 0.f, sgx = 0.f;
    for (long k = lid; k < N; k += L) {
        channel_index(dims, nd, c, k, idx);
        float g = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        if ((flags & BN_RELU) && !ws[layout_offset(&ws_l, idx)]) g = 0.f;
        sg += g;
        sgx += g * (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * inv;
    }
    sg = group_sum(buf, sg);
    sgx = group_sum(buf, sgx);
    if (lid == 0 && (flags & BN_DIFF_SCALE)) diff_scale[c] = sgx;
    if (lid == 0 && (flags & BN_DIFF_SHIFT)) diff_shift[c] = sg;
    const float a = ((flags & BN_SCALE) ? scale[c] : 1.f) * inv;
    const bool global_stats = flags & BN_GLOBAL;
    for (long k = lid; k < N; k += L) {
        channel_index(dims, nd, c, k, idx);
        float g = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        if ((flags & BN_RELU) && !ws[layout_offset(&ws_l, idx)]) g = 0.f;
        const long o = layout_offset(&ds_l, idx);
        if (flags & BN_ADD_RELU) STORE_DIFF_SRC(diff_src1, o, g);
        float dx = g;
        if (!global_stats) {
            const float xh = (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * inv;
            dx = g - sg / N - xh * sgx / N;
        }
        STORE_DIFF_SRC(diff_src, o, a * dx);
    }
}
#endif
