// Per-tensor (mask 0) scales from an attribute: checked at pd init, read at execution.
#pragma once

#include <map>
#include <vector>

#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

// Accepts scales only on `allowed` arguments, each with mask 0, no groups and an f32, bf16 or
// f16 value (dnnl_unimplemented otherwise), and lists their memories in `args` as
// DNNL_ARG_ATTR_SCALES | arg (host-scalar scales are read from the memory passed).
status_t init_common_scales(const primitive_attr_t &attr, const std::vector<int> &allowed,
        std::map<int, memory_desc_t> &args);

// The scale of `arg` for this execution: 1 when the attribute has none.
status_t read_common_scale(
        const exec_ctx_t &ctx, const primitive_attr_t &attr, int arg, float &value);

} // namespace cpu
} // namespace anydnn
