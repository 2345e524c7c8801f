/* anydnn: the C primitive API (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_H
#define ONEAPI_DNNL_DNNL_H

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_types.h"
#include "oneapi/dnnl/dnnl_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Primitive descriptors and primitives ============================================== */

/* Move to the next implementation; dnnl_last_impl_reached when there is none. */
DNNL_API dnnl_status_t dnnl_primitive_desc_next_impl(dnnl_primitive_desc_t primitive_desc);
DNNL_API dnnl_status_t dnnl_primitive_desc_clone(dnnl_primitive_desc_t *primitive_desc,
    const_dnnl_primitive_desc_t existing_primitive_desc);
DNNL_API dnnl_status_t dnnl_primitive_desc_get_attr(const_dnnl_primitive_desc_t primitive_desc,
    const_dnnl_primitive_attr_t *attr);
DNNL_API dnnl_status_t dnnl_primitive_desc_destroy(dnnl_primitive_desc_t primitive_desc);

/* Queries (dnnl_query_t); the _md and _s32 forms return NULL / 0 on failure. */
DNNL_API dnnl_status_t dnnl_primitive_desc_query(const_dnnl_primitive_desc_t primitive_desc,
    dnnl_query_t what, int index, void *result);
DNNL_API const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
    const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index);
DNNL_API int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
    dnnl_query_t what, int index);

DNNL_API dnnl_status_t dnnl_primitive_create(dnnl_primitive_t *primitive,
    const_dnnl_primitive_desc_t primitive_desc);
DNNL_API dnnl_status_t dnnl_primitive_create_from_cache_blob(dnnl_primitive_t *primitive,
    const_dnnl_primitive_desc_t primitive_desc, size_t size, const uint8_t *cache_blob);
DNNL_API dnnl_status_t dnnl_primitive_execute(const_dnnl_primitive_t primitive,
    dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args);
DNNL_API dnnl_status_t dnnl_primitive_get_primitive_desc(const_dnnl_primitive_t primitive,
    const_dnnl_primitive_desc_t *primitive_desc);
DNNL_API dnnl_status_t dnnl_primitive_get_cache_blob(const_dnnl_primitive_t primitive, size_t *size,
    uint8_t *cache_blob);
DNNL_API dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive);

/* ==== Primitive attributes ============================================================== */

DNNL_API dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr);
DNNL_API dnnl_status_t dnnl_primitive_attr_clone(dnnl_primitive_attr_t *attr,
    const_dnnl_primitive_attr_t existing_attr);
DNNL_API dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr);

/* Dropout. */
DNNL_API dnnl_status_t dnnl_primitive_attr_get_dropout(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_dropout(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_dropout_v2(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc, dnnl_data_type_t *seed_dt, int *use_offset,
    int *use_host_scalars);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_dropout_v2(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc, dnnl_data_type_t seed_dt, int use_offset,
    int use_host_scalars);

/* Math and accumulation precision, determinism, scratchpad ownership. */
DNNL_API dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_fpmath_mode_v2(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode, int *apply_to_int);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode, int apply_to_int);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_deterministic(const_dnnl_primitive_attr_t attr,
    int *value);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_deterministic(dnnl_primitive_attr_t attr, int value);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_accumulation_mode(const_dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t *mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_accumulation_mode(dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(const_dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t *mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t mode);

/* Quantization: scales, zero points and precomputed reductions per argument. */
DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_mask(dnnl_primitive_attr_t attr, int arg,
    int mask);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr, int arg, int mask,
    int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr, int arg,
    int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_v3(dnnl_primitive_attr_t attr, int arg,
    int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host,
    dnnl_quantization_mode_t qmode);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(dnnl_primitive_attr_t attr, int arg,
    int mask);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr, int arg,
    int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_precomputed_reductions(dnnl_primitive_attr_t attr,
    int arg, int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr, int arg,
    int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host);

/* Rounding of the destination. */
DNNL_API dnnl_status_t dnnl_primitive_attr_set_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t mode);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t *mode);

/* Post-op chain attached to the attributes (the attributes keep a copy). */
DNNL_API dnnl_status_t dnnl_primitive_attr_get_post_ops(const_dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t *post_ops);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_post_ops(dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t post_ops);

/* ==== Post-ops ========================================================================== */

DNNL_API dnnl_status_t dnnl_post_ops_create(dnnl_post_ops_t *post_ops);
DNNL_API dnnl_status_t dnnl_post_ops_clone(dnnl_post_ops_t *post_ops,
    const_dnnl_post_ops_t existing_post_ops);
DNNL_API dnnl_status_t dnnl_post_ops_destroy(dnnl_post_ops_t post_ops);
DNNL_API int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops);
DNNL_API dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops, int index);
DNNL_API dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
    int32_t zero_point, dnnl_data_type_t data_type);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
    float *scale, int32_t *zero_point, dnnl_data_type_t *data_type);
DNNL_API dnnl_status_t dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops,
    dnnl_alg_kind_t alg_kind, float alpha, float beta);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, float *alpha, float *beta);
DNNL_API dnnl_status_t dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops,
    dnnl_data_type_t weights_data_type, dnnl_data_type_t bias_data_type,
    dnnl_data_type_t dst_data_type, dnnl_dim_t kernel_size, dnnl_dim_t stride_size,
    dnnl_dim_t padding_l_size);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_dw(const_dnnl_post_ops_t post_ops, int index,
    dnnl_data_type_t *weights_data_type, dnnl_data_type_t *bias_data_type,
    dnnl_data_type_t *dst_data_type, dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
    dnnl_dim_t *padding_l_size);
DNNL_API dnnl_status_t dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src1_desc);
DNNL_API dnnl_status_t dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src1_desc,
    const_dnnl_memory_desc_t src2_desc);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_binary(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_binary_v2(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc,
    const_dnnl_memory_desc_t *src2_desc);
DNNL_API dnnl_status_t dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask);
DNNL_API dnnl_status_t dnnl_post_ops_get_params_prelu(const_dnnl_post_ops_t post_ops, int index,
    int *mask);

/* ==== Memory descriptors ================================================================ */

DNNL_API dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc);
DNNL_API dnnl_status_t dnnl_memory_desc_clone(dnnl_memory_desc_t *memory_desc,
    const_dnnl_memory_desc_t existing_memory_desc);
DNNL_API dnnl_status_t dnnl_memory_desc_get_blob(uint8_t *blob, size_t *size,
    const_dnnl_memory_desc_t memory_desc);
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_blob(dnnl_memory_desc_t *memory_desc,
    const uint8_t *blob);
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_strides(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, const dnnl_dims_t strides);
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_tag(dnnl_memory_desc_t *memory_desc, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag);

/* Sparse and scalar descriptors. */
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_csr_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz,
    dnnl_data_type_t indices_dt, dnnl_data_type_t pointers_dt);
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_coo_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz,
    dnnl_data_type_t indices_dt);
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_packed_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz);
#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_grouped_encoding(
    dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type,
    int variable_dim_idx, dnnl_dim_t group_count, dnnl_data_type_t offsets_dt);
#endif
DNNL_API dnnl_status_t dnnl_memory_desc_create_host_scalar(dnnl_memory_desc_t *memory_desc,
    dnnl_data_type_t data_type);

/* Derived descriptors. */
DNNL_API dnnl_status_t dnnl_memory_desc_create_submemory(dnnl_memory_desc_t *memory_desc,
    const_dnnl_memory_desc_t parent_memory_desc, const dnnl_dims_t dims, const dnnl_dims_t offsets);
DNNL_API dnnl_status_t dnnl_memory_desc_reshape(dnnl_memory_desc_t *out_memory_desc,
    const_dnnl_memory_desc_t in_memory_desc, int ndims, const dnnl_dims_t dims);
DNNL_API dnnl_status_t dnnl_memory_desc_permute_axes(dnnl_memory_desc_t *out_memory_desc,
    const_dnnl_memory_desc_t in_memory_desc, const int *permutation);

/* Inspection (the _v2 forms take the buffer index of multi-buffer formats). */
DNNL_API dnnl_status_t dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc,
    dnnl_query_t what, void *result);
DNNL_API dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
    dnnl_query_t what, int index, void *result);
DNNL_API int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs, const_dnnl_memory_desc_t rhs);
DNNL_API size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc);
DNNL_API size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc, int index);
DNNL_API size_t dnnl_data_type_size(dnnl_data_type_t data_type);

/* ==== Memory objects ==================================================================== */

/* handle: a user pointer, DNNL_MEMORY_NONE or DNNL_MEMORY_ALLOCATE. */
DNNL_API dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
    const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, void *handle);
DNNL_API dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
    const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, int nhandles, void **handles);
DNNL_API dnnl_status_t dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
    const_dnnl_memory_desc_t memory_desc, void *scalar_ptr);
DNNL_API dnnl_status_t dnnl_memory_get_memory_desc(const_dnnl_memory_t memory,
    const_dnnl_memory_desc_t *memory_desc);
DNNL_API dnnl_status_t dnnl_memory_get_engine(const_dnnl_memory_t memory, dnnl_engine_t *engine);
DNNL_API dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr);
DNNL_API dnnl_status_t dnnl_memory_map_data_v2(const_dnnl_memory_t memory, void **mapped_ptr,
    int index);
DNNL_API dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr);
DNNL_API dnnl_status_t dnnl_memory_unmap_data_v2(const_dnnl_memory_t memory, void *mapped_ptr,
    int index);
DNNL_API dnnl_status_t dnnl_memory_get_data_handle(const_dnnl_memory_t memory, void **handle);
DNNL_API dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle);
DNNL_API dnnl_status_t dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory, void **handle,
    int index);
DNNL_API dnnl_status_t dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle,
    int index);
DNNL_API dnnl_status_t dnnl_memory_get_host_scalar_value(const_dnnl_memory_t memory, void *value);
DNNL_API dnnl_status_t dnnl_memory_set_host_scalar_value(dnnl_memory_t memory, const void *value);
DNNL_API dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory);

/* ==== Operations: each creates a primitive descriptor (attr may be NULL) ================ */

/* Data movement: reorder, concat, sum. */
DNNL_API dnnl_status_t dnnl_reorder_primitive_desc_create(
    dnnl_primitive_desc_t *reorder_primitive_desc, const_dnnl_memory_desc_t src_desc,
    dnnl_engine_t src_engine, const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_concat_primitive_desc_create(
    dnnl_primitive_desc_t *concat_primitive_desc, dnnl_engine_t engine,
    const_dnnl_memory_desc_t dst_desc, int n, int concat_dimension,
    const_dnnl_memory_desc_t const *src_descs, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_sum_primitive_desc_create(dnnl_primitive_desc_t *sum_primitive_desc,
    dnnl_engine_t engine, const_dnnl_memory_desc_t dst_desc, int n, const float *scales,
    const_dnnl_memory_desc_t const *src_descs, const_dnnl_primitive_attr_t attr);

/* Binary (the _v2 form takes the third input of select). */
DNNL_API dnnl_status_t dnnl_binary_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src0_desc,
    const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t dst_desc,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_binary_primitive_desc_create_v2(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src0_desc,
    const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc,
    const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr);

/* Convolution and deconvolution. */
DNNL_API dnnl_status_t dnnl_convolution_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_convolution_backward_data_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_convolution_backward_weights_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
    const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const dnnl_dims_t strides, const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
    const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_deconvolution_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_deconvolution_backward_data_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_deconvolution_backward_weights_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
    const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const dnnl_dims_t strides, const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
    const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Shuffle. */
DNNL_API dnnl_status_t dnnl_shuffle_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, int axis,
    dnnl_dim_t group_size, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_shuffle_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc, int axis,
    dnnl_dim_t group_size, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Element-wise. */
DNNL_API dnnl_status_t dnnl_eltwise_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
    float alpha, float beta, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_eltwise_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t data_desc, float alpha, float beta,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);

/* Softmax. */
DNNL_API dnnl_status_t dnnl_softmax_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
    int softmax_axis, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_softmax_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t dst_desc, int softmax_axis, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Pooling. */
DNNL_API dnnl_status_t dnnl_pooling_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
    const dnnl_dims_t strides, const dnnl_dims_t kernel, const dnnl_dims_t dilation,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_pooling_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const dnnl_dims_t strides, const dnnl_dims_t kernel, const dnnl_dims_t dilation,
    const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);

/* PReLU. */
DNNL_API dnnl_status_t dnnl_prelu_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_prelu_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t diff_src_desc,
    const_dnnl_memory_desc_t diff_weights_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);

/* Local response normalization. */
DNNL_API dnnl_status_t dnnl_lrn_forward_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, dnnl_dim_t local_size,
    float alpha, float beta, float k, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lrn_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t src_desc, dnnl_dim_t local_size, float alpha, float beta, float k,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);

/* Batch, group and layer normalization (flags: dnnl_normalization_flags_t). */
DNNL_API dnnl_status_t dnnl_batch_normalization_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, float epsilon,
    unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_batch_normalization_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t src_desc, float epsilon, unsigned flags,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_group_normalization_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, dnnl_dim_t groups,
    float epsilon, unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_group_normalization_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t src_desc, dnnl_dim_t groups, float epsilon, unsigned flags,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
    const_dnnl_memory_desc_t stat_desc, float epsilon, unsigned flags,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t stat_desc, float epsilon,
    unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create_v2(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
    const_dnnl_memory_desc_t stat_desc, dnnl_data_type_t scale_shift_data_type, float epsilon,
    unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create_v2(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t stat_desc,
    dnnl_data_type_t diff_scale_shift_data_type, dnnl_data_type_t scale_shift_data_type,
    float epsilon, unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Inner product. */
DNNL_API dnnl_status_t dnnl_inner_product_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_inner_product_backward_data_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
    const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_inner_product_backward_weights_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t diff_weights_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Quantization of int8 RNN data and weights (attributes). */
DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_data_qparams(dnnl_primitive_attr_t attr,
    const float scale, const float shift);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_data_qparams(const_dnnl_primitive_attr_t attr,
    float *scale, float *shift);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_weights_qparams(dnnl_primitive_attr_t attr,
    dnnl_dim_t count, int mask, const float *scales);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_weights_qparams(const_dnnl_primitive_attr_t attr,
    dnnl_dim_t *count, int *mask, const float **scales);
DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_weights_projection_qparams(
    dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask, const float *scales);
DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_weights_projection_qparams(
    const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask, const float **scales);

/* Recurrent cells (flags: dnnl_rnn_flags_t). */
DNNL_API dnnl_status_t dnnl_vanilla_rnn_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const dnnl_alg_kind_t activation, const dnnl_rnn_direction_t direction,
    const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, unsigned flags, float alpha, float beta,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_vanilla_rnn_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    const dnnl_alg_kind_t activation, const dnnl_rnn_direction_t direction,
    const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
    const_dnnl_memory_desc_t diff_src_iter_desc, const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    unsigned flags, float alpha, float beta, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lstm_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t src_iter_c_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t weights_peephole_desc,
    const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
    const_dnnl_memory_desc_t dst_iter_c_desc, unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lstm_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t src_iter_c_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t weights_peephole_desc,
    const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
    const_dnnl_memory_desc_t dst_iter_c_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
    const_dnnl_memory_desc_t diff_src_iter_desc, const_dnnl_memory_desc_t diff_src_iter_c_desc,
    const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc,
    const_dnnl_memory_desc_t diff_weights_peephole_desc,
    const_dnnl_memory_desc_t diff_weights_projection_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    const_dnnl_memory_desc_t diff_dst_iter_c_desc, unsigned flags,
    const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_gru_forward_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
    const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_gru_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t weights_layer_desc,
    const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
    const_dnnl_memory_desc_t diff_src_layer_desc, const_dnnl_memory_desc_t diff_src_iter_desc,
    const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lbr_gru_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t weights_layer_desc,
    const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc, unsigned flags,
    const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lbr_gru_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t weights_layer_desc,
    const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
    const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
    const_dnnl_memory_desc_t diff_src_layer_desc, const_dnnl_memory_desc_t diff_src_iter_desc,
    const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_augru_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t attention_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_augru_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t attention_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
    const_dnnl_memory_desc_t diff_src_iter_desc, const_dnnl_memory_desc_t diff_attention_desc,
    const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lbr_augru_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t attention_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, unsigned flags, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_lbr_augru_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
    const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t attention_desc,
    const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
    const_dnnl_memory_desc_t dst_iter_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
    const_dnnl_memory_desc_t diff_src_iter_desc, const_dnnl_memory_desc_t diff_attention_desc,
    const_dnnl_memory_desc_t diff_weights_layer_desc,
    const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
    const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
    unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);

/* Matrix multiplication. */
DNNL_API dnnl_status_t dnnl_matmul_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
    const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
    const_dnnl_primitive_attr_t attr);

/* Resampling. */
DNNL_API dnnl_status_t dnnl_resampling_forward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const float *factors, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr);
DNNL_API dnnl_status_t dnnl_resampling_backward_primitive_desc_create(
    dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const float *factors, const_dnnl_memory_desc_t diff_src_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr);

/* Reduction. */
DNNL_API dnnl_status_t dnnl_reduction_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
    dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t dst_desc, float p, float eps, const_dnnl_primitive_attr_t attr);

/* ==== Library services ================================================================== */

/* Primitive cache capacity, in primitives. */
DNNL_API dnnl_status_t dnnl_get_primitive_cache_capacity(int *capacity);
DNNL_API dnnl_status_t dnnl_set_primitive_cache_capacity(int capacity);

/* JIT code dumping and profiler integration (flags: DNNL_JIT_PROFILE_*). */
DNNL_API dnnl_status_t dnnl_set_jit_dump(int enable);
DNNL_API dnnl_status_t dnnl_set_jit_profiling_flags(unsigned flags);
DNNL_API dnnl_status_t dnnl_set_jit_profiling_jitdumpdir(const char *dir);

/* CPU ISA limit and hints (set before the first primitive is created). */
DNNL_API dnnl_status_t dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa);
DNNL_API dnnl_cpu_isa_t dnnl_get_effective_cpu_isa(void);
DNNL_API dnnl_status_t dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints);
DNNL_API dnnl_cpu_isa_hints_t dnnl_get_cpu_isa_hints(void);

#ifdef DNNL_EXPERIMENTAL_PROFILING
/* Per-stream kernel timings. */
DNNL_API dnnl_status_t dnnl_reset_profiling(dnnl_stream_t stream);
DNNL_API dnnl_status_t dnnl_query_profiling_data(dnnl_stream_t stream,
    dnnl_profiling_data_kind_t data_kind, int *num_entries, uint64_t *data);
#endif

/* ==== GEMM ============================================================================== */

/* Row-major C = alpha * op(A) * op(B) + beta * C; the integer forms add offsets. */
DNNL_API dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
    dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B, dnnl_dim_t ldb,
    float beta, float *C, dnnl_dim_t ldc);
DNNL_API dnnl_status_t dnnl_gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
    dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A, dnnl_dim_t lda, uint8_t ao,
    const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C, dnnl_dim_t ldc,
    const int32_t *co);
DNNL_API dnnl_status_t dnnl_gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
    dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A, dnnl_dim_t lda, int8_t ao,
    const int8_t *B, dnnl_dim_t ldb, int8_t bo, float beta, int32_t *C, dnnl_dim_t ldc,
    const int32_t *co);

#ifdef __cplusplus
}
#endif

#endif
