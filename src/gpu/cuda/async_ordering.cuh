// PTX ordering helpers that the Hopper kernels share (the wgmma GEMM and convolution in
// src/gpu/gemm/hopper, flash attention in src/gpu/sdpa/cuda): cp.async groups, wgmma's
// fence/commit/wait, the generic-to-async proxy fence and the register fences around wgmma.
#pragma once

#include <cstdint>

namespace anydnn_ptx {

__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
// Waits until at most N of this thread's committed cp.async groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
// Orders this thread's completed shared-memory writes (cp.async included) before the tensor
// cores' reads through descriptors.
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most N of this warpgroup's committed wgmma groups are still running.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Keeps the compiler from moving reads or writes of these registers (accumulators, register
// A operands) across wgmma's asynchronous use of them.
template <int R>
__device__ __forceinline__ void fence_regs(float *d) {
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}
template <int R>
__device__ __forceinline__ void fence_regs(int *d) {
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+r"(d[i])::"memory");
}
template <int R>
__device__ __forceinline__ void fence_regs(uint32_t *d) {
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+r"(d[i])::"memory");
}

} // namespace anydnn_ptx
