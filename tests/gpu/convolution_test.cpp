// GPU convolution and deconvolution against the reference of tests/primitives
// (convolution_ref.hpp): every direction, 1D/2D/3D, groups, strides, dilation, padding, bias,
// plain / channels-last / blocked layouts (padding zero), int8. Tolerances: one rounding of
// the output's type plus the f32 accumulation's bound.
#include "gpu/device_copy.hpp"
#include "primitives/convolution_ref.hpp"
#include "primitives/post_ops_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct conv_case_t {
    std::vector<int64_t> src, wei, dst, strides, dil, pad_l, pad_r;
    dnnl_format_tag_t act_tag = dnnl_format_tag_any;
    bool deconv = false;
};

dnnl_format_tag_t plain(size_t nd) {
    static const dnnl_format_tag_t t[] = {dnnl_a, dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd,
            dnnl_abcde, dnnl_abcdef};
    return t[nd];
}

// The reference's description of a case (weights with a groups dim when they have one more
// dim than src).
convolution_ref::problem_t problem_of(const conv_case_t &c) {
    convolution_ref::problem_t p;
    p.ns = static_cast<int>(c.src.size()) - 2;
    p.mb = c.src[0];
    p.groups_dim = c.wei.size() == c.src.size() + 1;
    const size_t w0 = p.groups_dim ? 1 : 0;
    p.g = p.groups_dim ? c.wei[0] : 1;
    p.oc = c.wei[w0];
    p.ic = c.wei[w0 + 1];
    const std::vector<int64_t> &big = c.deconv ? c.dst : c.src;
    for (int x = 0; x < p.ns; ++x) {
        p.i[x] = big[2 + x];
        p.k[x] = c.wei[w0 + 2 + x];
        p.s[x] = c.strides[x];
        p.d[x] = c.dil[x];
        p.pl[x] = c.pad_l[x];
        p.pr[x] = c.pad_r[x];
    }
    return p;
}

// Sums and the sums of their terms' magnitudes, by row-major logical index of one output.
struct sums_t {
    std::vector<double> v, mag;
    explicit sums_t(int64_t n) : v(size_t(n), 0.0), mag(size_t(n), 0.0) {}
    void add(int64_t i, double t) {
        v[size_t(i)] += t;
        mag[size_t(i)] += std::fabs(t);
    }
    // out against the sums, one rounding of its type plus `terms` roundings of each magnitude.
    void expect(const tensor_t &out, int64_t terms) const {
        std::vector<float> want;
        std::vector<double> slack;
        for (size_t i = 0; i < v.size(); ++i) {
            want.push_back(c_tensor::round_to(out.lay.dt, static_cast<float>(v[i])));
            // Integer outputs come from integer sources, accumulated exactly (s32).
            slack.push_back(c_tensor::is_integer(out.lay.dt)
                            ? 0.0
                            : double(terms) * post_ops_ref::f32_eps * mag[i]);
        }
        c_tensor::expect_values(want, out, slack);
    }
};

void check(const conv_case_t &c, dnnl_prop_kind_t prop, dnnl_data_type_t sdt = dnnl_f32,
        dnnl_data_type_t ddt = dnnl_f32) {
    SCOPED_TRACE(::testing::Message() << (c.deconv ? "deconvolution " : "convolution ")
                                      << c.src.size() - 2 << "D " << dnnl_prop_kind2str(prop)
                                      << " " << dnnl_fmt_tag2str(c.act_tag) << " "
                                      << dnnl_dt2str(sdt));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const dnnl_data_type_t wdt = sdt == dnnl_u8 ? dnnl_s8 : sdt;
    const dnnl_format_tag_t tag = c.act_tag == dnnl_format_tag_any ? plain(c.src.size()) : c.act_tag;
    dnnl_memory_desc_t src = md(c.src, sdt, tag), wei = md(c.wei, wdt, plain(c.wei.size())),
                       dst = md(c.dst, ddt, tag);
    const int64_t oc = c.dst[1];
    dnnl_memory_desc_t bias = md({oc}, dnnl_f32, dnnl_a);
    const dnnl_alg_kind_t alg = c.deconv ? dnnl_deconvolution_direct : dnnl_convolution_direct;
    auto fwd = [&](dnnl_primitive_desc_t *pd, dnnl_prop_kind_t p) {
        if (c.deconv)
            return dnnl_deconvolution_forward_primitive_desc_create(pd, gpu, p, alg, src, wei,
                    bias, dst, c.strides.data(), c.dil.data(), c.pad_l.data(), c.pad_r.data(),
                    nullptr);
        return dnnl_convolution_forward_primitive_desc_create(pd, gpu, p, alg, src, wei, bias,
                dst, c.strides.data(), c.dil.data(), c.pad_l.data(), c.pad_r.data(), nullptr);
    };
    const convolution_ref::problem_t p = problem_of(c);
    const int64_t ksz = p.k[0] * (p.ns > 1 ? p.k[1] : 1) * (p.ns > 2 ? p.k[2] : 1);
    const int64_t dst_spatial = convolution_ref::volume(c.dst) / (c.dst[0] * c.dst[1]);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    int impls = 0;
    if (prop == dnnl_forward_inference) {
        EXPECT_EQ(fwd(&pd, dnnl_forward_inference), dnnl_success);
        if (pd)
            impls = run_each_impl(cpu, gpu, pd,
                    {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS}, {DNNL_ARG_DST},
                    [&](const std::vector<tensor_t *> &t) {
                        const auto x = c_tensor::values(*t[0]), w = c_tensor::values(*t[1]),
                                   b = c_tensor::values(*t[2]);
                        sums_t y(t[3]->lay.nelems());
                        for (int64_t i = 0; i < t[3]->lay.nelems(); ++i)
                            y.add(i, b[size_t(i / dst_spatial % oc)]);
                        convolution_ref::relation(p, c.deconv, [&](int64_t s, int64_t wi, int64_t d) {
                            y.add(d, x[size_t(s)] * w[size_t(wi)]);
                        });
                        y.expect(*t[3], p.ic * ksz + 1);
                    });
    } else {
        EXPECT_EQ(fwd(&hint, dnnl_forward_training), dnnl_success);
        const int64_t *st = c.strides.data(), *dl = c.dil.data(), *pl = c.pad_l.data(),
                      *pr = c.pad_r.data();
        if (prop == dnnl_backward_data) {
            EXPECT_EQ(c.deconv ? dnnl_deconvolution_backward_data_primitive_desc_create(&pd, gpu,
                                         alg, src, wei, dst, st, dl, pl, pr, hint, nullptr)
                               : dnnl_convolution_backward_data_primitive_desc_create(&pd, gpu,
                                       alg, src, wei, dst, st, dl, pl, pr, hint, nullptr),
                    dnnl_success);
        }
        else
            EXPECT_EQ(c.deconv ? dnnl_deconvolution_backward_weights_primitive_desc_create(&pd,
                                         gpu, alg, src, wei, bias, dst, st, dl, pl, pr, hint,
                                         nullptr)
                               : dnnl_convolution_backward_weights_primitive_desc_create(&pd,
                                       gpu, alg, src, wei, bias, dst, st, dl, pl, pr, hint,
                                       nullptr),
                    dnnl_success);
        if (pd && prop == dnnl_backward_data)
            impls = run_each_impl(cpu, gpu, pd, {DNNL_ARG_DIFF_DST, DNNL_ARG_WEIGHTS},
                    {DNNL_ARG_DIFF_SRC}, [&](const std::vector<tensor_t *> &t) {
                        const auto dy = c_tensor::values(*t[0]), w = c_tensor::values(*t[1]);
                        sums_t dx(t[2]->lay.nelems());
                        convolution_ref::relation(p, c.deconv, [&](int64_t s, int64_t wi, int64_t d) {
                            dx.add(s, dy[size_t(d)] * w[size_t(wi)]);
                        });
                        dx.expect(*t[2], p.oc * ksz);
                    });
        else if (pd)
            impls = run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST},
                    {DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_BIAS},
                    [&](const std::vector<tensor_t *> &t) {
                        const auto x = c_tensor::values(*t[0]), dy = c_tensor::values(*t[1]);
                        sums_t dw(t[2]->lay.nelems()), db(oc);
                        convolution_ref::relation(p, c.deconv, [&](int64_t s, int64_t wi, int64_t d) {
                            dw.add(wi, x[size_t(s)] * dy[size_t(d)]);
                        });
                        for (size_t i = 0; i < dy.size(); ++i)
                            db.add(int64_t(i) / dst_spatial % oc, dy[i]);
                        dw.expect(*t[2], convolution_ref::volume(c.dst) / oc);
                        db.expect(*t[3], convolution_ref::volume(c.dst) / oc);
                    });
    }
    EXPECT_GE(impls, 1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    for (dnnl_memory_desc_t m : {src, wei, dst, bias})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

// 2D, groups 2, stride 2, dilation 1, asymmetric padding: ih 9 -> oh (9+1+2-5)/2+1 = 4.
const conv_case_t conv2d = {{2, 4, 9, 7}, {2, 3, 2, 3, 3}, {2, 6, 4, 4}, {2, 2}, {1, 0},
        {1, 1}, {2, 1}};
const conv_case_t conv1d = {{1, 3, 11}, {5, 3, 3}, {1, 5, 11}, {1}, {0}, {1}, {1}};
const conv_case_t conv3d = {{1, 2, 4, 5, 3}, {3, 2, 2, 3, 1}, {1, 3, 3, 3, 3}, {1, 1, 1},
        {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
// Deconvolution 2x upsampling: oh = (ih - 1) * 2 - 2 + 4 = 2 * ih.
const conv_case_t deconv2d = {{2, 3, 4, 5}, {5, 3, 4, 4}, {2, 5, 8, 10}, {2, 2}, {0, 0},
        {1, 1}, {1, 1}, dnnl_format_tag_any, true};

TEST(GpuConvolution, ForwardInference1d2d3dNhwcAndU8) {
    SKIP_WITHOUT_GPU();
    for (const conv_case_t &c : {conv2d, conv1d, conv3d})
        check(c, dnnl_forward_inference);
    conv_case_t nhwc = conv2d;
    nhwc.act_tag = dnnl_acdb;
    check(nhwc, dnnl_forward_inference);
    conv_case_t int8 = conv1d;
    int8.act_tag = dnnl_acb;
    check(int8, dnnl_forward_inference, dnnl_u8, dnnl_s32);
}

// Blocked activations with channel tails (3 and 5 of 16): the outputs' padding, filled before
// the run, must come back zero.
TEST(GpuConvolution, BlockedTailsKeepPaddingZero) {
    SKIP_WITHOUT_GPU();
    conv_case_t blocked = conv1d;
    blocked.act_tag = dnnl_aBc16b;
    check(blocked, dnnl_forward_inference);
    check(blocked, dnnl_backward_data);
}

TEST(GpuConvolution, BackwardDataAndWeights1d2d3d) {
    SKIP_WITHOUT_GPU();
    for (const conv_case_t &c : {conv2d, conv1d, conv3d}) {
        check(c, dnnl_backward_data);
        check(c, dnnl_backward_weights);
    }
}

TEST(GpuDeconvolution, Stride2UpsamplingForwardAndBackwardDataAndWeights) {
    SKIP_WITHOUT_GPU();
    for (dnnl_prop_kind_t p : {dnnl_forward_inference, dnnl_backward_data, dnnl_backward_weights})
        check(deconv2d, p);
}

} // namespace
