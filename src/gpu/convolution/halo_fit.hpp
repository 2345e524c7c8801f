// Whether the persistent halo kernel of gpu/gemm/hopper/wgmma_conv_halo.cu can run a
// channels-last convolution: it gathers 64 input channels in place at stride 1 without
// dilation, holds K = KH * KW * 64 <= 576 of weights in shared memory, needs taps to share
// pixels between, and a tile's taps reach at most halo_extra_lines input pixels past the
// tile's own lines (P = OW + KW - 1 per row).
#pragma once

#include <cstdint>

#include "gpu/convolution/nhwc_gemm_geometry.hpp"

namespace anydnn {
namespace gpu {

// The kernel's halo_extra_lines: (KH - 1) * P + KW - 1 at most.
constexpr int64_t halo_extra_lines = 136;

// Null where the kernel takes the problem, else why not. `padded`: the channels are copied
// padded to a multiple of 8 first (never taken).
const char *halo_misfit(const nhwc_conv_geometry_t &q, bool padded);

} // namespace gpu
} // namespace anydnn
