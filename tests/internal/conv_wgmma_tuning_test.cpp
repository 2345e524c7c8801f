// The implicit-GEMM wgmma convolution's row of the GPU tuning table: the tile width from N
// and the compute units, the kernel names it gives, and the "conv_wgmma" section of
// ANYDNN_GPU_TUNING (tile width, channel padding, the persistent halo kernel's configuration;
// other text, such as the removed three-stage and weights-resident kernels' keys, refused).
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "gpu/tuning/conv_wgmma_tuning.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

device_caps_t h200() {
    device_caps_t c;
    c.name = "NVIDIA H200";
    c.vendor = "NVIDIA Corporation";
    c.compute_units = 132;
    return c;
}

struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

} // namespace

TEST(conv_wgmma_tuning, default_row_widest_tile_that_keeps_units_busy) {
    conv_wgmma_tuning_t t;
    // mb64 3x3 64@56: N 64.
    ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 56 * 56, 64, 576, t), dnnl_success);
    EXPECT_EQ(conv_wgmma_config(t), "64x64s4p1") << t.why;
    // ... and the halo kernel first, where the convolution fits it (N <= 64).
    EXPECT_EQ(t.halo, "m1s1") << t.why;
    // mb64 3x3 256@14: 98 tiles of 256 keep more than half of 132 units busy.
    ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 14 * 14, 256, 2304, t), dnnl_success);
    EXPECT_EQ(conv_wgmma_config(t), "256x64s4p1") << t.why;
    EXPECT_TRUE(t.halo.empty()) << t.why;
    // mb8 of the same: 13 tiles of 256 would idle most units; 64 wide gives 52.
    ASSERT_EQ(conv_wgmma_tuning(h200(), 8 * 14 * 14, 256, 2304, t), dnnl_success);
    EXPECT_EQ(t.tile_n, 64) << t.why;
    // N 100: 128 wide, not 256.
    ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 56 * 56, 100, 576, t), dnnl_success);
    EXPECT_EQ(t.tile_n, 128) << t.why;
    EXPECT_TRUE(t.halo.empty()) << t.why;
    EXPECT_TRUE(t.pad_channels);
}

TEST(conv_wgmma_tuning, override_names_tiles_and_padding) {
    conv_wgmma_tuning_t t;
    {
        tuning_env_t env("gemm:kt=8;conv_wgmma:tile_n=128");
        ASSERT_EQ(conv_wgmma_tuning(h200(), 12544, 256, 2304, t), dnnl_success);
        EXPECT_EQ(conv_wgmma_config(t), "128x64s4p1");
        EXPECT_NE(t.why.find("ANYDNN_GPU_TUNING"), std::string::npos) << t.why;
    }
    {
        tuning_env_t env("conv_wgmma:pad=0");
        ASSERT_EQ(conv_wgmma_tuning(h200(), 1000, 64, 72, t), dnnl_success);
        EXPECT_FALSE(t.pad_channels);
    }
    for (const std::string &name : conv_wgmma_halo_configs()) {
        tuning_env_t env(("conv_wgmma:halo=" + name + ",tile_n=128").c_str());
        ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 56 * 56, 64, 576, t), dnnl_success) << name;
        EXPECT_EQ(t.halo, name);
        EXPECT_EQ(t.tile_n, 128);
    }
    {
        tuning_env_t env("conv_wgmma:halo=off");
        ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 56 * 56, 64, 576, t), dnnl_success);
        EXPECT_TRUE(t.halo.empty()) << t.halo;
        EXPECT_EQ(t.tile_n, 64);
    }
    {
        tuning_env_t env("conv_wgmma:halo=m2s3,halo=off");
        ASSERT_EQ(conv_wgmma_tuning(h200(), 64 * 56 * 56, 64, 576, t), dnnl_success);
        EXPECT_TRUE(t.halo.empty()) << t.halo;
    }
    for (const char *bad : {"conv_wgmma:stages=3", "conv_wgmma:tile_n=96", "conv_wgmma:resident=1",
                 "conv_wgmma:tile_n=64,fast", "conv_wgmma:halo=m3s2",
                 "conv_wgmma:halo=", "conv_wgmma:halo=m1s2x"}) {
        tuning_env_t env(bad);
        EXPECT_EQ(conv_wgmma_tuning(h200(), 1000, 64, 72, t), dnnl_unimplemented) << bad;
    }
}
