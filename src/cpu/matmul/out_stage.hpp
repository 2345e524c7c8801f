// The CPU output stage applied to f32 dot products of matmul and inner product (scales, bias,
// post-ops, dst scale and zero point, conversion to dst's type).
#pragma once

#include <vector>

#include "core/ops/matmul/common.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

// The float value of a zero point (0 when the attribute has none).
status_t read_zero_point(const exec_ctx_t &ctx, const primitive_attr_t &attr, int arg,
        float &value);

// The output stage of one execution, bound from the context.
struct out_stage_t {
    const post_ops_chain_t *po = nullptr;
    post_ops_chain_t::exec_args_t po_args;
    float src_scale = 1.f, wei_scale = 1.f;
    std::vector<float> wei_scales; // per output channel when not empty
    float dst_scale_inv = 1.f, dst_zp = 0.f;
    std::vector<float> dst_zps; // per output channel when not empty (dst_zp unused)
    const void *bias = nullptr; // element offsets come with each row
    dnnl_data_type_t bias_dt = dnnl_f32;
    dim_t bias_stride_n = 0; // 0: broadcast along N
    void *dst = nullptr; // offset0 applied by the caller in dst offsets
    dnnl_data_type_t dst_dt = dnnl_f32;
    dim_t dst_stride_n = 1;
    int n_axis = 1; // dst dimension that N runs along

    // Binds scales (per-N weights scales need N), zero point of dst and post-op sources.
    status_t bind(const exec_ctx_t &ctx, const primitive_attr_t &attr,
            const post_ops_chain_t &chain, dim_t N);
    // bind() plus the dst and bias of a matmul-shaped execution (N along the last dimension);
    // bias_stride_m: the bias row stride (0 when the bias broadcasts along M).
    status_t bind_matmul(const exec_ctx_t &ctx, const primitive_attr_t &attr,
            const post_ops_chain_t &chain, bool has_bias, dim_t &bias_stride_m);
    // Whether rows need no work beyond the GEMM (f32 dst written in place).
    bool trivial() const;
    // v[j] is the dot product for dst element (pos..., n0 + j) (pos[n_axis] = n0), stored at
    // dst offset dst_off + j * dst_stride_n; bias read at bias_off + j * bias_stride_n.
    void row(float *v, dim_t nb, const dim_t *pos, dim_t n0, dim_t bias_off,
            dim_t dst_off) const;
};

} // namespace matmul
} // namespace cpu
} // namespace anydnn
