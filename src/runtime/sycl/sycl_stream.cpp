#include "runtime/sycl/sycl_stream.hpp"

#include <algorithm>

#include "core/memory.hpp"
#include "core/stream_turn.hpp"
#include "runtime/sycl/sycl_engine.hpp"

namespace anydnn {
namespace sycl_rt {

namespace {
// Set on the thread running one of our host tasks: executions it starts (a graph's steps)
// go straight to the native queue instead of waiting for a task behind their own.
thread_local bool in_host_task = false;
} // namespace

std::vector<sycl_buffer_storage_t *> buffers_of(const exec_ctx_t &ctx) {
    std::vector<sycl_buffer_storage_t *> out;
    for (const auto &a : ctx.args) {
        for (int i = 0; i < a.second->nhandles(); ++i) {
            auto *b = dynamic_cast<sycl_buffer_storage_t *>(a.second->storage(i));
            if (b && b->buffer() && std::find(out.begin(), out.end(), b) == out.end())
                out.push_back(b);
        }
    }
    return out;
}

sycl_stream_t::sycl_stream_t(sycl_engine_t *engine, cl_command_queue native,
        const ::sycl::queue &queue, unsigned flags, bool ooo)
    : ocl_stream_t(engine, native, flags, ooo), queue_(queue) {}

status_t sycl_stream_t::create(sycl_stream_t **stream, sycl_engine_t *engine,
        const ::sycl::queue &queue, unsigned flags) {
    return sycl_guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE(queue.get_context() == engine->sycl_context(), dnnl_invalid_arguments,
                "the SYCL queue belongs to another context than the engine's");
        ANYDNN_REQUIRE(queue.get_device() == engine->sycl_device(), dnnl_invalid_arguments,
                "the SYCL queue is on another device than the engine's");
        const bool ooo = !queue.is_in_order();
        flags &= ~(dnnl_stream_in_order | dnnl_stream_out_of_order);
        flags |= ooo ? dnnl_stream_out_of_order : dnnl_stream_in_order;
        // get_native hands out a reference, which the OpenCL stream releases.
        cl_command_queue native = ::sycl::get_native<::sycl::backend::opencl>(queue);
        *stream = new sycl_stream_t(engine, native, queue, flags, ooo);
        (*stream)->exempt_from_turns(); // its executions run in host tasks (core/stream_turn.hpp)
        return dnnl_success;
    });
}

status_t sycl_stream_t::wait() {
    return sycl_guarded(__func__, [&]() -> status_t {
        queue_.wait_and_throw();
        return dnnl_success;
    });
}

status_t sycl_stream_t::execute(const primitive_t &prim, const exec_ctx_t &ctx) {
    if (in_host_task) return ocl_stream_t::execute(prim, ctx);
    return execute_with_sycl_events(prim, ctx, {}, nullptr);
}

status_t sycl_stream_t::execute_with_sycl_events(const primitive_t &prim, const exec_ctx_t &ctx,
        const std::vector<::sycl::event> &deps, ::sycl::event *done) {
    return run_in_task(buffers_of(ctx), [&] { return ocl_stream_t::execute(prim, ctx); }, deps,
            done);
}

status_t sycl_stream_t::run_in_task(const std::vector<sycl_buffer_storage_t *> &buffers,
        const std::function<status_t()> &work, const std::vector<::sycl::event> &deps,
        ::sycl::event *done) {
    using accessor_t = ::sycl::accessor<uint8_t, 1, ::sycl::access_mode::read_write>;
    return sycl_guarded(__func__, [&]() -> status_t {
        status_t st = dnnl_success;
        ::sycl::event ev = queue_.submit([&](::sycl::handler &h) {
            h.depends_on(deps);
            std::vector<accessor_t> accessors;
            for (auto *b : buffers)
                accessors.emplace_back(*b->buffer(), h);
            h.host_task([&, accessors](::sycl::interop_handle ih) {
                std::lock_guard<std::mutex> lock(mutex_);
                // Undone however the task ends (a SYCL exception included).
                struct task_scope_t {
                    const std::vector<sycl_buffer_storage_t *> &buffers;
                    size_t bound = 0;
                    task_scope_t(const std::vector<sycl_buffer_storage_t *> &b) : buffers(b) {
                        in_host_task = true;
                    }
                    ~task_scope_t() {
                        for (size_t i = 0; i < bound; ++i)
                            buffers[i]->unbind();
                        in_host_task = false;
                    }
                } scope(buffers);
                for (; scope.bound < buffers.size() && st == dnnl_success; ++scope.bound) {
                    auto mems = ih.get_native_mem<::sycl::backend::opencl>(accessors[scope.bound]);
                    st = mems.empty() ? dnnl_runtime_error : buffers[scope.bound]->bind(mems[0]);
                }
                if (st == dnnl_success) st = work();
                // Everything enqueued has ended before the task does (and before unbinding).
                if (ocl::cl_api()->clFinish(queue()) != CL_SUCCESS && st == dnnl_success)
                    st = dnnl_runtime_error;
            });
        });
        // The task refers to this call's arguments: it must end before we return.
        ev.wait_and_throw();
        if (done) *done = ev;
        ANYDNN_REQUIRE(st == dnnl_success, st, "the execution's host task failed");
        return dnnl_success;
    });
}

} // namespace sycl_rt
} // namespace anydnn
