// Per-channel src/dst zero points of int8 convolution and deconvolution on the GPU engine
// (tests/primitives/conv_zero_points_check.hpp).
#include "primitives/conv_zero_points_check.hpp"

namespace {

bool has_gpu() {
    return dnnl::engine::get_count(dnnl::engine::kind::gpu) > 0;
}

TEST(GpuConvZeroPoints, PerChannelSrcAndDstMatchTheReference) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    conv_zero_points::check_all(dnnl::engine(dnnl::engine::kind::gpu, 0));
}

TEST(GpuConvZeroPoints, OtherMasksWeightsAndFloatAreRefused) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    conv_zero_points::check_refusals(dnnl::engine(dnnl::engine::kind::gpu, 0));
}

} // namespace
