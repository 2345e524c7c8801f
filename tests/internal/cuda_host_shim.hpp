// Runs our CUDA C kernels (compiled to PTX for the GPU) on the host, for tests of their index
// arithmetic where no NVIDIA GPU is: one std::thread per CUDA thread, a block's threads
// together (__syncthreads is a barrier among them), blocks one after another, so
// `__shared__` arrays are plain statics. cp.async (the kernels' host_cp_async* branches):
// each thread queues its copies, and a wait performs those of all but its N latest groups,
// as late as the hardware may land them, so a kernel that reads a stage before waiting for
// it reads stale data here too. host_launch_cooperative runs all blocks at once instead (a grid
// barrier's kernels), each block with its own shared buffer (host_block_shared). Include it
// before the .cu file.
#pragma once

#include <math.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
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
inline thread_local host_block_barrier_t *host_block_barrier = nullptr;
// The running block's shared buffer (host_launch_cooperative) and its size in floats.
inline thread_local float *host_block_buffer = nullptr;
inline thread_local size_t host_block_floats = 0;

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
// A kernel's shared array of `floats` in the cooperative launch (the block's own buffer).
inline float *host_block_shared(size_t floats) {
    if (floats > host_block_floats) std::abort();
    return host_block_buffer;
}
// A grid barrier's poll: lets the other blocks' threads run.
inline void host_spin_pause() {
    std::this_thread::sleep_for(std::chrono::microseconds(20));
}
inline float __int_as_float(int v) {
    float f;
    std::memcpy(&f, &v, sizeof(f));
    return f;
}
inline void __threadfence() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
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
                std::vector<std::thread> block;
                for (int t = 0; t < threads; ++t)
                    block.emplace_back([&, t] {
                        host_block_barrier = &barrier;
                        threadIdx = {unsigned(t), 0, 0};
                        blockIdx = {x, y, z};
                        body();
                    });
                for (std::thread &t : block)
                    t.join();
            }
}

// Runs `body` on a one-dimensional grid whose blocks all run at once (as a persistent kernel's
// co-resident CTAs), each block with a barrier and `shared_floats` of shared buffer of its own.
inline void host_launch_cooperative(
        unsigned blocks, int threads, size_t shared_floats, const std::function<void()> &body) {
    gridDim = {blocks, 1, 1};
    std::vector<std::unique_ptr<host_block_barrier_t>> barriers;
    std::vector<std::vector<float>> buffers;
    for (unsigned b = 0; b < blocks; ++b) {
        barriers.emplace_back(new host_block_barrier_t(threads));
        buffers.emplace_back(shared_floats, 0.f);
    }
    std::vector<std::thread> all;
    for (unsigned b = 0; b < blocks; ++b)
        for (int t = 0; t < threads; ++t)
            all.emplace_back([&, b, t] {
                host_block_barrier = barriers[b].get();
                host_block_buffer = buffers[b].data();
                host_block_floats = shared_floats;
                threadIdx = {unsigned(t), 0, 0};
                blockIdx = {b, 0, 0};
                body();
            });
    for (std::thread &t : all)
        t.join();
}
