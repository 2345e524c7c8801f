// PReLU on dense tensors seen as [R1, B, R2] (B: the weights' positions, dense in the same
// order): forward reads src once and writes dst, VEC per access; backward reads src and
// diff_dst once, writes diff_src and the slices' diff_weights sums (the rows / columns walk of
// reduction_dense.cl), joined after by reduction_dense_final, or written directly (DIRECT)
// where each weight has one slice. Build options: tensor types, VEC, GROUPS, WVEC (forward:
// R2 == 1, VEC weights per access), INDEX32, ROWS / COLS, DIRECT, GROUP_REDUCE.
#include "cl/group_reduce.h"
#include "cl/vec_io.h"

#ifdef INDEX32
#define WIDX(i, R2, B) ((long)((uint)(i) / (uint)(R2) % (uint)(B)))
#else
#define WIDX(i, R2, B) ((i) / (R2) % (B))
#endif

#ifdef FWD
static vf prelu_v(vf x, vf w) { return select(x * w, x, x > (vf)(0.f)); }

// The weights of the VEC elements from i: one value (R2 a multiple of VEC) or VEC of them.
static vf weights_at(const global WEI_DATA_T *wei, long wei_off, long i, long R2, long B) {
#ifdef WVEC
    return LOADV(LOAD_WEI, wei, wei_off + WIDX(i, 1, B));
#else
    return (vf)(LOAD_WEI(wei, wei_off + WIDX(i, R2, B)));
#endif
}

kernel void prelu_dense_fwd(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        global DST_DATA_T *dst, long src_off, long wei_off, long dst_off, long n, long R2,
        long B) {
    const long groups = n / VEC;
    vf x[GROUPS], w[GROUPS];
    FOR_ITEM_GROUPS(g, j, groups) {
        x[g] = LOADV(LOAD_SRC, src, src_off + j * VEC);
        w[g] = weights_at(wei, wei_off, j * VEC, R2, B);
    }
    FOR_ITEM_GROUPS(g, j, groups) STOREV(STORE_DST, dst, dst_off + j * VEC, prelu_v(x[g], w[g]));
    if (get_global_id(0) != 0) return;
    for (long k = groups * VEC; k < n; ++k) {
        const float v = LOAD_SRC(src, src_off + k);
        STORE_DST(dst, dst_off + k, v > 0.f ? v : v * LOAD_WEI(wei, wei_off + WIDX(k, R2, B)));
    }
}
#endif

#ifdef BWD
// diff_src of one access, and its share of diff_weights added to a.
#define PRELU_BWD(x, g, w, ds_at, a) \
    { \
        STOREV(STORE_DIFF_SRC, diff_src, ds_at, select((g) * (w), g, (x) > (vf)(0.f))); \
        a += select((x) * (g), (vf)(0.f), (x) > (vf)(0.f)); \
    }

// The sum of a's lanes.
#if VEC == 8
#define HSUMV(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3) + ((v).s4 + (v).s5) + ((v).s6 + (v).s7))
#elif VEC == 4
#define HSUMV(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#else
#define HSUMV(v) (v)
#endif

#ifdef ROWS
// A work-group per (slice s, weight b), as reduction_dense_rows walks.
kernel void prelu_dense_bwd_rows(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_SRC_DATA_T *diff_src,
        global float *part, global DIFF_WEI_DATA_T *diff_wei, long src_off, long wei_off,
        long dd_off, long ds_off, long dw_off, long R1, long B, long R2, long rows1, long len2,
        long S2, local float *buf) {
    const long id = ROW_ID, b = id % B, s = id / B, s1 = s / S2, s2 = s % S2;
    const long r_end = min(R1, (s1 + 1) * rows1), c_end = min(R2, (s2 + 1) * len2);
    const long step = ROW_L * VEC;
    const vf w = (vf)(LOAD_WEI(wei, wei_off + b));
    vf a = 0.f;
    for (long r = s1 * rows1; r < r_end; ++r) {
        const long base = (r * B + b) * R2;
        long c = s2 * len2 + ROW_LID * VEC;
        for (; c + (GROUPS - 1) * step < c_end; c += GROUPS * step) {
            vf x[GROUPS], g[GROUPS];
            for (int u = 0; u < GROUPS; ++u) {
                x[u] = LOADV(LOAD_SRC, src, src_off + base + c + u * step);
                g[u] = LOADV(LOAD_DIFF_DST, diff_dst, dd_off + base + c + u * step);
            }
            for (int u = 0; u < GROUPS; ++u) PRELU_BWD(x[u], g[u], w, ds_off + base + c + u * step, a);
        }
        for (; c < c_end; c += step) {
            const vf x = LOADV(LOAD_SRC, src, src_off + base + c);
            const vf g = LOADV(LOAD_DIFF_DST, diff_dst, dd_off + base + c);
            PRELU_BWD(x, g, w, ds_off + base + c, a);
        }
    }
    const float r = group_sum(buf, HSUMV(a));
#ifdef DIRECT
    if (ROW_LID == 0) STORE_DIFF_WEI(diff_wei, dw_off + b, r);
#else
    if (ROW_LID == 0) part[id] = r;
#endif
}
#endif

#ifdef COLS
// A work-item per (slice s, VEC columns of B * R2), as reduction_dense_cols walks; the
// weights of its columns (R2 == 1: VEC of them; else the one its columns share).
kernel void prelu_dense_bwd_cols(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_SRC_DATA_T *diff_src,
        global float *part, global DIFF_WEI_DATA_T *diff_wei, long src_off, long wei_off,
        long dd_off, long ds_off, long dw_off, long R1, long M, long R2, long rows1,
        long items) {
    const long id = get_global_id(0);
    if (id >= items) return;
    const long MV = M / VEC, j = id % MV * VEC, s = id / MV;
    const long r_end = min(R1, (s + 1) * rows1);
#ifdef WVEC
    const vf w = LOADV(LOAD_WEI, wei, wei_off + j);
#else
    const vf w = (vf)(LOAD_WEI(wei, wei_off + j / R2));
#endif
    vf a = 0.f;
    for (long r = s * rows1; r < r_end; ++r) {
        const vf x = LOADV(LOAD_SRC, src, src_off + r * M + j);
        const vf g = LOADV(LOAD_DIFF_DST, diff_dst, dd_off + r * M + j);
        PRELU_BWD(x, g, w, ds_off + r * M + j, a);
    }
#ifdef DIRECT
    STOREV(STORE_DIFF_WEI, diff_wei, dw_off + j, a);
#else
    STOREV(store_f32, part, s * M + j, a);
#endif
}
#endif
#endif
