// Columns of a channels-last forward convolution for the GEMM: col[m * ld + k] =
// src(n, oh * sh - ph + kh * dh, ow * sw - pw + kw * dw, g * ic + c), m = (n, oh, ow),
// k = (g, kh, kw, c), zero in the padding. One work-item per element, k fastest: a pixel's
// channels are read and a row of columns written contiguously. Elements are copied as stored
// bits (COPY_T: an unsigned type of the element's size; no half arithmetic is needed).

// Mirrors im2col_geom_t of convolution/gemm_nhwc.cpp.
typedef struct {
    long g, ic, ih, iw, oh, ow, kh, kw;
    long sh, sw, ph, pw, dh, dw;
    long src_sn, src_sh, src_sw, src_off;
    long k_total, ld;
} im2col_geom_t;

// total (= M * k_total) stays below 2^31 (the host caps the columns at 1 GiB): 32-bit index
// arithmetic, several times cheaper than 64-bit division on GPUs.
kernel void im2col_nhwc(const global COPY_T *src, global COPY_T *col, im2col_geom_t q,
        long total) {
    const int i = (int)get_global_id(0);
    if (i >= total) return;
    const int k_total = (int)q.k_total, ic = (int)q.ic, kwn = (int)q.kw, khn = (int)q.kh;
    const int m = i / k_total, k = i - m * k_total;
    int e = k / ic;
    const int c = k - e * ic;
    int t = e / kwn;
    const int kw = e - t * kwn;
    const int g = t / khn, kh = t - g * khn;
    const int own = (int)q.ow, ohn = (int)q.oh;
    const int r = m / own, ow = m - r * own;
    const int n = r / ohn, oh = r - n * ohn;
    const long y = oh * q.sh - q.ph + kh * q.dh, x = ow * q.sw - q.pw + kw * q.dw;
    const bool inside = y >= 0 && y < q.ih && x >= 0 && x < q.iw;
    col[(long)m * q.ld + k] = inside
            ? src[q.src_off + n * q.src_sn + y * q.src_sh + x * q.src_sw + g * q.ic + c]
            : (COPY_T)0;
}
