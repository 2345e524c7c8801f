// Group normalization forward where each (mb, group) is one contiguous run of memory (dense
// channels-first tensors: the group's channels follow each other, each a run of SP points):
// one work-group per run (or one work-item, on CPU devices), loads of VEC elements. The
// statistics take one pass: sums of x - K and of its square, K being the run's first value
// (a shift that keeps the variance's subtraction from cancelling for data far from zero).
// Build options: VEC (1, 4 or 8 where SP and every offset are multiples of it), GROUP_REDUCE,
// the tensors' types (SRC, DST).
#include "cl/group_reduce.h"
#include "cl/vec_io.h"

// Flags (an int argument), as gnorm.cl's.
#define GN_SCALE 1
#define GN_SHIFT 2
#define GN_GLOBAL 4 // statistics are inputs
#define GN_STATS_OUT 8 // forward writes the statistics

#if VEC == 8
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3 + (v).s4 + (v).s5 + (v).s6 + (v).s7)
#elif VEC == 4
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#else
#define HSUM(v) (v)
#endif

// src and dst at (n, c, point): offset0 + (n * C + c) * SP + point; statistics dense (N, G).
kernel void gnorm_flat_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global float *mean, global float *var, const global float *scale,
        const global float *shift, long src_off, long dst_off, long C, long SP, long groups,
        int flags, float eps, local float *buf) {
    const long row = ROW_ID, lid = ROW_LID, L = ROW_L;
    const long n = row / groups, g = row % groups, Cg = C / groups, M = Cg * SP;
    const long first = (n * C + g * Cg) * SP; // the run's first element (without offset0)
    const global SRC_DATA_T *x = src + src_off + first;
    float m, v;
    if (flags & GN_GLOBAL) {
        m = mean[row];
        v = var[row];
    } else {
        const float k = LOAD_SRC(x, 0);
        float s1 = 0.f, s2 = 0.f;
        for (long i = lid * VEC; i < M; i += L * VEC) {
            const vf d = LOADV(LOAD_SRC, x, i) - k;
            s1 += HSUM(d);
            s2 += HSUM(d * d);
        }
        const float a = group_sum(buf, s1) / M, b = group_sum(buf, s2) / M;
        m = k + a;
        v = fmax(b - a * a, 0.f);
    }
    if ((flags & GN_STATS_OUT) && lid == 0) {
        mean[row] = m;
        var[row] = v;
    }
    const float inv = rsqrt(v + eps);
    global DST_DATA_T *y = dst + dst_off + first;
    for (long c = 0; c < Cg; ++c) {
        const long ch = g * Cg + c;
        const float a = ((flags & GN_SCALE) ? scale[ch] : 1.f) * inv;
        const float b = ((flags & GN_SHIFT) ? shift[ch] : 0.f) - m * a;
        for (long i = c * SP + lid * VEC; i < (c + 1) * SP; i += L * VEC)
            STOREV(STORE_DST, y, i, LOADV(LOAD_SRC, x, i) * a + b);
    }
}
