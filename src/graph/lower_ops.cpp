// Lowering of each op family onto one primitive (see lower.hpp).
#include <algorithm>
#include <cfloat>
#include <cstdint>

#include "graph/lower.hpp"
#include "graph/lower_constant.hpp"

namespace anydnn {
namespace graph {

namespace {

// Booleans travel as bytes through the primitives.
memory_desc_t byte_bools(memory_desc_t md) {
    if (md.data_type == dnnl_boolean) md.data_type = dnnl_s8;
    return md;
}

} // namespace

memory_desc_t conv_weights_view(memory_desc_t wei, bool xio, int64_t g, bool transpose) {
    if (xio) { // [k..., A, B] -> [B, A, k...]: OIX / IOX order
        std::vector<int> perm {wei.ndims - 1, wei.ndims - 2};
        for (int i = 0; i < wei.ndims - 2; ++i)
            perm.push_back(i);
        wei = permute_md(wei, perm);
    }
    if (transpose) { // [IC, OC/G, k...] -> [G, OC/G, IC/G, k...] (no G when 1)
        dims_t dims = md_dims(wei), strides(wei.blocking.strides, wei.blocking.strides + wei.ndims);
        const dim_t icg = dims[0] / g;
        std::swap(dims[0], dims[1]);
        std::swap(strides[0], strides[1]);
        dims[1] = icg;
        if (g > 1) {
            dims.insert(dims.begin(), g);
            strides.insert(strides.begin(), strides[1] * icg);
        }
        wei = make_md(dims, wei.data_type, strides);
    } else if (g > 1) { // [O, I, k...] -> [G, O/G, I, k...]
        dims_t dims = md_dims(wei), strides(wei.blocking.strides, wei.blocking.strides + wei.ndims);
        const dim_t og = dims[0] / g;
        dims[0] = og;
        dims.insert(dims.begin(), g);
        strides.insert(strides.begin(), strides[0] * og);
        wei = make_md(dims, wei.data_type, strides);
    }
    return wei;
}

status_t lowering_t::lower_matmul(const op_t &op, bool fuse) {
    prim_attr_t attr;
    fold_t f {op.outputs[0].id, op.outputs[0].data_type, {}, {}};
    const op_t *dq[2] = {nullptr, nullptr};
    status_t st = dnnl_success;
    const int nd = lts.at(op.outputs[0].id).ndims;
    const int wnd = lts.at(op.inputs[1].id).ndims;
    ANYDNN_REQUIRE(lts.at(op.inputs[0].id).ndims >= 2 && wnd >= 2, dnnl_unimplemented,
            "op %zu: MatMul with a 1D operand is not supported", op.id);
    const op_t *bias_op = fuse ? foldable_bias_add(op, nd - 1) : nullptr;
    if (bias_op) {
        f.absorbed.push_back(bias_op);
        f.out_value = bias_op->outputs[0].id;
        f.dst_dt = bias_op->outputs[0].data_type;
    }
    if (fuse) {
        for (size_t i = 0; i < 2; ++i)
            if (deferred.count(foldable_dequantize(op, i))) dq[i] = foldable_dequantize(op, i);
        if (dq[0])
            st = apply_dequantize(*dq[0], DNNL_ARG_SRC, 0, attr, f.args);
        if (st == dnnl_success && dq[1]) {
            const auto s = dq[1]->f32s(dnnl_graph_op_attr_scales);
            const int n_axis = op.flag(dnnl_graph_op_attr_transpose_b) ? wnd - 2 : wnd - 1;
            const int axis = norm_axis(dq[1]->s64(dnnl_graph_op_attr_axis, 1), wnd);
            if (s.size() == 1)
                st = apply_dequantize(*dq[1], DNNL_ARG_WEIGHTS, 0, attr, f.args);
            else if (axis == n_axis)
                st = apply_dequantize(*dq[1], DNNL_ARG_WEIGHTS, 1 << (nd - 1), attr, f.args);
            else
                st = fail(dnnl_unimplemented, __func__, "weights scales on a non-N axis");
        }
        if (st == dnnl_success) st = fold_post_ops(op, attr, f, true, identity_view);
    }
    dnnl_primitive_desc_t pd = nullptr;
    if (st == dnnl_success) {
        const size_t src_id = dq[0] ? dq[0]->inputs[0].id : op.inputs[0].id;
        const size_t wei_id = dq[1] ? dq[1]->inputs[0].id : op.inputs[1].id;
        memory_desc_t src = md(src_id), wei = md(wei_id);
        auto swap_last = [](memory_desc_t m) {
            std::vector<int> perm(m.ndims);
            for (int i = 0; i < m.ndims; ++i)
                perm[i] = i;
            std::swap(perm[m.ndims - 1], perm[m.ndims - 2]);
            return permute_md(m, perm);
        };
        if (op.flag(dnnl_graph_op_attr_transpose_a)) src = swap_last(src);
        if (op.flag(dnnl_graph_op_attr_transpose_b)) wei = swap_last(wei);
        src = expand_md(src, nd);
        wei = expand_md(wei, nd);
        const memory_desc_t dst = with_dt(md(f.out_value), f.dst_dt);
        std::vector<std::pair<int, size_t>> args = f.args;
        args.push_back({DNNL_ARG_SRC, view(src_id, src)});
        args.push_back({DNNL_ARG_WEIGHTS, view(wei_id, wei)});
        args.push_back({DNNL_ARG_DST, view(f.out_value, dst)});
        memory_desc_t bias = zero_md();
        const size_t bias_id = bias_op ? bias_op->inputs[1].id
                : op.inputs.size() > 2 ? op.inputs[2].id
                                       : SIZE_MAX;
        if (bias_id != SIZE_MAX) {
            bias = expand_md(md(bias_id), nd);
            args.push_back({DNNL_ARG_BIAS, view(bias_id, bias)});
        }
        st = dnnl_matmul_primitive_desc_create(&pd, engine, &src, &wei,
                bias_id != SIZE_MAX ? &bias : nullptr, &dst, attr.get());
        if (st == dnnl_success)
            st = use_packed_constant_weights(*this, wei_id, wei,
                    [&](const memory_desc_t &w, dnnl_primitive_desc_t *p) {
                        return dnnl_matmul_primitive_desc_create(p, engine, &src, &w,
                                bias_id != SIZE_MAX ? &bias : nullptr, &dst, attr.get());
                    },
                    pd, args, op);
        if (st == dnnl_success) {
            ANYDNN_CHECK(emit(pd, args, op));
            for (const op_t *a : f.absorbed)
                done.insert(a);
            for (const op_t *d : dq)
                if (d) {
                    deferred.erase(d);
                    done.insert(d);
                }
            return dnnl_success;
        }
    }
    if (!fuse) return st;
    // The fused form is not available: dequantize on its own, then the plain op.
    for (const op_t *d : dq)
        if (d) {
            deferred.erase(d);
            ANYDNN_CHECK(lower_reorder_like(*d));
            done.insert(d);
        }
    return lower_matmul(op, false);
}

status_t lowering_t::lower_conv(const op_t &op, bool fuse) {
    const bool transpose = op.kind == dnnl_graph_op_conv_transpose;
    const bool is_nxc = nxc(op);
    const std::string wf
            = op.str(dnnl_graph_op_attr_weights_format, transpose ? "XOI" : "XIO");
    const bool xio = wf == "XIO" || wf == "XOI"; // kernel dims first
    const int64_t g = op.s64(dnnl_graph_op_attr_groups, 1);
    auto data_view = is_nxc ? nxc_to_ncx : identity_view;
    prim_attr_t attr;
    fold_t f {op.outputs[0].id, op.outputs[0].data_type, {}, {}};
    const op_t *dq[2] = {nullptr, nullptr};
    status_t st = dnnl_success;
    const int nd = lts.at(op.outputs[0].id).ndims;
    const op_t *bias_op = fuse ? foldable_bias_add(op, is_nxc ? nd - 1 : 1) : nullptr;
    if (bias_op) {
        f.absorbed.push_back(bias_op);
        f.out_value = bias_op->outputs[0].id;
        f.dst_dt = bias_op->outputs[0].data_type;
    }
    if (fuse) {
        for (size_t i = 0; i < 2; ++i)
            if (deferred.count(foldable_dequantize(op, i))) dq[i] = foldable_dequantize(op, i);
        if (dq[0]) st = apply_dequantize(*dq[0], DNNL_ARG_SRC, 0, attr, f.args);
        if (st == dnnl_success && dq[1]) {
            const auto s = dq[1]->f32s(dnnl_graph_op_attr_scales);
            const int wnd = lts.at(op.inputs[1].id).ndims;
            const int oc_axis = xio ? wnd - 1 : 0;
            if (s.size() == 1)
                st = apply_dequantize(*dq[1], DNNL_ARG_WEIGHTS, 0, attr, f.args);
            else if (norm_axis(dq[1]->s64(dnnl_graph_op_attr_axis, 1), wnd) == oc_axis)
                st = apply_dequantize(*dq[1], DNNL_ARG_WEIGHTS, g > 1 ? 3 : 1, attr, f.args);
            else
                st = fail(dnnl_unimplemented, __func__, "weights scales on a non-OC axis");
        }
        if (st == dnnl_success) st = fold_post_ops(op, attr, f, true, data_view);
    }
    if (st == dnnl_success) {
        const size_t src_id = dq[0] ? dq[0]->inputs[0].id : op.inputs[0].id;
        const size_t wei_id = dq[1] ? dq[1]->inputs[0].id : op.inputs[1].id;
        const memory_desc_t src = data_view(md(src_id));
        const memory_desc_t wei = conv_weights_view(md(wei_id), xio, g, transpose);
        const memory_desc_t dst = data_view(with_dt(md(f.out_value), f.dst_dt));
        const size_t nsp = src.ndims - 2;
        const dims_t kernel = xio ? dims_t(lts.at(wei_id).dims, lts.at(wei_id).dims + nsp)
                                  : dims_t(lts.at(wei_id).dims + 2, lts.at(wei_id).dims + 2 + nsp);
        const dims_t strides = op.s64s(dnnl_graph_op_attr_strides);
        const dims_t dil = op.s64s(dnnl_graph_op_attr_dilations);
        dims_t pb, pe;
        if (transpose) {
            pb = op.s64s(dnnl_graph_op_attr_pads_begin, dims_t(nsp, 0));
            pe = op.s64s(dnnl_graph_op_attr_pads_end, dims_t(nsp, 0));
            // Output padding extends the far side of the output.
            const dims_t opad = output_padding(op, nsp);
            for (size_t i = 0; i < nsp; ++i)
                pe[i] -= opad[i];
        } else {
            const dims_t sp = dims_t(src.dims + 2, src.dims + src.ndims);
            resolve_pads(op, sp, kernel, strides, dil, pb, pe);
        }
        dnnl_dims_t s, d, l, r;
        fill(s, strides);
        fill(d, dil, 1);
        fill(l, pb);
        fill(r, pe);
        std::vector<std::pair<int, size_t>> args = f.args;
        args.push_back({DNNL_ARG_SRC, view(src_id, src)});
        args.push_back({DNNL_ARG_WEIGHTS, view(wei_id, wei)});
        args.push_back({DNNL_ARG_DST, view(f.out_value, dst)});
        memory_desc_t bias = zero_md();
        const size_t bias_id = bias_op ? bias_op->inputs[1].id
                : op.inputs.size() > 2 ? op.inputs[2].id
                                       : SIZE_MAX;
        if (bias_id != SIZE_MAX) {
            bias = md(bias_id);
            args.push_back({DNNL_ARG_BIAS, view(bias_id, bias)});
        }
        const memory_desc_t *bias_p = bias_id != SIZE_MAX ? &bias : nullptr;
        dnnl_primitive_desc_t pd = nullptr;
        st = transpose ? dnnl_deconvolution_forward_primitive_desc_create(&pd, engine,
                                 dnnl_forward_inference, dnnl_deconvolution_direct, &src, &wei,
                                 bias_p, &dst, s, d, l, r, attr.get())
                       : dnnl_convolution_forward_primitive_desc_create(&pd, engine,
                               dnnl_forward_inference, dnnl_convolution_direct, &src, &wei,
                               bias_p, &dst, s, d, l, r, attr.get());
        if (st == dnnl_success && !transpose)
            st = use_packed_constant_weights(*this, wei_id, wei,
                    [&](const memory_desc_t &w, dnnl_primitive_desc_t *p) {
                        return dnnl_convolution_forward_primitive_desc_create(p, engine,
                                dnnl_forward_inference, dnnl_convolution_direct, &src, &w,
                                bias_p, &dst, s, d, l, r, attr.get());
                    },
                    pd, args, op);
        if (st == dnnl_success) {
            ANYDNN_CHECK(emit(pd, args, op));
            for (const op_t *a : f.absorbed)
                done.insert(a);
            for (const op_t *x : dq)
                if (x) {
                    deferred.erase(x);
                    done.insert(x);
                }
            return dnnl_success;
        }
    }
    if (!fuse) return st;
    for (const op_t *x : dq)
        if (x) {
            deferred.erase(x);
            ANYDNN_CHECK(lower_reorder_like(*x));
            done.insert(x);
        }
    return lower_conv(op, false);
}

status_t lowering_t::lower_eltwise(const op_t &op, bool fuse) {
    dnnl_alg_kind_t alg;
    float alpha, beta;
    eltwise_of(op, alg, alpha, beta);
    prim_attr_t attr;
    fold_t f {op.outputs[0].id, op.outputs[0].data_type, {}, {}};
    if (fuse) ANYDNN_CHECK(fold_post_ops(op, attr, f, false, identity_view));
    const memory_desc_t src = md(op.inputs[0].id);
    const memory_desc_t dst = with_dt(md(f.out_value), f.dst_dt);
    dnnl_primitive_desc_t pd = nullptr;
    status_t st = dnnl_eltwise_forward_primitive_desc_create(
            &pd, engine, dnnl_forward_inference, alg, &src, &dst, alpha, beta, attr.get());
    if (st != dnnl_success) return fuse ? lower_eltwise(op, false) : st;
    auto args = f.args;
    args.push_back({DNNL_ARG_SRC, view(op.inputs[0].id, src)});
    args.push_back({DNNL_ARG_DST, view(f.out_value, dst)});
    ANYDNN_CHECK(emit(pd, args, op));
    for (const op_t *a : f.absorbed)
        done.insert(a);
    return dnnl_success;
}

status_t lowering_t::lower_binary(const op_t &op, bool fuse) {
    dnnl_alg_kind_t alg;
    binary_of(op.kind, alg);
    const lt_t &out_lt = lts.at(op.outputs[0].id);
    const int nd = out_lt.ndims;
    size_t id0 = op.inputs[0].id, id1 = op.inputs[1].id, id2 = 0;
    const bool select = op.kind == dnnl_graph_op_select;
    if (select) {
        id2 = op.inputs[0].id;
        id0 = op.inputs[1].id;
        id1 = op.inputs[2].id;
    }
    memory_desc_t m0 = expand_md(md(id0), nd), m1 = expand_md(md(id1), nd), m2 = zero_md();
    if (op.kind == dnnl_graph_op_bias_add) {
        // The 1D bias lies along the channel axis.
        const int c = channel_axis(op, nd);
        dims_t dims(nd, 1), strides(nd, 1);
        dims[c] = lts.at(id1).dims[0];
        strides[c] = lts.at(id1).layout.strides[0];
        m1 = make_md(dims, lts.at(id1).data_type, strides);
    }
    const bool commutative = alg == dnnl_binary_add || alg == dnnl_binary_mul
            || alg == dnnl_binary_max || alg == dnnl_binary_min;
    if (md_dims(m0) != lt_dims(out_lt) && commutative && !select) {
        std::swap(m0, m1);
        std::swap(id0, id1);
    }
    ANYDNN_REQUIRE(md_dims(m0) == lt_dims(out_lt), dnnl_unimplemented,
            "op %zu: %s broadcasts its first input, which the binary primitive cannot", op.id,
            op_kind_name(op.kind));
    if (select) m2 = byte_bools(expand_md(md(id2), nd));
    prim_attr_t attr;
    fold_t f {op.outputs[0].id, op.outputs[0].data_type, {}, {}};
    if (op.kind == dnnl_graph_op_squared_difference) {
        ANYDNN_CHECK(dnnl_post_ops_append_eltwise(attr.post_ops, dnnl_eltwise_square, 0.f, 0.f));
        ++attr.n_post_ops;
    }
    if (fuse && !select && op.kind != dnnl_graph_op_greater_equal)
        ANYDNN_CHECK(fold_post_ops(op, attr, f, false, identity_view));
    const memory_desc_t dst = byte_bools(with_dt(md(f.out_value), f.dst_dt));
    dnnl_primitive_desc_t pd = nullptr;
    status_t st = select ? dnnl_binary_primitive_desc_create_v2(
                                   &pd, engine, alg, &m0, &m1, &m2, &dst, attr.get())
                         : dnnl_binary_primitive_desc_create(
                                 &pd, engine, alg, &m0, &m1, &dst, attr.get());
    if (st != dnnl_success) return fuse && !f.absorbed.empty() ? lower_binary(op, false) : st;
    auto args = f.args;
    args.push_back({DNNL_ARG_SRC_0, view(id0, m0)});
    args.push_back({DNNL_ARG_SRC_1, view(id1, m1)});
    if (select) args.push_back({DNNL_ARG_SRC_2, view(id2, m2)});
    args.push_back({DNNL_ARG_DST, view(f.out_value, dst)});
    ANYDNN_CHECK(emit(pd, args, op));
    for (const op_t *a : f.absorbed)
        done.insert(a);
    return dnnl_success;
}

status_t lowering_t::lower_softmax(const op_t &op) {
    const std::string mode = op.str(dnnl_graph_op_attr_mode, "none");
    ANYDNN_REQUIRE(mode == "none" || mode == "inf_as_zero", dnnl_unimplemented,
            "op %zu: SoftMax mode %s is not supported", op.id, mode.c_str());
    const bool inf_as_zero = mode == "inf_as_zero" && op.kind == dnnl_graph_op_softmax;
    const memory_desc_t src = md(op.inputs[0].id), dst = md(op.outputs[0].id);
    const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), src.ndims);
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    size_t src_v = view(op.inputs[0].id, src);
    memory_desc_t sm_src = src;
    std::vector<std::pair<int, size_t>> args;
    if (inf_as_zero) {
        // softmax(max(src, lowest)) * (src >= lowest): -inf inputs give 0, and a row of
        // -inf only gives zeros instead of NaN.
        sm_src = dense_md(md_dims(src), dnnl_f32);
        const size_t clipped = temp(sm_src), mask = temp(sm_src);
        prim_attr_t a;
        ANYDNN_CHECK(dnnl_eltwise_forward_primitive_desc_create(&pd, engine,
                dnnl_forward_inference, dnnl_eltwise_clip, &src, &sm_src, -FLT_MAX, FLT_MAX,
                a.get()));
        ANYDNN_CHECK(emit(pd, {{DNNL_ARG_SRC, src_v}, {DNNL_ARG_DST, clipped}}, op));
        const float lowest = -FLT_MAX;
        const memory_desc_t one = expand_md(dense_md({1}, dnnl_f32), src.ndims);
        ANYDNN_CHECK(dnnl_binary_primitive_desc_create(
                &pd, engine, dnnl_binary_ge, &src, &one, &sm_src, a.get()));
        ANYDNN_CHECK(emit(pd,
                {{DNNL_ARG_SRC_0, src_v}, {DNNL_ARG_SRC_1, constant(&lowest, sizeof(lowest), one)},
                        {DNNL_ARG_DST, mask}},
                op));
        ANYDNN_CHECK(dnnl_post_ops_append_binary(attr.post_ops, dnnl_binary_mul, &sm_src));
        args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mask});
        src_v = clipped;
    }
    ANYDNN_CHECK(dnnl_softmax_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
            op.kind == dnnl_graph_op_log_softmax ? dnnl_softmax_log : dnnl_softmax_accurate,
            &sm_src, &dst, axis, attr.get()));
    args.push_back({DNNL_ARG_SRC, src_v});
    args.push_back({DNNL_ARG_DST, view(op.outputs[0].id, dst)});
    ANYDNN_CHECK(emit(pd, args, op));
    return op.outputs.size() > 1 ? lower_softmax_stats(op, src_v, sm_src) : dnnl_success;
}

status_t lowering_t::lower_norm(const op_t &op) {
    const memory_desc_t src_full = md(op.inputs[0].id);
    const int nd = src_full.ndims;
    const float eps = op.f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const bool affine = op.flag(dnnl_graph_op_attr_use_affine, true);
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    std::vector<std::pair<int, size_t>> args;
    const size_t src_id = op.inputs[0].id, dst_id = op.outputs[0].id;
    if (op.kind == dnnl_graph_op_layer_norm || op.kind == dnnl_graph_op_rms_norm) {
        const int b = norm_axis(op.s64(dnnl_graph_op_attr_begin_norm_axis, -1), nd);
        ANYDNN_REQUIRE(is_row_major_dense(src_full) && is_row_major_dense(md(dst_id)),
                dnnl_unimplemented, "op %zu: normalization needs dense row-major tensors", op.id);
        dim_t outer = 1, inner = 1;
        for (int i = 0; i < nd; ++i)
            (i < b ? outer : inner) *= src_full.dims[i];
        const memory_desc_t src = dense_md({outer, inner}, src_full.data_type);
        const memory_desc_t dst = dense_md({outer, inner}, lts.at(dst_id).data_type);
        const memory_desc_t stat = dense_md({outer}, dnnl_f32);
        const memory_desc_t param = dense_md({inner}, dnnl_f32);
        unsigned flags = 0;
        const bool rms = op.kind == dnnl_graph_op_rms_norm;
        if (rms) flags |= dnnl_rms_norm;
        if (affine && op.inputs.size() > 1) {
            flags |= dnnl_use_scale;
            args.push_back({DNNL_ARG_SCALE,
                    view(op.inputs[1].id, with_dt(param, lts.at(op.inputs[1].id).data_type))});
        }
        if (!rms && affine && op.inputs.size() > 2) {
            flags |= dnnl_use_shift;
            args.push_back({DNNL_ARG_SHIFT,
                    view(op.inputs[2].id, with_dt(param, lts.at(op.inputs[2].id).data_type))});
        }
        const bool stats = !rms && op.outputs.size() == 3;
        if (stats) {
            args.push_back({DNNL_ARG_MEAN, view(op.outputs[1].id, stat)});
            args.push_back({DNNL_ARG_VARIANCE, view(op.outputs[2].id, stat)});
        }
        ANYDNN_CHECK(dnnl_layer_normalization_forward_primitive_desc_create(&pd, engine,
                stats ? dnnl_forward_training : dnnl_forward_inference, &src, &dst, &stat, eps,
                flags, attr.get()));
        args.push_back({DNNL_ARG_SRC, view(src_id, src)});
        args.push_back({DNNL_ARG_DST, view(dst_id, dst)});
        return emit(pd, args, op);
    }
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const memory_desc_t src = data_view(src_full), dst = data_view(md(dst_id));
    args.push_back({DNNL_ARG_SRC, view(src_id, src)});
    args.push_back({DNNL_ARG_DST, view(dst_id, dst)});
    if (op.kind == dnnl_graph_op_group_norm) {
        unsigned flags = 0;
        if (affine && op.inputs.size() > 2) {
            flags = dnnl_use_scale | dnnl_use_shift;
            args.push_back({DNNL_ARG_SCALE, view(op.inputs[1].id)});
            args.push_back({DNNL_ARG_SHIFT, view(op.inputs[2].id)});
        }
        const bool stats = op.outputs.size() == 3;
        if (stats) {
            args.push_back({DNNL_ARG_MEAN, view(op.outputs[1].id)});
            args.push_back({DNNL_ARG_VARIANCE, view(op.outputs[2].id)});
        }
        ANYDNN_CHECK(dnnl_group_normalization_forward_primitive_desc_create(&pd, engine,
                stats ? dnnl_forward_training : dnnl_forward_inference, &src, &dst,
                op.s64(dnnl_graph_op_attr_groups), eps, flags, attr.get()));
        return emit(pd, args, op);
    }
    // BatchNormInference: gamma, beta, mean, variance.
    args.push_back({DNNL_ARG_SCALE, view(op.inputs[1].id)});
    args.push_back({DNNL_ARG_SHIFT, view(op.inputs[2].id)});
    args.push_back({DNNL_ARG_MEAN, view(op.inputs[3].id)});
    args.push_back({DNNL_ARG_VARIANCE, view(op.inputs[4].id)});
    ANYDNN_CHECK(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine,
            dnnl_forward_inference, &src, &dst, eps,
            dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift, attr.get()));
    return emit(pd, args, op);
}

void pool_params(const op_t &op, const memory_desc_t &src, const memory_desc_t &dst,
        pool_params_t &p) {
    const size_t nsp = src.ndims - 2;
    const bool is_max = op.kind == dnnl_graph_op_max_pool
            || op.kind == dnnl_graph_op_max_pool_backward;
    const dims_t kernel = op.s64s(dnnl_graph_op_attr_kernel);
    const dims_t strides = op.s64s(dnnl_graph_op_attr_strides);
    const dims_t dil = is_max ? op.s64s(dnnl_graph_op_attr_dilations, dims_t(nsp, 1))
                              : dims_t(nsp, 1);
    const dims_t sp(src.dims + 2, src.dims + src.ndims);
    dims_t pb, pe;
    resolve_pads(op, sp, kernel, strides, dil, pb, pe);
    // Ceil rounding: the end padding that makes the floor formula give dst's extent.
    for (size_t i = 0; i < nsp; ++i)
        pe[i] = (dst.dims[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - sp[i] - pb[i];
    fill(p.strides, strides);
    fill(p.kernel, kernel);
    fill(p.dilation, dil, 1);
    fill(p.pad_l, pb);
    fill(p.pad_r, pe);
    p.alg = is_max ? dnnl_pooling_max
            : op.flag(dnnl_graph_op_attr_exclude_pad) ? dnnl_pooling_avg_exclude_padding
                                                      : dnnl_pooling_avg_include_padding;
}

status_t lowering_t::lower_pool(const op_t &op) {
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const memory_desc_t src = data_view(md(op.inputs[0].id));
    const memory_desc_t dst = data_view(md(op.outputs[0].id));
    pool_params_t p;
    pool_params(op, src, dst, p);
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
            p.alg, &src, &dst, p.strides, p.kernel, p.dilation, p.pad_l, p.pad_r, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(op.inputs[0].id, src)},
                    {DNNL_ARG_DST, view(op.outputs[0].id, dst)}},
            op);
}

status_t lowering_t::lower_reduce(const op_t &op) {
    const memory_desc_t src = md(op.inputs[0].id);
    const memory_desc_t out = md(op.outputs[0].id);
    ANYDNN_REQUIRE(is_row_major_dense(out), dnnl_unimplemented,
            "op %zu: reduction output must be dense row-major", op.id);
    dims_t dims = md_dims(src);
    for (int64_t a : op.s64s(dnnl_graph_op_attr_axes))
        dims[norm_axis(a, src.ndims)] = 1;
    const memory_desc_t dst = dense_md(dims, out.data_type);
    dnnl_alg_kind_t alg = dnnl_reduction_sum;
    float p = 0.f;
    switch (op.kind) {
        case dnnl_graph_op_reduce_l1: alg = dnnl_reduction_norm_lp_sum, p = 1.f; break;
        case dnnl_graph_op_reduce_l2: alg = dnnl_reduction_norm_lp_sum, p = 2.f; break;
        case dnnl_graph_op_reduce_max: alg = dnnl_reduction_max; break;
        case dnnl_graph_op_reduce_mean: alg = dnnl_reduction_mean; break;
        case dnnl_graph_op_reduce_min: alg = dnnl_reduction_min; break;
        case dnnl_graph_op_reduce_prod: alg = dnnl_reduction_mul; break;
        default: break;
    }
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_reduction_primitive_desc_create(&pd, engine, alg, &src, &dst, p, 0.f,
            attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(op.inputs[0].id, src)},
                    {DNNL_ARG_DST, view(op.outputs[0].id, dst)}},
            op);
}

status_t lowering_t::lower_reorder_like(const op_t &op) {
    const size_t in = op.inputs[0].id, out = op.outputs[0].id;
    memory_desc_t src = md(in), dst = md(out);
    prim_attr_t attr;
    std::vector<std::pair<int, size_t>> args;
    if (op.kind == dnnl_graph_op_static_reshape) {
        ANYDNN_REQUIRE(is_row_major_dense(dst), dnnl_unimplemented,
                "op %zu: reshape output must be dense row-major", op.id);
        dst = dense_md(md_dims(src), dst.data_type); // the same bytes, read in src's shape
    } else if (op.kind == dnnl_graph_op_static_transpose) {
        std::vector<int> perm;
        for (int64_t a : op.s64s(dnnl_graph_op_attr_order))
            perm.push_back(norm_axis(a, src.ndims));
        src = permute_md(src, perm);
    } else if (op.kind == dnnl_graph_op_quantize || op.kind == dnnl_graph_op_dequantize) {
        const bool q = op.kind == dnnl_graph_op_quantize;
        const int arg = q ? DNNL_ARG_DST : DNNL_ARG_SRC;
        const auto scales = op.f32s(dnnl_graph_op_attr_scales);
        const auto zps = op.s64s(dnnl_graph_op_attr_zps);
        const bool per_channel = op.str(dnnl_graph_op_attr_qtype, "per_tensor") == "per_channel";
        const int mask = per_channel ? 1 << norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), src.ndims) : 0;
        ANYDNN_CHECK(dnnl_primitive_attr_set_scales_mask(attr.attr, arg, mask));
        args.push_back({DNNL_ARG_ATTR_SCALES | arg,
                constant(scales.data(), scales.size() * sizeof(float),
                        dense_md({(dim_t)scales.size()}, dnnl_f32))});
        if (std::any_of(zps.begin(), zps.end(), [](int64_t z) { return z != 0; })) {
            const dnnl_data_type_t qdt = q ? dst.data_type : src.data_type;
            ANYDNN_REQUIRE(qdt != dnnl_f8_e4m3 && qdt != dnnl_f8_e5m2, dnnl_unimplemented,
                    "op %zu: %s quantization takes no zero points", op.id, dnnl_dt2str(qdt));
            std::vector<int32_t> z32(zps.begin(), zps.end());
            ANYDNN_CHECK(dnnl_primitive_attr_set_zero_points_mask(attr.attr, arg, mask));
            args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | arg,
                    constant(z32.data(), z32.size() * sizeof(int32_t),
                            dense_md({(dim_t)z32.size()}, dnnl_s32))});
        }
    }
    src = byte_bools(src);
    dst = byte_bools(dst);
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_reorder_primitive_desc_create(&pd, &src, engine, &dst, engine, attr.get()));
    args.push_back({DNNL_ARG_SRC, view(in, src)});
    args.push_back({DNNL_ARG_DST, view(out, dst)});
    return emit(pd, args, op);
}

status_t lowering_t::lower_concat(const op_t &op) {
    const memory_desc_t dst = md(op.outputs[0].id);
    std::vector<memory_desc_t> srcs;
    std::vector<const_dnnl_memory_desc_t> ptrs;
    std::vector<std::pair<int, size_t>> args;
    for (const auto &lt : op.inputs)
        srcs.push_back(md(lt.id));
    for (size_t i = 0; i < srcs.size(); ++i) {
        ptrs.push_back(&srcs[i]);
        args.push_back({DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), view(op.inputs[i].id)});
    }
    args.push_back({DNNL_ARG_DST, view(op.outputs[0].id)});
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_concat_primitive_desc_create(&pd, engine, &dst,
            static_cast<int>(srcs.size()), norm_axis(op.s64(dnnl_graph_op_attr_axis), dst.ndims),
            ptrs.data(), attr.get()));
    return emit(pd, args, op);
}

status_t lowering_t::lower_interpolate(const op_t &op) {
    const std::string mode = op.str(dnnl_graph_op_attr_mode);
    const std::string ctm
            = op.str(dnnl_graph_op_attr_coordinate_transformation_mode, "half_pixel");
    ANYDNN_REQUIRE(ctm == "half_pixel", dnnl_unimplemented,
            "op %zu: coordinate_transformation_mode %s is not supported", op.id, ctm.c_str());
    ANYDNN_REQUIRE(mode == "nearest" || mode == "linear" || mode == "bilinear"
                    || mode == "trilinear",
            dnnl_unimplemented, "op %zu: Interpolate mode %s is not supported", op.id,
            mode.c_str());
    auto data_view = nxc(op) ? nxc_to_ncx : identity_view;
    const memory_desc_t src = data_view(md(op.inputs[0].id));
    const memory_desc_t dst = data_view(md(op.outputs[0].id));
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_resampling_forward_primitive_desc_create(&pd, engine,
            dnnl_forward_inference,
            mode == "nearest" ? dnnl_resampling_nearest : dnnl_resampling_linear, nullptr, &src,
            &dst, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(op.inputs[0].id, src)},
                    {DNNL_ARG_DST, view(op.outputs[0].id, dst)}},
            op);
}

status_t lowering_t::lower_gen_index(const op_t &op) {
    const memory_desc_t out = md(op.outputs[0].id);
    ANYDNN_REQUIRE(out.data_type == dnnl_s32, dnnl_unimplemented,
            "op %zu: GenIndex produces s32, not %s", op.id, dnnl_dt2str(out.data_type));
    const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis), out.ndims);
    ANYDNN_REQUIRE(axis >= 0 && axis < out.ndims, dnnl_invalid_arguments,
            "op %zu: GenIndex axis out of range", op.id);
    const dims_t dims = md_dims(out);
    const memory_desc_t dense = dense_md(dims, dnnl_s32);
    dim_t inner = 1;
    for (int i = axis + 1; i < out.ndims; ++i)
        inner *= dims[i];
    std::vector<int32_t> values(static_cast<size_t>(nelems(dense)));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<int32_t>((static_cast<dim_t>(i) / inner) % dims[axis]);
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_reorder_primitive_desc_create(&pd, &dense, engine, &out, engine, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, constant(values.data(), values.size() * sizeof(int32_t), dense)},
                    {DNNL_ARG_DST, view(op.outputs[0].id, out)}},
            op);
}

status_t lowering_t::lower_prelu(const op_t &op) {
    const memory_desc_t src = md(op.inputs[0].id), dst = md(op.outputs[0].id);
    const lt_t &slope = lts.at(op.inputs[1].id);
    memory_desc_t wei;
    if (slope.ndims == 1 && op.flag(dnnl_graph_op_attr_per_channel_broadcast, true)
            && src.ndims > 1) {
        const int c = channel_axis(op, src.ndims);
        dims_t dims(src.ndims, 1), strides(src.ndims, 1);
        dims[c] = slope.dims[0];
        strides[c] = slope.layout.strides[0];
        wei = make_md(dims, slope.data_type, strides);
    } else {
        wei = expand_md(md(op.inputs[1].id), src.ndims);
    }
    prim_attr_t attr;
    dnnl_primitive_desc_t pd = nullptr;
    ANYDNN_CHECK(dnnl_prelu_forward_primitive_desc_create(
            &pd, engine, dnnl_forward_inference, &src, &wei, &dst, attr.get()));
    return emit(pd,
            {{DNNL_ARG_SRC, view(op.inputs[0].id, src)},
                    {DNNL_ARG_WEIGHTS, view(op.inputs[1].id, wei)},
                    {DNNL_ARG_DST, view(op.outputs[0].id, dst)}},
            op);
}

} // namespace graph
} // namespace anydnn
