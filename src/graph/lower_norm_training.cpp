// Lowering of the normalization training ops: BatchNormForwardTraining (the batch statistics,
// then the running ones as momentum-weighted sums), BatchNormTrainingBackward and
// LayerNormBackward onto the normalization backward primitives.
#include <vector>

#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

namespace {

// What the backward of a normalization computes: its flags, and whether the scale comes from
// the graph or is a constant 1 (diffs asked for without gamma).
struct norm_bwd_plan_t {
    dnnl_prop_kind_t prop = dnnl_backward_data;
    unsigned flags = 0;
    bool unit_scale = false;
};

norm_bwd_plan_t plan_norm_backward(bool has_gamma, size_t n_outputs) {
    norm_bwd_plan_t p;
    if (has_gamma || n_outputs > 1) p.flags |= dnnl_use_scale;
    if (n_outputs > 2) p.flags |= dnnl_use_shift;
    if (n_outputs > 1) p.prop = dnnl_backward;
    p.unit_scale = !has_gamma && n_outputs > 1;
    return p;
}

} // namespace

status_t lowering_t::require_elems(const op_t &op, size_t value_id, dim_t n, const char *what) {
    ANYDNN_REQUIRE(nelems(md(value_id)) == n && is_row_major_dense(md(value_id)),
            dnnl_invalid_shape, "op %zu (%s): %s %s should hold %lld dense values", op.id,
            op_kind_name(op.kind), what, dims_str(lt_dims(lts.at(value_id))).c_str(),
            (long long)n);
    return dnnl_success;
}

size_t lowering_t::unit_constant(dim_t n) {
    const std::vector<float> ones(static_cast<size_t>(n), 1.f);
    return constant(ones.data(), ones.size() * sizeof(float), dense_md({n}, dnnl_f32));
}

// src, mean, variance[, gamma, beta] -> dst, running_mean, running_variance, batch_mean,
// batch_variance. running = momentum * given + (1 - momentum) * batch.
status_t lowering_t::lower_batch_norm_training(const op_t &op) {
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const size_t src_id = op.inputs[0].id, dst_id = op.outputs[0].id;
    const memory_desc_t src = data_view(md(src_id)), dst = data_view(md(dst_id));
    const float eps = op.f32(dnnl_graph_op_attr_epsilon);
    const float momentum = op.f32(dnnl_graph_op_attr_momentum, 0.5f);
    ANYDNN_REQUIRE(op.inputs.size() != 4, dnnl_invalid_arguments,
            "op %zu: BatchNormForwardTraining takes gamma and beta together or neither", op.id);
    const bool affine = op.inputs.size() == 5;
    const dim_t c = src.dims[1];
    for (size_t i = 1; i < op.inputs.size(); ++i)
        ANYDNN_CHECK(require_elems(op, op.inputs[i].id, c, "a per-channel input"));
    prim_attr_t attr;
    std::vector<std::pair<int, size_t>> args {{DNNL_ARG_SRC, view(src_id, src)},
            {DNNL_ARG_DST, view(dst_id, dst)},
            {DNNL_ARG_MEAN, view(op.outputs[3].id)},
            {DNNL_ARG_VARIANCE, view(op.outputs[4].id)}};
    if (affine) {
        args.push_back({DNNL_ARG_SCALE, view(op.inputs[3].id)});
        args.push_back({DNNL_ARG_SHIFT, view(op.inputs[4].id)});
    }
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine,
            dnnl_forward_training, &src, &dst, eps,
            affine ? dnnl_use_scale | dnnl_use_shift : 0u, attr.get()));
    ANYDNN_CHECK(emit(pd, args, op));
    const float scales[2] = {momentum, 1.f - momentum};
    for (int i = 0; i < 2; ++i) {
        const size_t given = op.inputs[1 + i].id, running = op.outputs[1 + i].id;
        const size_t batch = op.outputs[3 + i].id;
        const memory_desc_t srcs[2] = {md(given), md(batch)};
        const_dnnl_memory_desc_t ptrs[2] = {&srcs[0], &srcs[1]};
        const memory_desc_t out = md(running);
        ANYDNN_CHECK(dnnl_sum_primitive_desc_create(&pd, engine, &out, 2, scales, ptrs,
                attr.get()));
        ANYDNN_CHECK(emit(pd,
                {{DNNL_ARG_MULTIPLE_SRC, view(given)}, {DNNL_ARG_MULTIPLE_SRC + 1, view(batch)},
                        {DNNL_ARG_DST, view(running)}},
                op));
    }
    return dnnl_success;
}

// src, diff_dst, mean, variance[, gamma] -> diff_src[, diff_gamma[, diff_beta]].
status_t lowering_t::lower_batch_norm_backward(const op_t &op) {
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const size_t src_id = op.inputs[0].id, diff_dst_id = op.inputs[1].id;
    const size_t diff_src_id = op.outputs[0].id;
    const memory_desc_t src = data_view(md(src_id)), diff_dst = data_view(md(diff_dst_id));
    const memory_desc_t diff_src = data_view(md(diff_src_id));
    const float eps = op.f32(dnnl_graph_op_attr_epsilon);
    const norm_bwd_plan_t p = plan_norm_backward(op.inputs.size() > 4, op.outputs.size());
    for (size_t i = 2; i < op.inputs.size(); ++i)
        ANYDNN_CHECK(require_elems(op, op.inputs[i].id, src.dims[1], "a per-channel input"));
    prim_attr_t attr;
    hint_pd_t hint;
    const memory_desc_t fwd_dst = with_dt(src, diff_dst.data_type);
    ANYDNN_CHECK(dnnl_batch_normalization_forward_primitive_desc_create(&hint.pd, engine,
            dnnl_forward_training, &src, &fwd_dst, eps, p.flags, attr.get()));
    std::vector<std::pair<int, size_t>> args {{DNNL_ARG_SRC, view(src_id, src)},
            {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
            {DNNL_ARG_MEAN, view(op.inputs[2].id)}, {DNNL_ARG_VARIANCE, view(op.inputs[3].id)},
            {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}};
    if (p.flags & dnnl_use_scale)
        args.push_back({DNNL_ARG_SCALE,
                p.unit_scale ? unit_constant(src.dims[1]) : view(op.inputs[4].id)});
    if (op.outputs.size() > 1) args.push_back({DNNL_ARG_DIFF_SCALE, view(op.outputs[1].id)});
    if (op.outputs.size() > 2) args.push_back({DNNL_ARG_DIFF_SHIFT, view(op.outputs[2].id)});
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, p.prop,
            &diff_src, &diff_dst, &src, eps, p.flags, hint.pd, attr.get()));
    return emit(pd, args, op);
}

// src, diff_dst, mean, variance[, gamma[, beta]] -> diff_src[, diff_gamma[, diff_beta]], seen
// as [outer, inner] rows as the forward sees them.
status_t lowering_t::lower_layer_norm_backward(const op_t &op) {
    const size_t src_id = op.inputs[0].id, diff_dst_id = op.inputs[1].id;
    const size_t diff_src_id = op.outputs[0].id;
    const memory_desc_t src_full = md(src_id);
    const int nd = src_full.ndims;
    const int b = norm_axis(op.s64(dnnl_graph_op_attr_begin_norm_axis, -1), nd);
    ANYDNN_REQUIRE(b >= 0 && b < nd, dnnl_invalid_arguments,
            "op %zu: begin_norm_axis out of range for rank %d", op.id, nd);
    for (size_t id : {src_id, diff_dst_id, diff_src_id})
        ANYDNN_REQUIRE(is_row_major_dense(md(id)), dnnl_unimplemented,
                "op %zu: LayerNormBackward needs dense row-major tensors (value %zu is not)",
                op.id, id);
    const bool affine = op.flag(dnnl_graph_op_attr_use_affine, true);
    ANYDNN_REQUIRE(affine || op.outputs.size() == 1, dnnl_invalid_arguments,
            "op %zu: LayerNormBackward without use_affine has no diff_gamma or diff_beta",
            op.id);
    dim_t outer = 1, inner = 1;
    for (int i = 0; i < nd; ++i)
        (i < b ? outer : inner) *= src_full.dims[i];
    for (size_t i = 2; i < op.inputs.size(); ++i)
        ANYDNN_CHECK(require_elems(op, op.inputs[i].id, i < 4 ? outer : inner,
                i < 4 ? "a statistics input" : "a per-element parameter"));
    auto rows = [&](size_t id) {
        return dense_md({outer, inner}, lts.at(id).data_type);
    };
    const memory_desc_t src = rows(src_id), diff_dst = rows(diff_dst_id);
    const memory_desc_t diff_src = rows(diff_src_id);
    const memory_desc_t stat = dense_md({outer}, dnnl_f32);
    auto param = [&](size_t id) { return dense_md({inner}, lts.at(id).data_type); };
    const float eps = op.f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const bool has_gamma = affine && op.inputs.size() > 4;
    const norm_bwd_plan_t p = plan_norm_backward(has_gamma, op.outputs.size());
    prim_attr_t attr;
    hint_pd_t hint;
    const memory_desc_t fwd_dst = with_dt(src, diff_dst.data_type);
    ANYDNN_CHECK(dnnl_layer_normalization_forward_primitive_desc_create(&hint.pd, engine,
            dnnl_forward_training, &src, &fwd_dst, &stat, eps, p.flags, attr.get()));
    std::vector<std::pair<int, size_t>> args {{DNNL_ARG_SRC, view(src_id, src)},
            {DNNL_ARG_DIFF_DST, view(diff_dst_id, diff_dst)},
            {DNNL_ARG_MEAN, view(op.inputs[2].id, stat)},
            {DNNL_ARG_VARIANCE, view(op.inputs[3].id, stat)},
            {DNNL_ARG_DIFF_SRC, view(diff_src_id, diff_src)}};
    if (p.flags & dnnl_use_scale)
        args.push_back({DNNL_ARG_SCALE,
                p.unit_scale ? unit_constant(inner)
                             : view(op.inputs[4].id, param(op.inputs[4].id))});
    if (op.outputs.size() > 1)
        args.push_back({DNNL_ARG_DIFF_SCALE, view(op.outputs[1].id, param(op.outputs[1].id))});
    if (op.outputs.size() > 2)
        args.push_back({DNNL_ARG_DIFF_SHIFT, view(op.outputs[2].id, param(op.outputs[2].id))});
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_layer_normalization_backward_primitive_desc_create(&pd, engine, p.prop,
            &diff_src, &diff_dst, &src, &stat, eps, p.flags, hint.pd, attr.get()));
    return emit(pd, args, op);
}

} // namespace graph
} // namespace anydnn
