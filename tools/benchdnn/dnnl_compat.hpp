// Building benchdnn against an older oneDNN v3 (3.2 from PyPI, for side-by-side runs): what its
// headers lack is declared here, and nothing more. Enum values are oneDNN's fixed numbers, as
// macros (a macro after the header never clashes with an enumerator it already has); entry
// points are declared only so that BENCHDNN_API / BENCHDNN_CALL_OP can name their type: they
// are looked up at run time, never linked, and a library without one reports the problem
// UNIMPLEMENTED ("library has no ..."). With anydnn's or a current oneDNN's headers this file
// adds nothing.
#pragma once

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/dnnl_version.h"

#if DNNL_VERSION_MAJOR == 3 && DNNL_VERSION_MINOR < 13
#define BENCHDNN_OLD_ONEDNN 1

// Data types, algorithms and sparse encodings added after 3.2.
#define dnnl_f8_e5m2 static_cast<dnnl_data_type_t>(9)
#define dnnl_f8_e4m3 static_cast<dnnl_data_type_t>(10)
#define dnnl_s4 static_cast<dnnl_data_type_t>(11)
#define dnnl_u4 static_cast<dnnl_data_type_t>(12)
#define dnnl_s64 static_cast<dnnl_data_type_t>(16)
#define dnnl_e8m0 static_cast<dnnl_data_type_t>(13)
#define dnnl_f4_e2m1 static_cast<dnnl_data_type_t>(14)
#define dnnl_f4_e3m0 static_cast<dnnl_data_type_t>(15)
#define dnnl_binary_select static_cast<dnnl_alg_kind_t>(0x1fffc)
#define dnnl_rms_norm static_cast<dnnl_normalization_flags_t>(0x20U)
#define dnnl_packed static_cast<dnnl_sparse_encoding_t>(2)
#define dnnl_coo static_cast<dnnl_sparse_encoding_t>(3)

// Graph op kinds, attributes and tensor properties added after 3.2. group_shape sits among
// the s64-vector attributes in later releases: a case that sets it is refused by 3.2.
#define dnnl_graph_tensor_property_host_scalar static_cast<dnnl_graph_tensor_property_t>(3)
#define dnnl_graph_op_group_norm static_cast<dnnl_graph_op_kind_t>(83)
#define dnnl_graph_op_gen_index static_cast<dnnl_graph_op_kind_t>(84)
#define dnnl_graph_op_greater_equal static_cast<dnnl_graph_op_kind_t>(85)
#define dnnl_graph_op_rms_norm static_cast<dnnl_graph_op_kind_t>(86)
#define dnnl_graph_op_dropout static_cast<dnnl_graph_op_kind_t>(87)
#define dnnl_graph_op_attr_group_shape static_cast<dnnl_graph_op_attr_t>(78)
#define dnnl_graph_op_attr_accumulation_mode static_cast<dnnl_graph_op_attr_t>(136)

// Entry points added after 3.2 (prototypes as in oneDNN v3.13).
extern "C" {
dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode, int apply_to_int);
dnnl_status_t dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr, int arg, int mask,
        int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type);
dnnl_status_t dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr, int arg, int mask,
        int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type);
dnnl_status_t dnnl_binary_primitive_desc_create_v2(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src0_desc,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr);
dnnl_status_t dnnl_group_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, dnnl_dim_t groups,
        float epsilon, unsigned flags, const_dnnl_primitive_attr_t attr);
dnnl_status_t dnnl_group_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_dim_t groups, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr);
dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_memory_desc_t stat_desc, dnnl_data_type_t scale_shift_data_type, float epsilon,
        unsigned flags, const_dnnl_primitive_attr_t attr);
dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t stat_desc,
        dnnl_data_type_t diff_scale_shift_data_type, dnnl_data_type_t scale_shift_data_type,
        float epsilon, unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr);
dnnl_status_t dnnl_memory_desc_create_with_coo_encoding(dnnl_memory_desc_t *memory_desc, int ndims,
        const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz,
        dnnl_data_type_t indices_dt);
dnnl_status_t dnnl_memory_desc_create_with_packed_encoding(dnnl_memory_desc_t *memory_desc,
        int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz);
dnnl_status_t dnnl_graph_graph_set_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t mode, int apply_to_int);
}

#endif
