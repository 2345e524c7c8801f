// dnnl_graph_ocl.h: graph allocators of OpenCL call-backs, OpenCL engines with them, and
// compiled partitions executed with cl_event dependencies.
#include "api/api.hpp"
#include "graph/allocator.hpp"
#include "core/stream.hpp"
#include "graph/compiled_partition.hpp"
#include "graph/tensor.hpp"
#include "graph/object.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"
#include "oneapi/dnnl/dnnl_ocl.h"
#include "runtime/ocl/ocl_engine.hpp"

using namespace anydnn;
using namespace anydnn::graph;

namespace {

status_t check_ocl_allocator(const_dnnl_graph_allocator_t alloc) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(allocator, alloc);
    ANYDNN_REQUIRE(alloc->ocl_malloc && alloc->ocl_free, dnnl_invalid_arguments,
            "the allocator has no OpenCL call-backs (dnnl_graph_ocl_interop_allocator_create)");
    return dnnl_success;
}

// Attaches the allocator to a new OpenCL engine and hands the engine out.
status_t attach_allocator(dnnl_engine_t e, const_dnnl_graph_allocator_t alloc, dnnl_engine_t *out) {
    set_engine_allocator(*e, *alloc); // a copy: the user may destroy the allocator at once
    *out = e;
    return dnnl_success;
}

status_t ocl_execute(const_dnnl_graph_compiled_partition_t cp, dnnl_stream_t stream,
        size_t num_inputs, const const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const cl_event *deps, int ndeps, cl_event *return_event) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(ocl::as_ocl(stream->engine()), dnnl_invalid_arguments,
            "the stream is not on an OpenCL engine");
    ANYDNN_REQUIRE(num_outputs > 0, dnnl_invalid_arguments, "no output tensors");
    ANYDNN_REQUIRE(ndeps >= 0 && (ndeps == 0 || deps), dnnl_invalid_arguments,
            "bad dependency list (ndeps %d)", ndeps);
    for (int i = 0; i < ndeps; ++i)
        ANYDNN_REQUIRE(deps[i], dnnl_invalid_arguments, "dependency %d is null", i);
    // cl_event is a pointer: the compute interface passes the events on as void pointers.
    interop_events_t events;
    events.deps = reinterpret_cast<void *const *>(deps);
    events.ndeps = ndeps;
    events.done = reinterpret_cast<void **>(return_event);
    return checked_execute(
            cp, stream, num_inputs, inputs, num_outputs, outputs, scratchpad, &events);
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_ocl_interop_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_ocl_allocate_f ocl_malloc, dnnl_graph_ocl_deallocate_f ocl_free) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(allocator);
        ANYDNN_REQUIRE_NOT_NULL(ocl_malloc);
        ANYDNN_REQUIRE_NOT_NULL(ocl_free);
        auto *a = new dnnl_graph_allocator(nullptr, nullptr);
        a->ocl_malloc = ocl_malloc;
        a->ocl_free = ocl_free;
        *allocator = a;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_ocl_interop_make_engine_with_allocator(dnnl_engine_t *engine,
        cl_device_id device, cl_context context, const_dnnl_graph_allocator_t alloc) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_CHECK(check_ocl_allocator(alloc));
        dnnl_engine_t e = nullptr;
        ANYDNN_CHECK(dnnl_ocl_interop_engine_create(&e, device, context));
        return attach_allocator(e, alloc, engine);
    });
}

DNNL_API dnnl_status_t dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc, size_t size, const uint8_t *cache_blob) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_CHECK(check_ocl_allocator(alloc));
        dnnl_engine_t e = nullptr;
        ANYDNN_CHECK(dnnl_ocl_interop_engine_create_from_cache_blob(
                &e, device, context, size, cache_blob));
        return attach_allocator(e, alloc, engine);
    });
}

DNNL_API dnnl_status_t dnnl_graph_ocl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const cl_event *deps, int ndeps,
        cl_event *return_event) {
    return guarded(__func__, [&] {
        return ocl_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, nullptr, deps, ndeps, return_event);
    });
}

DNNL_API dnnl_status_t dnnl_graph_ocl_interop_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const cl_event *deps, int ndeps, cl_event *return_event) {
    return guarded(__func__, [&] {
        return ocl_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, scratchpad, deps, ndeps, return_event);
    });
}

} // extern "C"
