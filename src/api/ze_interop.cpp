// dnnl_ze_interop_* entry points: engines over the application's driver, device and context,
// with their getters, cache blob ids and cache blobs (the engine's module binaries), USM memory,
// streams over immediate command lists, primitive execution after Level Zero events. Calls
// that take an engine, stream or primitive refuse the CPU and OpenCL ones untouched.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive.hpp"
#include "oneapi/dnnl/dnnl_ze.h"
#include "runtime/ze/ze_api.hpp"
#include "runtime/ze/ze_engine.hpp"
#include "runtime/ze/ze_module.hpp"
#include "runtime/ze/ze_stream.hpp"

using namespace anydnn;
using namespace anydnn::ze;

namespace {

bool is_ze_engine(engine_t *e) { return as_ze(e) != nullptr; }

#define ANYDNN_REQUIRE_ZE_ENGINE(e) \
    ANYDNN_REQUIRE_LIVE(engine, e); \
    ANYDNN_REQUIRE(is_ze_engine(e), dnnl_invalid_arguments, "%s is not a Level Zero engine", #e)

// The loader, a driver, and `device` one of `driver`'s devices, in that order; the user's
// handles reach the loader only once `driver` is known to be one of its drivers.
status_t check_driver_and_device(
        const char *where, ze_driver_handle_t driver, ze_device_handle_t device) {
    if (!driver || !device)
        return fail(dnnl_invalid_arguments, where, "%s is null", driver ? "device" : "driver");
    if (!ze_api())
        return fail(dnnl_runtime_error, where, "no Level Zero loader (libze_loader.so.1)");
    if (ze_drivers().empty()) return fail(dnnl_runtime_error, where, "no Level Zero driver");
    if (!driver_has_device(driver, device))
        return fail(dnnl_invalid_arguments, where,
                "device is not a device of driver (or driver is not a Level Zero driver)");
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_ze_interop_engine_get_cache_blob_id(ze_driver_handle_t driver,
        ze_device_handle_t device, size_t *size, uint8_t *cache_blob_id) {
    ANYDNN_REQUIRE_NOT_NULL(size);
    const char *where = __func__; // not the lambda's
    return guarded(where, [&] {
        ANYDNN_CHECK(check_driver_and_device(where, driver, device));
        const std::string id = ze::cache_blob_id(driver, device);
        if (id.empty())
            return fail(dnnl_runtime_error, where, "driver or device properties unreadable");
        if (!cache_blob_id) {
            *size = id.size();
            return dnnl_success;
        }
        if (*size != id.size())
            return fail(dnnl_invalid_arguments, where, "cache blob id size %zu, expected %zu",
                    *size, id.size());
        std::memcpy(cache_blob_id, id.data(), id.size());
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob) {
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(size);
    const char *where = __func__; // not the lambda's
    return guarded(where, [&] {
        std::string blob;
        ANYDNN_CHECK(export_modules(as_ze(engine), blob));
        if (!cache_blob) {
            *size = blob.size();
            return dnnl_success;
        }
        if (*size != blob.size())
            return fail(dnnl_invalid_arguments, where,
                    "cache blob size %zu, expected %zu (modules built since the size query?)",
                    *size, blob.size());
        std::memcpy(cache_blob, blob.data(), blob.size());
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_create(dnnl_engine_t *engine,
        ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context) {
    ANYDNN_REQUIRE_NOT_NULL(engine);
    ANYDNN_REQUIRE_NOT_NULL(context);
    const char *where = __func__; // not the lambda's
    return guarded(where, [&] {
        ANYDNN_CHECK(check_driver_and_device(where, driver, device));
        ze_engine_t *e = nullptr;
        ANYDNN_CHECK(ze_engine_t::create(&e, driver, device, context));
        registry_add(object_kind::engine, e);
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_create_from_cache_blob(dnnl_engine_t *engine,
        ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context,
        size_t size, const uint8_t *cache_blob) {
    ANYDNN_REQUIRE_NOT_NULL(engine);
    ANYDNN_REQUIRE(cache_blob && size > 0, dnnl_invalid_arguments, "empty cache blob");
    dnnl_engine_t e = nullptr;
    ANYDNN_CHECK(dnnl_ze_interop_engine_create(&e, driver, device, context));
    const status_t st = guarded(__func__, [&] { return import_modules(as_ze(e), cache_blob, size); });
    if (st != dnnl_success) {
        dnnl_engine_destroy(e);
        return st;
    }
    *engine = e;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_get_context(
        dnnl_engine_t engine, ze_context_handle_t *context) {
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(context);
    *context = as_ze(engine)->context();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_get_device(
        dnnl_engine_t engine, ze_device_handle_t *device) {
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(device);
    *device = as_ze(engine)->device();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ze_interop_engine_get_driver(
        dnnl_engine_t engine, ze_driver_handle_t *driver) {
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(driver);
    *driver = as_ze(engine)->driver();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ze_interop_stream_create(dnnl_stream_t *stream,
        dnnl_engine_t engine, ze_command_list_handle_t list, int profiling) {
    ANYDNN_REQUIRE_NOT_NULL(stream);
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    ANYDNN_REQUIRE_NOT_NULL(list);
    return guarded(__func__, [&] {
        // The profiling flag (dnnl_stream_profiling, 0x4) is only named in builds with
        // DNNL_EXPERIMENTAL_PROFILING; the stream records it either way.
        constexpr unsigned profiling_flag = 0x4U;
        const unsigned flags = dnnl_stream_in_order | (profiling ? profiling_flag : 0u);
        ze_stream_t *s = nullptr;
        ANYDNN_CHECK(ze_stream_t::create(&s, as_ze(engine), list, flags));
        registry_add(object_kind::stream, s);
        *stream = s;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ze_interop_stream_get_list(
        dnnl_stream_t stream, ze_command_list_handle_t *list) {
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE_NOT_NULL(list);
    ANYDNN_REQUIRE(is_ze_engine(stream->engine()), dnnl_invalid_arguments,
            "stream is not on a Level Zero engine");
    *list = static_cast<ze_stream_t *>(stream)->list();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ze_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, int nhandles,
        void **handles) {
    ANYDNN_REQUIRE_NOT_NULL(memory);
    ANYDNN_REQUIRE_NOT_NULL(memory_desc);
    ANYDNN_REQUIRE_ZE_ENGINE(engine);
    // Level Zero memory is USM only: the engine's own memory creation is exactly that.
    return dnnl_memory_create_v2(memory, memory_desc, engine, nhandles, handles);
}

DNNL_API dnnl_status_t dnnl_ze_interop_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args, int ndeps,
        const ze_event_handle_t *deps, ze_event_handle_t *return_event) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(is_ze_engine(stream->engine()), dnnl_invalid_arguments,
            "stream is not on a Level Zero engine");
    ANYDNN_REQUIRE(stream->engine() == primitive->engine.get()
                    || primitive->impl->pd().kind() == dnnl_reorder,
            dnnl_invalid_arguments, "stream and primitive belong to different engines");
    ANYDNN_REQUIRE(ndeps >= 0 && (ndeps == 0 || deps), dnnl_invalid_arguments,
            "bad dependency list (ndeps %d)", ndeps);
    for (int i = 0; i < ndeps; ++i) ANYDNN_REQUIRE_NOT_NULL(deps[i]);
    auto *s = static_cast<ze_stream_t *>(stream);
    return guarded(__func__, [&] {
        return primitive_execute(primitive, stream, nargs, args,
                [&](const primitive_t &p, const exec_ctx_t &ctx) {
                    return s->execute_with_events(p, ctx, ndeps, deps, return_event);
                });
    });
}

} // extern "C"
