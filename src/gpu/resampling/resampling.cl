// Resampling (nearest, linear), 1D/2D/3D as D x H x W with unit dims in front. dst position
// o along a dim reads src coordinate (o + 0.5) * in / out - 0.5: nearest rounds it, linear
// weighs its two neighbours (clamped at the edges). Forward: one work-item per dst element;
// backward: one work-item per diff_src element, gathering the dst elements that read it.
// Build options: FWD or BWD, the tensors' types (SRC, DST or DIFF_SRC, DIFF_DST).
#include "cl/common.h"
#include "cl/post_ops.h"

// Same rounding as the CPU engine's index maps: no contraction into fma.
#pragma OPENCL FP_CONTRACT OFF

#include "resampling/rs_tap.h"

typedef struct {
    long mb, c, in[3], out[3];
    long ndims, linear;
} rs_geom_t; // mirrors gpu::rs_geom_t (resampling.cpp)

void rs_index(long ndims, long n, long c, const long *sp, long *idx) {
    idx[0] = n;
    idx[1] = c;
    for (int k = 0; k < ndims - 2; ++k) idx[2 + k] = sp[5 - ndims + k];
}

#ifdef FWD
kernel void resampling_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, rs_geom_t g POST_OP_PARAMS) {
    long i = get_global_id(0);
    if (i >= g.mb * g.c * g.out[0] * g.out[1] * g.out[2]) return;
    long o[3];
    o[2] = i % g.out[2]; i /= g.out[2];
    o[1] = i % g.out[1]; i /= g.out[1];
    o[0] = i % g.out[0]; i /= g.out[0];
    const long c = i % g.c, n = i / g.c;
    rs_tap_t t[3];
    for (int k = 0; k < 3; ++k) t[k] = rs_tap(g.linear, o[k], g.in[k], g.out[k]);
    long idx[MAX_NDIMS], sp[3];
    float acc = 0.f;
    const int taps = g.linear ? 2 : 1;
    for (int a = 0; a < taps; ++a)
        for (int b = 0; b < taps; ++b)
            for (int e = 0; e < taps; ++e) {
                sp[0] = a ? t[0].i1 : t[0].i0;
                sp[1] = b ? t[1].i1 : t[1].i0;
                sp[2] = e ? t[2].i1 : t[2].i0;
                const float w = (a ? t[0].w1 : t[0].w0) * (b ? t[1].w1 : t[1].w0)
                        * (e ? t[2].w1 : t[2].w0);
                rs_index(g.ndims, n, c, sp, idx);
                acc += w * LOAD_SRC(src, layout_offset(&src_l, idx));
            }
    rs_index(g.ndims, n, c, o, idx);
    const long off = layout_offset(&dst_l, idx);
    acc = POST_OPS_AT(acc, idx, LOAD_DST, dst, off);
    STORE_DST(dst, off, acc);
}
#endif

#ifdef BWD
kernel void resampling_bwd(global DIFF_SRC_DATA_T *diff_src,
        const global DIFF_DST_DATA_T *diff_dst, tensor_layout_t ds_l, tensor_layout_t dd_l,
        rs_geom_t g) {
    long i = get_global_id(0);
    if (i >= g.mb * g.c * g.in[0] * g.in[1] * g.in[2]) return;
    long p[3];
    p[2] = i % g.in[2]; i /= g.in[2];
    p[1] = i % g.in[1]; i /= g.in[1];
    p[0] = i % g.in[0]; i /= g.in[0];
    const long c = i % g.c, n = i / g.c;
    long lo[3], hi[3], o[3], idx[MAX_NDIMS];
    for (int k = 0; k < 3; ++k) rs_readers(p[k], g.in[k], g.out[k], &lo[k], &hi[k]);
    float acc = 0.f;
    for (o[0] = lo[0]; o[0] < hi[0]; ++o[0]) {
        const float w0 = rs_weight(g.linear, o[0], p[0], g.in[0], g.out[0]);
        if (w0 == 0.f) continue;
        for (o[1] = lo[1]; o[1] < hi[1]; ++o[1]) {
            const float w1 = rs_weight(g.linear, o[1], p[1], g.in[1], g.out[1]);
            if (w1 == 0.f) continue;
            for (o[2] = lo[2]; o[2] < hi[2]; ++o[2]) {
                const float w2 = rs_weight(g.linear, o[2], p[2], g.in[2], g.out[2]);
                if (w2 == 0.f) continue;
                rs_index(g.ndims, n, c, o, idx);
                acc += w0 * w1 * w2 * LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
            }
        }
    }
    rs_index(g.ndims, n, c, p, idx);
    STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), acc);
}
#endif
