// Layer normalization: the checks and argument list every implementation shares.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

inline const layer_normalization_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<layer_normalization_desc_t>(pd.desc);
}

inline bool is_fwd(dnnl_prop_kind_t p) {
    return p == dnnl_forward_training || p == dnnl_forward_inference;
}

// Whether the statistics are outputs (forward training that computes them).
inline bool stats_out(const layer_normalization_desc_t &d) {
    return d.prop_kind == dnnl_forward_training && !(d.flags & dnnl_use_global_stats);
}

// Resolves every layout (`any`: src's for data tensors, dense row-major for statistics),
// checks data types and attributes, and fills pd.args; sets pd.scratchpad_size for `nthr`
// threads.
status_t init_args(primitive_desc_t &pd, int nthr);

// Whether every data tensor is dense plain with the last dim innermost, all of one layout,
// and the statistics follow the rows in memory order.
status_t check_dense(const primitive_desc_t &pd);

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
