/* anydnn: SYCL interoperability C API (oneDNN v3.13 compatible).
 *
 * Engines, streams, memory and executions made from the application's own SYCL objects,
 * passed as pointers to them (sycl::device, sycl::context, sycl::queue,
 * sycl::buffer<uint8_t, 1>, std::vector<sycl::event>, sycl::event). The library runs its
 * OpenCL C kernels on the OpenCL objects behind them (SYCL's OpenCL backend), from host tasks
 * on the application's queue; docs/sycl.md says what works where. Present in builds that
 * found Intel's SYCL runtime (DNNL_WITH_SYCL in dnnl_config.h). */
#ifndef ONEAPI_DNNL_DNNL_SYCL_H
#define ONEAPI_DNNL_DNNL_SYCL_H

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_sycl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An engine on `device` (a sycl::device *) in `context` (a sycl::context *), both kept. */
dnnl_status_t DNNL_API dnnl_sycl_interop_engine_create(
        dnnl_engine_t *engine, const void *device, const void *context);

/** The engine's sycl::context (a pointer to the engine's copy, valid while it lives). */
dnnl_status_t DNNL_API dnnl_sycl_interop_engine_get_context(dnnl_engine_t engine, void **context);

/** The engine's sycl::device (a pointer to the engine's copy, valid while it lives). */
dnnl_status_t DNNL_API dnnl_sycl_interop_engine_get_device(dnnl_engine_t engine, void **device);

/** Memory of kind `memory_kind`; `handle` is DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE, a USM
 *  pointer of the engine's context (usm kind, not owned) or a sycl::buffer<uint8_t, 1> *
 *  (buffer kind, copied: the buffer object is shared with the caller's). */
dnnl_status_t DNNL_API dnnl_sycl_interop_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_sycl_interop_memory_kind_t memory_kind, void *handle);

/** The same for descriptors with several handles (sparse layouts). */
dnnl_status_t DNNL_API dnnl_sycl_interop_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine,
        dnnl_sycl_interop_memory_kind_t memory_kind, int nhandles, void **handles);

/** Whether a memory object holds a USM pointer or a SYCL buffer. */
dnnl_status_t DNNL_API dnnl_sycl_interop_memory_get_memory_kind(
        const_dnnl_memory_t memory, dnnl_sycl_interop_memory_kind_t *memory_kind);

/** Replaces the buffer of buffer memory with `buffer` (a sycl::buffer<uint8_t, 1> *). */
dnnl_status_t DNNL_API dnnl_sycl_interop_memory_set_buffer(dnnl_memory_t memory, void *buffer);

/** A stream over `queue` (a sycl::queue *, copied), in-order or out-of-order as it is. */
dnnl_status_t DNNL_API dnnl_sycl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, void *queue);

/** The stream's sycl::queue (a pointer to the stream's copy, valid while it lives). */
dnnl_status_t DNNL_API dnnl_sycl_interop_stream_get_queue(dnnl_stream_t stream, void **queue);

/** Executes after the events of `deps` (a const std::vector<sycl::event> *, may be null);
 *  `return_event` (a sycl::event *, may be null) receives an event that completes when the
 *  execution has. */
dnnl_status_t DNNL_API dnnl_sycl_interop_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args, const void *deps,
        void *return_event);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_SYCL_H */
