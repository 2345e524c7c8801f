// DynamicQuantize / DynamicDequantize: a reorder whose scales (and zero points) are the op's
// input tensors, read at execution. per_tensor, per_channel (along `axis`) and per_group
// (`group_shape`: one scale per block of that shape) map onto the reorder's masks and groups.
#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

namespace {

dim_t lt_nelems(const lt_t &lt) {
    return nelems(lt_to_md(lt));
}

// Mask and groups of the scales (or zero points) tensor `param` for data `md`.
status_t quant_layout(const op_t &op, const memory_desc_t &md, const lt_t &param, int &mask,
        int &group_ndims, dnnl_dims_t groups) {
    const std::string qtype = op.str(dnnl_graph_op_attr_qtype, "per_tensor");
    mask = 0;
    group_ndims = 0;
    if (qtype == "per_tensor") {
        ANYDNN_REQUIRE(lt_nelems(param) == 1, dnnl_invalid_shape,
                "op %zu: per_tensor quantization takes one scale, got %lld", op.id,
                (long long)lt_nelems(param));
        return dnnl_success;
    }
    if (qtype == "per_channel") {
        const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), md.ndims);
        ANYDNN_REQUIRE(axis >= 0 && axis < md.ndims, dnnl_invalid_arguments,
                "op %zu: axis out of range", op.id);
        ANYDNN_REQUIRE(lt_nelems(param) == md.dims[axis], dnnl_invalid_shape,
                "op %zu: %lld channels, %lld scales", op.id, (long long)md.dims[axis],
                (long long)lt_nelems(param));
        mask = 1 << axis;
        return dnnl_success;
    }
    ANYDNN_REQUIRE(qtype == "per_group", dnnl_invalid_arguments, "op %zu: qtype %s", op.id,
            qtype.c_str());
    const dims_t g = op.s64s(dnnl_graph_op_attr_group_shape);
    ANYDNN_REQUIRE(static_cast<int>(g.size()) == md.ndims && param.ndims == md.ndims,
            dnnl_invalid_shape, "op %zu: group_shape and the scales need the data's rank", op.id);
    for (int d = 0; d < md.ndims; ++d) {
        ANYDNN_REQUIRE(g[d] >= 1 && md.dims[d] % g[d] == 0 && param.dims[d] == md.dims[d] / g[d],
                dnnl_invalid_shape, "op %zu: dimension %d: %lld elements, group %lld, %lld scales",
                op.id, d, (long long)md.dims[d], (long long)g[d], (long long)param.dims[d]);
        if (param.dims[d] > 1) mask |= 1 << d;
        groups[d] = g[d];
    }
    group_ndims = md.ndims;
    return dnnl_success;
}

} // namespace

status_t lowering_t::lower_dynamic_quant(const op_t &op) {
    const bool quantize = op.kind == dnnl_graph_op_dynamic_quantize;
    const int arg = quantize ? DNNL_ARG_DST : DNNL_ARG_SRC;
    const size_t in = op.inputs[0].id, out = op.outputs[0].id;
    const memory_desc_t src = md(in), dst = md(out);
    const memory_desc_t &data = quantize ? dst : src;
    prim_attr_t attr;
    std::vector<std::pair<int, size_t>> args;
    for (size_t i = 1; i < op.inputs.size(); ++i) {
        const lt_t &param = lts.at(op.inputs[i].id);
        int mask = 0, group_ndims = 0;
        dnnl_dims_t groups = {0};
        ANYDNN_CHECK(quant_layout(op, data, param, mask, group_ndims, groups));
        ANYDNN_REQUIRE(is_row_major_dense(lt_to_md(param)), dnnl_unimplemented,
                "op %zu: scales and zero points must be dense", op.id);
        const memory_desc_t pm = dense_md({lt_nelems(param)}, param.data_type);
        if (i == 1) {
            ANYDNN_CHECK(dnnl_primitive_attr_set_scales(
                    attr.attr, arg, mask, group_ndims, groups, param.data_type));
            args.push_back({DNNL_ARG_ATTR_SCALES | arg, view(op.inputs[i].id, pm)});
        } else {
            ANYDNN_CHECK(dnnl_primitive_attr_set_zero_points(
                    attr.attr, arg, mask, group_ndims, groups, param.data_type));
            args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | arg, view(op.inputs[i].id, pm)});
        }
    }
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_reorder_primitive_desc_create(&pd, &src, engine, &dst, engine, attr.get()));
    args.push_back({DNNL_ARG_SRC, view(in, src)});
    args.push_back({DNNL_ARG_DST, view(out, dst)});
    return emit(pd, args, op);
}

} // namespace graph
} // namespace anydnn
