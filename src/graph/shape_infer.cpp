// Output shapes of each op family from its input shapes and attributes.
#include <algorithm>

#include "graph/op_schema.hpp"

namespace anydnn {
namespace graph {

namespace {

#define SHAPE_REQUIRE(cond, ...) ANYDNN_REQUIRE(cond, dnnl_invalid_shape, __VA_ARGS__)

// Numpy broadcasting of two shapes (right-aligned; extents equal or one of them 1).
status_t broadcast(const op_t &op, const dims_t &a, const dims_t &b, dims_t &out) {
    const size_t n = std::max(a.size(), b.size());
    out.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
        const dim_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
        const dim_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
        SHAPE_REQUIRE(x == y || x == 1 || y == 1,
                "op %zu: shapes %s and %s do not broadcast", op.id, dims_str(a).c_str(),
                dims_str(b).c_str());
        out[i] = x == 1 ? y : x;
    }
    return dnnl_success;
}

int norm_axis(int64_t axis, int ndims) {
    return static_cast<int>(axis < 0 ? axis + ndims : axis);
}

// Spatial extents of NCX / NXC data, and the full shape back.
dims_t spatial_of(const dims_t &d, bool nxc) {
    return nxc ? dims_t(d.begin() + 1, d.end() - 1) : dims_t(d.begin() + 2, d.end());
}
dims_t data_shape(dim_t n, dim_t c, const dims_t &sp, bool nxc) {
    dims_t out {n};
    if (!nxc) out.push_back(c);
    out.insert(out.end(), sp.begin(), sp.end());
    if (nxc) out.push_back(c);
    return out;
}

} // namespace

// Explicit pads, or those auto_pad asks for (SAME_UPPER / SAME_LOWER / VALID).
void resolve_pads(const op_t &op, const dims_t &in, const dims_t &kernel, const dims_t &stride,
        const dims_t &dil, dims_t &pb, dims_t &pe) {
    const std::string ap = op.str(dnnl_graph_op_attr_auto_pad, "None");
    pb = op.s64s(dnnl_graph_op_attr_pads_begin, dims_t(in.size(), 0));
    pe = op.s64s(dnnl_graph_op_attr_pads_end, dims_t(in.size(), 0));
    pb.resize(in.size(), 0);
    pe.resize(in.size(), 0);
    if (ap == "VALID") {
        std::fill(pb.begin(), pb.end(), 0);
        std::fill(pe.begin(), pe.end(), 0);
    } else if (ap == "SAME_UPPER" || ap == "SAME_LOWER") {
        for (size_t i = 0; i < in.size(); ++i) {
            const dim_t out = (in[i] + stride[i] - 1) / stride[i];
            const dim_t ek = (kernel[i] - 1) * dil[i] + 1;
            const dim_t total = std::max<dim_t>(0, (out - 1) * stride[i] + ek - in[i]);
            pb[i] = ap == "SAME_UPPER" ? total / 2 : total - total / 2;
            pe[i] = total - pb[i];
        }
    }
}

status_t infer_same_as_first(const op_t &op, const std::vector<dims_t> &in,
        std::vector<dims_t> &out) {
    for (auto &o : out)
        o = in[0];
    return dnnl_success;
}

status_t infer_broadcast(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    if (op.str(dnnl_graph_op_attr_auto_broadcast, "numpy") == "none") {
        for (const auto &d : in)
            SHAPE_REQUIRE(d == in[0], "op %zu: auto_broadcast none needs equal shapes, got %s and %s",
                    op.id, dims_str(in[0]).c_str(), dims_str(d).c_str());
        out[0] = in[0];
        return dnnl_success;
    }
    dims_t acc = in[0];
    for (size_t i = 1; i < in.size(); ++i) {
        dims_t next;
        ANYDNN_CHECK(broadcast(op, acc, in[i], next));
        acc = next;
    }
    out[0] = acc;
    return dnnl_success;
}

status_t infer_matmul(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    dims_t a = in[0], b = in[1];
    SHAPE_REQUIRE(!a.empty() && !b.empty(), "op %zu: MatMul inputs need a rank", op.id);
    // A 1D operand is a row (src) or a column (weights) whose extent is dropped afterwards.
    const bool a1 = a.size() == 1, b1 = b.size() == 1;
    if (a1) a.insert(a.begin(), 1);
    if (b1) b.push_back(1);
    if (op.flag(dnnl_graph_op_attr_transpose_a) && !a1) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (op.flag(dnnl_graph_op_attr_transpose_b) && !b1) std::swap(b[b.size() - 1], b[b.size() - 2]);
    const dim_t M = a[a.size() - 2], K = a.back(), K2 = b[b.size() - 2], N = b.back();
    SHAPE_REQUIRE(K == K2, "op %zu: MatMul reduces %lld columns of src against %lld rows of weights",
            op.id, (long long)K, (long long)K2);
    dims_t batch;
    ANYDNN_CHECK(broadcast(op, dims_t(a.begin(), a.end() - 2), dims_t(b.begin(), b.end() - 2), batch));
    dims_t d = batch;
    if (!a1) d.push_back(M);
    if (!b1) d.push_back(N);
    if (in.size() > 2) {
        dims_t with_bias;
        ANYDNN_CHECK(broadcast(op, d, in[2], with_bias));
        SHAPE_REQUIRE(with_bias == d, "op %zu: bias %s does not broadcast to dst %s", op.id,
                dims_str(in[2]).c_str(), dims_str(d).c_str());
    }
    out[0] = d;
    return dnnl_success;
}

// weights_format: the op's, or (ConvTransposeBackwardData) the one its weights read as.
static status_t conv_common(const op_t &op, const std::vector<dims_t> &in,
        std::vector<dims_t> &out, bool transpose, const std::string &wf) {
    const dims_t &src = in[0], &wei = in[1];
    SHAPE_REQUIRE(src.size() >= 3 && wei.size() == src.size(),
            "op %zu: convolution needs src and weights of one rank >= 3 (got %s, %s)", op.id,
            dims_str(src).c_str(), dims_str(wei).c_str());
    const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
    // Convolution weights: OIX [OC, IC/G, k...] or XIO [k..., IC/G, OC].
    // ConvTranspose weights: IOX [IC, OC/G, k...] or XOI [k..., OC/G, IC].
    const bool x_first = wf == "XIO" || wf == "XOI";
    SHAPE_REQUIRE(transpose ? (wf == "IOX" || wf == "XOI") : (wf == "OIX" || wf == "XIO"),
            "op %zu: weights_format %s is not valid here", op.id, wf.c_str());
    const bool xio = x_first;
    const int64_t g = op.s64(dnnl_graph_op_attr_groups, 1);
    SHAPE_REQUIRE(g >= 1, "op %zu: groups %lld", op.id, (long long)g);
    const size_t nsp = src.size() - 2;
    const dim_t ic = nxc ? src.back() : src[1];
    // The channel dims of the weights: first = outer one of the pair, second = inner one.
    const dim_t w_outer = x_first ? wei.back() : wei[0];
    const dim_t w_inner = x_first ? wei[wei.size() - 2] : wei[1];
    const dims_t kernel = xio ? dims_t(wei.begin(), wei.end() - 2) : dims_t(wei.begin() + 2, wei.end());
    dims_t stride = op.s64s(dnnl_graph_op_attr_strides), dil = op.s64s(dnnl_graph_op_attr_dilations);
    SHAPE_REQUIRE(stride.size() == nsp && dil.size() == nsp,
            "op %zu: strides and dilations need %zu values", op.id, nsp);
    const dims_t sp = spatial_of(src, nxc);
    dim_t oc;
    if (!transpose) { // OIX / XIO: outer = OC, inner = IC / G
        SHAPE_REQUIRE(ic == w_inner * g,
                "op %zu: src has %lld channels, weights take %lld x %lld groups", op.id,
                (long long)ic, (long long)w_inner, (long long)g);
        SHAPE_REQUIRE(w_outer % g == 0,
                "op %zu: %lld output channels do not split into %lld groups", op.id,
                (long long)w_outer, (long long)g);
        oc = w_outer;
    } else { // IOX / XOI: outer = IC, inner = OC / G
        const dim_t w_ic = w_outer, w_ocg = w_inner;
        SHAPE_REQUIRE(ic == w_ic && ic % g == 0,
                "op %zu: src has %lld channels, weights have %lld (groups %lld)", op.id,
                (long long)ic, (long long)w_ic, (long long)g);
        oc = w_ocg * g;
    }
    dims_t pb, pe, osp(nsp);
    if (!transpose) {
        resolve_pads(op, sp, kernel, stride, dil, pb, pe);
        for (size_t i = 0; i < nsp; ++i) {
            const dim_t ek = (kernel[i] - 1) * dil[i] + 1;
            osp[i] = (sp[i] + pb[i] + pe[i] - ek) / stride[i] + 1;
            SHAPE_REQUIRE(osp[i] > 0, "op %zu: spatial output %zu would be empty", op.id, i);
        }
    } else {
        pb = op.s64s(dnnl_graph_op_attr_pads_begin, dims_t(nsp, 0));
        pe = op.s64s(dnnl_graph_op_attr_pads_end, dims_t(nsp, 0));
        const dims_t opad = output_padding(op, nsp);
        SHAPE_REQUIRE(pb.size() == nsp && pe.size() == nsp && opad.size() == nsp,
                "op %zu: pads and output_padding need %zu values", op.id, nsp);
        for (size_t i = 0; i < nsp; ++i)
            osp[i] = (sp[i] - 1) * stride[i] + (kernel[i] - 1) * dil[i] + 1 - pb[i] - pe[i]
                    + opad[i];
    }
    if (in.size() > 2)
        SHAPE_REQUIRE(in[2].size() == 1 && in[2][0] == oc,
                "op %zu: bias %s does not match %lld output channels", op.id,
                dims_str(in[2]).c_str(), (long long)oc);
    out[0] = data_shape(src[0], oc, osp, nxc);
    return dnnl_success;
}

dims_t output_padding(const op_t &op, size_t nsp) {
    dims_t opad = op.s64s(dnnl_graph_op_attr_output_padding, dims_t(nsp, 0));
    if (opad.size() > nsp
            && std::all_of(opad.begin() + nsp, opad.end(), [](dim_t v) { return v == 0; }))
        opad.resize(nsp);
    return opad;
}

status_t infer_conv(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    return conv_common(op, in, out, false, op.str(dnnl_graph_op_attr_weights_format, "XIO"));
}

status_t infer_conv_transpose(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    return conv_common(op, in, out, true, op.str(dnnl_graph_op_attr_weights_format, "XOI"));
}

// ConvTranspose weights [IC, OC/G, k...] are the weights of the convolution taking diff_dst
// (OC channels) back to diff_src (IC channels), in OIX order; XOI reads as XIO.
status_t infer_conv_transpose_backward_data(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const std::string wf = op.str(dnnl_graph_op_attr_weights_format, "XOI");
    SHAPE_REQUIRE(wf == "XOI" || wf == "IOX", "op %zu: weights_format %s is not valid here",
            op.id, wf.c_str());
    return conv_common(op, in, out, false, wf == "XOI" ? "XIO" : "OIX");
}

status_t infer_pool(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const dims_t &src = in[0];
    SHAPE_REQUIRE(src.size() >= 3, "op %zu: pooling src needs rank >= 3", op.id);
    const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
    const size_t nsp = src.size() - 2;
    const dims_t kernel = op.s64s(dnnl_graph_op_attr_kernel);
    const dims_t stride = op.s64s(dnnl_graph_op_attr_strides);
    const dims_t dil = op.s64s(dnnl_graph_op_attr_dilations, dims_t(nsp, 1));
    SHAPE_REQUIRE(kernel.size() == nsp && stride.size() == nsp && dil.size() == nsp,
            "op %zu: kernel, strides and dilations need %zu values", op.id, nsp);
    const dims_t sp = spatial_of(src, nxc);
    dims_t pb, pe, osp(nsp);
    resolve_pads(op, sp, kernel, stride, dil, pb, pe);
    const bool ceil = op.str(dnnl_graph_op_attr_rounding_type, "floor") == "ceil";
    for (size_t i = 0; i < nsp; ++i) {
        const dim_t ek = (kernel[i] - 1) * dil[i] + 1;
        const dim_t span = sp[i] + pb[i] + pe[i] - ek;
        osp[i] = (ceil ? (span + stride[i] - 1) / stride[i] : span / stride[i]) + 1;
        // A last window that would start in the end padding is dropped.
        if (ceil && (osp[i] - 1) * stride[i] >= sp[i] + pb[i]) --osp[i];
        SHAPE_REQUIRE(osp[i] > 0, "op %zu: spatial output %zu would be empty", op.id, i);
    }
    out[0] = data_shape(src[0], nxc ? src.back() : src[1], osp, nxc);
    return dnnl_success;
}

status_t infer_reduce(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const int nd = static_cast<int>(in[0].size());
    SHAPE_REQUIRE(op.has(dnnl_graph_op_attr_axes), "op %zu: reduction axes come from the attribute",
            op.id);
    std::vector<bool> reduced(nd, false);
    for (int64_t a : op.s64s(dnnl_graph_op_attr_axes)) {
        const int ax = norm_axis(a, nd);
        SHAPE_REQUIRE(ax >= 0 && ax < nd, "op %zu: axis %lld out of range for rank %d", op.id,
                (long long)a, nd);
        reduced[ax] = true;
    }
    const bool keep = op.flag(dnnl_graph_op_attr_keep_dims);
    dims_t d;
    for (int i = 0; i < nd; ++i) {
        if (!reduced[i])
            d.push_back(in[0][i]);
        else if (keep)
            d.push_back(1);
    }
    out[0] = d;
    return dnnl_success;
}

status_t infer_reshape(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    dims_t shape = op.s64s(dnnl_graph_op_attr_shape);
    const bool special_zero = op.flag(dnnl_graph_op_attr_special_zero);
    dim_t total = 1, known = 1;
    for (dim_t e : in[0])
        total *= e;
    int infer_at = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0 && special_zero) {
            SHAPE_REQUIRE(i < in[0].size(), "op %zu: shape copies missing dimension %zu", op.id, i);
            shape[i] = in[0][i];
        }
        if (shape[i] == -1) {
            SHAPE_REQUIRE(infer_at < 0, "op %zu: shape has more than one -1", op.id);
            infer_at = static_cast<int>(i);
            continue;
        }
        SHAPE_REQUIRE(shape[i] >= 0, "op %zu: shape extent %lld", op.id, (long long)shape[i]);
        known *= shape[i];
    }
    if (infer_at >= 0) {
        SHAPE_REQUIRE(known > 0 && total % known == 0, "op %zu: cannot infer the -1 extent", op.id);
        shape[infer_at] = total / known;
        known = total;
    }
    SHAPE_REQUIRE(known == total, "op %zu: reshape from %s to %s changes the element count",
            op.id, dims_str(in[0]).c_str(), dims_str(shape).c_str());
    out[0] = shape;
    return dnnl_success;
}

status_t infer_transpose(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const dims_t order = op.s64s(dnnl_graph_op_attr_order);
    const int nd = static_cast<int>(in[0].size());
    SHAPE_REQUIRE(static_cast<int>(order.size()) == nd, "op %zu: order has %zu entries for rank %d",
            op.id, order.size(), nd);
    std::vector<bool> seen(nd, false);
    dims_t d(nd);
    for (int i = 0; i < nd; ++i) {
        const int ax = norm_axis(order[i], nd);
        SHAPE_REQUIRE(ax >= 0 && ax < nd && !seen[ax], "op %zu: order is not a permutation", op.id);
        seen[ax] = true;
        d[i] = in[0][ax];
    }
    out[0] = d;
    return dnnl_success;
}

status_t infer_concat(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const int nd = static_cast<int>(in[0].size());
    const int ax = norm_axis(op.s64(dnnl_graph_op_attr_axis), nd);
    SHAPE_REQUIRE(ax >= 0 && ax < nd, "op %zu: concat axis out of range", op.id);
    dims_t d = in[0];
    for (size_t i = 1; i < in.size(); ++i) {
        SHAPE_REQUIRE(static_cast<int>(in[i].size()) == nd, "op %zu: concat inputs differ in rank",
                op.id);
        for (int k = 0; k < nd; ++k)
            SHAPE_REQUIRE(k == ax || in[i][k] == d[k],
                    "op %zu: concat input %zu is %s, first is %s", op.id, i,
                    dims_str(in[i]).c_str(), dims_str(in[0]).c_str());
        d[ax] += in[i][ax];
    }
    out[0] = d;
    return dnnl_success;
}

status_t infer_interpolate(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const dims_t &src = in[0];
    SHAPE_REQUIRE(src.size() >= 3, "op %zu: Interpolate src needs rank >= 3", op.id);
    const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
    const size_t nsp = src.size() - 2;
    dims_t sp = spatial_of(src, nxc);
    if (op.has(dnnl_graph_op_attr_sizes)) {
        const dims_t sizes = op.s64s(dnnl_graph_op_attr_sizes);
        SHAPE_REQUIRE(sizes.size() == nsp, "op %zu: sizes needs %zu values", op.id, nsp);
        sp = sizes;
    } else {
        const std::vector<float> sc = op.f32s(dnnl_graph_op_attr_scales);
        SHAPE_REQUIRE(sc.size() == nsp, "op %zu: Interpolate needs sizes or %zu scales", op.id, nsp);
        for (size_t i = 0; i < nsp; ++i)
            sp[i] = static_cast<dim_t>(sp[i] * sc[i]);
    }
    out[0] = data_shape(src[0], nxc ? src.back() : src[1], sp, nxc);
    return dnnl_success;
}

status_t infer_norm(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const dims_t &src = in[0];
    const int nd = static_cast<int>(src.size());
    // gamma and beta hold one value per normalized element (LayerNorm, RMSNorm) or per channel
    // (GroupNorm): the lowering reads that many.
    const bool fwd = op.kind == dnnl_graph_op_layer_norm || op.kind == dnnl_graph_op_rms_norm
            || op.kind == dnnl_graph_op_group_norm;
    if (fwd && op.flag(dnnl_graph_op_attr_use_affine, true) && in.size() > 1) {
        SHAPE_REQUIRE(nd > 0, "op %zu: the normalized tensor has no dimensions", op.id);
        // The element count of dims [from, end); false where a dimension is unknown (negative)
        // or the count overflows: then there is nothing to compare.
        auto count = [](const dims_t &d, size_t from, dim_t &n) {
            n = 1;
            for (size_t i = from; i < d.size(); ++i)
                if (d[i] < 0 || __builtin_mul_overflow(n, d[i], &n)) return false;
            return true;
        };
        dim_t want = 1;
        bool known = true;
        if (op.kind == dnnl_graph_op_group_norm) {
            want = src[channel_axis(op, nd)];
            known = want >= 0;
        } else {
            const int b = norm_axis(op.s64(dnnl_graph_op_attr_begin_norm_axis, -1), nd);
            SHAPE_REQUIRE(b >= 0 && b < nd, "op %zu: begin_norm_axis out of range", op.id);
            known = count(src, static_cast<size_t>(b), want);
        }
        for (size_t i = 1; i < in.size() && known; ++i) {
            dim_t n = 1;
            if (!count(in[i], 0, n)) continue;
            SHAPE_REQUIRE(n == want, "op %zu: %s %s has %lld values, the normalization takes %lld",
                    op.id, i == 1 ? "gamma" : "beta", dims_str(in[i]).c_str(), (long long)n,
                    (long long)want);
        }
    }
    out[0] = src;
    if (out.size() == 1) return dnnl_success;
    SHAPE_REQUIRE(nd > 0, "op %zu: the normalized tensor has no dimensions", op.id);
    dims_t stat;
    if (op.kind == dnnl_graph_op_group_norm) {
        const int c = channel_axis(op, nd);
        stat = {src[0], op.s64(dnnl_graph_op_attr_groups, 1)};
        (void)c;
    } else if (op.kind == dnnl_graph_op_layer_norm) {
        const int b = norm_axis(op.s64(dnnl_graph_op_attr_begin_norm_axis, -1), nd);
        SHAPE_REQUIRE(b >= 0 && b < nd, "op %zu: begin_norm_axis out of range", op.id);
        stat.assign(src.begin(), src.begin() + b);
    } else {
        // Backward: diff_src like src, diff_gamma and diff_beta like gamma.
        for (size_t i = 1; i < out.size(); ++i)
            out[i] = in.size() > 4 ? in[4] : dims_t {src.back()};
        return dnnl_success;
    }
    for (size_t i = 1; i < out.size(); ++i)
        out[i] = stat;
    return dnnl_success;
}

status_t infer_batch_norm_training(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const int nd = static_cast<int>(in[0].size());
    SHAPE_REQUIRE(nd >= 2, "op %zu: BatchNorm src needs rank >= 2", op.id);
    const dim_t c = in[0][channel_axis(op, nd)];
    out[0] = in[0];
    for (size_t i = 1; i < out.size(); ++i)
        out[i] = {c};
    return dnnl_success;
}

status_t infer_bias_add_backward(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    const int nd = static_cast<int>(in[0].size());
    SHAPE_REQUIRE(nd >= 2, "op %zu: BiasAddBackward input needs rank >= 2", op.id);
    out[0] = {in[0][channel_axis(op, nd)]};
    return dnnl_success;
}

status_t infer_from_shape_attr(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    for (auto a : {dnnl_graph_op_attr_dst_shape, dnnl_graph_op_attr_weights_shape,
                 dnnl_graph_op_attr_src_shape}) {
        if (op.has(a)) {
            out[0] = op.s64s(a);
            return dnnl_success;
        }
    }
    // The shape comes as an input tensor's values, known only at execution.
    out[0] = {DNNL_GRAPH_UNKNOWN_DIM};
    return dnnl_success;
}

// dst like src; the optional stats like src with the softmax axis reduced to 1.
status_t infer_softmax(const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    out[0] = in[0];
    if (out.size() > 1) {
        const int nd = static_cast<int>(in[0].size());
        const int axis = norm_axis(op.s64(dnnl_graph_op_attr_axis, 1), nd);
        SHAPE_REQUIRE(axis >= 0 && axis < nd, "op %zu: axis out of range for rank %d", op.id, nd);
        out[1] = in[0];
        out[1][axis] = 1;
    }
    return dnnl_success;
}

status_t infer_prelu_backward(
        const op_t &op, const std::vector<dims_t> &in, std::vector<dims_t> &out) {
    out[0] = in[0];
    out[1] = in[1];
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
