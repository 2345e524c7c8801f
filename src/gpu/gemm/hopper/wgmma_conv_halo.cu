// Forward convolution of 64 input channels at stride 1 (ResNet's 3x3 64@56) on Hopper's
// wgmma (wgmma_core.cuh), reading each source pixel about twice instead of once per tap.
// The im2col gather (wgmma_conv.cu) reads src KH * KW times over and the weights once per
// tile: 347 MB through L2 for mb64 3x3 64@56, where the output is 26 MB. Here:
// - a persistent CTA keeps its 64 output channels of weights (K = KH * KW * 64 <= 576, 72 KB,
//   K-major, 128-byte swizzle) in shared memory for every tile it walks;
// - output pixels are "lines" l = oy * P + ox of one image, P = OW + KW - 1 the padded input
//   width (lines with ox >= OW are computed and dropped). A tile is BM consecutive lines; all
//   its taps read one run of BM + (KH - 1) * P + KW - 1 lines of the padded input, loaded once
//   by cp.async (zero fill in the padding), and tap (kh, kw) is that run shifted by
//   kh * P + kw lines;
// - the run is stored without swizzle as 8 planes of 8 channels (16 bytes a line), so that a
//   shift by any number of lines is a 16-byte-aligned descriptor start: A's core matrices are
//   8 lines of one plane (128 contiguous bytes), the two of one k16 step one plane apart.
// Src: channels-last, 64 dense channels a pixel; weights (oc, kh, kw, ic) rows ldb apart.
#include "wgmma_core.cuh"

namespace {

// The geometry: src strides of an image, a row and a pixel (elements) and sizes; padding is
// the top and left padding.
struct halo_args_t {
    int64_t sn, sh, sw;
    int batch, ih, iw, oh, ow, kh, kw, pad_h, pad_w;
};

constexpr int halo_bn = 64; // output channels a CTA
constexpr int halo_kt = 9;  // K tiles of 64 held: K <= 576
constexpr int halo_wei_bytes = halo_kt * halo_bn * 128;

// Staged tile row r (of the 128-row half starting at line l0) -> C row, -1 for a dropped line.
struct halo_rows_t {
    int P, oh, ow, l0;
    int64_t m_img; // the image's first C row
    __device__ __forceinline__ int64_t operator()(int, int r, int) const {
        const int l = l0 + r, oy = l / P, ox = l - oy * P;
        return oy < oh && ox < ow ? m_img + int64_t(oy) * ow + ox : -1;
    }
};

// A no-swizzle K-major descriptor: lbo between the two core matrices along K, sbo between
// 8-row groups.
__device__ __forceinline__ uint64_t plain_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return uint64_t((addr & 0x3ffff) >> 4) | (uint64_t((lbo >> 4) & 0x3fff) << 16)
           | (uint64_t((sbo >> 4) & 0x3fff) << 32);
}

// The run of tile `tile` (BM output lines of one image and the input lines its taps reach)
// into `run`, by NT threads (t: 0 .. NT - 1), 16 bytes a cp.async, zero fill in the padding.
template <int BM, int NT>
__device__ __forceinline__ void load_run(uint32_t run, int plane, const uint16_t *src,
        const halo_args_t &g, int P, int tiles_img, int tile, int t) {
    const int n = tile / tiles_img, l0 = (tile - n * tiles_img) * BM;
    const int lines = BM + (g.kh - 1) * P + g.kw - 1;
    const uint16_t *img = src + n * g.sn;
    for (int p = t; p < lines * 8; p += NT) {
        const int line = p >> 3, piece = p & 7, q = l0 + line;
        const int y = q / P - g.pad_h, x = q % P - g.pad_w;
        const bool ok = unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
        cp_async16(run + piece * plane + line * 16,
                ok ? img + y * g.sh + x * g.sw + piece * 8 : src, ok ? 16 : 0);
    }
}

// MB halves of 128 rows a tile (warpgroup wg multiplies rows h * 128 + wg * 64.. of half h),
// LINES the most input lines a run holds (the host checks BM + (KH - 1) * P + KW - 1), S runs
// in shared memory: S - 1 load while one is multiplied. The run being multiplied stages the
// epilogue's tile once its multiplications are done. S = 1: the next run loads after the
// epilogue, and two CTAs share an SM (110 KB each), one loading while the other multiplies.
template <int T, int MB, int LINES, int S, bool EPI>
__device__ __forceinline__ void conv_halo(const uint16_t *__restrict__ a,
        const uint16_t *__restrict__ b, void *__restrict__ c, const void *__restrict__ bias,
        int64_t a_off, int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int M, int N, int K,
        int c_kind, int bias_kind, const epilogue_args_t &ea, const halo_args_t &g) {
    constexpr int BM = 128 * MB;
    static_assert(LINES >= BM, "a run holds the tile's own lines");
    // Planes 16 bytes past a multiple of 128: a pixel's 8 pieces fall on different banks.
    constexpr int plane = (LINES * 16 + 127) / 128 * 128 + 16;
    constexpr int staged = 128 * (halo_bn + 8) * 4; // the f32 tile of a 128-row half
    constexpr int run_bytes = ((8 * plane > staged ? 8 * plane : staged) + 1023) / 1024 * 1024;
    static_assert(S >= 1 && (S >= 2 || MB == 1), "two CTAs an SM hold one 128-row run each");
    __shared__ __align__(1024) unsigned char smem[halo_wei_bytes + S * run_bytes];

    const int tid = threadIdx.x, wg = tid / 128;
    const uint32_t wbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const uint32_t rbase = wbase + halo_wei_bytes;
    const int n0 = blockIdx.x * halo_bn;
    const int P = g.ow + g.kw - 1, taps = g.kh * g.kw;
    const int tiles_img = (g.oh * P + BM - 1) / BM, tiles = g.batch * tiles_img;
    const int mine =
            int(blockIdx.y) < tiles ? (tiles - 1 - int(blockIdx.y)) / int(gridDim.y) + 1 : 0;
    const uint16_t *src = a + a_off;

    // Run j of this CTA (its tile blockIdx.y + j * gridDim.y) into run buffer j % S.
    auto load = [&](int j) {
        if (j < mine)
            load_run<BM, threads>(rbase + (j % S) * run_bytes, plane, src, g, P, tiles_img,
                    int(blockIdx.y) + j * int(gridDim.y), tid);
    };

    // The weights travel with the first run.
    const int kt_count = (K + 63) / 64; // <= halo_kt (the host checks)
    const uint16_t *wei = b + b_off + n0 * ldb;
    for (int kt = 0; kt < kt_count; ++kt)
        load_tile<halo_bn, 64, 128, threads>(
                wbase + kt * halo_bn * 128, wei + kt * 64, ldb, N - n0, K - kt * 64, tid);
    constexpr int ahead = S > 1 ? S - 1 : 1; // runs loading before the first multiplication
    for (int j = 0; j < ahead; ++j) {
        load(j);
        cp_async_commit();
    }

    float acc[MB][halo_bn / 2];
    for (int j = 0; j < mine; ++j) {
        cp_async_wait<ahead - 1>(); // this thread's pieces of run j (and the weights)
        fence_proxy_async();
        __syncthreads(); // everyone's; run j - 1's staged tile is written out
        const uint32_t run = rbase + (j % S) * run_bytes;
#pragma unroll
        for (int h = 0; h < MB; ++h) {
#pragma unroll
            for (int i = 0; i < halo_bn / 2; ++i)
                acc[h][i] = 0.f;
            fence_regs<halo_bn / 2>(acc[h]);
        }
        wgmma_fence();
        for (int tap = 0; tap < taps; ++tap) {
            const int kh = tap / g.kw, kw = tap - kh * g.kw;
            const uint32_t at = run + (wg * 64 + kh * P + kw) * 16;
#pragma unroll
            for (int ks = 0; ks < 4; ++ks) {
                const uint64_t db = smem_desc<128>(wbase + tap * halo_bn * 128 + ks * 32, 16, 1024);
#pragma unroll
                for (int h = 0; h < MB; ++h)
                    mma_t<T, 0, 0, halo_bn>::run(
                            acc[h], plain_desc(at + h * 128 * 16 + 2 * ks * plane, plane, 128), db);
            }
        }
        wgmma_commit();
        // Run j + S - 1 into the buffer of run j - 1, written out before the barrier above.
        if constexpr (S > 1) {
            load(j + S - 1);
            cp_async_commit();
        }
        wgmma_wait<0>();
#pragma unroll
        for (int h = 0; h < MB; ++h)
            fence_regs<halo_bn / 2>(acc[h]);
        __syncthreads(); // both warpgroups are done reading run j: it stages the results
        const int tile = int(blockIdx.y) + j * int(gridDim.y);
        const int n = tile / tiles_img, l0 = (tile - n * tiles_img) * BM;
        unsigned char *staging = smem + halo_wei_bytes + (j % S) * run_bytes;
#pragma unroll
        for (int h = 0; h < MB; ++h) {
            if (h) __syncthreads(); // half h - 1 is written out
            const halo_rows_t rows{P, g.oh, g.ow, l0 + h * 128, int64_t(n) * g.oh * g.ow};
            epilogue<T, 128, halo_bn, EPI>(acc[h], staging, c, bias, c_off, ldc, 0, n0, M, N,
                    c_kind, bias_kind, ea, tid, cta_sync_t(), rows);
        }
        if constexpr (S == 1) {
            __syncthreads(); // the staged tile is written out: the next run replaces it
            load(j + 1);
            cp_async_commit();
        }
    }
    cp_async_wait<0>();
}

// The swapped product's sums (rows: the 64 output channels, columns: 128 pixels; wgmma's
// m64nN accumulator layout) into a row-major tile of those pixels by channels at `tile`, rows
// `pitch` bytes apart: f32 as they are (OUT 0), or plus the bias (kind 1 f32, else the input
// type) as f32 (OUT 1) or the input type (OUT 2). t: the thread in the warpgroup.
template <bool F16, int OUT>
__device__ __forceinline__ void stage_swapped(const float *acc, unsigned char *tile, int pitch,
        const void *bias, int bias_kind, int n0, int N, int t) {
    const int row0 = (t / 32) * 16 + (t % 32) / 4, col0 = (t % 4) * 2;
    float b[2] = {0.f, 0.f};
    if (OUT != 0 && bias_kind) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int n = n0 + row0 + 8 * e;
            if (n < N)
                b[e] = bias_kind == bias_f32
                        ? static_cast<const float *>(bias)[n]
                        : unpack16<F16>(static_cast<const uint16_t *>(bias)[n]);
        }
    }
#pragma unroll
    for (int i = 0; i < 64; ++i) {
        const int e = (i / 2) % 2, oc = row0 + 8 * e, px = 8 * (i / 4) + col0 + i % 2;
        const float v = acc[i] + b[e];
        if constexpr (OUT == 2)
            *reinterpret_cast<uint16_t *>(tile + px * pitch + oc * 2)
                    = uint16_t(pack16x2<F16>(v, 0.f));
        else
            *reinterpret_cast<float *>(tile + px * pitch + oc * 4) = v;
    }
}

// One warpgroup's barrier (ids 1 and 2; __syncthreads has 0).
struct warpgroup_sync_t {
    int wg;
    __device__ __forceinline__ void operator()() const {
        asm volatile("bar.sync %0, 128;\n" ::"r"(1 + wg) : "memory");
    }
};

// The same with the warpgroups apart ("ping-pong"): each walks tiles of its own (128 MB
// lines, its 2 MB m64 blocks) through S runs of its own, with its own barriers, so that one's
// epilogue and loads run under the other's multiplications. The weights are the CTA's.
// SWAP: the product transposed, channels by pixels (the weights as wgmma's A, the run as B),
// one m64n<128 MB> wgmma a step instead of 2 MB m64n64 ones: 2 KB of A and 4 KB (MB 1) or
// 8 KB of B read from shared memory per step, against 4 KB per m64n64.
template <int T, int MB, int LINES, int S, bool SWAP, bool EPI>
__device__ __forceinline__ void conv_halo_pingpong(const uint16_t *__restrict__ a,
        const uint16_t *__restrict__ b, void *__restrict__ c, const void *__restrict__ bias,
        int64_t a_off, int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int M, int N, int K,
        int c_kind, int bias_kind, const epilogue_args_t &ea, const halo_args_t &g) {
    constexpr int BM = 128 * MB, NT = 128, blocks = 2 * MB;
    static_assert(LINES >= BM, "a run holds the tile's own lines");
    constexpr int plane = (LINES * 16 + 127) / 128 * 128 + 16;
    // The f32 tile of one m64 block, or of 128 pixels swapped.
    constexpr int staged = (SWAP ? 128 : 64) * (halo_bn + 8) * 4;
    constexpr int run_bytes = ((8 * plane > staged ? 8 * plane : staged) + 1023) / 1024 * 1024;
    static_assert(S >= 1, "a run at least");
    __shared__ __align__(1024) unsigned char smem[halo_wei_bytes + 2 * S * run_bytes];

    const int tid = threadIdx.x, wg = tid / 128, t = tid % 128;
    const warpgroup_sync_t sync{wg};
    const uint32_t wbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const uint32_t rbase = wbase + halo_wei_bytes + wg * S * run_bytes;
    const int n0 = blockIdx.x * halo_bn;
    const int P = g.ow + g.kw - 1, taps = g.kh * g.kw;
    const int tiles_img = (g.oh * P + BM - 1) / BM, tiles = g.batch * tiles_img;
    const int first = 2 * int(blockIdx.y) + wg, step = 2 * int(gridDim.y);
    const int mine = first < tiles ? (tiles - 1 - first) / step + 1 : 0;
    const uint16_t *src = a + a_off;
    auto load = [&](int j) {
        if (j < mine)
            load_run<BM, NT>(rbase + (j % S) * run_bytes, plane, src, g, P, tiles_img,
                    first + j * step, t);
        cp_async_commit();
    };

    // The weights (every thread's pieces) with the first runs, then one barrier of the CTA.
    const int kt_count = (K + 63) / 64; // <= halo_kt (the host checks)
    const uint16_t *wei = b + b_off + n0 * ldb;
    for (int kt = 0; kt < kt_count; ++kt)
        load_tile<halo_bn, 64, 128, threads>(
                wbase + kt * halo_bn * 128, wei + kt * 64, ldb, N - n0, K - kt * 64, tid);
    constexpr int ahead = S > 1 ? S - 1 : 1;
    for (int j = 0; j < ahead; ++j)
        load(j);
    cp_async_wait<0>();
    fence_proxy_async();
    __syncthreads();

    float acc[blocks][halo_bn / 2];
    for (int j = 0; j < mine; ++j) {
        cp_async_wait<ahead - 1>(); // this thread's pieces of run j
        fence_proxy_async();
        sync(); // the warpgroup's; tile j - 1's staged tile is written out
        const uint32_t run = rbase + (j % S) * run_bytes;
#pragma unroll
        for (int h = 0; h < blocks; ++h) {
#pragma unroll
            for (int i = 0; i < halo_bn / 2; ++i)
                acc[h][i] = 0.f;
            fence_regs<halo_bn / 2>(acc[h]);
        }
        wgmma_fence();
        for (int tap = 0; tap < taps; ++tap) {
            const int kh = tap / g.kw, kw = tap - kh * g.kw;
            const uint32_t at = run + (kh * P + kw) * 16;
#pragma unroll
            for (int ks = 0; ks < 4; ++ks) {
                const uint64_t dw = smem_desc<128>(wbase + tap * halo_bn * 128 + ks * 32, 16, 1024);
                if constexpr (SWAP) {
                    mma_t<T, 0, 0, BM>::run(
                            &acc[0][0], dw, plain_desc(at + 2 * ks * plane, plane, 128));
                } else {
#pragma unroll
                    for (int h = 0; h < blocks; ++h)
                        mma_t<T, 0, 0, halo_bn>::run(acc[h],
                                plain_desc(at + h * 64 * 16 + 2 * ks * plane, plane, 128), dw);
                }
            }
        }
        wgmma_commit();
        if constexpr (S > 1) load(j + S - 1); // into run j - 1's buffer, written out
        wgmma_wait<0>();
#pragma unroll
        for (int h = 0; h < blocks; ++h)
            fence_regs<halo_bn / 2>(acc[h]);
        sync(); // the warpgroup is done reading run j: it stages the results
        const int tile = first + j * step;
        const int n = tile / tiles_img, l0 = (tile - n * tiles_img) * BM;
        unsigned char *staging = smem + (rbase - wbase) + (j % S) * run_bytes;
        if constexpr (SWAP) {
            constexpr bool F16 = ab_traits<T>::f16;
            // 128 pixels at a time: the accumulators' columns 128 h .. 128 h + 127.
#pragma unroll
            for (int h = 0; h < MB; ++h) {
                if (h) sync(); // pixels 128 (h - 1).. are written out
                const float *sums = &acc[0][0] + 64 * h;
                const halo_rows_t rows{P, g.oh, g.ow, l0 + h * 128, int64_t(n) * g.oh * g.ow};
                if constexpr (EPI) {
                    stage_swapped<F16, 0>(sums, staging, (halo_bn + 8) * 4, bias, 0, n0, N, t);
                    sync();
                    epilogue_args_t args = ea;
                    args.bias = bias;
                    args.bias_kind = bias_kind;
                    const epilogue_t e(args);
                    copy_out_epilogue<128, halo_bn, NT>(reinterpret_cast<const float *>(staging),
                            halo_bn + 8, c, c_kind, c_off, ldc, 0, n0, M, N, e, t, rows);
                } else if (c_kind == c_f32) {
                    stage_swapped<F16, 1>(
                            sums, staging, (halo_bn + 8) * 4, bias, bias_kind, n0, N, t);
                    sync();
                    copy_out<4, 128, halo_bn, NT>(staging, (halo_bn + 8) * 4, c, c_off, ldc, 0,
                            n0, M, N, t, rows);
                } else {
                    stage_swapped<F16, 2>(
                            sums, staging, (halo_bn + 8) * 2, bias, bias_kind, n0, N, t);
                    sync();
                    copy_out<2, 128, halo_bn, NT>(staging, (halo_bn + 8) * 2, c, c_off, ldc, 0,
                            n0, M, N, t, rows);
                }
            }
        } else {
#pragma unroll
            for (int h = 0; h < blocks; ++h) {
                if (h) sync(); // block h - 1 is written out
                const halo_rows_t rows{P, g.oh, g.ow, l0 + h * 64, int64_t(n) * g.oh * g.ow};
                epilogue<T, 64, halo_bn, EPI>(acc[h], staging, c, bias, c_off, ldc, 0, n0, M, N,
                        c_kind, bias_kind, ea, t, sync, rows);
            }
        }
        if constexpr (S == 1) {
            sync(); // the staged tile is written out: the next run replaces it
            load(j + 1);
        }
    }
    cp_async_wait<0>();
}

} // namespace

// anydnn_wgmma_conv_halo_<type>_m<BM>s<S>[_epi]: the buffers, c_kind, bias_kind and the
// epilogue's parameters as in the other convolution entries; M = N * OH * OW, N = OC,
// K = KH * KW * 64. The host launches ceil(N / 64) x (at most the tiles) CTAs of 256 threads.
#define ANYDNN_WGMMA_CONV_HALO_ENTRY(TY, KIND, MB, S, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads, S == 1 ? 2 : 1) \
            anydnn_wgmma_conv_halo_##TY##_m##MB##s##S##SUFFIX(const uint16_t *a, \
                    const uint16_t *b, void *c, const void *bias, const float *src_scale, \
                    const float *wei_scale, const float *dst_scale, int64_t a_off, \
                    int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int64_t sn, \
                    int64_t sh, int64_t sw, int M, int N, int K, int batch, int ih, int iw, \
                    int oh, int ow, int kh, int kw, int pad_h, int pad_w, int c_kind, \
                    int bias_kind, ANYDNN_EPILOGUE_PARAMS) { \
        const halo_args_t g {sn, sh, sw, batch, ih, iw, oh, ow, kh, kw, pad_h, pad_w}; \
        conv_halo<KIND, MB, 128 * MB + halo_extra_lines, S, EPI>(a, b, c, bias, a_off, b_off, \
                c_off, ldb, ldc, M, N, K, c_kind, bias_kind, \
                ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale), g); \
    }

// The ping-pong entries: anydnn_wgmma_conv_halo_<type>_m<MB>s<S><p|t>[_epi] (t: swapped), the
// same parameters.
#define ANYDNN_WGMMA_CONV_HALO_PP_ENTRY(TY, KIND, MB, S, V, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads, 1) \
            anydnn_wgmma_conv_halo_##TY##_m##MB##s##S##V##SUFFIX(const uint16_t *a, \
                    const uint16_t *b, void *c, const void *bias, const float *src_scale, \
                    const float *wei_scale, const float *dst_scale, int64_t a_off, \
                    int64_t b_off, int64_t c_off, int64_t ldb, int64_t ldc, int64_t sn, \
                    int64_t sh, int64_t sw, int M, int N, int K, int batch, int ih, int iw, \
                    int oh, int ow, int kh, int kw, int pad_h, int pad_w, int c_kind, \
                    int bias_kind, ANYDNN_EPILOGUE_PARAMS) { \
        const halo_args_t g {sn, sh, sw, batch, ih, iw, oh, ow, kh, kw, pad_h, pad_w}; \
        conv_halo_pingpong<KIND, MB, 128 * MB + halo_extra_lines, S, (#V[0] == 't'), EPI>(a, b, \
                c, bias, a_off, b_off, c_off, ldb, ldc, M, N, K, c_kind, bias_kind, \
                ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale), g); \
    }

#define ANYDNN_WGMMA_CONV_HALO_PP(MB, S, V) \
    ANYDNN_WGMMA_CONV_HALO_PP_ENTRY(bf16, ab_bf16, MB, S, V, false, ) \
    ANYDNN_WGMMA_CONV_HALO_PP_ENTRY(f16, ab_f16, MB, S, V, false, ) \
    ANYDNN_WGMMA_CONV_HALO_PP_ENTRY(bf16, ab_bf16, MB, S, V, true, _epi) \
    ANYDNN_WGMMA_CONV_HALO_PP_ENTRY(f16, ab_f16, MB, S, V, true, _epi)

#define ANYDNN_WGMMA_CONV_HALO(MB, S) \
    ANYDNN_WGMMA_CONV_HALO_ENTRY(bf16, ab_bf16, MB, S, false, ) \
    ANYDNN_WGMMA_CONV_HALO_ENTRY(f16, ab_f16, MB, S, false, ) \
    ANYDNN_WGMMA_CONV_HALO_ENTRY(bf16, ab_bf16, MB, S, true, _epi) \
    ANYDNN_WGMMA_CONV_HALO_ENTRY(f16, ab_f16, MB, S, true, _epi)

// A run holds BM + 136 lines: (KH - 1) * P + KW - 1 <= 136, 3x3 up to P 67 (OW 65).
constexpr int halo_extra_lines = 136;
// Names count the 128-row halves: m1 128 rows, m2 256. Shared memory: 72 KB of weights and
// S runs of 36 KB (m1) or 50 KB (m2): m1s1 108 KB (two CTAs an SM), m1s2 144 KB, m1s3
// 180 KB, m2s2 172 KB, m2s3 222 KB.
ANYDNN_WGMMA_CONV_HALO(1, 1)
ANYDNN_WGMMA_CONV_HALO(1, 2)
ANYDNN_WGMMA_CONV_HALO(1, 3)
ANYDNN_WGMMA_CONV_HALO(2, 2)
ANYDNN_WGMMA_CONV_HALO(2, 3)
// Ping-pong: 72 KB and two warpgroups' S runs of 34 KB (m1) or 50 KB (m2): m1s1p 140 KB,
// m1s2p 208 KB, m2s1p 172 KB; swapped (runs of at least 36 KB): m1s1t 144 KB, m1s2t 216 KB,
// m2s1t 172 KB.
ANYDNN_WGMMA_CONV_HALO_PP(1, 1, p)
ANYDNN_WGMMA_CONV_HALO_PP(1, 2, p)
ANYDNN_WGMMA_CONV_HALO_PP(2, 1, p)
ANYDNN_WGMMA_CONV_HALO_PP(1, 1, t)
ANYDNN_WGMMA_CONV_HALO_PP(1, 2, t)
ANYDNN_WGMMA_CONV_HALO_PP(2, 1, t)
