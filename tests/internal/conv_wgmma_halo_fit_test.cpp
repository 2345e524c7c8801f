// Which convolutions the persistent halo kernel (gpu/gemm/hopper/wgmma_conv_halo.cu) takes:
// 64 input channels gathered in place, stride 1, no dilation, 2 to 9 taps, a window whose
// rows reach at most 136 input pixels past a tile; every other problem gets a reason (the
// tile kernels run it).
#include <gtest/gtest.h>

#include "gpu/convolution/halo_fit.hpp"

namespace {

using namespace anydnn::gpu;

// mb N, 64 -> 64 channels, square H x H input, K x K window, padding P, stride 1.
nhwc_conv_geometry_t conv(int64_t mb, int64_t h, int64_t k, int64_t pad) {
    nhwc_conv_geometry_t q;
    q.mb = mb;
    q.ic = q.oc = 64;
    q.ih = q.iw = h;
    q.kh = q.kw = k;
    q.pad_h = q.pad_w = pad;
    q.oh = q.ow = h + 2 * pad - k + 1;
    return q;
}

} // namespace

TEST(conv_wgmma_halo_fit, resnet_3x3_64_and_small_windows_are_taken) {
    EXPECT_EQ(halo_misfit(conv(64, 56, 3, 1), false), nullptr);
    EXPECT_EQ(halo_misfit(conv(1, 1, 3, 1), false), nullptr);
    nhwc_conv_geometry_t q = conv(2, 9, 3, 0);
    q.kh = 1; // 1x3
    q.oh = 9;
    EXPECT_EQ(halo_misfit(q, false), nullptr);
    EXPECT_EQ(halo_misfit(conv(2, 11, 2, 1), false), nullptr);
    // The widest row a 3x3 window allows: (3 - 1) * P + 2 <= 136, P = OW + 2 = 67.
    EXPECT_EQ(halo_misfit(conv(1, 65, 3, 1), false), nullptr);
}

TEST(conv_wgmma_halo_fit, everything_else_has_a_reason) {
    EXPECT_NE(halo_misfit(conv(64, 56, 3, 1), true), nullptr); // channels padded
    nhwc_conv_geometry_t q = conv(2, 14, 3, 1);
    q.ic = 32;
    EXPECT_NE(halo_misfit(q, false), nullptr);
    q = conv(2, 14, 3, 1);
    q.ic = 128;
    EXPECT_NE(halo_misfit(q, false), nullptr);
    q = conv(2, 13, 3, 1);
    q.stride_w = 2;
    EXPECT_NE(halo_misfit(q, false), nullptr);
    q = conv(2, 14, 3, 2);
    q.dil_h = 2;
    EXPECT_NE(halo_misfit(q, false), nullptr);
    EXPECT_NE(halo_misfit(conv(2, 12, 5, 2), false), nullptr); // K 1600
    EXPECT_NE(halo_misfit(conv(2, 14, 1, 0), false), nullptr); // 1x1
    EXPECT_NE(halo_misfit(conv(1, 66, 3, 1), false), nullptr); // P 68: 138 lines past
    q = conv(1, 56, 3, 1);
    q.g = 2;
    EXPECT_NE(halo_misfit(q, false), nullptr);
    // Output lines past the kernel's 32-bit index.
    q = conv(1, 56, 3, 1);
    q.mb = (int64_t(1) << 31) / (56 * 58) + 1;
    EXPECT_NE(halo_misfit(q, false), nullptr);
}
