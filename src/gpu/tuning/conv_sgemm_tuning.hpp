// The f32 convolutions' row of the device tuning table for the strict f32 PTX GEMM
// (gpu/gemm/sgemm): which tile configuration the implicit-GEMM convolution and the
// channels-last GEMM convolution (its 1x1 GEMM on src itself) run, where the device loads the
// sm_90a module. Their shapes differ from matmul's: 64 output channels are common (N = 64),
// and ResNet's late layers have few rows (3x3 256@14 mb64: 12544 x 256).
#pragma once

#include <cstdint>

namespace anydnn {
namespace gpu {

// The configuration name of sgemm_config for a convolution's GEMM (`batch` products of M x N
// by K, A K-major) on `compute_units` units loading PTX up to `ptx_sm`, or null where the size
// picks (sgemm_pick_config's rule, as matmul). `gather_ic`: the input channels of an implicit
// GEMM whose kernel gathers A from src, 0 where A is a matrix (gemm_nhwc).
// ANYDNN_GPU_TUNING "conv_sgemm:tiles=size" gives null (the size's pick, for timing against
// it), "conv_sgemm:tiles=<name>" that name; the sgemm section's config still wins over both
// (sgemm_pick_config).
const char *conv_sgemm_tiles(int64_t compute_units, int ptx_sm, int64_t batch, int64_t m, int64_t n,
        int64_t k, int64_t gather_ic = 0);

} // namespace gpu
} // namespace anydnn
