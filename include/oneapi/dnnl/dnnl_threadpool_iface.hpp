// anydnn: the threadpool interface (oneDNN v3.13 compatible) an application implements to
// run the library's CPU parallel work on its own threads. Its layout is part of the ABI: the
// library calls these virtual functions in this order.
#ifndef ONEAPI_DNNL_DNNL_THREADPOOL_IFACE_HPP
#define ONEAPI_DNNL_DNNL_THREADPOOL_IFACE_HPP

#include <cstdint>
#include <functional>

namespace dnnl {
namespace threadpool_interop {

struct threadpool_iface {
    // How many threads the pool runs.
    virtual int get_num_threads() const = 0;
    // Whether the calling thread is one of the pool's.
    virtual bool get_in_parallel() const = 0;
    // Calls fn(i, n) for every i in [0, n), in parallel.
    virtual void parallel_for(int n, const std::function<void(int, int)> &fn) = 0;
    // Behaviour flags: ASYNCHRONOUS or 0.
    virtual uint64_t get_flags() const = 0;
    // Waits for all submitted jobs of an ASYNCHRONOUS pool; nothing for a synchronous one.
    virtual void wait() = 0;
    // parallel_for may return before the calls have run; the library then waits for them.
    static constexpr uint64_t ASYNCHRONOUS = 1;
    virtual ~threadpool_iface() = default;
};

} // namespace threadpool_interop
} // namespace dnnl

#endif
