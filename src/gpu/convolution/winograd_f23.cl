// Winograd F(2x2, 3x3) for a forward f32 convolution on channels-last tensors (host:
// convolution/winograd_f32.cpp). Each 2x2 block of output pixels ("tile" p = (n, ty, tx)) is
// Y = A' [sum over c of (G g G') .* (B' d B)] A, d the 4x4 source window of the tile: the
// 16 element-wise products are 16 GEMMs over channels, run on the GEMM core between the
// transforms here. The scratchpad holds the transformed source V[16][P][IC], the transformed
// weights U[16][OC][IC] and the GEMMs' result M[16][P][OC] (element offsets given).
// One work-item per (tile, channel), channels fastest: loads and stores run along channels.
// Sizes stay below 2^31 (the host caps the scratchpad at 1 GiB): 32-bit indices.
#include "cl/post_ops.h"

// Mirrors wino_geom_t of convolution/winograd_f32.cpp.
typedef struct {
    long ic, oc, ih, iw, oh, ow, pad_h, pad_w;
    long tiles_h, tiles_w, tiles; // tiles per column and row of an image, and in all
    long src_sn, src_sh, src_sw, src_off;
    long wei_so, wei_off; // weights (o, kh, kw, i): i dense, taps ic apart
    long ldc, dst_off;    // dst pixel m = (n, y, x) at dst_off + m * ldc, channels dense
    long bias_off, has_bias, wei_scale_per_oc;
    long v_off, u_off, m_off; // the scratchpad's regions
} wino_geom_t;

// The row transforms: B' (input), G (weights, on 3 values), A' (output, 4 to 2).
#define B_T(x0, x1, x2, x3, y0, y1, y2, y3) \
    do { \
        y0 = (x0) - (x2); \
        y1 = (x1) + (x2); \
        y2 = (x2) - (x1); \
        y3 = (x1) - (x3); \
    } while (0)
#define G_ROWS(x0, x1, x2, y0, y1, y2, y3) \
    do { \
        y0 = (x0); \
        y1 = 0.5f * ((x0) + (x1) + (x2)); \
        y2 = 0.5f * ((x0) - (x1) + (x2)); \
        y3 = (x2); \
    } while (0)
#define A_T(x0, x1, x2, x3, y0, y1) \
    do { \
        y0 = (x0) + (x1) + (x2); \
        y1 = (x1) - (x2) - (x3); \
    } while (0)

kernel void wino_src_transform(const global float *src, global float *scratch, wino_geom_t q) {
    const int i = (int)get_global_id(0);
    const int ic = (int)q.ic;
    if (i >= q.tiles * ic) return;
    const int p = i / ic, c = i - p * ic;
    const int per_image = (int)(q.tiles_h * q.tiles_w);
    const int n = p / per_image, r = p - n * per_image;
    const int ty = r / (int)q.tiles_w, tx = r - ty * (int)q.tiles_w;
    const int y0 = 2 * ty - (int)q.pad_h, x0 = 2 * tx - (int)q.pad_w;
    const global float *s = src + q.src_off + n * q.src_sn + c;
    float d[4][4];
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
            const int y = y0 + a, x = x0 + b;
            const bool in = y >= 0 && y < q.ih && x >= 0 && x < q.iw;
            d[a][b] = in ? s[y * q.src_sh + x * q.src_sw] : 0.f;
        }
    float t[4][4]; // B' d: along columns of the window
    for (int b = 0; b < 4; ++b)
        B_T(d[0][b], d[1][b], d[2][b], d[3][b], t[0][b], t[1][b], t[2][b], t[3][b]);
    global float *v = scratch + q.v_off + (long)p * ic + c;
    const long plane = q.tiles * q.ic;
    for (int a = 0; a < 4; ++a) {
        float w0, w1, w2, w3; // (B' d) B: along the rows
        B_T(t[a][0], t[a][1], t[a][2], t[a][3], w0, w1, w2, w3);
        v[(4 * a + 0) * plane] = w0;
        v[(4 * a + 1) * plane] = w1;
        v[(4 * a + 2) * plane] = w2;
        v[(4 * a + 3) * plane] = w3;
    }
}

kernel void wino_wei_transform(const global float *wei, global float *scratch, wino_geom_t q) {
    const int i = (int)get_global_id(0);
    const int ic = (int)q.ic;
    if (i >= q.oc * ic) return;
    const int o = i / ic, c = i - o * ic;
    const global float *w = wei + q.wei_off + o * q.wei_so + c;
    float g[3][3];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            g[a][b] = w[(3 * a + b) * ic];
    float t[4][3]; // G g
    for (int b = 0; b < 3; ++b)
        G_ROWS(g[0][b], g[1][b], g[2][b], t[0][b], t[1][b], t[2][b], t[3][b]);
    global float *u = scratch + q.u_off + (long)o * ic + c;
    const long plane = q.oc * q.ic;
    for (int a = 0; a < 4; ++a) {
        float u0, u1, u2, u3; // (G g) G'
        G_ROWS(t[a][0], t[a][1], t[a][2], u0, u1, u2, u3);
        u[(4 * a + 0) * plane] = u0;
        u[(4 * a + 1) * plane] = u1;
        u[(4 * a + 2) * plane] = u2;
        u[(4 * a + 3) * plane] = u3;
    }
}

// Output pixels of tile p, channel o: A' m A, then as oneDNN orders it: times the src and
// weights scales, plus bias, the post-op chain, divided by the dst scale.
kernel void wino_dst_transform(const global float *scratch, global float *dst,
        const global float *bias, const global float *scale_src, const global float *scale_wei,
        const global float *scale_dst, wino_geom_t q POST_OP_PARAMS) {
    const int i = (int)get_global_id(0);
    const int oc = (int)q.oc;
    if (i >= q.tiles * oc) return;
    const int p = i / oc, o = i - p * oc;
    const int per_image = (int)(q.tiles_h * q.tiles_w);
    const int n = p / per_image, r = p - n * per_image;
    const int ty = r / (int)q.tiles_w, tx = r - ty * (int)q.tiles_w;
    const global float *m = scratch + q.m_off + (long)p * oc + o;
    const long plane = q.tiles * q.oc;
    float t[2][4]; // A' m
    for (int b = 0; b < 4; ++b)
        A_T(m[b * plane], m[(4 + b) * plane], m[(8 + b) * plane], m[(12 + b) * plane], t[0][b],
                t[1][b]);
    float scale = scale_src ? scale_src[0] : 1.f;
    if (scale_wei) scale *= scale_wei[q.wei_scale_per_oc ? o : 0];
    const float b = q.has_bias ? bias[q.bias_off + o] : 0.f;
    for (int a = 0; a < 2; ++a) {
        float y[2]; // (A' m) A
        A_T(t[a][0], t[a][1], t[a][2], t[a][3], y[0], y[1]);
        const int oy = 2 * ty + a;
        for (int e = 0; e < 2; ++e) {
            const int ox = 2 * tx + e;
            if (oy >= q.oh || ox >= q.ow) continue;
            float v = y[e] * scale + b;
            const long off = q.dst_off + ((n * q.oh + oy) * q.ow + ox) * q.ldc + o;
            long idx[MAX_NDIMS] = {n, o, oy, ox};
            v = POST_OPS_AT(v, idx, load_f32, dst, off);
            if (scale_dst) v /= scale_dst[0];
            dst[off] = v;
        }
    }
}
