// Pooling (max, avg including / excluding padding), 1D/2D/3D as D x H x W with unit dims in
// front. Forward: one work-item per dst element (max training records the tap index in the
// workspace). Backward: one work-item per diff_src element, gathering the outputs whose
// windows read it (no atomics). Build options: FWD or BWD, the tensors' types (SRC, DST or
// DIFF_SRC, DIFF_DST; WS).
#include "cl/common.h"
#include "cl/post_ops.h"

// Mirrors gpu::pool_geom_t (pooling.cpp).
typedef struct {
    long mb, c, in[3], out[3], k[3], s[3], dl[3], pl[3];
    long ndims, alg; // alg: 0 max, 1 avg including padding, 2 avg excluding padding
} pool_geom_t;

// Logical index of (n, c, z, y, x) for a tensor of `ndims` dimensions.
void pool_index(long ndims, long n, long c, long z, long y, long x, long *idx) {
    idx[0] = n;
    idx[1] = c;
    if (ndims == 5) {
        idx[2] = z;
        idx[3] = y;
        idx[4] = x;
    } else if (ndims == 4) {
        idx[2] = y;
        idx[3] = x;
    } else {
        idx[2] = x;
    }
}

// [lo, hi) of the taps along dim i of output o that land inside src.
void pool_taps(const pool_geom_t *g, int i, long o, long *lo, long *hi) {
    const long start = o * g->s[i] - g->pl[i], step = g->dl[i] + 1;
    long l = 0, h = g->k[i];
    while (l < h && start + l * step < 0) ++l;
    while (h > l && start + (h - 1) * step >= g->in[i]) --h;
    *lo = l;
    *hi = h;
}

#ifdef FWD
kernel void pooling_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global WS_DATA_T *ws, tensor_layout_t src_l, tensor_layout_t dst_l,
        tensor_layout_t ws_l, pool_geom_t g, int has_ws POST_OP_PARAMS) {
    long i = get_global_id(0);
    const long n_out = g.mb * g.c * g.out[0] * g.out[1] * g.out[2];
    if (i >= n_out) return;
    long o[3];
    o[2] = i % g.out[2]; i /= g.out[2];
    o[1] = i % g.out[1]; i /= g.out[1];
    o[0] = i % g.out[0]; i /= g.out[0];
    const long c = i % g.c, n = i / g.c;
    long lo[3], hi[3], idx[MAX_NDIMS];
    for (int k = 0; k < 3; ++k) pool_taps(&g, k, o[k], &lo[k], &hi[k]);
    float acc = g.alg == 0 ? -INFINITY : 0.f;
    long arg = 0, count = 0;
    for (long kz = lo[0]; kz < hi[0]; ++kz)
        for (long ky = lo[1]; ky < hi[1]; ++ky)
            for (long kx = lo[2]; kx < hi[2]; ++kx) {
                pool_index(g.ndims, n, c, o[0] * g.s[0] - g.pl[0] + kz * (g.dl[0] + 1),
                        o[1] * g.s[1] - g.pl[1] + ky * (g.dl[1] + 1),
                        o[2] * g.s[2] - g.pl[2] + kx * (g.dl[2] + 1), idx);
                const float v = LOAD_SRC(src, layout_offset(&src_l, idx));
                ++count;
                if (g.alg == 0) {
                    if (v > acc || (count == 1 && !(v <= acc))) { // the first tap wins NaN
                        acc = v;
                        arg = (kz * g.k[1] + ky) * g.k[2] + kx;
                    }
                } else {
                    acc += v;
                }
            }
    if (count == 0) acc = g.alg == 0 ? SRC_LOWEST : 0.f; // a dilated window of padding only
    else if (g.alg == 1) acc /= (float)(g.k[0] * g.k[1] * g.k[2]);
    else if (g.alg == 2) acc /= (float)count;
    pool_index(g.ndims, n, c, o[0], o[1], o[2], idx);
    const long off = layout_offset(&dst_l, idx);
    acc = POST_OPS_AT(acc, idx, LOAD_DST, dst, off);
    STORE_DST(dst, off, acc);
    if (has_ws) STORE_WS(ws, layout_offset(&ws_l, idx), (float)arg);
}
#endif

#ifdef BWD
// The output index along dim d whose tap t reads input position i, or -1.
long pool_reader(const pool_geom_t *g, int d, long i, long t) {
    const long p = i + g->pl[d] - t * (g->dl[d] + 1);
    if (p < 0 || p % g->s[d] != 0) return -1;
    const long o = p / g->s[d];
    return o < g->out[d] ? o : -1;
}

kernel void pooling_bwd(global DIFF_SRC_DATA_T *diff_src,
        const global DIFF_DST_DATA_T *diff_dst, const global WS_DATA_T *ws,
        tensor_layout_t ds_l, tensor_layout_t dd_l, tensor_layout_t ws_l, pool_geom_t g) {
    long i = get_global_id(0);
    const long n_in = g.mb * g.c * g.in[0] * g.in[1] * g.in[2];
    if (i >= n_in) return;
    long p[3];
    p[2] = i % g.in[2]; i /= g.in[2];
    p[1] = i % g.in[1]; i /= g.in[1];
    p[0] = i % g.in[0]; i /= g.in[0];
    const long c = i % g.c, n = i / g.c;
    long idx[MAX_NDIMS];
    float acc = 0.f;
    for (long kz = 0; kz < g.k[0]; ++kz) {
        const long oz = pool_reader(&g, 0, p[0], kz);
        if (oz < 0) continue;
        for (long ky = 0; ky < g.k[1]; ++ky) {
            const long oy = pool_reader(&g, 1, p[1], ky);
            if (oy < 0) continue;
            for (long kx = 0; kx < g.k[2]; ++kx) {
                const long ox = pool_reader(&g, 2, p[2], kx);
                if (ox < 0) continue;
                pool_index(g.ndims, n, c, oz, oy, ox, idx);
                if (g.alg == 0) {
                    const long arg = (long)LOAD_WS(ws, layout_offset(&ws_l, idx));
                    if (arg == (kz * g.k[1] + ky) * g.k[2] + kx)
                        acc += LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
                    continue;
                }
                float div = (float)(g.k[0] * g.k[1] * g.k[2]);
                if (g.alg == 2) {
                    long lo[3], hi[3];
                    pool_taps(&g, 0, oz, &lo[0], &hi[0]);
                    pool_taps(&g, 1, oy, &lo[1], &hi[1]);
                    pool_taps(&g, 2, ox, &lo[2], &hi[2]);
                    div = (float)((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]));
                }
                acc += LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx)) / div;
            }
        }
    }
    pool_index(g.ndims, n, c, p[0], p[1], p[2], idx);
    STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), acc);
}
#endif
