// Graphs of the remaining backward ops, each with the outputs a plain formula written here
// expects: the eltwise backward family (src and dst forms), PReLUBackward, BiasAddBackward,
// InterpolateBackward and ConvTransposeBackwardData / Weights. The CPU tests
// (graph_training_test.cpp) and the OpenCL ones (tests/gpu) run the same cases.
#pragma once

#include "graph/training_cases.hpp"

namespace training_cases {

// One eltwise op: its forward and derivative in double, its attributes, the input range.
struct eltwise_math_t {
    std::string name;
    op::kind kind;
    std::function<double(double)> fwd, grad;
    std::function<void(op &)> attrs;
    bool has_use_dst;
    float lo, hi;
};

inline double sigmoid_d(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

inline std::vector<eltwise_math_t> eltwise_maths() {
    const double kpi = 3.14159265358979323846;
    const float cmin = -0.5f, cmax = 0.7f, elu_a = 0.8f, hs_a = 0.2f, hs_b = 0.5f, sp_b = 1.5f;
    auto none = [](op &) {};
    auto tanh_gelu_u = [=](double x) { return std::sqrt(2.0 / kpi) * (x + 0.044715 * x * x * x); };
    return {
            {"AbsBackward", op::kind::AbsBackward, [](double x) { return std::fabs(x); },
                    [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }, none, false, -2.f, 2.f},
            {"ClampBackward", op::kind::ClampBackward,
                    [=](double x) { return std::min<double>(cmax, std::max<double>(cmin, x)); },
                    [=](double x) { return x > cmin && x < cmax ? 1.0 : 0.0; },
                    [=](op &o) {
                        o.set_attr(op::attr::min, cmin);
                        o.set_attr(op::attr::max, cmax);
                    },
                    true, -2.f, 2.f},
            {"EluBackward", op::kind::EluBackward,
                    [=](double x) { return x > 0 ? x : elu_a * (std::exp(x) - 1.0); },
                    [=](double x) { return x > 0 ? 1.0 : elu_a * std::exp(x); },
                    [=](op &o) { o.set_attr(op::attr::alpha, elu_a); }, true, -3.f, 2.f},
            {"GELUBackward erf", op::kind::GELUBackward,
                    [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); },
                    [=](double x) {
                        return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)))
                                + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * kpi);
                    },
                    none, false, -4.f, 4.f},
            {"GELUBackward tanh", op::kind::GELUBackward,
                    [=](double x) { return 0.5 * x * (1.0 + std::tanh(tanh_gelu_u(x))); },
                    [=](double x) {
                        const double t = std::tanh(tanh_gelu_u(x));
                        return 0.5 * (1.0 + t)
                                + 0.5 * x * (1.0 - t * t) * std::sqrt(2.0 / kpi)
                                * (1.0 + 3.0 * 0.044715 * x * x);
                    },
                    [](op &o) { o.set_attr(op::attr::mode, std::string("gelu_tanh")); }, false,
                    -4.f, 4.f},
            {"HardSigmoidBackward", op::kind::HardSigmoidBackward,
                    [=](double x) { return std::min(1.0, std::max(0.0, hs_a * x + hs_b)); },
                    [=](double x) {
                        const double v = hs_a * x + hs_b;
                        return v > 0 && v < 1 ? double(hs_a) : 0.0;
                    },
                    [=](op &o) {
                        o.set_attr(op::attr::alpha, hs_a);
                        o.set_attr(op::attr::beta, hs_b);
                    },
                    false, -4.f, 4.f},
            {"HardSwishBackward", op::kind::HardSwishBackward,
                    [](double x) { return x * std::min(1.0, std::max(0.0, x / 6.0 + 0.5)); },
                    [](double x) { return x < -3 ? 0.0 : x > 3 ? 1.0 : x / 3.0 + 0.5; }, none,
                    false, -5.f, 5.f},
            {"MishBackward", op::kind::MishBackward,
                    [](double x) { return x * std::tanh(std::log1p(std::exp(x))); },
                    [](double x) {
                        const double t = std::tanh(std::log1p(std::exp(x)));
                        return t + x * sigmoid_d(x) * (1.0 - t * t);
                    },
                    none, false, -4.f, 4.f},
            {"ReLUBackward", op::kind::ReLUBackward, [](double x) { return x > 0 ? x : 0.0; },
                    [](double x) { return x > 0 ? 1.0 : 0.0; }, none, true, -2.f, 2.f},
            {"SigmoidBackward", op::kind::SigmoidBackward, sigmoid_d,
                    [](double x) { return sigmoid_d(x) * (1.0 - sigmoid_d(x)); }, none, true,
                    -5.f, 5.f},
            {"SoftPlusBackward", op::kind::SoftPlusBackward,
                    [=](double x) { return std::log1p(std::exp(sp_b * x)) / sp_b; },
                    [=](double x) { return sigmoid_d(sp_b * x); },
                    [=](op &o) { o.set_attr(op::attr::beta, sp_b); }, false, -4.f, 4.f},
            {"SqrtBackward", op::kind::SqrtBackward, [](double x) { return std::sqrt(x); },
                    [](double x) { return 0.5 / std::sqrt(x); }, none, true, 0.1f, 4.f},
            {"TanhBackward", op::kind::TanhBackward, [](double x) { return std::tanh(x); },
                    [](double x) { return 1.0 - std::tanh(x) * std::tanh(x); }, none, true, -3.f,
                    3.f},
    };
}

// XBackward(src or dst, diff_dst) = diff_dst * f'(src).
inline case_t eltwise_backward(const eltwise_math_t &e, int use_dst, const lt_dims &dims) {
    const auto x = random_floats(nelems(dims), 61, e.lo, e.hi);
    const auto dd = random_floats(nelems(dims), 62);
    std::vector<float> data(x.size()), want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        data[i] = use_dst == 1 ? float(e.fwd(x[i])) : x[i];
        want[i] = float(double(dd[i]) * e.grad(x[i]));
    }
    case_t c;
    c.name = e.name + (use_dst < 0 ? "" : use_dst ? " use_dst" : " use_src") + " "
            + std::to_string(nelems(dims));
    c.build = [=](graph &g) {
        op o(1, e.kind, {lt(0, dims), lt(1, dims)}, {lt(2, dims)});
        e.attrs(o);
        if (use_dst >= 0) o.set_attr(op::attr::use_dst, use_dst == 1);
        g.add_op(o);
    };
    c.inputs = {{0, bytes(data)}, {1, bytes(dd)}};
    c.want[2] = want;
    return c;
}

// Where a slope element applies to an NCHW / NHWC element: per channel, one value, or the
// whole tensor but the batch (TensorFlow's form).
enum class slope_t { per_channel, single, all_but_batch };

// PReLUBackward(src, slope, diff_dst) = (x > 0 ? dd : dd * slope, sum of dd * x where x <= 0).
inline case_t prelu_backward(bool nxc, slope_t kind) {
    const int64_t N = 2, C = 3, H = 4, W = 5;
    const lt_dims sd = data_dims(nxc, N, C, H, W);
    const lt_dims wd = kind == slope_t::per_channel ? lt_dims {C}
            : kind == slope_t::single                ? lt_dims {1}
                                                     : lt_dims(sd.begin() + 1, sd.end());
    const auto x = random_floats(nelems(sd), 71, -2.f, 2.f);
    const auto slope = random_floats(nelems(wd), 72, 0.f, 0.5f);
    const auto dd = random_floats(nelems(sd), 73);
    std::vector<float> dsrc(x.size());
    std::vector<double> dslope(slope.size(), 0.0);
    const size_t per_image = x.size() / N;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t w = 0; w < W; ++w) {
                    const size_t i = at4(nxc, C, H, W, n, c, h, w);
                    const size_t s = kind == slope_t::per_channel ? size_t(c)
                            : kind == slope_t::single             ? 0
                                                                  : i % per_image;
                    dsrc[i] = x[i] > 0 ? dd[i] : dd[i] * slope[s];
                    if (x[i] <= 0) dslope[s] += double(dd[i]) * x[i];
                }
    case_t c;
    c.name = std::string("PReLUBackward ") + (nxc ? "NXC" : "NCX")
            + (kind == slope_t::per_channel ? " per_channel"
                            : kind == slope_t::single ? " single"
                                                      : " all_but_batch");
    c.build = [=](graph &g) {
        op o(1, op::kind::PReLUBackward, {lt(0, sd), lt(1, wd), lt(2, sd)}, {lt(3, sd), lt(4, wd)});
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    c.inputs = {{0, bytes(x)}, {1, bytes(slope)}, {2, bytes(dd)}};
    c.want[3] = dsrc;
    c.want[4] = std::vector<float>(dslope.begin(), dslope.end());
    return c;
}

// BiasAddBackward(diff_dst) = diff_dst summed over all but the channel axis.
inline case_t bias_add_backward(bool nxc, const lt_dims &dims) {
    const int caxis = nxc ? int(dims.size()) - 1 : 1;
    const auto dd = random_floats(nelems(dims), 81);
    std::vector<double> sum(dims[caxis], 0.0);
    int64_t inner = 1;
    for (size_t i = caxis + 1; i < dims.size(); ++i)
        inner *= dims[i];
    for (size_t i = 0; i < dd.size(); ++i)
        sum[(int64_t(i) / inner) % dims[caxis]] += dd[i];
    case_t c;
    c.name = std::string("BiasAddBackward ") + (nxc ? "NXC " : "NCX ")
            + std::to_string(dims.size()) + "D";
    c.build = [=](graph &g) {
        op o(1, op::kind::BiasAddBackward, {lt(0, dims)}, {lt(1, {dims[caxis]})});
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    c.inputs = {{0, bytes(dd)}};
    c.want[1] = std::vector<float>(sum.begin(), sum.end());
    return c;
}

// The source taps of one output coordinate along one axis, half-pixel mapping: the nearest
// one, or the two linear neighbours clamped to the edge with their weights.
inline std::vector<std::pair<int64_t, double>> taps(bool linear, int64_t o, int64_t in, int64_t out) {
    const double s = (o + 0.5) * double(in) / double(out) - 0.5;
    auto clamp = [&](int64_t i) { return std::min<int64_t>(in - 1, std::max<int64_t>(0, i)); };
    if (!linear) return {{clamp(int64_t(std::lround(s))), 1.0}};
    const double f = std::floor(s);
    return {{clamp(int64_t(f)), 1.0 - (s - f)}, {clamp(int64_t(f) + 1), s - f}};
}

// InterpolateBackward(src, diff_dst): each diff_dst element spread over the source taps the
// forward read it from. Odd source extents keep nearest's rounding away from halves.
inline case_t interpolate_backward(bool nxc, bool linear, int64_t IH, int64_t IW, int64_t OH, int64_t OW) {
    const int64_t N = 2, C = 3;
    const lt_dims sd = data_dims(nxc, N, C, IH, IW), dd = data_dims(nxc, N, C, OH, OW);
    const auto src = random_floats(nelems(sd), 91);
    const auto diff_dst = random_floats(nelems(dd), 92);
    std::vector<double> dsrc(src.size(), 0.0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t y = 0; y < OH; ++y)
                for (int64_t x = 0; x < OW; ++x)
                    for (const auto &ty : taps(linear, y, IH, OH))
                        for (const auto &tx : taps(linear, x, IW, OW))
                            dsrc[at4(nxc, C, IH, IW, n, c, ty.first, tx.first)]
                                    += ty.second * tx.second * diff_dst[at4(nxc, C, OH, OW, n, c, y, x)];
    case_t k;
    k.name = std::string("InterpolateBackward ") + (linear ? "bilinear " : "nearest ")
            + (nxc ? "NXC " : "NCX ") + std::to_string(IH) + "x" + std::to_string(IW) + "->"
            + std::to_string(OH) + "x" + std::to_string(OW);
    k.build = [=](graph &g) {
        op o(1, op::kind::InterpolateBackward, {lt(0, sd), lt(1, dd)}, {lt(2, sd)});
        o.set_attr(op::attr::mode, std::string(linear ? "bilinear" : "nearest"));
        o.set_attr(op::attr::sizes, std::vector<int64_t> {OH, OW});
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    k.inputs = {{0, bytes(src)}, {1, bytes(diff_dst)}};
    k.want[2] = std::vector<float>(dsrc.begin(), dsrc.end());
    return k;
}

// ConvTransposeBackwardData and ConvTransposeBackwardWeights of the ConvTranspose whose
// forward is the backward data of convolution q: its src is q's dst, its dst q's src, its
// weights q's read as IOX (OIX) or XOI (XIO); output_padding makes up q's floor rounding.
inline std::vector<case_t> conv_transpose_backward(const conv_geom_t &q, bool nxc, bool xoi) {
    const lt_dims sd = data_dims(nxc, q.N, q.OC, q.oh(), q.ow()); // ConvTranspose src
    const lt_dims dd = data_dims(nxc, q.N, q.IC, q.IH, q.IW); // ConvTranspose dst
    const lt_dims wd = wei_dims(xoi, q.OC, q.IC / q.G, q.KH, q.KW);
    const int64_t oph = q.IH - ((q.oh() - 1) * q.SH + (q.KH - 1) * q.DH + 1 - q.PT - q.PB);
    const int64_t opw = q.IW - ((q.ow() - 1) * q.SW + (q.KW - 1) * q.DW + 1 - q.PL - q.PR);
    const auto src = random_floats(nelems(sd), 101), wei = random_floats(nelems(wd), 102);
    const auto diff_dst = random_floats(nelems(dd), 103);
    std::vector<double> dsrc(src.size(), 0.0), dwei(wei.size(), 0.0);
    // q multiplies (its src = our dst, weights, its dst = our src).
    q.each(nxc, xoi, [&](size_t d, size_t w, size_t s) {
        dsrc[s] += double(diff_dst[d]) * wei[w];
        dwei[w] += double(diff_dst[d]) * src[s];
    });
    auto set_attrs = [=](op &o) {
        q.set_attrs(o, nxc, false);
        o.set_attr(op::attr::weights_format, std::string(xoi ? "XOI" : "IOX"));
        o.set_attr(op::attr::output_padding, std::vector<int64_t> {oph, opw});
    };
    const std::string tag = std::string(nxc ? "NXC" : "NCX") + "/" + (xoi ? "XOI" : "IOX")
            + " g" + std::to_string(q.G);
    case_t data;
    data.name = "ConvTransposeBackwardData " + tag;
    data.build = [=](graph &g) {
        op o(1, op::kind::ConvTransposeBackwardData, {lt(0, dd), lt(1, wd)}, {lt(2, sd)});
        set_attrs(o);
        g.add_op(o);
    };
    data.inputs = {{0, bytes(diff_dst)}, {1, bytes(wei)}};
    data.want[2] = std::vector<float>(dsrc.begin(), dsrc.end());
    case_t weights;
    weights.name = "ConvTransposeBackwardWeights " + tag;
    weights.build = [=](graph &g) {
        op o(1, op::kind::ConvTransposeBackwardWeights, {lt(0, sd), lt(1, dd)}, {lt(2, wd)});
        set_attrs(o);
        o.set_attr(op::attr::weights_shape, wd);
        g.add_op(o);
    };
    weights.inputs = {{0, bytes(src)}, {1, bytes(diff_dst)}};
    weights.want[2] = std::vector<float>(dwei.begin(), dwei.end());
    return {data, weights};
}

inline std::vector<case_t> backward_cases() {
    std::vector<case_t> all;
    for (const auto &e : eltwise_maths()) {
        for (int use_dst : e.has_use_dst ? std::vector<int> {0, 1} : std::vector<int> {-1})
            all.push_back(eltwise_backward(e, use_dst, {2, 3, 37}));
        all.push_back(eltwise_backward(e, e.has_use_dst ? 1 : -1, {1}));
    }
    for (const auto &e : eltwise_maths())
        if (e.kind == op::kind::ReLUBackward) all.push_back(eltwise_backward(e, 0, {0, 5}));
    all.push_back(bias_add_backward(false, {0, 3, 2})); // zero-size: the sums are 0
    for (bool nxc : {false, true}) {
        for (slope_t s : {slope_t::per_channel, slope_t::single, slope_t::all_but_batch})
            all.push_back(prelu_backward(nxc, s));
        all.push_back(bias_add_backward(nxc, {2, 3, 4, 5}));
        all.push_back(bias_add_backward(nxc, {5, 7}));
        for (bool linear : {false, true}) {
            all.push_back(interpolate_backward(nxc, linear, 5, 3, 8, 7)); // up
            all.push_back(interpolate_backward(nxc, linear, 7, 9, 3, 4)); // down
        }
    }
    const conv_geom_t geoms[] = {
            {2, 3, 7, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, // padded, odd sizes
            {1, 4, 9, 8, 6, 3, 2, 2, 2, 2, 1, 0, 0, 1, 2, 1}, // groups, strides, dilation
            {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, // all ones
    };
    for (const auto &q : geoms)
        for (bool nxc : {false, true})
            for (bool xoi : {false, true})
                for (auto &c : conv_transpose_backward(q, nxc, xoi))
                    all.push_back(c);
    return all;
}

} // namespace training_cases
