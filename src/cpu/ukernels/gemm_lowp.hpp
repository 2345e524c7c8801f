// Low-precision GEMMs on the dot-product instructions: bf16 x bf16 -> f32 (AVX512_BF16
// vdpbf16ps) and u8/s8 x u8/s8 -> s32 (AVX512_VNNI vpdpbusd), with zero points.
//
// B is consumed in 64-column panels holding `group` consecutive k of one column together
// (2 for bf16, 4 for int8): oneDNN's BA16a64b2a / BA16a64b4a. Weights already in that layout
// are read in place; plain ones are packed one panel at a time. A is read in place when its
// rows are contiguous in k, else copied once. Used by matmul and dnnl_gemm_{u8,s8}s8s32.
#pragma once

#include <cstdint>
#include <functional>

#include "core/memory_desc.hpp"
#include "core/status.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

constexpr int lowp_panel_cols = 64;

// One input matrix. Plain: element (r, c) at ptr[r * rs + c * cs]. Packed (B only):
// panel p starts panel_stride elements after panel p - 1.
struct lowp_matrix_t {
    const void *ptr = nullptr;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    dim_t rs = 0, cs = 0;
    dim_t panel_stride = 0; // > 0: packed
    int32_t zp = 0; // int8: the GEMM reads element - zp
};

struct lowp_gemm_t {
    dim_t M = 0, N = 0, K = 0;
    lowp_matrix_t a; // M x K
    lowp_matrix_t b; // K x N
    // Without an epilogue results go to c[m * ldc + n] as c_dt: f32 or bf16 (bf16 GEMM),
    // s32 (int8 GEMM).
    void *c = nullptr;
    dnnl_data_type_t c_dt = dnnl_f32;
    dim_t ldc = 0;
    // With one, each finished tile of C is handed over instead: element (m0 + i, n0 + j) at
    // v[i * ldv + j], f32 (bf16 GEMM) or s32 (int8 GEMM); the callee may overwrite v.
    std::function<void(dim_t m0, dim_t n0, dim_t mb, dim_t nb, void *v, dim_t ldv)> epilogue;
    int nthr = 0; // 0: max_threads(); 1 inside a caller's own parallel region
};

// Whether the kernels may run now (ISA present and not capped by ONEDNN_MAX_CPU_ISA).
bool gemm_bf16_available();
bool gemm_int8_available();

// Type and layout checks: dnnl_unimplemented (with a reason) for what the kernels do not take.
status_t gemm_bf16_check(const lowp_gemm_t &p);
status_t gemm_int8_check(const lowp_gemm_t &p);

// dnnl_out_of_memory when scratch cannot be had; only when *_available().
status_t gemm_bf16(const lowp_gemm_t &p);
status_t gemm_int8(const lowp_gemm_t &p);

// The packed weights layout for a K x N matrix of type dt (bf16, s8, u8), optionally behind
// one batch dimension (ndims 2 or 3); panel_stride() gives the distance of its panels.
status_t lowp_packed_weights_md(memory_desc_t &md, int ndims, const dim_t *dims,
        dnnl_data_type_t dt);
dim_t lowp_panel_stride(const memory_desc_t &packed_md);

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
