// Channels-last pixels of C channels copied into dense pixels of CP >= C channels from
// element `to` of dst, the extra channels zero; src pixel (n, y, x) at off + n * sn + y * sh
// + x * sw, channels dense. For the implicit-GEMM convolution's gather of 8 channels at a
// time (src, and the (oc, kh, kw) rows of weights). 16-bit elements copied as stored bits;
// pixels * CP < 2^31.
kernel void pad_channels(const global ushort *src, global ushort *dst, long to, long off, long sn,
        long sh, long sw, long h, long w, long c, long cp, long total) {
    const int i = (int)get_global_id(0);
    if (i >= total) return;
    const int cpn = (int)cp, p = i / cpn, ch = i - p * cpn;
    const int wn = (int)w, hn = (int)h;
    const int r = p / wn, x = p - r * wn;
    const int n = r / hn, y = r - n * hn;
    dst[to + i] = ch < c ? src[off + n * sn + y * sh + x * sw + ch] : (ushort)0;
}
