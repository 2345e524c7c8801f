// Softmax (accurate and log) forward over contiguous rows, read once: each row's T
// work-items keep its NREG element groups of VEC in registers. Layout: rows dense in memory
// (the axis innermost, row after row); a work-group holds WG / T rows.
// Build options: SRC/DST types, VEC, T (power of two), NREG, the scale types.
#include "cl/scales.h"
#include "cl/row_segments.h"

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
