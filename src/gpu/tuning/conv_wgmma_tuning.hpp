// The implicit-GEMM convolution's rows of the device tuning table: which kernel of
// gpu/gemm/hopper/wgmma_conv.cu runs a problem: a tile per CTA ("<BN>x64s4p1", 128 output
// pixels by BN channels, 4 shared-memory stages) or, where it fits, a persistent one that
// reads each input pixel about twice instead of once per tap (wgmma_conv_halo.cu), and
// whether channel counts that are not multiples of 8 are padded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct conv_wgmma_tuning_t {
    int tile_n = 0; // BN: 64, 128 or 256 output channels per tile
    // IC not a multiple of 8: copy src and weights with channels padded to 8 (scratchpad)
    // rather than leave the problem to the next implementation.
    bool pad_channels = true;
    // The persistent kernel that loads each tile's input pixels once for all taps and keeps
    // the weights in shared memory (wgmma_conv_halo.cu), where the problem fits it (64 input
    // channels, stride 1, K <= 576): "m<halves of 128 rows>s<runs in shared memory>", e.g.
    // "m1s2", with "p" the warpgroups walking tiles apart ("m1s2p"), "t" the same with the
    // product swapped (channels by pixels, "m2s1t"); empty: the tile kernels.
    // The default row takes "m1s1" (two CTAs an SM) up to 64 output channels.
    std::string halo;
    std::string why; // the row and the reason, for verbose dispatch
};

// The kernel's name without the type prefix and epilogue suffix ("64x64s4p1").
std::string conv_wgmma_config(const conv_wgmma_tuning_t &tuning);

// The persistent kernels' configurations, in the order they are named ("m1s2", ...).
const std::vector<std::string> &conv_wgmma_halo_configs();

// The choice for M = N * OH * OW output pixels, N output channels and K = KH * KW * IC (IC
// as gathered). ANYDNN_GPU_TUNING's "conv_wgmma" section ("conv_wgmma:tile_n=128,pad=0",
// "halo=m2s2" or "halo=off") overrides it; dnnl_unimplemented (with the reason) for an
// override that does not parse.
status_t conv_wgmma_tuning(const device_caps_t &caps, int64_t m, int64_t n, int64_t k,
        conv_wgmma_tuning_t &tuning);

} // namespace gpu
} // namespace anydnn
