// The sdpa partition (QK -> [scale] -> [mask] -> SoftMax -> PV) read from its ops: shapes,
// layouts and batch broadcasting, shared by the engines' one-kernel lowerings.
#pragma once

#include <vector>

#include "core/memory_desc.hpp"
#include "graph/logical_tensor.hpp"

namespace anydnn {
namespace graph {

struct sdpa_plan_t {
    dims_t batch; // dst batch dims
    dim_t Sq, Sk, D, Dv;
    memory_desc_t q, k, v, dst, mask;
    dnnl_data_type_t scale_dt = dnnl_f32;
    bool k_transposed; // K given as [.., Sk, D]
    bool v_transposed; // V given as [.., Dv, Sk]
    bool has_scale = false, divide = false, has_mask = false;
    std::vector<dim_t> qs, ks, vs, ds, ms; // batch strides
    // Values the kernel reads and writes, in order: q, k, v, dst, [scale], [mask].
    std::vector<size_t> values;
};

// Strides of `md` seen over the batch dims of `out` (right-aligned, broadcast dims 0).
std::vector<dim_t> batch_strides(const memory_desc_t &md, const dims_t &out_batch);

} // namespace graph
} // namespace anydnn
