/* anydnn: types of the graph API (oneDNN v3.13 compatible). Enum values are ABI. */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_TYPES_H
#define ONEAPI_DNNL_DNNL_GRAPH_TYPES_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl_common_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A logical tensor whose rank or one of whose extents is not known yet. */
#define DNNL_GRAPH_UNKNOWN_NDIMS -1
#define DNNL_GRAPH_UNKNOWN_DIM INT64_MIN

typedef enum {
    dnnl_graph_layout_type_undef = 0,
    dnnl_graph_layout_type_any = 1,
    dnnl_graph_layout_type_strided = 2,
    dnnl_graph_layout_type_opaque = 3,
} dnnl_graph_layout_type_t;

typedef enum {
    dnnl_graph_tensor_property_undef = 0,
    dnnl_graph_tensor_property_variable = 1,
    dnnl_graph_tensor_property_constant = 2,
    dnnl_graph_tensor_property_host_scalar = 3,
} dnnl_graph_tensor_property_t;

/* Metadata of a tensor flowing between ops: id, type, shape and layout. */
typedef struct {
    size_t id;
    int ndims;
    dnnl_dims_t dims;
    dnnl_data_type_t data_type;
    dnnl_graph_tensor_property_t property;
    dnnl_graph_layout_type_t layout_type;
    union {
        dnnl_dims_t strides; /* layout_type strided */
        size_t layout_id; /* layout_type opaque */
    } layout;
} dnnl_graph_logical_tensor_t;

typedef enum {
    dnnl_graph_partition_policy_fusion = 1,
    dnnl_graph_partition_policy_debug = 2,
} dnnl_graph_partition_policy_t;

struct dnnl_graph_partition;
typedef struct dnnl_graph_partition *dnnl_graph_partition_t;
typedef const struct dnnl_graph_partition *const_dnnl_graph_partition_t;

struct dnnl_graph_graph;
typedef struct dnnl_graph_graph *dnnl_graph_graph_t;
typedef const struct dnnl_graph_graph *const_dnnl_graph_graph_t;

typedef enum {
    dnnl_graph_dump_mode_none = 0x0U,
    dnnl_graph_dump_mode_subgraph = 0x1U,
    dnnl_graph_dump_mode_graph = 0x2U,
} dnnl_graph_dump_mode_t;

/* Op kinds: alphabetical up to wildcard, later additions appended. */
typedef enum {
    dnnl_graph_op_abs,
    dnnl_graph_op_abs_backward,
    dnnl_graph_op_add,
    dnnl_graph_op_avg_pool,
    dnnl_graph_op_avg_pool_backward,
    dnnl_graph_op_batch_norm_backward,
    dnnl_graph_op_batch_norm_forward_training,
    dnnl_graph_op_batch_norm_inference,
    dnnl_graph_op_bias_add,
    dnnl_graph_op_bias_add_backward,
    dnnl_graph_op_clamp,
    dnnl_graph_op_clamp_backward,
    dnnl_graph_op_concat,
    dnnl_graph_op_convolution,
    dnnl_graph_op_convolution_backward_data,
    dnnl_graph_op_convolution_backward_weights,
    dnnl_graph_op_conv_transpose,
    dnnl_graph_op_conv_transpose_backward_data,
    dnnl_graph_op_conv_transpose_backward_weights,
    dnnl_graph_op_dequantize,
    dnnl_graph_op_divide,
    dnnl_graph_op_dynamic_dequantize,
    dnnl_graph_op_dynamic_quantize,
    dnnl_graph_op_elu,
    dnnl_graph_op_elu_backward,
    dnnl_graph_op_end,
    dnnl_graph_op_exp,
    dnnl_graph_op_gelu,
    dnnl_graph_op_gelu_backward,
    dnnl_graph_op_hard_swish,
    dnnl_graph_op_hard_swish_backward,
    dnnl_graph_op_interpolate,
    dnnl_graph_op_interpolate_backward,
    dnnl_graph_op_layer_norm,
    dnnl_graph_op_layer_norm_backward,
    dnnl_graph_op_leaky_relu,
    dnnl_graph_op_log,
    dnnl_graph_op_log_softmax,
    dnnl_graph_op_log_softmax_backward,
    dnnl_graph_op_matmul,
    dnnl_graph_op_maximum,
    dnnl_graph_op_max_pool,
    dnnl_graph_op_max_pool_backward,
    dnnl_graph_op_minimum,
    dnnl_graph_op_mish,
    dnnl_graph_op_mish_backward,
    dnnl_graph_op_multiply,
    dnnl_graph_op_prelu,
    dnnl_graph_op_prelu_backward,
    dnnl_graph_op_quantize,
    dnnl_graph_op_reciprocal,
    dnnl_graph_op_reduce_l1,
    dnnl_graph_op_reduce_l2,
    dnnl_graph_op_reduce_max,
    dnnl_graph_op_reduce_mean,
    dnnl_graph_op_reduce_min,
    dnnl_graph_op_reduce_prod,
    dnnl_graph_op_reduce_sum,
    dnnl_graph_op_relu,
    dnnl_graph_op_relu_backward,
    dnnl_graph_op_reorder,
    dnnl_graph_op_round,
    dnnl_graph_op_sigmoid,
    dnnl_graph_op_sigmoid_backward,
    dnnl_graph_op_softmax,
    dnnl_graph_op_softmax_backward,
    dnnl_graph_op_softplus,
    dnnl_graph_op_softplus_backward,
    dnnl_graph_op_sqrt,
    dnnl_graph_op_sqrt_backward,
    dnnl_graph_op_square,
    dnnl_graph_op_squared_difference,
    dnnl_graph_op_static_reshape,
    dnnl_graph_op_static_transpose,
    dnnl_graph_op_subtract,
    dnnl_graph_op_tanh,
    dnnl_graph_op_tanh_backward,
    dnnl_graph_op_type_cast,
    dnnl_graph_op_wildcard,
    dnnl_graph_op_hard_sigmoid,
    dnnl_graph_op_hard_sigmoid_backward,
    dnnl_graph_op_select,
    dnnl_graph_op_pow,
    dnnl_graph_op_group_norm,
    dnnl_graph_op_gen_index,
    dnnl_graph_op_greater_equal,
    dnnl_graph_op_rms_norm,
    dnnl_graph_op_dropout,
    dnnl_graph_op_last_symbol,
} dnnl_graph_op_kind_t;

/* Op attributes. The range of a value says its type: f32 from 0x1, f32 vector at 0x20,
 * s64 from 0x30, s64 vector from 0x40, bool from 0x60, string from 0x80. */
typedef enum {
    dnnl_graph_op_attr_undef = 0,

    dnnl_graph_op_attr_alpha = 0x1,
    dnnl_graph_op_attr_beta,
    dnnl_graph_op_attr_epsilon,
    dnnl_graph_op_attr_max,
    dnnl_graph_op_attr_min,
    dnnl_graph_op_attr_momentum,

    dnnl_graph_op_attr_scales = 0x20,

    dnnl_graph_op_attr_axis = 0x30,
    dnnl_graph_op_attr_begin_norm_axis,
    dnnl_graph_op_attr_groups,

    dnnl_graph_op_attr_axes = 0x40,
    dnnl_graph_op_attr_dilations,
    dnnl_graph_op_attr_dst_shape,
    dnnl_graph_op_attr_kernel,
    dnnl_graph_op_attr_order,
    dnnl_graph_op_attr_output_padding,
    dnnl_graph_op_attr_pads_begin,
    dnnl_graph_op_attr_pads_end,
    dnnl_graph_op_attr_shape,
    dnnl_graph_op_attr_sizes,
    dnnl_graph_op_attr_src_shape,
    dnnl_graph_op_attr_strides,
    dnnl_graph_op_attr_weights_shape,
    dnnl_graph_op_attr_zps,
    dnnl_graph_op_attr_group_shape,

    dnnl_graph_op_attr_exclude_pad = 0x60,
    dnnl_graph_op_attr_keep_dims,
    dnnl_graph_op_attr_keep_stats,
    dnnl_graph_op_attr_per_channel_broadcast,
    dnnl_graph_op_attr_special_zero,
    dnnl_graph_op_attr_transpose_a,
    dnnl_graph_op_attr_transpose_b,
    dnnl_graph_op_attr_use_affine,
    dnnl_graph_op_attr_use_dst,

    dnnl_graph_op_attr_auto_broadcast = 0x80,
    dnnl_graph_op_attr_auto_pad,
    dnnl_graph_op_attr_coordinate_transformation_mode,
    dnnl_graph_op_attr_data_format,
    dnnl_graph_op_attr_mode,
    dnnl_graph_op_attr_qtype,
    dnnl_graph_op_attr_rounding_type,
    dnnl_graph_op_attr_weights_format,
    dnnl_graph_op_attr_accumulation_mode,

    dnnl_graph_op_attr_end = 0xFF,
} dnnl_graph_op_attr_t;

struct dnnl_graph_op;
typedef struct dnnl_graph_op *dnnl_graph_op_t;
typedef const struct dnnl_graph_op *const_dnnl_graph_op_t;

/* Host memory call-backs of an allocator. */
typedef void *(*dnnl_graph_host_allocate_f)(size_t size, size_t alignment);
typedef void (*dnnl_graph_host_deallocate_f)(void *);

struct dnnl_graph_allocator;
typedef struct dnnl_graph_allocator *dnnl_graph_allocator_t;
typedef const struct dnnl_graph_allocator *const_dnnl_graph_allocator_t;

/* An input port whose buffer an output may reuse. */
typedef struct {
    size_t input_id;
    size_t output_id;
} dnnl_graph_inplace_pair_t;

struct dnnl_graph_compiled_partition;
typedef struct dnnl_graph_compiled_partition *dnnl_graph_compiled_partition_t;
typedef const struct dnnl_graph_compiled_partition *const_dnnl_graph_compiled_partition_t;

struct dnnl_graph_tensor;
typedef struct dnnl_graph_tensor *dnnl_graph_tensor_t;
typedef const struct dnnl_graph_tensor *const_dnnl_graph_tensor_t;

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_TYPES_H */
