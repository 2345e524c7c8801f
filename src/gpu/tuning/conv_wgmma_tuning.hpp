// The implicit-GEMM convolution's rows of the device tuning table: which kernel of
// gpu/gemm/hopper/wgmma_conv.cu runs a problem: a tile per CTA ("<BN>x64s4p1", 128 output
// pixels by BN channels, 4 shared-memory stages), and whether channel counts that are not
// multiples of 8 are padded.
#pragma once

#include <cstdint>
#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct conv_wgmma_tuning_t {
    int tile_n = 0; // BN: 64, 128 or 256 output channels per tile
    // IC not a multiple of 8: copy src and weights with channels padded to 8 (scratchpad)
    // rather than leave the problem to the next implementation.
    bool pad_channels = true;
    std::string why; // the row and the reason, for verbose dispatch
};

// The kernel's name without the type prefix and epilogue suffix ("64x64s4p1").
std::string conv_wgmma_config(const conv_wgmma_tuning_t &tuning);

// The choice for M = N * OH * OW output pixels, N output channels and K = KH * KW * IC (IC
// as gathered). ANYDNN_GPU_TUNING's "conv_wgmma" section ("conv_wgmma:tile_n=128,pad=0")
// overrides it; dnnl_unimplemented (with the reason) for an override that does not parse.
status_t conv_wgmma_tuning(const device_caps_t &caps, int64_t m, int64_t n, int64_t k,
        conv_wgmma_tuning_t &tuning);

} // namespace gpu
} // namespace anydnn
