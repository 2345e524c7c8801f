// bf16/f16 GEMM on Hopper's warpgroup tensor cores (wgmma, sm_90a): the matrix entry points
// of the kernels in wgmma_core.cuh.
#include "wgmma_core.cuh"

// One entry point per (type, A layout, B layout, tile config, epilogue); the host picks by
// name: anydnn_wgmma_<type>_<a: k|m><b: k|n>_<BN>x<BK>s<S>p<P>[_epi]. Without _epi, the
// kernel adds the bias only and ignores the scales and post-op parameters.
#define ANYDNN_WGMMA_ENTRY(TY, F16, TA, TB, LA, LB, BN, BK, S, P, EPI, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(threads) \
            anydnn_wgmma_##TY##_##LA##LB##_##BN##x##BK##s##S##p##P##SUFFIX(const uint16_t *a, \
                    const uint16_t *b, void *c, const void *bias, const float *src_scale, \
                    const float *wei_scale, const float *dst_scale, int64_t a_off, \
                    int64_t b_off, int64_t c_off, int64_t lda, int64_t ldb, int64_t ldc, \
                    int64_t a_sb, int64_t b_sb, int64_t c_sb, int M, int N, int K, \
                    int c_f32, int bias_kind, int splits, int64_t c_slice, \
                    ANYDNN_EPILOGUE_PARAMS) { \
        gemm<F16, TA, TB, BN, BK, S, P, EPI>(a, b, c, bias, a_off, b_off, c_off, lda, ldb, \
                ldc, a_sb, b_sb, c_sb, M, N, K, c_f32, bias_kind, splits, c_slice, \
                ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale)); \
    }

#define ANYDNN_WGMMA_LAYOUTS(TY, F16, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 0, 0, k, k, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 0, 1, k, n, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 1, 0, m, k, BN, BK, S, P, EPI, SUFFIX) \
    ANYDNN_WGMMA_ENTRY(TY, F16, 1, 1, m, n, BN, BK, S, P, EPI, SUFFIX)

#define ANYDNN_WGMMA_CONFIG(BN, BK, S, P) \
    ANYDNN_WGMMA_LAYOUTS(bf16, false, BN, BK, S, P, false, ) \
    ANYDNN_WGMMA_LAYOUTS(f16, true, BN, BK, S, P, false, ) \
    ANYDNN_WGMMA_LAYOUTS(bf16, false, BN, BK, S, P, true, _epi) \
    ANYDNN_WGMMA_LAYOUTS(f16, true, BN, BK, S, P, true, _epi)

// 192 KB and 128 KB of statically sized shared memory: NVIDIA's OpenCL runs work-groups with
// up to 227 KB of it (its local-memory query says 48 KB, the limit of `local` arguments).
ANYDNN_WGMMA_CONFIG(256, 64, 4, 1)
ANYDNN_WGMMA_CONFIG(128, 64, 4, 1)

// Adds the split-K slices of `ws` (f32, [slice][batch][M][N], slices `slice` elements apart),
// applies the epilogue (bias_kind 0 none, 1 f32, 2 bf16, 3 f16) and writes C (c_kind 0 f32,
// 1 bf16, 2 f16). One thread per element of C.
extern "C" __global__ void anydnn_wgmma_splitk_reduce(const float *ws, void *c, const void *bias,
        const float *src_scale, const float *wei_scale, const float *dst_scale, int64_t c_off,
        int64_t ldc, int64_t c_sb, int64_t slice, int M, int N, int batches, int splits,
        int c_kind, int bias_kind, ANYDNN_EPILOGUE_PARAMS) {
    const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t mn = int64_t(M) * N;
    if (i >= mn * batches) return;
    const int64_t batch = i / mn, m = i % mn / N, n = i % N;
    float sum = 0.f;
    for (int s = 0; s < splits; ++s)
        sum += ws[s * slice + i];
    epilogue_args_t args = ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale);
    args.bias = bias;
    args.bias_kind = bias_kind;
    const epilogue_t e(args);
    const int64_t o = c_off + batch * c_sb + m * ldc + n;
    const float old = sum_at ? load_c(c, c_kind, o) : 0.f;
    store_c(c, c_kind, o, e.apply_inline(sum, int(n), old));
}
