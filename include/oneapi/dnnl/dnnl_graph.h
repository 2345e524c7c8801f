/* anydnn: the C graph API (oneDNN v3.13 compatible): ops and logical tensors form a graph,
 * the graph is split into partitions, partitions are compiled and executed on a stream. */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_H
#define ONEAPI_DNNL_DNNL_GRAPH_H

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_graph_types.h"
#include "oneapi/dnnl/dnnl_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Allocators and engines ============================================================ */

/* Null call-backs select the library's default host allocator. */
dnnl_status_t DNNL_API dnnl_graph_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_host_allocate_f host_malloc, dnnl_graph_host_deallocate_f host_free);
dnnl_status_t DNNL_API dnnl_graph_allocator_destroy(dnnl_graph_allocator_t allocator);
/* An engine whose graph allocations (tensors, temporaries, scratchpads) go through alloc. */
dnnl_status_t DNNL_API dnnl_graph_make_engine_with_allocator(dnnl_engine_t *engine,
        dnnl_engine_kind_t kind, size_t index, const_dnnl_graph_allocator_t alloc);

/* ==== Logical tensors =================================================================== */

dnnl_status_t DNNL_API dnnl_graph_logical_tensor_init(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, dnnl_graph_layout_type_t ltype, dnnl_graph_tensor_property_t ptype);
/* A strided layout gets dense row-major strides when every extent is known. */
dnnl_status_t DNNL_API dnnl_graph_logical_tensor_init_with_dims(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, const dnnl_dims_t dims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype);
dnnl_status_t DNNL_API dnnl_graph_logical_tensor_init_with_strides(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, const dnnl_dims_t dims, const dnnl_dims_t strides,
        dnnl_graph_tensor_property_t ptype);
dnnl_status_t DNNL_API dnnl_graph_logical_tensor_get_mem_size(
        const dnnl_graph_logical_tensor_t *logical_tensor, size_t *size);
dnnl_status_t DNNL_API dnnl_graph_logical_tensor_is_equal(
        const dnnl_graph_logical_tensor_t *lt1, const dnnl_graph_logical_tensor_t *lt2,
        uint8_t *is_equal);

/* ==== Tensors =========================================================================== */

/* handle: the user's buffer, DNNL_MEMORY_ALLOCATE (the engine's allocator) or NULL. */
dnnl_status_t DNNL_API dnnl_graph_tensor_create(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, dnnl_engine_t engine, void *handle);
/* A host scalar tensor: the value at handle is copied in. */
dnnl_status_t DNNL_API dnnl_graph_tensor_create_scalar(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, void *handle);
dnnl_status_t DNNL_API dnnl_graph_tensor_destroy(dnnl_graph_tensor_t tensor);
dnnl_status_t DNNL_API dnnl_graph_tensor_get_data_handle(
        const_dnnl_graph_tensor_t tensor, void **handle);
dnnl_status_t DNNL_API dnnl_graph_tensor_set_data_handle(
        dnnl_graph_tensor_t tensor, void *handle);
dnnl_status_t DNNL_API dnnl_graph_tensor_get_engine(
        const_dnnl_graph_tensor_t tensor, dnnl_engine_t *engine);
dnnl_status_t DNNL_API dnnl_graph_tensor_get_logical_tensor(
        const_dnnl_graph_tensor_t tensor, dnnl_graph_logical_tensor_t *logical_tensor);

/* ==== Ops =============================================================================== */

dnnl_status_t DNNL_API dnnl_graph_op_create(dnnl_graph_op_t *op, size_t id,
        dnnl_graph_op_kind_t kind, const char *verbose_name);
dnnl_status_t DNNL_API dnnl_graph_op_destroy(dnnl_graph_op_t op);
dnnl_status_t DNNL_API dnnl_graph_op_add_input(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *input);
dnnl_status_t DNNL_API dnnl_graph_op_add_output(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *output);
/* value_len values (for a string: characters); a later call replaces the value. */
dnnl_status_t DNNL_API dnnl_graph_op_set_attr_f32(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const float *value, size_t value_len);
dnnl_status_t DNNL_API dnnl_graph_op_set_attr_bool(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const uint8_t *value, size_t value_len);
dnnl_status_t DNNL_API dnnl_graph_op_set_attr_s64(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const int64_t *value, size_t value_len);
dnnl_status_t DNNL_API dnnl_graph_op_set_attr_str(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const char *value, size_t value_len);
dnnl_status_t DNNL_API dnnl_graph_op_get_id(const_dnnl_graph_op_t op, size_t *id);
dnnl_status_t DNNL_API dnnl_graph_op_get_kind(
        const_dnnl_graph_op_t op, dnnl_graph_op_kind_t *kind);

/* ==== Partitions ======================================================================== */

dnnl_status_t DNNL_API dnnl_graph_partition_create_with_op(
        dnnl_graph_partition_t *partition, const_dnnl_graph_op_t op, dnnl_engine_kind_t ekind);
dnnl_status_t DNNL_API dnnl_graph_partition_destroy(dnnl_graph_partition_t partition);
dnnl_status_t DNNL_API dnnl_graph_partition_get_op_num(
        const_dnnl_graph_partition_t partition, size_t *num);
dnnl_status_t DNNL_API dnnl_graph_partition_get_ops(
        dnnl_graph_partition_t partition, size_t num, size_t *ids);
dnnl_status_t DNNL_API dnnl_graph_partition_get_id(
        const_dnnl_graph_partition_t partition, size_t *id);
/* Shapes and layouts of the partition's ports for this compilation; `any` outputs are
 * resolved and can be read back with dnnl_graph_compiled_partition_query_logical_tensor. */
dnnl_status_t DNNL_API dnnl_graph_partition_compile(dnnl_graph_partition_t partition,
        dnnl_graph_compiled_partition_t compiled_partition, size_t in_num,
        const dnnl_graph_logical_tensor_t **inputs, size_t out_num,
        const dnnl_graph_logical_tensor_t **outputs, dnnl_engine_t engine);
dnnl_status_t DNNL_API dnnl_graph_partition_get_input_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num);
dnnl_status_t DNNL_API dnnl_graph_partition_get_input_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *inputs);
dnnl_status_t DNNL_API dnnl_graph_partition_get_output_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num);
dnnl_status_t DNNL_API dnnl_graph_partition_get_output_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *outputs);
dnnl_status_t DNNL_API dnnl_graph_partition_is_supported(
        const_dnnl_graph_partition_t partition, uint8_t *is_supported);
dnnl_status_t DNNL_API dnnl_graph_partition_get_engine_kind(
        const_dnnl_graph_partition_t partition, dnnl_engine_kind_t *kind);

/* ==== Compiled partitions =============================================================== */

dnnl_status_t DNNL_API dnnl_graph_compiled_partition_create(
        dnnl_graph_compiled_partition_t *compiled_partition, dnnl_graph_partition_t partition);
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs);
/* As above with a user scratchpad (see get_scratchpad_logical_tensor); NULL: allocate. */
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad);
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_destroy(
        dnnl_graph_compiled_partition_t compiled_partition);
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_query_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t tid,
        dnnl_graph_logical_tensor_t *lt);
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_get_inplace_ports(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t *num_inplace_pairs,
        const dnnl_graph_inplace_pair_t **inplace_pairs);
dnnl_status_t DNNL_API dnnl_graph_compiled_partition_get_scratchpad_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_graph_logical_tensor_t *lt);

/* ==== Graphs ============================================================================ */

dnnl_status_t DNNL_API dnnl_graph_graph_create(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind);
dnnl_status_t DNNL_API dnnl_graph_graph_create_with_fpmath_mode(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind, dnnl_fpmath_mode_t mode);
dnnl_status_t DNNL_API dnnl_graph_graph_destroy(dnnl_graph_graph_t graph);
dnnl_status_t DNNL_API dnnl_graph_graph_set_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t mode, int apply_to_int);
dnnl_status_t DNNL_API dnnl_graph_graph_get_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t *mode, int *apply_to_int);
/* The op is copied in and checked against its schema. */
dnnl_status_t DNNL_API dnnl_graph_add_op(dnnl_graph_graph_t graph, dnnl_graph_op_t op);
dnnl_status_t DNNL_API dnnl_graph_graph_finalize(dnnl_graph_graph_t graph);
dnnl_status_t DNNL_API dnnl_graph_graph_is_finalized(
        dnnl_graph_graph_t graph, uint8_t *finalized);
dnnl_status_t DNNL_API dnnl_graph_graph_filter(
        dnnl_graph_graph_t graph, dnnl_graph_partition_policy_t policy);
dnnl_status_t DNNL_API dnnl_graph_graph_get_partition_num(
        const_dnnl_graph_graph_t graph, size_t *num);
/* Fills num new partition handles that the caller destroys. */
dnnl_status_t DNNL_API dnnl_graph_graph_get_partitions(
        dnnl_graph_graph_t graph, size_t num, dnnl_graph_partition_t *partitions);

/* ==== Caches and dumps ================================================================== */

dnnl_status_t DNNL_API dnnl_graph_get_compiled_partition_cache_capacity(int *capacity);
dnnl_status_t DNNL_API dnnl_graph_set_compiled_partition_cache_capacity(int capacity);
dnnl_status_t DNNL_API dnnl_graph_set_constant_tensor_cache(int flag);
dnnl_status_t DNNL_API dnnl_graph_get_constant_tensor_cache(int *flag);
dnnl_status_t DNNL_API dnnl_graph_set_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t size);
dnnl_status_t DNNL_API dnnl_graph_get_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t *size);
/* Writes graphs / partitions as JSON files when they are partitioned / compiled. */
dnnl_status_t DNNL_API dnnl_graph_set_dump_mode(dnnl_graph_dump_mode_t modes);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_H */
