// Softmax (accurate and log) forward and backward along an axis that is not innermost in
// memory: the dense tensor as [outer, C, inner], a work-item per (outer, VEC neighbouring inner
// positions) walking down the C positions a row of `inner` apart (neighbouring work-items,
// neighbouring addresses). Forward reads twice (a running maximum with a sum rescaled to it,
// then the writes) or once where C <= CREG (the column kept in registers).
// Build options: SRC/DST types (backward DST, DIFF_DST, DIFF_SRC), VEC, CREG, scale types, BWD.
#include "cl/scales.h"
#include "cl/vec_io.h"

#define UNROLL 4

#ifndef BWD
// (m, s) joined with x: one exp per element, exp(-|x - m|), applied to whichever side lost.
#define ONLINE_STEP(m, s, x) \
    { \
        const vf hi_ = fmax(m, x), lo_ = fmin(m, x); \
        const vf e_ = exp(select(lo_ - hi_, (vf)(-INFINITY), hi_ == (vf)(-INFINITY))); \
        s = select(s + e_, s * e_ + 1.f, x > m); \
        m = hi_; \
    }

kernel void softmax_axis_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long src_off, long dst_off, long C, long inner, long items, int is_log,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale) {
    const long id = get_global_id(0);
    if (id >= items) return;
    const long IV = inner / VEC, o = id / IV, i = id % IV * VEC;
    const long base = o * C * inner + i;
    const global SRC_DATA_T *x = src + src_off + base;
    global DST_DATA_T *y = dst + dst_off + base;
    const float k = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float dk = dst_scale ? 1.f / LOAD_DST_SCALE(dst_scale, 0) : 1.f;
#ifdef CREG
    vf v[CREG];
    vf m = (vf)(-INFINITY);
    for (int c = 0; c < CREG; ++c) {
        v[c] = LOADV(LOAD_SRC, x, c * inner);
        m = fmax(m, v[c]);
    }
    vf s = 0.f;
    for (int c = 0; c < CREG; ++c) {
        v[c] = v[c] - m;
        s += exp(v[c]);
    }
    const vf ls = log(s), inv = (k * dk) / s;
    for (int c = 0; c < CREG; ++c)
        STOREV(STORE_DST, y, c * inner, is_log ? (v[c] - ls) * (k * dk) : exp(v[c]) * inv);
#else
    vf m = (vf)(-INFINITY), s = 0.f;
    long c = 0;
    for (; c + UNROLL <= C; c += UNROLL) {
        vf v[UNROLL];
        for (int u = 0; u < UNROLL; ++u) v[u] = LOADV(LOAD_SRC, x, (c + u) * inner);
        for (int u = 0; u < UNROLL; ++u) ONLINE_STEP(m, s, v[u]);
    }
    for (; c < C; ++c) {
        const vf v = LOADV(LOAD_SRC, x, c * inner);
        ONLINE_STEP(m, s, v);
    }
    const vf ls = log(s), inv = (k * dk) / s;
    for (c = 0; c < C; ++c) {
        const vf v = LOADV(LOAD_SRC, x, c * inner) - m;
        STOREV(STORE_DST, y, c * inner, is_log ? (v - ls) * (k * dk) : exp(v) * inv);
    }
#endif
}
#endif

#ifdef BWD
// accurate: diff_src = dst * (diff_dst - sum(diff_dst * dst)); log: diff_dst - exp(dst) * sum(diff_dst).
kernel void softmax_axis_bwd(const global DST_DATA_T *dst, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, long dst_off, long dd_off, long ds_off, long C,
        long inner, long items, int is_log) {
    const long id = get_global_id(0);
    if (id >= items) return;
    const long IV = inner / VEC, o = id / IV, i = id % IV * VEC;
    const long base = o * C * inner + i;
    const global DST_DATA_T *y = dst + dst_off + base;
    const global DIFF_DST_DATA_T *g = diff_dst + dd_off + base;
    global DIFF_SRC_DATA_T *dx = diff_src + ds_off + base;
    vf s = 0.f;
    long c = 0;
    for (; c + UNROLL <= C; c += UNROLL) {
        vf gv[UNROLL], yv[UNROLL];
        for (int u = 0; u < UNROLL; ++u) {
            gv[u] = LOADV(LOAD_DIFF_DST, g, (c + u) * inner);
            yv[u] = is_log ? (vf)(1.f) : LOADV(LOAD_DST, y, (c + u) * inner);
        }
        for (int u = 0; u < UNROLL; ++u) s += gv[u] * yv[u];
    }
    for (; c < C; ++c)
        s += LOADV(LOAD_DIFF_DST, g, c * inner) * (is_log ? (vf)(1.f) : LOADV(LOAD_DST, y, c * inner));
    for (c = 0; c < C; ++c) {
        const vf yv = LOADV(LOAD_DST, y, c * inner), gv = LOADV(LOAD_DIFF_DST, g, c * inner);
        STOREV(STORE_DIFF_SRC, dx, c * inner, is_log ? gv - exp(yv) * s : yv * (gv - s));
    }
}
#endif
