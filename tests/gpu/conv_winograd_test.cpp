// GPU f32 convolution by Winograd F(2x2, 3x3) (ocl:convolution:winograd_f32) against a plain
// double-precision direct convolution written here: odd sizes (tiles past the output's last
// row and column), padding 0, 1, 2 and uneven, a single pixel, one channel, bias, `any` and
// explicit channels-last layouts with padded pixel strides, scales (per-channel weights),
// post-ops (sum + relu, a per-channel binary add). alg_kind winograd takes it; auto only where
// the tuning table says so (ANYDNN_GPU_TUNING overrides that here), direct never; problems
// it cannot run go to the next implementation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

const char *const wino_impl = "ocl:convolution:winograd_f32";

struct shape_t {
    int64_t mb, ic, oc, ih, iw, pt, pl, pb, pr; // padding top, left, bottom, right
    int64_t oh() const { return ih + pt + pb - 2; }
    int64_t ow() const { return iw + pl + pr - 2; }
};

enum class attrs_t { none, scales, sum_relu, binary_per_oc };

struct problem_t {
    shape_t s;
    attrs_t attrs = attrs_t::none;
    bool padded_pixels = false; // explicit channels-last tensors, pixels wider than channels
    dnnl::algorithm alg = dnnl::algorithm::convolution_winograd;
};

// Values in [-1, 1) from a 32-bit LCG: not exact in any short format, so transforms round.
std::vector<float> random_values(size_t n, uint32_t seed) {
    std::vector<float> v(n);
    uint32_t x = seed * 2654435761u + 1;
    for (float &f : v) {
        x = x * 1664525u + 1013904223u;
        f = static_cast<float>(x >> 8) / 8388608.f - 1.f;
    }
    return v;
}

memory user_memory(const dnnl::engine &eng, const memory::dims &dims, const std::vector<float> &v) {
    static const tag tags[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd};
    memory m({dims, dt::f32, tags[dims.size()]}, eng);
    float *p = m.map_data<float>();
    if (!v.empty()) std::memcpy(p, v.data(), v.size() * sizeof(float));
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

// A channels-last desc whose pixels are `pixel` elements apart (>= channels).
memory::desc nhwc_padded(const memory::dims &d, int64_t pixel) {
    return memory::desc(d, dt::f32, memory::dims{d[2] * d[3] * pixel, 1, d[3] * pixel, pixel});
}

// Runs p on the GPU and compares dst with a double direct convolution; returns the
// implementation's name.
std::string run(const problem_t &p) {
    const shape_t &s = p.s;
    SCOPED_TRACE("mb" + std::to_string(s.mb) + " ic" + std::to_string(s.ic) + " oc"
                 + std::to_string(s.oc) + " " + std::to_string(s.ih) + "x" + std::to_string(s.iw)
                 + " pad " + std::to_string(s.pt) + std::to_string(s.pl) + std::to_string(s.pb)
                 + std::to_string(s.pr) + " attrs " + std::to_string(static_cast<int>(p.attrs)));
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    dnnl::stream strm(eng);
    const int64_t OH = s.oh(), OW = s.ow();
    const memory::dims src_d{s.mb, s.ic, s.ih, s.iw}, wei_d{s.oc, s.ic, 3, 3},
            dst_d{s.mb, s.oc, OH, OW};
    const memory::desc src_md = p.padded_pixels ? nhwc_padded(src_d, s.ic + 3)
                                                : memory::desc(src_d, dt::f32, tag::any),
                       dst_md = p.padded_pixels ? nhwc_padded(dst_d, s.oc + 5)
                                                : memory::desc(dst_d, dt::f32, tag::any),
                       wei_md(wei_d, dt::f32, p.padded_pixels ? tag::ohwi : tag::any),
                       bias_md({s.oc}, dt::f32, tag::a);
    dnnl::primitive_attr attr;
    dnnl::post_ops po;
    if (p.attrs == attrs_t::sum_relu) {
        po.append_sum(0.5f);
        po.append_eltwise(dnnl::algorithm::eltwise_relu, 0.f, 0.f);
    }
    const memory::dims bin_d{1, s.oc, 1, 1};
    if (p.attrs == attrs_t::binary_per_oc)
        po.append_binary(dnnl::algorithm::binary_add, memory::desc(bin_d, dt::f32, tag::any));
    attr.set_post_ops(po);
    if (p.attrs == attrs_t::scales) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1);
        attr.set_scales_mask(DNNL_ARG_DST, 0);
    }
    const dnnl::convolution_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_inference,
            p.alg, src_md, wei_md, bias_md, dst_md, {1, 1}, {0, 0}, {s.pt, s.pl}, {s.pb, s.pr},
            attr);

    const std::vector<float> src_v = random_values(static_cast<size_t>(s.mb * s.ic * s.ih * s.iw), 1),
                             wei_v = random_values(static_cast<size_t>(s.oc * s.ic * 9), 2),
                             bias_v = random_values(static_cast<size_t>(s.oc), 3),
                             old_v = random_values(static_cast<size_t>(s.mb * s.oc * OH * OW), 4),
                             bin_v = random_values(static_cast<size_t>(s.oc), 5),
                             wsc_v = random_values(static_cast<size_t>(s.oc), 6);
    memory src_u = user_memory(eng, src_d, src_v), wei_u = user_memory(eng, wei_d, wei_v),
           bias_m = user_memory(eng, {s.oc}, bias_v), old_u = user_memory(eng, dst_d, old_v);
    memory src_m(pd.src_desc(), eng), wei_m(pd.weights_desc(), eng), dst_m(pd.dst_desc(), eng);
    dnnl::reorder(src_u, src_m).execute(strm, src_u, src_m);
    dnnl::reorder(wei_u, wei_m).execute(strm, wei_u, wei_m);
    if (p.attrs == attrs_t::sum_relu) {
        dnnl::reorder(old_u, dst_m).execute(strm, old_u, dst_m);
    } else { // poison: an element left unwritten fails
        memory nan = user_memory(eng, dst_d, std::vector<float>(old_v.size(), std::nanf("")));
        dnnl::reorder(nan, dst_m).execute(strm, nan, dst_m);
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, wei_m},
            {DNNL_ARG_BIAS, bias_m}, {DNNL_ARG_DST, dst_m}};
    if (p.attrs == attrs_t::binary_per_oc)
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = user_memory(eng, bin_d, bin_v);
    if (p.attrs == attrs_t::scales) {
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = user_memory(eng, {1}, {0.5f});
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = user_memory(eng, {s.oc}, wsc_v);
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = user_memory(eng, {1}, {4.f});
    }
    dnnl::convolution_forward(pd).execute(strm, args);
    memory out_u({dst_d, dt::f32, tag::abcd}, eng);
    dnnl::reorder(dst_m, out_u).execute(strm, dst_m, out_u);
    strm.wait();
    const std::vector<float> got = read(out_u);

    int bad = 0;
    for (int64_t n = 0; n < s.mb; ++n)
        for (int64_t o = 0; o < s.oc; ++o)
            for (int64_t y = 0; y < OH; ++y)
                for (int64_t x = 0; x < OW; ++x) {
                    double acc = 0, mag = 0;
                    for (int64_t c = 0; c < s.ic; ++c)
                        for (int64_t ky = 0; ky < 3; ++ky)
                            for (int64_t kx = 0; kx < 3; ++kx) {
                                const int64_t iy = y - s.pt + ky, ix = x - s.pl + kx;
                                if (iy < 0 || iy >= s.ih || ix < 0 || ix >= s.iw) continue;
                                const double t = double(src_v[size_t(((n * s.ic + c) * s.ih + iy) * s.iw + ix)])
                                        * wei_v[size_t(((o * s.ic + c) * 3 + ky) * 3 + kx)];
                                acc += t;
                                mag += std::fabs(t);
                            }
                    const size_t at = size_t(((n * s.oc + o) * OH + y) * OW + x);
                    double v = acc;
                    if (p.attrs == attrs_t::scales) {
                        v *= 0.5 * wsc_v[size_t(o)];
                        mag *= std::fabs(0.5 * wsc_v[size_t(o)]);
                    }
                    v += bias_v[size_t(o)];
                    if (p.attrs == attrs_t::sum_relu) v = std::max(0.0, v + 0.5 * old_v[at]);
                    if (p.attrs == attrs_t::binary_per_oc) v += bin_v[size_t(o)];
                    if (p.attrs == attrs_t::scales) v /= 4, mag /= 4;
                    // f32 over transforms of 4 terms and sums of 16: a few units of f32's
                    // epsilon times the products' magnitude (benchdnn allows 2e-6 of it).
                    const double tol = 2e-6 * (1 + mag + std::fabs(v));
                    if (!(std::fabs(got[at] - v) <= tol) && bad++ < 5)
                        ADD_FAILURE() << "dst(" << n << "," << o << "," << y << "," << x
                                      << ") = " << got[at] << ", expected " << v;
                }
    return pd.impl_info_str();
}

bool has_gpu() {
    return dnnl::engine::get_count(dnnl::engine::kind::gpu) > 0;
}

struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

const shape_t shapes[] = {
        // mb, ic, oc, ih, iw, pad top, left, bottom, right
        {2, 16, 24, 9, 9, 1, 1, 1, 1},   // odd output: the last tile row and column half out
        {1, 5, 7, 8, 6, 1, 1, 1, 1},     // even output, odd channels
        {3, 8, 3, 7, 10, 0, 0, 0, 0},    // no padding
        {1, 4, 4, 5, 5, 2, 2, 2, 2},     // padding 2: tiles wholly in the padding
        {2, 3, 5, 6, 7, 1, 0, 0, 1},     // uneven padding
        {1, 1, 1, 1, 1, 1, 1, 1, 1},     // a single pixel, one channel
        {1, 1, 1, 3, 3, 0, 0, 0, 0},     // a single output
        {2, 40, 36, 14, 14, 1, 1, 1, 1}, // more channels than one GEMM tile's K
};

TEST(GpuConvWinograd, EveryShapeAgainstTheDirectSum) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const shape_t &s : shapes)
        EXPECT_EQ(run({s}), wino_impl);
}

TEST(GpuConvWinograd, ExplicitChannelsLastWithPaddedPixels) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const shape_t &s : {shapes[0], shapes[4]})
        EXPECT_EQ(run({s, attrs_t::none, true}), wino_impl);
}

TEST(GpuConvWinograd, ScalesAndPostOpsInTheOutputTransform) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    for (const shape_t &s : {shapes[0], shapes[1], shapes[3]})
        for (attrs_t a : {attrs_t::scales, attrs_t::sum_relu, attrs_t::binary_per_oc})
            EXPECT_EQ(run({s, a}), wino_impl);
    EXPECT_EQ(run({shapes[4], attrs_t::sum_relu, true}), wino_impl);
}

TEST(GpuConvWinograd, AutoFollowsTheTuningTableAndDirectNeverTakesIt) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    problem_t p{shapes[1]};
    p.alg = dnnl::algorithm::convolution_direct;
    EXPECT_NE(run(p), wino_impl);
    {
        tuning_env_t env("conv_winograd:auto=0");
        p.alg = dnnl::algorithm::convolution_auto;
        EXPECT_NE(run(p), wino_impl);
    }
    {
        tuning_env_t env("conv_winograd:auto=1");
        p.alg = dnnl::algorithm::convolution_auto;
        EXPECT_EQ(run(p), wino_impl);
        // The primitive descriptor reports the algorithm that runs.
        dnnl::engine eng(dnnl::engine::kind::gpu, 0);
        const memory::desc src({1, 8, 9, 9}, dt::f32, tag::any),
                wei({8, 8, 3, 3}, dt::f32, tag::any), dst({1, 8, 9, 9}, dt::f32, tag::any);
        const dnnl::convolution_forward::primitive_desc pd(eng,
                dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_auto, src, wei,
                dst, {1, 1}, {0, 0}, {1, 1}, {1, 1});
        EXPECT_EQ(std::string(pd.impl_info_str()), wino_impl);
        EXPECT_EQ(pd.get_algorithm(), dnnl::algorithm::convolution_winograd);
    }
}

// Winograd is refused where F(2x2, 3x3) does not apply: such problems, alg_kind winograd
// included, go to the next implementation (the generic direct ones take every alg_kind).
TEST(GpuConvWinograd, RefusedProblemsGoElsewhere) {
    if (!has_gpu()) GTEST_SKIP() << "no GPU engine";
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    auto impl = [&](const memory::desc &src, const memory::desc &wei, const memory::desc &dst,
                        const memory::dims &strides, const memory::dims &dil,
                        const memory::dims &pad) -> std::string {
        try {
            dnnl::convolution_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::convolution_winograd, src, wei, dst, strides, dil, pad, pad);
            return pd.impl_info_str();
        } catch (const dnnl::error &e) {
            return "failed: status " + std::to_string(static_cast<int>(e.status));
        }
    };
    const memory::desc src({1, 8, 9, 9}, dt::f32, tag::any), wei({8, 8, 3, 3}, dt::f32, tag::any),
            dst9({1, 8, 9, 9}, dt::f32, tag::any);
    EXPECT_EQ(impl(src, wei, dst9, {1, 1}, {0, 0}, {1, 1}), wino_impl);
    // Stride 2.
    EXPECT_NE(impl(src, wei, memory::desc({1, 8, 5, 5}, dt::f32, tag::any), {2, 2}, {0, 0},
                      {1, 1}),
            wino_impl);
    // Dilation.
    EXPECT_NE(impl(src, wei, memory::desc({1, 8, 7, 7}, dt::f32, tag::any), {1, 1}, {1, 1},
                      {1, 1}),
            wino_impl);
    // A 5x5 window.
    EXPECT_NE(impl(src, memory::desc({8, 8, 5, 5}, dt::f32, tag::any), dst9, {1, 1}, {0, 0},
                      {2, 2}),
            wino_impl);
    // bf16.
    EXPECT_NE(impl(memory::desc({1, 8, 9, 9}, dt::bf16, tag::any),
                      memory::desc({8, 8, 3, 3}, dt::bf16, tag::any),
                      memory::desc({1, 8, 9, 9}, dt::bf16, tag::any), {1, 1}, {0, 0}, {1, 1}),
            wino_impl);
    // Groups.
    EXPECT_NE(impl(src, memory::desc({2, 4, 4, 3, 3}, dt::f32, tag::any), dst9, {1, 1}, {0, 0},
                      {1, 1}),
            wino_impl);
    // 1D.
    EXPECT_NE(impl(memory::desc({1, 8, 9}, dt::f32, tag::any),
                      memory::desc({8, 8, 3}, dt::f32, tag::any),
                      memory::desc({1, 8, 9}, dt::f32, tag::any), {1}, {0}, {1}),
            wino_impl);
    // Plain (not channels-last) layouts given by the user.
    EXPECT_NE(impl(memory::desc({1, 8, 9, 9}, dt::f32, tag::nchw), wei,
                      memory::desc({1, 8, 9, 9}, dt::f32, tag::nchw), {1, 1}, {0, 0}, {1, 1}),
            wino_impl);
}

} // namespace
