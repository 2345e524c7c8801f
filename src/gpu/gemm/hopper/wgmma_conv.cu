// Forward convolution as an implicit GEMM on Hopper's wgmma kernels (wgmma_core.cuh):
// dst(m, oc) = sum_k A(m, k) * wei(oc, k), m = (n, oh, ow), k = (kh, kw, ic).
// src is channels-last with dense channels, IC a multiple of 8, so that each 16-byte piece
// of a row of A is 8 channels of one source pixel: the A tiles are gathered from src by
// cp.async (zero fill in the padding and past K) and never exist in memory. Weights are
// K-major rows (oc, kh, kw, ic); dst rows (n, oh, ow) are ldc elements apart, channels dense.
#include "wgmma_core.cuh"

namespace {

// The convolution's geometry: src strides of an image, a row and a pixel (elements), and
// sizes; padding is the left padding, dilation counts taps (1: dense).
struct conv_args_t {
    int64_t sn, sh, sw;
    int ic, ih, iw, oh, ow, kw;
    int stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
};

// This thread's share of the gathered A tile: as in load_tile, thread tid loads piece
// tid % pieces of rows tid / pieces + r * (NT / pieces), the same rows at every K tile,
// so the rows' source pixels are worked out once.
template <int NT, int BK>
struct conv_gather_t {
    static constexpr bool active = true;
    using args_t = conv_args_t;
    static constexpr int pieces = BK / 8, rows = block_m * pieces / NT, row_step = NT / pieces;
    static_assert(block_m * pieces % NT == 0, "the tile splits evenly over the threads");

    conv_args_t g;
    const uint16_t *src;
    int64_t base[rows]; // the image's start
    int y0[rows], x0[rows]; // the top-left source pixel of the window (outside for rows >= M)
    int first, i; // the first row of this thread, the piece's first column

    __device__ __forceinline__ conv_gather_t(
            const conv_args_t &args, const uint16_t *a, int m0, int M, int tid)
        : g(args), src(a) {
        first = tid / pieces;
        i = (tid % pieces) * 8;
        const int per_image = g.oh * g.ow;
#pragma unroll
        for (int r = 0; r < rows; ++r) {
            const int m = m0 + first + r * row_step;
            const int n = m / per_image, rem = m - n * per_image;
            const int oy = rem / g.ow, ox = rem - oy * g.ow;
            base[r] = n * g.sn;
            y0[r] = m < M ? oy * g.stride_h - g.pad_h : -(1 << 30);
            x0[r] = ox * g.stride_w - g.pad_w;
        }
    }

    // The tile of columns k0.. (K-major, lines of SW bytes, swizzled) into shared memory at sa.
    template <int SW>
    __device__ __forceinline__ void load(uint32_t sa, int k0, int K, int) const {
        static_assert(SW == BK * 2, "one line holds the tile's K columns");
        const int k = k0 + i;
        const int tap = k / g.ic, c = k - tap * g.ic;
        const int kh = tap / g.kw, kw = tap - kh * g.kw;
        const int dy = kh * g.dil_h, dx = kw * g.dil_w;
        const bool inside_k = k < K;
#pragma unroll
        for (int r = 0; r < rows; ++r) {
            const int y = y0[r] + dy, x = x0[r] + dx;
            const bool ok
                    = inside_k && unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
            const uint32_t off = (first + r * row_step) * SW + i * 2;
            const uint16_t *p = ok ? src + base[r] + y * g.sh + x * g.sw + c : src;
            cp_async16(sa + swizzle<SW>(off), p, ok ? 16 : 0);
        }
    }
};

} // namespace

// anydnn_wgmma_conv_<type>_<BN>x64s<S>p1[_epi]: the buffers, c_kind, bias_kind and the
// epilogue's parameters as in the GEMM kernels; M = N * OH * OW, N = OC, K = KH * KW * IC.
#define ANYDNN_WGMMA_CONV_ENTRY(TY, KIND, BN, S, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads) \
            anydnn_wgmma_conv_##TY##_##BN##x64s##S##p1##SUFFIX(const uint16_t *a, \
                    const uint16_t *b, void *c, const void *bias, const float *src_scale, \
                    const float *wei_scale, const float *dst_scale, int64_t a_off, \
                    int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int64_t sn, \
                    int64_t sh, int64_t sw, int M, int N, int K, int ic, int ih, int iw, int oh, \
                    int ow, int kw, int stride_h, int stride_w, int pad_h, int pad_w, \
                    int dil_h, int dil_w, int c_kind, int bias_kind, ANYDNN_EPILOGUE_PARAMS) { \
        const conv_args_t g {sn, sh, sw, ic, ih, iw, oh, ow, kw, stride_h, stride_w, pad_h, \
                pad_w, dil_h, dil_w}; \
        gemm<KIND, 0, 0, BN, 64, S, 1, EPI, conv_gather_t<threads, 64>>(a, b, c, bias, a_off, \
                b_off, c_off, 0, ldb, ldc, 0, 0, 0, M, N, K, c_kind, bias_kind, 1, 0, \
                ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale), g); \
    }

#define ANYDNN_WGMMA_CONV_TILE(BN, S) \
    ANYDNN_WGMMA_CONV_ENTRY(bf16, ab_bf16, BN, S, false, ) \
    ANYDNN_WGMMA_CONV_ENTRY(f16, ab_f16, BN, S, false, ) \
    ANYDNN_WGMMA_CONV_ENTRY(bf16, ab_bf16, BN, S, true, _epi) \
    ANYDNN_WGMMA_CONV_ENTRY(f16, ab_f16, BN, S, true, _epi)

// Four stages of 128 x 64 A and BN x 64 B: 96, 128 and 192 KB of shared memory. Measured on
// the H200 (mb64 ResNet layers, bf16), three or six stages were no faster: 3x3 64@56 at 64
// wide 0.100 ms (3), 0.093 (4), 0.105 (6); 1x1 256->64@56 0.063, 0.061, 0.076. A
// weights-resident persistent kernel (64 channels a CTA, K <= 576, M tiles walked) was slower
// on those layers too and is no longer built.
ANYDNN_WGMMA_CONV_TILE(64, 4)
ANYDNN_WGMMA_CONV_TILE(128, 4)
ANYDNN_WGMMA_CONV_TILE(256, 4)
