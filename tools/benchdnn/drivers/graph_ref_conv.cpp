#include "graph_ref_conv.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "test_mem.hpp"

namespace benchdnn {

namespace {

[[noreturn]] void fail(const graph_op_t &op, const std::string &what) {
    ref_fail(op, what);
}

// Which of x, w, y the op computes.
enum class role_t { y, x, w };

} // namespace

bool ref_is_conv_family(dnnl_graph_op_kind_t kind) {
    switch (kind) {
    case dnnl_graph_op_convolution:
    case dnnl_graph_op_convolution_backward_data:
    case dnnl_graph_op_convolution_backward_weights:
    case dnnl_graph_op_conv_transpose:
    case dnnl_graph_op_conv_transpose_backward_data:
    case dnnl_graph_op_conv_transpose_backward_weights: return true;
    default: return false;
    }
}

dims_t ref_begin_pads(const graph_op_t &op, const dims_t &in, const dims_t &k, const dims_t &stride,
        const dims_t &dil) {
    const size_t sp = in.size();
    std::string mode = op.str(dnnl_graph_op_attr_auto_pad, "None");
    std::transform(mode.begin(), mode.end(), mode.begin(), ::toupper);
    if (mode == "NONE") {
        const dims_t pads = op.s64s(dnnl_graph_op_attr_pads_begin, dims_t(sp, 0));
        if (pads.size() != sp) fail(op, "pads_begin has the wrong length");
        return pads;
    }
    if (mode == "VALID") return dims_t(sp, 0);
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER") fail(op, "unknown auto_pad " + mode);
    dims_t pads(sp);
    for (size_t i = 0; i < sp; ++i) {
        const int64_t out = (in[i] + stride[i] - 1) / stride[i];
        const int64_t total
                = std::max<int64_t>(0, (out - 1) * stride[i] + (k[i] - 1) * dil[i] + 1 - in[i]);
        pads[i] = mode == "SAME_UPPER" ? total / 2 : (total + 1) / 2;
    }
    return pads;
}

void ref_conv_family(
        const graph_op_t &op, const std::vector<const ref_value_t *> &in, ref_value_t &out) {
    auto arg = [&](size_t i) -> const ref_value_t & {
        if (i >= in.size() || !in[i]) fail(op, "missing input " + std::to_string(i));
        return *in[i];
    };
    const bool deconv = op.kind == dnnl_graph_op_conv_transpose
            || op.kind == dnnl_graph_op_conv_transpose_backward_data
            || op.kind == dnnl_graph_op_conv_transpose_backward_weights;
    const ref_value_t *x = nullptr, *w = nullptr, *y = nullptr, *bias = nullptr;
    role_t role = role_t::y;
    switch (op.kind) {
    case dnnl_graph_op_convolution:
        x = &arg(0), w = &arg(1), bias = in.size() > 2 ? &arg(2) : nullptr;
        break;
    case dnnl_graph_op_convolution_backward_data: y = &arg(0), w = &arg(1), role = role_t::x; break;
    case dnnl_graph_op_convolution_backward_weights:
        x = &arg(0), y = &arg(1), role = role_t::w;
        break;
    case dnnl_graph_op_conv_transpose:
        y = &arg(0), w = &arg(1), bias = in.size() > 2 ? &arg(2) : nullptr, role = role_t::x;
        break;
    case dnnl_graph_op_conv_transpose_backward_data: x = &arg(0), w = &arg(1); break;
    case dnnl_graph_op_conv_transpose_backward_weights:
        y = &arg(0), x = &arg(1), role = role_t::w;
        break;
    default: fail(op, "not a convolution");
    }
    const dims_t &xd = role == role_t::x ? out.dims : x->dims;
    const dims_t &yd = role == role_t::y ? out.dims : y->dims;
    const dims_t &wd = role == role_t::w ? out.dims : w->dims;
    const size_t nd = xd.size();
    if (nd < 3 || yd.size() != nd || wd.size() != nd)
        fail(op, "data and weights need the same rank of 3 or more");
    const size_t sp = nd - 2;
    const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
    // A deconvolution's IOX weights are its convolution's OIX, XOI its XIO.
    const std::string wf = op.str(dnnl_graph_op_attr_weights_format, deconv ? "XOI" : "XIO");
    const bool xio = wf == (deconv ? "XOI" : "XIO");
    const int64_t G = op.s64(dnnl_graph_op_attr_groups, 1);
    const dims_t strides = op.s64s(dnnl_graph_op_attr_strides, dims_t(sp, 1));
    const dims_t dil = op.s64s(dnnl_graph_op_attr_dilations, dims_t(sp, 1));
    if (strides.size() != sp || dil.size() != sp)
        fail(op, "strides or dilations have the wrong length");
    auto chan = [&](const dims_t &d) { return nxc ? d[nd - 1] : d[1]; };
    auto sp_at = [&](size_t i) { return nxc ? 1 + i : 2 + i; };
    const int64_t CX = chan(xd), CY = chan(yd);
    const int64_t WO = xio ? wd[nd - 1] : wd[0], WI = xio ? wd[nd - 2] : wd[1];
    if (G < 1 || CX % G || CY % G || WO != CY || WI * G != CX)
        fail(op, "channels, groups and weights do not agree");
    if (xd[0] != yd[0]) fail(op, "the minibatch differs between input and output");
    dims_t kdims(sp), idims(sp);
    for (size_t i = 0; i < sp; ++i) {
        kdims[i] = xio ? wd[i] : wd[2 + i];
        idims[i] = xd[sp_at(i)];
    }
    const dims_t pads = ref_begin_pads(op, idims, kdims, strides, dil);
    const int64_t KS = product(kdims), ny = product(yd);
    out.v.assign(static_cast<size_t>(product(out.dims)), 0);
    out.mag.assign(out.v.size(), 0);
    std::vector<int64_t> yp(nd + 1), xp(nd), wp(nd), kp(sp + 1);
    for (int64_t yi = 0; yi < ny; ++yi) {
        logical_position(yd, yi, yp.data());
        const int64_t oc = nxc ? yp[nd - 1] : yp[1], g = oc / (CY / G);
        xp[0] = yp[0];
        wp[xio ? nd - 1 : 0] = oc;
        for (int64_t k = 0; k < KS; ++k) {
            logical_position(kdims, k, kp.data());
            bool inside = true;
            for (size_t i = 0; i < sp && inside; ++i) {
                const int64_t at = yp[sp_at(i)] * strides[i] - pads[i] + kp[i] * dil[i];
                inside = at >= 0 && at < idims[i];
                xp[sp_at(i)] = at;
                wp[xio ? i : 2 + i] = kp[i];
            }
            if (!inside) continue;
            for (int64_t ic = 0; ic < WI; ++ic) {
                xp[nxc ? nd - 1 : 1] = g * WI + ic;
                wp[xio ? nd - 2 : 1] = ic;
                const int64_t xi = linear_index(xd, xp.data()), wi = linear_index(wd, wp.data());
                double term = 0;
                int64_t at = 0;
                switch (role) {
                case role_t::y: term = x->v[xi] * w->v[wi], at = yi; break;
                case role_t::x: term = y->v[yi] * w->v[wi], at = xi; break;
                case role_t::w: term = y->v[yi] * x->v[xi], at = wi; break;
                }
                out.v[at] += term;
                out.mag[at] += std::fabs(term);
            }
        }
    }
    if (bias) { // per channel of the output
        const int64_t C = chan(out.dims);
        if (product(bias->dims) != C) fail(op, "bias size is not the output channels");
        std::vector<int64_t> p(nd + 1);
        for (int64_t i = 0; i < product(out.dims); ++i) {
            logical_position(out.dims, i, p.data());
            out.v[i] += bias->v[nxc ? p[nd - 1] : p[1]];
        }
    }
}

} // namespace benchdnn
