// The attribute objects behind dnnl_primitive_attr_t and dnnl_post_ops_t, as plain values
// that primitive descriptors copy, hash and compare.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/memory_desc.hpp"

namespace anydnn {

// Scales, zero points or precomputed reductions of one argument.
struct quant_entry_t {
    int mask = 0;
    int group_ndims = 0;
    dnnl_dims_t groups = {};
    dnnl_data_type_t data_type = dnnl_f32;
    dnnl_quantization_mode_t qmode = dnnl_quantization_mode_undef;
    bool is_host_scalar = false;
    bool operator==(const quant_entry_t &o) const;
};

struct post_op_t {
    dnnl_primitive_kind_t kind = dnnl_undefined_primitive; // sum, eltwise, binary, prelu, convolution
    // sum
    float sum_scale = 1.f;
    int32_t sum_zero_point = 0;
    dnnl_data_type_t sum_dt = dnnl_data_type_undef;
    // eltwise
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef; // eltwise or binary algorithm
    float alpha = 0.f, beta = 0.f;
    // binary: src1 (and src2 for select)
    memory_desc_t src1_md {};
    memory_desc_t src2_md {};
    // prelu
    int prelu_mask = 0;
    // depthwise convolution fusion
    dnnl_data_type_t dw_weights_dt = dnnl_data_type_undef, dw_bias_dt = dnnl_data_type_undef,
                     dw_dst_dt = dnnl_data_type_undef;
    dim_t dw_kernel = 0, dw_stride = 0, dw_padding = 0;
    bool operator==(const post_op_t &o) const;
};

// Fields has_default_values(ignore) can be told to leave out.
struct attr_skip {
    enum : unsigned {
        scales = 1u << 0,
        zero_points = 1u << 1,
        precomputed_reductions = 1u << 2,
        post_ops = 1u << 3,
        fpmath = 1u << 4,
        acc_mode = 1u << 5,
        deterministic = 1u << 6,
        scratchpad = 1u << 7,
        rounding = 1u << 8,
        dropout = 1u << 9,
        rnn_qparams = 1u << 10,
    };
};

} // namespace anydnn

struct dnnl_post_ops {
    std::vector<anydnn::post_op_t> entries;
    bool operator==(const dnnl_post_ops &o) const { return entries == o.entries; }
    int find(dnnl_primitive_kind_t kind, int start = 0) const;
};

struct dnnl_primitive_attr {
    std::map<int, anydnn::quant_entry_t> scales; // by DNNL_ARG_*
    std::map<int, anydnn::quant_entry_t> zero_points;
    std::map<int, anydnn::quant_entry_t> precomputed_reductions;
    dnnl_post_ops post_ops;
    dnnl_fpmath_mode_t fpmath_mode; // initialised from dnnl_get_default_fpmath_mode
    bool fpmath_apply_to_int = false;
    dnnl_accumulation_mode_t acc_mode = dnnl_accumulation_mode_strict;
    bool deterministic = false;
    dnnl_scratchpad_mode_t scratchpad_mode = dnnl_scratchpad_mode_library;
    std::map<int, dnnl_rounding_mode_t> rounding; // by DNNL_ARG_*
    // dropout; a zero dropout_mask_md means "enabled, but no mask is written"
    bool dropout_enabled = false;
    anydnn::memory_desc_t dropout_mask_md {};
    dnnl_data_type_t dropout_seed_dt = dnnl_s32;
    bool dropout_use_offset = false, dropout_use_host_scalars = false;
    // RNN quantization; an empty scales vector means the default (one scale of 1)
    float rnn_data_scale = 1.f, rnn_data_shift = 0.f;
    std::vector<float> rnn_weights_scales, rnn_weights_projection_scales;
    int rnn_weights_mask = 0, rnn_weights_projection_mask = 0;

    dnnl_primitive_attr();
    bool operator==(const dnnl_primitive_attr &o) const;
    bool has_default_values() const; // nothing set that an implementation must honour
    // Same, ignoring the fields named by `ignore` (anydnn::attr_skip flags), e.g. an
    // implementation that handles post-ops itself: has_default_values(attr_skip::post_ops).
    bool has_default_values(unsigned ignore) const;
};

namespace anydnn {
using primitive_attr_t = dnnl_primitive_attr;
using post_ops_t = dnnl_post_ops;

// Canonical bytes of every attribute (cache key part, equality).
std::string attr_serialize(const primitive_attr_t &attr);
// "attr-scales:src0:0 attr-post-ops:eltwise_relu" text for verbose lines.
std::string attr_to_string(const primitive_attr_t &attr);
} // namespace anydnn
