/* anydnn: graph API OpenCL interoperability (oneDNN v3.13 compatible).
 *
 * Graph engines whose device buffers come from the application's OpenCL allocator, and
 * compiled partitions executed on an OpenCL stream with cl_event dependencies. Tensors on
 * such engines are USM pointers: Intel USM where the device has it, SVM elsewhere (NVIDIA,
 * PoCL). */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_OCL_H
#define ONEAPI_DNNL_DNNL_GRAPH_OCL_H

#include "oneapi/dnnl/dnnl_graph.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Allocates `size` bytes of USM (or SVM) memory usable by `device` in `context`, aligned to
 *  at least `alignment` bytes; returns null when it cannot. */
typedef void *(*dnnl_graph_ocl_allocate_f)(
        size_t size, size_t alignment, cl_device_id device, cl_context context);

/** Frees `buf`, returned by the matching allocate call-back, once `event` has completed
 *  (`event` may be null: nothing pending). The event is valid during the call only: retain
 *  it to keep it. */
typedef void (*dnnl_graph_ocl_deallocate_f)(
        void *buf, cl_device_id device, cl_context context, cl_event event);

/** An allocator made of the application's OpenCL call-backs (both required). */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_ocl_allocate_f ocl_malloc, dnnl_graph_ocl_deallocate_f ocl_free);

/** An OpenCL engine on `device` and `context` whose graph allocations use `alloc`. */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_make_engine_with_allocator(dnnl_engine_t *engine,
        cl_device_id device, cl_context context, const_dnnl_graph_allocator_t alloc);

/** The same, starting with the programs of a cache blob
 *  (dnnl_ocl_interop_engine_get_cache_blob). */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc, size_t size, const uint8_t *cache_blob);

/** Executes a compiled partition on an OpenCL stream after the `ndeps` events of `deps`;
 *  `return_event` (may be null) receives an event for the whole execution, which the caller
 *  releases. */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const cl_event *deps, int ndeps,
        cl_event *return_event);

/** The same with the application's scratchpad tensor
 *  (dnnl_graph_compiled_partition_get_scratchpad_logical_tensor). */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const cl_event *deps, int ndeps, cl_event *return_event);

#ifdef __cplusplus
}
#endif

#endif
