// What matmul and inner product implementations of every engine share: descriptor checks and
// attribute checks (scales, zero points, post-ops). The CPU output stage is in
// cpu/matmul/out_stage.hpp.
#pragma once

#include <vector>

#include "core/ops/post_ops.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

// Matmul descriptor checks: ndims and data types, `format_kind any` resolved to plain
// row-major layouts (src, weights, bias and dst come back resolved). Floating-point src with
// integer weights (weights decompression, core/ops/matmul/woq.hpp) only where allow_woq.
status_t resolve_matmul(const matmul_desc_t &d, memory_desc_t &src, memory_desc_t &wei,
        memory_desc_t &bias, memory_desc_t &dst, bool allow_woq = false);
// Whether the problem is quantized (u8/s8 src): zero points are allowed then.
bool is_int8(const memory_desc_t &src);

// Scales on src (mask 0), weights (mask 0 or per-N `wei_n_mask`), dst (mask 0); zero points
// (mask 0; per N on dst; with src_md, src's along K or M and K as init_src_zero_points takes
// them) on the arguments in zp_args; the post-op chain against dst. Adds their memories to
// args. dnnl_unimplemented with a reason for anything else.
status_t init_attr(const primitive_attr_t &attr, const memory_desc_t &dst, int wei_n_mask,
        const std::vector<int> &zp_args, post_ops_chain_t &po,
        std::map<int, memory_desc_t> &args, const memory_desc_t *src_md = nullptr);

} // namespace matmul
} // namespace cpu
} // namespace anydnn
