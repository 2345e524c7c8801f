// Runs our CUDA C kernels (compiled to PTX for the GPU) on the host, for tests of their index
// arithmetic where no NVIDIA GPU is: one std::thread per CUDA thread, a block's threads
// together (__syncthreads is a barrier among them), blocks one after another, so
// `__shared__` arrays are plain statics. cp.async (the kernels' host_cp_async* branches):
// each thread queues its copies, and a wait performs those of all but its N latest groups,
// as late as the hardware may land them, so a kernel that reads a stage before waiting for
// it reads stale data here too. Include it before the .cu file.
#pragma once

#include <math.h>

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

struct cuda_dim3_t {
    unsigned x = 0, y = 0, z = 0;
};
inline thread_local cuda_dim3_t threadIdx, blockIdx;
inline cuda_dim3_t gridDim;

// The threads of the running block wait here for each other.
class host_block_barrier_t {
public:
    explicit host_block_barrier_t(int n) : n_(n) {}
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const long gen = generation_;
        if (++arrived_ == n_) {
            arrived_ = 0;
            ++generation_;
            cv_.notify_all();
            return;
        }
        cv_.wait(lock, [&] { return generation_ != gen; });
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    int n_, arrived_ = 0;
    long generation_ = 0;
};
inline host_block_barrier_t *host_block_barrier = nullptr;

inline void __syncthreads() {
    host_block_barrier->wait();
}
struct float4 {
    float x, y, z, w;
};
inline float4 make_float4(float a, float b, float c, float d) {
    return {a, b, c, d};
}
template <typename T> inline T __ldg(const T *p) {
    return *p;
}
inline int64_t min(int64_t a, int64_t b) {
    return a < b ? a : b;
}

// One thread's cp.async copies: the committed groups (oldest first), then the open one.
struct host_copy_t {
    void *dst;
    const void *src;
    int size, bytes; // the copy's size; bytes read from src (the rest zero-filled)
};
inline thread_local std::deque<std::vector<host_copy_t>> host_copy_groups;
inline thread_local std::vector<host_copy_t> host_copy_open;

inline void host_cp_async(void *dst, const void *src, int size, int bytes) {
    host_copy_open.push_back({dst, src, size, bytes});
}
inline void host_cp_async_commit() {
    host_copy_groups.push_back(std::move(host_copy_open));
    host_copy_open.clear();
}
inline void host_cp_async_wait(int pending) {
    while (int(host_copy_groups.size()) > pending) {
        for (const host_copy_t &c : host_copy_groups.front()) {
            if (c.bytes) std::memcpy(c.dst, c.src, size_t(c.bytes));
            std::memset(static_cast<char *>(c.dst) + c.bytes, 0, size_t(c.size - c.bytes));
        }
        host_copy_groups.pop_front();
    }
}
inline uint64_t __cvta_generic_to_shared(const void *p) {
    return reinterpret_cast<uintptr_t>(p);
}

#define __global__
#define __device__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(threads, blocks)
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))

// Runs `body` (the kernel call) on a grid of `threads`-thread blocks.
inline void host_launch(cuda_dim3_t grid, int threads, const std::function<void()> &body) {
    gridDim = grid;
    for (unsigned z = 0; z < grid.z; ++z)
        for (unsigned y = 0; y < grid.y; ++y)
            for (unsigned x = 0; x < grid.x; ++x) {
                host_block_barrier_t barrier(threads);
                host_block_barrier = &barrier;
                std::vector<std::thread> block;
                for (int t = 0; t < threads; ++t)
                    block.emplace_back([&, t] {
                        threadIdx = {unsigned(t), 0, 0};
                        blockIdx = {x, y, z};
                        body();
                    });
                for (std::thread &t : block)
                    t.join();
            }
}
