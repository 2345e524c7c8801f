// dnnl_sgemm, dnnl_gemm_u8s8s32, dnnl_gemm_s8s8s32: row-major BLAS-like products. Integer
// forms run on the int8 GEMM (cpu/ukernels/gemm_lowp, exact s32 accumulation) where
// AVX512_VNNI is enabled, else on the shared CPU GEMM (cpu/ukernels/gemm), which accumulates
// in f32: exact while partial sums stay below 2^24 in magnitude.
#include <cstdlib>
#include <memory>

#include "api/api.hpp"
#include "core/data_types.hpp"
#include "cpu/ukernels/gemm.hpp"
#include "cpu/ukernels/gemm_lowp.hpp"

using namespace anydnn;

namespace {

bool is_trans(char t) {
    return t == 'T' || t == 't';
}
bool valid_trans(char t) {
    return t == 'N' || t == 'n' || t == 'T' || t == 't';
}

status_t check_common(char transa, char transb, dim_t M, dim_t N, dim_t K, const void *A,
        dim_t lda, const void *B, dim_t ldb, const void *C, dim_t ldc) {
    ANYDNN_REQUIRE(valid_trans(transa), dnnl_invalid_arguments, "transa is '%c'", transa);
    ANYDNN_REQUIRE(valid_trans(transb), dnnl_invalid_arguments, "transb is '%c'", transb);
    ANYDNN_REQUIRE(M >= 0 && N >= 0 && K >= 0, dnnl_invalid_arguments,
            "negative size M=%ld N=%ld K=%ld", (long)M, (long)N, (long)K);
    const dim_t a_cols = is_trans(transa) ? M : K, b_cols = is_trans(transb) ? K : N;
    ANYDNN_REQUIRE(lda >= std::max<dim_t>(1, a_cols), dnnl_invalid_arguments,
            "lda %ld is below %ld", (long)lda, (long)a_cols);
    ANYDNN_REQUIRE(ldb >= std::max<dim_t>(1, b_cols), dnnl_invalid_arguments,
            "ldb %ld is below %ld", (long)ldb, (long)b_cols);
    ANYDNN_REQUIRE(ldc >= std::max<dim_t>(1, N), dnnl_invalid_arguments, "ldc %ld is below N",
            (long)ldc);
    if (M == 0 || N == 0) return dnnl_success;
    ANYDNN_REQUIRE(C != nullptr, dnnl_invalid_arguments, "C is null");
    if (K > 0)
        ANYDNN_REQUIRE(A != nullptr && B != nullptr, dnnl_invalid_arguments, "A or B is null");
    return dnnl_success;
}

// On the int8 kernels: s32 sums stay exact; alpha 1 with beta 0 or 1 keeps the whole update
// in integers (saturated to s32), other alpha/beta go through f32 as the f32 path does.
template <typename TA, typename TB>
status_t gemm_x8s8s32_vnni(char transa, char transb, char oc, dim_t M, dim_t N, dim_t K,
        float alpha, const TA *A, dim_t lda, TA ao, const TB *B, dim_t ldb, TB bo, float beta,
        int32_t *C, dim_t ldc, const int32_t *co, dnnl_data_type_t adt) {
    cpu::ukernels::lowp_gemm_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    const bool ta = is_trans(transa), tb = is_trans(transb);
    p.a = {A, adt, ta ? 1 : lda, ta ? lda : 1, 0, static_cast<int32_t>(ao)};
    p.b = {B, dnnl_s8, tb ? 1 : ldb, tb ? ldb : 1, 0, static_cast<int32_t>(bo)};
    if (alpha == 1.f && beta == 0.f && oc == 'F' && co[0] == 0) {
        p.c = C;
        p.c_dt = dnnl_s32;
        p.ldc = ldc;
        return cpu::ukernels::gemm_int8(p);
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
    return cpu::ukernels::gemm_int8(p);
}

template <typename TA, typename TB>
status_t gemm_x8s8s32(char transa, char transb, char offsetc, dim_t M, dim_t N, dim_t K,
        float alpha, const TA *A, dim_t lda, TA ao, const TB *B, dim_t ldb, TB bo, float beta,
        int32_t *C, dim_t ldc, const int32_t *co, dnnl_data_type_t adt) {
    ANYDNN_CHECK(check_common(transa, transb, M, N, K, A, lda, B, ldb, C, ldc));
    const char oc = static_cast<char>(offsetc & ~0x20); // upper case
    ANYDNN_REQUIRE(oc == 'F' || oc == 'C' || oc == 'R', dnnl_invalid_arguments,
            "offsetc is '%c' (F, C or R)", offsetc);
    ANYDNN_REQUIRE(co != nullptr, dnnl_invalid_arguments, "co is null");
    if (M == 0 || N == 0) return dnnl_success;
    if (cpu::ukernels::gemm_int8_available())
        return gemm_x8s8s32_vnni(transa, transb, oc, M, N, K, alpha, A, lda, ao, B, ldb, bo,
                beta, C, ldc, co, adt);
    std::unique_ptr<float, void (*)(void *)> acc(
            static_cast<float *>(std::aligned_alloc(64, (M * N * sizeof(float) + 63) / 64 * 64)),
            std::free);
    ANYDNN_REQUIRE(acc, dnnl_out_of_memory, "no memory for %ldx%ld accumulators", (long)M,
            (long)N);
    cpu::ukernels::gemm_problem_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    const bool ta = is_trans(transa), tb = is_trans(transb);
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
    cpu::ukernels::gemm(p);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B, dnnl_dim_t ldb,
        float beta, float *C, dnnl_dim_t ldc) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_CHECK(check_common(transa, transb, M, N, K, A, lda, B, ldb, C, ldc));
        if (M == 0 || N == 0) return dnnl_success;
        cpu::ukernels::sgemm_rowmajor(
                transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A, dnnl_dim_t lda, uint8_t ao,
        const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C, dnnl_dim_t ldc,
        const int32_t *co) {
    return guarded(__func__, [&]() -> status_t {
        return gemm_x8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo,
                beta, C, ldc, co, dnnl_u8);
    });
}

DNNL_API dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A, dnnl_dim_t lda, int8_t ao,
        const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C, dnnl_dim_t ldc,
        const int32_t *co) {
    return guarded(__func__, [&]() -> status_t {
        return gemm_x8s8s32(transa, transb, offsetc, M, N, K, alpha, A, lda, ao, B, ldb, bo,
                beta, C, ldc, co, dnnl_s8);
    });
}

} // extern "C"
