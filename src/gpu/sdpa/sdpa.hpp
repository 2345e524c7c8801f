// The fused scaled dot-product attention kernel (sdpa.cl) that the graph's sdpa partitions
// run on OpenCL engines: what it covers, its build (head sizes and types fixed), its launch
// (sequence lengths, strides and batch broadcasting as arguments).
#pragma once

#include <cstdint>
#include <memory>

#include "core/compute/compute.hpp"
#include "core/ops/sdpa/fused.hpp"

namespace anydnn {
namespace gpu {

constexpr int sdpa_max_batch_dims = 4;

// Mirrors sdpa_args_t in sdpa.cl field for field (all 64-bit: no padding to agree on).
struct sdpa_args_t {
    int64_t batch[sdpa_max_batch_dims]; // dst batch dims, right-aligned, unused ones 1
    int64_t q_b[sdpa_max_batch_dims], k_b[sdpa_max_batch_dims], v_b[sdpa_max_batch_dims],
            dst_b[sdpa_max_batch_dims], mask_b[sdpa_max_batch_dims]; // broadcast: 0
    int64_t q_off, k_off, v_off, dst_off, mask_off;
    int64_t q_row, q_col; // Q(i, d)
    int64_t k_key, k_col; // K(j, d)
    int64_t v_key, v_col; // V(j, d)
    int64_t dst_row, dst_col;
    int64_t mask_row, mask_col; // broadcast: 0
    int64_t Sq, Sk;
    int64_t stats_b[sdpa_max_batch_dims], stats_off, stats_row; // the training forward's
};
static_assert(sizeof(sdpa_args_t) == 47 * 8, "must match sdpa.cl");

// What a build depends on.
struct sdpa_config_t {
    int64_t D = 0, Dv = 0; // head sizes of Q/K and of V
    dnnl_data_type_t q_dt, k_dt, v_dt, dst_dt, scale_dt = dnnl_f32, mask_dt = dnnl_f32;
    bool has_scale = false, divide = false, has_mask = false;
    int causal = 0; // 0 none, 1 top-left, 2 bottom-right (sdpa_plan_t::causal)
    bool causal_lengths = false; // bottom-right offset from two s32 buffers (causal_lengths)
    bool has_stats = false; // the training forward: softmax statistics to the stats buffer
};

class sdpa_kernel_t {
public:
    // Builds the kernel; dnnl_unimplemented (with a reason) when the types, head sizes or the
    // device's local memory do not fit it.
    status_t init(engine_t *engine, const sdpa_config_t &config);
    // Enqueues on `stream` after its current dependencies. Buffers in order q, k, v, dst,
    // scale, mask, key length, query length, stats (null when absent); nbatch: product of
    // args.batch.
    status_t launch(stream_t *stream, const memory_storage_t *const buffers[sdpa_device_buffers],
            const sdpa_args_t &args, int64_t nbatch) const;

private:
    std::shared_ptr<kernel_t> kernel_;
    size_t group_ = 1; // query rows per work-group
    int block_keys_ = 1;
    bool has_mask_ = false; // the mask tile takes local memory only then
};

} // namespace gpu
} // namespace anydnn
