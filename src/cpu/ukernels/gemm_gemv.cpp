// Small-M f32 GEMM (M <= 4): memory-bound on B, so B is streamed exactly once, unpacked.
// Row-major B: threads split K, each streaming a contiguous run of B rows into its own
// M x N partial sums (L1/L2), reduced afterwards. Transposed B: threads split N and take
// dot products of contiguous B columns with the rows of A.
#include <algorithm>

#include <immintrin.h>

// GCC 12 intrinsics leave __Y = __Y (an undefined vector) in the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/parallel.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace detail {

namespace {

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))

constexpr dim_t gemv_max_m = 4;
constexpr int k_unroll = 8;

inline __mmask16 tail_mask(dim_t left) {
    return left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
}

// acc[m][n] += sum_{k in [k0,k1)} A(m,k) * B(k,n), n in [0, N); B rows contiguous (pitch ldb).
template <int M>
ANYDNN_AVX512 void rows_times_b(
        const gemm_problem_t &p, dim_t k0, dim_t k1, float *acc, dim_t ld_acc) {
    const float *A = static_cast<const float *>(p.a.ptr);
    const float *B = static_cast<const float *>(p.b.ptr);
    const dim_t N = p.N, rs = p.b.rs;
    dim_t k = k0;
    for (; k + k_unroll <= k1; k += k_unroll) {
        __m512 av[M][k_unroll];
        const float *brow[k_unroll];
        for (int u = 0; u < k_unroll; ++u) {
            brow[u] = B + (k + u) * rs;
            for (int m = 0; m < M; ++m)
                av[m][u] = _mm512_set1_ps(A[m * p.a.rs + (k + u) * p.a.cs]);
        }
        for (dim_t n = 0; n < N; n += 16) {
            const __mmask16 mask = tail_mask(N - n);
            __m512 bv[k_unroll];
            for (int u = 0; u < k_unroll; ++u)
                bv[u] = _mm512_maskz_loadu_ps(mask, brow[u] + n);
            for (int m = 0; m < M; ++m) {
                float *c = acc + m * ld_acc + n;
                __m512 s = _mm512_load_ps(c);
                for (int u = 0; u < k_unroll; ++u)
                    s = _mm512_fmadd_ps(av[m][u], bv[u], s);
                _mm512_store_ps(c, s);
            }
        }
    }
    for (; k < k1; ++k) {
        const float *brow = B + k * rs;
        for (dim_t n = 0; n < N; n += 16) {
            const __m512 bv = _mm512_maskz_loadu_ps(tail_mask(N - n), brow + n);
            for (int m = 0; m < M; ++m) {
                float *c = acc + m * ld_acc + n;
                const __m512 av = _mm512_set1_ps(A[m * p.a.rs + k * p.a.cs]);
                _mm512_store_ps(c, _mm512_fmadd_ps(av, bv, _mm512_load_ps(c)));
            }
        }
    }
}

// C(m, n) for n in [n0, n1) as dot products of A rows (contiguous, pitch lda) with B
// columns (contiguous, pitch ldb); C = alpha * dot + beta * C.
template <int M>
ANYDNN_AVX512 void rows_dot_cols(
        const gemm_problem_t &p, const float *A, dim_t lda, dim_t n0, dim_t n1) {
    const float *B = static_cast<const float *>(p.b.ptr);
    const dim_t K = p.K, ldb = p.b.cs;
    constexpr int NB = 4;
    auto finish = [&](int m, dim_t n, float dot) {
        float &c = p.c[m * p.ldc + n];
        c = p.alpha * dot + (p.beta == 0.f ? 0.f : p.beta * c);
    };
    dim_t n = n0;
    for (; n + NB <= n1; n += NB) {
        __m512 s[M][NB];
        for (int m = 0; m < M; ++m)
            for (int j = 0; j < NB; ++j)
                s[m][j] = _mm512_setzero_ps();
        for (dim_t k = 0; k < K; k += 16) {
            const __mmask16 mask = tail_mask(K - k);
            __m512 bv[NB];
            for (int j = 0; j < NB; ++j)
                bv[j] = _mm512_maskz_loadu_ps(mask, B + (n + j) * ldb + k);
            for (int m = 0; m < M; ++m) {
                const __m512 av = _mm512_maskz_loadu_ps(mask, A + m * lda + k);
                for (int j = 0; j < NB; ++j)
                    s[m][j] = _mm512_fmadd_ps(av, bv[j], s[m][j]);
            }
        }
        for (int m = 0; m < M; ++m)
            for (int j = 0; j < NB; ++j)
                finish(m, n + j, _mm512_reduce_add_ps(s[m][j]));
    }
    for (; n < n1; ++n) {
        __m512 s[M];
        for (int m = 0; m < M; ++m)
            s[m] = _mm512_setzero_ps();
        for (dim_t k = 0; k < K; k += 16) {
            const __mmask16 mask = tail_mask(K - k);
            const __m512 bv = _mm512_maskz_loadu_ps(mask, B + n * ldb + k);
            for (int m = 0; m < M; ++m)
                s[m] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, A + m * lda + k), bv, s[m]);
        }
        for (int m = 0; m < M; ++m)
            finish(m, n, _mm512_reduce_add_ps(s[m]));
    }
}

template <typename F> void by_rows(dim_t M, F f) {
    switch (M) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    default: f(std::integral_constant<int, 4>{}); break;
    }
}

// C = alpha * acc + beta * C over columns [n0, n1), where acc sums `parts` partials.
void finish_columns(const gemm_problem_t &p, const float *acc, dim_t ld_acc, int parts,
        dim_t part_stride, dim_t n0, dim_t n1) {
    for (dim_t m = 0; m < p.M; ++m) {
        float *c = p.c + m * p.ldc;
        for (dim_t n = n0; n < n1; ++n) {
            float s = 0.f;
            for (int t = 0; t < parts; ++t)
                s += acc[t * part_stride + m * ld_acc + n];
            c[n] = p.alpha * s + (p.beta == 0.f ? 0.f : p.beta * c[n]);
        }
    }
}

void gemv_rowmajor_b(const gemm_problem_t &p, int nthr) {
    const dim_t ld_acc = (p.N + 15) / 16 * 16;
    const dim_t part_stride = p.M * ld_acc;
    // Split K when every chunk still streams a long run of B; otherwise split N.
    if (nthr > 1 && p.K >= 256 * nthr) {
        // Partial sums per thread; chunks of depth taken in turn.
        const dim_t chunks = std::min<dim_t>(p.K / 128, nthr * 8);
        fbuf_t acc = alloc_floats(nthr * part_stride);
        std::fill(acc.get(), acc.get() + nthr * part_stride, 0.f);
        for_chunks(chunks, nthr, [&](int ithr, dim_t c) {
            dim_t k0, k1;
            balance211(p.K, static_cast<int>(chunks), static_cast<int>(c), k0, k1);
            float *mine = acc.get() + ithr * part_stride;
            by_rows(p.M, [&](auto rows) { rows_times_b<rows()>(p, k0, k1, mine, ld_acc); });
        });
        finish_columns(p, acc.get(), ld_acc, nthr, part_stride, 0, p.N);
        if (p.epilogue) p.epilogue(0, 0, p.M, p.N);
        return;
    }
    // Chunks of 16-column groups, each over all of K.
    fbuf_t acc = alloc_floats(part_stride);
    std::fill(acc.get(), acc.get() + part_stride, 0.f);
    const dim_t groups = (p.N + 15) / 16;
    const dim_t chunks = std::min<dim_t>(groups, nthr * 4);
    for_chunks(chunks, nthr, [&](int, dim_t c) {
        dim_t g0, g1;
        balance211(groups, static_cast<int>(chunks), static_cast<int>(c), g0, g1);
        const dim_t n0 = g0 * 16, n1 = std::min(p.N, g1 * 16);
        gemm_problem_t q = p;
        q.b.ptr = static_cast<const float *>(p.b.ptr) + n0;
        q.N = n1 - n0;
        by_rows(p.M, [&](auto rows) { rows_times_b<rows()>(q, 0, p.K, acc.get() + n0, ld_acc); });
        finish_columns(p, acc.get(), ld_acc, 1, part_stride, n0, n1);
        if (p.epilogue) p.epilogue(0, n0, p.M, n1 - n0);
    });
}

void gemv_transposed_b(const gemm_problem_t &p, int nthr) {
    // A rows made contiguous once (M x K, small).
    const float *A = static_cast<const float *>(p.a.ptr);
    dim_t lda = p.a.rs;
    fbuf_t a_copy;
    if (p.a.cs != 1) {
        a_copy = alloc_floats(p.M * p.K);
        for (dim_t m = 0; m < p.M; ++m)
            for (dim_t k = 0; k < p.K; ++k)
                a_copy.get()[m * p.K + k] = A[m * p.a.rs + k * p.a.cs];
        A = a_copy.get();
        lda = p.K;
    }
    const dim_t chunks = std::min<dim_t>(div_up(p.N, 16), nthr * 4);
    for_chunks(chunks, nthr, [&](int, dim_t c) {
        dim_t n0, n1;
        balance211(p.N, static_cast<int>(chunks), static_cast<int>(c), n0, n1);
        by_rows(p.M, [&](auto rows) { rows_dot_cols<rows()>(p, A, lda, n0, n1); });
        if (p.epilogue) p.epilogue(0, n0, p.M, n1 - n0);
    });
}

} // namespace

bool gemv_avx512(const gemm_problem_t &p, int nthr) {
    const bool f32 = p.a.dt == dnnl_f32 && p.b.dt == dnnl_f32 && p.a.zp == 0.f && p.b.zp == 0.f;
    if (!f32 || p.M > gemv_max_m || p.K <= 0) return false;
    if (p.b.cs == 1)
        gemv_rowmajor_b(p, nthr);
    else if (p.b.rs == 1)
        gemv_transposed_b(p, nthr);
    else
        return false;
    return true;
}

} // namespace detail
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
