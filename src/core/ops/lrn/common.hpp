// What every LRN implementation shares (CPU and GPU): layout and type resolution and the
// execution arguments each direction reads and writes (no workspace: backward recomputes).
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace lrn {

inline const lrn_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<lrn_desc_t>(pd.desc);
}
inline bool is_fwd(const lrn_desc_t &d) { return d.prop_kind != dnnl_backward_data; }

// Checks attributes (none), resolves format any (src from the hint, the others follow src),
// checks layouts and types (f32/bf16/f16) and fills pd.args.
status_t resolve(primitive_desc_t &pd);

} // namespace lrn
} // namespace cpu
} // namespace anydnn
