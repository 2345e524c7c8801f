// dnnl_ocl_interop_* entry points: anydnn objects over the application's OpenCL objects.
#include <cstring>

#include "api/api.hpp"
#include "api/interop_memory.hpp"
#include "core/memory_desc.hpp"
#include "core/primitive.hpp"
#include "oneapi/dnnl/dnnl_ocl.h"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/ocl/ocl_stream.hpp"
#include "runtime/ocl/program_cache.hpp"

using namespace anydnn;
using namespace anydnn::ocl;

namespace {

#define ANYDNN_REQUIRE_OCL_ENGINE(e) \
    ANYDNN_REQUIRE_LIVE(engine, e); \
    ANYDNN_REQUIRE(as_ocl(e), dnnl_invalid_arguments, "%s is not an OpenCL engine", #e)

ocl_storage_t *ocl_storage(const_dnnl_memory_t memory) {
    auto *e = as_ocl(memory->engine());
    return e ? static_cast<ocl_storage_t *>(memory->storage(0)) : nullptr;
}

status_t create_memory(dnnl_memory_t *memory, const memory_desc_t *md, engine_t *engine,
        int kind, int nhandles, void **handles) {
    ANYDNN_REQUIRE_NOT_NULL(memory);
    ANYDNN_REQUIRE_NOT_NULL(md);
    ANYDNN_REQUIRE_OCL_ENGINE(engine);
    ANYDNN_REQUIRE(kind == dnnl_ocl_interop_usm || kind == dnnl_ocl_interop_buffer,
            dnnl_invalid_arguments, "unknown OpenCL memory kind %d", kind);
    ocl_engine_t *e = as_ocl(engine);
    return create_interop_memory(memory, md, engine, nhandles, handles,
            [&](std::unique_ptr<memory_storage_t> &storage, size_t bytes, void *handle) {
                return kind == dnnl_ocl_interop_usm
                        ? e->create_usm_storage(storage, bytes, handle)
                        : e->create_memory_storage(storage, bytes, handle);
            });
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_ocl_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, void *handle) {
    return guarded(__func__, [&] {
        return create_memory(memory, memory_desc, engine, raw_value(memory_kind), 1, &handle);
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, int nhandles, void **handles) {
    return guarded(__func__, [&] {
        return create_memory(
                memory, memory_desc, engine, raw_value(memory_kind), nhandles, handles);
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_memory_get_memory_kind(
        const_dnnl_memory_t memory, dnnl_ocl_interop_memory_kind_t *memory_kind) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(memory_kind);
    ocl_storage_t *s = ocl_storage(memory);
    ANYDNN_REQUIRE(s, dnnl_invalid_arguments, "memory is not on an OpenCL engine");
    *memory_kind = s->kind();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ocl_interop_memory_get_mem_object(
        const_dnnl_memory_t memory, cl_mem *mem_object) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(mem_object);
    ocl_storage_t *s = ocl_storage(memory);
    ANYDNN_REQUIRE(s, dnnl_invalid_arguments, "memory is not on an OpenCL engine");
    *mem_object = s->kind() == dnnl_ocl_interop_buffer
            ? static_cast<buffer_storage_t *>(s)->mem()
            : nullptr;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ocl_interop_memory_set_mem_object(
        dnnl_memory_t memory, cl_mem mem_object) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ocl_storage_t *s = ocl_storage(memory);
    ANYDNN_REQUIRE(s, dnnl_invalid_arguments, "memory is not on an OpenCL engine");
    ANYDNN_REQUIRE(s->kind() == dnnl_ocl_interop_buffer, dnnl_invalid_arguments,
            "memory holds USM, not an OpenCL buffer");
    return guarded(__func__, [&] { return s->set_data_handle(mem_object); });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob_id(
        cl_device_id device, size_t *size, uint8_t *cache_blob_id) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE(cl_api(), dnnl_runtime_error, "no OpenCL ICD loader");
        ANYDNN_REQUIRE_NOT_NULL(device);
        ANYDNN_REQUIRE_NOT_NULL(size);
        std::string id = ocl::cache_blob_id(device);
        ANYDNN_REQUIRE(!id.empty(), dnnl_invalid_arguments, "device is not an OpenCL device");
        if (!cache_blob_id) {
            *size = id.size();
            return dnnl_success;
        }
        ANYDNN_REQUIRE(*size == id.size(), dnnl_invalid_arguments,
                "cache blob id size %zu, expected %zu", *size, id.size());
        std::memcpy(cache_blob_id, id.data(), id.size());
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob) {
    ANYDNN_REQUIRE_OCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(size);
    return guarded(__func__, [&] {
        std::string blob;
        ANYDNN_CHECK(export_programs(as_ocl(engine), blob));
        if (!cache_blob) {
            *size = blob.size();
            return dnnl_success;
        }
        ANYDNN_REQUIRE(*size == blob.size(), dnnl_invalid_arguments,
                "cache blob size %zu, expected %zu (programs built since the size query?)",
                *size, blob.size());
        std::memcpy(cache_blob, blob.data(), blob.size());
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_engine_create(
        dnnl_engine_t *engine, cl_device_id device, cl_context context) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE(cl_api(), dnnl_runtime_error, "no OpenCL ICD loader");
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_REQUIRE_NOT_NULL(device);
        ANYDNN_REQUIRE_NOT_NULL(context);
        ocl_engine_t *e = nullptr;
        ANYDNN_CHECK(ocl_engine_t::create(&e, device, context, 0));
        registry_add(object_kind::engine, e);
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_engine_create_from_cache_blob(dnnl_engine_t *engine,
        cl_device_id device, cl_context context, size_t size, const uint8_t *cache_blob) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE(cache_blob && size > 0, dnnl_invalid_arguments, "empty cache blob");
        dnnl_engine_t e = nullptr;
        ANYDNN_CHECK(dnnl_ocl_interop_engine_create(&e, device, context));
        status_t st = import_programs(as_ocl(e), cache_blob, size);
        if (st != dnnl_success) {
            dnnl_engine_destroy(e);
            return st;
        }
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_engine_get_context(
        dnnl_engine_t engine, cl_context *context) {
    ANYDNN_REQUIRE_OCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(context);
    *context = as_ocl(engine)->context();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ocl_interop_get_device(dnnl_engine_t engine, cl_device_id *device) {
    ANYDNN_REQUIRE_OCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(device);
    *device = as_ocl(engine)->device();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ocl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, cl_command_queue queue) {
    ANYDNN_REQUIRE_NOT_NULL(stream);
    ANYDNN_REQUIRE_OCL_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(queue);
    return guarded(__func__, [&] {
        ocl_stream_t *s = nullptr;
        ANYDNN_CHECK(ocl_stream_t::create(&s, as_ocl(engine), queue, 0));
        registry_add(object_kind::stream, s);
        *stream = s;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ocl_interop_stream_get_command_queue(
        dnnl_stream_t stream, cl_command_queue *queue) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE_NOT_NULL(queue);
    ANYDNN_REQUIRE(as_ocl(stream->engine()), dnnl_invalid_arguments,
            "stream is not on an OpenCL engine");
    *queue = static_cast<ocl_stream_t *>(stream)->queue();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ocl_interop_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args, const cl_event *deps,
        int ndeps, cl_event *return_event) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(as_ocl(stream->engine()), dnnl_invalid_arguments,
            "stream is not on an OpenCL engine");
    ANYDNN_REQUIRE(stream->engine() == primitive->engine.get()
                    || primitive->impl->pd().kind() == dnnl_reorder,
            dnnl_invalid_arguments, "stream and primitive belong to different engines");
    ANYDNN_REQUIRE(ndeps >= 0 && (ndeps == 0 || deps), dnnl_invalid_arguments,
            "bad dependency list (ndeps %d)", ndeps);
    for (int i = 0; i < ndeps; ++i) ANYDNN_REQUIRE_NOT_NULL(deps[i]);
    auto *s = static_cast<ocl_stream_t *>(stream);
    return guarded(__func__, [&] {
        return primitive_execute(primitive, stream, nargs, args,
                [&](const primitive_t &p, const exec_ctx_t &ctx) {
                    return s->execute_with_events(p, ctx, deps, ndeps, return_event);
                });
    });
}

} // extern "C"
