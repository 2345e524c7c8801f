// Batch normalization in three bandwidth-shaped steps: partial statistics (or backward sums)
// of many work-groups per channel, a per-channel finalize into coefficients, an elementwise
// apply. Layout: plain and dense, seen as [O][C][I] (NCHW: I = spatial; NHWC: I = 1, CH_LAST),
// or channel-blocked (BLOCK = 8 or 16: nChw16c, nChw8c), seen as [O][C / BLOCK][I][BLOCK]
// with C padded to CPAD, a multiple of BLOCK (the padding channels read zeros, write zeros).
// Build options: FWD or BWD, the tensors' types, VEC (1 or 4 elements per access), CH_LAST
// or BLOCK.
#include "cl/group_reduce.h"
#include "cl/vec_io.h"

// Mirrors the BN_* flags of bnorm.cl.
#define BN_SCALE 1
#define BN_SHIFT 2
#define BN_GLOBAL 4
#define BN_STATS_OUT 8
#define BN_RELU 16
#define BN_ADD_RELU 32
#define BN_WS 64
#define BN_DIFF_SCALE 128
#define BN_DIFF_SHIFT 256

#ifdef BLOCK
#define CPAD ((C + BLOCK - 1) / BLOCK * BLOCK)
// Offset of channel c's first element (o = 0, i = 0).
#define CH_FIRST(c) ((c) / BLOCK * I * BLOCK + (c) % BLOCK)
#else
#define CPAD C
#define CH_FIRST(c) ((c) * I)
#endif

// Sum over the work-items sharing tx = lid % tx_n of a VEC-wide value, through buf
// (get_local_size(0) slots); every work-item gets its column's sum.
static vf group_sum_columns(local vf *buf, vf v, int tx_n) {
    const int lid = get_local_id(0), n = get_local_size(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s >= tx_n; s >>= 1) {
        if (lid < s) buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const vf r = buf[lid % tx_n];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

// The two sums of channels c0 .. c0 + VEC - 1 for part p: part[(c * parts + p) * 2 + {0, 1}].
static void store_parts(global float *part, long c0, long p, int parts, vf s1, vf s2) {
#if VEC == 4
    const float a1[4] = {s1.s0, s1.s1, s1.s2, s1.s3}, a2[4] = {s2.s0, s2.s1, s2.s2, s2.s3};
    for (int j = 0; j < 4; ++j) {
        part[((c0 + j) * parts + p) * 2] = a1[j];
        part[((c0 + j) * parts + p) * 2 + 1] = a2[j];
    }
#else
    part[(c0 * parts + p) * 2] = s1;
    part[(c0 * parts + p) * 2 + 1] = s2;
#endif
}

// Partial sums of the group (channel tile ct, part p) into part[(c * parts + p) * 2 + {0,1}]:
// forward: sum(x - K) and sum((x - K)^2) with K = the channel's first element (shifted sums
// keep the variance exact enough in f32); backward: sum(g) and sum(g * (x - mean)).
// Not CH_LAST: a group per (channel, range of O), work-items along I.
// CH_LAST: a group per (tile of tx_n * VEC channels, range of O), tx along C, ty along O.
// One element group e into the running sums t1, t2, which join s1, s2 every 64 groups: short
// sums keep the rounding of long channels (millions of elements) small.
#ifdef FWD
#define ACCUMULATE(e) \
    do { \
        const vf x = LOADV(LOAD_SRC, src, src_off + (e)) - k; \
        t1 += x; \
        t2 += x * x; \
        FLUSH(); \
    } while (0)
#else
#define ACCUMULATE(e) \
    do { \
        const vf x = LOADV(LOAD_SRC, src, src_off + (e)) - k; \
        vf d = LOADV(LOAD_DIFF_DST, diff_dst, dd_off + (e)); \
        if (flags & BN_RELU) d = select(d, (vf)(0.f), LOADV(load_u8, ws, ws_off + (e)) == 0); \
        t1 += d; \
        t2 += d * x; \
        FLUSH(); \
    } while (0)
#endif
#define FLUSH() \
    if (++n == 64) { \
        s1 += t1; \
        s2 += t2; \
        t1 = 0.f; \
        t2 = 0.f; \
        n = 0; \
    }

kernel void bnorm_flat_stats(const global SRC_DATA_T *src,
#ifdef BWD
        const global DIFF_DST_DATA_T *diff_dst, const global uchar *ws, const global float *mean,
        long dd_off, long ws_off, long stat_off,
#endif
        long src_off, long O, long C, long I, long o_per_part, int parts, int tx_n, int flags,
        global float *scratch, long part_off, local vf *buf) {
    global float *part = scratch + part_off;
    const long g = get_group_id(0);
    const int lid = get_local_id(0), L = get_local_size(0);
#ifdef CH_LAST
    const long ctiles = (C + (long)tx_n * VEC - 1) / ((long)tx_n * VEC);
    const long p = g / ctiles;
    const long c0 = (g % ctiles) * tx_n * VEC + (lid % tx_n) * VEC;
    const int ty = lid / tx_n, ty_n = L / tx_n;
    const bool active = c0 < C;
    const long cc = active ? c0 : 0; // inactive work-items still join the barriers
    const long o_begin = p * o_per_part, o_end = min(O, o_begin + o_per_part);
#ifdef FWD
    const vf k = O > 0 ? LOADV(LOAD_SRC, src, src_off + cc) : (vf)(0.f);
#else
    const vf k = LOADV(load_f32, mean, stat_off + cc);
#endif
    vf s1 = 0.f, s2 = 0.f, t1 = 0.f, t2 = 0.f;
    int n = 0;
    if (active)
        for (long o = o_begin + ty; o < o_end; o += ty_n) {
            const long e = o * C + cc;
            ACCUMULATE(e);
        }
    s1 = group_sum_columns(buf, s1 + t1, tx_n);
    s2 = group_sum_columns(buf, s2 + t2, tx_n);
    if (active && ty == 0) store_parts(part, c0, p, parts, s1, s2);
#elif defined(BLOCK)
    // A group per (channel block cb, range of O); tx picks VEC channels of the block (tx_n =
    // BLOCK / VEC), ty walks the block's rows (o, i), ty_n apart, i carrying into o.
    const long CB = CPAD / BLOCK;
    const long cb = g % CB, p = g / CB;
    const int tx = lid % tx_n, ty = lid / tx_n, ty_n = L / tx_n;
    const long c0 = cb * BLOCK + tx * VEC;
    const long o_begin = p * o_per_part, o_end = min(O, o_begin + o_per_part);
#ifdef FWD
    const vf k = O > 0 && I > 0 ? LOADV(LOAD_SRC, src, src_off + cb * I * BLOCK + tx * VEC)
                                : (vf)(0.f);
#else
    vf k;
    {
        float kv[VEC];
        for (int j = 0; j < VEC; ++j) kv[j] = c0 + j < C ? mean[stat_off + c0 + j] : 0.f;
#if VEC == 4
        k = (vf)(kv[0], kv[1], kv[2], kv[3]);
#else
        k = kv[0];
#endif
    }
#endif
    vf s1 = 0.f, s2 = 0.f, t1 = 0.f, t2 = 0.f;
    int n = 0;
    if (I > 0) {
        long o = o_begin + ty / I, i = ty % I;
        while (o < o_end) {
            const long e = ((o * CB + cb) * I + i) * BLOCK + tx * VEC;
            ACCUMULATE(e);
            i += ty_n;
            if (i >= I) {
                o += i / I;
                i %= I;
            }
        }
    }
    s1 = group_sum_columns(buf, s1 + t1, tx_n);
    s2 = group_sum_columns(buf, s2 + t2, tx_n);
    if (ty == 0) store_parts(part, c0, p, parts, s1, s2);
#else
    const long c = g % C, p = g / C;
    const long o_begin = p * o_per_part, o_end = min(O, o_begin + o_per_part);
#ifdef FWD
    const float k = O > 0 && I > 0 ? LOAD_SRC(src, src_off + c * I) : 0.f;
#else
    const float k = mean[stat_off + c];
#endif
    vf s1 = 0.f, s2 = 0.f, t1 = 0.f, t2 = 0.f;
    int n = 0;
    for (long o = o_begin; o < o_end; ++o) {
        const long row = (o * C + c) * I;
        for (long i = (long)lid * VEC; i < I; i += (long)L * VEC) {
            const long e = row + i;
            ACCUMULATE(e);
        }
    }
    s1 += t1;
    s2 += t2;
#if VEC == 4
    float h1 = s1.s0 + s1.s1 + s1.s2 + s1.s3, h2 = s2.s0 + s2.s1 + s2.s2 + s2.s3;
#else
    float h1 = s1, h2 = s2;
#endif
    h1 = group_sum((local float *)buf, h1);
    h2 = group_sum((local float *)buf, h2);
    if (lid == 0) {
        part[(c * parts + p) * 2] = h1;
        part[(c * parts + p) * 2 + 1] = h2;
    }
#endif
}

// The scratchpad holds the coefficients (3 CPAD floats) and then, from part_off, the partial
// sums. A work-group per channel, CPAD of them (one work-item on CPU devices): the partial sums
// of its `parts` groups joined, then the apply step's coefficients coef[c], coef[CPAD + c],
// coef[2 CPAD + c]:
// forward y = x * a + b (statistics written where asked);
// backward dx = g * a + x * b + d, and diff scale / diff shift.
kernel void bnorm_flat_finalize(const global SRC_DATA_T *src, global float *mean,
        global float *var, const global float *scale, const global float *shift,
        global float *diff_scale, global float *diff_shift, global float *coef, long part_off,
        long src_off, long stat_off, long O, long C, long I, int parts, int flags, float eps,
        local float *buf) {
    const global float *part = coef + part_off;
    const long c = get_group_id(0);
    const int lid = get_local_id(0), L = get_local_size(0);
    const bool pad = c >= C; // a padding channel (BLOCK; CPAD groups): zeros stay zeros
    const float n = (float)O * (float)I;
    float s1 = 0.f, s2 = 0.f;
    for (int p = lid; p < parts && !pad; p += L) {
        s1 += part[(c * parts + p) * 2];
        s2 += part[(c * parts + p) * 2 + 1];
    }
    s1 = group_sum(buf, s1);
    s2 = group_sum(buf, s2);
    if (lid > 0) return; // every work-item holds the sums; one writes
    if (pad) { // after the barriers: no work-item leaves before them (PoCL)
        coef[c] = coef[CPAD + c] = coef[2 * CPAD + c] = 0.f;
        return;
    }
    const float sc = (flags & BN_SCALE) ? scale[c] : 1.f;
#ifdef FWD
    float m, v;
    if (flags & BN_GLOBAL) {
        m = mean[stat_off + c];
        v = var[stat_off + c];
    } else {
        const float k = n > 0.f ? LOAD_SRC(src, src_off + CH_FIRST(c)) : 0.f;
        const float d = n > 0.f ? s1 / n : 0.f;
        m = k + d;
        v = n > 0.f ? fmax(s2 / n - d * d, 0.f) : 0.f;
        if (flags & BN_STATS_OUT) {
            mean[stat_off + c] = m;
            var[stat_off + c] = v;
        }
    }
    const float a = sc * rsqrt(v + eps);
    coef[c] = a;
    coef[CPAD + c] = ((flags & BN_SHIFT) ? shift[c] : 0.f) - m * a;
#else
    const float m = mean[stat_off + c], inv = rsqrt(var[stat_off + c] + eps);
    const float sgx = s2 * inv; // sum(g * xh)
    if (flags & BN_DIFF_SCALE) diff_scale[c] = sgx;
    if (flags & BN_DIFF_SHIFT) diff_shift[c] = s1;
    const float a = sc * inv;
    float b = 0.f, d = 0.f;
    if (!(flags & BN_GLOBAL) && n > 0.f) {
        b = -a * inv * sgx / n;
        d = -a * s1 / n - b * m;
    }
    coef[c] = a;
    coef[CPAD + c] = b;
    coef[2 * CPAD + c] = d;
#endif
}

// Elementwise, 2D: dimension 0 over the VEC-groups of a row, dimension 1 over the rows;
// CH_LAST: rows of C channels (O of them); BLOCK: rows of a channel block's I * BLOCK
// elements (O * CPAD / BLOCK of them); otherwise rows of I elements (O * C of them).
#ifdef CH_LAST
#define ROW_LEN C
#define ROWS O
#elif defined(BLOCK)
#define ROW_LEN (I * BLOCK)
#define ROWS (O * (CPAD / BLOCK))
#else
#define ROW_LEN I
#define ROWS (O * C)
#endif

#ifdef FWD
kernel void bnorm_flat_apply(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        const global DST_DATA_T *src1, global uchar *ws, const global float *coef, long src_off,
        long dst_off, long src1_off, long ws_off, long O, long C, long I, int flags) {
    const long j = get_global_id(0) * VEC, r = get_global_id(1);
    if (j >= ROW_LEN || r >= ROWS) return;
    const long e = r * ROW_LEN + j;
#ifdef CH_LAST
    const vf a = LOADV(load_f32, coef, j), b = LOADV(load_f32, coef, C + j);
#elif defined(BLOCK)
    const long c = (long)((uint)r % (uint)(CPAD / BLOCK)) * BLOCK + j % BLOCK;
    const vf a = LOADV(load_f32, coef, c), b = LOADV(load_f32, coef, CPAD + c);
#else
    const long c = r % C;
    const float a = coef[c], b = coef[C + c];
#endif
    vf y = LOADV(LOAD_SRC, src, src_off + e) * a + b;
    if (flags & BN_ADD_RELU) y += LOADV(LOAD_DST, src1, src1_off + e);
    if (flags & BN_RELU) {
        if (flags & BN_WS) STOREV(store_u8, ws, ws_off + e, select((vf)(0.f), (vf)(1.f), y > 0.f));
        y = fmax(y, 0.f);
    }
    STOREV(STORE_DST, dst, dst_off + e, y);
}
#endif

#ifdef BWD
kernel void bnorm_flat_apply(const global SRC_DATA_T *src,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_SRC_DATA_T *diff_src,
        global DIFF_SRC_DATA_T *diff_src1, const global uchar *ws, const global float *coef,
        long src_off, long dd_off, long ds_off, long ds1_off, long ws_off, long O, long C, long I,
        int flags) {
    const long j = get_global_id(0) * VEC, r = get_global_id(1);
    if (j >= ROW_LEN || r >= ROWS) return;
    const long e = r * ROW_LEN + j;
#ifdef CH_LAST
    const vf a = LOADV(load_f32, coef, j), b = LOADV(load_f32, coef, C + j),
             d = LOADV(load_f32, coef, 2 * C + j);
#elif defined(BLOCK)
    const long c = (long)((uint)r % (uint)(CPAD / BLOCK)) * BLOCK + j % BLOCK;
    const vf a = LOADV(load_f32, coef, c), b = LOADV(load_f32, coef, CPAD + c),
             d = LOADV(load_f32, coef, 2 * CPAD + c);
#else
    const long c = r % C;
    const float a = coef[c], b = coef[C + c], d = coef[2 * C + c];
#endif
    vf g = LOADV(LOAD_DIFF_DST, diff_dst, dd_off + e);
    if (flags & BN_RELU) g = select(g, (vf)(0.f), LOADV(load_u8, ws, ws_off + e) == 0);
    if (flags & BN_ADD_RELU) STOREV(STORE_DIFF_SRC, diff_src1, ds1_off + e, g);
    vf dx = g * a;
    if (!(flags & BN_GLOBAL)) dx += LOADV(LOAD_SRC, src, src_off + e) * b + d;
    STOREV(STORE_DIFF_SRC, diff_src, ds_off + e, dx);
}
#endif
