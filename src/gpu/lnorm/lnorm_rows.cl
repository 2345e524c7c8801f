// Layer normalization (and RMS norm) forward over contiguous rows, read once: each row's T
// work-items keep it in registers, mean and variance from the registers (two passes there).
// Layout: src, dst rows dense (the normalized axis innermost), statistics one per row.
// Build options: SRC/DST/SS types, VEC, T, NREG, the scale types.
#include "cl/row_segments.h"
#include "cl/scales.h"

// Mirrors the LN_* flags of lnorm.cl.
#define LN_SCALE 1
#define LN_SHIFT 2
#define LN_GLOBAL 4
#define LN_STATS_OUT 8
#define LN_RMS 16

kernel void lnorm_rows_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global float *mean, global float *var, const global SS_DATA_T *scale,
        const global SS_DATA_T *shift, long src_off, long dst_off, long stat_off, long rows,
        long C, int flags, float eps, const global SRC_SCALE_DATA_T *src_scale,
        const global DST_SCALE_DATA_T *dst_scale, local float *buf) {
    const int t = PLACE_IN_ROW();
    const long r = ROW_OF_ITEM();
    const bool live = r < rows;
    const global SRC_DATA_T *x = src + src_off + (live ? r : 0) * C;
    const bool rms = flags & LN_RMS;
    vf v[NREG];
    float s = 0.f;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        v[j] = live && c < C ? LOADV(LOAD_SRC, x, c) : (vf)(0.f);
        s += HSUM(v[j]);
    }
    // Both reductions run whatever the flags (no barrier under a branch: PoCL's work-group
    // loops mishandle rows that are past the end there).
    const float total = segment_sum(buf, s);
    const float row_mean = rms ? 0.f : total / C;
    float q = 0.f;
    for (int j = 0; j < NREG; ++j) {
        const vf d = ROW_ELEM(j, t) < C ? v[j] - row_mean : (vf)(0.f);
        q += HSUM(d * d);
    }
    const float row_var = segment_sum(buf, q) / C;
    float m = row_mean, var_r = row_var;
    if (flags & LN_GLOBAL) {
        m = !rms && live ? mean[stat_off + r] : 0.f;
        var_r = live ? var[stat_off + r] : 1.f;
    } else if ((flags & LN_STATS_OUT) && live && t == 0) {
        if (!rms) mean[stat_off + r] = m;
        var[stat_off + r] = var_r;
    }
    const float out_scale = (src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f)
            / (dst_scale ? LOAD_DST_SCALE(dst_scale, 0) : 1.f);
    const float inv = rsqrt(var_r + eps);
    global DST_DATA_T *y = dst + dst_off + r * C;
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        if (!live || c >= C) continue; // no early return: PoCL ran past it
        vf o = (v[j] - m) * inv;
        if (flags & LN_SCALE) o *= LOADV(LOAD_SS, scale, c);
        if (flags & LN_SHIFT) o += LOADV(LOAD_SS, shift, c);
        STOREV(STORE_DST, y, c, o * out_scale);
    }
}
