// The Winograd convolution's row of the device tuning table: whether a convolution created
// with alg_kind auto runs as Winograd F(2x2, 3x3) (ocl:convolution:winograd_f32) rather than
// directly. alg_kind winograd always takes it where it applies; direct never does.
#pragma once

#include <cstdint>
#include <string>

#include "core/compute/compute.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace anydnn {
namespace gpu {

struct conv_winograd_tuning_t {
    bool for_auto = false; // alg_kind auto takes Winograd
    std::string why;       // the row and the reason, for verbose dispatch
};

// The choice for a 3x3 stride-1 f32 convolution of ic input and oc output channels, whose
// transformed GEMMs the core runs with `gemm_variant` on this device. ANYDNN_GPU_TUNING's
// "conv_winograd" section ("conv_winograd:auto=1", or auto=0) overrides it;
// dnnl_unimplemented (with the reason) for an override that does not parse.
status_t conv_winograd_tuning(const device_caps_t &caps, gemm_variant_t gemm_variant, int64_t ic,
        int64_t oc, conv_winograd_tuning_t &tuning);

// The strict f32 PTX kernels' tiles for the Winograd GEMMs (16 products of tiles x IC by
// IC x OC, B K-major) of oc output channels on a device loading PTX up to ptx_sm: a
// configuration name of sgemm_config, or null where the size picks (sgemm_pick_config).
// ANYDNN_GPU_TUNING's sgemm:config still wins.
const char *conv_winograd_sgemm_tiles(int64_t oc, int ptx_sm = 80);

} // namespace gpu
} // namespace anydnn
