// Primitive attributes and post-ops through the C API (and dnnl::primitive_attr /
// dnnl::post_ops): every setter/getter round trip, copies, clone independence and bad input.
// Scales and zero points have no public getter; those checks read the attribute object.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

#include "oneapi/dnnl/dnnl.hpp"

namespace {

struct attr_fixture : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        dnnl_dims_t dims = {1, 8, 1, 1};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md_c, 4, dims, dnnl_f32, dnnl_nchw),
                dnnl_success);
        dnnl_dims_t full = {2, 8, 4, 4};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md_full, 4, full, dnnl_s8, dnnl_nchw),
                dnnl_success);
    }
    void TearDown() override {
        dnnl_memory_desc_destroy(md_full);
        dnnl_memory_desc_destroy(md_c);
        dnnl_post_ops_destroy(po);
        dnnl_primitive_attr_destroy(attr);
    }
    dnnl_primitive_attr_t attr = nullptr;
    dnnl_post_ops_t po = nullptr;
    dnnl_memory_desc_t md_c = nullptr; // 1x8x1x1 f32: per-channel operand
    dnnl_memory_desc_t md_full = nullptr; // 2x8x4x4 s8
};

int md_ndims(const_dnnl_memory_desc_t md) {
    int n = -1;
    EXPECT_EQ(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &n), dnnl_success);
    return n;
}

// A post-op chain with one entry of every kind.
void append_all_kinds(dnnl_post_ops_t po, const_dnnl_memory_desc_t src1,
        const_dnnl_memory_desc_t src2) {
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 3, dnnl_s8), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_clip, -1.f, 2.f), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_f32, dnnl_u8, 3, 2, 1), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_mul, src1), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary_v2(po, dnnl_binary_select, src1, src2), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_prelu(po, 2), dnnl_success);
}

} // namespace

TEST_F(attr_fixture, new_attr_holds_defaults) {
    dnnl_fpmath_mode_t global = dnnl_fpmath_mode_any, mode = dnnl_fpmath_mode_any;
    ASSERT_EQ(dnnl_get_default_fpmath_mode(&global), dnnl_success);
    int to_int = 7;
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, &mode, &to_int), dnnl_success);
    EXPECT_EQ(mode, global);
    EXPECT_EQ(to_int, 0);
    dnnl_accumulation_mode_t acc = dnnl_accumulation_mode_any;
    EXPECT_EQ(dnnl_primitive_attr_get_accumulation_mode(attr, &acc), dnnl_success);
    EXPECT_EQ(acc, dnnl_accumulation_mode_strict);
    int det = 7;
    EXPECT_EQ(dnnl_primitive_attr_get_deterministic(attr, &det), dnnl_success);
    EXPECT_EQ(det, 0);
    dnnl_scratchpad_mode_t sp = dnnl_scratchpad_mode_user;
    EXPECT_EQ(dnnl_primitive_attr_get_scratchpad_mode(attr, &sp), dnnl_success);
    EXPECT_EQ(sp, dnnl_scratchpad_mode_library);
    dnnl_rounding_mode_t rm = dnnl_rounding_mode_stochastic;
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(attr, DNNL_ARG_DST, &rm), dnnl_success);
    EXPECT_EQ(rm, dnnl_rounding_mode_environment);
    const_dnnl_post_ops_t cpo = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_get_post_ops(attr, &cpo), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(cpo), 0);
    const_dnnl_memory_desc_t mask = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_get_dropout(attr, &mask), dnnl_success);
    ASSERT_NE(mask, nullptr);
    EXPECT_EQ(md_ndims(mask), 0);
    float scale = 0.f, shift = 5.f;
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_data_qparams(attr, &scale, &shift), dnnl_success);
    EXPECT_EQ(scale, 1.f);
    EXPECT_EQ(shift, 0.f);
    dnnl_dim_t count = 0;
    int wmask = -1;
    const float *scales = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_weights_qparams(attr, &count, &wmask, &scales),
            dnnl_success);
    EXPECT_EQ(count, 1);
    EXPECT_EQ(wmask, 0);
    ASSERT_NE(scales, nullptr);
    EXPECT_EQ(scales[0], 1.f);
}

TEST_F(attr_fixture, new_attr_takes_global_default_fpmath_mode) {
    dnnl_fpmath_mode_t saved = dnnl_fpmath_mode_strict;
    ASSERT_EQ(dnnl_get_default_fpmath_mode(&saved), dnnl_success);
    ASSERT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_bf16), dnnl_success);
    dnnl_primitive_attr_t a = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&a), dnnl_success);
    dnnl_fpmath_mode_t mode = dnnl_fpmath_mode_strict;
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode(a, &mode), dnnl_success);
    EXPECT_EQ(mode, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(dnnl_primitive_attr_destroy(a), dnnl_success);
    ASSERT_EQ(dnnl_set_default_fpmath_mode(saved), dnnl_success);
}

TEST_F(attr_fixture, fpmath_mode_round_trips) {
    for (auto m : {dnnl_fpmath_mode_strict, dnnl_fpmath_mode_bf16, dnnl_fpmath_mode_f16,
                 dnnl_fpmath_mode_any, dnnl_fpmath_mode_tf32}) {
        ASSERT_EQ(dnnl_primitive_attr_set_fpmath_mode(attr, m), dnnl_success);
        dnnl_fpmath_mode_t got = dnnl_fpmath_mode_strict;
        int to_int = 7;
        EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, &got, &to_int), dnnl_success);
        EXPECT_EQ(got, m);
        EXPECT_EQ(to_int, 0);
    }
    ASSERT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(attr, dnnl_fpmath_mode_bf16, 1),
            dnnl_success);
    dnnl_fpmath_mode_t got = dnnl_fpmath_mode_strict;
    int to_int = 0;
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, &got, &to_int), dnnl_success);
    EXPECT_EQ(got, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(to_int, 1);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode(attr, &got), dnnl_success);
    EXPECT_EQ(got, dnnl_fpmath_mode_bf16);
    // The plain setter clears apply_to_int.
    ASSERT_EQ(dnnl_primitive_attr_set_fpmath_mode(attr, dnnl_fpmath_mode_f16), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, &got, &to_int), dnnl_success);
    EXPECT_EQ(to_int, 0);
    // The second output of the v2 getter is optional.
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, &got, nullptr), dnnl_success);

    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode(attr, static_cast<dnnl_fpmath_mode_t>(5)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(attr, static_cast<dnnl_fpmath_mode_t>(-1), 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode(attr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode_v2(attr, nullptr, &to_int),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode(nullptr, &got), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_fpmath_mode(attr, &got), dnnl_success);
    EXPECT_EQ(got, dnnl_fpmath_mode_f16); // failed calls changed nothing
}

TEST_F(attr_fixture, accumulation_deterministic_scratchpad_round_trip) {
    for (int m = dnnl_accumulation_mode_strict; m <= dnnl_accumulation_mode_f16; ++m) {
        auto mode = static_cast<dnnl_accumulation_mode_t>(m);
        ASSERT_EQ(dnnl_primitive_attr_set_accumulation_mode(attr, mode), dnnl_success);
        dnnl_accumulation_mode_t got = dnnl_accumulation_mode_strict;
        EXPECT_EQ(dnnl_primitive_attr_get_accumulation_mode(attr, &got), dnnl_success);
        EXPECT_EQ(got, mode);
    }
    EXPECT_EQ(dnnl_primitive_attr_set_accumulation_mode(
                      attr, static_cast<dnnl_accumulation_mode_t>(6)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_accumulation_mode(attr, nullptr), dnnl_invalid_arguments);

    int det = 0;
    ASSERT_EQ(dnnl_primitive_attr_set_deterministic(attr, 42), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_deterministic(attr, &det), dnnl_success);
    EXPECT_EQ(det, 1);
    ASSERT_EQ(dnnl_primitive_attr_set_deterministic(attr, 0), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_deterministic(attr, &det), dnnl_success);
    EXPECT_EQ(det, 0);
    EXPECT_EQ(dnnl_primitive_attr_get_deterministic(attr, nullptr), dnnl_invalid_arguments);

    dnnl_scratchpad_mode_t sp = dnnl_scratchpad_mode_library;
    ASSERT_EQ(dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_scratchpad_mode(attr, &sp), dnnl_success);
    EXPECT_EQ(sp, dnnl_scratchpad_mode_user);
    EXPECT_EQ(dnnl_primitive_attr_set_scratchpad_mode(attr, static_cast<dnnl_scratchpad_mode_t>(2)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_scratchpad_mode(attr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_scratchpad_mode(attr, &sp), dnnl_success);
    EXPECT_EQ(sp, dnnl_scratchpad_mode_user);
}

TEST_F(attr_fixture, scales_and_zero_points_accept_documented_forms) {
    dnnl_dims_t groups = {1, 32};
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, groups, dnnl_f16),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_DST, 0, 0, nullptr, dnnl_f32, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v3(attr, DNNL_ARG_MULTIPLE_SRC + 1, 1, 0, nullptr,
                      dnnl_e8m0, 0, dnnl_quantization_mode_dynamic_mx),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(
                      attr, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, 2),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 1), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_WEIGHTS, 3, 2, groups, dnnl_u4),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_v2(attr, DNNL_ARG_DST, 0, 0, nullptr, dnnl_s8, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_SRC, 3, 2, groups, dnnl_s32),
            dnnl_success);
}

TEST_F(attr_fixture, scales_reject_bad_input_and_keep_state) {
    dnnl_dims_t groups = {1, 32};
    dnnl_dims_t zero_group = {1, 0};
    dnnl_dims_t neg_group = {-4, 1};
    const auto bad = dnnl_invalid_arguments;
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, -1), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, 0, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, -3, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 0),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(
                      attr, DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, 0),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, nullptr, dnnl_f32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, zero_group, dnnl_f32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, 2, neg_group, dnnl_f32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, 3, -1, groups, dnnl_f32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(
                      attr, DNNL_ARG_WEIGHTS, 3, DNNL_MAX_NDIMS + 1, groups, dnnl_f32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(
                      attr, DNNL_ARG_WEIGHTS, 3, 2, groups, dnnl_data_type_undef),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(
                      attr, DNNL_ARG_WEIGHTS, 3, 2, groups, static_cast<dnnl_data_type_t>(99)),
            bad);
    // A host scalar is one value.
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_DST, 1, 0, nullptr, dnnl_f32, 1),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_DST, 0, 2, groups, dnnl_f32, 1),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v3(attr, DNNL_ARG_DST, 0, 0, nullptr, dnnl_f32, 0,
                      static_cast<dnnl_quantization_mode_t>(9)),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(nullptr, DNNL_ARG_SRC, 0), bad);
}

TEST_F(attr_fixture, zero_points_and_precomputed_reductions_reject_bad_input) {
    dnnl_dims_t groups = {32, 1};
    dnnl_dims_t zero = {0, 0};
    const auto bad = dnnl_invalid_arguments;
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, -2), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, 0, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 3, 2, nullptr, dnnl_s32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 3, 2, zero, dnnl_s32), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(
                      attr, DNNL_ARG_SRC, 3, 2, groups, dnnl_data_type_undef),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_v2(attr, DNNL_ARG_DST, 2, 0, nullptr, dnnl_s8, 1),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(attr, 0, 0, 0, nullptr, dnnl_s32), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_SRC, -1, 0, nullptr, dnnl_s32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_SRC, 3, 2, zero, dnnl_s32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_SRC, 3, 2, groups, dnnl_data_type_undef),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      attr, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s32),
            bad);
}

TEST_F(attr_fixture, rounding_mode_is_per_argument) {
    ASSERT_EQ(dnnl_primitive_attr_set_rounding(attr, DNNL_ARG_DST, dnnl_rounding_mode_stochastic),
            dnnl_success);
    dnnl_rounding_mode_t m = dnnl_rounding_mode_environment;
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(attr, DNNL_ARG_DST, &m), dnnl_success);
    EXPECT_EQ(m, dnnl_rounding_mode_stochastic);
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(attr, DNNL_ARG_DIFF_SRC, &m), dnnl_success);
    EXPECT_EQ(m, dnnl_rounding_mode_environment);
    // Back to the environment mode is back to the default.
    ASSERT_EQ(dnnl_primitive_attr_set_rounding(attr, DNNL_ARG_DST, dnnl_rounding_mode_environment),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(attr, DNNL_ARG_DST, &m), dnnl_success);
    EXPECT_EQ(m, dnnl_rounding_mode_environment);

    EXPECT_EQ(dnnl_primitive_attr_set_rounding(
                      attr, DNNL_ARG_DST, static_cast<dnnl_rounding_mode_t>(2)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(attr, 0, dnnl_rounding_mode_stochastic),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(attr, DNNL_ARG_DST, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_rounding(nullptr, DNNL_ARG_DST, &m),
            dnnl_invalid_arguments);
}

TEST_F(attr_fixture, dropout_round_trips) {
    ASSERT_EQ(dnnl_primitive_attr_set_dropout(attr, md_full), dnnl_success);
    const_dnnl_memory_desc_t got = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_dropout(attr, &got), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(got, md_full), 1);
    dnnl_data_type_t seed = dnnl_f32;
    int offset = 7, host = 7;
    ASSERT_EQ(dnnl_primitive_attr_get_dropout_v2(attr, &got, &seed, &offset, &host),
            dnnl_success);
    EXPECT_EQ(seed, dnnl_s32);
    EXPECT_EQ(offset, 0);
    EXPECT_EQ(host, 0);

    ASSERT_EQ(dnnl_primitive_attr_set_dropout_v2(attr, md_c, dnnl_s64, 1, 1), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_get_dropout_v2(attr, &got, &seed, &offset, &host),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(got, md_c), 1);
    EXPECT_EQ(seed, dnnl_s64);
    EXPECT_EQ(offset, 1);
    EXPECT_EQ(host, 1);
    EXPECT_EQ(dnnl_primitive_attr_get_dropout_v2(attr, &got, nullptr, nullptr, nullptr),
            dnnl_success);

    // Dropout with no mask output: still enabled, the mask descriptor is the zero one.
    dnnl_primitive_attr_t b = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&b), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_dropout(b, nullptr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_get_dropout(b, &got), dnnl_success);
    EXPECT_EQ(md_ndims(got), 0);
    EXPECT_EQ(dnnl_primitive_attr_destroy(b), dnnl_success);

    EXPECT_EQ(dnnl_primitive_attr_set_dropout_v2(attr, md_c, dnnl_f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_dropout(attr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_dropout_v2(attr, nullptr, &seed, &offset, &host),
            dnnl_invalid_arguments);
}

TEST_F(attr_fixture, post_ops_of_every_kind_round_trip) {
    append_all_kinds(po, md_c, md_full);
    ASSERT_EQ(dnnl_post_ops_len(po), 6);
    const dnnl_primitive_kind_t kinds[] = {dnnl_sum, dnnl_eltwise, dnnl_convolution, dnnl_binary,
            dnnl_binary, dnnl_prelu};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(dnnl_post_ops_get_kind(po, i), kinds[i]) << i;
    EXPECT_EQ(dnnl_post_ops_get_kind(po, 6), dnnl_undefined_primitive);
    EXPECT_EQ(dnnl_post_ops_get_kind(po, -1), dnnl_undefined_primitive);
    EXPECT_EQ(dnnl_post_ops_get_kind(nullptr, 0), dnnl_undefined_primitive);

    float scale = 0.f;
    int32_t zp = 0;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    ASSERT_EQ(dnnl_post_ops_get_params_sum(po, 0, &scale, &zp, &dt), dnnl_success);
    EXPECT_EQ(scale, 0.5f);
    EXPECT_EQ(zp, 3);
    EXPECT_EQ(dt, dnnl_s8);
    scale = 0.f;
    EXPECT_EQ(dnnl_post_ops_get_params_sum(po, 0, &scale, nullptr, nullptr), dnnl_success);
    EXPECT_EQ(scale, 0.5f);

    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    float alpha = 0.f, beta = 0.f;
    ASSERT_EQ(dnnl_post_ops_get_params_eltwise(po, 1, &alg, &alpha, &beta), dnnl_success);
    EXPECT_EQ(alg, dnnl_eltwise_clip);
    EXPECT_EQ(alpha, -1.f);
    EXPECT_EQ(beta, 2.f);

    dnnl_data_type_t wei = dnnl_data_type_undef, bia = dnnl_data_type_undef,
                     dst = dnnl_data_type_undef;
    dnnl_dim_t k = 0, s = 0, p = 0;
    ASSERT_EQ(dnnl_post_ops_get_params_dw(po, 2, &wei, &bia, &dst, &k, &s, &p), dnnl_success);
    EXPECT_EQ(wei, dnnl_s8);
    EXPECT_EQ(bia, dnnl_f32);
    EXPECT_EQ(dst, dnnl_u8);
    EXPECT_EQ(k, 3);
    EXPECT_EQ(s, 2);
    EXPECT_EQ(p, 1);

    const_dnnl_memory_desc_t src1 = nullptr, src2 = nullptr;
    ASSERT_EQ(dnnl_post_ops_get_params_binary(po, 3, &alg, &src1), dnnl_success);
    EXPECT_EQ(alg, dnnl_binary_mul);
    EXPECT_EQ(dnnl_memory_desc_equal(src1, md_c), 1);
    ASSERT_EQ(dnnl_post_ops_get_params_binary_v2(po, 3, &alg, &src1, &src2), dnnl_success);
    ASSERT_NE(src2, nullptr);
    EXPECT_EQ(md_ndims(src2), 0); // no third operand for binary_mul
    ASSERT_EQ(dnnl_post_ops_get_params_binary_v2(po, 4, &alg, &src1, &src2), dnnl_success);
    EXPECT_EQ(alg, dnnl_binary_select);
    EXPECT_EQ(dnnl_memory_desc_equal(src1, md_c), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(src2, md_full), 1);

    int mask = -1;
    ASSERT_EQ(dnnl_post_ops_get_params_prelu(po, 5, &mask), dnnl_success);
    EXPECT_EQ(mask, 2);
}

TEST_F(attr_fixture, post_op_getters_check_index_and_kind) {
    append_all_kinds(po, md_c, md_full);
    float f = 0.f;
    int mask = 0;
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    const_dnnl_memory_desc_t md = nullptr;
    const auto bad = dnnl_invalid_arguments;
    // Wrong kind at a valid index.
    EXPECT_EQ(dnnl_post_ops_get_params_sum(po, 1, &f, nullptr, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_eltwise(po, 0, &alg, &f, &f), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_dw(po, 3, &dt, nullptr, nullptr, nullptr, nullptr,
                      nullptr),
            bad);
    EXPECT_EQ(dnnl_post_ops_get_params_binary(po, 5, &alg, &md), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_binary_v2(po, 2, &alg, &md, &md), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(po, 4, &mask), bad);
    // Out of range.
    EXPECT_EQ(dnnl_post_ops_get_params_sum(po, -1, &f, nullptr, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(po, 6, &mask), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_eltwise(po, 100, &alg, &f, &f), bad);
    // Null post-ops or first output.
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(nullptr, 5, &mask), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_prelu(po, 5, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_get_params_sum(po, 0, nullptr, nullptr, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_len(nullptr), -1);
}

TEST_F(attr_fixture, post_op_appends_reject_bad_input) {
    const auto bad = dnnl_invalid_arguments;
    EXPECT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_binary_add, 0.f, 0.f), bad);
    EXPECT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_alg_kind_undef, 0.f, 0.f), bad);
    EXPECT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_convolution_direct, 0.f, 0.f), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_eltwise_relu, md_c), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_select, md_c), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(po, dnnl_binary_select, md_c, nullptr), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(po, dnnl_binary_select, nullptr, md_c), bad);
    EXPECT_EQ(dnnl_post_ops_append_sum(po, 1.f, 0, static_cast<dnnl_data_type_t>(77)), bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_f32, dnnl_u8, 0, 1, 0), bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_f32, dnnl_u8, 3, 0, 1), bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_f32, dnnl_u8, 3, 1, -1), bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(
                      po, dnnl_data_type_undef, dnnl_f32, dnnl_u8, 3, 1, 1),
            bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_f32, dnnl_data_type_undef, 3, 1, 1),
            bad);
    EXPECT_EQ(dnnl_post_ops_append_prelu(po, -1), bad);
    EXPECT_EQ(dnnl_post_ops_append_prelu(nullptr, 0), bad);
    EXPECT_EQ(dnnl_post_ops_len(po), 0);
    // Valid corner cases: no bias for dw, no data type for sum, non-select binary_v2 with null
    // src2 (ignored).
    EXPECT_EQ(dnnl_post_ops_append_dw(po, dnnl_s8, dnnl_data_type_undef, dnnl_u8, 3, 1, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(po, dnnl_binary_add, md_c, nullptr), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu_use_dst_for_bwd, 0.f, 0.f),
            dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(po), 4);
}

TEST_F(attr_fixture, set_post_ops_copies_and_get_returns_the_attrs_own) {
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    // Changing or destroying the source does not touch the attr's copy.
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_destroy(po), dnnl_success);
    po = nullptr;
    const_dnnl_post_ops_t own = nullptr, again = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_post_ops(attr, &own), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_get_post_ops(attr, &again), dnnl_success);
    EXPECT_EQ(own, again);
    ASSERT_EQ(dnnl_post_ops_len(own), 1);
    EXPECT_EQ(dnnl_post_ops_get_kind(own, 0), dnnl_eltwise);
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    float a = 1.f, b = 1.f;
    EXPECT_EQ(dnnl_post_ops_get_params_eltwise(own, 0, &alg, &a, &b), dnnl_success);
    EXPECT_EQ(alg, dnnl_eltwise_relu);

    // The attr's post-ops are not a handle of their own: they cannot be changed or destroyed.
    auto *writable = const_cast<dnnl_post_ops_t>(own);
    EXPECT_EQ(dnnl_post_ops_append_prelu(writable, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_destroy(writable), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_len(own), 1);

    // They can be cloned into a handle, and set on another attr (or on the same one).
    dnnl_post_ops_t copy = nullptr;
    ASSERT_EQ(dnnl_post_ops_clone(&copy, own), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_prelu(copy, 1), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(copy), 2);
    EXPECT_EQ(dnnl_post_ops_len(own), 1);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, own), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(own), 1);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, copy), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(own), 2);
    EXPECT_EQ(dnnl_post_ops_destroy(copy), dnnl_success);

    EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_post_ops(attr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_get_post_ops(nullptr, &own), dnnl_invalid_arguments);
}

TEST_F(attr_fixture, rnn_qparams_round_trip_as_copies) {
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, 63.f, 64.f), dnnl_success);
    float scale = 0.f, shift = 0.f;
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_data_qparams(attr, &scale, &shift), dnnl_success);
    EXPECT_EQ(scale, 63.f);
    EXPECT_EQ(shift, 64.f);

    std::vector<float> values = {0.5f, 0.25f, 2.f};
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 3, 24, values.data()),
            dnnl_success);
    values[0] = 9.f; // the attr holds its own copy
    dnnl_dim_t count = 0;
    int mask = 0;
    const float *got = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_rnn_weights_qparams(attr, &count, &mask, &got),
            dnnl_success);
    ASSERT_EQ(count, 3);
    EXPECT_EQ(mask, 24);
    EXPECT_EQ(got[0], 0.5f);
    EXPECT_EQ(got[2], 2.f);
    const float *again = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_rnn_weights_qparams(attr, &count, nullptr, &again),
            dnnl_success);
    EXPECT_EQ(got, again); // internal storage, not a fresh copy

    std::vector<float> proj = {4.f, 8.f};
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, 2, 8, proj.data()),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_get_rnn_weights_projection_qparams(attr, &count, &mask, &got),
            dnnl_success);
    ASSERT_EQ(count, 2);
    EXPECT_EQ(mask, 8);
    EXPECT_EQ(got[1], 8.f);
    // Weights scales are unchanged by the projection ones.
    ASSERT_EQ(dnnl_primitive_attr_get_rnn_weights_qparams(attr, &count, &mask, &got),
            dnnl_success);
    EXPECT_EQ(count, 3);

    const auto bad = dnnl_invalid_arguments;
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 0, 0, values.data()), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, -1, 0, values.data()), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 1, -1, values.data()), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 1, 0, nullptr), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, 1, 0, nullptr), bad);
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_weights_qparams(attr, nullptr, &mask, &got), bad);
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_weights_projection_qparams(nullptr, &count, &mask,
                      &got),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_get_rnn_data_qparams(attr, nullptr, &shift), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(nullptr, 1.f, 0.f), bad);
}

TEST_F(attr_fixture, clone_is_independent) {
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user),
            dnnl_success);
    dnnl_primitive_attr_t c = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_clone(&c, attr), dnnl_success);
    ASSERT_NE(c, attr);

    ASSERT_EQ(dnnl_primitive_attr_set_scratchpad_mode(c, dnnl_scratchpad_mode_library),
            dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_prelu(po, 0), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(c, po), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(c, DNNL_ARG_DST, 0), dnnl_success);

    dnnl_scratchpad_mode_t sp = dnnl_scratchpad_mode_library;
    EXPECT_EQ(dnnl_primitive_attr_get_scratchpad_mode(attr, &sp), dnnl_success);
    EXPECT_EQ(sp, dnnl_scratchpad_mode_user);
    const_dnnl_post_ops_t own = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_post_ops(attr, &own), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(own), 1);

    // Destroying the original leaves the clone whole.
    ASSERT_EQ(dnnl_primitive_attr_destroy(attr), dnnl_success);
    attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_get_post_ops(c, &own), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(own), 2);
    EXPECT_EQ(dnnl_primitive_attr_destroy(c), dnnl_success);

    dnnl_post_ops_t pc = nullptr;
    ASSERT_EQ(dnnl_post_ops_clone(&pc, po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_sum(pc, 1.f, 0, dnnl_data_type_undef), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_len(pc), 3);
    EXPECT_EQ(dnnl_post_ops_len(po), 2);
    EXPECT_EQ(dnnl_post_ops_destroy(pc), dnnl_success);
}

TEST_F(attr_fixture, create_and_clone_reject_null) {
    dnnl_primitive_attr_t a = nullptr;
    dnnl_post_ops_t p = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_clone(nullptr, attr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_clone(&a, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_create(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_clone(nullptr, po), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_post_ops_clone(&p, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(a, nullptr);
    EXPECT_EQ(p, nullptr);
    // Destroying nothing is fine, as with free().
    EXPECT_EQ(dnnl_primitive_attr_destroy(nullptr), dnnl_success);
    EXPECT_EQ(dnnl_post_ops_destroy(nullptr), dnnl_success);
}

TEST_F(attr_fixture, destroyed_handles_are_refused) {
    dnnl_primitive_attr_t a = nullptr;
    dnnl_post_ops_t p = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&a), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_create(&p), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_destroy(a), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_destroy(p), dnnl_success);
    const auto bad = dnnl_invalid_arguments;
    dnnl_dims_t groups = {1, 1};
    EXPECT_EQ(dnnl_primitive_attr_destroy(a), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode(a, dnnl_fpmath_mode_bf16), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(a, dnnl_fpmath_mode_bf16, 1), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_accumulation_mode(a, dnnl_accumulation_mode_any), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_deterministic(a, 1), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scratchpad_mode(a, dnnl_scratchpad_mode_user), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(a, DNNL_ARG_SRC, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales(a, DNNL_ARG_SRC, 3, 2, groups, dnnl_f32), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v2(a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_scales_v3(a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32, 0,
                      dnnl_quantization_mode_static_sazp),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(a, DNNL_ARG_SRC, 0), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points(a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s32), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_zero_points_v2(a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s32, 0),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_precomputed_reductions(
                      a, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_s32),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rounding(a, DNNL_ARG_DST, dnnl_rounding_mode_stochastic),
            bad);
    EXPECT_EQ(dnnl_primitive_attr_set_post_ops(a, po), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout(a, md_c), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout_v2(a, md_c, dnnl_s32, 0, 0), bad);
    float one = 1.f;
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(a, 1.f, 0.f), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(a, 1, 0, &one), bad);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(a, 1, 0, &one), bad);

    EXPECT_EQ(dnnl_post_ops_destroy(p), bad);
    EXPECT_EQ(dnnl_post_ops_append_sum(p, 1.f, 0, dnnl_data_type_undef), bad);
    EXPECT_EQ(dnnl_post_ops_append_eltwise(p, dnnl_eltwise_relu, 0.f, 0.f), bad);
    EXPECT_EQ(dnnl_post_ops_append_dw(p, dnnl_s8, dnnl_f32, dnnl_u8, 3, 1, 1), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary(p, dnnl_binary_add, md_c), bad);
    EXPECT_EQ(dnnl_post_ops_append_binary_v2(p, dnnl_binary_select, md_c, md_c), bad);
    EXPECT_EQ(dnnl_post_ops_append_prelu(p, 0), bad);
}

TEST(attr_cpp, primitive_attr_and_post_ops_round_trip) {
    dnnl::post_ops ops;
    ops.append_sum(2.f);
    ops.append_eltwise(dnnl::algorithm::eltwise_linear, 0.5f, 1.f);
    ops.append_prelu(1);
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1);
    attr.set_scales(DNNL_ARG_SRC, 3, {1, 16}, dnnl::memory::data_type::bf16);
    attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
    attr.set_fpmath_mode(dnnl::fpmath_mode::tf32, true);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    attr.set_accumulation_mode(dnnl::accumulation_mode::relaxed);
    attr.set_deterministic(true);
    attr.set_rounding_mode(DNNL_ARG_DST, dnnl::rounding_mode::stochastic);

    dnnl::post_ops got = attr.get_post_ops();
    ASSERT_EQ(got.len(), 3);
    EXPECT_EQ(got.kind(0), dnnl::primitive::kind::sum);
    EXPECT_EQ(got.kind(1), dnnl::primitive::kind::eltwise);
    EXPECT_EQ(got.kind(2), dnnl::primitive::kind::prelu);
    float scale = 0.f;
    got.get_params_sum(0, scale);
    EXPECT_EQ(scale, 2.f);
    dnnl::algorithm alg = dnnl::algorithm::undef;
    float alpha = 0.f, beta = 0.f;
    got.get_params_eltwise(1, alg, alpha, beta);
    EXPECT_EQ(alg, dnnl::algorithm::eltwise_linear);
    EXPECT_EQ(alpha, 0.5f);
    EXPECT_EQ(beta, 1.f);
    int mask = 0;
    got.get_params_prelu(2, mask);
    EXPECT_EQ(mask, 1);

    dnnl::fpmath_mode mode = dnnl::fpmath_mode::strict;
    bool to_int = false;
    attr.get_fpmath_mode(mode, to_int);
    EXPECT_EQ(mode, dnnl::fpmath_mode::tf32);
    EXPECT_TRUE(to_int);
    EXPECT_EQ(attr.get_scratchpad_mode(), dnnl::scratchpad_mode::user);
    EXPECT_EQ(attr.get_accumulation_mode(), dnnl::accumulation_mode::relaxed);
    EXPECT_TRUE(attr.get_deterministic());
    EXPECT_EQ(attr.get_rounding_mode(DNNL_ARG_DST), dnnl::rounding_mode::stochastic);

    // get_post_ops hands out a copy.
    got.append_sum(1.f);
    EXPECT_EQ(attr.get_post_ops().len(), 3);
}

TEST(attr_cpp, bad_input_throws) {
    dnnl::post_ops ops;
    EXPECT_THROW(ops.append_eltwise(dnnl::algorithm::binary_add, 0.f, 0.f), dnnl::error);
    EXPECT_THROW(ops.append_prelu(-1), dnnl::error);
    dnnl::primitive_attr attr;
    EXPECT_THROW(attr.set_scales_mask(DNNL_ARG_SRC, -1), dnnl::error);
    EXPECT_THROW(attr.set_scales(DNNL_ARG_SRC, 3, {0, 16}), dnnl::error);
    EXPECT_THROW(attr.set_rnn_weights_qparams(0, {}), dnnl::error);
    std::vector<float> scales;
    int mask = -1;
    attr.get_rnn_weights_qparams(mask, scales);
    ASSERT_EQ(scales.size(), 1u);
    EXPECT_EQ(scales[0], 1.f);
    EXPECT_EQ(mask, 0);
}
