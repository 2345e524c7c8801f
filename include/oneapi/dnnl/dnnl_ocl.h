/* anydnn: OpenCL interoperability C API (oneDNN v3.13 compatible).
 *
 * Engines, streams, memory and executions made from the application's own OpenCL objects.
 * Unlike oneDNN, any conformant OpenCL device is accepted, not only Intel GPUs; USM memory
 * uses Intel USM where the device has it and SVM otherwise.
 * OpenCL objects passed in are retained while the anydnn object uses them; objects returned
 * by the getters are not retained for the caller. */
#ifndef ONEAPI_DNNL_DNNL_OCL_H
#define ONEAPI_DNNL_DNNL_OCL_H

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ocl_types.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Memory of kind `memory_kind`; `handle` is DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE, a USM
 *  pointer (usm kind, not owned) or a cl_mem (buffer kind, retained). */
dnnl_status_t DNNL_API dnnl_ocl_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, void *handle);

/** The same for descriptors with several handles (sparse layouts). */
dnnl_status_t DNNL_API dnnl_ocl_interop_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_ocl_interop_memory_kind_t memory_kind, int nhandles, void **handles);

/** Whether a memory object holds a USM pointer or a buffer. */
dnnl_status_t DNNL_API dnnl_ocl_interop_memory_get_memory_kind(
        const_dnnl_memory_t memory, dnnl_ocl_interop_memory_kind_t *memory_kind);

/** The cl_mem of buffer memory (null for USM memory); not retained. */
dnnl_status_t DNNL_API dnnl_ocl_interop_memory_get_mem_object(
        const_dnnl_memory_t memory, cl_mem *mem_object);

/** Replaces the cl_mem of buffer memory (retained; the old one is released). */
dnnl_status_t DNNL_API dnnl_ocl_interop_memory_set_mem_object(
        dnnl_memory_t memory, cl_mem mem_object);

/** Identifies the device for engine cache blobs; size query when cache_blob_id is null. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_cache_blob_id(
        cl_device_id device, size_t *size, uint8_t *cache_blob_id);

/** The engine's cache blob (its built programs); size query when cache_blob is null. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob);

/** An engine whose programs come from a cache blob made on the same device and driver. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_create_from_cache_blob(dnnl_engine_t *engine,
        cl_device_id device, cl_context context, size_t size, const uint8_t *cache_blob);

/** An engine on `device` in `context` (both retained). */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_create(
        dnnl_engine_t *engine, cl_device_id device, cl_context context);

/** The engine's context; not retained. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_context(
        dnnl_engine_t engine, cl_context *context);

/** The engine's device; not retained. */
dnnl_status_t DNNL_API dnnl_ocl_interop_get_device(dnnl_engine_t engine, cl_device_id *device);

/** A stream over `queue` (retained), in-order or out-of-order as the queue is. */
dnnl_status_t DNNL_API dnnl_ocl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, cl_command_queue queue);

/** The stream's queue; not retained. */
dnnl_status_t DNNL_API dnnl_ocl_interop_stream_get_command_queue(
        dnnl_stream_t stream, cl_command_queue *queue);

/** Executes after the `ndeps` events in `deps`; `return_event` (may be null) receives an
 *  event for the execution, which the caller releases. */
dnnl_status_t DNNL_API dnnl_ocl_interop_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args, const cl_event *deps,
        int ndeps, cl_event *return_event);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_OCL_H */
