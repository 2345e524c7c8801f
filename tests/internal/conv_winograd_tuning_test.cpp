// The Winograd convolution's row of the GPU tuning table: alg_kind auto takes Winograd only
// where the f32 GEMMs run on the PTX kernels of a GPU and channels are many, and the
// "conv_winograd" section of ANYDNN_GPU_TUNING overrides it (or is refused with a reason).
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "gpu/tuning/conv_winograd_tuning.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

device_caps_t gpu_caps(bool cpu) {
    device_caps_t c;
    c.name = cpu ? "pthread-cpu" : "NVIDIA H200";
    c.vendor = cpu ? "PoCL" : "NVIDIA Corporation";
    c.compute_units = cpu ? 2 : 132;
    c.is_cpu = cpu;
    return c;
}

struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

} // namespace

TEST(conv_winograd_tuning, auto_takes_winograd_for_many_channels_on_ptx_gemms) {
    conv_winograd_tuning_t t;
    ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 256, 256, t),
            dnnl_success);
    EXPECT_TRUE(t.for_auto) << t.why;
    ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 64, 64, t),
            dnnl_success);
    EXPECT_TRUE(t.for_auto) << t.why;
    // Too few channels on either side: direct.
    ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 32, 256, t),
            dnnl_success);
    EXPECT_FALSE(t.for_auto) << t.why;
    ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 256, 63, t),
            dnnl_success);
    EXPECT_FALSE(t.for_auto) << t.why;
    EXPECT_NE(t.why.find("under 64"), std::string::npos) << t.why;
}

TEST(conv_winograd_tuning, auto_stays_direct_without_ptx_gemms) {
    conv_winograd_tuning_t t;
    for (gemm_variant_t v : {gemm_variant_t::fma_8x8, gemm_variant_t::tiled_wg,
                 gemm_variant_t::tiled_cpu, gemm_variant_t::generic}) {
        ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), v, 512, 512, t), dnnl_success);
        EXPECT_FALSE(t.for_auto) << gemm_variant_name(v) << ": " << t.why;
    }
    ASSERT_EQ(conv_winograd_tuning(gpu_caps(true), gemm_variant_t::sgemm_ptx, 512, 512, t),
            dnnl_success);
    EXPECT_FALSE(t.for_auto) << t.why;
}

TEST(conv_winograd_tuning, override_turns_it_on_and_off_and_refuses_other_text) {
    conv_winograd_tuning_t t;
    {
        tuning_env_t env("conv_winograd:auto=1");
        ASSERT_EQ(conv_winograd_tuning(gpu_caps(true), gemm_variant_t::tiled_cpu, 3, 5, t),
                dnnl_success);
        EXPECT_TRUE(t.for_auto);
        EXPECT_NE(t.why.find("ANYDNN_GPU_TUNING"), std::string::npos) << t.why;
    }
    {
        tuning_env_t env("gemm:kt=8;conv_winograd:auto=0");
        ASSERT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 256, 256, t),
                dnnl_success);
        EXPECT_FALSE(t.for_auto);
    }
    {
        tuning_env_t env("conv_winograd:auto=yes");
        EXPECT_EQ(conv_winograd_tuning(gpu_caps(false), gemm_variant_t::sgemm_ptx, 256, 256, t),
                dnnl_unimplemented);
    }
}

TEST(conv_winograd_tuning, gemm_tiles_for_one_or_two_128_column_blocks) {
    // 256 x 128 blocks where OC is 128 or 256 (measured at 3x3 256@14); the size's pick else.
    EXPECT_STREQ(conv_winograd_sgemm_tiles(256), "256x128");
    EXPECT_STREQ(conv_winograd_sgemm_tiles(128), "256x128");
    EXPECT_EQ(conv_winograd_sgemm_tiles(64), nullptr);
    EXPECT_EQ(conv_winograd_sgemm_tiles(512), nullptr);
    EXPECT_EQ(conv_winograd_sgemm_tiles(260), nullptr);
    EXPECT_EQ(conv_winograd_sgemm_tiles(1), nullptr);
    // Where the device loads sm_90a PTX: the pipelined 16-deep blocks, 192 x 128, 256 x 64 for
    // 64 channels.
    EXPECT_STREQ(conv_winograd_sgemm_tiles(256, 90), "192x128k16_sm90");
    EXPECT_STREQ(conv_winograd_sgemm_tiles(128, 90), "192x128k16_sm90");
    EXPECT_STREQ(conv_winograd_sgemm_tiles(64, 90), "256x64k16_sm90");
    EXPECT_EQ(conv_winograd_sgemm_tiles(64, 80), nullptr);
    EXPECT_EQ(conv_winograd_sgemm_tiles(512, 90), nullptr);
    EXPECT_EQ(conv_winograd_sgemm_tiles(96, 90), nullptr);
}
