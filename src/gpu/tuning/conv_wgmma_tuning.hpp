// The implicit-GEMM convolution's rows of the device tuning table: which kernel of
// gpu/gemm/hopper/wgmma_conv.cu runs a problem: a tile per CTA ("<BN>x64s<S>p1", 128 output
// pixels by BN channels, S shared-memory stages) or the weights-resident persistent one
// ("64x64r9": K <= 576), and whether channel counts that are not multiples of 8 are padded.
#pragma once

#include <cstdint>
#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct conv_wgmma_tuning_t {
    int tile_n = 0; // BN: 64, 128 or 256 output channels per tile
    int stages = 4; // S of the tile-per-CTA kernels: 3 or 4
    // The persistent kernel, its weights in shared memory (64 channels a CTA, K <= 576):
    // "64x64r9"; tile_n and stages do not apply then.
    bool resident = false;
    // IC not a multiple of 8: copy src and weights with channels padded to 8 (scratchpad)
    // rather than leave the problem to the next implementation.
    bool pad_channels = true;
    std::string why; // the row and the reason, for verbose dispatch
};

// The kernel's name without the type prefix and epilogue suffix ("64x64s4p1", "64x64r9").
std::string conv_wgmma_config(const conv_wgmma_tuning_t &tuning);

// The K the resident kernel holds at most (9 tiles of 64).
constexpr int64_t conv_wgmma_resident_k = 576;

// The choice for M = N * OH * OW output pixels, N output channels and K = KH * KW * IC (IC
// as gathered). ANYDNN_GPU_TUNING's "conv_wgmma" section ("conv_wgmma:tile_n=128,stages=3,
// pad=0", "conv_wgmma:resident=1") overrides it (resident=1 only where K fits);
// dnnl_unimplemented (with the reason) for an override that does not parse.
status_t conv_wgmma_tuning(const device_caps_t &caps, int64_t m, int64_t n, int64_t k,
        conv_wgmma_tuning_t &tuning);

} // namespace gpu
} // namespace anydnn
