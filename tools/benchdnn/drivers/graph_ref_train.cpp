#include "graph_ref_train.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "graph_ref_conv.hpp"
#include "resampling_taps.hpp"
#include "test_mem.hpp"

namespace benchdnn {

namespace {

[[noreturn]] void fail(const graph_op_t &op, const std::string &what) {
    ref_fail(op, what);
}

// The pooling window of output position `o` over input `x` (both full positions): calls
// f(input linear index) for every window element inside the input; returns how many there
// were, and the window's full size (padding included) in `full`.
struct pool_t {
    const graph_op_t &op;
    dims_t xd, yd, kernel, strides, dil, pads;
    bool nxc;
    size_t sp;

    pool_t(const graph_op_t &o, const dims_t &x, const dims_t &y) : op(o), xd(x), yd(y) {
        if (xd.size() < 3 || yd.size() != xd.size())
            fail(op, "source and destination need one rank of 3 or more");
        sp = xd.size() - 2;
        nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
        kernel = op.s64s(dnnl_graph_op_attr_kernel, dims_t());
        strides = op.s64s(dnnl_graph_op_attr_strides, dims_t(sp, 1));
        dil = op.s64s(dnnl_graph_op_attr_dilations, dims_t(sp, 1));
        if (kernel.size() != sp || strides.size() != sp || dil.size() != sp)
            fail(op, "kernel, strides or dilations have the wrong length");
        dims_t isp(sp);
        for (size_t i = 0; i < sp; ++i)
            isp[i] = xd[at(i)];
        pads = ref_begin_pads(op, isp, kernel, strides, dil);
    }
    size_t at(size_t i) const { return nxc ? 1 + i : 2 + i; }

    template <typename F>
    int64_t window(const int64_t *o, F f) const {
        std::vector<int64_t> xp(o, o + xd.size()), kp(sp + 1);
        int64_t inside = 0;
        for (int64_t k = 0; k < product(kernel); ++k) {
            logical_position(kernel, k, kp.data());
            bool in = true;
            for (size_t i = 0; i < sp && in; ++i) {
                const int64_t x = o[at(i)] * strides[i] - pads[i] + kp[i] * dil[i];
                in = x >= 0 && x < xd[at(i)];
                xp[at(i)] = x;
            }
            if (!in) continue;
            ++inside;
            f(linear_index(xd, xp.data()));
        }
        return inside;
    }
};

void pooling(const graph_op_t &op, const std::vector<const ref_value_t *> &in,
        const std::vector<ref_value_t *> &out) {
    const bool avg = op.kind == dnnl_graph_op_avg_pool || op.kind == dnnl_graph_op_avg_pool_backward;
    const bool bwd = op.kind == dnnl_graph_op_avg_pool_backward
            || op.kind == dnnl_graph_op_max_pool_backward;
    // Forward: x -> y. MaxPoolBackward: (x, dy) -> dx; AvgPoolBackward: dy -> dx.
    const ref_value_t *x = op.kind == dnnl_graph_op_avg_pool_backward ? nullptr : in.at(0);
    const ref_value_t &dy = *in.at(bwd ? (avg ? 0 : 1) : 0);
    ref_value_t &res = *out.at(0);
    const dims_t &xd = bwd ? res.dims : x->dims, &yd = bwd ? dy.dims : res.dims;
    const pool_t p(op, xd, yd);
    const bool exclude = op.flag(dnnl_graph_op_attr_exclude_pad, false);
    res.v.assign(static_cast<size_t>(product(res.dims)), 0);
    std::vector<int64_t> o(yd.size() + 1);
    for (int64_t yi = 0; yi < product(yd); ++yi) {
        logical_position(yd, yi, o.data());
        if (avg) {
            double sum = 0;
            std::vector<int64_t> idx;
            const int64_t n = p.window(o.data(), [&](int64_t xi) {
                if (bwd)
                    idx.push_back(xi);
                else
                    sum += x->v[xi];
            });
            const double div = exclude ? double(n) : double(product(p.kernel));
            if (div == 0) continue;
            if (bwd)
                for (int64_t xi : idx)
                    res.v[xi] += dy.v[yi] / div;
            else
                res.v[yi] = sum / div;
        } else {
            double best = -std::numeric_limits<double>::infinity();
            int64_t arg = -1;
            p.window(o.data(), [&](int64_t xi) {
                if (arg < 0 || x->v[xi] > best) best = x->v[xi], arg = xi;
            });
            if (!bwd)
                res.v[yi] = best;
            else if (arg >= 0)
                res.v[arg] += dy.v[yi];
        }
    }
}

// diff_src (and diff_gamma, diff_beta) of a normalization over groups of `len` values: for
// LayerNorm the rows of the last dims, for BatchNorm each channel over batch and space.
void norm_backward(const graph_op_t &op, const std::vector<const ref_value_t *> &in,
        const std::vector<ref_value_t *> &out) {
    const bool layer = op.kind == dnnl_graph_op_layer_norm_backward;
    const ref_value_t &x = *in.at(0), &dy = *in.at(1), &mean = *in.at(2), &var = *in.at(3);
    const bool affine = layer ? op.flag(dnnl_graph_op_attr_use_affine, true) : in.size() > 4;
    const ref_value_t *gamma = affine && in.size() > 4 ? in[4] : nullptr;
    const double eps = op.f32(dnnl_graph_op_attr_epsilon, 1e-5f);
    const size_t nd = x.dims.size();
    if (dy.dims != x.dims || nd < 2) fail(op, "src and diff_dst differ");
    // Each value's group (statistics index) and position within the per-element params.
    int64_t groups = 0, len = 0;
    std::function<int64_t(int64_t)> group_of, param_of;
    std::vector<int64_t> pos(nd + 1);
    if (layer) {
        const int64_t b = op.s64(dnnl_graph_op_attr_begin_norm_axis, -1);
        const size_t begin = b < 0 ? size_t(b + int64_t(nd)) : size_t(b);
        if (begin >= nd) fail(op, "begin_norm_axis out of range");
        len = 1;
        for (size_t i = begin; i < nd; ++i)
            len *= x.dims[i];
        groups = len ? product(x.dims) / len : 0;
        group_of = [len](int64_t i) { return i / len; };
        param_of = [len](int64_t i) { return i % len; };
    } else {
        const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
        const size_t c = nxc ? nd - 1 : 1;
        groups = x.dims[c];
        len = groups ? product(x.dims) / groups : 0;
        group_of = [&, c](int64_t i) {
            logical_position(x.dims, i, pos.data());
            return pos[c];
        };
        param_of = group_of;
    }
    if (product(mean.dims) != groups || product(var.dims) != groups)
        fail(op, "mean / variance do not match the normalized groups");
    const int64_t n = product(x.dims);
    std::vector<int64_t> g(n), pi(n);
    for (int64_t i = 0; i < n; ++i)
        g[i] = group_of(i), pi[i] = param_of(i);
    auto gam = [&](int64_t i) { return gamma ? gamma->v[pi[i]] : 1.0; };
    auto rstd = [&](int64_t grp) { return 1 / std::sqrt(var.v[grp] + eps); };
    auto xhat = [&](int64_t i) { return (x.v[i] - mean.v[g[i]]) * rstd(g[i]); };
    // Per group: sum of dy * gamma and of dy * gamma * xhat (and of their magnitudes, which
    // size the tolerance of what is computed from them).
    std::vector<double> s1(groups, 0), s2(groups, 0), m1(groups, 0), m2(groups, 0);
    for (int64_t i = 0; i < n; ++i) {
        const double t1 = dy.v[i] * gam(i), t2 = t1 * xhat(i);
        s1[g[i]] += t1, s2[g[i]] += t2;
        m1[g[i]] += std::fabs(t1), m2[g[i]] += std::fabs(t2);
    }
    ref_value_t &dx = *out.at(0);
    dx.v.assign(n, 0);
    dx.mag.assign(n, 0);
    for (int64_t i = 0; i < n; ++i) {
        const double r = rstd(g[i]), xh = xhat(i);
        dx.v[i] = r * (dy.v[i] * gam(i) - s1[g[i]] / len - xh * s2[g[i]] / len);
        dx.mag[i] = r * (std::fabs(dy.v[i] * gam(i)) + m1[g[i]] / len + std::fabs(xh) * m2[g[i]] / len);
    }
    // diff_gamma, diff_beta: per normalized element (LayerNorm) or per channel (BatchNorm).
    if (out.size() > 1) {
        const int64_t np = layer ? len : groups;
        ref_value_t &dg = *out[1];
        dg.v.assign(np, 0);
        dg.mag.assign(np, 0);
        ref_value_t *db = out.size() > 2 ? out[2] : nullptr;
        if (db) db->v.assign(np, 0), db->mag.assign(np, 0);
        for (int64_t i = 0; i < n; ++i) {
            dg.v[pi[i]] += dy.v[i] * xhat(i);
            dg.mag[pi[i]] += std::fabs(dy.v[i] * xhat(i));
            if (db) db->v[pi[i]] += dy.v[i], db->mag[pi[i]] += std::fabs(dy.v[i]);
        }
    }
}

// Interpolate (x -> y) and InterpolateBackward ((x, dy) -> dx): every y position reads the
// product of each spatial dim's taps (nearest: one, linear modes: two neighbours).
void interpolate(const graph_op_t &op, const std::vector<const ref_value_t *> &in,
        const std::vector<ref_value_t *> &out) {
    const bool bwd = op.kind == dnnl_graph_op_interpolate_backward;
    const std::string mode = op.str(dnnl_graph_op_attr_mode, "nearest");
    const bool linear = mode == "linear" || mode == "bilinear" || mode == "trilinear";
    if (!linear && mode != "nearest") fail(op, "unknown mode " + mode);
    if (op.str(dnnl_graph_op_attr_coordinate_transformation_mode, "half_pixel") != "half_pixel")
        fail(op, "only half_pixel coordinates have a reference");
    ref_value_t &res = *out.at(0);
    const ref_value_t &src = *in.at(bwd ? 1 : 0);
    const dims_t &xd = bwd ? res.dims : src.dims, &yd = bwd ? src.dims : res.dims;
    const size_t nd = xd.size();
    if (nd < 3 || yd.size() != nd) fail(op, "source and destination need one rank of 3 or more");
    const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
    const size_t sp = nd - 2;
    auto at = [&](size_t i) { return nxc ? 1 + i : 2 + i; };
    std::vector<std::vector<std::vector<std::pair<int64_t, double>>>> taps;
    for (size_t i = 0; i < sp; ++i)
        taps.push_back(resampling_taps(linear, xd[at(i)], yd[at(i)]));
    res.v.assign(static_cast<size_t>(product(res.dims)), 0);
    std::vector<int64_t> yp(nd + 1), xp(nd), tp(sp + 1);
    dims_t counts(sp);
    for (int64_t yi = 0; yi < product(yd); ++yi) {
        logical_position(yd, yi, yp.data());
        for (size_t i = 0; i < sp; ++i)
            counts[i] = static_cast<int64_t>(taps[i][yp[at(i)]].size());
        std::copy(yp.begin(), yp.begin() + nd, xp.begin());
        for (int64_t t = 0; t < product(counts); ++t) {
            logical_position(counts, t, tp.data());
            double w = 1;
            for (size_t i = 0; i < sp; ++i) {
                const auto &tap = taps[i][yp[at(i)]][tp[i]];
                xp[at(i)] = tap.first;
                w *= tap.second;
            }
            const int64_t xi = linear_index(xd, xp.data());
            if (bwd)
                res.v[xi] += w * src.v[yi];
            else
                res.v[yi] += w * src.v[xi];
        }
    }
}

} // namespace

bool ref_is_pool_or_norm_backward(dnnl_graph_op_kind_t kind) {
    switch (kind) {
    case dnnl_graph_op_avg_pool:
    case dnnl_graph_op_avg_pool_backward:
    case dnnl_graph_op_max_pool:
    case dnnl_graph_op_max_pool_backward:
    case dnnl_graph_op_layer_norm_backward:
    case dnnl_graph_op_batch_norm_backward:
    case dnnl_graph_op_interpolate:
    case dnnl_graph_op_interpolate_backward: return true;
    default: return false;
    }
}

void ref_pool_or_norm_backward(const graph_op_t &op, const std::vector<const ref_value_t *> &in,
        const std::vector<ref_value_t *> &out) {
    if (op.kind == dnnl_graph_op_layer_norm_backward || op.kind == dnnl_graph_op_batch_norm_backward)
        norm_backward(op, in, out);
    else if (op.kind == dnnl_graph_op_interpolate || op.kind == dnnl_graph_op_interpolate_backward)
        interpolate(op, in, out);
    else
        pooling(op, in, out);
}

} // namespace benchdnn
