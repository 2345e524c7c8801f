// Lowering of the training ops: SoftMax with its statistics, the backward of softmax,
// pooling and convolution. Each backward primitive gets the forward primitive descriptor it
// asks for as a hint; max pooling runs its forward again for the workspace.
#include <memory>

#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

namespace {

struct pd_t {
    ~pd_t() {
        if (pd) dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_desc_t pd = nullptr;
};

// Dense f32 dims of `md` with dimension `axis` made 1.
memory_desc_t reduced_md(const memory_desc_t &md, int axis) {
    dims_t dims = md_dims(md);
    dims[axis] = 1;
    return dense_md(dims, dnnl_f32);
}

} // namespace

// stats = max + log(sum(exp(src - max))) along the axis, in three primitives beside the
// softmax: a max reduction, exp(src - max), and a sum reduction with log and + max folded in.
status_t lowering_t::lower_softmax_stats(
        const op_t &op, size_t src_v, const memory_desc_t &src) {
    const size_t stats_id = op.outputs[1].id;
    const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), src.ndims);
    const memory_desc_t max_md = reduced_md(src, axis);
    ANYDNN_REQUIRE(lts.at(stats_id).data_type == dnnl_f32, dnnl_unimplemented,
            "op %zu: SoftMax stats are f32, not %s", op.id,
            dnnl_dt2str(lts.at(stats_id).data_type));
    ANYDNN_REQUIRE(lt_dims(lts.at(stats_id)) == md_dims(max_md), dnnl_invalid_shape,
            "op %zu: SoftMax stats are %s, expected %s", op.id,
            dims_str(lt_dims(lts.at(stats_id))).c_str(), dims_str(md_dims(max_md)).c_str());
    const memory_desc_t stats = with_dt(md(stats_id), dnnl_f32);
    const memory_desc_t exp_md = dense_md(md_dims(src), dnnl_f32);
    const size_t max_v = temp(max_md), exp_v = temp(exp_md);

    dnnl_primitive_desc_t pd = nullptr;
    {
        prim_attr_t attr;
        ANYDNN_CHECK(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_max,
                &src, &max_md, 0.f, 0.f, attr.get()));
        ANYDNN_CHECK(emit(pd, {{DNNL_ARG_SRC, src_v}, {DNNL_ARG_DST, max_v}}, op));
    }
    {
        prim_attr_t attr;
        ANYDNN_CHECK(dnnl_post_ops_append_eltwise(attr.post_ops, dnnl_eltwise_exp, 0.f, 0.f));
        ANYDNN_CHECK(dnnl_binary_primitive_desc_create(
                &pd, engine, dnnl_binary_sub, &src, &max_md, &exp_md, attr.get()));
        ANYDNN_CHECK(emit(pd,
                {{DNNL_ARG_SRC_0, src_v}, {DNNL_ARG_SRC_1, max_v},
                        {DNNL_ARG_DST, exp_v}},
                op));
    }
    {
        prim_attr_t attr;
        ANYDNN_CHECK(dnnl_post_ops_append_eltwise(attr.post_ops, dnnl_eltwise_log, 0.f, 0.f));
        ANYDNN_CHECK(dnnl_post_ops_append_binary(attr.post_ops, dnnl_binary_add, &max_md));
        ANYDNN_CHECK(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_sum,
                &exp_md, &stats, 0.f, 0.f, attr.get()));
        ANYDNN_CHECK(emit(pd,
                {{DNNL_ARG_SRC, exp_v}, {DNNL_ARG_DST, view(stats_id, stats)},
                        {DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, max_v}},
                op));
    }
    return dnnl_success;
}

status_t lowering_t::lower_softmax_backward(const op_t &op) {
    const size_t diff_dst_id = op.inputs[0].id, dst_id = op.inputs[1].id;
    const size_t diff_src_id = op.outputs[0].id;
    const memory_desc_t diff_dst = md(diff_dst_id), dst = md(dst_id), diff_src = md(diff_src_id);
    const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), dst.ndims);
    const dnnl_alg_kind_t alg = op.kind == dnnl_graph_op_log_softmax_backward
            ? dnnl_softmax_log
            : dnnl_softmax_accurate;
    prim_attr_t attr;
    pd_t hint;
    ANYDNN_CHECK(dnnl_softmax_forward_primitive_desc_create(
            &hint.pd, engine, dnnl_forward_training, alg, &dst, &dst, axis, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_softmax_backward_primitive_desc_create(
            &pd, engine, alg, &diff_src, &diff_dst, &dst, axis, hint.pd, attr.get()));
    return emit(pd,
            {{DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)}, {DNNL_ARG_DST, view(dst_id, dst)},
                    {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}},
            op);
}

// MaxPoolBackward (src, diff_dst): the forward in training mode again, for its workspace.
// AvgPoolBackward (diff_dst[, src_shape]).
status_t lowering_t::lower_pool_backward(const op_t &op) {
    const bool is_max = op.kind == dnnl_graph_op_max_pool_backward;
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const size_t diff_dst_id = op.inputs[is_max ? 1 : 0].id, diff_src_id = op.outputs[0].id;
    const memory_desc_t diff_dst = data_view(md(diff_dst_id));
    const memory_desc_t diff_src = data_view(md(diff_src_id));
    pool_params_t p;
    pool_params(op, diff_src, diff_dst, p);
    prim_attr_t attr;
    const memory_desc_t src = is_max ? data_view(md(op.inputs[0].id)) : diff_src;
    const memory_desc_t dst = dense_md(md_dims(diff_dst), src.data_type);
    auto forward = [&](dnnl_primitive_desc_t *fwd) {
        return dnnl_pooling_forward_primitive_desc_create(fwd, engine, dnnl_forward_training,
                p.alg, &src, &dst, p.strides, p.kernel, p.dilation, p.pad_l, p.pad_r,
                attr.get());
    };
    pd_t hint;
    ANYDNN_CHECK(forward(&hint.pd));
    std::vector<std::pair<int, size_t>> bwd_args {
            {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
            {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}};
    if (is_max) {
        const_dnnl_memory_desc_t ws
                = dnnl_primitive_desc_query_md(hint.pd, dnnl_query_workspace_md, 0);
        ANYDNN_REQUIRE(ws && !is_zero_md(*ws), dnnl_runtime_error,
                "op %zu: max pooling without a workspace", op.id);
        const size_t ws_v = temp(*ws), dst_v = temp(dst);
        dnnl_primitive_desc_t fwd = nullptr;
        ANYDNN_CHECK(forward(&fwd));
        ANYDNN_CHECK(emit(fwd,
                {{DNNL_ARG_SRC, view(op.inputs[0].id, src)}, {DNNL_ARG_DST, dst_v},
                        {DNNL_ARG_WORKSPACE, ws_v}},
                op));
        bwd_args.push_back({DNNL_ARG_WORKSPACE, ws_v});
    }
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_pooling_backward_primitive_desc_create(&pd, engine, p.alg, &diff_src,
            &diff_dst, p.strides, p.kernel, p.dilation, p.pad_l, p.pad_r, hint.pd, attr.get()));
    return emit(pd, bwd_args, op);
}

// ConvolutionBackwardData (diff_dst, weights) -> diff_src;
// ConvolutionBackwardWeights (src, diff_dst) -> diff_weights.
status_t lowering_t::lower_conv_backward(const op_t &op) {
    const bool data = op.kind == dnnl_graph_op_convolution_backward_data;
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const bool xio = op.str(dnnl_graph_op_attr_weights_format, "XIO") == "XIO";
    const int64_t g = op.s64(dnnl_graph_op_attr_groups, 1);
    const size_t src_id = data ? op.outputs[0].id : op.inputs[0].id;
    const size_t wei_id = data ? op.inputs[1].id : op.outputs[0].id;
    const size_t diff_dst_id = op.inputs[data ? 0 : 1].id;
    const memory_desc_t src = data_view(md(src_id)), diff_dst = data_view(md(diff_dst_id));
    const memory_desc_t wei = conv_weights_view(md(wei_id), xio, g, false);
    const size_t nsp = src.ndims - 2;
    const lt_t &wlt = lts.at(wei_id);
    const dims_t kernel = xio ? dims_t(wlt.dims, wlt.dims + nsp) : dims_t(wlt.dims + 2, wlt.dims + 2 + nsp);
    const dims_t strides = op.s64s(dnnl_graph_op_attr_strides);
    const dims_t dil = op.s64s(dnnl_graph_op_attr_dilations, dims_t(nsp, 1));
    dims_t pb, pe;
    resolve_pads(op, dims_t(src.dims + 2, src.dims + src.ndims), kernel, strides, dil, pb, pe);
    dnnl_dims_t s, d, l, r;
    fill(s, strides);
    fill(d, dil, 1);
    fill(l, pb);
    fill(r, pe);
    prim_attr_t attr;
    pd_t hint;
    const memory_desc_t fwd_src = with_dt(src, diff_dst.data_type);
    ANYDNN_CHECK(dnnl_convolution_forward_primitive_desc_create(&hint.pd, engine,
            dnnl_forward_training, dnnl_convolution_direct, &fwd_src, &wei, nullptr, &diff_dst,
            s, d, l, r, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    if (data) {
        ANYDNN_CHECK(dnnl_convolution_backward_data_primitive_desc_create(&pd, engine,
                dnnl_convolution_direct, &src, &wei, &diff_dst, s, d, l, r, hint.pd, attr.get()));
        return emit(pd,
                {{DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                        {DNNL_ARG_WEIGHTS, view(wei_id, wei)},
                        {DNNL_ARG_DIFF_SRC, view(src_id, src)}},
                op);
    }
    ANYDNN_CHECK(dnnl_convolution_backward_weights_primitive_desc_create(&pd, engine,
            dnnl_convolution_direct, &src, &wei, nullptr, &diff_dst, s, d, l, r, hint.pd,
            attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(src_id, src)}, {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                    {DNNL_ARG_DIFF_WEIGHTS, view(wei_id, wei)}},
            op);
}

} // namespace graph
} // namespace anydnn
