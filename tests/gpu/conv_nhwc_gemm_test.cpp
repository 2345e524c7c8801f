// GPU forward convolution on channels-last GEMMs (ocl:convolution:gemm_nhwc everywhere,
// ocl:convolution:implicit_wgmma_sm90a where the device loads sm_90a PTX) against a plain
// double-precision reference written here: `any` and explicit channels-last layouts, 1x1
// (src multiplied in place) and windows gathered into columns, strides, asymmetric-looking
// padding, dilation, odd channel counts, groups, 1D, an empty batch, bias, scales and
// post-ops (sum + relu, a per-channel binary add that reads positions), f32, bf16, f16.
// Problems these implementations refuse fall back to the generic ones, which the test checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

struct conv_case_t {
    int64_t g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw; // ic, oc per group
    bool one_d = false;
    int64_t oh() const {
        return (ih + 2 * ph - ((kh - 1) * (dh + 1) + 1)) / sh + 1;
    }
    int64_t ow() const {
        return (iw + 2 * pw - ((kw - 1) * (dw + 1) + 1)) / sw + 1;
    }
};

enum class attrs_t { none, sum_relu, binary_per_oc, scales };

// Quarters in [-1.25, 1.25]: exact in bf16, sums of products exact in f32 at these sizes.
float value(size_t i, int salt) {
    return static_cast<float>(static_cast<int>((i * 7 + salt * 5) % 11) - 5) * 0.25f;
}

std::vector<float> values(size_t n, int salt) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = value(i, salt);
    return v;
}

memory::dims act_dims(const conv_case_t &c, int64_t ch, int64_t h, int64_t w) {
    return c.one_d ? memory::dims{c.mb, ch, w} : memory::dims{c.mb, ch, h, w};
}

tag plain(size_t ndims) {
    static const tag tags[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde};
    return tags[ndims];
}

memory user_memory(const dnnl::engine &eng, const memory::dims &dims, const std::vector<float> &v) {
    memory m({dims, dt::f32, plain(dims.size())}, eng);
    float *p = m.map_data<float>();
    if (!v.empty()) std::memcpy(p, v.data(), v.size() * sizeof(float)); // empty: p may be null
    m.unmap_data(p);
    return m;
}

std::vector<float> read(const memory &m) {
    std::vector<float> v(m.get_desc().get_size() / sizeof(float));
    const float *p = m.map_data<float>();
    if (!v.empty()) std::memcpy(v.data(), p, v.size() * sizeof(float));
    m.unmap_data(const_cast<float *>(p));
    return v;
}

struct problem_t {
    conv_case_t c;
    dt type = dt::f32;
    bool any = true; // else explicit channels-last src/dst and (g)ohwi weights
    attrs_t attrs = attrs_t::none;
};

// dst(n, g * oc + o, y, x) in double, as oneDNN defines it: (conv * src_scale + bias),
// then the post-ops; `old` is dst before (the sum reads it).
std::vector<double> reference(const problem_t &p, const std::vector<float> &src,
        const std::vector<float> &wei, const std::vector<float> &bias,
        const std::vector<float> &old, const std::vector<float> &bin) {
    const conv_case_t &c = p.c;
    const int64_t OH = c.oh(), OW = c.ow(), C = c.g * c.ic, OC = c.g * c.oc;
    std::vector<double> out(static_cast<size_t>(c.mb * OC * OH * OW));
    for (int64_t n = 0; n < c.mb; ++n)
        for (int64_t g = 0; g < c.g; ++g)
            for (int64_t o = 0; o < c.oc; ++o)
                for (int64_t y = 0; y < OH; ++y)
                    for (int64_t x = 0; x < OW; ++x) {
                        double acc = 0;
                        for (int64_t i = 0; i < c.ic; ++i)
                            for (int64_t ky = 0; ky < c.kh; ++ky)
                                for (int64_t kx = 0; kx < c.kw; ++kx) {
                                    const int64_t iy = y * c.sh - c.ph + ky * (c.dh + 1);
                                    const int64_t ix = x * c.sw - c.pw + kx * (c.dw + 1);
                                    if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                                    const double s = src[static_cast<size_t>(
                                            ((n * C + g * c.ic + i) * c.ih + iy) * c.iw + ix)];
                                    const double w = wei[static_cast<size_t>(
                                            (((g * c.oc + o) * c.ic + i) * c.kh + ky) * c.kw + kx)];
                                    acc += s * w;
                                }
                        const int64_t oc = g * c.oc + o;
                        const size_t at = static_cast<size_t>(((n * OC + oc) * OH + y) * OW + x);
                        if (p.attrs == attrs_t::scales) acc *= 0.5;
                        acc += bias[static_cast<size_t>(oc)];
                        if (p.attrs == attrs_t::sum_relu) {
                            acc += 0.5 * old[at];
                            acc = acc > 0 ? acc : 0;
                        }
                        if (p.attrs == attrs_t::binary_per_oc) acc += bin[static_cast<size_t>(oc)];
                        if (p.attrs == attrs_t::scales) acc /= 2.0;
                        out[at] = acc;
                    }
    return out;
}

// Runs the problem on the GPU; returns the implementation's name and checks dst.
std::string check(const problem_t &p) {
    const conv_case_t &c = p.c;
    SCOPED_TRACE(
            "g" + std::to_string(c.g) + " mb" + std::to_string(c.mb) + " ic" + std::to_string(c.ic)
            + " oc" + std::to_string(c.oc) + " ih" + std::to_string(c.ih) + " kh"
            + std::to_string(c.kh) + " sh" + std::to_string(c.sh) + " ph" + std::to_string(c.ph)
            + " dh" + std::to_string(c.dh)
            + (p.type == dt::bf16       ? " bf16"
                    : p.type == dt::f16 ? " f16"
                                        : " f32")
            + (p.any ? " any" : " nhwc") + " attrs " + std::to_string(static_cast<int>(p.attrs)));
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    dnnl::stream strm(eng);
    const int64_t OH = c.oh(), OW = c.ow(), C = c.g * c.ic, OC = c.g * c.oc;
    const memory::dims src_d = act_dims(c, C, c.ih, c.iw), dst_d = act_dims(c, OC, OH, OW);
    memory::dims wei_d = c.g > 1 ? memory::dims{c.g, c.oc, c.ic} : memory::dims{c.oc, c.ic};
    if (!c.one_d) wei_d.push_back(c.kh);
    wei_d.push_back(c.kw);
    const memory::dims strides = c.one_d ? memory::dims{c.sw} : memory::dims{c.sh, c.sw};
    const memory::dims dil = c.one_d ? memory::dims{c.dw} : memory::dims{c.dh, c.dw};
    const memory::dims pad = c.one_d ? memory::dims{c.pw} : memory::dims{c.ph, c.pw};
    memory::dims pad_r = pad;
    // Right padding that makes the output size exact (as oneDNN requires it).
    for (size_t i = 0; i < pad.size(); ++i) {
        const bool h = !c.one_d && i == 0;
        const int64_t in = h ? c.ih : c.iw, k = h ? c.kh : c.kw, d = h ? c.dh : c.dw,
                      s = h ? c.sh : c.sw, o = h ? OH : OW;
        pad_r[i] = (o - 1) * s + (k - 1) * (d + 1) + 1 - in - pad[i];
    }

    const tag act = p.any ? tag::any : c.one_d ? tag::nwc : tag::nhwc;
    const tag wt = p.any     ? tag::any
                   : c.g > 1 ? (c.one_d ? tag::abdc : tag::abdec)
                             : (c.one_d ? tag::acb : tag::acdb);
    const memory::desc src_md(src_d, p.type, act), wei_md(wei_d, p.type, wt),
            dst_md(dst_d, p.type, act), bias_md({OC}, dt::f32, tag::a);

    dnnl::primitive_attr attr;
    dnnl::post_ops po;
    if (p.attrs == attrs_t::sum_relu) {
        po.append_sum(0.5f);
        po.append_eltwise(dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    }
    const memory::dims bin_d = c.one_d ? memory::dims{1, OC, 1} : memory::dims{1, OC, 1, 1};
    if (p.attrs == attrs_t::binary_per_oc)
        po.append_binary(dnnl::algorithm::binary_add, memory::desc(bin_d, dt::f32, tag::any));
    attr.set_post_ops(po);
    if (p.attrs == attrs_t::scales) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        attr.set_scales_mask(DNNL_ARG_DST, 0);
    }
    dnnl::convolution_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, src_md, wei_md, bias_md, dst_md, strides, dil, pad,
            pad_r, attr);

    const std::vector<float> src_v = values(static_cast<size_t>(c.mb * C * c.ih * c.iw), 1),
                             wei_v = values(static_cast<size_t>(OC * c.ic * c.kh * c.kw), 2),
                             bias_v = values(static_cast<size_t>(OC), 3),
                             old_v = values(static_cast<size_t>(c.mb * OC * OH * OW), 4),
                             bin_v = values(static_cast<size_t>(OC), 5);
    memory::dims wei_plain = wei_d;
    memory src_u = user_memory(eng, src_d, src_v), wei_u = user_memory(eng, wei_plain, wei_v),
           bias_m = user_memory(eng, {OC}, bias_v), old_u = user_memory(eng, dst_d, old_v);
    memory src_m(pd.src_desc(), eng), wei_m(pd.weights_desc(), eng), dst_m(pd.dst_desc(), eng);
    dnnl::reorder(src_u, src_m).execute(strm, src_u, src_m);
    dnnl::reorder(wei_u, wei_m).execute(strm, wei_u, wei_m);
    if (p.attrs == attrs_t::sum_relu) {
        dnnl::reorder(old_u, dst_m).execute(strm, old_u, dst_m);
    } else {
        // Poison: an element the kernel does not write fails the comparison.
        std::vector<float> nan(old_v.size(), std::nanf(""));
        memory poison = user_memory(eng, dst_d, nan);
        dnnl::reorder(poison, dst_m).execute(strm, poison, dst_m);
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, wei_m},
            {DNNL_ARG_BIAS, bias_m}, {DNNL_ARG_DST, dst_m}};
    memory bin_m;
    if (p.attrs == attrs_t::binary_per_oc) {
        bin_m = user_memory(eng, bin_d, bin_v);
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = bin_m;
    }
    memory s_src, s_dst;
    if (p.attrs == attrs_t::scales) {
        s_src = user_memory(eng, {1}, {0.5f});
        s_dst = user_memory(eng, {1}, {2.f});
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = s_src;
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = s_dst;
    }
    dnnl::convolution_forward(pd).execute(strm, args);
    memory out_u({dst_d, dt::f32, plain(dst_d.size())}, eng);
    dnnl::reorder(dst_m, out_u).execute(strm, dst_m, out_u);
    strm.wait();

    const std::vector<double> want = reference(p, src_v, wei_v, bias_v, old_v, bin_v);
    const std::vector<float> got = read(out_u);
    // f32: every term is exact; bf16/f16 dst: one rounding (at most 8 bits), plus the sum's old
    // value.
    const double rel = p.type == dt::f32 ? 1e-6 : 1.0 / 128;
    int bad = 0;
    for (size_t i = 0; i < want.size() && bad < 5; ++i)
        if (!(std::fabs(got[i] - want[i]) <= rel * (1 + std::fabs(want[i])))) {
            ADD_FAILURE() << "dst[" << i << "] = " << got[i] << ", expected " << want[i];
            ++bad;
        }
    return pd.impl_info_str();
}

bool has_gpu() {
    return dnnl::engine::get_count(dnnl::engine::kind::gpu) > 0;
}

// The implementations of this change: gemm_nhwc, or the Hopper kernel or the implicit f32
// PTX GEMM where they apply.
bool channels_last_gemm(const std::string &impl) {
    return impl == "ocl:convolution:gemm_nhwc" || impl == "ocl:convolution:implicit_wgmma_sm90a"
           || impl == "ocl:convolution:implicit_sgemm_f32";
}

const conv_case_t cases[] = {
        // g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw
        {1, 2, 16, 24, 9, 9, 3, 3, 1, 1, 1, 1, 0, 0},   // 3x3, IC a multiple of 8
        {1, 2, 8, 8, 6, 5, 1, 1, 1, 1, 0, 0, 0, 0},     // 1x1: src multiplied in place
        {1, 1, 5, 3, 7, 6, 1, 1, 2, 2, 0, 0, 0, 0},     // 1x1 stride 2: gathered
        {1, 2, 3, 64, 30, 30, 7, 7, 2, 2, 3, 3, 0, 0},  // ResNet conv1 shape, IC 3
        {1, 1, 7, 5, 11, 10, 3, 2, 2, 3, 1, 0, 0, 0},   // odd everything
        {1, 3, 16, 24, 11, 11, 3, 3, 1, 1, 1, 1, 1, 1}, // dilated
        {2, 2, 4, 3, 9, 9, 3, 3, 1, 1, 1, 1, 0, 0},     // groups
        {4, 2, 2, 2, 6, 6, 1, 1, 1, 1, 0, 0, 0, 0},     // groups, 1x1
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},     // all ones
        {1, 2, 8, 130, 5, 5, 3, 3, 1, 1, 1, 1, 0, 0},   // N past one 128-wide tile
        {1, 0, 8, 8, 5, 5, 3, 3, 1, 1, 1, 1, 0, 0},     // empty batch
};

TEST(GpuConvNhwcGemm, AnyLayoutsEveryShapeEveryFloatType) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const conv_case_t &c : cases)
        for (dt t : {dt::f32, dt::bf16, dt::f16})
            EXPECT_TRUE(channels_last_gemm(check({c, t, true, attrs_t::none})));
}

TEST(GpuConvNhwcGemm, OneDimensional) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    conv_case_t c{1, 2, 8, 5, 1, 13, 1, 3, 1, 2, 0, 1, 0, 0, true};
    EXPECT_TRUE(channels_last_gemm(check({c, dt::f32, true, attrs_t::none})));
    c.g = 3;
    EXPECT_TRUE(channels_last_gemm(check({c, dt::bf16, true, attrs_t::none})));
}

TEST(GpuConvNhwcGemm, ExplicitChannelsLastLayouts) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const conv_case_t &c : {cases[0], cases[1], cases[4], cases[6]})
        for (dt t : {dt::f32, dt::bf16})
            EXPECT_TRUE(channels_last_gemm(check({c, t, false, attrs_t::none})));
}

TEST(GpuConvNhwcGemm, PostOpsAndScalesInTheOutputStage) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const conv_case_t &c : {cases[0], cases[1], cases[4], cases[6]})
        for (dt t : {dt::f32, dt::bf16})
            for (attrs_t a : {attrs_t::sum_relu, attrs_t::binary_per_oc, attrs_t::scales})
                EXPECT_TRUE(channels_last_gemm(check({c, t, true, a})));
}

// What these implementations refuse goes to the generic ones: plain layouts given by the
// user, 3D, zero points; the result is still right (checked for the 2D plain case).
TEST(GpuConvNhwcGemm, RefusedProblemsFallBack) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    const memory::desc src({2, 8, 5, 5}, dt::f32, tag::nchw), wei({8, 8, 3, 3}, dt::f32, tag::oihw),
            dst({2, 8, 5, 5}, dt::f32, tag::nchw);
    dnnl::convolution_forward::primitive_desc plain(eng, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, src, wei, dst, {1, 1}, {0, 0}, {1, 1}, {1, 1});
    EXPECT_FALSE(channels_last_gemm(plain.impl_info_str()));

    const memory::desc src3({1, 8, 4, 4, 4}, dt::f32, tag::any),
            wei3({8, 8, 3, 3, 3}, dt::f32, tag::any), dst3({1, 8, 4, 4, 4}, dt::f32, tag::any);
    dnnl::convolution_forward::primitive_desc three_d(eng, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, src3, wei3, dst3, {1, 1, 1}, {0, 0, 0}, {1, 1, 1},
            {1, 1, 1});
    EXPECT_FALSE(channels_last_gemm(three_d.impl_info_str()));

    dnnl::primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC, 0);
    const memory::desc s8({2, 8, 5, 5}, dt::u8, tag::any), w8({8, 8, 3, 3}, dt::s8, tag::any),
            d8({2, 8, 5, 5}, dt::f32, tag::any);
    dnnl::convolution_forward::primitive_desc int8(eng, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, s8, w8, d8, {1, 1}, {0, 0}, {1, 1}, {1, 1}, zp);
    EXPECT_FALSE(channels_last_gemm(int8.impl_info_str()));
}

} // namespace
