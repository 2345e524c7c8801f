// Row-major GEMM on host memory, the engine-neutral entry behind dnnl_sgemm,
// dnnl_gemm_u8s8s32 and dnnl_gemm_s8s8s32 (src/api checks the arguments; the CPU engine
// defines these in cpu/host_gemm.cpp).
#pragma once

#include <cstdint>

#include "core/memory_desc.hpp"
#include "core/status.hpp"

namespace anydnn {
namespace host_gemm {

// C = alpha * op(A) * op(B) + beta * C in f32; arguments checked, M and N above zero.
void sgemm(char transa, char transb, dim_t M, dim_t N, dim_t K, float alpha, const float *A,
        dim_t lda, const float *B, dim_t ldb, float beta, float *C, dim_t ldc);

// s32 C = alpha * (op(A) + ao)(op(B) + bo) + beta * C + co, A of type adt (u8 or s8), B s8;
// oc is 'F', 'C' or 'R' (co fixed, per row, per column). Arguments checked, M and N above
// zero.
status_t gemm_x8s8s32(bool ta, bool tb, char oc, dim_t M, dim_t N, dim_t K, float alpha,
        const void *A, dim_t lda, int32_t ao, const int8_t *B, dim_t ldb, int32_t bo, float beta,
        int32_t *C, dim_t ldc, const int32_t *co, dnnl_data_type_t adt);

} // namespace host_gemm
} // namespace anydnn
