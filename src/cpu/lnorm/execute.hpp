// The CPU layer normalization row loop (cpu/lnorm/execute.cpp).
#pragma once

#include "core/ops/lnorm/common.hpp"
#include "core/ops/post_ops.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

// Runs forward or backward; `dense` after check_dense succeeded; `post_ops` (forward) is the
// implementation's chain, checked against dst.
status_t execute(const primitive_desc_t &pd, const exec_ctx_t &ctx, int nthr, bool dense,
        const post_ops_chain_t &post_ops);

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
