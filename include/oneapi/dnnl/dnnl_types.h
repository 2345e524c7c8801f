/* anydnn: types of the primitive API (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_TYPES_H
#define ONEAPI_DNNL_DNNL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_common_types.h"

/* ---- Memory formats ------------------------------------------------------------------ */

typedef enum {
    dnnl_format_kind_undef = 0,
    dnnl_format_kind_any = 1,
    dnnl_blocked = 2,
    dnnl_format_kind_opaque = 3,
    dnnl_format_kind_sparse = 4,
    dnnl_format_kind_host_scalar = 5,
    dnnl_format_kind_max = 0x7fff,
} dnnl_format_kind_t;

typedef enum {
    dnnl_sparse_encoding_undef = 0,
    dnnl_csr = 1,
    dnnl_packed = 2,
    dnnl_coo = 3,
#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
    dnnl_grouped = 4,
#endif
} dnnl_sparse_encoding_t;

#ifdef DNNL_EXPERIMENTAL_PROFILING
typedef enum {
    dnnl_profiling_data_kind_undef = 0,
    dnnl_profiling_data_kind_time = 1,
    dnnl_profiling_data_max = 0x7fff,
} dnnl_profiling_data_kind_t;
#endif

/* dnnl_format_tag_t (1674 names) is generated at build time from the naming rule. */
#include "oneapi/dnnl/dnnl_format_tags.h"

/* ---- Operations ---------------------------------------------------------------------- */

typedef enum {
    dnnl_prop_kind_undef = 0,
    dnnl_forward_training = 64,
    dnnl_forward_inference = 96,
    dnnl_forward = dnnl_forward_training,
    dnnl_backward = 128,
    dnnl_backward_data = 160,
    dnnl_backward_weights = 192,
    dnnl_backward_bias = 193,
} dnnl_prop_kind_t;

typedef enum {
    dnnl_undefined_primitive = 0,
    dnnl_reorder = 1,
    dnnl_shuffle = 2,
    dnnl_concat = 3,
    dnnl_sum = 4,
    dnnl_convolution = 5,
    dnnl_deconvolution = 6,
    dnnl_eltwise = 7,
    dnnl_lrn = 8,
    dnnl_batch_normalization = 9,
    dnnl_inner_product = 10,
    dnnl_rnn = 11,
    dnnl_gemm = 12,
    dnnl_binary = 13,
    dnnl_matmul = 14,
    dnnl_resampling = 15,
    dnnl_pooling = 16,
    dnnl_reduction = 17,
    dnnl_prelu = 18,
    dnnl_softmax = 19,
    dnnl_layer_normalization = 20,
    dnnl_group_normalization = 21,
    dnnl_primitive_kind_max = 0x7fff,
} dnnl_primitive_kind_t;

/* Algorithms; each family sits in its own numeric range. */
typedef enum {
    dnnl_alg_kind_undef = 0,

    dnnl_convolution_direct = 0x1,
    dnnl_convolution_winograd = 0x2,
    dnnl_convolution_auto = 0x3,
    dnnl_deconvolution_direct = 0xa,
    dnnl_deconvolution_winograd = 0xb,

    dnnl_eltwise_relu = 0x20,
    dnnl_eltwise_tanh = 0x21,
    dnnl_eltwise_elu = 0x22,
    dnnl_eltwise_square = 0x23,
    dnnl_eltwise_abs = 0x24,
    dnnl_eltwise_sqrt = 0x25,
    dnnl_eltwise_linear = 0x26,
    dnnl_eltwise_soft_relu = 0x27,
    dnnl_eltwise_hardsigmoid = 0x28,
    dnnl_eltwise_logistic = 0x29,
    dnnl_eltwise_exp = 0x2a,
    dnnl_eltwise_gelu_tanh = 0x2b,
    dnnl_eltwise_swish = 0x2c,
    dnnl_eltwise_log = 0x2d,
    dnnl_eltwise_clip = 0x2e,
    dnnl_eltwise_clip_v2 = 0x2f,
    dnnl_eltwise_pow = 0x30,
    dnnl_eltwise_gelu_erf = 0x31,
    dnnl_eltwise_round = 0x32,
    dnnl_eltwise_mish = 0x33,
    dnnl_eltwise_hardswish = 0x34,
    dnnl_eltwise_relu_use_dst_for_bwd = 0x100,
    dnnl_eltwise_tanh_use_dst_for_bwd = 0x101,
    dnnl_eltwise_elu_use_dst_for_bwd = 0x102,
    dnnl_eltwise_sqrt_use_dst_for_bwd = 0x103,
    dnnl_eltwise_logistic_use_dst_for_bwd = 0x104,
    dnnl_eltwise_exp_use_dst_for_bwd = 0x105,
    dnnl_eltwise_clip_v2_use_dst_for_bwd = 0x106,

    dnnl_pooling_max = 0x1ff,
    dnnl_pooling_avg_include_padding = 0x2ff,
    dnnl_pooling_avg_exclude_padding = 0x3ff,

    dnnl_lrn_across_channels = 0xaff,
    dnnl_lrn_within_channel = 0xbff,

    dnnl_vanilla_rnn = 0x1fff,
    dnnl_vanilla_lstm = 0x2fff,
    dnnl_vanilla_gru = 0x3fff,
    dnnl_lbr_gru = 0x4fff,
    dnnl_vanilla_augru = 0x5fff,
    dnnl_lbr_augru = 0x6fff,

    dnnl_binary_add = 0x1fff0,
    dnnl_binary_mul = 0x1fff1,
    dnnl_binary_max = 0x1fff2,
    dnnl_binary_min = 0x1fff3,
    dnnl_binary_div = 0x1fff4,
    dnnl_binary_sub = 0x1fff5,
    dnnl_binary_ge = 0x1fff6,
    dnnl_binary_gt = 0x1fff7,
    dnnl_binary_le = 0x1fff8,
    dnnl_binary_lt = 0x1fff9,
    dnnl_binary_eq = 0x1fffa,
    dnnl_binary_ne = 0x1fffb,
    dnnl_binary_select = 0x1fffc,

    dnnl_resampling_nearest = 0x2fff0,
    dnnl_resampling_linear = 0x2fff1,

    dnnl_reduction_max = 0x2fff2,
    dnnl_reduction_min = 0x2fff3,
    dnnl_reduction_sum = 0x2fff4,
    dnnl_reduction_mul = 0x2fff5,
    dnnl_reduction_mean = 0x2fff6,
    dnnl_reduction_norm_lp_max = 0x2fff7,
    dnnl_reduction_norm_lp_sum = 0x2fff8,
    dnnl_reduction_norm_lp_power_p_max = 0x2fff9,
    dnnl_reduction_norm_lp_power_p_sum = 0x2fffa,

    dnnl_softmax_accurate = 0x30000,
    dnnl_softmax_log = 0x30001,
} dnnl_alg_kind_t;

/* Bit flags of batch, layer and group normalization. */
typedef enum {
    dnnl_normalization_flags_none = 0x0U,
    dnnl_use_global_stats = 0x1U,
    dnnl_use_scale = 0x2U,
    dnnl_use_shift = 0x4U,
    dnnl_fuse_norm_relu = 0x8U,
    dnnl_fuse_norm_add_relu = 0x10U,
    dnnl_rms_norm = 0x20U,
} dnnl_normalization_flags_t;

/* ---- Values known only at execution time ---------------------------------------------- */

#define DNNL_RUNTIME_DIM_VAL INT64_MIN
#define DNNL_RUNTIME_SIZE_VAL ((size_t)DNNL_RUNTIME_DIM_VAL)

/* A quiet NaN with a recognisable payload (bit pattern 0x7fc000d0). */
static const union {
    unsigned u;
    float f;
} DNNL_RUNTIME_F32_VAL_REP = {0x7fc000d0};
#define DNNL_RUNTIME_F32_VAL (DNNL_RUNTIME_F32_VAL_REP.f)

#define DNNL_RUNTIME_S32_VAL ((int)INT32_MIN)

/* ---- Opaque handles ------------------------------------------------------------------- */

struct dnnl_memory_desc;
typedef struct dnnl_memory_desc *dnnl_memory_desc_t;
typedef const struct dnnl_memory_desc *const_dnnl_memory_desc_t;

struct dnnl_memory;
typedef struct dnnl_memory *dnnl_memory_t;
typedef const struct dnnl_memory *const_dnnl_memory_t;

struct dnnl_primitive_desc;
typedef struct dnnl_primitive_desc *dnnl_primitive_desc_t;
typedef const struct dnnl_primitive_desc *const_dnnl_primitive_desc_t;

struct dnnl_primitive_attr;
typedef struct dnnl_primitive_attr *dnnl_primitive_attr_t;
typedef const struct dnnl_primitive_attr *const_dnnl_primitive_attr_t;

struct dnnl_post_ops;
typedef struct dnnl_post_ops *dnnl_post_ops_t;
typedef const struct dnnl_post_ops *const_dnnl_post_ops_t;

struct dnnl_primitive;
typedef struct dnnl_primitive *dnnl_primitive_t;
typedef const struct dnnl_primitive *const_dnnl_primitive_t;

/* ---- RNN ------------------------------------------------------------------------------ */

typedef enum {
    dnnl_rnn_flags_undef = 0x0,
    dnnl_rnn_flags_diff_weights_overwrite = 0x1,
} dnnl_rnn_flags_t;

typedef enum {
    dnnl_rnn_direction_undef = 0,
    dnnl_unidirectional_left2right = 1,
    dnnl_unidirectional_right2left = 2,
    dnnl_bidirectional_concat = 3,
    dnnl_bidirectional_sum = 4,
} dnnl_rnn_direction_t;

/* ---- Attribute settings --------------------------------------------------------------- */

typedef enum {
    dnnl_scratchpad_mode_library = 0,
    dnnl_scratchpad_mode_user = 1,
} dnnl_scratchpad_mode_t;

typedef enum {
    dnnl_rounding_mode_environment = 0,
    dnnl_rounding_mode_stochastic = 1,
} dnnl_rounding_mode_t;

typedef enum {
    dnnl_quantization_mode_undef = 0,
    dnnl_quantization_mode_static_sazp = 1,
    dnnl_quantization_mode_dynamic_mx = 2,
    dnnl_quantization_mode_dynamic_fp = 3,
} dnnl_quantization_mode_t;

/* ---- Execution arguments -------------------------------------------------------------- */

/* Sources (1..16) and destinations (17..32), with their RNN and reorder aliases. */
#define DNNL_ARG_UNDEF 0
#define DNNL_ARG_SRC_0 1
#define DNNL_ARG_SRC_1 2
#define DNNL_ARG_SRC_2 3
#define DNNL_ARG_SRC_3 4
#define DNNL_ARG_SRC DNNL_ARG_SRC_0
#define DNNL_ARG_SRC_LAYER DNNL_ARG_SRC_0
#define DNNL_ARG_FROM DNNL_ARG_SRC_0
#define DNNL_ARG_SRC_ITER DNNL_ARG_SRC_1
#define DNNL_ARG_SRC_ITER_C DNNL_ARG_SRC_2
#define DNNL_ARG_AUGRU_ATTENTION DNNL_ARG_SRC_3

#define DNNL_ARG_DST_0 17
#define DNNL_ARG_DST_1 18
#define DNNL_ARG_DST_2 19
#define DNNL_ARG_DST DNNL_ARG_DST_0
#define DNNL_ARG_TO DNNL_ARG_DST_0
#define DNNL_ARG_DST_LAYER DNNL_ARG_DST_0
#define DNNL_ARG_DST_ITER DNNL_ARG_DST_1
#define DNNL_ARG_DST_ITER_C DNNL_ARG_DST_2

/* Weights, bias and statistics. */
#define DNNL_ARG_WEIGHTS_0 33
#define DNNL_ARG_WEIGHTS_1 34
#define DNNL_ARG_WEIGHTS_2 35
#define DNNL_ARG_WEIGHTS_3 36
#define DNNL_ARG_WEIGHTS DNNL_ARG_WEIGHTS_0
#define DNNL_ARG_WEIGHTS_LAYER DNNL_ARG_WEIGHTS_0
#define DNNL_ARG_WEIGHTS_ITER DNNL_ARG_WEIGHTS_1
#define DNNL_ARG_WEIGHTS_PEEPHOLE DNNL_ARG_WEIGHTS_2
#define DNNL_ARG_WEIGHTS_PROJECTION DNNL_ARG_WEIGHTS_3
#define DNNL_ARG_BIAS 41
#define DNNL_ARG_REDUCE 42
#define DNNL_ARG_MEAN 49
#define DNNL_ARG_VARIANCE 50
#define DNNL_ARG_SCALE 51
#define DNNL_ARG_SHIFT 52
#define DNNL_ARG_WORKSPACE 64
#define DNNL_ARG_SCRATCHPAD 80

/* Gradients: the forward argument plus 128. */
#define DNNL_ARG_DIFF_SRC_0 129
#define DNNL_ARG_DIFF_SRC_1 130
#define DNNL_ARG_DIFF_SRC_2 131
#define DNNL_ARG_DIFF_SRC_3 132
#define DNNL_ARG_DIFF_SRC DNNL_ARG_DIFF_SRC_0
#define DNNL_ARG_DIFF_SRC_LAYER DNNL_ARG_DIFF_SRC_0
#define DNNL_ARG_DIFF_SRC_ITER DNNL_ARG_DIFF_SRC_1
#define DNNL_ARG_DIFF_SRC_ITER_C DNNL_ARG_DIFF_SRC_2
#define DNNL_ARG_DIFF_AUGRU_ATTENTION DNNL_ARG_DIFF_SRC_3

#define DNNL_ARG_DIFF_DST_0 145
#define DNNL_ARG_DIFF_DST_1 146
#define DNNL_ARG_DIFF_DST_2 147
#define DNNL_ARG_DIFF_DST DNNL_ARG_DIFF_DST_0
#define DNNL_ARG_DIFF_DST_LAYER DNNL_ARG_DIFF_DST_0
#define DNNL_ARG_DIFF_DST_ITER DNNL_ARG_DIFF_DST_1
#define DNNL_ARG_DIFF_DST_ITER_C DNNL_ARG_DIFF_DST_2

#define DNNL_ARG_DIFF_WEIGHTS_0 161
#define DNNL_ARG_DIFF_WEIGHTS_1 162
#define DNNL_ARG_DIFF_WEIGHTS_2 163
#define DNNL_ARG_DIFF_WEIGHTS_3 164
#define DNNL_ARG_DIFF_WEIGHTS DNNL_ARG_DIFF_WEIGHTS_0
#define DNNL_ARG_DIFF_WEIGHTS_LAYER DNNL_ARG_DIFF_WEIGHTS_0
#define DNNL_ARG_DIFF_WEIGHTS_ITER DNNL_ARG_DIFF_WEIGHTS_1
#define DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE DNNL_ARG_DIFF_WEIGHTS_2
#define DNNL_ARG_DIFF_WEIGHTS_PROJECTION DNNL_ARG_DIFF_WEIGHTS_3
#define DNNL_ARG_DIFF_BIAS 169
#define DNNL_ARG_DIFF_SCALE 255
#define DNNL_ARG_DIFF_SHIFT 256

#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
#define DNNL_ARG_HINT_MAX_GROUP_SIZE 384
#endif

/* Attribute inputs. Scales, zero points and post-op inputs are OR-ed with the argument they
 * apply to, e.g. DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC. */
#define DNNL_ARG_ATTR_DROPOUT_OFFSET 507
#define DNNL_ARG_ATTR_ROUNDING_SEED 508
#define DNNL_ARG_ATTR_DROPOUT_MASK 509
#define DNNL_ARG_ATTR_DROPOUT_PROBABILITY 510
#define DNNL_ARG_ATTR_DROPOUT_SEED 511
#define DNNL_ARG_ATTR_PRECOMPUTED_REDUCTIONS 512
#define DNNL_ARG_ATTR_OUTPUT_SCALES 513
#define DNNL_ARG_MULTIPLE_SRC 1024
#define DNNL_ARG_MULTIPLE_DST 2048
#define DNNL_ARG_ATTR_SCALES 4096
#define DNNL_ARG_ATTR_ZERO_POINTS 8192
#define DNNL_ARG_ATTR_POST_OP_DW 16384
#define DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE 32768
#define DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) (DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE * ((idx) + 1))

typedef struct {
    int arg;
    dnnl_memory_t memory;
} dnnl_exec_arg_t;

/* ---- Queries -------------------------------------------------------------------------- */

typedef enum {
    dnnl_query_undef = 0,

    /* Primitive descriptor: general. */
    dnnl_query_engine = 1,
    dnnl_query_primitive_kind = 2,
    dnnl_query_num_of_inputs_s32 = 3,
    dnnl_query_num_of_outputs_s32 = 4,
    dnnl_query_time_estimate_f64 = 5,
    dnnl_query_memory_consumption_s64 = 6,
    dnnl_query_scratchpad_engine = 7,
    dnnl_query_impl_info_str = 8,
    dnnl_query_reorder_src_engine = 9,
    dnnl_query_reorder_dst_engine = 10,
    dnnl_query_prop_kind = 11,
    dnnl_query_cache_blob_id_size_s64 = 12,
    dnnl_query_cache_blob_id = 13,

    /* Primitive descriptor: operation parameters. */
    dnnl_query_strides = 14,
    dnnl_query_dilations = 15,
    dnnl_query_padding_l = 16,
    dnnl_query_padding_r = 17,
    dnnl_query_epsilon_f32 = 18,
    dnnl_query_flags = 19,
    dnnl_query_alg_kind = 20,
    dnnl_query_alpha_f32 = 21,
    dnnl_query_beta_f32 = 22,
    dnnl_query_axis_s32 = 23,
    dnnl_query_local_size_s64 = 24,
    dnnl_query_k_f32 = 25,
    dnnl_query_p_f32 = 26,
    dnnl_query_factors = 27,
    dnnl_query_cell_kind = 28,
    dnnl_query_direction = 29,
    dnnl_query_activation_kind = 30,
    dnnl_query_kernel = 31,
    dnnl_query_group_size_s64 = 32,

    /* Primitive descriptor: memory descriptors. */
    dnnl_query_some_md = 128,
    dnnl_query_src_md = 129,
    dnnl_query_diff_src_md = 130,
    dnnl_query_weights_md = 131,
    dnnl_query_diff_weights_md = 132,
    dnnl_query_dst_md = 133,
    dnnl_query_diff_dst_md = 134,
    dnnl_query_workspace_md = 135,
    dnnl_query_scratchpad_md = 136,
    dnnl_query_exec_arg_md = 255,

    /* Memory descriptor fields. */
    dnnl_query_ndims_s32 = 256,
    dnnl_query_dims = 257,
    dnnl_query_data_type = 258,
    dnnl_query_submemory_offset_s64 = 259,
    dnnl_query_padded_dims = 260,
    dnnl_query_padded_offsets = 261,
    dnnl_query_format_kind = 262,
    dnnl_query_inner_nblks_s32 = 263,
    dnnl_query_inner_blks = 264,
    dnnl_query_inner_idxs = 265,
    dnnl_query_sparse_encoding = 266,
    dnnl_query_nnz_s64 = 267,
    dnnl_query_num_handles_s32 = 268,

    dnnl_query_max = 0x7fff,
} dnnl_query_t;

/* ---- Service -------------------------------------------------------------------------- */

/* Flags of dnnl_set_jit_profiling_flags. */
#define DNNL_JIT_PROFILE_NONE 0u
#define DNNL_JIT_PROFILE_VTUNE 1u
#define DNNL_JIT_PROFILE_LINUX_PERFMAP 2u
#define DNNL_JIT_PROFILE_LINUX_JITDUMP 4u
#define DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC 8u
#define DNNL_JIT_PROFILE_LINUX_PERF \
    (DNNL_JIT_PROFILE_LINUX_JITDUMP | DNNL_JIT_PROFILE_LINUX_PERFMAP)

/* x86 ISA levels; each value contains the bits of the levels below it. */
typedef enum {
    dnnl_cpu_isa_default = 0x0,
    dnnl_cpu_isa_sse41 = 0x1,
    dnnl_cpu_isa_avx = 0x3,
    dnnl_cpu_isa_avx2 = 0x7,
    dnnl_cpu_isa_avx2_vnni = 0xf,
    dnnl_cpu_isa_avx2_vnni_2 = 0x1f,
    dnnl_cpu_isa_avx512_core = 0x27,
    dnnl_cpu_isa_avx512_core_vnni = 0x67,
    dnnl_cpu_isa_avx512_core_bf16 = 0xe7,
    dnnl_cpu_isa_avx10_1_512 = 0x1ef,
    dnnl_cpu_isa_avx512_core_fp16 = dnnl_cpu_isa_avx10_1_512,
    dnnl_cpu_isa_avx10_1_512_amx = 0xfef,
    dnnl_cpu_isa_avx512_core_amx = dnnl_cpu_isa_avx10_1_512_amx,
    dnnl_cpu_isa_avx10_1_512_amx_fp16 = 0x1fef,
    dnnl_cpu_isa_avx512_core_amx_fp16 = dnnl_cpu_isa_avx10_1_512_amx_fp16,
    dnnl_cpu_isa_avx10_2 = 0x201ff,
    dnnl_cpu_isa_avx10_2_512 = dnnl_cpu_isa_avx10_2,
    dnnl_cpu_isa_avx10_2_amx_2 = 0x22fff,
    dnnl_cpu_isa_avx10_2_512_amx_2 = dnnl_cpu_isa_avx10_2_amx_2,
} dnnl_cpu_isa_t;

typedef enum {
    dnnl_cpu_isa_no_hints = 0x0,
    dnnl_cpu_isa_prefer_ymm = 0x1,
} dnnl_cpu_isa_hints_t;

#endif
