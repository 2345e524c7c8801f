// The shared CPU GEMM: C[M,N] = alpha * A[M,K] * B[K,N] + beta * C, C in f32.
// A and B have any element strides (so any transposition) and any of f32/bf16/f16/s8/u8
// (converted to f32 while packing); computed on packed panels by a register-blocked
// microkernel (AVX-512 when enabled, a portable C++ one otherwise), threaded over blocks of C.
//
// Used by matmul, inner product, convolution and dnnl_sgemm.
#pragma once

#include <cstdint>
#include <functional>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

// Integer B decompressed while it is packed (weight-only quantization): element (k, n) is
// read as (B(k, n) - zp(k, n)) * scale(k, n), a parameter value at element
// off + k / group_k * sk + n / group_n * sn of its array (ptr null: zp 0, scale 1).
struct gemm_dequant_t {
    struct param_t {
        const void *ptr = nullptr;
        dnnl_data_type_t dt = dnnl_f32;
        dim_t off = 0, sk = 0, sn = 0;
        dim_t group_k = 1, group_n = 1;
    };
    param_t scale, zp;
    // Element offset of B(0, 0) from the operand's ptr (s4/u4 pack two elements a byte).
    dim_t b_off = 0;
};

// One input matrix: element (r, c) is at ptr[r * rs + c * cs], of type dt; the GEMM reads
// it as float(element) - zp (zero points of quantized operands).
struct gemm_operand_t {
    const void *ptr = nullptr;
    dnnl_data_type_t dt = dnnl_f32;
    dim_t rs = 0, cs = 0;
    float zp = 0.f;
    // B only, f32 without zero point: > 0 says B is already packed in 32-column panels
    // (rs, cs unused): (k, n) at ptr[n / 32 * panel_stride + k * 32 + n % 32], the panels
    // zero-padded to a multiple of 32 columns. See gemm_packed_b_md.
    dim_t panel_stride = 0;
    // B only: s8/u8/s4/u4 weights decompressed while packing (zp above unused).
    const gemm_dequant_t *dq = nullptr;
};

struct gemm_problem_t {
    dim_t M = 0, N = 0, K = 0;
    gemm_operand_t a; // M x K
    gemm_operand_t b; // K x N
    float *c = nullptr; // element (m, n) at c[m * ldc + n]
    dim_t ldc = 0;
    float alpha = 1.f, beta = 0.f; // beta == 0: C is never read (may hold NaN)
    // Called once per finished block of C (all of K accumulated), from the thread that
    // computed it; blocks are disjoint, so it may post-process them in place.
    std::function<void(dim_t m0, dim_t n0, dim_t mb, dim_t nb)> epilogue;
    // Threads to use: 0 = max_threads(); 1 inside a caller's own parallel region.
    int nthr = 0;
};

// Runs the GEMM; never fails (scratch for packing is allocated per thread per call).
void gemm(const gemm_problem_t &p);

// Convenience for f32 operands: row-major unless transposed ('N'/'T'), lda/ldb row pitches.
void sgemm_rowmajor(char transa, char transb, dim_t M, dim_t N, dim_t K, float alpha,
        const float *A, dim_t lda, const float *B, dim_t ldb, float beta, float *C,
        dim_t ldc, int nthr = 0);

// The layout of K x N f32 weights (2D, or 3D with a leading batch) that gemm() reads as
// packed B without repacking: 32-column panels, K padded to 16 (BA16a32b / aCB16b32c).
// Fails for other ranks or types.
status_t gemm_packed_b_md(memory_desc_t &md, int ndims, const dim_t *dims, dnnl_data_type_t dt);
// panel_stride of a B in that layout (one panel: K padded, times 32 columns).
dim_t gemm_packed_b_panel_stride(const memory_desc_t &packed_md);

// Which microkernel gemm() uses now ("avx512", "generic"); for implementation names.
const char *gemm_isa_name();

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
