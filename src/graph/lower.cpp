// Compilation of a partition: shapes and layouts resolved, then each op lowered onto a
// primitive (neighbours folded in as post-ops, scales and zero points where they fit).
#include "graph/lower.hpp"

#include <algorithm>
#include <cstring>

#include "graph/device_constants.hpp"
#include "graph/graph.hpp"

namespace anydnn {
namespace graph {

prim_attr_t::prim_attr_t() {
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
    dnnl_post_ops_create(&post_ops);
}

prim_attr_t::~prim_attr_t() {
    dnnl_post_ops_destroy(post_ops);
    dnnl_primitive_attr_destroy(attr);
}

dnnl_primitive_attr_t prim_attr_t::get() {
    dnnl_primitive_attr_set_post_ops(attr, post_ops);
    return attr;
}

bool eltwise_of(const op_t &op, dnnl_alg_kind_t &alg, float &alpha, float &beta) {
    alpha = beta = 0.f;
    switch (op.kind) {
        case dnnl_graph_op_abs: alg = dnnl_eltwise_abs; return true;
        case dnnl_graph_op_clamp:
            alg = dnnl_eltwise_clip;
            alpha = op.f32(dnnl_graph_op_attr_min);
            beta = op.f32(dnnl_graph_op_attr_max);
            return true;
        case dnnl_graph_op_elu:
            alg = dnnl_eltwise_elu;
            alpha = op.f32(dnnl_graph_op_attr_alpha);
            return true;
        case dnnl_graph_op_exp: alg = dnnl_eltwise_exp; return true;
        case dnnl_graph_op_gelu:
            alg = op.str(dnnl_graph_op_attr_mode, "gelu_erf") == "gelu_tanh"
                    ? dnnl_eltwise_gelu_tanh
                    : dnnl_eltwise_gelu_erf;
            return true;
        case dnnl_graph_op_hard_sigmoid:
            alg = dnnl_eltwise_hardsigmoid;
            alpha = op.f32(dnnl_graph_op_attr_alpha);
            beta = op.f32(dnnl_graph_op_attr_beta);
            return true;
        case dnnl_graph_op_hard_swish:
            alg = dnnl_eltwise_hardswish;
            alpha = 1.f / 6.f;
            beta = 0.5f;
            return true;
        case dnnl_graph_op_leaky_relu:
            alg = dnnl_eltwise_relu;
            alpha = op.f32(dnnl_graph_op_attr_alpha);
            return true;
        case dnnl_graph_op_log: alg = dnnl_eltwise_log; return true;
        case dnnl_graph_op_mish: alg = dnnl_eltwise_mish; return true;
        case dnnl_graph_op_relu: alg = dnnl_eltwise_relu; return true;
        case dnnl_graph_op_round: alg = dnnl_eltwise_round; return true;
        case dnnl_graph_op_sigmoid: alg = dnnl_eltwise_logistic; return true;
        case dnnl_graph_op_softplus:
            alg = dnnl_eltwise_soft_relu;
            alpha = op.f32(dnnl_graph_op_attr_beta, 1.f);
            return true;
        case dnnl_graph_op_sqrt: alg = dnnl_eltwise_sqrt; return true;
        case dnnl_graph_op_square: alg = dnnl_eltwise_square; return true;
        case dnnl_graph_op_tanh: alg = dnnl_eltwise_tanh; return true;
        case dnnl_graph_op_reciprocal:
            alg = dnnl_eltwise_pow;
            alpha = 1.f;
            beta = -1.f;
            return true;
        default: return false;
    }
}

bool binary_of(dnnl_graph_op_kind_t kind, dnnl_alg_kind_t &alg) {
    switch (kind) {
        case dnnl_graph_op_add: alg = dnnl_binary_add; return true;
        case dnnl_graph_op_subtract: alg = dnnl_binary_sub; return true;
        case dnnl_graph_op_multiply: alg = dnnl_binary_mul; return true;
        case dnnl_graph_op_divide: alg = dnnl_binary_div; return true;
        case dnnl_graph_op_maximum: alg = dnnl_binary_max; return true;
        case dnnl_graph_op_minimum: alg = dnnl_binary_min; return true;
        case dnnl_graph_op_greater_equal: alg = dnnl_binary_ge; return true;
        case dnnl_graph_op_select: alg = dnnl_binary_select; return true;
        case dnnl_graph_op_squared_difference: alg = dnnl_binary_sub; return true;
        case dnnl_graph_op_bias_add: alg = dnnl_binary_add; return true;
        default: return false;
    }
}

bool lowerable(const op_t &op) {
    dnnl_alg_kind_t alg;
    float a, b;
    eltwise_backward_t e;
    if (eltwise_of(op, alg, a, b) || binary_of(op.kind, alg) || eltwise_backward_of(op, e))
        return true;
    switch (op.kind) {
        case dnnl_graph_op_matmul:
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_conv_transpose:
        case dnnl_graph_op_softmax:
        case dnnl_graph_op_log_softmax:
        case dnnl_graph_op_layer_norm:
        case dnnl_graph_op_rms_norm:
        case dnnl_graph_op_group_norm:
        case dnnl_graph_op_batch_norm_inference:
        case dnnl_graph_op_max_pool:
        case dnnl_graph_op_avg_pool:
        case dnnl_graph_op_reduce_l1:
        case dnnl_graph_op_reduce_l2:
        case dnnl_graph_op_reduce_max:
        case dnnl_graph_op_reduce_mean:
        case dnnl_graph_op_reduce_min:
        case dnnl_graph_op_reduce_prod:
        case dnnl_graph_op_reduce_sum:
        case dnnl_graph_op_reorder:
        case dnnl_graph_op_type_cast:
        case dnnl_graph_op_quantize:
        case dnnl_graph_op_dequantize:
        case dnnl_graph_op_static_reshape:
        case dnnl_graph_op_static_transpose:
        case dnnl_graph_op_concat:
        case dnnl_graph_op_interpolate:
        case dnnl_graph_op_prelu:
        case dnnl_graph_op_softmax_backward:
        case dnnl_graph_op_log_softmax_backward:
        case dnnl_graph_op_max_pool_backward:
        case dnnl_graph_op_avg_pool_backward:
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_data:
        case dnnl_graph_op_conv_transpose_backward_weights:
        case dnnl_graph_op_interpolate_backward:
        case dnnl_graph_op_bias_add_backward:
        case dnnl_graph_op_prelu_backward:
        case dnnl_graph_op_batch_norm_forward_training:
        case dnnl_graph_op_batch_norm_backward:
        case dnnl_graph_op_layer_norm_backward:
        case dnnl_graph_op_gen_index:
        case dnnl_graph_op_dynamic_quantize:
        case dnnl_graph_op_dynamic_dequantize: return true;
        default: return false;
    }
}

memory_desc_t make_md(const dims_t &dims, dnnl_data_type_t dt, const dims_t &strides) {
    memory_desc_t md = zero_md();
    dnnl_dims_t d = {0}, s = {0};
    for (size_t i = 0; i < dims.size(); ++i) {
        d[i] = dims[i];
        s[i] = strides[i];
    }
    md_init_with_strides(md, static_cast<int>(dims.size()), d, dt, s);
    return md;
}

memory_desc_t dense_md(const dims_t &dims, dnnl_data_type_t dt) {
    dims_t strides(dims.size(), 1);
    for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i)
        strides[i] = strides[i + 1] * std::max<dim_t>(dims[i + 1], 1);
    return make_md(dims, dt, strides);
}

dims_t md_dims(const memory_desc_t &md) {
    return dims_t(md.dims, md.dims + md.ndims);
}

static dims_t md_strides(const memory_desc_t &md) {
    return dims_t(md.blocking.strides, md.blocking.strides + md.ndims);
}

memory_desc_t expand_md(const memory_desc_t &md, int ndims) {
    if (md.ndims >= ndims) return md;
    dims_t dims = md_dims(md), strides = md_strides(md);
    const dim_t outer = md.ndims ? dims[0] * strides[0] : 1;
    dims.insert(dims.begin(), ndims - md.ndims, 1);
    strides.insert(strides.begin(), ndims - md.ndims, outer);
    return make_md(dims, md.data_type, strides);
}

memory_desc_t permute_md(const memory_desc_t &md, const std::vector<int> &perm) {
    dims_t dims(perm.size()), strides(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        dims[i] = md.dims[perm[i]];
        strides[i] = md.blocking.strides[perm[i]];
    }
    return make_md(dims, md.data_type, strides);
}

memory_desc_t nxc_to_ncx(const memory_desc_t &md) {
    std::vector<int> perm {0, md.ndims - 1};
    for (int i = 1; i < md.ndims - 1; ++i)
        perm.push_back(i);
    return permute_md(md, perm);
}

bool is_row_major_dense(const memory_desc_t &md) {
    dim_t stride = 1;
    for (int i = md.ndims - 1; i >= 0; --i) {
        if (md.dims[i] != 1 && md.blocking.strides[i] != stride) return false;
        stride *= md.dims[i];
    }
    return true;
}

bool lowering_t::is_output_port(size_t id) const {
    for (const auto &lt : out.outputs)
        if (lt.id == id) return true;
    return false;
}

memory_desc_t lowering_t::md(size_t value_id) const {
    return lt_to_md(lts.at(value_id));
}

size_t lowering_t::storage(size_t id) {
    auto it = storage_of_value.find(id);
    if (it != storage_of_value.end()) return it->second;
    storage_t s {storage_kind::temp, 0};
    bool found = false;
    for (size_t i = 0; i < out.inputs.size() && !found; ++i)
        if (out.inputs[i].id == id) s = {storage_kind::input, i}, found = true;
    for (size_t i = 0; i < out.outputs.size() && !found; ++i)
        if (out.outputs[i].id == id) s = {storage_kind::output, i}, found = true;
    if (!found) {
        s.index = out.values_size;
        out.values_size += (size_in_bytes(md(id)) + 63) / 64 * 64;
    }
    out.storages.push_back(s);
    storage_of_value[id] = out.storages.size() - 1;
    return out.storages.size() - 1;
}

size_t lowering_t::view(size_t id, const memory_desc_t &m) {
    out.views.push_back({storage(id), m});
    return out.views.size() - 1;
}

size_t lowering_t::constant(const void *data, size_t bytes, const memory_desc_t &m) {
    const uint8_t *p = static_cast<const uint8_t *>(data);
    out.constants.emplace_back(p, p + bytes);
    out.storages.push_back({storage_kind::constant, out.constants.size() - 1});
    out.views.push_back({out.storages.size() - 1, m});
    return out.views.size() - 1;
}

size_t lowering_t::temp(const memory_desc_t &m) {
    out.storages.push_back({storage_kind::temp, out.values_size});
    out.values_size += (size_in_bytes(m) + 63) / 64 * 64;
    out.views.push_back({out.storages.size() - 1, m});
    return out.views.size() - 1;
}

bool lowering_t::available(size_t id) const {
    auto it = producer.find(id);
    if (it == producer.end()) return true; // a partition input
    return done.count(it->second) && !deferred.count(it->second);
}

status_t lowering_t::emit(
        dnnl_primitive_desc_t pd, std::vector<std::pair<int, size_t>> args, const op_t &op) {
    std::unique_ptr<dnnl_primitive_desc, dnnl_status_t (*)(dnnl_primitive_desc_t)> holder(
            pd, dnnl_primitive_desc_destroy);
    dnnl_primitive_t prim = nullptr;
    ANYDNN_CHECK(dnnl_primitive_create(&prim, pd));
    exec_step_t step;
    step.prim = std::shared_ptr<dnnl_primitive>(prim, dnnl_primitive_destroy);
    step.args = std::move(args);
    const_dnnl_memory_desc_t sp = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    step.scratchpad_md = sp ? *sp : zero_md();
    out.scratchpad_size = std::max(out.scratchpad_size, size_in_bytes(step.scratchpad_md));
    const char *impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    out.info += std::string(out.info.empty() ? "" : ";") + op_kind_name(op.kind) + ":"
            + (impl ? impl : "?");
    out.steps.push_back(std::move(step));
    return dnnl_success;
}

const op_t *lowering_t::foldable_dequantize(const op_t &anchor, size_t input) const {
    if (input >= anchor.inputs.size()) return nullptr;
    auto it = producer.find(anchor.inputs[input].id);
    if (it == producer.end() || it->second->kind != dnnl_graph_op_dequantize) return nullptr;
    const op_t *dq = it->second;
    if (is_output_port(dq->outputs[0].id)) return nullptr;
    if (consumers.at(dq->outputs[0].id).size() != 1) return nullptr;
    return dq;
}

const op_t *lowering_t::foldable_bias_add(const op_t &anchor, int channel) const {
    if (anchor.inputs.size() > 2) return nullptr;
    const size_t out_id = anchor.outputs[0].id;
    if (is_output_port(out_id)) return nullptr;
    const auto &users = consumers.at(out_id);
    if (users.size() != 1 || users[0]->kind != dnnl_graph_op_bias_add) return nullptr;
    const op_t *b = users[0];
    const int nd = lts.at(out_id).ndims;
    if (b->inputs[0].id != out_id || lts.at(b->inputs[1].id).ndims != 1) return nullptr;
    return channel_axis(*b, nd) == channel ? b : nullptr;
}

status_t lowering_t::apply_dequantize(const op_t &dq, int arg, int mask, prim_attr_t &attr,
        std::vector<std::pair<int, size_t>> &args) {
    const std::vector<float> scales = dq.f32s(dnnl_graph_op_attr_scales);
    ANYDNN_CHECK(dnnl_primitive_attr_set_scales_mask(attr.attr, arg, mask));
    args.push_back({DNNL_ARG_ATTR_SCALES | arg,
            constant(scales.data(), scales.size() * sizeof(float),
                    dense_md({(dim_t)scales.size()}, dnnl_f32))});
    const std::vector<int64_t> zps = dq.s64s(dnnl_graph_op_attr_zps);
    if (std::any_of(zps.begin(), zps.end(), [](int64_t z) { return z != 0; })) {
        ANYDNN_REQUIRE(zps.size() == 1, dnnl_unimplemented, "per-channel zero points on %s",
                arg == DNNL_ARG_SRC ? "src" : "weights");
        const int32_t zp = static_cast<int32_t>(zps[0]);
        ANYDNN_CHECK(dnnl_primitive_attr_set_zero_points_mask(attr.attr, arg, 0));
        args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | arg,
                constant(&zp, sizeof(zp), dense_md({1}, dnnl_s32))});
    }
    return dnnl_success;
}

status_t lowering_t::apply_quantize(
        const op_t &q, prim_attr_t &attr, std::vector<std::pair<int, size_t>> &args) {
    const std::vector<float> scales = q.f32s(dnnl_graph_op_attr_scales);
    const std::vector<int64_t> zps = q.s64s(dnnl_graph_op_attr_zps);
    ANYDNN_REQUIRE(scales.size() == 1 && zps.size() <= 1, dnnl_unimplemented,
            "only per-tensor quantization folds into a destination");
    ANYDNN_CHECK(dnnl_primitive_attr_set_scales_mask(attr.attr, DNNL_ARG_DST, 0));
    args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
            constant(scales.data(), sizeof(float), dense_md({1}, dnnl_f32))});
    if (!zps.empty() && zps[0] != 0) {
        const int32_t zp = static_cast<int32_t>(zps[0]);
        ANYDNN_CHECK(dnnl_primitive_attr_set_zero_points_mask(attr.attr, DNNL_ARG_DST, 0));
        args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST,
                constant(&zp, sizeof(zp), dense_md({1}, dnnl_s32))});
    }
    return dnnl_success;
}

status_t lowering_t::fold_post_ops(const op_t &anchor, prim_attr_t &attr, fold_t &f,
        bool allow_quant, memory_desc_t (*dst_view)(const memory_desc_t &)) {
    const dims_t dst_dims = lt_dims(lts.at(f.out_value));
    const int nd = static_cast<int>(dst_dims.size());
    while (!is_output_port(f.out_value)) {
        const auto &users = consumers[f.out_value];
        if (users.size() == 2) { // x * sigmoid(x): one swish post-op
            const op_t *sig = users[0]->kind == dnnl_graph_op_sigmoid ? users[0] : users[1];
            const op_t *mul = sig == users[0] ? users[1] : users[0];
            const size_t s_out = sig->outputs[0].id;
            const bool swish = sig->kind == dnnl_graph_op_sigmoid
                    && mul->kind == dnnl_graph_op_multiply && !is_output_port(s_out)
                    && consumers[s_out].size() == 1 && consumers[s_out][0] == mul
                    && (mul->inputs[0].id == s_out || mul->inputs[1].id == s_out);
            if (!swish) break;
            ANYDNN_CHECK(dnnl_post_ops_append_eltwise(attr.post_ops, dnnl_eltwise_swish, 1.f, 0.f));
            ++attr.n_post_ops;
            f.absorbed.push_back(sig);
            f.absorbed.push_back(mul);
            f.out_value = mul->outputs[0].id;
            f.dst_dt = mul->outputs[0].data_type;
            continue;
        }
        if (users.size() != 1) break;
        const op_t &c = *users[0];
        dnnl_alg_kind_t alg;
        float alpha, beta;
        if (eltwise_of(c, alg, alpha, beta)) {
            ANYDNN_CHECK(dnnl_post_ops_append_eltwise(attr.post_ops, alg, alpha, beta));
        } else if (c.kind != dnnl_graph_op_select && c.kind != dnnl_graph_op_greater_equal
                && c.kind != dnnl_graph_op_bias_add && binary_of(c.kind, alg)) {
            const bool first = c.inputs[0].id == f.out_value;
            if (c.inputs[0].id == c.inputs[1].id) break;
            if (!first
                    && (c.kind == dnnl_graph_op_subtract || c.kind == dnnl_graph_op_divide
                            || c.kind == dnnl_graph_op_squared_difference))
                break;
            const size_t other = c.inputs[first ? 1 : 0].id;
            if (!available(other)) break;
            const memory_desc_t om = expand_md(md(other), nd);
            if (om.ndims != nd) break;
            bool fits = true;
            for (int i = 0; i < nd; ++i)
                fits = fits && (om.dims[i] == dst_dims[i] || om.dims[i] == 1);
            if (!fits) break;
            const memory_desc_t pm = dst_view(om);
            ANYDNN_CHECK(dnnl_post_ops_append_binary(attr.post_ops, alg, &pm));
            f.args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(attr.n_post_ops) | DNNL_ARG_SRC_1,
                    view(other, pm)});
            if (c.kind == dnnl_graph_op_squared_difference) {
                ++attr.n_post_ops;
                ANYDNN_CHECK(dnnl_post_ops_append_eltwise(
                        attr.post_ops, dnnl_eltwise_square, 0.f, 0.f));
            }
        } else if (allow_quant && c.kind == dnnl_graph_op_quantize
                && c.f32s(dnnl_graph_op_attr_scales).size() == 1) {
            ANYDNN_CHECK(apply_quantize(c, attr, f.args));
            f.absorbed.push_back(&c);
            f.out_value = c.outputs[0].id;
            f.dst_dt = c.outputs[0].data_type;
            break;
        } else if (allow_quant && c.kind == dnnl_graph_op_type_cast) {
            f.absorbed.push_back(&c);
            f.out_value = c.outputs[0].id;
            f.dst_dt = c.outputs[0].data_type;
            break;
        } else {
            break;
        }
        ++attr.n_post_ops;
        f.absorbed.push_back(&c);
        f.out_value = c.outputs[0].id;
        f.dst_dt = c.outputs[0].data_type;
    }
    return dnnl_success;
}

status_t lowering_t::lower(const op_t &op) {
    dnnl_alg_kind_t alg;
    float a, b;
    if (eltwise_of(op, alg, a, b)) return lower_eltwise(op, true);
    if (binary_of(op.kind, alg)) return lower_binary(op, true);
    eltwise_backward_t e;
    if (eltwise_backward_of(op, e)) return lower_eltwise_backward(op);
    switch (op.kind) {
        case dnnl_graph_op_matmul: return lower_matmul(op, true);
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_conv_transpose: return lower_conv(op, true);
        case dnnl_graph_op_softmax:
        case dnnl_graph_op_log_softmax: return lower_softmax(op);
        case dnnl_graph_op_layer_norm:
        case dnnl_graph_op_rms_norm:
        case dnnl_graph_op_group_norm:
        case dnnl_graph_op_batch_norm_inference: return lower_norm(op);
        case dnnl_graph_op_max_pool:
        case dnnl_graph_op_avg_pool: return lower_pool(op);
        case dnnl_graph_op_reduce_l1:
        case dnnl_graph_op_reduce_l2:
        case dnnl_graph_op_reduce_max:
        case dnnl_graph_op_reduce_mean:
        case dnnl_graph_op_reduce_min:
        case dnnl_graph_op_reduce_prod:
        case dnnl_graph_op_reduce_sum: return lower_reduce(op);
        case dnnl_graph_op_reorder:
        case dnnl_graph_op_type_cast:
        case dnnl_graph_op_quantize:
        case dnnl_graph_op_dequantize:
        case dnnl_graph_op_static_reshape:
        case dnnl_graph_op_static_transpose: return lower_reorder_like(op);
        case dnnl_graph_op_concat: return lower_concat(op);
        case dnnl_graph_op_interpolate: return lower_interpolate(op);
        case dnnl_graph_op_prelu: return lower_prelu(op);
        case dnnl_graph_op_softmax_backward:
        case dnnl_graph_op_log_softmax_backward: return lower_softmax_backward(op);
        case dnnl_graph_op_max_pool_backward:
        case dnnl_graph_op_avg_pool_backward: return lower_pool_backward(op);
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_data:
        case dnnl_graph_op_conv_transpose_backward_weights: return lower_conv_backward(op);
        case dnnl_graph_op_interpolate_backward: return lower_interpolate_backward(op);
        case dnnl_graph_op_bias_add_backward: return lower_bias_add_backward(op);
        case dnnl_graph_op_prelu_backward: return lower_prelu_backward(op);
        case dnnl_graph_op_batch_norm_forward_training: return lower_batch_norm_training(op);
        case dnnl_graph_op_batch_norm_backward: return lower_batch_norm_backward(op);
        case dnnl_graph_op_layer_norm_backward: return lower_layer_norm_backward(op);
        case dnnl_graph_op_gen_index: return lower_gen_index(op);
        case dnnl_graph_op_dynamic_quantize:
        case dnnl_graph_op_dynamic_dequantize: return lower_dynamic_quant(op);
        default:
            return fail(dnnl_unimplemented, __func__, "op %zu: %s has no CPU lowering", op.id,
                    op_kind_name(op.kind));
    }
}

status_t lowering_t::run() {
    for (const auto &op : ops) {
        for (const auto &lt : op->inputs)
            consumers[lt.id].push_back(op.get());
        for (const auto &lt : op->outputs)
            producer[lt.id] = op.get();
    }
    if (part.pattern == "sdpa" && engine->kind() == dnnl_cpu && lower_sdpa_fused() == dnnl_success)
        return dnnl_success;
    if (part.pattern == "sdpa" && engine->compute() && lower_sdpa_device() == dnnl_success)
        return dnnl_success;
    // Dequantize ops that a matmul or convolution may fold wait for it.
    for (const auto &op : ops)
        if (op->kind == dnnl_graph_op_matmul || op->kind == dnnl_graph_op_convolution
                || op->kind == dnnl_graph_op_conv_transpose)
            for (size_t i = 0; i < 2; ++i)
                if (const op_t *dq = foldable_dequantize(*op, i)) deferred.insert(dq);
    for (const auto &op : ops) {
        if (done.count(op.get()) || deferred.count(op.get())) continue;
        ANYDNN_CHECK(lower(*op));
        done.insert(op.get());
    }
    ANYDNN_REQUIRE(deferred.empty(), dnnl_runtime_error, "a dequantize op was left unlowered");
    return dnnl_success;
}

namespace {

// Port descriptions at compile: the partition's, overridden by what the user passes.
status_t resolve_ports(const std::vector<lt_t> &ports, const std::vector<lt_t> &given,
        const char *what, std::vector<lt_t> &resolved) {
    resolved.clear();
    for (const auto &g : given) {
        auto it = std::find_if(ports.begin(), ports.end(),
                [&](const lt_t &p) { return p.id == g.id; });
        ANYDNN_REQUIRE(it != ports.end(), dnnl_invalid_arguments,
                "logical tensor %zu is not an %s port of the partition", g.id, what);
        ANYDNN_REQUIRE(g.data_type == it->data_type, dnnl_invalid_arguments,
                "%s %zu is %s, the partition has %s", what, g.id, dnnl_dt2str(g.data_type),
                dnnl_dt2str(it->data_type));
        resolved.push_back(g);
    }
    ANYDNN_REQUIRE(resolved.size() == ports.size(), dnnl_invalid_arguments,
            "the partition has %zu %s ports, %zu were given", ports.size(), what, given.size());
    return dnnl_success;
}

} // namespace

status_t compile_partition(const partition_impl_t &part, const std::vector<lt_t> &inputs,
        const std::vector<lt_t> &outputs, engine_t *engine,
        std::shared_ptr<const compiled_impl_t> &result) {
    ANYDNN_REQUIRE(part.supported, dnnl_invalid_arguments,
            "partition %zu is not supported: it cannot be compiled", part.id);
    ANYDNN_REQUIRE(engine->kind() == part.engine_kind, dnnl_invalid_arguments,
            "partition %zu is for a %s engine, compiled for %s", part.id,
            dnnl_engine_kind2str(part.engine_kind), dnnl_engine_kind2str(engine->kind()));
    ANYDNN_REQUIRE(engine->kind() == dnnl_cpu || engine->compute(), dnnl_unimplemented,
            "graph partitions run on cpu engines and on GPU runtimes' engines only");
    auto impl = std::make_shared<compiled_impl_t>();
    impl->engine = engine_ref_t(engine);
    ANYDNN_CHECK(resolve_ports(part.inputs, inputs, "input", impl->inputs));
    ANYDNN_CHECK(resolve_ports(part.outputs, outputs, "output", impl->outputs));
    for (const auto &lt : impl->inputs) {
        ANYDNN_REQUIRE(known_shape(lt), dnnl_invalid_shape, "input %zu has no known shape",
                lt.id);
        ANYDNN_REQUIRE(lt.layout_type == dnnl_graph_layout_type_strided
                        || lt.property == dnnl_graph_tensor_property_host_scalar,
                dnnl_invalid_arguments, "input %zu needs a strided layout", lt.id);
        // A host scalar is read by the host; device primitives would need it copied.
        ANYDNN_REQUIRE(engine->kind() == dnnl_cpu
                        || lt.property != dnnl_graph_tensor_property_host_scalar,
                dnnl_unimplemented, "input %zu is a host scalar: not supported on %s engines yet",
                lt.id, dnnl_engine_kind2str(engine->kind()));
    }

    lowering_t l(part, engine, *impl);
    for (const auto &lt : impl->inputs)
        l.lts[lt.id] = lt;
    // Shapes flow through the ops in order; given output shapes are checked.
    for (const auto &op : part.ops) {
        auto copy = std::make_shared<op_t>(*op);
        for (auto &lt : copy->inputs)
            lt = l.lts.at(lt.id);
        for (auto &lt : copy->outputs) {
            auto it = std::find_if(impl->outputs.begin(), impl->outputs.end(),
                    [&](const lt_t &o) { return o.id == lt.id; });
            if (it != impl->outputs.end() && known_shape(*it)) {
                lt = *it;
            } else {
                lt.ndims = DNNL_GRAPH_UNKNOWN_NDIMS;
                lt.layout_type = dnnl_graph_layout_type_strided;
            }
        }
        ANYDNN_CHECK(infer_op_shapes(*copy));
        for (auto &lt : copy->outputs) {
            ANYDNN_REQUIRE(known_shape(lt), dnnl_invalid_shape,
                    "op %zu (%s): the shape of output %zu cannot be inferred", op->id,
                    op_kind_name(op->kind), lt.id);
            if (lt.layout_type != dnnl_graph_layout_type_strided) {
                // `any` (and anything we do not produce) resolves to dense row-major.
                lt.layout_type = dnnl_graph_layout_type_strided;
                set_dense_strides(lt);
            }
            l.lts[lt.id] = lt;
        }
        l.ops.push_back(copy);
    }
    for (auto &lt : impl->outputs)
        lt = l.lts.at(lt.id);
    ANYDNN_CHECK(l.run());
    // Constants (quantization scales, zero points) are host data: device engines get them
    // uploaded into the temporary area by a first step.
    if (engine->compute()) upload_constants_first(*impl);
    result = impl;
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
