// The sdpa partition (QK -> [scale] -> [mask] -> SoftMax -> PV) read from its ops into an
// sdpa_plan_t (core/ops/sdpa/fused.hpp): shapes, layouts and batch broadcasting, shared by
// the engines' one-kernel lowerings.
#pragma once

#include <vector>

#include "core/memory_desc.hpp"
#include "core/ops/sdpa/fused.hpp"
#include "graph/logical_tensor.hpp"

namespace anydnn {
namespace graph {

// Strides of `md` seen over the batch dims of `out` (right-aligned, broadcast dims 0).
std::vector<dim_t> batch_strides(const memory_desc_t &md, const dims_t &out_batch);

} // namespace graph
} // namespace anydnn
