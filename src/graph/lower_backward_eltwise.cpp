// Lowering of the pointwise backward ops: the eltwise family (ReLUBackward, GELUBackward, ...)
// onto the eltwise backward primitive, reading src or dst as use_dst says, and PReLUBackward
// onto the PReLU backward primitive.
#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

bool eltwise_backward_of(const op_t &op, eltwise_backward_t &e) {
    e.alpha = e.beta = 0.f;
    // use_dst defaults to true where the op defines it.
    const bool dst = op.flag(dnnl_graph_op_attr_use_dst, true);
    auto pick = [&](dnnl_alg_kind_t from_src, dnnl_alg_kind_t from_dst) {
        e.from_dst = dst;
        e.alg = dst ? from_dst : from_src;
        return true;
    };
    e.from_dst = false;
    switch (op.kind) {
        case dnnl_graph_op_abs_backward: e.alg = dnnl_eltwise_abs; return true;
        case dnnl_graph_op_clamp_backward:
            // The gradient passes strictly inside (min, max), read from src or dst alike.
            e.alpha = op.f32(dnnl_graph_op_attr_min);
            e.beta = op.f32(dnnl_graph_op_attr_max);
            return pick(dnnl_eltwise_clip_v2, dnnl_eltwise_clip_v2_use_dst_for_bwd);
        case dnnl_graph_op_elu_backward:
            e.alpha = op.f32(dnnl_graph_op_attr_alpha);
            return pick(dnnl_eltwise_elu, dnnl_eltwise_elu_use_dst_for_bwd);
        case dnnl_graph_op_gelu_backward:
            e.alg = op.str(dnnl_graph_op_attr_mode, "gelu_erf") == "gelu_tanh"
                    ? dnnl_eltwise_gelu_tanh
                    : dnnl_eltwise_gelu_erf;
            return true;
        case dnnl_graph_op_hard_sigmoid_backward:
            e.alg = dnnl_eltwise_hardsigmoid;
            e.alpha = op.f32(dnnl_graph_op_attr_alpha);
            e.beta = op.f32(dnnl_graph_op_attr_beta);
            return true;
        case dnnl_graph_op_hard_swish_backward:
            e.alg = dnnl_eltwise_hardswish;
            e.alpha = 1.f / 6.f;
            e.beta = 0.5f;
            return true;
        case dnnl_graph_op_mish_backward: e.alg = dnnl_eltwise_mish; return true;
        case dnnl_graph_op_relu_backward:
            return pick(dnnl_eltwise_relu, dnnl_eltwise_relu_use_dst_for_bwd);
        case dnnl_graph_op_sigmoid_backward:
            return pick(dnnl_eltwise_logistic, dnnl_eltwise_logistic_use_dst_for_bwd);
        case dnnl_graph_op_softplus_backward:
            e.alg = dnnl_eltwise_soft_relu;
            e.alpha = op.f32(dnnl_graph_op_attr_beta, 1.f);
            return true;
        case dnnl_graph_op_sqrt_backward:
            return pick(dnnl_eltwise_sqrt, dnnl_eltwise_sqrt_use_dst_for_bwd);
        case dnnl_graph_op_tanh_backward:
            return pick(dnnl_eltwise_tanh, dnnl_eltwise_tanh_use_dst_for_bwd);
        default: return false;
    }
}

// (src or dst, diff_dst) -> diff_src. The forward descriptor the primitive takes as a hint
// reads the same data tensor.
status_t lowering_t::lower_eltwise_backward(const op_t &op) {
    eltwise_backward_t e;
    eltwise_backward_of(op, e);
    const size_t data_id = op.inputs[0].id, diff_dst_id = op.inputs[1].id;
    const size_t diff_src_id = op.outputs[0].id;
    const memory_desc_t data = md(data_id), diff_dst = md(diff_dst_id);
    const memory_desc_t diff_src = md(diff_src_id);
    ANYDNN_REQUIRE(md_dims(data) == md_dims(diff_dst) && md_dims(data) == md_dims(diff_src),
            dnnl_invalid_shape, "op %zu: %s takes %s and diff_dst %s of one shape", op.id,
            op_kind_name(op.kind), e.from_dst ? "dst" : "src", dims_str(md_dims(data)).c_str());
    prim_attr_t attr;
    hint_pd_t hint;
    ANYDNN_CHECK(dnnl_eltwise_forward_primitive_desc_create(&hint.pd, engine,
            dnnl_forward_training, e.alg, &data, &data, e.alpha, e.beta, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_eltwise_backward_primitive_desc_create(&pd, engine, e.alg, &diff_src,
            &diff_dst, &data, e.alpha, e.beta, hint.pd, attr.get()));
    return emit(pd,
            {{e.from_dst ? DNNL_ARG_DST : DNNL_ARG_SRC, view(data_id, data)},
                    {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                    {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}},
            op);
}

// (src, slope, diff_dst) -> (diff_src, diff_slope). A 1D slope of more than one value lies
// along the channel axis (data_format); any other slope is right-aligned with src.
status_t lowering_t::lower_prelu_backward(const op_t &op) {
    const size_t src_id = op.inputs[0].id, slope_id = op.inputs[1].id;
    const size_t diff_dst_id = op.inputs[2].id;
    const size_t diff_src_id = op.outputs[0].id, diff_slope_id = op.outputs[1].id;
    const memory_desc_t src = md(src_id), diff_dst = md(diff_dst_id);
    const memory_desc_t diff_src = md(diff_src_id);
    auto slope_view = [&](size_t id) {
        const lt_t &s = lts.at(id);
        if (s.ndims == 1 && s.dims[0] != 1 && src.ndims > 1) {
            const int c = channel_axis(op, src.ndims);
            dims_t dims(src.ndims, 1), strides(src.ndims, 1);
            dims[c] = s.dims[0];
            strides[c] = s.layout.strides[0];
            return make_md(dims, s.data_type, strides);
        }
        return expand_md(md(id), src.ndims);
    };
    const memory_desc_t wei = slope_view(slope_id), diff_wei = slope_view(diff_slope_id);
    ANYDNN_REQUIRE(md_dims(wei) == md_dims(diff_wei), dnnl_invalid_shape,
            "op %zu: diff_slope %s differs from slope %s", op.id,
            dims_str(lt_dims(lts.at(diff_slope_id))).c_str(),
            dims_str(lt_dims(lts.at(slope_id))).c_str());
    prim_attr_t attr;
    hint_pd_t hint;
    ANYDNN_CHECK(dnnl_prelu_forward_primitive_desc_create(
            &hint.pd, engine, dnnl_forward_training, &src, &wei, &src, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_prelu_backward_primitive_desc_create(&pd, engine, &src, &wei, &diff_src,
            &diff_wei, &diff_dst, hint.pd, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(src_id, src)}, {DNNL_ARG_WEIGHTS, view(slope_id, wei)},
                    {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                    {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)},
                    {DNNL_ARG_DIFF_WEIGHTS, view(diff_slope_id, diff_wei)}},
            op);
}

} // namespace graph
} // namespace anydnn
