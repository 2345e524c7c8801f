// What every CPU batch normalization implementation shares: flags, layout and type
// resolution, and the execution arguments each direction reads and writes.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace bnorm {

inline const batch_normalization_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<batch_normalization_desc_t>(pd.desc);
}

// The flags and directions, decoded once.
struct conf_t {
    bool fwd = true, training = false, global_stats = false, scale = false, shift = false;
    bool relu = false, add_relu = false; // add_relu implies relu
    bool stats_out = false; // forward writes mean and variance
    bool diff_ss = false; // backward writes diff scale/shift (prop backward)
    float eps = 0.f;
    dim_t mb = 0, c = 0, sp = 1; // sp: spatial elements per (n, c)
};
conf_t make_conf(const batch_normalization_desc_t &d);

// Whether the attribute holds the one post-op oneDNN documents for batch normalization, an
// eltwise relu (forward; negative slope `alpha`, which must be 0 in training). resolve()
// refuses every other chain.
bool relu_post_op(const primitive_attr_t &attr, float &alpha);

// Fills pd.args for every tensor (format any resolved to src's layout), checks data types
// (f32/bf16/f16; s8 only for inference with global statistics) and attributes.
status_t resolve(primitive_desc_t &pd);

} // namespace bnorm
} // namespace cpu
} // namespace anydnn
