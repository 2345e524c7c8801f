// Group normalization: one work-group per (mb, group) row, whose work-items stride over each
// channel's spatial points and reduce in local memory (any row length: the tree takes every
// work-item's partial sum, also when the row is shorter than the group); the backward's diff
// scale/shift take one row per channel over mb x spatial. Any blocked layouts: a tensor whose
// spatial dims collapse into one stride (sp_stride != 0: blocks on channels only) is walked
// from each channel's base, others through logical positions. Build options: FWD or BWD and
// the tensors' types (SRC, DST or DIFF_DST/DIFF_SRC).
#include "cl/group_reduce.h"
#ifdef FWD
#include "cl/post_ops.h"
#include "cl/scales.h"
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

// One tensor's addressing within a group: the base of the current channel and its spatial
// stride (0: through logical positions).
typedef struct {
    const tensor_layout_t *l;
    long sp_stride, base;
} walk_t;

walk_t walk_of(const tensor_layout_t *l, long sp_stride) {
    walk_t w = {l, sp_stride, 0};
    return w;
}

// Points w at channel c of batch n.
void walk_channel(walk_t *w, const long *dims, int nd, long n, long c) {
    long idx[MAX_NDIMS];
    point_index(dims, nd, n, c, 0, idx);
    w->base = layout_offset(w->l, idx);
}

long walk_offset(const walk_t *w, const long *dims, int nd, long n, long c, long sp) {
    if (w->sp_stride) return w->base + sp * w->sp_stride;
    long idx[MAX_NDIMS];
    point_index(dims, nd, n, c, sp, idx);
    return layout_offset(w->l, idx);
}

// Shape of row `row` = (n, g): its channels c0 .. c0 + Cg and spatial size SP.
typedef struct {
    long n, c0, Cg, SP;
} group_t;

group_t group_of(const long *dims, int nd, long row, long groups) {
    group_t g;
    g.n = row / groups;
    g.Cg = dims[1] / groups;
    g.c0 = row % groups * g.Cg;
    g.SP = 1;
    for (int d = 2; d < nd; ++d) g.SP *= dims[d];
    return g;
}

// Offset of the statistics of (n, group).
long stat_offset(const tensor_layout_t *stat_l, long n, long g) {
    long idx[MAX_NDIMS] = {n, g, 0, 0, 0, 0};
    return layout_offset(stat_l, idx);
}

#ifdef FWD
kernel void gnorm_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst, global float *mean,
        global float *var, const global float *scale, const global float *shift,
        tensor_layout_t src_l, tensor_layout_t dst_l, tensor_layout_t stat_l,
        long8 logical_dims, long2 sp_strides, long groups, int flags, float eps,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf POST_OP_PARAMS) {
    long dims[8];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const group_t G = group_of(dims, nd, ROW_ID, groups);
    const long n = G.n, lid = ROW_LID, L = ROW_L, M = G.Cg * G.SP;
    walk_t sw = walk_of(&src_l, sp_strides.s0), dw = walk_of(&dst_l, sp_strides.s1);
    // Without statistics stat_l is src's: the offset goes unused.
    const long so = stat_offset(&stat_l, n, ROW_ID % groups);
    float m, v;
    if (flags & GN_GLOBAL) {
        m = mean[so];
        v = var[so];
    } else {
        float s = 0.f;
        for (long c = G.c0; c < G.c0 + G.Cg; ++c) {
            walk_channel(&sw, dims, nd, n, c);
            for (long sp = lid; sp < G.SP; sp += L)
                s += LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp));
        }
        m = group_sum(buf, s) / M;
        s = 0.f;
        for (long c = G.c0; c < G.c0 + G.Cg; ++c) {
            walk_channel(&sw, dims, nd, n, c);
            for (long sp = lid; sp < G.SP; sp += L) {
                const float x = LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp)) - m;
                s += x * x;
            }
        }
        v = group_sum(buf, s) / M;
    }
    // Written outside the branch that holds barriers: PoCL miscompiles a store inside it.
    if ((flags & GN_STATS_OUT) && lid == 0) {
        mean[so] = m;
        var[so] = v;
    }
    const float inv = rsqrt(v + eps);
    // The src scale on the normalized value, then the post-ops, then the dst scale.
    const float s_scale = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float d_scale = dst_scale ? LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    for (long c = G.c0; c < G.c0 + G.Cg; ++c) {
        walk_channel(&sw, dims, nd, n, c);
        walk_channel(&dw, dims, nd, n, c);
        const float a = ((flags & GN_SCALE) ? scale[c] : 1.f) * inv;
        const float b = ((flags & GN_SHIFT) ? shift[c] : 0.f) - m * a;
        for (long sp = lid; sp < G.SP; sp += L) {
            float y = (LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp)) * a + b) * s_scale;
            const long o = walk_offset(&dw, dims, nd, n, c, sp);
#if PO_COUNT > 0
            long idx[MAX_NDIMS];
            point_index(dims, nd, n, c, sp, idx);
#ifdef PO_SUM
            const float old = LOAD_DST(dst, o);
#else
            const float old = 0.f;
#endif
            y = apply_post_ops(y, idx, old POST_OP_ARGS);
#endif
            STORE_DST(dst, o, y / d_scale);
        }
    }
}
#endif

#ifdef BWD
// g = diff_dst * scale, xh = (x - mean) * inv, means over the group:
// diff_src = inv * (g - mean(g) - xh * mean(g * xh))   (global statistics: inv * g).
kernel void gnorm_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, const global float *mean, const global float *var,
        const global float *scale, tensor_layout_t src_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, tensor_layout_t stat_l, long8 logical_dims, long4 sp_strides,
        long groups, int flags, float eps, local float *buf) {
    long dims[8];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const group_t G = group_of(dims, nd, ROW_ID, groups);
    const long n = G.n, lid = ROW_LID, L = ROW_L, M = G.Cg * G.SP;
    walk_t sw = walk_of(&src_l, sp_strides.s0), gw = walk_of(&dd_l, sp_strides.s1),
           ow = walk_of(&ds_l, sp_strides.s2);
    const long so = stat_offset(&stat_l, n, ROW_ID % groups);
    const float m = mean[so], inv = rsqrt(var[so] + eps);
    const bool global_stats = flags & GN_GLOBAL;
    float sg = 0.f, sgx = 0.f;
    if (!global_stats) {
        for (long c = G.c0; c < G.c0 + G.Cg; ++c) {
            walk_channel(&sw, dims, nd, n, c);
            walk_channel(&gw, dims, nd, n, c);
            const float gam = (flags & GN_SCALE) ? scale[c] : 1.f;
            float a = 0.f, b = 0.f;
            for (long sp = lid; sp < G.SP; sp += L) {
                const float dy = LOAD_DIFF_DST(diff_dst, walk_offset(&gw, dims, nd, n, c, sp));
                a += dy;
                b += dy * (LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp)) - m);
            }
            sg += gam * a;
            sgx += gam * b * inv;
        }
        sg = group_sum(buf, sg) / M;
        sgx = group_sum(buf, sgx) / M;
    }
    for (long c = G.c0; c < G.c0 + G.Cg; ++c) {
        walk_channel(&sw, dims, nd, n, c);
        walk_channel(&gw, dims, nd, n, c);
        walk_channel(&ow, dims, nd, n, c);
        const float gam = (flags & GN_SCALE) ? scale[c] : 1.f;
        // diff_src = A dy + B x + C0, per channel.
        const float A = inv * gam, B = -inv * inv * sgx, C0 = inv * (inv * sgx * m - sg);
        for (long sp = lid; sp < G.SP; sp += L) {
            const float dy = LOAD_DIFF_DST(diff_dst, walk_offset(&gw, dims, nd, n, c, sp));
            float dx = A * dy;
            if (!global_stats)
                dx += B * LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp)) + C0;
            STORE_DIFF_SRC(diff_src, walk_offset(&ow, dims, nd, n, c, sp), dx);
        }
    }
}

// Channel c (one row): diff_scale = sum of diff_dst * xh, diff_shift = sum of diff_dst over
// mb x spatial (each mb with its group's statistics); zero for an empty batch.
kernel void gnorm_bwd_scaleshift(const global SRC_DATA_T *src,
        const global DIFF_DST_DATA_T *diff_dst, const global float *mean,
        const global float *var, global float *diff_scale, global float *diff_shift,
        tensor_layout_t src_l, tensor_layout_t dd_l, tensor_layout_t stat_l,
        long8 logical_dims, long4 sp_strides, long groups, int flags, float eps,
        local float *buf) {
    long dims[8];
    dims_of(logical_dims, dims);
    const int nd = src_l.ndims;
    const long c = ROW_ID, g = c / (dims[1] / groups), lid = ROW_LID, L = ROW_L;
    long SP = 1;
    for (int d = 2; d < nd; ++d) SP *= dims[d];
    walk_t sw = walk_of(&src_l, sp_strides.s0), gw = walk_of(&dd_l, sp_strides.s1);
    float ds = 0.f, db = 0.f;
    for (long n = 0; n < dims[0]; ++n) {
        const long so = stat_offset(&stat_l, n, g);
        const float m = mean[so];
        walk_channel(&sw, dims, nd, n, c);
        walk_channel(&gw, dims, nd, n, c);
        float a = 0.f, b = 0.f;
        for (long sp = lid; sp < SP; sp += L) {
            const float dy = LOAD_DIFF_DST(diff_dst, walk_offset(&gw, dims, nd, n, c, sp));
            a += dy * (LOAD_SRC(src, walk_offset(&sw, dims, nd, n, c, sp)) - m);
            b += dy;
        }
        ds += a * rsqrt(var[so] + eps);
        db += b;
    }
    ds = group_sum(buf, ds);
    db = group_sum(buf, db);
    if (lid == 0 && (flags & GN_DIFF_SCALE)) diff_scale[c] = ds;
    if (lid == 0 && (flags & GN_DIFF_SHIFT)) diff_shift[c] = db;
}
#endif
