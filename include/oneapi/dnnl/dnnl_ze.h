/* anydnn: Level Zero interoperability C API (oneDNN v3.13 compatible).
 *
 * Engines, streams, memory and executions made from the application's own Level Zero objects.
 * Level Zero has no reference counting: the driver, device, context and command list handles
 * given to anydnn stay the application's, and must outlive every anydnn object made from them.
 * Handles returned by the getters are the ones passed in.
 *
 * Status in this build: engines (with their getters and cache blob ids), USM memory and
 * streams work; kernels, so every primitive, and cache blobs answer dnnl_unimplemented
 * (docs/level_zero.md). */
#ifndef ONEAPI_DNNL_DNNL_ZE_H
#define ONEAPI_DNNL_DNNL_ZE_H

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ze_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The id of the cache blobs an engine on `device` of `driver` produces: query the size with
 *  a null `cache_blob_id`, then pass a buffer of that size. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_get_cache_blob_id(
        ze_driver_handle_t driver, ze_device_handle_t device, size_t *size,
        uint8_t *cache_blob_id);

/** The engine's compiled kernels as a blob: size query with a null `cache_blob` first. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob);

/** An engine like dnnl_ze_interop_engine_create, preloaded with a cache blob. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_create_from_cache_blob(
        dnnl_engine_t *engine, ze_driver_handle_t driver,
        ze_device_handle_t device, ze_context_handle_t context, size_t size,
        const uint8_t *cache_blob);

/** A GPU engine on `device` of `driver` within `context` (none of them owned). */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_create(dnnl_engine_t *engine,
        ze_driver_handle_t driver, ze_device_handle_t device,
        ze_context_handle_t context);

/** The context the engine was made with. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_get_context(
        dnnl_engine_t engine, ze_context_handle_t *context);

/** The device the engine was made with. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_get_device(
        dnnl_engine_t engine, ze_device_handle_t *device);

/** The driver the engine was made with. */
dnnl_status_t DNNL_API dnnl_ze_interop_engine_get_driver(
        dnnl_engine_t engine, ze_driver_handle_t *driver);

/** A stream appending to `list`, an in-order immediate command list of the engine's context
 *  (not owned); `profiling` nonzero records kernel timestamps. */
dnnl_status_t DNNL_API dnnl_ze_interop_stream_create(dnnl_stream_t *stream,
        dnnl_engine_t engine, ze_command_list_handle_t list, int profiling);

/** The command list the stream appends to. */
dnnl_status_t DNNL_API dnnl_ze_interop_stream_get_list(
        dnnl_stream_t stream, ze_command_list_handle_t *list);

/** Memory over USM: each of the `nhandles` handles is DNNL_MEMORY_ALLOCATE (allocated and
 *  owned by anydnn), DNNL_MEMORY_NONE or a USM pointer of the engine's context (not owned). */
dnnl_status_t DNNL_API dnnl_ze_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        int nhandles, void **handles);

/** Executes `primitive` after the `ndeps` events `deps` (note the order: count first, unlike
 *  OpenCL); `return_event`, when not null, receives an event signalled at completion, owned
 *  by the engine. */
dnnl_status_t DNNL_API dnnl_ze_interop_primitive_execute(
        const_dnnl_primitive_t primitive, dnnl_stream_t stream, int nargs,
        const dnnl_exec_arg_t *args, int ndeps, const ze_event_handle_t *deps,
        ze_event_handle_t *return_event);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_ZE_H */
