// Graphs of the training ops (SoftMax with stats, SoftMaxBackward, MaxPoolBackward,
// ConvolutionBackwardData / Weights), int8 convolution with per-output-channel weight scales
// and DynamicQuantize / DynamicDequantize, each with its inputs and the outputs plain loops written here expect. The CPU
// tests (graph_training_test.cpp) and the OpenCL ones (tests/gpu) run the same cases.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/graph_runner.hpp"

namespace training_cases {

using namespace graph_test;

struct case_t {
    std::string name;
    std::function<void(graph &)> build;
    std::map<size_t, std::vector<uint8_t>> inputs;
    std::map<size_t, std::vector<float>> want; // outputs by id, f32 unless in u8_outputs
    std::vector<size_t> u8_outputs;
    float tol = 1e-4f; // relative to the largest magnitude of each output
    size_t partitions = 1;
};

// (Empty vectors may have null data, which memcpy must not see even for 0 bytes.)
template <typename T>
std::vector<uint8_t> raw_bytes(const std::vector<T> &v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}
inline std::vector<uint8_t> bytes(const std::vector<float> &v) {
    return raw_bytes(v);
}
inline std::vector<float> floats(const std::vector<uint8_t> &b) {
    std::vector<float> v(b.size() / 4);
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * 4);
    return v;
}

// Checks every expected output of `c` in `got` (bytes by id).
inline void check_outputs(const case_t &c, const std::map<size_t, std::vector<uint8_t>> &got) {
    for (const auto &w : c.want) {
        ASSERT_TRUE(got.count(w.first)) << c.name << ": no output " << w.first;
        const bool u8 = std::count(c.u8_outputs.begin(), c.u8_outputs.end(), w.first) > 0;
        const std::vector<uint8_t> &b = got.at(w.first);
        const std::vector<float> g = u8 ? std::vector<float>(b.begin(), b.end()) : floats(b);
        ASSERT_EQ(g.size(), w.second.size()) << c.name << ": output " << w.first;
        float scale = 1e-6f;
        for (float x : w.second)
            if (std::isfinite(x)) scale = std::max(scale, std::fabs(x));
        for (size_t i = 0; i < g.size(); ++i) {
            if (!std::isfinite(w.second[i])) {
                ASSERT_EQ(g[i], w.second[i]) << c.name << ": output " << w.first << " at " << i;
                continue;
            }
            ASSERT_NEAR(g[i], w.second[i], c.tol * scale)
                    << c.name << ": output " << w.first << " at " << i;
        }
    }
}

// Index of a 4D tensor's element (n, c, h, w) stored NCHW or NHWC.
inline size_t at4(bool nxc, int64_t C, int64_t H, int64_t W, int64_t n, int64_t c, int64_t h,
        int64_t w) {
    return static_cast<size_t>(nxc ? ((n * H + h) * W + w) * C + c : ((n * C + c) * H + h) * W + w);
}
// Index of weights element (o, i, kh, kw) stored OIHW or HWIO (I per group).
inline size_t wat(bool xio, int64_t O, int64_t I, int64_t KH, int64_t KW, int64_t o, int64_t i,
        int64_t kh, int64_t kw) {
    return static_cast<size_t>(xio ? ((kh * KW + kw) * I + i) * O + o : ((o * I + i) * KH + kh) * KW + kw);
}
inline lt_dims data_dims(bool nxc, int64_t N, int64_t C, int64_t H, int64_t W) {
    return nxc ? lt_dims {N, H, W, C} : lt_dims {N, C, H, W};
}
inline lt_dims wei_dims(bool xio, int64_t O, int64_t I, int64_t KH, int64_t KW) {
    return xio ? lt_dims {KH, KW, I, O} : lt_dims {O, I, KH, KW};
}

// One 2D convolution's geometry (graph conventions: dilation 1 is dense).
struct conv_geom_t {
    int64_t N, IC, IH, IW, OC, KH, KW, G, SH, SW, PT, PL, PB, PR, DH, DW;
    int64_t oh() const { return (IH + PT + PB - ((KH - 1) * DH + 1)) / SH + 1; }
    int64_t ow() const { return (IW + PL + PR - ((KW - 1) * DW + 1)) / SW + 1; }
    void set_attrs(op &o, bool nxc, bool xio) const {
        o.set_attr(op::attr::strides, std::vector<int64_t> {SH, SW});
        o.set_attr(op::attr::pads_begin, std::vector<int64_t> {PT, PL});
        o.set_attr(op::attr::pads_end, std::vector<int64_t> {PB, PR});
        o.set_attr(op::attr::dilations, std::vector<int64_t> {DH, DW});
        o.set_attr(op::attr::groups, G);
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        o.set_attr(op::attr::weights_format, std::string(xio ? "XIO" : "OIX"));
    }
    // Visits every (src, weights, dst) index triple that a forward convolution multiplies.
    void each(bool nxc, bool xio,
            const std::function<void(size_t src, size_t wei, size_t dst)> &f) const {
        const int64_t OH = oh(), OW = ow(), ICG = IC / G, OCG = OC / G;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t oc = 0; oc < OC; ++oc)
                for (int64_t y = 0; y < OH; ++y)
                    for (int64_t x = 0; x < OW; ++x)
                        for (int64_t ic = 0; ic < ICG; ++ic)
                            for (int64_t kh = 0; kh < KH; ++kh)
                                for (int64_t kw = 0; kw < KW; ++kw) {
                                    const int64_t ih = y * SH - PT + kh * DH;
                                    const int64_t iw = x * SW - PL + kw * DW;
                                    if (ih < 0 || ih >= IH || iw < 0 || iw >= IW) continue;
                                    const int64_t c = (oc / OCG) * ICG + ic;
                                    f(at4(nxc, IC, IH, IW, n, c, ih, iw),
                                            wat(xio, OC, ICG, KH, KW, oc, ic, kh, kw),
                                            at4(nxc, OC, OH, OW, n, oc, y, x));
                                }
    }
};

// ConvolutionBackwardData and ConvolutionBackwardWeights of one geometry and layout.
inline std::vector<case_t> conv_backward(const conv_geom_t &q, bool nxc, bool xio) {
    const lt_dims sd = data_dims(nxc, q.N, q.IC, q.IH, q.IW);
    const lt_dims dd = data_dims(nxc, q.N, q.OC, q.oh(), q.ow());
    const lt_dims wd = wei_dims(xio, q.OC, q.IC / q.G, q.KH, q.KW);
    const auto src = random_floats(nelems(sd), 11), wei = random_floats(nelems(wd), 12);
    const auto diff_dst = random_floats(nelems(dd), 13);
    std::vector<double> dsrc(src.size(), 0.0), dwei(wei.size(), 0.0);
    q.each(nxc, xio, [&](size_t s, size_t w, size_t d) {
        dsrc[s] += double(diff_dst[d]) * wei[w];
        dwei[w] += double(diff_dst[d]) * src[s];
    });
    const std::string tag = std::string(nxc ? "NXC" : "NCX") + "/" + (xio ? "XIO" : "OIX");
    case_t data;
    data.name = "ConvolutionBackwardData " + tag;
    data.build = [=](graph &g) {
        op o(1, op::kind::ConvolutionBackwardData, {lt(0, dd), lt(1, wd)}, {lt(2, sd)});
        q.set_attrs(o, nxc, xio);
        o.set_attr(op::attr::dst_shape, sd);
        g.add_op(o);
    };
    data.inputs = {{0, bytes(diff_dst)}, {1, bytes(wei)}};
    data.want[2] = std::vector<float>(dsrc.begin(), dsrc.end());
    case_t weights;
    weights.name = "ConvolutionBackwardWeights " + tag;
    weights.build = [=](graph &g) {
        op o(1, op::kind::ConvolutionBackwardWeights, {lt(0, sd), lt(1, dd)}, {lt(2, wd)});
        q.set_attrs(o, nxc, xio);
        o.set_attr(op::attr::weights_shape, wd);
        g.add_op(o);
    };
    weights.inputs = {{0, bytes(src)}, {1, bytes(diff_dst)}};
    weights.want[2] = std::vector<float>(dwei.begin(), dwei.end());
    return {data, weights};
}

// MaxPoolBackward(src, diff_dst): diff_dst goes to the first largest element of each window.
inline case_t max_pool_backward(bool nxc, int64_t N, int64_t C, int64_t H, int64_t W, int64_t K,
        int64_t S, int64_t P, int64_t D) {
    const int64_t OH = (H + 2 * P - ((K - 1) * D + 1)) / S + 1;
    const int64_t OW = (W + 2 * P - ((K - 1) * D + 1)) / S + 1;
    const lt_dims sd = data_dims(nxc, N, C, H, W), dd = data_dims(nxc, N, C, OH, OW);
    const auto src = random_floats(nelems(sd), 21, -3.f, 3.f);
    const auto diff_dst = random_floats(nelems(dd), 22);
    std::vector<float> dsrc(src.size(), 0.f);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t y = 0; y < OH; ++y)
                for (int64_t x = 0; x < OW; ++x) {
                    size_t best = SIZE_MAX;
                    for (int64_t kh = 0; kh < K; ++kh)
                        for (int64_t kw = 0; kw < K; ++kw) {
                            const int64_t ih = y * S - P + kh * D, iw = x * S - P + kw * D;
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                            const size_t i = at4(nxc, C, H, W, n, c, ih, iw);
                            if (best == SIZE_MAX || src[i] > src[best]) best = i;
                        }
                    dsrc[best] += diff_dst[at4(nxc, C, OH, OW, n, c, y, x)];
                }
    case_t r;
    r.name = std::string("MaxPoolBackward ") + (nxc ? "NXC" : "NCX");
    r.build = [=](graph &g) {
        op o(1, op::kind::MaxPoolBackward, {lt(0, sd), lt(1, dd)}, {lt(2, sd)});
        o.set_attr(op::attr::strides, std::vector<int64_t> {S, S});
        o.set_attr(op::attr::kernel, std::vector<int64_t> {K, K});
        o.set_attr(op::attr::pads_begin, std::vector<int64_t> {P, P});
        o.set_attr(op::attr::pads_end, std::vector<int64_t> {P, P});
        o.set_attr(op::attr::dilations, std::vector<int64_t> {D, D});
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    r.inputs = {{0, bytes(src)}, {1, bytes(diff_dst)}};
    r.want[2] = dsrc;
    return r;
}

// AvgPoolBackward(diff_dst) with src_shape: each window's diff_dst spread evenly over the
// elements it counts (padding too unless exclude_pad).
inline case_t avg_pool_backward(bool nxc, bool exclude_pad, int64_t N, int64_t C, int64_t H,
        int64_t W, int64_t K, int64_t S, int64_t P) {
    const int64_t OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;
    const lt_dims sd = data_dims(nxc, N, C, H, W), dd = data_dims(nxc, N, C, OH, OW);
    const auto diff_dst = random_floats(nelems(dd), 23);
    std::vector<double> dsrc(nelems(sd), 0.0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t y = 0; y < OH; ++y)
                for (int64_t x = 0; x < OW; ++x) {
                    int64_t count = 0;
                    for (int pass = 0; pass < 2; ++pass)
                        for (int64_t kh = 0; kh < K; ++kh)
                            for (int64_t kw = 0; kw < K; ++kw) {
                                const int64_t ih = y * S - P + kh, iw = x * S - P + kw;
                                const bool in = ih >= 0 && ih < H && iw >= 0 && iw < W;
                                if (pass == 0) {
                                    count += in || !exclude_pad;
                                } else if (in) {
                                    dsrc[at4(nxc, C, H, W, n, c, ih, iw)]
                                            += double(diff_dst[at4(nxc, C, OH, OW, n, c, y, x)]) / count;
                                }
                            }
                }
    case_t r;
    r.name = std::string("AvgPoolBackward ") + (nxc ? "NXC" : "NCX")
            + (exclude_pad ? " exclude_pad" : "");
    r.build = [=](graph &g) {
        op o(1, op::kind::AvgPoolBackward, {lt(1, dd)}, {lt(2, sd)});
        o.set_attr(op::attr::strides, std::vector<int64_t> {S, S});
        o.set_attr(op::attr::kernel, std::vector<int64_t> {K, K});
        o.set_attr(op::attr::pads_begin, std::vector<int64_t> {P, P});
        o.set_attr(op::attr::pads_end, std::vector<int64_t> {P, P});
        o.set_attr(op::attr::exclude_pad, exclude_pad);
        o.set_attr(op::attr::src_shape, sd);
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    r.inputs = {{1, bytes(diff_dst)}};
    r.want[2] = std::vector<float>(dsrc.begin(), dsrc.end());
    return r;
}

// Softmax rows of a [outer, n, inner] view (axis in the middle).
struct rows_t {
    int64_t outer = 1, n = 1, inner = 1;
    rows_t(const lt_dims &dims, int axis) {
        for (int i = 0; i < (int)dims.size(); ++i)
            (i < axis ? outer : i == axis ? n : inner) *= dims[i];
    }
    template <typename F>
    void each(F f) const { // f(base, stride) for each row
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i)
                f(size_t(o * n * inner + i), size_t(inner));
    }
};

// SoftMax with its stats output (log of the sum of exp, shifted by the max); with
// inf_as_zero, some rows entirely -inf.
inline case_t softmax_stats(const lt_dims &dims, int axis_attr, bool inf_as_zero) {
    const int axis = axis_attr < 0 ? axis_attr + int(dims.size()) : axis_attr;
    auto src = random_floats(nelems(dims), 31, -4.f, 4.f);
    const rows_t rows(dims, axis);
    lt_dims sdims = dims;
    sdims[axis] = 1;
    std::vector<float> dst(src.size()), stats;
    int r = 0;
    rows.each([&](size_t b, size_t s) {
        if (inf_as_zero) { // every third row -inf only, every other some -inf
            for (int64_t j = 0; j < rows.n; ++j)
                if (r % 3 == 0 || (r % 2 == 1 && j % 2 == 0)) src[b + j * s] = -INFINITY;
        }
        ++r;
        double m = -INFINITY;
        for (int64_t j = 0; j < rows.n; ++j)
            m = std::max(m, double(src[b + j * s]));
        if (m == -INFINITY) { // inf_as_zero: zeros; stats from the lowest finite value
            for (int64_t j = 0; j < rows.n; ++j)
                dst[b + j * s] = 0.f;
            stats.push_back(float(-double(FLT_MAX) + std::log(double(rows.n))));
            return;
        }
        double sum = 0;
        for (int64_t j = 0; j < rows.n; ++j)
            sum += std::exp(double(src[b + j * s]) - m);
        for (int64_t j = 0; j < rows.n; ++j)
            dst[b + j * s] = float(std::exp(double(src[b + j * s]) - m) / sum);
        stats.push_back(float(m + std::log(sum)));
    });
    // stats come out in the order of the reduced tensor: outer major, inner minor.
    case_t c;
    c.name = std::string("SoftMax stats") + (inf_as_zero ? " inf_as_zero" : "");
    c.build = [=](graph &g) {
        op o(1, op::kind::SoftMax, {lt(0, dims)}, {lt(1, dims), lt(2, sdims)});
        o.set_attr(op::attr::axis, int64_t(axis_attr));
        if (inf_as_zero) o.set_attr(op::attr::mode, std::string("inf_as_zero"));
        g.add_op(o);
    };
    c.inputs = {{0, bytes(src)}};
    c.want[1] = dst;
    if (!inf_as_zero) c.want[2] = stats;
    c.tol = 1e-5f;
    return c;
}

// SoftMaxBackward(diff_dst, dst) = dst * (diff_dst - sum(diff_dst * dst)) along the axis.
inline case_t softmax_backward(const lt_dims &dims, int axis) {
    const auto x = random_floats(nelems(dims), 41, -3.f, 3.f);
    const auto dd = random_floats(nelems(dims), 42);
    const rows_t rows(dims, axis);
    std::vector<float> dst(x.size()), dsrc(x.size());
    rows.each([&](size_t b, size_t s) {
        double m = -INFINITY, sum = 0, dot = 0;
        for (int64_t j = 0; j < rows.n; ++j)
            m = std::max(m, double(x[b + j * s]));
        for (int64_t j = 0; j < rows.n; ++j)
            sum += std::exp(double(x[b + j * s]) - m);
        for (int64_t j = 0; j < rows.n; ++j)
            dst[b + j * s] = float(std::exp(double(x[b + j * s]) - m) / sum);
        for (int64_t j = 0; j < rows.n; ++j)
            dot += double(dd[b + j * s]) * dst[b + j * s];
        for (int64_t j = 0; j < rows.n; ++j)
            dsrc[b + j * s] = float(dst[b + j * s] * (dd[b + j * s] - dot));
    });
    case_t c;
    c.name = "SoftMaxBackward";
    c.build = [=](graph &g) {
        op o(1, op::kind::SoftMaxBackward, {lt(0, dims), lt(1, dims)}, {lt(2, dims)});
        o.set_attr(op::attr::axis, int64_t(axis));
        g.add_op(o);
    };
    c.inputs = {{0, bytes(dd)}, {1, bytes(dst)}};
    c.want[2] = dsrc;
    return c;
}

// Dequantize(u8 src, per tensor, zero point) and Dequantize(s8 weights, per output channel)
// into a Convolution: one partition, the scales applied by the convolution.
inline case_t int8_conv_per_oc(const conv_geom_t &q, bool nxc, bool xio, bool quantize_dst) {
    const lt_dims sd = data_dims(nxc, q.N, q.IC, q.IH, q.IW);
    const lt_dims dd = data_dims(nxc, q.N, q.OC, q.oh(), q.ow());
    const lt_dims wd = wei_dims(xio, q.OC, q.IC / q.G, q.KH, q.KW);
    std::vector<uint8_t> src(nelems(sd));
    std::vector<int8_t> wei(nelems(wd));
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = uint8_t((i * 37 + 11) % 256);
    for (size_t i = 0; i < wei.size(); ++i)
        wei[i] = int8_t(int((i * 53 + 7) % 255) - 127);
    const float src_scale = 0.02f;
    const int64_t src_zp = 7;
    std::vector<float> wscales(q.OC);
    for (int64_t o = 0; o < q.OC; ++o)
        wscales[o] = 0.001f * float(1 + o % 5);
    const float dst_scale = 0.5f;
    const int64_t dst_zp = 100;
    const int64_t OCG = q.OC / q.G, ICG = q.IC / q.G;
    (void)OCG;
    std::vector<double> acc(nelems(dd), 0.0);
    // The weights' output channel from its storage index.
    auto oc_of = [&](size_t w) {
        return xio ? int64_t(w % size_t(q.OC)) : int64_t(w / size_t(ICG * q.KH * q.KW));
    };
    q.each(nxc, xio, [&](size_t s, size_t w, size_t d) {
        acc[d] += (double(src[s]) - src_zp) * src_scale * double(wei[w]) * wscales[oc_of(w)];
    });
    std::vector<float> want(acc.size());
    for (size_t i = 0; i < acc.size(); ++i)
        want[i] = quantize_dst
                ? float(std::min(255.0, std::max(0.0, std::nearbyint(acc[i] / dst_scale) + dst_zp)))
                : float(acc[i]);
    case_t c;
    c.name = std::string("int8 Convolution ") + (nxc ? "NXC" : "NCX") + "/" + (xio ? "XIO" : "OIX")
            + (quantize_dst ? " u8 dst" : "");
    c.build = [=](graph &g) {
        op dqs(1, op::kind::Dequantize, {lt(0, sd, dt::u8)}, {lt(10, sd)});
        dqs.set_attr(op::attr::qtype, std::string("per_tensor"));
        dqs.set_attr(op::attr::scales, std::vector<float> {src_scale});
        dqs.set_attr(op::attr::zps, std::vector<int64_t> {src_zp});
        op dqw(2, op::kind::Dequantize, {lt(1, wd, dt::s8)}, {lt(11, wd)});
        dqw.set_attr(op::attr::qtype, std::string("per_channel"));
        dqw.set_attr(op::attr::axis, int64_t(xio ? 3 : 0));
        dqw.set_attr(op::attr::scales, wscales);
        dqw.set_attr(op::attr::zps, std::vector<int64_t>(q.OC, 0));
        op conv(3, op::kind::Convolution, {lt(10, sd), lt(11, wd)}, {lt(12, dd)});
        q.set_attrs(conv, nxc, xio);
        g.add_op(dqs);
        g.add_op(dqw);
        g.add_op(conv);
        if (quantize_dst) {
            op qd(4, op::kind::Quantize, {lt(12, dd)}, {lt(13, dd, dt::u8)});
            qd.set_attr(op::attr::qtype, std::string("per_tensor"));
            qd.set_attr(op::attr::scales, std::vector<float> {dst_scale});
            qd.set_attr(op::attr::zps, std::vector<int64_t> {dst_zp});
            g.add_op(qd);
        }
    };
    c.inputs = {{0, raw_bytes(src)}, {1, raw_bytes(wei)}};
    c.want[quantize_dst ? 13 : 12] = want;
    if (quantize_dst) c.u8_outputs.push_back(13);
    c.tol = quantize_dst ? 0.f : 1e-4f;
    return c;
}

// LogSoftmaxBackward(diff_dst, dst) = diff_dst - exp(dst) * sum(diff_dst) along the axis.
inline case_t log_softmax_backward(const lt_dims &dims, int axis) {
    const auto x = random_floats(nelems(dims), 43, -3.f, 3.f);
    const auto dd = random_floats(nelems(dims), 44);
    const rows_t rows(dims, axis);
    std::vector<float> dst(x.size()), dsrc(x.size());
    rows.each([&](size_t b, size_t s) {
        double m = -INFINITY, sum = 0, total = 0;
        for (int64_t j = 0; j < rows.n; ++j)
            m = std::max(m, double(x[b + j * s]));
        for (int64_t j = 0; j < rows.n; ++j)
            sum += std::exp(double(x[b + j * s]) - m);
        for (int64_t j = 0; j < rows.n; ++j) {
            dst[b + j * s] = float(double(x[b + j * s]) - m - std::log(sum));
            total += dd[b + j * s];
        }
        for (int64_t j = 0; j < rows.n; ++j)
            dsrc[b + j * s] = float(dd[b + j * s] - std::exp(double(dst[b + j * s])) * total);
    });
    case_t c;
    c.name = "LogSoftmaxBackward";
    c.build = [=](graph &g) {
        op o(1, op::kind::LogSoftmaxBackward, {lt(0, dims), lt(1, dims)}, {lt(2, dims)});
        o.set_attr(op::attr::axis, int64_t(axis));
        g.add_op(o);
    };
    c.inputs = {{0, bytes(dd)}, {1, bytes(dst)}};
    c.want[2] = dsrc;
    return c;
}

// DynamicDequantize of s8 (per channel, zero points) or u8 (per group of 1x3, no zero points),
// the scales and zero points as input tensors.
inline case_t dynamic_dequantize(bool per_group) {
    const int64_t R = per_group ? 4 : 3, C = per_group ? 6 : 8;
    std::vector<uint8_t> q(R * C);
    for (size_t i = 0; i < q.size(); ++i)
        q[i] = uint8_t((i * 29 + 5) % 256);
    const int64_t nscales = per_group ? R * (C / 3) : R;
    std::vector<float> scales(nscales);
    for (int64_t i = 0; i < nscales; ++i)
        scales[i] = 0.01f * float(i + 1);
    const std::vector<int32_t> zps {-3, 0, 11};
    std::vector<float> want(q.size());
    for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) {
            const size_t i = size_t(r * C + c);
            want[i] = per_group ? float(q[i]) * scales[r * (C / 3) + c / 3]
                                : float((double(int8_t(q[i])) - zps[r]) * scales[r]);
        }
    case_t k;
    k.name = per_group ? "DynamicDequantize u8 per_group" : "DynamicDequantize s8 per_channel";
    k.build = [=](graph &g) {
        const dt qt = per_group ? dt::u8 : dt::s8;
        std::vector<logical_tensor> ins {lt(0, {R, C}, qt),
                lt(1, per_group ? lt_dims {R, C / 3} : lt_dims {R})};
        if (!per_group) ins.push_back(lt(2, {R}, dt::s32));
        op o(1, op::kind::DynamicDequantize, ins, {lt(3, {R, C})});
        o.set_attr(op::attr::qtype, std::string(per_group ? "per_group" : "per_channel"));
        if (per_group) o.set_attr(op::attr::group_shape, std::vector<int64_t> {1, 3});
        else o.set_attr(op::attr::axis, int64_t(0));
        g.add_op(o);
    };
    k.inputs = {{0, raw_bytes(q)}, {1, bytes(scales)}};
    if (!per_group) k.inputs[2] = raw_bytes(zps);
    k.want[3] = want;
    k.tol = 1e-6f;
    return k;
}

// DynamicQuantize f32 -> u8, per tensor, with a zero point: round to nearest, saturate.
inline case_t dynamic_quantize() {
    const auto x = random_floats(20, 51, -3.f, 3.f);
    const float scale = 0.02f;
    const int32_t zp = 120;
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        want[i] = float(std::min(255.0, std::max(0.0, std::nearbyint(double(x[i]) / scale) + zp)));
    case_t k;
    k.name = "DynamicQuantize u8 per_tensor";
    k.build = [=](graph &g) {
        op o(1, op::kind::DynamicQuantize, {lt(0, {5, 4}), lt(1, {1}), lt(2, {1}, dt::s32)},
                {lt(3, {5, 4}, dt::u8)});
        o.set_attr(op::attr::qtype, std::string("per_tensor"));
        g.add_op(o);
    };
    k.inputs = {{0, bytes(x)}, {1, bytes({scale})}, {2, raw_bytes(std::vector<int32_t> {zp})}};
    k.want[3] = want;
    k.u8_outputs.push_back(3);
    k.tol = 0.f;
    return k;
}

// Every case, each layout.
inline std::vector<case_t> all_cases() {
    std::vector<case_t> all;
    const conv_geom_t geoms[] = {
            {2, 3, 7, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}, // padded, odd sizes
            {1, 4, 9, 8, 6, 3, 2, 2, 2, 2, 1, 0, 0, 1, 2, 1}, // groups, strides, dilation
            {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, // all ones
    };
    for (const auto &q : geoms)
        for (bool nxc : {false, true})
            for (bool xio : {false, true}) {
                for (auto &c : conv_backward(q, nxc, xio))
                    all.push_back(c);
                all.push_back(int8_conv_per_oc(q, nxc, xio, false));
            }
    for (bool nxc : {false, true})
        for (bool xio : {false, true})
            all.push_back(int8_conv_per_oc(geoms[0], nxc, xio, true));
    for (bool nxc : {false, true}) {
        all.push_back(max_pool_backward(nxc, 2, 3, 7, 8, 3, 2, 1, 1));
        all.push_back(max_pool_backward(nxc, 1, 5, 9, 9, 2, 1, 0, 2));
        all.push_back(max_pool_backward(nxc, 1, 1, 1, 1, 1, 1, 0, 1));
        for (bool exclude_pad : {false, true})
            all.push_back(avg_pool_backward(nxc, exclude_pad, 2, 3, 7, 6, 3, 2, 1));
    }
    all.push_back(softmax_stats({3, 17}, 1, false));
    all.push_back(softmax_stats({2, 5, 3, 4}, 1, false));
    all.push_back(softmax_stats({1, 2, 6, 6}, -1, true));
    all.push_back(softmax_stats({4, 1}, 1, false));
    all.push_back(softmax_backward({3, 17}, 1));
    all.push_back(softmax_backward({2, 5, 3, 4}, 1));
    all.push_back(softmax_backward({1, 1}, 0));
    all.push_back(log_softmax_backward({4, 9}, 1));
    all.push_back(log_softmax_backward({2, 3, 5}, 1));
    all.push_back(dynamic_dequantize(false));
    all.push_back(dynamic_dequantize(true));
    all.push_back(dynamic_quantize());
    return all;
}

} // namespace training_cases
