// The wgmma matmul's rows of the device tuning table: which compiled tile configuration of
// gpu/gemm/hopper/wgmma_gemm.cu ("<BN>x<BK>s<stages>p<in flight>", 128 rows per tile, or
// "m64_<BN>x..." of 64 rows) runs a problem, and into how many slices K is split when the
// tiles alone leave compute units idle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct wgmma_tuning_t {
    std::string config; // e.g. "256x64s4p1", or "tma_256x64s4o"
    int tile_m = 128, tile_n = 0, tile_k = 0; // BM, BN and BK of the configuration
    int splits = 1;
    bool core = false; // whether the GEMM core (gemm_kernel_t) may use the kernels
    // A "tma_<BN>x<BK>s<S>[o]" configuration: the kernels of gpu/gemm/hopper/wgmma_tma.cu
    // (bulk tensor copies, a producer warp, a persistent grid), launched differently.
    bool tma = false;
    bool tma_overlap = false; // its "o" form: the next tile's first loads during the epilogue
    std::string why; // the row and the reason, for verbose dispatch
};

// The choice for `batch` products of M x N x K. ANYDNN_GPU_TUNING's "wgmma" section
// ("wgmma:config=128x64s4p1,splits=3,core=0,tma=0", tuning_override.hpp) replaces any of these
// fields: for tuning, tests, and to keep the GEMM core off the kernels. dnnl_unimplemented (with the reason) for an override that does not parse.
// elem_bytes: of A and B (2 bf16/f16, 4 f32 as TF32, 1 8-bit integers); each has its rows.
// tma_ok: the caller launches TMA configurations (the matmul does; the GEMM core where its
// caller booked the maps' workspace, gemm_wgmma_scratchpad_bytes);
// the table gives them where the device loads sm_90a PTX, K > 0 and the override did not say
// tma=0; a forced TMA configuration is ignored where tma_ok is false or they cannot run.
status_t wgmma_tuning(const device_caps_t &caps, int64_t batch, int64_t m, int64_t n, int64_t k,
        wgmma_tuning_t &tuning, int elem_bytes = 2, bool tma_ok = false);

// Every configuration wgmma_tuning may give for `elem_bytes` on this device (the override's
// alone where it names one), each once, with its tile sizes: what a caller that launches
// whatever sizes come loads up front. tma_ok as wgmma_tuning's: the TMA configuration comes
// first where given, the cp.async ones (which take every launch) after it.
status_t wgmma_table_configs(const device_caps_t &caps, int elem_bytes,
        std::vector<wgmma_tuning_t> &configs, bool tma_ok = false);

} // namespace gpu
} // namespace anydnn
