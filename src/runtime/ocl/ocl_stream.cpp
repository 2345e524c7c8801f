#include "runtime/ocl/ocl_stream.hpp"

#include "core/primitive.hpp"
#include "core/stream_turn.hpp"
#include "runtime/ocl/ocl_engine.hpp"

namespace anydnn {
namespace ocl {

ocl_stream_t::ocl_stream_t(
        ocl_engine_t *engine, cl_command_queue queue, unsigned flags, bool ooo)
    : stream_t(engine, flags), queue_(queue), out_of_order_(ooo) {}

status_t ocl_stream_t::create(ocl_stream_t **stream, ocl_engine_t *engine,
        cl_command_queue queue, unsigned flags) {
    const cl_api_t &cl = *cl_api();
    if (queue) {
        cl_context ctx = nullptr;
        cl_int err = cl.clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(ctx), &ctx, nullptr);
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_invalid_arguments,
                "the queue is not an OpenCL command queue (%s)", cl_error_name(err));
        ANYDNN_REQUIRE(ctx == engine->context(), dnnl_invalid_arguments,
                "the queue belongs to another OpenCL context than the engine's");
        cl_device_id dev = nullptr;
        ANYDNN_CL_CHECK(cl.clGetCommandQueueInfo(
                queue, CL_QUEUE_DEVICE, sizeof(dev), &dev, nullptr));
        ANYDNN_REQUIRE(dev == engine->device(), dnnl_invalid_arguments,
                "the queue is on another device than the engine's");
        cl_command_queue_properties props = 0;
        ANYDNN_CL_CHECK(cl.clGetCommandQueueInfo(
                queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr));
        const bool ooo = props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
        // The stream's flags describe the queue it wraps.
        flags &= ~(dnnl_stream_in_order | dnnl_stream_out_of_order);
        flags |= ooo ? dnnl_stream_out_of_order : dnnl_stream_in_order;
#ifdef DNNL_EXPERIMENTAL_PROFILING
        if (props & CL_QUEUE_PROFILING_ENABLE) flags |= dnnl_stream_profiling;
#endif
        ANYDNN_CL_CHECK(cl.clRetainCommandQueue(queue));
        *stream = new ocl_stream_t(engine, queue, flags, ooo);
        return dnnl_success;
    }
    const bool ooo = flags & dnnl_stream_out_of_order;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, 0, 0};
    if (ooo) props[1] |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
#ifdef DNNL_EXPERIMENTAL_PROFILING
    if (flags & dnnl_stream_profiling) props[1] |= CL_QUEUE_PROFILING_ENABLE;
#endif
    cl_int err = CL_SUCCESS;
    cl_command_queue q = cl.clCreateCommandQueueWithProperties(
            engine->context(), engine->device(), props, &err);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "cannot create a command queue: %s",
            cl_error_name(err));
    *stream = new ocl_stream_t(engine, q, flags, ooo);
    return dnnl_success;
}

ocl_stream_t::~ocl_stream_t() {
    clear_deps();
    if (last_) cl_api()->clReleaseEvent(last_);
    cl_api()->clReleaseCommandQueue(queue_);
}

ocl_engine_t *ocl_stream_t::ocl_engine() const { return as_ocl(engine()); }

void ocl_stream_t::clear_deps() {
    for (cl_event e : deps_) cl_api()->clReleaseEvent(e);
    deps_.clear();
}

void ocl_stream_t::set_dep(cl_event ev) {
    clear_deps();
    deps_.push_back(ev);
    deps_from_queue_ = true;
}

ocl_stream_t::wait_list_t ocl_stream_t::wait_list() const {
    if (deps_.empty() || (deps_from_queue_ && !out_of_order_)) return {0, nullptr};
    return {static_cast<cl_uint>(deps_.size()), deps_.data()};
}

status_t ocl_stream_t::wait() {
    ANYDNN_CL_CHECK(cl_api()->clFinish(queue_));
    return dnnl_success;
}

status_t ocl_stream_t::run(const std::function<status_t()> &enqueue) {
    status_t st = enqueue();
    if (st != dnnl_success) {
        clear_deps();
        return st;
    }
    // A primitive that enqueued nothing (empty tensors) still hands on its dependencies:
    // a marker joins them into the one event this execution leaves.
    if (deps_.size() != 1) {
        cl_event marker = nullptr;
        cl_int err = cl_api()->clEnqueueMarkerWithWaitList(queue_,
                static_cast<cl_uint>(deps_.size()), deps_.empty() ? nullptr : deps_.data(),
                &marker);
        clear_deps();
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clEnqueueMarker failed: %s",
                cl_error_name(err));
        set_dep(marker);
    }
    if (last_) cl_api()->clReleaseEvent(last_);
    last_ = deps_[0];
    deps_.clear();
    return dnnl_success;
}

status_t ocl_stream_t::execute(const primitive_t &prim, const exec_ctx_t &ctx) {
    return execute_enqueue([&] { return prim.execute(ctx); }, false, nullptr, 0, nullptr);
}

status_t ocl_stream_t::execute_with_events(const primitive_t &prim, const exec_ctx_t &ctx,
        const cl_event *deps, int ndeps, cl_event *done) {
    return execute_enqueue([&] { return prim.execute(ctx); }, true, deps, ndeps, done);
}

status_t ocl_stream_t::execute_enqueue(const std::function<status_t()> &enqueue, bool with_deps,
        const cl_event *deps, int ndeps, cl_event *done) {
    auto turn = stream_turn(this); // deps_ and last_ are one execution's at a time
    clear_deps();
    deps_from_queue_ = false;
    // On an out-of-order queue, executions of one stream still follow each other.
    if (!with_deps && out_of_order_ && last_) {
        cl_api()->clRetainEvent(last_);
        deps_.push_back(last_);
    }
    for (int i = 0; i < ndeps; ++i) {
        ANYDNN_CL_CHECK(cl_api()->clRetainEvent(deps[i]));
        deps_.push_back(deps[i]);
    }
    ANYDNN_CHECK(run(enqueue));
    if (done) {
        cl_api()->clRetainEvent(last_);
        *done = last_;
    }
    return dnnl_success;
}

status_t ocl_stream_t::enqueue_kernel(
        cl_kernel kernel, cl_uint ndims, const size_t *global, const size_t *local) {
    cl_event ev = nullptr;
    const wait_list_t wait = wait_list();
    cl_int err = cl_api()->clEnqueueNDRangeKernel(queue_, kernel, ndims, nullptr, global, local,
            wait.count, wait.events, &ev);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clEnqueueNDRangeKernel failed: %s",
            cl_error_name(err));
    set_dep(ev);
    return dnnl_success;
}

status_t ocl_stream_t::enqueue_copy(
        cl_mem dst, size_t dst_off, cl_mem src, size_t src_off, size_t bytes) {
    cl_event ev = nullptr;
    const wait_list_t wait = wait_list();
    cl_int err = cl_api()->clEnqueueCopyBuffer(queue_, src, dst, src_off, dst_off, bytes,
            wait.count, wait.events, &ev);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clEnqueueCopyBuffer failed: %s",
            cl_error_name(err));
    set_dep(ev);
    return dnnl_success;
}

status_t ocl_stream_t::enqueue_fill_zero(cl_mem dst, size_t offset, size_t bytes) {
    cl_event ev = nullptr;
    const cl_uchar zero = 0;
    const wait_list_t wait = wait_list();
    cl_int err = cl_api()->clEnqueueFillBuffer(queue_, dst, &zero, 1, offset, bytes,
            wait.count, wait.events, &ev);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clEnqueueFillBuffer failed: %s",
            cl_error_name(err));
    set_dep(ev);
    return dnnl_success;
}

} // namespace ocl
} // namespace anydnn
