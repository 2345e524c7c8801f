// What the attribute entry points record in the attribute object: scales and zero points
// (which have no public getter), defaults, and equality of attrs built through the C API.
#include <gtest/gtest.h>

#include "core/primitive_attr.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

struct attr_state : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        dnnl_dims_t dims = {1, 8, 1, 1};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md_c, 4, dims, dnnl_f32, dnnl_nchw),
                dnnl_success);
    }
    void TearDown() override {
        dnnl_memory_desc_destroy(md_c);
        dnnl_post_ops_destroy(po);
        dnnl_primitive_attr_destroy(attr);
    }
    dnnl_primitive_attr_t attr = nullptr;
    dnnl_post_ops_t po = nullptr;
    dnnl_memory_desc_t md_c = nullptr;
};

} // namespace

TEST_F(attr_state, new_attr_has_default_values) {
    EXPECT_TRUE(attr->has_default_values());
    dnnl_fpmath_mode_t saved = dnnl_fpmath_mode_strict;
    ASSERT_EQ(dnnl_get_default_fpmath_mode(&saved), dnnl_success);
    ASSERT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_bf16), dnnl_success);
    dnnl_primitive_attr_t a = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&a), dnnl_success);
    EXPECT_EQ(a->fpmath_mode, dnnl_fpmath_mode_bf16);
    EXPECT_TRUE(a->has_default_values()); // the global default is the default
    EXPECT_FALSE(*a == *attr);
    EXPECT_EQ(dnnl_primitive_attr_destroy(a), dnnl_success);
    ASSERT_EQ(dnnl_set_default_fpmath_mode(saved), dnnl_success);
}

TEST_F(attr_state, dropout_without_mask_is_still_dropout) {
    ASSERT_EQ(dnnl_primitive_attr_set_dropout(attr, nullptr), dnnl_success);
    EXPECT_TRUE(attr->dropout_enabled);
    EXPECT_EQ(attr->dropout_mask_md.ndims, 0);
    EXPECT_FALSE(attr->has_default_values());
    EXPECT_TRUE(attr->has_default_values(anydnn::attr_skip::dropout));
}

TEST_F(attr_state, clone_compares_equal_until_changed) {
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_attr_t c = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_clone(&c, attr), dnnl_success);
    EXPECT_TRUE(*c == *attr);
    EXPECT_EQ(anydnn::attr_serialize(*c), anydnn::attr_serialize(*attr));
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(c, DNNL_ARG_DST, 0), dnnl_success);
    EXPECT_FALSE(*c == *attr);
    EXPECT_TRUE(attr->zero_points.empty());
    EXPECT_EQ(dnnl_primitive_attr_destroy(c), dnnl_success);
}

TEST_F(attr_state, has_default_values_can_skip_fields) {
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user),
            dnnl_success);
    EXPECT_FALSE(attr->has_default_values());
    EXPECT_FALSE(attr->has_default_values(anydnn::attr_skip::post_ops));
    EXPECT_TRUE(attr->has_default_values(
            anydnn::attr_skip::post_ops | anydnn::attr_skip::scratchpad));
    EXPECT_EQ(attr->post_ops.find(dnnl_eltwise), 0);
    EXPECT_EQ(attr->post_ops.find(dnnl_sum), -1);
    EXPECT_EQ(attr->post_ops.find(dnnl_eltwise, 1), -1);
}

TEST_F(attr_state, same_settings_in_any_order_compare_equal) {
    dnnl_primitive_attr_t a = nullptr, b = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&a), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_create(&b), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(a, DNNL_ARG_SRC, 0), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(a, DNNL_ARG_DST, 0), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_deterministic(a, 1), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_deterministic(b, 1), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(b, DNNL_ARG_DST, 0), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(b, DNNL_ARG_SRC, 0), dnnl_success);
    EXPECT_TRUE(*a == *b);
    EXPECT_EQ(anydnn::attr_serialize(*a), anydnn::attr_serialize(*b));

    // Setting a value back to its default gives the default attr.
    ASSERT_EQ(dnnl_primitive_attr_set_rounding(attr, DNNL_ARG_DST, dnnl_rounding_mode_stochastic),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_rounding(attr, DNNL_ARG_DST, dnnl_rounding_mode_environment),
            dnnl_success);
    float one = 1.f;
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 1, 0, &one), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, 1.f, 0.f), dnnl_success);
    dnnl_primitive_attr_t fresh = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&fresh), dnnl_success);
    EXPECT_TRUE(*attr == *fresh);
    EXPECT_TRUE(attr->has_default_values());
    // The same post-ops set twice, once through a copy, compare equal.
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, md_c), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    const_dnnl_post_ops_t own = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_post_ops(attr, &own), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(fresh, own), dnnl_success);
    EXPECT_TRUE(*attr == *fresh);
    EXPECT_FALSE(*attr == *a);
    EXPECT_EQ(dnnl_primitive_attr_destroy(fresh), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_destroy(a), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_destroy(b), dnnl_success);
}

TEST_F(attr_state, scales_are_recorded_per_argument) {
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    dnnl_dims_t groups = {1, 32};
    ASSERT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, groups, dnnl_f16),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_DST, 0, 0, nullptr, dnnl_f32, 1),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_v3(attr, DNNL_ARG_MULTIPLE_SRC + 1, 1, 0, nullptr,
                      dnnl_e8m0, 0, dnnl_quantization_mode_dynamic_mx),
            dnnl_success);
    ASSERT_EQ(attr->scales.size(), 4u);
    const auto &src = attr->scales.at(DNNL_ARG_SRC);
    EXPECT_EQ(src.mask, 0);
    EXPECT_EQ(src.group_ndims, 0);
    EXPECT_EQ(src.data_type, dnnl_f32);
    EXPECT_EQ(src.qmode, dnnl_quantization_mode_static_sazp);
    EXPECT_FALSE(src.is_host_scalar);
    const auto &wei = attr->scales.at(DNNL_ARG_WEIGHTS);
    EXPECT_EQ(wei.mask, 3);
    EXPECT_EQ(wei.group_ndims, 2);
    EXPECT_EQ(wei.groups[0], 1);
    EXPECT_EQ(wei.groups[1], 32);
    EXPECT_EQ(wei.data_type, dnnl_f16);
    EXPECT_TRUE(attr->scales.at(DNNL_ARG_DST).is_host_scalar);
    const auto &mx = attr->scales.at(DNNL_ARG_MULTIPLE_SRC + 1);
    EXPECT_EQ(mx.qmode, dnnl_quantization_mode_dynamic_mx);
    EXPECT_EQ(mx.data_type, dnnl_e8m0);
    // Setting an argument again replaces its entry.
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 1), dnnl_success);
    EXPECT_EQ(attr->scales.at(DNNL_ARG_WEIGHTS).mask, 1);
    EXPECT_EQ(attr->scales.at(DNNL_ARG_WEIGHTS).group_ndims, 0);
    EXPECT_EQ(attr->scales.at(DNNL_ARG_WEIGHTS).data_type, dnnl_f32);
    // A depthwise post-op argument takes scales too.
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(
                      attr, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, 2),
            dnnl_success);
    EXPECT_FALSE(attr->has_default_values());
}

TEST_F(attr_state, zero_points_and_precomputed_reductions_are_recorded) {
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    dnnl_dims_t groups = {32, 1};
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_WEIGHTS, 3, 2, groups, dnnl_u4),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points_v2(attr, DNNL_ARG_DST, 0, 0, nullptr, dnnl_s8, 1),
            dnnl_success);
    ASSERT_EQ(attr->zero_points.size(), 3u);
    EXPECT_EQ(attr->zero_points.at(DNNL_ARG_SRC).data_type, dnnl_s32);
    EXPECT_EQ(attr->zero_points.at(DNNL_ARG_WEIGHTS).mask, 3);
    EXPECT_EQ(attr->zero_points.at(DNNL_ARG_WEIGHTS).groups[0], 32);
    EXPECT_EQ(attr->zero_points.at(DNNL_ARG_WEIGHTS).data_type, dnnl_u4);
    EXPECT_TRUE(attr->zero_points.at(DNNL_ARG_DST).is_host_scalar);
    EXPECT_TRUE(attr->scales.empty());

    ASSERT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_SRC, 3, 2, groups, dnnl_s32),
            dnnl_success);
    ASSERT_EQ(attr->precomputed_reductions.size(), 1u);
    EXPECT_EQ(attr->precomputed_reductions.at(DNNL_ARG_SRC).mask, 3);
    EXPECT_EQ(attr->precomputed_reductions.at(DNNL_ARG_SRC).data_type, dnnl_s32);
}
