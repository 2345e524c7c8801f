// The GEMM rows of the device tuning table: which kernel variant and which tile shapes the
// shared GEMM core (gpu/gemm) takes on a device, looked up device -> architecture -> vendor ->
// default (CPU devices and GPUs have their own defaults), with an environment override.
#pragma once

#include <cstdint>
#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

enum class gemm_variant_t {
    generic, // one work-item per element of C: any device
    tiled_cpu, // one work-item per block, packed local panels, wide vectors: CPU devices
    tiled_wg, // work-groups of work-items with register tiles over local tiles: GPUs
    fma_8x8, // 16 x 16 work-items of 8 x 8 over 128 x 128 blocks, double-buffered: GPUs
    skinny, // few rows or columns of C (GEMV): K split over work-groups, streamed in vectors
    mma_sync, // tensor cores through inline PTX mma.sync (bf16, f16)
    // strict f32 on the FMA units, sm_80 PTX (gpu/gemm/sgemm) where the device loads it;
    // launches it refuses run fma_8x8 (KT of the row)
    sgemm_ptx,
};

const char *gemm_variant_name(gemm_variant_t v);

// What the choice depends on besides the device.
struct gemm_problem_t {
    dnnl_data_type_t a = dnnl_f32, b = dnnl_f32, c = dnnl_f32;
    int64_t c_elems = 0; // elements of C over all batches (0: not known)
    int64_t m = 0; // rows of C (0: not known, or not the same at every launch)
    int64_t n = 0; // columns of C (0: not known, or not the same at every launch)
    // B's K is dense (known at creation: the inner product's weights, a matmul's through
    // skinny_k_dense of their strides)
    bool k_dense_b = false;
    bool basic_only = false; // only tiled_wg and tiled_cpu rows (after another failed to build)
};

struct gemm_tuning_t {
    gemm_variant_t variant = gemm_variant_t::generic;
    // tiled_wg: work-items of a group along M and N, each TM x TN elements, KT deep local
    // tiles, VW-lane vectors. tiled_cpu: BM x BN blocks of TM x TN register tiles, KT deep.
    // fma_8x8: KT deep slices (the rest is fixed by the kernel). skinny (gemm_skinny.cl): up
    // to TM rows of C (or columns, A and B of one type), work-groups of WG_N lanes along the
    // large operand's dense dimension (4 elements each) times WG_M lanes; K split into slices
    // of work-groups until there are TN work-groups per compute unit, no slice under KT deep;
    // STAGES loads in flight per work-item; VW 4.
    // mma_sync: WG_M x WG_N warps, each TM x TN mma tiles (16 x 8), KT deep stages, STAGES of
    // them in flight.
    int wg_m = 1, wg_n = 1, tm = 1, tn = 1, bm = 1, bn = 1, kt = 1, vw = 1, stages = 1;
    // Registers per work-item the compiler may use (0: its choice): more work-groups per
    // compute unit. Only where the compiler takes a limit (NVIDIA's -cl-nv-maxrregcount).
    int regs = 0;
    // Where the row came from and which rows were passed over: for verbose dispatch.
    std::string why;
};

// The row for `problem` on the device. dnnl_unimplemented (with the reason) when no tiled row
// fits the device or the override names one that does not fit.
// ANYDNN_GPU_TUNING="gemm:variant=tiled_wg,tm=8,tn=8,..." replaces the variant and any field
// (names as above, and regs) of the chosen row: for tuning and for tests (the "gemm" section
// of the variable, tuning_override.hpp).
status_t gemm_tuning(const device_caps_t &caps, const gemm_problem_t &problem,
        gemm_tuning_t &tuning);

} // namespace gpu
} // namespace anydnn
