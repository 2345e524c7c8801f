// What every group normalization implementation shares (CPU and GPU): layout and type
// resolution and the execution arguments each direction reads and writes.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace gnorm {

inline const group_normalization_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<group_normalization_desc_t>(pd.desc);
}
inline bool is_fwd(const group_normalization_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

// Resolves format any (src from the hint, the other tensors follow src), checks layouts and
// data types (f32/bf16/f16; forward dst also s8/u8) and fills pd.args for every tensor but
// post-op operands. Attributes are the caller's to check.
status_t resolve(primitive_desc_t &pd);

} // namespace gnorm
} // namespace cpu
} // namespace anydnn
