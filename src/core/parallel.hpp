// Threading for CPU kernels (OpenMP, or the application's threadpool while one is active):
// split work evenly, never nest parallel regions.
#pragma once

#include <algorithm>
#include <cstdint>

#include <omp.h>

#include "core/memory_desc.hpp"
#include "core/threadpool.hpp"

namespace anydnn {

// Threads a CPU primitive may use: the active threadpool's, else the calling thread's
// threadpool-interop max concurrency where set, else omp_get_max_threads().
int max_threads();

// Threads a region that synchronises with `#pragma omp barrier` may use: one on a threadpool,
// whose jobs need not run at the same time.
inline int max_barrier_threads() {
    return active_threadpool() ? 1 : max_threads();
}

// The [start, end) share of `n` items for thread `ithr` of `nthr`, sizes differing by one.
inline void balance211(dim_t n, int nthr, int ithr, dim_t &start, dim_t &end) {
    dim_t base = n / nthr, extra = n % nthr;
    start = ithr * base + std::min<dim_t>(ithr, extra);
    end = start + base + (ithr < extra ? 1 : 0);
}

// Runs f(ithr, nthr) on `nthr` threads (or inline when already inside a parallel region).
template <typename F>
void parallel(int nthr, F f) {
    if (nthr <= 1 || omp_in_parallel() || in_threadpool_job()) {
        f(0, 1);
        return;
    }
    if (threadpool_t *pool = active_threadpool()) {
        run_on_threadpool(pool, nthr, f);
        return;
    }
#pragma omp parallel num_threads(nthr)
    f(omp_get_thread_num(), omp_get_num_threads());
}

// Splits [0, n) over at most `max_nthr` threads, each given at least `min_per_thread` items:
// f(ithr, start, end) for every thread that has work. Small work stays serial.
template <typename F>
void parallel_split(dim_t n, int max_nthr, dim_t min_per_thread, F f) {
    if (n <= 0) return;
    const int nthr = static_cast<int>(std::min<dim_t>(std::min(max_threads(), max_nthr),
            std::max<dim_t>(1, n / std::max<dim_t>(1, min_per_thread))));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance211(n, nt, ithr, start, end);
        if (start < end) f(ithr, start, end);
    });
}

// Splits [0, n) into contiguous ranges: f(start, end) per thread.
template <typename F>
void parallel_range(dim_t n, F f, dim_t min_per_thread = 4096) {
    parallel_split(n, max_threads(), min_per_thread,
            [&](int, dim_t start, dim_t end) { f(start, end); });
}

} // namespace anydnn
