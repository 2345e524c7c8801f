// The eltwise post-ops the CUDA GEMM kernels fuse (sgemm/ and hopper/), with the algorithm
// codes the host's epilogue descriptor (wgmma_epilogue) passes: 0 none, 1 relu (alpha:
// negative slope), 2 gelu_erf, 3 gelu_tanh, 4 swish (alpha: beta of x * sigmoid(alpha * x)). Plain C++ inside: the host emulation of the
// kernels (tests/internal/cuda_host_shim.hpp) compiles it too.
#pragma once

namespace {

__device__ __forceinline__ float gemm_eltwise(int alg, float x, float alpha) {
    switch (alg) {
        case 1: return x > 0.f ? x : alpha * x;
        case 2: return 0.5f * x * (1.f + erff(x * 0.70710678118654752f));
        case 3: {
            const float g = 0.79788456080286536f * x * (1.f + 0.044715f * x * x);
            return 0.5f * x * (1.f + tanhf(g));
        }
        case 4: return x / (1.f + expf(-alpha * x));
        default: return x;
    }
}

} // namespace
