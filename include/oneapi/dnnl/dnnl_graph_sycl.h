/* anydnn: graph API SYCL interoperability (oneDNN v3.13 compatible).
 *
 * Graph engines whose device buffers come from the application's SYCL allocator, and
 * compiled partitions executed on a SYCL stream with sycl::event dependencies. Device and
 * context arguments are pointers to sycl::device and sycl::context; events to sycl::event. */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_SYCL_H
#define ONEAPI_DNNL_DNNL_GRAPH_SYCL_H

#include "oneapi/dnnl/dnnl_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Allocates `size` bytes of USM usable by `dev` (a const sycl::device *) in `ctx` (a const
 *  sycl::context *), aligned to at least `alignment` bytes; returns null when it cannot. */
typedef void *(*dnnl_graph_sycl_allocate_f)(
        size_t size, size_t alignment, const void *dev, const void *ctx);

/** Frees `buf` once `event` (a sycl::event *, valid during the call) has completed. */
typedef void (*dnnl_graph_sycl_deallocate_f)(
        void *buf, const void *dev, const void *ctx, void *event);

/** An allocator made of the application's SYCL call-backs (both required). */
dnnl_status_t DNNL_API dnnl_graph_sycl_interop_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_sycl_allocate_f sycl_malloc, dnnl_graph_sycl_deallocate_f sycl_free);

/** A SYCL engine on `device` and `context` whose graph allocations use `alloc`. */
dnnl_status_t DNNL_API dnnl_graph_sycl_interop_make_engine_with_allocator(dnnl_engine_t *engine,
        const void *device, const void *context, const_dnnl_graph_allocator_t alloc);

/** Executes a compiled partition on a SYCL stream after `deps` (a const
 *  std::vector<sycl::event> *, may be null); `sycl_event` (a sycl::event *, may be null)
 *  receives an event for the whole execution. */
dnnl_status_t DNNL_API dnnl_graph_sycl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const void *deps, void *sycl_event);

/** The same with the application's scratchpad tensor. */
dnnl_status_t DNNL_API dnnl_graph_sycl_interop_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const void *deps, void *sycl_event);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_SYCL_H */
