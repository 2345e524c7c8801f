// Group normalization: one work-group per (mb, group) row, whose work-items stride over the
// group's channels x spatial points and reduce in local memory (any row length: the tree
// takes every work-item's partial sum, also when the row is shorter than the group); the
// backward's diff scale/shift take one row per channel over mb x spatial. Any blocked
// layouts. Build options: FWD or BWD and the tensors' types (SRC, DST or DIFF_DST/DIFF_SRC).
#include "cl/group_reduce.h"
#ifdef FWD
#include "cl/post_ops.h"
#endif

// Flags (an int argument).
#define GN_SCALE 1
#define GN_SHIFT 2
#define GN_GLOBAL 4 // statistics are inputs
#define GN_STATS_OUT 8 // forward writes the statistics
#define GN_DIFF_SCALE 16
#define GN_DIFF_SHIFT 32

// Logical index of (n, c, spatial point sp), sp row-major over dims 2...
void point_index(const long *dims, int ndims, long n, long c, long sp, long *idx) {
    for (int d = ndims - 1; d >= 2; --d) {
        idx[d] = sp % dims[d];
        sp /= dims[d];
    }
    idx[0] = n;
    idx[1] = c;
}

long spatial_size(const long *dims, int ndims) {
    long sp = 1;
    for (int d = 2; d < ndims; ++d) sp *= dims[d];
    return sp;
}

#ifdef FWD
kernel void gnorm_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst, global float *mean,
        global float *var, const global float *scale, const global float *shift,
        tensor_layout_t src_l, tensor_layout_t dst_l, tensor_layout_t stat_l,
        long8 logical_dims, long groups, int flags, float eps,
        local float *buf POST_OP_PARAMS) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long row = ROW_ID, n = row / groups, g = row % groups;
    const long Cg = dims[1] / groups, SP = spatial_size(dims, nd), M = Cg * SP;
    const long c0 = g * Cg, lid = ROW_LID, L = ROW_L;
    // Statistics are (mb, group) (without them stat_l is src's: the offset goes unused).
    for (int d = 0; d < MAX_NDIMS; ++d) idx[d] = 0;
    idx[0] = n;
    idx[1] = g;
    const long so = layout_offset(&stat_l, idx);
    float m, v;
    if (flags & GN_GLOBAL) {
        m = mean[so];
        v = var[so];
    } else {
        float s = 0.f;
        for (long k = lid; k < M; k += L) {
            point_index(dims, nd, n, c0 + k / SP, k % SP, idx);
            s += LOAD_SRC(src, layout_offset(&src_l, idx));
        }
        m = group_sum(buf, s) / M;
        s = 0.f;
        for (long k = lid; k < M; k += L) {
            point_index(dims, nd, n, c0 + k / SP, k % SP, idx);
            const float x = LOAD_SRC(src, layout_offset(&src_l, idx)) - m;
            s += x * x;
        }
        v = group_sum(buf, s) / M;
    }
    if ((flags & GN_STATS_OUT) && lid == 0) {
        mean[so] = m;
        var[so] = v;
    }
    const float inv = rsqrt(v + eps);
    for (long k = lid; k < M; k += L) {
        const long c = c0 + k / SP;
        point_index(dims, nd, n, c, k % SP, idx);
        const float a = ((flags & GN_SCALE) ? scale[c] : 1.f) * inv;
        float y = (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * a;
        if (flags & GN_SHIFT) y += shift[c];
        const long o = layout_offset(&dst_l, idx);
#ifdef PO_SUM
        const float old = LOAD_DST(dst, o);
#else
        const float old = 0.f;
#endif
        y = apply_post_ops(y, idx, old POST_OP_ARGS);
        STORE_DST(dst, o, y);
    }
}
#endif

#ifdef BWD
// g = diff_dst * scale, xh = (x - mean) * inv, means over the group:
// diff_src = inv * (g - mean(g) - xh * mean(g * xh))   (global statistics: inv * g).
kernel void gnorm_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, const global float *mean, const global float *var,
        const global float *scale, tensor_layout_t src_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, tensor_layout_t stat_l, long8 logical_dims, long groups,
        int flags, float eps, local float *buf) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long row = ROW_ID, n = row / groups, g = row % groups;
    const long Cg = dims[1] / groups, SP = spatial_size(dims, nd), M = Cg * SP;
    const long c0 = g * Cg, lid = ROW_LID, L = ROW_L;
    idx[0] = n;
    idx[1] = g;
    const long so = layout_offset(&stat_l, idx);
    const float m = mean[so], inv = rsqrt(var[so] + eps);
    const bool global_stats = flags & GN_GLOBAL;
    float sg = 0.f, sgx = 0.f;
    if (!global_stats) {
        for (long k = lid; k < M; k += L) {
            const long c = c0 + k / SP;
            point_index(dims, nd, n, c, k % SP, idx);
            float dy = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
            if (flags & GN_SCALE) dy *= scale[c];
            sg += dy;
            sgx += dy * (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * inv;
        }
        sg = group_sum(buf, sg) / M;
        sgx = group_sum(buf, sgx) / M;
    }
    for (long k = lid; k < M; k += L) {
        const long c = c0 + k / SP;
        point_index(dims, nd, n, c, k % SP, idx);
        float dy = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        if (flags & GN_SCALE) dy *= scale[c];
        float dx = dy;
        if (!global_stats) {
            const float xh = (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * inv;
            dx = dy - sg - xh * sgx;
        }
        STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), dx * inv);
    }
}

// Channel c (one row): diff_scale = sum of diff_dst * xh, diff_shift = sum of diff_dst over
// mb x spatial (each mb with its group's statistics); zero for an empty batch.
kernel void gnorm_bwd_scaleshift(const global SRC_DATA_T *src,
        const global DIFF_DST_DATA_T *diff_dst, const global float *mean,
        const global float *var, global float *diff_scale, global float *diff_shift,
        tensor_layout_t src_l, tensor_layout_t dd_l, tensor_layout_t stat_l,
        long8 logical_dims, long groups, int flags, float eps, local float *buf) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long c = ROW_ID, g = c / (dims[1] / groups), SP = spatial_size(dims, nd);
    const long lid = ROW_LID, L = ROW_L;
    float ds = 0.f, db = 0.f;
    for (long k = lid; k < dims[0] * SP; k += L) {
        const long n = k / SP;
        idx[0] = n;
        idx[1] = g;
        const long so = layout_offset(&stat_l, idx);
        point_index(dims, nd, n, c, k % SP, idx);
        const float dy = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        ds += dy * (LOAD_SRC(src, layout_offset(&src_l, idx)) - mean[so])
                * rsqrt(var[so] + eps);
        db += dy;
    }
    ds = group_sum(buf, ds);
    db = group_sum(buf, db);
    if (lid == 0 && (flags & GN_DIFF_SCALE)) diff_scale[c] = ds;
    if (lid == 0 && (flags & GN_DIFF_SHIFT)) diff_shift[c] = db;
}
#endif
