// dnnl_debug.h: enumeration values print as oneDNN prints them; bad values never give NULL.

#include <cstring>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_debug.h"

namespace {

bool starts_with_unknown(const char *s) {
    return s != nullptr && std::strncmp(s, "unknown", 7) == 0;
}

} // namespace

TEST(debug, names_follow_onednn_spelling) {
    EXPECT_STREQ(dnnl_status2str(dnnl_success), "success");
    EXPECT_STREQ(dnnl_status2str(dnnl_invalid_arguments), "invalid_arguments");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f32), "f32");
    EXPECT_STREQ(dnnl_dt2str(dnnl_data_type_undef), "undef");
    EXPECT_STREQ(dnnl_dt2str(dnnl_f8_e4m3), "f8_e4m3");
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_cpu), "cpu");
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_gpu), "gpu");
    EXPECT_STREQ(dnnl_engine_kind2str(dnnl_any_engine), "any");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_forward_training), "forward_training");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_forward), "forward_training");
    EXPECT_STREQ(dnnl_prop_kind2str(dnnl_backward_weights), "backward_weights");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_reorder), "reorder");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_convolution), "convolution");
    EXPECT_STREQ(dnnl_prim_kind2str(dnnl_undefined_primitive), "undef");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_eltwise_relu), "eltwise_relu");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_binary_select), "binary_select");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_reduction_norm_lp_power_p_sum),
            "reduction_norm_lp_power_p_sum");
    EXPECT_STREQ(dnnl_alg_kind2str(dnnl_softmax_log), "softmax_log");
    EXPECT_STREQ(dnnl_fpmath_mode2str(dnnl_fpmath_mode_bf16), "bf16");
    EXPECT_STREQ(dnnl_fpmath_mode2str(dnnl_fpmath_mode_any), "any");
    EXPECT_STREQ(dnnl_accumulation_mode2str(dnnl_accumulation_mode_relaxed), "relaxed");
    EXPECT_STREQ(dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_user), "user");
    EXPECT_STREQ(dnnl_rounding_mode2str(dnnl_rounding_mode_stochastic), "stochastic");
    EXPECT_STREQ(dnnl_quantization_mode2str(dnnl_quantization_mode_dynamic_mx), "dynamic_mx");
    EXPECT_STREQ(dnnl_sparse_encoding2str(dnnl_csr), "csr");
    EXPECT_STREQ(dnnl_rnn_direction2str(dnnl_bidirectional_concat), "bidirectional_concat");
    EXPECT_STREQ(dnnl_rnn_flags2str(dnnl_rnn_flags_undef), "undef");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_blocked), "blocked");
    EXPECT_STREQ(dnnl_fmt_kind2str(dnnl_format_kind_any), "any");
    // oneDNN keeps the "cpu_isa_" part; aliases print as the name declared first.
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_avx512_core), "cpu_isa_avx512_core");
    EXPECT_STREQ(dnnl_cpu_isa2str(dnnl_cpu_isa_avx512_core_amx), "cpu_isa_avx10_1_512_amx");
    EXPECT_STREQ(dnnl_cpu_isa_hints2str(dnnl_cpu_isa_prefer_ymm), "cpu_isa_prefer_ymm");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_OMP), "OpenMP");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_OCL), "OpenCL");
    EXPECT_STREQ(dnnl_runtime2str(DNNL_RUNTIME_NONE), "none");
}

TEST(debug, every_status_and_data_type_has_a_distinct_known_name) {
    std::set<std::string> names;
    for (int v = dnnl_success; v <= dnnl_invalid_data_type; ++v) {
        const char *s = dnnl_status2str(static_cast<dnnl_status_t>(v));
        ASSERT_NE(s, nullptr);
        EXPECT_FALSE(starts_with_unknown(s)) << v;
        names.insert(s);
    }
    EXPECT_EQ(names.size(), 11u);
    names.clear();
    for (int v = dnnl_data_type_undef; v <= dnnl_s64; ++v) {
        const char *s = dnnl_dt2str(static_cast<dnnl_data_type_t>(v));
        ASSERT_NE(s, nullptr);
        EXPECT_FALSE(starts_with_unknown(s)) << v;
        names.insert(s);
    }
    EXPECT_EQ(names.size(), 17u);
}

// Each value is unnamed but inside its enumeration's value range, so the casts are well
// defined. (rnn_flags, scratchpad, rounding and isa hints have no such value.)
TEST(debug, out_of_range_values_give_unknown_not_null) {
    EXPECT_TRUE(starts_with_unknown(dnnl_status2str(static_cast<dnnl_status_t>(15))));
    EXPECT_TRUE(starts_with_unknown(dnnl_dt2str(static_cast<dnnl_data_type_t>(1000))));
    EXPECT_TRUE(starts_with_unknown(dnnl_fpmath_mode2str(static_cast<dnnl_fpmath_mode_t>(7))));
    EXPECT_TRUE(starts_with_unknown(
            dnnl_accumulation_mode2str(static_cast<dnnl_accumulation_mode_t>(7))));
    EXPECT_TRUE(starts_with_unknown(dnnl_engine_kind2str(static_cast<dnnl_engine_kind_t>(3))));
    EXPECT_TRUE(starts_with_unknown(
            dnnl_sparse_encoding2str(static_cast<dnnl_sparse_encoding_t>(7))));
    EXPECT_TRUE(starts_with_unknown(dnnl_prop_kind2str(static_cast<dnnl_prop_kind_t>(1))));
    EXPECT_TRUE(starts_with_unknown(dnnl_prim_kind2str(static_cast<dnnl_primitive_kind_t>(99))));
    EXPECT_TRUE(starts_with_unknown(dnnl_alg_kind2str(static_cast<dnnl_alg_kind_t>(0x999))));
    EXPECT_TRUE(starts_with_unknown(
            dnnl_rnn_direction2str(static_cast<dnnl_rnn_direction_t>(7))));
    EXPECT_TRUE(starts_with_unknown(
            dnnl_quantization_mode2str(static_cast<dnnl_quantization_mode_t>(3 + 4))));
    EXPECT_TRUE(starts_with_unknown(dnnl_cpu_isa2str(static_cast<dnnl_cpu_isa_t>(0x2))));
    EXPECT_TRUE(starts_with_unknown(dnnl_fmt_kind2str(static_cast<dnnl_format_kind_t>(42))));
    EXPECT_TRUE(starts_with_unknown(dnnl_runtime2str(12345u)));
    EXPECT_STREQ(dnnl_status2str(static_cast<dnnl_status_t>(15)), "unknown status");
}
