#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

op_tuning_t cpu_devices() {
    op_tuning_t t;
    t.reduce_in_groups = false;
    t.sdpa_unroll = false;
    t.reorder_vector = 1;
    t.reorder_blocked_in_registers = true;
    // int8 LSTM t10 mb16 128 channels on PoCL 15.6 -> 3.2 ms, f32 5.0 -> 2.1 ms.
    t.rnn_copy_rows = true;
    return t;
}

} // namespace

const op_tuning_t &op_tuning(const device_caps_t &caps) {
    static const op_tuning_t cpu = cpu_devices(), gpu;
    return caps.is_cpu ? cpu : gpu;
}

} // namespace gpu
} // namespace anydnn
