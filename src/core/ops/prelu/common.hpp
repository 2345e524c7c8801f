// What every PReLU implementation shares (CPU and GPU): layout and type resolution and the
// execution arguments each direction reads and writes.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace prelu {

inline const prelu_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<prelu_desc_t>(pd.desc);
}
inline bool is_fwd(const prelu_desc_t &d) { return d.prop_kind != dnnl_backward; }

// Resolves every descriptor (data tensors follow src, weights any becomes plain row-major),
// checks attributes, layouts and data types, and fills pd.args.
status_t init_common(primitive_desc_t &pd);

} // namespace prelu
} // namespace cpu
} // namespace anydnn
