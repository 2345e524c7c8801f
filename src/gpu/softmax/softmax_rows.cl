// Softmax (accurate and log) forward over contiguous rows, read once: each row's T
// work-items keep its NREG element groups of VEC in registers. Layout: rows dense in memory
// (the axis innermost, row after row); a work-group holds WG / T rows.
// STREAMED (rows wider than registers hold): the row is read twice instead, the first pass
// keeping a running maximum and a sum rescaled to it (one pass for both), the second writing.
// Backward (BWD): diff_src from dst and diff_dst rows the same way, one reduction a row
// (accurate: sum(diff_dst * dst); log: sum(diff_dst)).
// Build options: SRC/DST types (backward DST/DIFF_DST/DIFF_SRC), VEC, T (power of two), NREG
// or STREAMED, the scale types, BWD.
#include "cl/scales.h"
#include "cl/row_segments.h"

#ifndef BWD
#ifdef STREAMED
kernel void softmax_rows_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long src_off, long dst_off, long rows, long C, int is_log,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf) {
    const int t = PLACE_IN_ROW();
    const long r = ROW_OF_ITEM();
    const bool live = r < rows;
    const global SRC_DATA_T *x = src + src_off + (live ? r : 0) * C;
    float m = -INFINITY, s = 0.f;
    for (long c = (long)t * VEC; live && c < C; c += (long)T * VEC) {
        const vf v = LOADV(LOAD_SRC, x, c);
        const float mn = fmax(m, HMAX(v));
        if (mn == -INFINITY) continue; // nothing but -inf so far: the sum stays 0
        s = s * exp(m - mn) + HSUM(exp(v - mn));
        m = mn;
    }
    const float gm = segment_max(buf, m);
    s = segment_sum(buf, m == -INFINITY ? 0.f : s * exp(m - gm));
    const float k = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float dk = dst_scale ? 1.f / LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    const float ls = log(s), inv = k * dk / s;
    global DST_DATA_T *y = dst + dst_off + r * C;
    for (long c = (long)t * VEC; live && c < C; c += (long)T * VEC) {
        const vf v = LOADV(LOAD_SRC, x, c) - gm;
        STOREV(STORE_DST, y, c, is_log ? (v - ls) * (k * dk) : exp(v) * inv);
    }
}
#else
kernel void softmax_rows_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long src_off, long dst_off, long rows, long C, int is_log,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf) {
    const int t = PLACE_IN_ROW();
    const long r = ROW_OF_ITEM();
    const bool live = r < rows;
    const global SRC_DATA_T *x = src + src_off + (live ? r : 0) * C;
    vf v[NREG];
    float m = -INFINITY;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        v[j] = live && c < C ? LOADV(LOAD_SRC, x, c) : (vf)(-INFINITY);
        m = fmax(m, HMAX(v[j]));
    }
    m = segment_max(buf, m);
    float s = 0.f;
    for (int j = 0; j < NREG; ++j) {
        v[j] = v[j] - m;
        s += HSUM(exp(v[j])); // -inf pads give 0
    }
    s = segment_sum(buf, s);
    const float k = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float dk = dst_scale ? 1.f / LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    const float ls = log(s), inv = k * dk / s;
    global DST_DATA_T *y = dst + dst_off + r * C;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        if (live && c < C) // no early return: PoCL ran past it
            STOREV(STORE_DST, y, c, is_log ? (v[j] - ls) * (k * dk) : exp(v[j]) * inv);
    }
}
#endif
#endif // !BWD

#ifdef BWD
// accurate: diff_src = dst * (diff_dst - sum(diff_dst * dst));
// log: diff_src = diff_dst - exp(dst) * sum(diff_dst).
static vf softmax_grad(vf y, vf g, float s, int is_log) {
    return is_log ? g - exp(y) * s : y * (g - s);
}

#ifdef STREAMED
kernel void softmax_rows_bwd(const global DST_DATA_T *dst, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, long dst_off, long dd_off, long ds_off, long rows,
        long C, int is_log, local float *buf) {
    const int t = PLACE_IN_ROW();
    const long r = ROW_OF_ITEM();
    const bool live = r < rows;
    const long row = (live ? r : 0) * C;
    const global DST_DATA_T *y = dst + dst_off + row;
    const global DIFF_DST_DATA_T *g = diff_dst + dd_off + row;
    float s = 0.f;
    for (long c = (long)t * VEC; live && c < C; c += (long)T * VEC) {
        const vf gv = LOADV(LOAD_DIFF_DST, g, c);
        s += is_log ? HSUM(gv) : HSUM(gv * LOADV(LOAD_DST, y, c));
    }
    s = segment_sum(buf, s);
    global DIFF_SRC_DATA_T *dx = diff_src + ds_off + row;
    for (long c = (long)t * VEC; live && c < C; c += (long)T * VEC)
        STOREV(STORE_DIFF_SRC, dx, c,
                softmax_grad(LOADV(LOAD_DST, y, c), LOADV(LOAD_DIFF_DST, g, c), s, is_log));
}
#else
kernel void softmax_rows_bwd(const global DST_DATA_T *dst, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, long dst_off, long dd_off, long ds_off, long rows,
        long C, int is_log, local float *buf) {
    const int t = PLACE_IN_ROW();
    const long r = ROW_OF_ITEM();
    const bool live = r < rows;
    const long row = (live ? r : 0) * C;
    const global DST_DATA_T *y = dst + dst_off + row;
    const global DIFF_DST_DATA_T *g = diff_dst + dd_off + row;
    vf yr[NREG], gr[NREG];
    float s = 0.f;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        const bool in = live && c < C;
        yr[j] = in ? LOADV(LOAD_DST, y, c) : (vf)(0.f);
        gr[j] = in ? LOADV(LOAD_DIFF_DST, g, c) : (vf)(0.f);
        s += is_log ? HSUM(gr[j]) : HSUM(gr[j] * yr[j]);
    }
    s = segment_sum(buf, s);
    global DIFF_SRC_DATA_T *dx = diff_src + ds_off + row;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        if (live && c < C) // no early return: PoCL ran past it
            STOREV(STORE_DIFF_SRC, dx, c, softmax_grad(yr[j], gr[j], s, is_log));
    }
}
#endif
#endif
