// What every CPU softmax implementation checks first: direction, layouts (`format_kind any`
// resolved), data types and attributes; and the shape of the problem as rows along the axis.
#pragma once

#include "core/op_desc.hpp"
#include "core/parallel.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace softmax {

inline const softmax_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<softmax_desc_t>(pd.desc);
}

inline bool is_fwd(const softmax_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

// outer x C x inner: rows of C elements along the axis.
struct geom_t {
    dim_t outer = 1, C = 1, inner = 1;
};
geom_t geom_of(const memory_desc_t &md, int axis);

// Forward: src blocked; dst any takes src's layout. src f32/bf16/f16/s8/u8, dst f32/bf16/f16
// (s8/u8 for inference). Scales on src and dst (one value each); post-ops when
// `allow_post_ops` (the chain is then checked by the caller).
status_t resolve_fwd(const primitive_desc_t &pd, memory_desc_t &src, memory_desc_t &dst,
        bool allow_post_ops);
// Backward: dst (any: the forward's dst), diff_dst any takes dst's layout, diff_src any
// takes diff_dst's. f32, bf16, f16; no attributes.
status_t resolve_bwd(const primitive_desc_t &pd, memory_desc_t &dst, memory_desc_t &diff_dst,
        memory_desc_t &diff_src);

// Records the backward arguments and the per-thread row buffers every backward
// implementation uses (three rows of f32 per thread).
template <typename pd_type>
void set_bwd_args(pd_type &pd, int axis, const memory_desc_t &dst,
        const memory_desc_t &diff_dst, const memory_desc_t &diff_src) {
    pd.args[DNNL_ARG_DST] = dst;
    pd.args[DNNL_ARG_DIFF_DST] = diff_dst;
    pd.args[DNNL_ARG_DIFF_SRC] = diff_src;
    pd.nthr = max_threads();
    pd.scratchpad_size = size_t(pd.nthr) * size_t(3 * dst.dims[axis] + 16) * sizeof(float);
}

} // namespace softmax
} // namespace cpu
} // namespace anydnn
