#include "core/threadpool.hpp"

#include <condition_variable>
#include <mutex>

namespace anydnn {
namespace {

thread_local threadpool_t *active_pool = nullptr;
thread_local bool running_job = false;
thread_local int max_concurrency = 0;

// Counts the jobs of one run_on_threadpool call that have not finished yet.
class countdown_t {
public:
    explicit countdown_t(int n) : left_(n) {}
    void done() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--left_ == 0) zero_.notify_all();
    }
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        zero_.wait(lock, [&] { return left_ == 0; });
    }

private:
    std::mutex mutex_;
    std::condition_variable zero_;
    int left_;
};

} // namespace

threadpool_t *active_threadpool() {
    return active_pool;
}

bool in_threadpool_job() {
    return running_job;
}

threadpool_scope_t::threadpool_scope_t(threadpool_t *pool) : previous_(active_pool) {
    active_pool = pool;
}

threadpool_scope_t::~threadpool_scope_t() {
    active_pool = previous_;
}

void run_on_threadpool(threadpool_t *pool, int nthr, const std::function<void(int, int)> &f) {
    // Called from one of the pool's own threads: waiting there for the pool could deadlock.
    if (pool->get_in_parallel()) {
        f(0, 1);
        return;
    }
    countdown_t left(nthr);
    // A synchronous pool may run jobs on the calling thread: restore its flag afterwards.
    pool->parallel_for(nthr, [&](int ithr, int n) {
        const bool was_running = running_job;
        running_job = true;
        f(ithr, n);
        running_job = was_running;
        left.done();
    });
    left.wait();
}

int thread_max_concurrency() {
    return max_concurrency;
}

void set_thread_max_concurrency(int n) {
    max_concurrency = n;
}

} // namespace anydnn
