// The rows of the device tuning table for operations other than the GEMM (gemm_tuning.hpp):
// which form of a kernel a device takes. Defaults for CPU devices and for GPUs; device,
// architecture and vendor rows go here when a measurement asks for them.
#pragma once

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct op_tuning_t {
    // Reductions over rows (softmax, norms): a work-group per row, or a work-item per row
    // where work-groups are threads of their own and a barrier costs more than it saves.
    bool reduce_in_groups = true;
    // Fused SDPA: unrolled inner loops (GPUs) or compact ones (CPU devices' vectorizers).
    bool sdpa_unroll = true;
    // Plain reorders: elements per work-item.
    int reorder_vector = 4;
    // Blocked f32 reorders: a block through registers per work-item.
    bool reorder_blocked_in_registers = false;
    // RNN state copies: a row per work-item (index math once per row) or an element each.
    bool rnn_copy_rows = false;
};

const op_tuning_t &op_tuning(const device_caps_t &caps);

} // namespace gpu
} // namespace anydnn
