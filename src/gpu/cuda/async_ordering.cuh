// PTX ordering helpers that the Hopper kernels share (the wgmma GEMM and convolution in
// src/gpu/gemm/hopper, flash attention in src/gpu/sdpa/cuda): cp.async groups, wgmma's
// fence/commit/wait, the generic-to-async proxy fence, the register fences around wgmma and
// shared-memory mbarriers (CTA scope) that hand tiles between warpgroups.
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

// An mbarrier at shared address `bar` expecting `count` arrivals per phase; visible to the
// other threads after a barrier.
__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// One arrival (release: this thread's earlier memory accesses happen before the phase ends).
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Waits (acquire) until the phase of this parity has completed: the k-th phase (from 0) has
// parity k % 2; on a fresh barrier parity 1 counts as completed.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
    uint32_t done;
    do {
        asm volatile("{\n .reg .pred p;\n"
                     " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

} // namespace anydnn_ptx
