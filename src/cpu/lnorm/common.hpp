// CPU layer normalization: the checks and argument list every implementation shares, and the
// one row loop both run (dense rows straight from memory with AVX-512, or any blocked layout
// gathered through logical offsets).
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

inline const layer_normalization_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<layer_normalization_desc_t>(pd.desc);
}

// Resolves every layout (`any`: src's for data tensors, dense row-major for statistics),
// checks data types and attributes, and fills pd.args; sets pd.scratchpad_size for `nthr`
// threads.
status_t init_args(primitive_desc_t &pd, int nthr);

// Whether every data tensor is dense plain with the last dim innermost, all of one layout,
// and the statistics follow the rows in memory order.
status_t check_dense(const primitive_desc_t &pd);

// Runs forward or backward; `dense` after check_dense succeeded.
status_t execute(const primitive_desc_t &pd, const exec_ctx_t &ctx, int nthr, bool dense);

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
