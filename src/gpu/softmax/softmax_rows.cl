// Softmax (accurate and log) forward over contiguous rows, read once: each row's T
// work-items keep its NREG element groups of VEC in registers. Layout: rows dense in memory
// (the axis innermost, row after row); a work-group holds WG / T rows.
// Build options: SRC/DST types, VEC, T (power of two), NREG, the scale types.
#include "cl/scales.h"
#include "cl/vec_io.h"

// Reductions over the T work-items of one row (a segment of the group), through buf.
static float segment_max(local float *buf, float v) {
    const int lid = get_local_id(0), t = lid % T;
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = T / 2; s > 0; s >>= 1) {
        if (t < s) buf[lid] = fmax(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[lid - t];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

static float segment_sum(local float *buf, float v) {
    const int lid = get_local_id(0), t = lid % T;
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = T / 2; s > 0; s >>= 1) {
        if (t < s) buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[lid - t];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

#if VEC == 4
#define HMAX(v) fmax(fmax((v).s0, (v).s1), fmax((v).s2, (v).s3))
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#else
#define HMAX(v) (v)
#define HSUM(v) (v)
#endif

kernel void softmax_rows_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long src_off, long dst_off, long rows, long C, int is_log,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf) {
    const int t = get_local_id(0) % T;
    const long r = get_group_id(0) * (get_local_size(0) / T) + get_local_id(0) / T;
    const bool live = r < rows;
    const global SRC_DATA_T *x = src + src_off + (live ? r : 0) * C;
    vf v[NREG];
    float m = -INFINITY;
    for (int j = 0; j < NREG; ++j) {
        const long c = ((long)j * T + t) * VEC;
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
    if (!live) return;
    const float k = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float dk = dst_scale ? 1.f / LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    const float ls = log(s), inv = k * dk / s;
    global DST_DATA_T *y = dst + dst_off + r * C;
    for (int j = 0; j < NREG; ++j) {
        const long c = ((long)j * T + t) * VEC;
        if (c < C) STOREV(STORE_DST, y, c, is_log ? (v[j] - ls) * (k * dk) : exp(v[j]) * inv);
    }
}
