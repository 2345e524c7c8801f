// Operations without an implementation yet answer dnnl_unimplemented, with a reason that
// verbose mode prints, and never crash.
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

TEST(not_implemented, lbr_augru_reports_unimplemented_with_reason) {
    dnnl_engine_t engine = nullptr;
    ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
    dnnl_primitive_desc_t pd = reinterpret_cast<dnnl_primitive_desc_t>(&engine);
    ASSERT_EQ(dnnl_set_verbose(1), dnnl_success);
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(dnnl_lbr_augru_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                      dnnl_unidirectional_left2right, nullptr, nullptr, nullptr, nullptr,
                      nullptr, nullptr, nullptr, nullptr, 0, nullptr),
            dnnl_unimplemented);
    std::string out = ::testing::internal::GetCapturedStdout();
    ASSERT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_EQ(pd, nullptr);
    EXPECT_NE(out.find("lbr_augru_forward is not implemented yet"), std::string::npos) << out;
    dnnl_engine_destroy(engine);
}

TEST(not_implemented, rnn_reports_unimplemented) {
    dnnl_engine_t engine = nullptr;
    ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_vanilla_rnn_forward_primitive_desc_create(&pd, engine,
                      dnnl_forward_inference, dnnl_eltwise_tanh,
                      dnnl_unidirectional_left2right, nullptr, nullptr, nullptr, nullptr,
                      nullptr, nullptr, nullptr, 0, 0.f, 0.f, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    dnnl_engine_destroy(engine);
}
