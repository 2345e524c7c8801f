// The CPU layer normalization row loop (cpu/lnorm/execute.cpp).
#pragma once

#include "core/ops/lnorm/common.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

// Runs forward or backward; `dense` after check_dense succeeded.
status_t execute(const primitive_desc_t &pd, const exec_ctx_t &ctx, int nthr, bool dense);

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
