// Softmax (accurate and log) forward over contiguous rows, read once: each row's T
// work-items keep its NREG element groups of VEC in registers. Layout: rows dense in memory
// (the axis innermost, row after row); a work-group holds WG / T rows.
// STREAMED (rows wider than registers hold): the row is read twice instead, the first pass
// keeping a running maximum and a sum rescaled to it (one pass for both), the second writing.
// Build options: SRC/DST types, VEC, T (power of two), NREG or STREAMED, the scale types.
#include "cl/scales.h"
#include "cl/row_segments.h"

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
