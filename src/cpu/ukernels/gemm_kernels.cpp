// Tile kernels of the shared f32 GEMM: rows x 32 of C accumulated in registers.
// A: packed rows (pitch lda); B: one packed 32-column panel, k-major.
#include "cpu/ukernels/gemm_kernels.hpp"

#include <utility>

#include <immintrin.h>

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace detail {

namespace {

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))

constexpr int mr_avx512 = 14; // 28 accumulators + 2 B vectors + 1 broadcast = 31 zmm
constexpr int mr_generic = 4;

// MASK_B: B is read only on its first `cols` columns (a B read in place whose row ends there).
template <int ROWS, bool MASK_B>
ANYDNN_AVX512 void tile_avx512(dim_t K, const float *a, dim_t lda, const float *b, dim_t ldb,
        float *c, dim_t ldc, int cols, float alpha, float beta, bool read_c) {
    const __mmask16 m0 = cols >= 16 ? __mmask16(0xffff) : __mmask16((1u << cols) - 1);
    const __mmask16 m1 = cols >= 32   ? __mmask16(0xffff)
                         : cols <= 16 ? __mmask16(0)
                                      : __mmask16((1u << (cols - 16)) - 1);
    __m512 c0[ROWS], c1[ROWS];
#pragma GCC unroll 16
    for (int i = 0; i < ROWS; ++i) {
        c0[i] = _mm512_setzero_ps();
        c1[i] = _mm512_setzero_ps();
        // C is touched only at the end: have it in L1 by then.
        _mm_prefetch(reinterpret_cast<const char *>(c + i * ldc), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char *>(c + i * ldc + 16), _MM_HINT_T0);
    }
    for (dim_t k = 0; k < K; ++k) {
        const __m512 b0 = MASK_B ? _mm512_maskz_loadu_ps(m0, b) : _mm512_loadu_ps(b);
        const __m512 b1 = MASK_B ? _mm512_maskz_loadu_ps(m1, b + 16) : _mm512_loadu_ps(b + 16);
#pragma GCC unroll 16
        for (int i = 0; i < ROWS; ++i) {
            const __m512 av = _mm512_set1_ps(a[i * lda]);
            c0[i] = _mm512_fmadd_ps(av, b0, c0[i]);
            c1[i] = _mm512_fmadd_ps(av, b1, c1[i]);
        }
        a += 1;
        b += ldb;
    }
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 16
    for (int i = 0; i < ROWS; ++i) {
        float *ci = c + i * ldc;
        __m512 r0 = alpha == 1.f ? c0[i] : _mm512_mul_ps(va, c0[i]);
        __m512 r1 = alpha == 1.f ? c1[i] : _mm512_mul_ps(va, c1[i]);
        if (read_c) {
            r0 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m0, ci), r0);
            r1 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m1, ci + 16), r1);
        }
        _mm512_mask_storeu_ps(ci, m0, r0);
        _mm512_mask_storeu_ps(ci + 16, m1, r1);
    }
}

template <int ROWS>
void tile_generic(dim_t K, const float *a, dim_t lda, const float *b, dim_t ldb, float *c,
        dim_t ldc, int cols, float alpha, float beta, bool read_c) {
    float acc[ROWS][panel_cols] = {};
    for (dim_t k = 0; k < K; ++k) {
        for (int i = 0; i < ROWS; ++i) {
            const float av = a[i * lda + k];
            for (int j = 0; j < panel_cols; ++j)
                acc[i][j] += av * b[j];
        }
        b += ldb;
    }
    for (int i = 0; i < ROWS; ++i) {
        float *ci = c + i * ldc;
        for (int j = 0; j < cols; ++j)
            ci[j] = alpha * acc[i][j] + (read_c ? beta * ci[j] : 0.f);
    }
}

template <bool MASK_B, int... R> tile_kernels_t avx512_set(std::integer_sequence<int, R...>) {
    return {mr_avx512, {nullptr, tile_avx512<R + 1, MASK_B>...}, "avx512"};
}
template <int... R> tile_kernels_t generic_set(std::integer_sequence<int, R...>) {
    return {mr_generic, {nullptr, tile_generic<R + 1>...}, "generic"};
}

} // namespace

const tile_kernels_t &avx512_tiles() {
    static const tile_kernels_t s
            = avx512_set<false>(std::make_integer_sequence<int, mr_avx512>());
    return s;
}

const tile_kernels_t &avx512_tiles_masked_b() {
    static const tile_kernels_t s
            = avx512_set<true>(std::make_integer_sequence<int, mr_avx512>());
    return s;
}

const tile_kernels_t &generic_tiles() {
    static const tile_kernels_t s = generic_set(std::make_integer_sequence<int, mr_generic>());
    return s;
}

} // namespace detail
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
