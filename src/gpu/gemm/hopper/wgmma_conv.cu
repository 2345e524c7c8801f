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
// wide 0.100 ms (3), 0.093 (4), 0.105 (6); 1x1 256->64@56 0.063, 0.061, 0.076.
ANYDNN_WGMMA_CONV_TILE(64, 4)
ANYDNN_WGMMA_CONV_TILE(128, 4)
ANYDNN_WGMMA_CONV_TILE(256, 4)
// Three stages: 72 and 96 KB, so that three CTAs 64 wide or two 128 wide share an SM (3x3
// 256@14: 392 tiles of 64 or 196 of 128 for 132 SMs, in one wave).
ANYDNN_WGMMA_CONV_TILE(64, 3)
ANYDNN_WGMMA_CONV_TILE(128, 3)

// Few output channels (N <= 64) over a short K (the 64-channel 3x3 layers): every CTA keeps
// its 64 x K block of weights in shared memory and walks 128-row tiles of M (tile i, i +
// gridDim.y, ...), so that the weights are read once per CTA, not once per tile, and A alone
// streams, S - 2 tiles ahead, through the K tiles of one M tile into those of the next. One
// CTA per SM (72 KB of weights and S stages of 16 KB). The epilogue writes C from the
// registers: no shared memory, no barrier between tiles. Why: the tile-per-CTA kernel read
// 346 MB through L2 for mb64 3x3 64@56 (A 9 times over and the weights once per tile), 115 MB
// of it weights.
namespace {

constexpr int resident_kt = 9; // K tiles of weights held: K <= 576

// Column n's result of tile row m (acc: its f32 sum) into C: EPI the full epilogue, else the
// bias and C's type. Pairs of columns go as one store where C's type and address allow.
template <bool F16, bool EPI>
__device__ __forceinline__ void store_pair(void *c, int c_kind, int64_t o, int n, int N,
        float x, float y, const void *bias, int bias_kind, const epilogue_t &e) {
    const bool two = n + 1 < N;
    if constexpr (EPI) {
        const float ox = e.p.sum_at ? load_c(c, c_kind, o) : 0.f;
        const float oy = e.p.sum_at && two ? load_c(c, c_kind, o + 1) : 0.f;
        x = e.apply(x, n, ox);
        if (two) y = e.apply(y, n + 1, oy);
    } else if (bias_kind) {
        const bool f32 = bias_kind == bias_f32;
        auto b = [&](int i) {
            return f32 ? static_cast<const float *>(bias)[i]
                       : unpack16<F16>(static_cast<const uint16_t *>(bias)[i]);
        };
        x += b(n);
        if (two) y += b(n + 1);
    }
    if (two && o % 2 == 0 && c_kind == c_f32) {
        *reinterpret_cast<float2 *>(static_cast<float *>(c) + o) = make_float2(x, y);
    } else if (two && o % 2 == 0 && (c_kind == c_bf16 || c_kind == c_f16)) {
        *reinterpret_cast<uint32_t *>(static_cast<uint16_t *>(c) + o)
                = c_kind == c_bf16 ? pack16x2<false>(x, y) : pack16x2<true>(x, y);
    } else {
        store_c(c, c_kind, o, x);
        if (two) store_c(c, c_kind, o + 1, y);
    }
}

template <int T, int S, bool EPI>
__device__ __forceinline__ void conv_resident(const uint16_t *__restrict__ a,
        const uint16_t *__restrict__ b, void *__restrict__ c, const void *__restrict__ bias,
        int64_t a_off, int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int M, int N,
        int K, int c_kind, int bias_kind, const epilogue_args_t &ea, const conv_args_t &g) {
    constexpr int BN = 64, BK = 64, SW = 128, a_bytes = block_m * SW, b_bytes = BN * SW;
    constexpr bool F16 = ab_traits<T>::f16;
    static_assert(S >= 3, "one stage loading, one multiplied, one in flight");
    __shared__ __align__(1024) unsigned char smem[resident_kt * b_bytes + S * a_bytes];
    const int tid = threadIdx.x, wg = tid / 128;
    const uint32_t sb = static_cast<uint32_t>(__cvta_generic_to_shared(smem)),
                   sa0 = sb + resident_kt * b_bytes;
    const int n0 = blockIdx.x * BN;
    const int kt_count = (K + BK - 1) / BK; // <= resident_kt (the host checks)
    const int tiles_m = (M + block_m - 1) / block_m;
    const int my_tiles = blockIdx.y < tiles_m ? (tiles_m - 1 - blockIdx.y) / gridDim.y + 1 : 0;
    const int steps = my_tiles * kt_count;
    const uint16_t *src = a + a_off, *wei = b + b_off + n0 * ldb;

    // The weights, with the first group of copies.
    for (int kt = 0; kt < kt_count; ++kt)
        load_tile<BN, BK, SW, threads>(sb + kt * b_bytes, wei + kt * BK, ldb, N - n0, K - kt * BK,
                tid);
    // Step s: K tile s % kt_count of this CTA's tile s / kt_count, in stage s % S.
    conv_gather_t<threads, BK> gather(g, src, blockIdx.y * block_m, M, tid);
    int gather_tile = 0;
    auto load = [&](int s) {
        const int i = s / kt_count;
        if (i != gather_tile) {
            gather = conv_gather_t<threads, BK>(
                    g, src, (blockIdx.y + i * gridDim.y) * block_m, M, tid);
            gather_tile = i;
        }
        gather.template load<SW>(sa0 + (s % S) * a_bytes, (s % kt_count) * BK, K, tid);
    };
    constexpr int ahead = S - 2;
    for (int s = 0; s < ahead; ++s) {
        if (s < steps) load(s);
        cp_async_commit();
    }
    epilogue_args_t args = ea;
    args.bias = bias;
    args.bias_kind = bias_kind;
    const epilogue_t e(args);
    float acc[BN / 2];
    const int t = tid % 128;
    const int row0 = wg * 64 + (t / 32) * 16 + (t % 32) / 4, col0 = (t % 4) * 2;
    int s = 0; // steps issued
    for (int i = 0; i < my_tiles; ++i) {
#pragma unroll
        for (int r = 0; r < BN / 2; ++r)
            acc[r] = 0.f;
        for (int kt = 0; kt < kt_count; ++kt, ++s) {
            cp_async_wait<ahead - 1>(); // this thread's pieces of step s (and the weights)
            fence_proxy_async();
            __syncthreads(); // everyone's; the stage of step s - 2 is no longer read
            fence_regs<BN / 2>(acc);
            wgmma_fence();
            mma_stage<T, 0, 0, BN, BK>(acc, sa0 + (s % S) * a_bytes, sb + kt * b_bytes, wg);
            wgmma_commit();
            if (s + ahead < steps) load(s + ahead); // into the stage of step s - 2
            cp_async_commit();
            wgmma_wait<1>();
            fence_regs<BN / 2>(acc);
        }
        wgmma_wait<0>();
        fence_regs<BN / 2>(acc);
        // The tile's sums to C, straight from the registers (stage_tile's layout).
        const int m0 = (blockIdx.y + i * gridDim.y) * block_m;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = m0 + row0 + 8 * h;
            if (m >= M) continue;
#pragma unroll
            for (int j = 0; j < BN / 8; ++j) {
                const int n = n0 + col0 + 8 * j;
                if (n >= N) continue;
                store_pair<F16, EPI>(c, c_kind, c_off + m * ldc + n, n, N, acc[4 * j + 2 * h],
                        acc[4 * j + 2 * h + 1], bias, bias_kind, e);
            }
        }
    }
    cp_async_wait<0>();
}

} // namespace

// anydnn_wgmma_conv_<type>_64x64r<S>[_epi]: the parameters of the entries above; the host
// launches min(tiles of M, compute units) CTAs per 64 output channels.
#define ANYDNN_WGMMA_CONV_RESIDENT(TY, KIND, S, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads, 1) \
            anydnn_wgmma_conv_##TY##_64x64r##S##SUFFIX(const uint16_t *a, const uint16_t *b, \
                    void *c, const void *bias, const float *src_scale, const float *wei_scale, \
                    const float *dst_scale, int64_t a_off, int64_t b_off, int64_t c_off, \
                    int64_t ldb, int64_t ldc, int64_t sn, int64_t sh, int64_t sw, int M, int N, \
                    int K, int ic, int ih, int iw, int oh, int ow, int kw, int stride_h, \
                    int stride_w, int pad_h, int pad_w, int dil_h, int dil_w, int c_kind, \
                    int bias_kind, ANYDNN_EPILOGUE_PARAMS) { \
        const conv_args_t g {sn, sh, sw, ic, ih, iw, oh, ow, kw, stride_h, stride_w, pad_h, \
                pad_w, dil_h, dil_w}; \
        conv_resident<KIND, S, EPI>(a, b, c, bias, a_off, b_off, c_off, ldb, ldc, M, N, K, \
                c_kind, bias_kind, ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale), g); \
    }

#define ANYDNN_WGMMA_CONV_RESIDENT_ALL(S) \
    ANYDNN_WGMMA_CONV_RESIDENT(bf16, ab_bf16, S, false, ) \
    ANYDNN_WGMMA_CONV_RESIDENT(f16, ab_f16, S, false, ) \
    ANYDNN_WGMMA_CONV_RESIDENT(bf16, ab_bf16, S, true, _epi) \
    ANYDNN_WGMMA_CONV_RESIDENT(f16, ab_f16, S, true, _epi)

// 72 KB of weights and 9 stages of A (144 KB): 216 KB of the SM's 227.
ANYDNN_WGMMA_CONV_RESIDENT_ALL(9)
