// The CPU engine's host GEMM behind dnnl_sgemm and the integer forms (core/host_gemm.hpp).
// Integer forms run on the int8 GEMM (cpu/ukernels/gemm_lowp, exact s32 accumulation) where
// AVX512_VNNI is enabled, else on the shared CPU GEMM (cpu/ukernels/gemm), which accumulates
// in f32: exact while partial sums stay below 2^24 in magnitude.
#include "core/host_gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/data_types.hpp"
#include "cpu/ukernels/gemm.hpp"
#include "cpu/ukernels/gemm_lowp.hpp"

namespace anydnn {
namespace host_gemm {

namespace {

namespace ukernels = ::anydnn::cpu::ukernels;

// On the int8 kernels: s32 sums stay exact; alpha 1 with beta 0 or 1 keeps the whole update
// in integers (saturated to s32), other alpha/beta go through f32 as the f32 path does.
status_t gemm_vnni(bool ta, bool tb, char oc, dim_t M, dim_t N, dim_t K, float alpha,
        const void *A, dim_t lda, int32_t ao, const int8_t *B, dim_t ldb, int32_t bo, float beta,
        int32_t *C, dim_t ldc, const int32_t *co, dnnl_data_type_t adt) {
    ukernels::lowp_gemm_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.a = {A, adt, ta ? 1 : lda, ta ? lda : 1, 0, ao};
    p.b = {B, dnnl_s8, tb ? 1 : ldb, tb ? ldb : 1, 0, bo};
    if (alpha == 1.f && beta == 0.f && oc == 'F' && co[0] == 0) {
        p.c = C;
        p.c_dt = dnnl_s32;
        p.ldc = ldc;
        return ukernels::gemm_int8(p);
    }
    const bool integer = alpha == 1.f && (beta == 0.f || beta == 1.f);
    p.epilogue = [&](dim_t m0, dim_t n0, dim_t mb, dim_t nb, void *v, dim_t ldv) {
        for (dim_t i = 0; i < mb; ++i) {
            const int32_t *acc = static_cast<const int32_t *>(v) + i * ldv;
            const dim_t m = m0 + i;
            int32_t *c = C + m * ldc + n0;
            for (dim_t j = 0; j < nb; ++j) {
                const int32_t off = co[oc == 'F' ? 0 : oc == 'C' ? m : n0 + j];
                if (integer) {
                    const int64_t r = int64_t(acc[j]) + (beta == 0.f ? 0 : int64_t(c[j])) + off;
                    c[j] = static_cast<int32_t>(std::min<int64_t>(INT32_MAX,
                            std::max<int64_t>(INT32_MIN, r)));
                } else {
                    const float r = alpha * static_cast<float>(acc[j])
                            + (beta == 0.f ? 0.f : beta * static_cast<float>(c[j]))
                            + static_cast<float>(off);
                    c[j] = saturate_round<int32_t>(r);
                }
            }
        }
    };
    return ukernels::gemm_int8(p);
}

} // namespace

void sgemm(char transa, char transb, dim_t M, dim_t N, dim_t K, float alpha, const float *A,
        dim_t lda, const float *B, dim_t ldb, float beta, float *C, dim_t ldc) {
    ukernels::sgemm_rowmajor(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

status_t gemm_x8s8s32(bool ta, bool tb, char oc, dim_t M, dim_t N, dim_t K, float alpha,
        const void *A, dim_t lda, int32_t ao, const int8_t *B, dim_t ldb, int32_t bo, float beta,
        int32_t *C, dim_t ldc, const int32_t *co, dnnl_data_type_t adt) {
    if (ukernels::gemm_int8_available())
        return gemm_vnni(ta, tb, oc, M, N, K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co,
                adt);
    std::unique_ptr<float, void (*)(void *)> acc(
            static_cast<float *>(std::aligned_alloc(64, (M * N * sizeof(float) + 63) / 64 * 64)),
            std::free);
    ANYDNN_REQUIRE(acc, dnnl_out_of_memory, "no memory for %ldx%ld accumulators", (long)M,
            (long)N);
    ukernels::gemm_problem_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.a = {A, adt, ta ? 1 : lda, ta ? lda : 1, static_cast<float>(ao)};
    p.b = {B, dnnl_s8, tb ? 1 : ldb, tb ? ldb : 1, static_cast<float>(bo)};
    p.c = acc.get();
    p.ldc = N;
    p.epilogue = [&](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
        for (dim_t i = m0; i < m0 + mb; ++i) {
            const float *a = acc.get() + i * N;
            int32_t *c = C + i * ldc;
            for (dim_t j = n0; j < n0 + nb; ++j) {
                float v = alpha * a[j] + (beta == 0.f ? 0.f : beta * static_cast<float>(c[j]));
                v += static_cast<float>(co[oc == 'F' ? 0 : oc == 'C' ? i : j]);
                c[j] = saturate_round<int32_t>(v);
            }
        }
    };
    ukernels::gemm(p);
    return dnnl_success;
}

} // namespace host_gemm
} // namespace anydnn
