#include "gpu/tuning/conv_winograd_tuning.hpp"

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

status_t conv_winograd_tuning(const device_caps_t &caps, gemm_variant_t gemm_variant, int64_t ic,
        int64_t oc, conv_winograd_tuning_t &out) {
    // Winograd does 16 products per 2x2 output block where the direct GEMM does 36, but
    // writes and reads the transformed source and products (16 values per block and channel)
    // through memory: it pays where the f32 GEMM is compute-bound on the FMA units (the PTX
    // kernels, NVIDIA) and channels are many enough for the GEMMs' K and N. H200, mb64:
    // 3x3 64@56 0.450 ms against implicit sgemm 0.569 (cuDNN 0.390), 3x3 256@14 0.364
    // against 0.556 (cuDNN 0.240).
    out = conv_winograd_tuning_t();
    const bool fast_gemm = gemm_variant == gemm_variant_t::sgemm_ptx && !caps.is_cpu;
    out.for_auto = fast_gemm && ic >= 64 && oc >= 64;
    out.why = std::string("default row: ")
              + (out.for_auto ? "auto takes Winograd (f32 PTX GEMMs, IC and OC >= 64)"
                              : fast_gemm ? "auto stays direct (IC or OC under 64)"
                                          : "auto stays direct (no f32 PTX GEMMs here)");
    const std::string spec = tuning_override("conv_winograd");
    if (spec.empty()) return dnnl_success;
    ANYDNN_REQUIRE(spec == "auto=0" || spec == "auto=1", dnnl_unimplemented,
            "ANYDNN_GPU_TUNING conv_winograd section '%s' is not auto=0|1", spec.c_str());
    out.for_auto = spec == "auto=1";
    out.why = "ANYDNN_GPU_TUNING: conv_winograd:" + spec;
    return dnnl_success;
}

const char *conv_winograd_sgemm_tiles(int64_t oc, int ptx_sm) {
    // H100, 3x3 256@14 mb64 (16 products of 3136 x 256 by 256 x 256): 256 x 128 blocks 0.79
    // of cuDNN against 0.66 with the size's pick (64 x 64, no padding but 4 times the shared
    // reads per FMA). OC of one or two 128-column blocks takes them; 64 channels keep the
    // size's pick (128 x 64), wider OC too (not measured). Where the 256 x 128 blocks leave
    // compute units idle, the size picks (sgemm_pick_config). Where the device loads sm_90a
    // PTX, 16-deep slices in pipelined stages; H200, mb64 (ratio to cuDNN): 3x3 256@14 192 x
    // 128 0.88, 256 x 128 0.84 (the sm_80 256 x 128 0.85), 128 x 256 0.84; 3x3 64@56 256 x 64
    // 0.94 (the sm_80 128 x 64 0.85).
    if (ptx_sm >= 90 && oc == 64) return "256x64k16_sm90";
    if (oc % 128 != 0 || oc > 256) return nullptr;
    return ptx_sm >= 90 ? "192x128k16_sm90" : "256x128";
}

} // namespace gpu
} // namespace anydnn
