// Descriptor checks every CPU eltwise implementation starts with: direction, layouts that
// can be walked, `format_kind any` resolved, data types. Each returns dnnl_unimplemented with
// a reason when the problem is outside what CPU eltwise supports.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_attr.hpp"

namespace anydnn {
namespace cpu {
namespace eltwise {

inline bool is_fwd(const eltwise_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

// Forward: src must have a blocked layout; dst any takes src's (dense). Types from
// is_fwd_type.
status_t resolve_fwd(const eltwise_desc_t &d, memory_desc_t &src, memory_desc_t &dst);

// Backward: data (src, or dst for the *_use_dst_for_bwd algs) must be blocked; diff_dst any
// takes data's layout, diff_src any takes diff_dst's. f32, bf16 and f16 only.
status_t resolve_bwd(const eltwise_desc_t &d, memory_desc_t &data, memory_desc_t &diff_dst,
        memory_desc_t &diff_src);

// Attributes other than post-ops that change results (scales, zero points, rounding...) are
// not supported; `allow_post_ops` says whether the caller handles the chain.
status_t check_attr(const primitive_attr_t &attr, bool allow_post_ops);

// The execution argument that carries the data tensor of a backward primitive.
int bwd_data_arg(const eltwise_desc_t &d);

} // namespace eltwise
} // namespace cpu
} // namespace anydnn
