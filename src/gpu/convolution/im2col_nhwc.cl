// Columns of a channels-last forward convolution for the GEMM: col[m * ld + k] =
// src(n, oh * sh - ph + kh * dh, ow * sw - pw + kw * dw, g * ic + c), m = (n, oh, ow),
// k = (g, kh, kw, c), zero in the padding. One work-item per element, k fastest: a pixel's
// channels are read and a row of columns written contiguously. Elements are copied as stored.

// Mirrors im2col_geom_t of convolution/gemm_nhwc.cpp.
typedef struct {
    long g, ic, ih, iw, oh, ow, kh, kw;
    long sh, sw, ph, pw, dh, dw;
    long src_sn, src_sh, src_sw, src_off;
    long k_total, ld;
} im2col_geom_t;

kernel void im2col_nhwc(const global SRC_DATA_T *src, global SRC_DATA_T *col, im2col_geom_t q,
        long total) {
    const long i = get_global_id(0);
    if (i >= total) return;
    const long m = i / q.k_total, k = i - m * q.k_total;
    long e = k;
    const long c = e % q.ic;
    e /= q.ic;
    const long kw = e % q.kw;
    e /= q.kw;
    const long kh = e % q.kh, g = e / q.kh;
    const long ow = m % q.ow, r = m / q.ow;
    const long oh = r % q.oh, n = r / q.oh;
    const long y = oh * q.sh - q.ph + kh * q.dh, x = ow * q.sw - q.pw + kw * q.dw;
    const bool inside = y >= 0 && y < q.ih && x >= 0 && x < q.iw;
    col[m * q.ld + k] = inside
            ? src[q.src_off + n * q.src_sn + y * q.src_sh + x * q.src_sw + g * q.ic + c]
            : (SRC_DATA_T)0;
}
