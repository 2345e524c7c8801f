// dnnl_sycl_interop_* entry points: anydnn objects over the application's SYCL device,
// context, queue, USM pointers and buffers; executions as host tasks on its queue.
#include "api/api.hpp"
#include "api/interop_memory.hpp"
#include "core/memory_desc.hpp"
#include "core/primitive.hpp"
#include "oneapi/dnnl/dnnl_sycl.h"
#include "runtime/sycl/sycl_engine.hpp"
#include "runtime/sycl/sycl_memory.hpp"
#include "runtime/sycl/sycl_stream.hpp"

using namespace anydnn;
using namespace anydnn::sycl_rt;

namespace {

#define ANYDNN_REQUIRE_SYCL_ENGINE(e) \
    ANYDNN_REQUIRE_LIVE(engine, e); \
    ANYDNN_REQUIRE(as_sycl(e), dnnl_invalid_arguments, "%s is not a SYCL engine", #e)

#define ANYDNN_REQUIRE_SYCL_STREAM(s) \
    ANYDNN_REQUIRE_LIVE(stream, s); \
    ANYDNN_REQUIRE(as_sycl(s->engine()), dnnl_invalid_arguments, "%s is not a SYCL stream", #s)

status_t create_memory(dnnl_memory_t *memory, const memory_desc_t *md, engine_t *engine,
        int kind, int nhandles, void **handles) {
    ANYDNN_REQUIRE_NOT_NULL(memory);
    ANYDNN_REQUIRE_NOT_NULL(md);
    ANYDNN_REQUIRE_SYCL_ENGINE(engine);
    ANYDNN_REQUIRE(kind == dnnl_sycl_interop_usm || kind == dnnl_sycl_interop_buffer,
            dnnl_invalid_arguments, "unknown SYCL memory kind %d", kind);
    sycl_engine_t *e = as_sycl(engine);
    return create_interop_memory(memory, md, engine, nhandles, handles,
            [&](std::unique_ptr<memory_storage_t> &storage, size_t bytes, void *handle) {
                return kind == dnnl_sycl_interop_usm
                        ? e->create_memory_storage(storage, bytes, handle)
                        : e->create_buffer_storage(storage, bytes, handle);
            });
}

sycl_buffer_storage_t *buffer_storage(const_dnnl_memory_t memory) {
    return dynamic_cast<sycl_buffer_storage_t *>(memory->storage(0));
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_sycl_interop_engine_create(
        dnnl_engine_t *engine, const void *device, const void *context) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_REQUIRE_NOT_NULL(device);
        ANYDNN_REQUIRE_NOT_NULL(context);
        ANYDNN_REQUIRE(ocl::cl_api(), dnnl_runtime_error,
                "no OpenCL ICD loader: SYCL engines run through SYCL's OpenCL backend");
        sycl_engine_t *e = nullptr;
        ANYDNN_CHECK(sycl_engine_t::create(&e, *static_cast<const ::sycl::device *>(device),
                *static_cast<const ::sycl::context *>(context)));
        registry_add(object_kind::engine, e);
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_sycl_interop_engine_get_context(dnnl_engine_t engine, void **context) {
    ANYDNN_REQUIRE_SYCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(context);
    *context = const_cast<::sycl::context *>(&as_sycl(engine)->sycl_context());
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_sycl_interop_engine_get_device(dnnl_engine_t engine, void **device) {
    ANYDNN_REQUIRE_SYCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(device);
    *device = const_cast<::sycl::device *>(&as_sycl(engine)->sycl_device());
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_sycl_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_sycl_interop_memory_kind_t memory_kind, void *handle) {
    return guarded(__func__, [&] {
        return create_memory(memory, memory_desc, engine, raw_value(memory_kind), 1, &handle);
    });
}

DNNL_API dnnl_status_t dnnl_sycl_interop_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_sycl_interop_memory_kind_t memory_kind, int nhandles, void **handles) {
    return guarded(__func__, [&] {
        return create_memory(
                memory, memory_desc, engine, raw_value(memory_kind), nhandles, handles);
    });
}

DNNL_API dnnl_status_t dnnl_sycl_interop_memory_get_memory_kind(
        const_dnnl_memory_t memory, dnnl_sycl_interop_memory_kind_t *memory_kind) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(memory_kind);
    ANYDNN_REQUIRE(as_sycl(memory->engine()), dnnl_invalid_arguments,
            "memory is not on a SYCL engine");
    *memory_kind = buffer_storage(memory) ? dnnl_sycl_interop_buffer : dnnl_sycl_interop_usm;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_sycl_interop_memory_set_buffer(dnnl_memory_t memory, void *buffer) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE(as_sycl(memory->engine()), dnnl_invalid_arguments,
            "memory is not on a SYCL engine");
    sycl_buffer_storage_t *s = buffer_storage(memory);
    ANYDNN_REQUIRE(s, dnnl_invalid_arguments, "memory holds USM, not a SYCL buffer");
    return guarded(__func__, [&] { return s->set_data_handle(buffer); });
}

DNNL_API dnnl_status_t dnnl_sycl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, void *queue) {
    ANYDNN_REQUIRE_NOT_NULL(stream);
    ANYDNN_REQUIRE_SYCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(queue);
    return guarded(__func__, [&] {
        sycl_stream_t *s = nullptr;
        ANYDNN_CHECK(sycl_stream_t::create(
                &s, as_sycl(engine), *static_cast<const ::sycl::queue *>(queue), 0));
        registry_add(object_kind::stream, s);
        *stream = s;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_sycl_interop_stream_get_queue(dnnl_stream_t stream, void **queue) {
    ANYDNN_REQUIRE_SYCL_STREAM(stream);
    ANYDNN_REQUIRE_NOT_NULL(queue);
    *queue = &static_cast<sycl_stream_t *>(stream)->sycl_queue();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_sycl_interop_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args, const void *deps,
        void *return_event) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_SYCL_STREAM(stream);
    ANYDNN_REQUIRE(stream->engine() == primitive->engine.get()
                    || primitive->impl->pd().kind() == dnnl_reorder,
            dnnl_invalid_arguments, "stream and primitive belong to different engines");
    auto *s = static_cast<sycl_stream_t *>(stream);
    static const std::vector<::sycl::event> no_deps;
    const auto &dep_list
            = deps ? *static_cast<const std::vector<::sycl::event> *>(deps) : no_deps;
    auto *done = static_cast<::sycl::event *>(return_event);
    return guarded(__func__, [&] {
        return primitive_execute(primitive, stream, nargs, args,
                [&](const primitive_t &p, const exec_ctx_t &ctx) {
                    return s->execute_with_sycl_events(p, ctx, dep_list, done);
                });
    });
}

} // extern "C"
