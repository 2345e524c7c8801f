// The application's threadpool (threadpool interop): while a primitive of a threadpool stream
// or a threadpool BLAS call runs, parallel() (core/parallel.hpp) hands its work to that pool
// instead of OpenMP.
#pragma once

#include <functional>

#include "oneapi/dnnl/dnnl_threadpool_iface.hpp"

namespace anydnn {

using threadpool_t = dnnl::threadpool_interop::threadpool_iface;

// The calling thread's active threadpool, or null (OpenMP).
threadpool_t *active_threadpool();

// Whether the calling thread is running one job of run_on_threadpool (nested work runs inline).
bool in_threadpool_job();

// Makes `pool` the calling thread's active threadpool while the scope lives (null: OpenMP).
class threadpool_scope_t {
public:
    explicit threadpool_scope_t(threadpool_t *pool);
    ~threadpool_scope_t();
    threadpool_scope_t(const threadpool_scope_t &) = delete;
    threadpool_scope_t &operator=(const threadpool_scope_t &) = delete;

private:
    threadpool_t *previous_;
};

// Calls f(ithr, nthr) for every ithr in [0, nthr) on `pool` and returns once all have run,
// also for an asynchronous pool; f(0, 1) inline when called from one of the pool's threads.
void run_on_threadpool(threadpool_t *pool, int nthr, const std::function<void(int, int)> &f);

// The calling thread's dnnl_threadpool_interop_set_max_concurrency value, 0 when never set.
int thread_max_concurrency();
void set_thread_max_concurrency(int n);

} // namespace anydnn
