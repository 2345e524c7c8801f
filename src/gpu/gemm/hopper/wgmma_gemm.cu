// GEMM on Hopper's warpgroup tensor cores (wgmma, sm_90a): the matrix entry points of the
// kernels in wgmma_core.cuh, bf16/f16 and tf32 with f32 sums, 8-bit integers with s32 sums.
#include "wgmma_core.cuh"

// One entry point per (type, A layout, B layout, tile config, epilogue); the host picks by
// name: anydnn_wgmma_<type>_<a: k|m><b: k|n>_[m64_]<BN>x<BK>s<S>p<P>[_epi] (m64_: 64-row
// tiles of one warpgroup, else 128 rows of two). c_kind and bias_kind
// are c_kind_t and bias_kind_t codes. Without _epi, the kernel adds the bias only (f32 or the
// 16-bit input type) and ignores the scales and post-op parameters; the integer kernels then
// write their s32 sums as they are (no bias).
#define ANYDNN_WGMMA_ENTRY(TY, KIND, TA, TB, LA, LB, BM, PRE, BN, BK, S, P, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(2 * BM) \
            anydnn_wgmma_##TY##_##LA##LB##_##PRE##BN##x##BK##s##S##p##P##SUFFIX( \
                    const ab_traits<KIND>::elem_t *a, const ab_traits<KIND>::elem_t *b, void *c, \
                    const void *bias, const float *src_scale, const float *wei_scale, \
                    const float *dst_scale, int64_t a_off, int64_t b_off, int64_t c_off, \
                    int64_t lda, int64_t ldb, int64_t ldc, int64_t a_sb, int64_t b_sb, \
                    int64_t c_sb, int M, int N, int K, int c_kind, int bias_kind, int splits, \
                    int64_t c_slice, ANYDNN_EPILOGUE_PARAMS) { \
        gemm<KIND, TA, TB, BN, BK, S, P, EPI, no_gather_t, BM>(a, b, c, bias, a_off, b_off, \
                c_off, lda, ldb, \
                ldc, a_sb, b_sb, c_sb, M, N, K, c_kind, bias_kind, splits, c_slice, \
                ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale)); \
    }

// The 8-bit kinds take three more buffers (src and dst zero points, B's column sums; null
// where absent) and where the column sums start and their batch step.
#define ANYDNN_WGMMA_INT_ENTRY(TY, KIND, BN, BK, S, P, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads) \
            anydnn_wgmma_##TY##_kk_##BN##x##BK##s##S##p##P##SUFFIX(const uint8_t *a, \
                    const uint8_t *b, void *c, const void *bias, const float *src_scale, \
                    const float *wei_scale, const float *dst_scale, const int *zp_src, \
                    const int *zp_dst, const int *colsum, int64_t a_off, int64_t b_off, \
                    int64_t c_off, int64_t lda, int64_t ldb, int64_t ldc, int64_t a_sb, \
                    int64_t b_sb, int64_t c_sb, int M, int N, int K, int c_kind, int bias_kind, \
                    int splits, int64_t c_slice, ANYDNN_EPILOGUE_PARAMS, int64_t colsum_off, \
                    int64_t colsum_sb) { \
        epilogue_args_t ea = ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale); \
        ea.zp_src = zp_src; \
        ea.zp_dst = zp_dst; \
        ea.colsum = zp_src ? colsum + colsum_off : nullptr; \
        ea.colsum_sb = colsum_sb; \
        gemm<KIND, 0, 0, BN, BK, S, P, EPI>(a, b, c, bias, a_off, b_off, c_off, lda, ldb, ldc, \
                a_sb, b_sb, c_sb, M, N, K, c_kind, bias_kind, splits, c_slice, ea); \
    }

#define ANYDNN_WGMMA_LAYOUTS_BM(TY, KIND, BM, PRE, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, KIND, 0, 0, k, k, BM, PRE, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, KIND, 0, 1, k, n, BM, PRE, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, KIND, 1, 0, m, k, BM, PRE, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, KIND, 1, 1, m, n, BM, PRE, BN, BK, S, P, EPI, SUFFIX)
#define ANYDNN_WGMMA_LAYOUTS(TY, KIND, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_LAYOUTS_BM(TY, KIND, 128, , BN, BK, S, P, EPI, SUFFIX)
#define ANYDNN_WGMMA_LAYOUTS_M64(TY, KIND, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_LAYOUTS_BM(TY, KIND, 64, m64_, BN, BK, S, P, EPI, SUFFIX)

// Both forms (plain and _epi) of one kind and layout set.
#define ANYDNN_WGMMA_BOTH(LAYOUTS, TY, KIND, BN, BK, S, P) \
    LAYOUTS(TY, KIND, BN, BK, S, P, false, ) \
    LAYOUTS(TY, KIND, BN, BK, S, P, true, _epi)

// tf32 and the integers: K-major tiles only (the host copies other layouts K-major first).
#define ANYDNN_WGMMA_KMAJOR(TY, KIND, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, KIND, 0, 0, k, k, 128, , BN, BK, S, P, EPI, SUFFIX)

// 16-bit types: 64-element lines (128 bytes).
#define ANYDNN_WGMMA_CONFIG(BN, BK, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_LAYOUTS, bf16, ab_bf16, BN, BK, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_LAYOUTS, f16, ab_f16, BN, BK, S, P)
#define ANYDNN_WGMMA_CONFIG_M64(BN, BK, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_LAYOUTS_M64, bf16, ab_bf16, BN, BK, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_LAYOUTS_M64, f16, ab_f16, BN, BK, S, P)
// tf32 (f32 data): 32-element lines; 8-bit integers: 128-element lines. The same 128-byte
// lines and shared-memory bytes as the 16-bit configurations of the same BN and stages.
#define ANYDNN_WGMMA_CONFIG_TF32(BN, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_KMAJOR, tf32, ab_tf32, BN, 32, S, P)
#define ANYDNN_WGMMA_CONFIG_INT8(BN, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_INT_ENTRY, s8s8, ab_s8s8, BN, 128, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_INT_ENTRY, s8u8, ab_s8u8, BN, 128, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_INT_ENTRY, u8s8, ab_u8s8, BN, 128, S, P) \
    ANYDNN_WGMMA_BOTH(ANYDNN_WGMMA_INT_ENTRY, u8u8, ab_u8u8, BN, 128, S, P)

// 192 KB and 128 KB of statically sized shared memory: NVIDIA's OpenCL runs work-groups with
// up to 227 KB of it (its local-memory query says 48 KB, the limit of `local` arguments).
ANYDNN_WGMMA_CONFIG(256, 64, 4, 1)
ANYDNN_WGMMA_CONFIG(128, 64, 4, 1)
ANYDNN_WGMMA_CONFIG_TF32(256, 4, 1)
ANYDNN_WGMMA_CONFIG_TF32(128, 4, 1)
// tf32 variants for the tuning table to measure (ANYDNN_GPU_TUNING=wgmma:config=...): a
// K step of 32 elements is half the bf16 one, so narrow tiles may want more stages in flight.
ANYDNN_WGMMA_CONFIG_TF32(128, 6, 1)
ANYDNN_WGMMA_CONFIG_TF32(64, 8, 1)
// 64-row tiles of one warpgroup, for C too small to give 128-row tiles to every compute unit
// (inner product mb256 4096 -> 4096: 64 tiles of 128 x 128, split along K in 2 by the table,
// its slices summed by a second kernel): 64 x 64 tiles make 256 CTAs of 64 KB, two or three
// per SM, and 64 x 128 tiles (96 KB) 128 CTAs, neither with a slice-sum pass (both read more
// of A and B through L2 per product than 128 x 128). Chosen through ANYDNN_GPU_TUNING
// (wgmma:config=m64_64x64s4p1,splits=1) until timed on the device.
ANYDNN_WGMMA_CONFIG_M64(64, 64, 4, 1)
ANYDNN_WGMMA_CONFIG_M64(128, 64, 4, 1)
ANYDNN_WGMMA_CONFIG_INT8(256, 4, 1)
ANYDNN_WGMMA_CONFIG_INT8(128, 4, 1)

// Adds the split-K slices of `ws` ([slice][batch][M][N], slices `slice` elements apart; f32,
// or s32 for the integer kernels), applies the epilogue and writes C (c_kind_t; bias_kind_t).
// One thread per element of C. Integer sums with nothing to apply go to s32 C exactly.
template <class Sum>
__device__ __forceinline__ void splitk_reduce(const Sum *ws, void *c, const void *bias,
        const float *src_scale, const float *wei_scale, const float *dst_scale, int64_t c_off,
        int64_t ldc, int64_t c_sb, int64_t slice, int M, int N, int batches, int splits,
        int c_kind, int bias_kind, ANYDNN_EPILOGUE_PARAMS) {
    const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t mn = int64_t(M) * N;
    if (i >= mn * batches) return;
    const int64_t batch = i / mn, m = i % mn / N, n = i % N;
    Sum sum = 0;
    for (int s = 0; s < splits; ++s)
        sum += ws[s * slice + i];
    const int64_t o = c_off + batch * c_sb + m * ldc + n;
    if (std::is_same<Sum, int>::value && c_kind == c_s32 && !bias_kind && !src_scale
            && !wei_scale && !dst_scale && !sum_at && !elt) {
        static_cast<int *>(c)[o] = int(sum);
        return;
    }
    epilogue_args_t args = ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale);
    args.bias = bias;
    args.bias_kind = bias_kind;
    const epilogue_t e(args);
    const float old = sum_at ? load_c(c, c_kind, o) : 0.f;
    store_c(c, c_kind, o, e.apply_inline(float(sum), int(n), old));
}

#define ANYDNN_WGMMA_SPLITK_REDUCE(NAME, SUM) \
    extern "C" __global__ void NAME(const SUM *ws, void *c, const void *bias, \
            const float *src_scale, const float *wei_scale, const float *dst_scale, \
            int64_t c_off, int64_t ldc, int64_t c_sb, int64_t slice, int M, int N, int batches, \
            int splits, int c_kind, int bias_kind, ANYDNN_EPILOGUE_PARAMS) { \
        splitk_reduce<SUM>(ws, c, bias, src_scale, wei_scale, dst_scale, c_off, ldc, c_sb, \
                slice, M, N, batches, splits, c_kind, bias_kind, wei_per_n, sum_at, sum_scale, \
                sum_zp, elt, alpha, beta); \
    }
ANYDNN_WGMMA_SPLITK_REDUCE(anydnn_wgmma_splitk_reduce, float)
ANYDNN_WGMMA_SPLITK_REDUCE(anydnn_wgmma_splitk_reduce_s32, int)

// The f32 sum four elements of a row per thread, for N a multiple of 4 (the slices' rows, and
// so every slice's start, are then 16-byte aligned): one 16-byte load per slice, and the
// element's position worked out once per four (in 32 bits where C is below 2^31 elements), so
// the pass is bound by its loads rather than by 64-bit divisions. The same parameters.
extern "C" __global__ void anydnn_wgmma_splitk_reduce4(const float *ws, void *c, const void *bias,
        const float *src_scale, const float *wei_scale, const float *dst_scale, int64_t c_off,
        int64_t ldc, int64_t c_sb, int64_t slice, int M, int N, int batches, int splits,
        int c_kind, int bias_kind, ANYDNN_EPILOGUE_PARAMS) {
    const int64_t i = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
    const int64_t mn = int64_t(M) * N;
    if (i >= mn * batches) return;
    int64_t batch, m, n;
    if (mn * batches < (int64_t(1) << 31)) {
        const uint32_t i32 = uint32_t(i), mn32 = uint32_t(mn), n32 = uint32_t(N);
        batch = i32 / mn32, m = i32 % mn32 / n32, n = i32 % n32;
    } else {
        batch = i / mn, m = i % mn / N, n = i % N;
    }
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int s = 0; s < splits; ++s) {
        const float4 v = *reinterpret_cast<const float4 *>(ws + s * slice + i);
        sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    epilogue_args_t args = ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale);
    args.bias = bias;
    args.bias_kind = bias_kind;
    const epilogue_t e(args);
    const int64_t o = c_off + batch * c_sb + m * ldc + n;
    const float v[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float old = sum_at ? load_c(c, c_kind, o + j) : 0.f;
        store_c(c, c_kind, o + j, e.apply_inline(v[j], int(n) + j, old));
    }
}
