// The OpenCL side of the compute interface's context references, USM and events (core/compute/compute.hpp):
// events are cl_events, streams ocl_stream_t (SYCL streams too: they are OpenCL streams).
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/ocl/ocl_stream.hpp"

namespace anydnn {
namespace ocl {

namespace {
cl_event as_cl(void *event) { return static_cast<cl_event>(event); }
} // namespace

std::shared_ptr<const void> ocl_engine_t::own_context_reference() {
    if (!owns_context_ || cl_api()->clRetainContext(context_) != CL_SUCCESS) return nullptr;
    return std::shared_ptr<const void>(context_, [](const void *c) {
        cl_api()->clReleaseContext(static_cast<cl_context>(const_cast<void *>(c)));
    });
}

status_t ocl_engine_t::allocate_usm(size_t size, void **ptr) {
    ANYDNN_REQUIRE(info().usm != usm_kind_t::none, dnnl_unimplemented,
            "device %s has neither Intel USM nor SVM", info().name.c_str());
    return usm_allocate(this, size, ptr);
}

void ocl_engine_t::free_usm(void *ptr) { usm_free(this, ptr); }

status_t ocl_engine_t::enqueue(stream_t *stream, const std::function<status_t()> &commands,
        bool with_deps, void *const *deps, int ndeps, void **done) {
    // cl_event is a pointer to an incomplete struct: an array of them is an array of void *.
    static_assert(sizeof(cl_event) == sizeof(void *), "cl_event is a pointer");
    auto *s = static_cast<ocl_stream_t *>(stream);
    return s->execute_enqueue(commands, with_deps, reinterpret_cast<const cl_event *>(deps),
            ndeps, reinterpret_cast<cl_event *>(done));
}

status_t ocl_engine_t::join_events(stream_t *stream, void *const *deps, int ndeps, void **done) {
    // A marker: on an in-order queue after everything before it, on an out-of-order one after
    // what it waits for (everything enqueued before it when it waits for nothing).
    auto *s = static_cast<ocl_stream_t *>(stream);
    cl_event ev = nullptr;
    ANYDNN_CL_CHECK(cl_api()->clEnqueueMarkerWithWaitList(s->queue(), static_cast<cl_uint>(ndeps),
            ndeps > 0 ? reinterpret_cast<const cl_event *>(deps) : nullptr, &ev));
    *done = ev;
    return dnnl_success;
}

status_t ocl_engine_t::wait_event(void *event) {
    cl_event ev = as_cl(event);
    ANYDNN_CL_CHECK(cl_api()->clWaitForEvents(1, &ev));
    return dnnl_success;
}

void ocl_engine_t::release_event(void *event) {
    if (event) cl_api()->clReleaseEvent(as_cl(event));
}

} // namespace ocl
} // namespace anydnn
