// The persistent LSTM forward (rnn/cuda/lstm_persistent.cu): after the layer GEMM of all
// steps, one launch runs every step of a (layer, direction), each CTA keeping its units'
// recurrent weights in shared memory, a grid-wide barrier between steps. Where it runs
// (NVIDIA GPUs that load sm_90a PTX; f32 LSTM inference without peepholes or projection,
// weights slices that fit) and its launch shape.
#pragma once

#include <cstdint>

#include "core/compute/compute.hpp"
#include "core/ops/rnn/conf.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

struct exec_t;

// Mirror lstm_persistent.cu: threads per CTA, shared floats for a CTA's weights slice.
constexpr int64_t persistent_threads = 256;
constexpr int64_t persistent_w_cap = 24576;

// One CTA per compute unit at most (all co-resident), `units` hidden units each (the last may
// have fewer), K split into `kgroups` slices so that the CTA's 4-row x 4-unit items fill its
// threads. grid 0: the weights slice does not fit in shared memory.
struct persistent_shape_t {
    int64_t grid = 0, units = 0, kgroups = 0;
};
persistent_shape_t persistent_shape(int64_t compute_units, int64_t N, int64_t H);

// Why the problem takes the per-step path on this device (null: the persistent kernel
// fits); `all_f32`: every tensor of the primitive is f32.
const char *persistent_refusal(const device_caps_t &caps, const cpu::rnn::conf_t &c,
        bool all_f32, persistent_shape_t &shape);

// Every step of (l, d) in one launch (the layer GEMM of all steps already in the gates).
status_t run_persistent(const exec_t &e, int64_t l, int64_t d);

} // namespace rnn
} // namespace gpu
} // namespace anydnn
