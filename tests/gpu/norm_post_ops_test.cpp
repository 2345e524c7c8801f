// The normalizations' attributes (tests/primitives/norm_post_ops_cases.hpp) on the OpenCL
// engine, every GPU implementation that accepts each case. Skipped without an OpenCL device.
#include "primitives/norm_post_ops_cases.hpp"

namespace {

struct GpuNormPostOps : public ::testing::Test {
    void SetUp() override {
        SKIP_WITHOUT_GPU();
        ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    }
    void TearDown() override {
        if (gpu) dnnl_engine_destroy(gpu);
        if (cpu) dnnl_engine_destroy(cpu);
    }
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
};

TEST_F(GpuNormPostOps, LnormEltwiseBinaryScalesInt8Dst) {
    norm_post_ops_cases::lnorm_post_ops(cpu, gpu);
}

TEST_F(GpuNormPostOps, LnormRefusesSumPreluAndBackwardPostOps) {
    norm_post_ops_cases::lnorm_refusals(gpu);
}

TEST_F(GpuNormPostOps, BnormReluPostOp) {
    norm_post_ops_cases::bnorm_post_ops(cpu, gpu);
}

TEST_F(GpuNormPostOps, GnormScalesInt8DstInTraining) {
    norm_post_ops_cases::gnorm_scales(cpu, gpu);
}

TEST_F(GpuNormPostOps, SoftmaxInt8DstInTraining) {
    norm_post_ops_cases::softmax_int8_dst(cpu, gpu);
}

} // namespace
