// attr_serialize is the primitive cache key part of the attributes: equal attrs must give
// equal bytes, and a change of any one field must give different bytes. Also the verbose
// text of attr_to_string.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/primitive_attr.hpp"

using namespace anydnn;

namespace {

memory_desc_t make_md(std::vector<dim_t> dims, dnnl_data_type_t dt) {
    memory_desc_t md {};
    md.ndims = static_cast<int>(dims.size());
    for (int i = 0; i < md.ndims; ++i) {
        md.dims[i] = dims[i];
        md.padded_dims[i] = dims[i];
    }
    md.data_type = dt;
    md.format_kind = dnnl_format_kind_any;
    return md;
}

primitive_attr_t strict_attr() {
    primitive_attr_t a;
    a.fpmath_mode = dnnl_fpmath_mode_strict; // independent of the process default
    return a;
}

quant_entry_t quant(int mask, dnnl_data_type_t dt = dnnl_f32) {
    quant_entry_t q;
    q.mask = mask;
    q.data_type = dt;
    q.qmode = dnnl_quantization_mode_static_sazp;
    return q;
}

post_op_t sum_op(float scale = 1.f) {
    post_op_t p;
    p.kind = dnnl_sum;
    p.sum_scale = scale;
    return p;
}

post_op_t eltwise_op(dnnl_alg_kind_t alg, float alpha = 0.f, float beta = 0.f) {
    post_op_t p;
    p.kind = dnnl_eltwise;
    p.alg = alg;
    p.alpha = alpha;
    p.beta = beta;
    return p;
}

post_op_t binary_op(dnnl_alg_kind_t alg, const memory_desc_t &src1) {
    post_op_t p;
    p.kind = dnnl_binary;
    p.alg = alg;
    p.src1_md = src1;
    return p;
}

post_op_t dw_op() {
    post_op_t p;
    p.kind = dnnl_convolution;
    p.dw_weights_dt = dnnl_s8;
    p.dw_bias_dt = dnnl_f32;
    p.dw_dst_dt = dnnl_u8;
    p.dw_kernel = 3;
    p.dw_stride = 1;
    p.dw_padding = 1;
    return p;
}

post_op_t prelu_op(int mask) {
    post_op_t p;
    p.kind = dnnl_prelu;
    p.prelu_mask = mask;
    return p;
}

using mutator_t = std::pair<const char *, std::function<void(primitive_attr_t &)>>;

// One change per entry, each to a single field (or a single post-op field) of a base attr
// that already holds one entry of every kind.
std::vector<mutator_t> one_field_changes() {
    return {
            {"scales added", [](primitive_attr_t &a) { a.scales[DNNL_ARG_DST] = quant(0); }},
            {"scales mask", [](primitive_attr_t &a) { a.scales[DNNL_ARG_SRC].mask = 1; }},
            {"scales arg",
                    [](primitive_attr_t &a) {
                        a.scales.erase(DNNL_ARG_SRC);
                        a.scales[DNNL_ARG_SRC_1] = quant(0);
                    }},
            {"scales group ndims",
                    [](primitive_attr_t &a) {
                        a.scales[DNNL_ARG_SRC].group_ndims = 2;
                        a.scales[DNNL_ARG_SRC].groups[0] = 1;
                        a.scales[DNNL_ARG_SRC].groups[1] = 1;
                    }},
            {"scales group dim",
                    [](primitive_attr_t &a) { a.scales[DNNL_ARG_WEIGHTS].groups[1] = 64; }},
            {"scales dt",
                    [](primitive_attr_t &a) { a.scales[DNNL_ARG_SRC].data_type = dnnl_bf16; }},
            {"scales qmode",
                    [](primitive_attr_t &a) {
                        a.scales[DNNL_ARG_SRC].qmode = dnnl_quantization_mode_dynamic_mx;
                    }},
            {"scales host",
                    [](primitive_attr_t &a) { a.scales[DNNL_ARG_SRC].is_host_scalar = true; }},
            {"zero points added",
                    [](primitive_attr_t &a) { a.zero_points[DNNL_ARG_DST] = quant(0, dnnl_s32); }},
            {"zero points mask", [](primitive_attr_t &a) { a.zero_points[DNNL_ARG_SRC].mask = 2; }},
            {"zero points dt",
                    [](primitive_attr_t &a) { a.zero_points[DNNL_ARG_SRC].data_type = dnnl_u8; }},
            {"reductions added",
                    [](primitive_attr_t &a) {
                        a.precomputed_reductions[DNNL_ARG_WEIGHTS] = quant(3, dnnl_s32);
                    }},
            {"reductions mask",
                    [](primitive_attr_t &a) { a.precomputed_reductions[DNNL_ARG_SRC].mask = 1; }},
            {"post-op appended",
                    [](primitive_attr_t &a) { a.post_ops.entries.push_back(sum_op()); }},
            {"post-op removed", [](primitive_attr_t &a) { a.post_ops.entries.pop_back(); }},
            {"post-ops reordered",
                    [](primitive_attr_t &a) {
                        std::swap(a.post_ops.entries[0], a.post_ops.entries[1]);
                    }},
            {"sum scale", [](primitive_attr_t &a) { a.post_ops.entries[0].sum_scale = 2.f; }},
            {"sum zero point",
                    [](primitive_attr_t &a) { a.post_ops.entries[0].sum_zero_point = 1; }},
            {"sum dt", [](primitive_attr_t &a) { a.post_ops.entries[0].sum_dt = dnnl_s8; }},
            {"eltwise alg",
                    [](primitive_attr_t &a) { a.post_ops.entries[1].alg = dnnl_eltwise_tanh; }},
            {"eltwise alpha", [](primitive_attr_t &a) { a.post_ops.entries[1].alpha = 0.1f; }},
            {"eltwise alpha sign",
                    [](primitive_attr_t &a) { a.post_ops.entries[1].alpha = -0.f; }},
            {"eltwise beta", [](primitive_attr_t &a) { a.post_ops.entries[1].beta = 0.1f; }},
            {"binary alg",
                    [](primitive_attr_t &a) { a.post_ops.entries[2].alg = dnnl_binary_mul; }},
            {"binary src1 dims",
                    [](primitive_attr_t &a) { a.post_ops.entries[2].src1_md.dims[1] = 16; }},
            {"binary src1 dt",
                    [](primitive_attr_t &a) {
                        a.post_ops.entries[2].src1_md.data_type = dnnl_bf16;
                    }},
            {"binary select src2",
                    [](primitive_attr_t &a) {
                        a.post_ops.entries[3].src2_md = make_md({2, 8, 4, 4}, dnnl_s8);
                    }},
            {"dw weights dt",
                    [](primitive_attr_t &a) { a.post_ops.entries[4].dw_weights_dt = dnnl_f32; }},
            {"dw bias dt",
                    [](primitive_attr_t &a) {
                        a.post_ops.entries[4].dw_bias_dt = dnnl_data_type_undef;
                    }},
            {"dw dst dt", [](primitive_attr_t &a) { a.post_ops.entries[4].dw_dst_dt = dnnl_s8; }},
            {"dw kernel", [](primitive_attr_t &a) { a.post_ops.entries[4].dw_kernel = 5; }},
            {"dw stride", [](primitive_attr_t &a) { a.post_ops.entries[4].dw_stride = 2; }},
            {"dw padding", [](primitive_attr_t &a) { a.post_ops.entries[4].dw_padding = 2; }},
            {"prelu mask", [](primitive_attr_t &a) { a.post_ops.entries[5].prelu_mask = 3; }},
            {"fpmath mode", [](primitive_attr_t &a) { a.fpmath_mode = dnnl_fpmath_mode_bf16; }},
            {"fpmath apply to int", [](primitive_attr_t &a) { a.fpmath_apply_to_int = true; }},
            {"acc mode", [](primitive_attr_t &a) { a.acc_mode = dnnl_accumulation_mode_relaxed; }},
            {"deterministic", [](primitive_attr_t &a) { a.deterministic = true; }},
            {"scratchpad",
                    [](primitive_attr_t &a) { a.scratchpad_mode = dnnl_scratchpad_mode_user; }},
            {"rounding added",
                    [](primitive_attr_t &a) {
                        a.rounding[DNNL_ARG_DIFF_SRC] = dnnl_rounding_mode_stochastic;
                    }},
            {"rounding arg",
                    [](primitive_attr_t &a) {
                        a.rounding.clear();
                        a.rounding[DNNL_ARG_DIFF_WEIGHTS] = dnnl_rounding_mode_stochastic;
                    }},
            {"dropout enabled", [](primitive_attr_t &a) { a.dropout_enabled = false; }},
            {"dropout mask", [](primitive_attr_t &a) { a.dropout_mask_md.dims[0] = 3; }},
            {"dropout seed dt", [](primitive_attr_t &a) { a.dropout_seed_dt = dnnl_s64; }},
            {"dropout offset", [](primitive_attr_t &a) { a.dropout_use_offset = true; }},
            {"dropout host", [](primitive_attr_t &a) { a.dropout_use_host_scalars = true; }},
            {"rnn data scale", [](primitive_attr_t &a) { a.rnn_data_scale = 2.f; }},
            {"rnn data shift", [](primitive_attr_t &a) { a.rnn_data_shift = 1.f; }},
            {"rnn weights scales", [](primitive_attr_t &a) { a.rnn_weights_scales[1] = 7.f; }},
            {"rnn weights count", [](primitive_attr_t &a) { a.rnn_weights_scales.push_back(1.f); }},
            {"rnn weights mask", [](primitive_attr_t &a) { a.rnn_weights_mask = 1; }},
            {"rnn projection scales",
                    [](primitive_attr_t &a) { a.rnn_weights_projection_scales = {3.f}; }},
            {"rnn projection mask", [](primitive_attr_t &a) { a.rnn_weights_projection_mask = 2; }},
    };
}

// An attr with every field set to something other than its default.
primitive_attr_t full_attr() {
    primitive_attr_t a = strict_attr();
    a.scales[DNNL_ARG_SRC] = quant(0);
    quant_entry_t grouped = quant(3, dnnl_f16);
    grouped.group_ndims = 2;
    grouped.groups[0] = 1;
    grouped.groups[1] = 32;
    a.scales[DNNL_ARG_WEIGHTS] = grouped;
    a.zero_points[DNNL_ARG_SRC] = quant(0, dnnl_s32);
    a.precomputed_reductions[DNNL_ARG_SRC] = quant(3, dnnl_s32);
    a.post_ops.entries.push_back(sum_op(0.5f));
    a.post_ops.entries.push_back(eltwise_op(dnnl_eltwise_relu));
    a.post_ops.entries.push_back(binary_op(dnnl_binary_add, make_md({1, 8, 1, 1}, dnnl_f32)));
    post_op_t select = binary_op(dnnl_binary_select, make_md({1, 8, 1, 1}, dnnl_f32));
    select.src2_md = make_md({2, 8, 4, 4}, dnnl_f32);
    a.post_ops.entries.push_back(select);
    a.post_ops.entries.push_back(dw_op());
    a.post_ops.entries.push_back(prelu_op(2));
    a.rounding[DNNL_ARG_DST] = dnnl_rounding_mode_stochastic;
    a.dropout_enabled = true;
    a.dropout_mask_md = make_md({2, 8}, dnnl_u8);
    a.rnn_weights_scales = {0.5f, 0.25f};
    return a;
}

} // namespace

TEST(attr_serialize, default_attrs_are_equal) {
    primitive_attr_t a = strict_attr(), b = strict_attr();
    EXPECT_TRUE(a == b);
    EXPECT_EQ(attr_serialize(a), attr_serialize(b));
    EXPECT_FALSE(attr_serialize(a).empty());
}

TEST(attr_serialize, copies_are_equal) {
    const primitive_attr_t a = full_attr();
    const primitive_attr_t b = a;
    EXPECT_TRUE(a == b);
    EXPECT_EQ(attr_serialize(a), attr_serialize(b));
    EXPECT_EQ(attr_serialize(a), attr_serialize(full_attr()));
}

TEST(attr_serialize, every_single_field_change_changes_the_bytes) {
    const primitive_attr_t base = full_attr();
    const std::string base_bytes = attr_serialize(base);
    std::vector<std::pair<std::string, std::string>> seen;
    for (const auto &m : one_field_changes()) {
        primitive_attr_t changed = base;
        m.second(changed);
        const std::string bytes = attr_serialize(changed);
        EXPECT_NE(bytes, base_bytes) << m.first;
        EXPECT_FALSE(changed == base) << m.first;
        // Distinct changes give distinct keys, too.
        for (const auto &s : seen)
            EXPECT_NE(bytes, s.second) << m.first << " vs " << s.first;
        seen.emplace_back(m.first, bytes);
    }
}

TEST(attr_serialize, each_default_field_change_changes_the_bytes) {
    // The same from the default attr, for the fields a mutator can set there.
    const primitive_attr_t base = strict_attr();
    const std::string base_bytes = attr_serialize(base);
    std::vector<std::function<void(primitive_attr_t &)>> changes = {
            [](primitive_attr_t &a) { a.scales[DNNL_ARG_SRC] = quant(0); },
            [](primitive_attr_t &a) { a.zero_points[DNNL_ARG_SRC] = quant(0); },
            [](primitive_attr_t &a) { a.precomputed_reductions[DNNL_ARG_SRC] = quant(0); },
            [](primitive_attr_t &a) { a.post_ops.entries.push_back(prelu_op(0)); },
            [](primitive_attr_t &a) { a.fpmath_mode = dnnl_fpmath_mode_any; },
            [](primitive_attr_t &a) { a.acc_mode = dnnl_accumulation_mode_f16; },
            [](primitive_attr_t &a) { a.deterministic = true; },
            [](primitive_attr_t &a) { a.scratchpad_mode = dnnl_scratchpad_mode_user; },
            [](primitive_attr_t &a) { a.rounding[DNNL_ARG_DST] = dnnl_rounding_mode_stochastic; },
            [](primitive_attr_t &a) { a.dropout_enabled = true; },
            [](primitive_attr_t &a) { a.rnn_data_scale = 0.5f; },
            [](primitive_attr_t &a) { a.rnn_weights_projection_scales = {2.f}; },
    };
    std::vector<std::string> seen;
    for (size_t i = 0; i < changes.size(); ++i) {
        primitive_attr_t changed = base;
        changes[i](changed);
        const std::string bytes = attr_serialize(changed);
        EXPECT_NE(bytes, base_bytes) << i;
        EXPECT_FALSE(changed.has_default_values()) << i;
        for (size_t j = 0; j < seen.size(); ++j)
            EXPECT_NE(bytes, seen[j]) << i << " vs " << j;
        seen.push_back(bytes);
    }
}

TEST(attr_serialize, entries_in_different_maps_differ) {
    primitive_attr_t a = strict_attr(), b = strict_attr();
    a.scales[DNNL_ARG_SRC] = quant(0);
    b.zero_points[DNNL_ARG_SRC] = quant(0);
    EXPECT_NE(attr_serialize(a), attr_serialize(b));
    primitive_attr_t c = strict_attr();
    c.precomputed_reductions[DNNL_ARG_SRC] = quant(0);
    EXPECT_NE(attr_serialize(a), attr_serialize(c));
    EXPECT_NE(attr_serialize(b), attr_serialize(c));
}

TEST(attr_serialize, map_insertion_order_does_not_matter) {
    primitive_attr_t a = strict_attr(), b = strict_attr();
    a.scales[DNNL_ARG_SRC] = quant(0);
    a.scales[DNNL_ARG_DST] = quant(1);
    b.scales[DNNL_ARG_DST] = quant(1);
    b.scales[DNNL_ARG_SRC] = quant(0);
    EXPECT_TRUE(a == b);
    EXPECT_EQ(attr_serialize(a), attr_serialize(b));
}

TEST(attr_serialize, fields_a_post_op_kind_does_not_use_are_ignored) {
    primitive_attr_t a = strict_attr(), b = strict_attr();
    a.post_ops.entries.push_back(eltwise_op(dnnl_eltwise_relu));
    post_op_t noisy = eltwise_op(dnnl_eltwise_relu);
    noisy.sum_scale = 3.f;
    noisy.prelu_mask = 7;
    noisy.src1_md = make_md({4}, dnnl_f32);
    b.post_ops.entries.push_back(noisy);
    EXPECT_TRUE(a.post_ops.entries[0] == b.post_ops.entries[0]);
    EXPECT_TRUE(a == b);
    EXPECT_EQ(attr_serialize(a), attr_serialize(b));
    // src2 only counts for select.
    primitive_attr_t c = strict_attr(), d = strict_attr();
    c.post_ops.entries.push_back(binary_op(dnnl_binary_add, make_md({1, 8}, dnnl_f32)));
    post_op_t with_src2 = binary_op(dnnl_binary_add, make_md({1, 8}, dnnl_f32));
    with_src2.src2_md = make_md({2, 8}, dnnl_f32);
    d.post_ops.entries.push_back(with_src2);
    EXPECT_EQ(attr_serialize(c), attr_serialize(d));
    // Disabled dropout ignores its parameters.
    primitive_attr_t e = strict_attr(), f = strict_attr();
    f.dropout_seed_dt = dnnl_s64;
    EXPECT_EQ(attr_serialize(e), attr_serialize(f));
}

TEST(attr_serialize, quant_entry_equality_ignores_unused_group_slots) {
    quant_entry_t a = quant(3), b = quant(3);
    a.group_ndims = b.group_ndims = 1;
    a.groups[0] = b.groups[0] = 16;
    b.groups[1] = 99; // beyond group_ndims
    EXPECT_TRUE(a == b);
    b.groups[0] = 8;
    EXPECT_FALSE(a == b);
}

TEST(attr_to_string, default_is_empty) {
    EXPECT_EQ(attr_to_string(strict_attr()), "");
}

TEST(attr_to_string, prints_like_onednn_verbose) {
    primitive_attr_t a = strict_attr();
    a.scales[DNNL_ARG_SRC] = quant(0);
    a.scales[DNNL_ARG_WEIGHTS] = quant(1);
    a.zero_points[DNNL_ARG_SRC] = quant(0, dnnl_s32);
    a.post_ops.entries.push_back(sum_op(1.f));
    a.post_ops.entries.push_back(eltwise_op(dnnl_eltwise_relu));
    a.post_ops.entries.push_back(binary_op(dnnl_binary_add, make_md({1, 8, 1, 1}, dnnl_f32)));
    a.fpmath_mode = dnnl_fpmath_mode_bf16;
    a.scratchpad_mode = dnnl_scratchpad_mode_user;
    EXPECT_EQ(attr_to_string(a),
            "attr-scales:src0:0+wei:1 attr-zero-points:src0:0 "
            "attr-post-ops:sum:1+eltwise_relu+binary_add:f32:2 attr-fpmath:bf16 "
            "attr-scratchpad:user");
}

TEST(attr_to_string, prints_the_other_fields) {
    primitive_attr_t a = strict_attr();
    a.acc_mode = dnnl_accumulation_mode_relaxed;
    a.deterministic = true;
    a.rounding[DNNL_ARG_DST] = dnnl_rounding_mode_stochastic;
    quant_entry_t grouped = quant(3, dnnl_f16);
    grouped.group_ndims = 2;
    grouped.groups[0] = 1;
    grouped.groups[1] = 32;
    a.scales[DNNL_ARG_WEIGHTS] = grouped;
    a.post_ops.entries.push_back(eltwise_op(dnnl_eltwise_clip, -1.f, 2.f));
    a.post_ops.entries.push_back(prelu_op(2));
    a.post_ops.entries.push_back(dw_op());
    a.fpmath_mode = dnnl_fpmath_mode_tf32;
    a.fpmath_apply_to_int = true;
    EXPECT_EQ(attr_to_string(a),
            "attr-acc-mode:relaxed attr-deterministic:true attr-rounding-mode:dst:stochastic "
            "attr-scales:wei:3:f16:1x32 "
            "attr-post-ops:eltwise_clip:-1:2+prelu:2+dw:k3s1p1:s8:f32:u8 attr-fpmath:tf32:true");
    primitive_attr_t d = strict_attr();
    d.dropout_enabled = true;
    EXPECT_EQ(attr_to_string(d), "attr-dropout");
}
