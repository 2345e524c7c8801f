// Layer normalization (and RMS norm) forward over contiguous rows, read once: each row's T
// work-items keep it in registers, mean and variance from the registers (two passes there).
// Layout: src, dst rows dense (the normalized axis innermost), statistics one per row.
// Backward (BWD): the same rows, diff_src from registers, and diff scale/shift as partial sums
// per row segment (each work-item keeps its columns' sums over the rows it walks) joined by a
// second kernel. Build options: SRC/DST/SS (DIFF_DST/DIFF_SRC/DIFF_SS) types, VEC, T, NREG,
// the scale types, FWD or BWD, RMS (forward: the flags' LN_RMS, one reduction a row).
#include "cl/row_segments.h"
#include "cl/scales.h"

// Mirrors the LN_* flags of lnorm.cl.
#define LN_SCALE 1
#define LN_SHIFT 2
#define LN_GLOBAL 4
#define LN_STATS_OUT 8
#define LN_RMS 16
#define LN_DIFF_SCALE 32
#define LN_DIFF_SHIFT 64

#ifdef FWD
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
#ifdef RMS
        s += HSUM(v[j] * v[j]);
#else
        s += HSUM(v[j]);
#endif
    }
#ifdef RMS
    // RMS norm (a build option, so no barrier sits under a branch): the mean square in one
    // reduction.
    const float row_mean = 0.f, row_var = segment_sum(buf, s) / C;
#else
    const float row_mean = segment_sum(buf, s) / C;
    float q = 0.f;
    for (int j = 0; j < NREG; ++j) {
        const vf d = ROW_ELEM(j, t) < C ? v[j] - row_mean : (vf)(0.f);
        q += HSUM(d * d);
    }
    const float row_var = segment_sum(buf, q) / C;
#endif
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
#endif

#ifdef BWD
// g = diff_dst * scale, xh = (x - mean) * inv:
// diff_src = inv * (g - mean(g) - xh * mean(g * xh))   (RMS: without mean(g); global
// statistics: inv * g). Segment s walks rows s, s + nseg, ...; every work-item of a group
// runs the same number of steps (the reductions' barriers).
kernel void lnorm_rows_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, const global float *mean, const global float *var,
        const global SS_DATA_T *scale, long src_off, long dd_off, long ds_off, long stat_off,
        long rows, long C, int flags, float eps, global float *part, local float *buf) {
    const int t = PLACE_IN_ROW();
    const long seg = ROW_OF_ITEM();
    const long nseg = get_num_groups(0) * (get_local_size(0) / T);
    const bool rms = flags & LN_RMS;
    vf sc[NREG], dg[NREG], db[NREG];
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        sc[j] = (flags & LN_SCALE) && c < C ? LOADV(LOAD_SS, scale, c) : (vf)(1.f);
        dg[j] = 0.f;
        db[j] = 0.f;
    }
    const long steps = (rows + nseg - 1) / nseg;
    for (long k = 0; k < steps; ++k) {
        const long r = seg + k * nseg;
        const bool live = r < rows;
        const long rr = live ? r : 0;
        const float m = rms ? 0.f : mean[stat_off + rr];
        const float inv = rsqrt(var[stat_off + rr] + eps);
        vf xh[NREG], g[NREG];
        float sg = 0.f, sgx = 0.f;
        for (int j = 0; j < NREG; ++j) {
            const long c = ROW_ELEM(j, t);
            const bool in = live && c < C;
            const vf x = in ? LOADV(LOAD_SRC, src, src_off + rr * C + c) : (vf)(0.f);
            const vf d = in ? LOADV(LOAD_DIFF_DST, diff_dst, dd_off + rr * C + c) : (vf)(0.f);
            xh[j] = in ? (x - m) * inv : (vf)(0.f);
            dg[j] += d * xh[j];
            db[j] += d;
            g[j] = d * sc[j];
            sg += HSUM(g[j]);
            sgx += HSUM(g[j] * xh[j]);
        }
        sg = segment_sum(buf, sg) / C;
        sgx = segment_sum(buf, sgx) / C;
        if (rms) sg = 0.f;
        if (flags & LN_GLOBAL) sg = sgx = 0.f; // constant statistics: no terms through them
        for (int j = 0; j < NREG; ++j) {
            const long c = ROW_ELEM(j, t);
            if (live && c < C)
                STOREV(STORE_DIFF_SRC, diff_src, ds_off + rr * C + c,
                        inv * (g[j] - sg - xh[j] * sgx));
        }
    }
    // This segment's column sums: part[seg][C] (diff scale), then part[nseg + seg][C].
    for (int j = 0; j < NREG; ++j) {
        const long c = ROW_ELEM(j, t);
        if (c < C) {
            STOREV(store_f32, part, seg * C + c, dg[j]);
            STOREV(store_f32, part, (nseg + seg) * C + c, db[j]);
        }
    }
}

// Column c: the segments' partial sums joined into diff scale / diff shift.
kernel void lnorm_rows_bwd_scaleshift(const global float *part, global DIFF_SS_DATA_T *diff_scale,
        global DIFF_SS_DATA_T *diff_shift, long C, long nseg, int flags) {
    const long c = get_global_id(0);
    if (c >= C) return;
    float ds = 0.f, db = 0.f;
    for (long s = 0; s < nseg; ++s) {
        ds += part[s * C + c];
        db += part[(nseg + s) * C + c];
    }
    if (flags & LN_DIFF_SCALE) STORE_DIFF_SS(diff_scale, c, ds);
    if (flags & LN_DIFF_SHIFT) STORE_DIFF_SS(diff_shift, c, db);
}
#endif
