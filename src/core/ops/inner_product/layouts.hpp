// Inner product's layout rules every engine shares: the product runs as GEMMs over rows of
// src (diff_src) [MB, K] and weights (diff_weights) [OC, K], which needs both to flatten to
// dense rows in one order of their inner dimensions; where the given layouts do not, the
// implementation copies one operand (or both) into layouts that do.
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace ip {

// Plain (no inner blocks) and dims 1.. cover [0, K) densely, in any order.
bool flattens(const memory_desc_t &md);
// Same element order in dims 1.. (so flattened rows line up).
bool same_inner(const memory_desc_t &a, const memory_desc_t &b);
// `any` resolved to the plain row-major layout; other layouts left alone.
status_t plain_any(memory_desc_t &md);

// Resolves `any` of a data tensor and its weights to one inner order and picks the layouts
// the GEMMs run on (`data_c`, `wei_c`): the given ones where they flatten to the same rows,
// else the weights' order where they flatten (weights are usually the constant operand), else
// src's, else both plain. An implementation copies an operand whose layout differs from its
// `_c` one (offset0 of `_c` is 0).
status_t resolve_layouts(
        memory_desc_t &data, memory_desc_t &wei, memory_desc_t &data_c, memory_desc_t &wei_c);

} // namespace ip
} // namespace cpu
} // namespace anydnn
