// bf16/f16 GEMM on Hopper's warpgroup tensor cores (wgmma, sm_90a), f32 accumulation.
// Compiled to PTX at build time (nvcc -ptx) and loaded through OpenCL as a program binary,
// so it runs on the application's OpenCL context, queue and buffers.
//
// C[b](m, n) = sum_k A[b](m, k) * B[b](k, n) (+ bias(n)), batch b = blockIdx.z, C in f32 or
// the input type.
// A is K-major (A(m, k) = a[m * lda + k]) or, with TA, M-major (a[m + k * lda]); B is K-major
// (B(k, n) = b[n * ldb + k]) or, with TB, N-major (b[k * ldb + n]); C is row-major.
// A 128 x BN block of C per CTA: two warpgroups, 64 rows each. Tiles of A and B come from
// global memory by cp.async (zero fill past M, N, K) into S shared-memory stages laid out as
// wgmma's swizzled descriptors expect; the warpgroups issue wgmma on one stage while later
// stages load. No tensor maps: they need the CUDA driver API, which OpenCL does not give.
#include <cstdint>

#include "wgmma_ops.cuh"

namespace {

constexpr int block_m = 128;
constexpr int threads = 256; // two warpgroups

// The swizzle of wgmma's SW-byte modes on a byte offset from a 1024-aligned base: the 16-byte
// piece index within a line is XORed with the line index (bits 7.. of the offset).
template <int SW>
__device__ __forceinline__ uint32_t swizzle(uint32_t off) {
    return off ^ (((off >> 7) & (SW / 16 - 1)) << 4);
}

template <int SW>
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    constexpr uint64_t mode = SW == 128 ? 1 : SW == 64 ? 2 : 3;
    return uint64_t((addr & 0x3ffff) >> 4) | (uint64_t((lbo >> 4) & 0x3fff) << 16)
            | (uint64_t((sbo >> 4) & 0x3fff) << 32) | (mode << 62);
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, uint32_t src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
            "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Keeps the compiler from moving accumulator reads or writes across wgmma's asynchronous use.
template <int R>
__device__ __forceinline__ void fence_regs(float *d) {
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

// One O x I tile (I contiguous in global memory, lines ld elements apart) into shared memory at
// `base`: lines of SW bytes, I split into SW/2-element chunks that are O lines each, swizzled.
// Lines at or past o_lim and elements at or past i_lim read as zero.
template <int O, int I, int SW>
__device__ __forceinline__ void load_tile(uint32_t base, const uint16_t *g, int64_t ld, int o_lim,
        int i_lim, int tid) {
    constexpr int pieces = I / 8; // 16-byte pieces per line
    static_assert((O * pieces) % threads == 0, "the tile splits evenly over the threads");
#pragma unroll
    for (int it = 0; it < O * pieces / threads; ++it) {
        const int idx = tid + it * threads;
        const int o = idx / pieces, i = (idx % pieces) * 8;
        const uint32_t off = (i / (SW / 2)) * (O * SW) + o * SW + (i % (SW / 2)) * 2;
        const int left = i_lim - i;
        const uint32_t bytes = o < o_lim && left > 0 ? (left >= 8 ? 16 : left * 2) : 0;
        cp_async16(base + swizzle<SW>(off), bytes ? g + o * ld + i : g, bytes);
    }
}

template <bool F16, int TA, int TB, int BN>
struct mma_t {
    static __device__ __forceinline__ void run(float *d, uint64_t da, uint64_t db) {
        if constexpr (F16) {
            if constexpr (BN == 256) wgmma_m64n256k16_f16<TA, TB>(d, da, db);
            else if constexpr (BN == 128) wgmma_m64n128k16_f16<TA, TB>(d, da, db);
            else wgmma_m64n64k16_f16<TA, TB>(d, da, db);
        } else {
            if constexpr (BN == 256) wgmma_m64n256k16_bf16<TA, TB>(d, da, db);
            else if constexpr (BN == 128) wgmma_m64n128k16_bf16<TA, TB>(d, da, db);
            else wgmma_m64n64k16_bf16<TA, TB>(d, da, db);
        }
    }
};

// Two floats as two 16-bit values of the input type (x in the low half).
template <bool F16>
__device__ __forceinline__ uint32_t pack16x2(float x, float y) {
    uint32_t v;
    if constexpr (F16) asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(y), "f"(x));
    else asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(y), "f"(x));
    return v;
}
template <bool F16>
__device__ __forceinline__ float unpack16(uint16_t h) {
    if constexpr (F16) {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
        return f;
    } else {
        return __uint_as_float(uint32_t(h) << 16);
    }
}

// Writes the accumulators (plus bias(n)) as f32 (OutF32) or as the input type. Bias: 0 none,
// 1 f32, 2 the input type. Rows and columns past M and N are not written; `pair` stores two
// columns at once where the row start is aligned for it.
template <bool F16, int BN, bool OutF32, int Bias>
__device__ __forceinline__ void store_tile(const float *acc, void *c, const void *bias,
        int64_t c_off, int64_t ldc, int row, int col0, int M, int N, bool pair) {
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        const int col = col0 + 8 * j;
        if (col >= N) break; // columns grow with j
        const bool second = col + 1 < N;
        float bx = 0.f, by = 0.f;
        if constexpr (Bias == 1) {
            bx = static_cast<const float *>(bias)[col];
            if (second) by = static_cast<const float *>(bias)[col + 1];
        } else if constexpr (Bias == 2) {
            bx = unpack16<F16>(static_cast<const uint16_t *>(bias)[col]);
            if (second) by = unpack16<F16>(static_cast<const uint16_t *>(bias)[col + 1]);
        }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = row + 8 * h;
            if (m >= M) break;
            const float x = acc[4 * j + 2 * h] + bx, y = acc[4 * j + 2 * h + 1] + by;
            const int64_t i = c_off + m * ldc + col;
            if constexpr (OutF32) {
                float *p = static_cast<float *>(c) + i;
                if (pair && second) *reinterpret_cast<float2 *>(p) = make_float2(x, y);
                else {
                    p[0] = x;
                    if (second) p[1] = y;
                }
            } else {
                const uint32_t v = pack16x2<F16>(x, y);
                uint16_t *p = static_cast<uint16_t *>(c) + i;
                if (pair && second) *reinterpret_cast<uint32_t *>(p) = v;
                else {
                    p[0] = uint16_t(v);
                    if (second) p[1] = uint16_t(v >> 16);
                }
            }
        }
    }
}

template <bool F16, int TA, int TB, int BN, int BK, int S, int P>
__device__ __forceinline__ void gemm(const uint16_t *__restrict__ a,
        const uint16_t *__restrict__ b, void *__restrict__ c, const void *__restrict__ bias,
        int64_t a_off, int64_t b_off, int64_t c_off, int64_t lda, int64_t ldb, int64_t ldc,
        int64_t a_sb, int64_t b_sb, int64_t c_sb, int M, int N, int K, int c_f32,
        int bias_kind) {
    constexpr int SW = BK * 2; // a line of a K-major tile is one swizzle width
    constexpr int a_bytes = block_m * BK * 2, b_bytes = BN * BK * 2;
    constexpr int stage_bytes = a_bytes + b_bytes;
    static_assert(S >= 2 + P, "the stage being loaded is neither read nor in flight");
    __shared__ __align__(1024) unsigned char smem[S * stage_bytes];

    const int tid = threadIdx.x, wg = tid / 128;
    // CTAs run in launch order: walk the tiles in groups of 8 block rows, column by column,
    // so that the CTAs running together share their A and B panels in L2.
    constexpr int group_m = 8;
    const int tiles_n = gridDim.x, tiles_m = gridDim.y;
    const int linear = blockIdx.y * tiles_n + blockIdx.x;
    const int first_m = linear / (group_m * tiles_n) * group_m;
    const int rows = min(tiles_m - first_m, group_m), in_group = linear % (group_m * tiles_n);
    const int n0 = in_group / rows * BN, m0 = (first_m + in_group % rows) * block_m;
    const int64_t batch = blockIdx.z;
    a += a_off + batch * a_sb + (TA ? m0 : m0 * lda);
    b += b_off + batch * b_sb + (TB ? n0 : n0 * ldb);
    const uint32_t sbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));

    auto load = [&](int kt) {
        const int k0 = kt * BK;
        const uint32_t sa = sbase + (kt % S) * stage_bytes, sb = sa + a_bytes;
        if constexpr (TA) load_tile<BK, block_m, SW>(sa, a + k0 * lda, lda, K - k0, M - m0, tid);
        else load_tile<block_m, BK, SW>(sa, a + k0, lda, M - m0, K - k0, tid);
        if constexpr (TB) load_tile<BK, BN, SW>(sb, b + k0 * ldb, ldb, K - k0, N - n0, tid);
        else load_tile<BN, BK, SW>(sb, b + k0, ldb, N - n0, K - k0, tid);
    };

    float acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i)
        acc[i] = 0.f;

    // `ahead` tiles load while one is multiplied and P more multiplications are in flight.
    constexpr int ahead = S - 1 - P;
    const int kt_count = (K + BK - 1) / BK;
    for (int kt = 0; kt < ahead; ++kt) {
        if (kt < kt_count) load(kt);
        cp_async_commit();
    }
    for (int kt = 0; kt < kt_count; ++kt) {
        cp_async_wait<ahead - 1>(); // this thread's pieces of tile kt are in
        fence_proxy_async(); // ... and visible to the tensor cores
        __syncthreads(); // everyone's pieces; tile kt - 1 - P is no longer read
        if (kt + ahead < kt_count) load(kt + ahead);
        cp_async_commit();

        const uint32_t sa = sbase + (kt % S) * stage_bytes, sb = sa + a_bytes;
        fence_regs<BN / 2>(acc);
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < BK / 16; ++ks) {
            uint64_t da, db;
            if constexpr (TA) // M-major: chunks of SW/2 rows, BK lines each; 8-line groups SW*8 apart
                da = smem_desc<SW>(sa + (wg * 64 / (SW / 2)) * (BK * SW) + ks * 16 * SW,
                        BK * SW, 8 * SW);
            else // K-major: a line per row, 8-row groups SW*8 apart; k16 is 32 bytes
                da = smem_desc<SW>(sa + wg * 64 * SW + ks * 32, 16, 8 * SW);
            if constexpr (TB) db = smem_desc<SW>(sb + ks * 16 * SW, BK * SW, 8 * SW);
            else db = smem_desc<SW>(sb + ks * 32, 16, 8 * SW);
            mma_t<F16, TA, TB, BN>::run(acc, da, db);
        }
        wgmma_commit();
        wgmma_wait<P>();
        fence_regs<BN / 2>(acc);
    }
    wgmma_wait<0>();
    fence_regs<BN / 2>(acc);

    // Accumulator layout of m64nNk16: thread t of the warpgroup holds rows (t / 32) * 16 +
    // (t % 32) / 4 (+ 8), columns 8 j + (t % 4) * 2 (+ 1).
    const int t = tid % 128;
    const int row = m0 + wg * 64 + (t / 32) * 16 + (t % 32) / 4;
    const int col0 = n0 + (t % 4) * 2;
    c_off += batch * c_sb;
    const bool pair = c_off % 2 == 0 && ldc % 2 == 0;
#define ANYDNN_WGMMA_STORE(OUT_F32, BIAS) \
    store_tile<F16, BN, OUT_F32, BIAS>(acc, c, bias, c_off, ldc, row, col0, M, N, pair)
    if (c_f32) {
        if (bias_kind == 0) ANYDNN_WGMMA_STORE(true, 0);
        else if (bias_kind == 1) ANYDNN_WGMMA_STORE(true, 1);
        else ANYDNN_WGMMA_STORE(true, 2);
    } else {
        if (bias_kind == 0) ANYDNN_WGMMA_STORE(false, 0);
        else if (bias_kind == 1) ANYDNN_WGMMA_STORE(false, 1);
        else ANYDNN_WGMMA_STORE(false, 2);
    }
#undef ANYDNN_WGMMA_STORE
}

} // namespace

// One entry point per (type, A layout, B layout, tile config); the host picks by name:
// anydnn_wgmma_<type>_<a: k|m><b: k|n>_<BN>x<BK>s<S>p<P>.
#define ANYDNN_WGMMA_ENTRY(TY, F16, TA, TB, LA, LB, BN, BK, S, P) \
    extern "C" __global__ void __launch_bounds__(threads) \
            anydnn_wgmma_##TY##_##LA##LB##_##BN##x##BK##s##S##p##P(const uint16_t *a, \
                    const uint16_t *b, void *c, const void *bias, int64_t a_off, \
                    int64_t b_off, int64_t c_off, int64_t lda, int64_t ldb, int64_t ldc, \
                    int64_t a_sb, int64_t b_sb, int64_t c_sb, int M, int N, int K, \
                    int c_f32, int bias_kind) { \
        gemm<F16, TA, TB, BN, BK, S, P>(a, b, c, bias, a_off, b_off, c_off, lda, ldb, ldc, \
                a_sb, b_sb, c_sb, M, N, K, c_f32, bias_kind); \
    }

#define ANYDNN_WGMMA_LAYOUTS(TY, F16, BN, BK, S, P) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 0, 0, k, k, BN, BK, S, P) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 0, 1, k, n, BN, BK, S, P) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 1, 0, m, k, BN, BK, S, P) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 1, 1, m, n, BN, BK, S, P)

#define ANYDNN_WGMMA_CONFIG(BN, BK, S, P) \
    ANYDNN_WGMMA_LAYOUTS(bf16, false, BN, BK, S, P) \
    ANYDNN_WGMMA_LAYOUTS(f16, true, BN, BK, S, P)

// 48 KB of shared memory (what OpenCL grants a work-group on NVIDIA), and deeper ones.
ANYDNN_WGMMA_CONFIG(128, 32, 3, 1)
ANYDNN_WGMMA_CONFIG(256, 64, 4, 1)
