// The forward and backward passes of the CPU RNN over all layers, directions and steps:
// layer GEMMs over all steps at once, one recurrent GEMM and one element-wise cell per step.
#pragma once

#include "core/op_desc.hpp"
#include "core/ops/rnn/conf.hpp"
#include "cpu/rnn/io.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

struct tensors_t {
    plain_t fwd[rnn_tensor_count];
    plain_t diff[rnn_tensor_count];
};

// ws: the workspace (training) or the front of the scratchpad (inference); fs: forward
// scratch; attr: the weights scales of int8 problems.
void run_forward(const conf_t &c, const tensors_t &t, float *ws, float *fs,
        const primitive_attr_t *attr = nullptr);
void run_backward(const conf_t &c, const tensors_t &t, const float *ws, float *bs);

// f32 copies of layer l, direction d's bias (zeros when absent) and peephole weights.
void load_bias(const conf_t &c, const plain_t &bias, dim_t l, dim_t d, float *out);
void load_peephole(const conf_t &c, const plain_t &peep, dim_t l, dim_t d, float *out);

} // namespace rnn
} // namespace cpu
} // namespace anydnn
