// Lowering of the training ops: SoftMax with its statistics, the backward of softmax,
// pooling, convolution and ConvTranspose, Interpolate and BiasAdd. Each backward primitive
// gets the forward primitive descriptor it asks for as a hint; max pooling runs its forward
// again for the workspace.
#include <algorithm>
#include <memory>
#include <vector>

#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

namespace {

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
    hint_pd_t hint;
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
    hint_pd_t hint;
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

// ConvolutionBackwardData / ConvTransposeBackwardData (diff_dst, weights) -> diff_src;
// ConvolutionBackwardWeights / ConvTransposeBackwardWeights (src, diff_dst) -> diff_weights.
// A ConvTranspose's end padding follows from the shapes, output_padding included.
status_t lowering_t::lower_conv_backward(const op_t &op) {
    const bool data = op.kind == dnnl_graph_op_convolution_backward_data
            || op.kind == dnnl_graph_op_conv_transpose_backward_data;
    const bool transpose = op.kind == dnnl_graph_op_conv_transpose_backward_data
            || op.kind == dnnl_graph_op_conv_transpose_backward_weights;
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const std::string wf
            = op.str(dnnl_graph_op_attr_weights_format, transpose ? "XOI" : "XIO");
    const bool xio = wf == "XIO" || wf == "XOI"; // kernel dims first
    const int64_t g = op.s64(dnnl_graph_op_attr_groups, 1);
    const size_t src_id = data ? op.outputs[0].id : op.inputs[0].id;
    const size_t wei_id = data ? op.inputs[1].id : op.outputs[0].id;
    const size_t diff_dst_id = op.inputs[data ? 0 : 1].id;
    const memory_desc_t src = data_view(md(src_id)), diff_dst = data_view(md(diff_dst_id));
    const memory_desc_t wei = conv_weights_view(md(wei_id), xio, g, transpose);
    const lt_t &wlt = lts.at(wei_id);
    ANYDNN_REQUIRE(src.ndims >= 3 && wlt.ndims == src.ndims && diff_dst.ndims == src.ndims,
            dnnl_invalid_shape, "op %zu: %s needs data and weights of one rank >= 3", op.id,
            op_kind_name(op.kind));
    const size_t nsp = src.ndims - 2;
    const dims_t kernel = xio ? dims_t(wlt.dims, wlt.dims + nsp) : dims_t(wlt.dims + 2, wlt.dims + 2 + nsp);
    const dims_t strides = op.s64s(dnnl_graph_op_attr_strides);
    const dims_t dil = op.s64s(dnnl_graph_op_attr_dilations, dims_t(nsp, 1));
    const dims_t pads_b = op.s64s(dnnl_graph_op_attr_pads_begin, dims_t(nsp, 0));
    ANYDNN_REQUIRE(strides.size() == nsp && dil.size() == nsp && pads_b.size() == nsp,
            dnnl_invalid_arguments, "op %zu: strides, dilations and pads need %zu values each",
            op.id, nsp);
    const dims_t isp(src.dims + 2, src.dims + src.ndims);
    dims_t pb, pe;
    if (transpose) {
        const std::string ap = op.str(dnnl_graph_op_attr_auto_pad, "None");
        const bool same = ap == "SAME_UPPER" || ap == "SAME_LOWER";
        ANYDNN_REQUIRE(ap == "None" || ap == "VALID" || same, dnnl_invalid_arguments,
                "op %zu: %s with unknown auto_pad %s", op.id, op_kind_name(op.kind), ap.c_str());
        pb = ap == "VALID" ? dims_t(nsp, 0) : pads_b;
        // SAME: the padding that takes the deconvolution's input to its output, split with
        // the odd unit at the end (SAME_UPPER) or at the start (SAME_LOWER).
        for (size_t i = 0; same && i < nsp; ++i) {
            const dim_t total = std::max<dim_t>(0, (isp[i] - 1) * strides[i]
                            + (kernel[i] - 1) * dil[i] + 1 - diff_dst.dims[2 + i]);
            pb[i] = ap == "SAME_UPPER" ? total / 2 : (total + 1) / 2;
        }
        pe.resize(nsp);
        for (size_t i = 0; i < nsp; ++i)
            pe[i] = (isp[i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - pb[i]
                    - diff_dst.dims[2 + i];
    } else {
        resolve_pads(op, isp, kernel, strides, dil, pb, pe);
    }
    dnnl_dims_t s, d, l, r;
    fill(s, strides);
    fill(d, dil, 1);
    fill(l, pb);
    fill(r, pe);
    prim_attr_t attr;
    hint_pd_t hint;
    const memory_desc_t fwd_src = with_dt(src, diff_dst.data_type);
    ANYDNN_CHECK(transpose ? dnnl_deconvolution_forward_primitive_desc_create(&hint.pd, engine,
                                     dnnl_forward_training, dnnl_deconvolution_direct, &fwd_src,
                                     &wei, nullptr, &diff_dst, s, d, l, r, attr.get())
                           : dnnl_convolution_forward_primitive_desc_create(&hint.pd, engine,
                                   dnnl_forward_training, dnnl_convolution_direct, &fwd_src,
                                   &wei, nullptr, &diff_dst, s, d, l, r, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    if (data) {
        ANYDNN_CHECK(transpose ? dnnl_deconvolution_backward_data_primitive_desc_create(&pd,
                                         engine, dnnl_deconvolution_direct, &src, &wei,
                                         &diff_dst, s, d, l, r, hint.pd, attr.get())
                               : dnnl_convolution_backward_data_primitive_desc_create(&pd,
                                       engine, dnnl_convolution_direct, &src, &wei, &diff_dst,
                                       s, d, l, r, hint.pd, attr.get()));
        return emit(pd,
                {{DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                        {DNNL_ARG_WEIGHTS, view(wei_id, wei)},
                        {DNNL_ARG_DIFF_SRC, view(src_id, src)}},
                op);
    }
    ANYDNN_CHECK(transpose ? dnnl_deconvolution_backward_weights_primitive_desc_create(&pd,
                                     engine, dnnl_deconvolution_direct, &src, &wei, nullptr,
                                     &diff_dst, s, d, l, r, hint.pd, attr.get())
                           : dnnl_convolution_backward_weights_primitive_desc_create(&pd,
                                   engine, dnnl_convolution_direct, &src, &wei, nullptr,
                                   &diff_dst, s, d, l, r, hint.pd, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(src_id, src)}, {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                    {DNNL_ARG_DIFF_WEIGHTS, view(wei_id, wei)}},
            op);
}

// InterpolateBackward (src, diff_dst[, sizes]) -> diff_src: the resampling backward, its
// geometry from src and diff_dst (sizes or scales must agree with diff_dst's shape).
status_t lowering_t::lower_interpolate_backward(const op_t &op) {
    const std::string mode = op.str(dnnl_graph_op_attr_mode);
    const std::string ctm
            = op.str(dnnl_graph_op_attr_coordinate_transformation_mode, "half_pixel");
    ANYDNN_REQUIRE(ctm == "half_pixel", dnnl_unimplemented,
            "op %zu: coordinate_transformation_mode %s is not supported", op.id, ctm.c_str());
    ANYDNN_REQUIRE(mode == "nearest" || mode == "linear" || mode == "bilinear"
                    || mode == "trilinear",
            dnnl_unimplemented, "op %zu: InterpolateBackward mode %s is not supported", op.id,
            mode.c_str());
    // diff_dst must have the shape the forward's sizes or scales give src.
    std::vector<dims_t> fwd_dst(1);
    ANYDNN_CHECK(infer_interpolate(op, {lt_dims(lts.at(op.inputs[0].id))}, fwd_dst));
    ANYDNN_REQUIRE(fwd_dst[0] == lt_dims(lts.at(op.inputs[1].id)), dnnl_invalid_shape,
            "op %zu: diff_dst is %s, the forward's sizes or scales give %s", op.id,
            dims_str(lt_dims(lts.at(op.inputs[1].id))).c_str(), dims_str(fwd_dst[0]).c_str());
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const size_t diff_dst_id = op.inputs[1].id, diff_src_id = op.outputs[0].id;
    const memory_desc_t diff_dst = data_view(md(diff_dst_id));
    const memory_desc_t diff_src = data_view(md(diff_src_id));
    const dnnl_alg_kind_t alg
            = mode == "nearest" ? dnnl_resampling_nearest : dnnl_resampling_linear;
    prim_attr_t attr;
    hint_pd_t hint;
    ANYDNN_CHECK(dnnl_resampling_forward_primitive_desc_create(&hint.pd, engine,
            dnnl_forward_training, alg, nullptr, &diff_src, &diff_dst, attr.get()));
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_resampling_backward_primitive_desc_create(
            &pd, engine, alg, nullptr, &diff_src, &diff_dst, hint.pd, attr.get()));
    return emit(pd,
            {{DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
                    {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}},
            op);
}

// BiasAddBackward (diff_dst) -> diff_bias: diff_dst summed over every axis but the channel.
status_t lowering_t::lower_bias_add_backward(const op_t &op) {
    const size_t in_id = op.inputs[0].id, out_id = op.outputs[0].id;
    const memory_desc_t src = md(in_id);
    const int c = channel_axis(op, src.ndims);
    ANYDNN_CHECK(require_elems(op, out_id, src.dims[c], "diff_bias"));
    dims_t dims(src.ndims, 1);
    dims[c] = src.dims[c];
    const memory_desc_t dst = dense_md(dims, lts.at(out_id).data_type);
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_reduction_primitive_desc_create(
            &pd, engine, dnnl_reduction_sum, &src, &dst, 0.f, 0.f, attr.get()));
    return emit(pd, {{DNNL_ARG_SRC, view(in_id, src)}, {DNNL_ARG_DST, view(out_id, dst)}}, op);
}

} // namespace graph
} // namespace anydnn
