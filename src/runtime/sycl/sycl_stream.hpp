// A stream over the application's sycl::queue. Each execution is one host task on the queue:
// it starts after the queue's order (in-order queues), the caller's events and the SYCL
// buffers' accessor dependencies, enqueues our OpenCL kernels on the queue's native OpenCL
// queue, and ends when they have. The host task's sycl::event is what execute returns.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

#include <sycl/sycl.hpp>

#include "core/primitive.hpp"
#include "runtime/ocl/ocl_stream.hpp"
#include "runtime/sycl/sycl_memory.hpp"

namespace anydnn {
namespace sycl_rt {

struct sycl_engine_t;

struct sycl_stream_t : public ocl::ocl_stream_t {
    // `queue` must be on the engine's device and context (SYCL's OpenCL backend).
    static status_t create(sycl_stream_t **stream, sycl_engine_t *engine,
            const ::sycl::queue &queue, unsigned flags);

    ::sycl::queue &sycl_queue() { return queue_; }

    status_t wait() override;
    // dnnl_primitive_execute: a host task after the queue's order.
    status_t execute(const primitive_t &prim, const exec_ctx_t &ctx) override;
    // dnnl_sycl_interop_primitive_execute: after `deps` too; `done` (may be null) gets the
    // task's event.
    status_t execute_with_sycl_events(const primitive_t &prim, const exec_ctx_t &ctx,
            const std::vector<::sycl::event> &deps, ::sycl::event *done);
    // Runs `work` (which enqueues on this stream as an OpenCL stream) in one host task after
    // `deps`, with accessors to `buffers` bound for its kernels; returns once the task has
    // ended (so everything `work` refers to stays valid) with its status.
    status_t run_in_task(const std::vector<sycl_buffer_storage_t *> &buffers,
            const std::function<status_t()> &work, const std::vector<::sycl::event> &deps,
            ::sycl::event *done);

private:
    sycl_stream_t(sycl_engine_t *engine, cl_command_queue native, const ::sycl::queue &queue,
            unsigned flags, bool ooo);
    ::sycl::queue queue_;
    std::mutex mutex_; // host tasks of one stream may run at once on an out-of-order queue
};

// The SYCL buffers among the arguments of one execution (each once).
std::vector<sycl_buffer_storage_t *> buffers_of(const exec_ctx_t &ctx);

} // namespace sycl_rt
} // namespace anydnn
