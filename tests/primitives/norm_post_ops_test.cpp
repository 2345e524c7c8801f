// The normalizations' attributes (norm_post_ops_cases.hpp) on the CPU engine, every CPU
// implementation that accepts each case.
#include "primitives/norm_post_ops_cases.hpp"

namespace {

struct norm_post_ops : public ::testing::Test {
    void SetUp() override { ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success); }
    void TearDown() override { dnnl_engine_destroy(cpu); }
    dnnl_engine_t cpu = nullptr;
};

TEST_F(norm_post_ops, lnorm_eltwise_binary_scales_int8_dst) {
    norm_post_ops_cases::lnorm_post_ops(cpu, cpu);
}

TEST_F(norm_post_ops, lnorm_refuses_sum_prelu_and_backward_post_ops) {
    norm_post_ops_cases::lnorm_refusals(cpu);
}

TEST_F(norm_post_ops, bnorm_relu_post_op) {
    norm_post_ops_cases::bnorm_post_ops(cpu, cpu);
}

TEST_F(norm_post_ops, gnorm_scales_int8_dst_in_training) {
    norm_post_ops_cases::gnorm_scales(cpu, cpu);
}

TEST_F(norm_post_ops, softmax_int8_dst_in_training) {
    norm_post_ops_cases::softmax_int8_dst(cpu, cpu);
}

} // namespace
