// dnnl_sgemm, dnnl_gemm_u8s8s32, dnnl_gemm_s8s8s32: row-major BLAS-like products on host
// memory. The arguments are checked here; the products run through core/host_gemm.hpp, which
// the CPU engine implements.
#include <algorithm>

#include "api/api.hpp"
#include "core/host_gemm.hpp"

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
    return host_gemm::gemm_x8s8s32(is_trans(transa), is_trans(transb), oc, M, N, K, alpha, A,
            lda, static_cast<int32_t>(ao), B, ldb, static_cast<int32_t>(bo), beta, C, ldc, co,
            adt);
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B, dnnl_dim_t ldb,
        float beta, float *C, dnnl_dim_t ldc) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_CHECK(check_common(transa, transb, M, N, K, A, lda, B, ldb, C, ldc));
        if (M == 0 || N == 0) return dnnl_success;
        host_gemm::sgemm(transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
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
