// dnnl_graph_sycl.h: graph allocators of SYCL call-backs, SYCL engines with them, and
// compiled partitions executed on a SYCL stream: one host task runs the partition's steps
// through the OpenCL path, after the caller's sycl::events.
#include "api/api.hpp"
#include "core/stream.hpp"
#include "graph/allocator.hpp"
#include "graph/compiled_partition.hpp"
#include "graph/object.hpp"
#include "graph/tensor.hpp"
#include "oneapi/dnnl/dnnl_graph_sycl.h"
#include "oneapi/dnnl/dnnl_sycl.h"
#include "runtime/sycl/sycl_engine.hpp"
#include "runtime/sycl/sycl_stream.hpp"

using namespace anydnn;
using namespace anydnn::graph;
using namespace anydnn::sycl_rt;

namespace {

// The allocator kept for `engine`: the user's call-backs bound to the engine's SYCL device
// and context, each free told the OpenCL event after which the buffer is unused, as a
// sycl::event.
void bind_allocator(
        dnnl_graph_allocator &bound, const dnnl_graph_allocator &alloc, sycl_engine_t *engine) {
    const ::sycl::device *dev = &engine->sycl_device();
    const ::sycl::context *ctx = &engine->sycl_context();
    auto user_malloc = alloc.sycl_malloc;
    auto user_free = alloc.sycl_free;
    bound.sycl_malloc = user_malloc;
    bound.sycl_free = user_free;
    bound.device_malloc = [=](size_t size, size_t alignment) {
        return user_malloc(size, alignment, dev, ctx);
    };
    bound.device_free = [=](void *buf, void *after_event) {
        ::sycl::event ev;
        if (after_event) {
            auto after = static_cast<cl_event>(after_event); // the OpenCL runtime's event
            try {
                ev = ::sycl::make_event<::sycl::backend::opencl>(
                        std::vector<cl_event> {after}, *ctx);
            } catch (const ::sycl::exception &) {
                ocl::cl_api()->clWaitForEvents(1, &after); // then a completed event will do
            }
        }
        user_free(buf, dev, ctx, &ev);
    };
}

status_t sycl_execute(const_dnnl_graph_compiled_partition_t cp, dnnl_stream_t stream,
        size_t num_inputs, const const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const void *deps, void *sycl_event) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(as_sycl(stream->engine()), dnnl_invalid_arguments,
            "the stream is not on a SYCL engine");
    ANYDNN_REQUIRE(num_outputs > 0, dnnl_invalid_arguments, "no output tensors");
    auto *s = static_cast<sycl_stream_t *>(stream);
    static const std::vector<::sycl::event> no_deps;
    const auto &dep_list
            = deps ? *static_cast<const std::vector<::sycl::event> *>(deps) : no_deps;
    // Inside the task the OpenCL path chains the steps by events and frees temporaries
    // after the last one.
    interop_events_t events;
    return s->run_in_task({},
            [&] {
                return checked_execute(cp, stream, num_inputs, inputs, num_outputs, outputs,
                        scratchpad, &events);
            },
            dep_list, static_cast<::sycl::event *>(sycl_event));
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_sycl_interop_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_sycl_allocate_f sycl_malloc, dnnl_graph_sycl_deallocate_f sycl_free) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(allocator);
        ANYDNN_REQUIRE_NOT_NULL(sycl_malloc);
        ANYDNN_REQUIRE_NOT_NULL(sycl_free);
        auto *a = new dnnl_graph_allocator(nullptr, nullptr);
        a->sycl_malloc = sycl_malloc;
        a->sycl_free = sycl_free;
        *allocator = a;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_sycl_interop_make_engine_with_allocator(dnnl_engine_t *engine,
        const void *device, const void *context, const_dnnl_graph_allocator_t alloc) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_REQUIRE_GRAPH_HANDLE(allocator, alloc);
        ANYDNN_REQUIRE(alloc->sycl_malloc && alloc->sycl_free, dnnl_invalid_arguments,
                "the allocator has no SYCL call-backs (dnnl_graph_sycl_interop_allocator_create)");
        dnnl_engine_t e = nullptr;
        ANYDNN_CHECK(dnnl_sycl_interop_engine_create(&e, device, context));
        // A copy: the user may destroy the allocator at once.
        dnnl_graph_allocator bound(alloc->host_malloc, alloc->host_free);
        bind_allocator(bound, *alloc, as_sycl(e));
        set_engine_allocator(*e, bound);
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_sycl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const void *deps, void *sycl_event) {
    return guarded(__func__, [&] {
        return sycl_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, nullptr, deps, sycl_event);
    });
}

DNNL_API dnnl_status_t dnnl_graph_sycl_interop_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const void *deps, void *sycl_event) {
    return guarded(__func__, [&] {
        return sycl_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, scratchpad, deps, sycl_event);
    });
}

} // extern "C"
