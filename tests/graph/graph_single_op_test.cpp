// Single ops against references written here (the fusion tests compare fused partitions
// with these same ops run one by one, so each op's own lowering is checked here).
#include <cmath>
#include <functional>

#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

// Runs one op on f32 inputs (ids 0, 1, ...) and returns output id 100.
std::vector<float> run_one(op &o, const std::vector<std::vector<float>> &inputs) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    for (size_t i = 0; i < inputs.size(); ++i)
        r.set(i, inputs[i]);
    graph g(dnnl::engine::kind::cpu);
    g.add_op(o);
    g.finalize();
    EXPECT_EQ(r.run(g, partition::policy::fusion), 1u);
    return r.get<float>(100);
}

void unary_case(op::kind kind, std::function<void(op &)> attrs, std::function<float(float)> f,
        float tol = 1e-5f) {
    const auto x = random_floats(37, 70, -2.f, 2.f);
    op o(1, kind, {lt(0, {37})}, {lt(100, {37})});
    attrs(o);
    const auto y = run_one(o, {x});
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        want[i] = f(x[i]);
    expect_close(y, want, tol, "unary");
}

} // namespace

TEST(graph_single_op, eltwise_kinds_match_their_formulas) {
    auto none = [](op &) {};
    unary_case(op::kind::Clamp, [](op &o) { o.set_attr(op::attr::min, -0.5f).set_attr(op::attr::max, 0.7f); },
            [](float x) { return std::min(0.7f, std::max(-0.5f, x)); });
    unary_case(op::kind::HardSwish, none,
            [](float x) { return x * std::min(1.f, std::max(0.f, x / 6 + 0.5f)); });
    unary_case(op::kind::HardSigmoid,
            [](op &o) { o.set_attr(op::attr::alpha, 0.2f).set_attr(op::attr::beta, 0.5f); },
            [](float x) { return std::min(1.f, std::max(0.f, 0.2f * x + 0.5f)); });
    unary_case(op::kind::SoftPlus, [](op &o) { o.set_attr(op::attr::beta, 2.f); },
            [](float x) { return std::log1p(std::exp(2.f * x)) / 2.f; });
    unary_case(op::kind::LeakyReLU, [](op &o) { o.set_attr(op::attr::alpha, 0.1f); },
            [](float x) { return x > 0 ? x : 0.1f * x; });
    unary_case(op::kind::Elu, [](op &o) { o.set_attr(op::attr::alpha, 1.5f); },
            [](float x) { return x > 0 ? x : 1.5f * std::expm1(x); });
    unary_case(op::kind::Reciprocal, none, [](float x) { return 1.f / x; }, 1e-4f);
    unary_case(op::kind::Square, none, [](float x) { return x * x; });
    unary_case(op::kind::Abs, none, [](float x) { return std::fabs(x); });
    unary_case(op::kind::Exp, none, [](float x) { return std::exp(x); });
    unary_case(op::kind::Tanh, none, [](float x) { return std::tanh(x); });
    unary_case(op::kind::GELU, [](op &o) { o.set_attr(op::attr::mode, std::string("gelu_erf")); },
            [](float x) { return 0.5f * x * (1.f + std::erf(x / std::sqrt(2.f))); });
}

TEST(graph_single_op, binary_kinds_broadcast_select_and_greater_equal) {
    const auto a = random_floats(2 * 3 * 4, 71), b = random_floats(3 * 1, 72);
    auto check = [&](op::kind kind, std::function<float(float, float)> f) {
        op o(1, kind, {lt(0, {2, 3, 4}), lt(1, {3, 1})}, {lt(100, {2, 3, 4})});
        const auto y = run_one(o, {a, b});
        std::vector<float> want(a.size());
        for (size_t i = 0; i < a.size(); ++i)
            want[i] = f(a[i], b[(i / 4) % 3]);
        expect_close(y, want, 1e-5f, "binary");
    };
    check(op::kind::Subtract, [](float x, float y) { return x - y; });
    check(op::kind::Divide, [](float x, float y) { return x / y; });
    check(op::kind::Maximum, [](float x, float y) { return std::max(x, y); });
    check(op::kind::SquaredDifference, [](float x, float y) { return (x - y) * (x - y); });
    // Add with the broadcast operand first: the operands swap.
    op add(1, op::kind::Add, {lt(1, {3, 1}), lt(0, {2, 3, 4})}, {lt(100, {2, 3, 4})});
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    r.set(0, a);
    r.set(1, b);
    graph g(dnnl::engine::kind::cpu);
    op ge(2, op::kind::GreaterEqual, {lt(0, {2, 3, 4}), lt(1, {3, 1})}, {lt(101, {2, 3, 4}, dt::boolean)});
    op sel(3, op::kind::Select, {lt(101, {2, 3, 4}, dt::boolean), lt(0, {2, 3, 4}), lt(1, {3, 1})},
            {lt(102, {2, 3, 4})});
    g.add_op(add);
    g.add_op(ge);
    g.add_op(sel);
    g.finalize();
    r.run(g, partition::policy::fusion);
    const auto sum = r.get<float>(100), s = r.get<float>(102);
    for (size_t i = 0; i < a.size(); ++i) {
        const float bi = b[(i / 4) % 3];
        EXPECT_NEAR(sum[i], a[i] + bi, 1e-6f);
        EXPECT_EQ(s[i], a[i] >= bi ? a[i] : bi);
    }
}

TEST(graph_single_op, batch_norm_inference_nxc_and_prelu_per_channel) {
    const auto x = random_floats(2 * 3 * 3 * 4, 73);
    const auto g = random_floats(4, 74), bta = random_floats(4, 75);
    const auto m = random_floats(4, 76), v = random_floats(4, 77, 0.5f, 2.f);
    op bn(1, op::kind::BatchNormInference,
            {lt(0, {2, 3, 3, 4}), lt(1, {4}), lt(2, {4}), lt(3, {4}), lt(4, {4})},
            {lt(100, {2, 3, 3, 4})});
    bn.set_attr(op::attr::epsilon, 1e-3f);
    bn.set_attr(op::attr::data_format, std::string("NXC"));
    const auto y = run_one(bn, {x, g, bta, m, v});
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t c = i % 4;
        want[i] = (x[i] - m[c]) / std::sqrt(v[c] + 1e-3f) * g[c] + bta[c];
    }
    expect_close(y, want, 1e-5f, "batch norm");

    const auto slope = random_floats(3, 78);
    op pr(2, op::kind::PReLU, {lt(0, {2, 3, 5}), lt(1, {3})}, {lt(100, {2, 3, 5})});
    pr.set_attr(op::attr::data_format, std::string("NCX"));
    const auto x2 = random_floats(30, 79);
    const auto y2 = run_one(pr, {x2, slope});
    for (size_t i = 0; i < x2.size(); ++i) {
        const float s = slope[(i / 5) % 3];
        EXPECT_NEAR(y2[i], x2[i] > 0 ? x2[i] : s * x2[i], 1e-6f);
    }
}

TEST(graph_single_op, avg_pool_ceil_exclude_pad_and_interpolate_nearest) {
    // 1x1x5x5 NCX, kernel 2, stride 2, ceil: 3x3 output, last window clipped.
    std::vector<float> x(25);
    for (int i = 0; i < 25; ++i)
        x[i] = (float)i;
    op pool(1, op::kind::AvgPool, {lt(0, {1, 1, 5, 5})}, {lt(100, {1, 1, 3, 3})});
    pool.set_attr(op::attr::strides, std::vector<int64_t> {2, 2});
    pool.set_attr(op::attr::kernel, std::vector<int64_t> {2, 2});
    pool.set_attr(op::attr::pads_begin, std::vector<int64_t> {0, 0});
    pool.set_attr(op::attr::pads_end, std::vector<int64_t> {0, 0});
    pool.set_attr(op::attr::exclude_pad, true);
    pool.set_attr(op::attr::rounding_type, std::string("ceil"));
    pool.set_attr(op::attr::data_format, std::string("NCX"));
    const auto y = run_one(pool, {x});
    for (int oh = 0; oh < 3; ++oh)
        for (int ow = 0; ow < 3; ++ow) {
            double s = 0;
            int n = 0;
            for (int h = oh * 2; h < std::min(5, oh * 2 + 2); ++h)
                for (int w = ow * 2; w < std::min(5, ow * 2 + 2); ++w)
                    s += x[h * 5 + w], ++n;
            EXPECT_NEAR(y[oh * 3 + ow], s / n, 1e-5) << oh << "," << ow;
        }
    op up(2, op::kind::Interpolate, {lt(0, {1, 2, 2, 1})}, {lt(100, {1, 4, 4, 1})});
    up.set_attr(op::attr::mode, std::string("nearest"));
    up.set_attr(op::attr::sizes, std::vector<int64_t> {4, 4});
    up.set_attr(op::attr::data_format, std::string("NXC"));
    const std::vector<float> x2 {1, 2, 3, 4};
    const auto y2 = run_one(up, {x2});
    for (int h = 0; h < 4; ++h)
        for (int w = 0; w < 4; ++w)
            EXPECT_EQ(y2[h * 4 + w], x2[(h / 2) * 2 + w / 2]);
}

TEST(graph_single_op, quantize_dequantize_per_channel_and_reorder_strides) {
    const std::vector<float> x {0.f, 1.f, -1.f, 2.5f, 10.f, -3.f};
    op q(1, op::kind::Quantize, {lt(0, {2, 3})}, {lt(100, {2, 3}, dt::s8)});
    q.set_attr(op::attr::qtype, std::string("per_channel"));
    q.set_attr(op::attr::axis, int64_t(1));
    q.set_attr(op::attr::scales, std::vector<float> {0.5f, 1.f, 0.25f});
    q.set_attr(op::attr::zps, std::vector<int64_t> {0, 0, 0});
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    r.set(0, x);
    graph g(dnnl::engine::kind::cpu);
    op dq(2, op::kind::Dequantize, {lt(100, {2, 3}, dt::s8)}, {lt(101, {2, 3})});
    dq.set_attr(op::attr::qtype, std::string("per_channel"));
    dq.set_attr(op::attr::axis, int64_t(1));
    dq.set_attr(op::attr::scales, std::vector<float> {0.5f, 1.f, 0.25f});
    dq.set_attr(op::attr::zps, std::vector<int64_t> {0, 0, 0});
    g.add_op(q);
    g.add_op(dq);
    g.finalize();
    r.run(g, partition::policy::debug);
    const auto qv = r.get<int8_t>(100);
    const float sc[3] = {0.5f, 1.f, 0.25f};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(qv[i], (int8_t)std::nearbyint(x[i] / sc[i % 3])) << i;
    const auto back = r.get<float>(101);
    for (int i = 0; i < 6; ++i)
        EXPECT_NEAR(back[i], qv[i] * sc[i % 3], 1e-6f);

    // Reorder from a column-major input into the dense row-major output.
    op ro(3, op::kind::Reorder, {logical_tensor(0, dt::f32, lt_dims {2, 3}, lt_dims {1, 2})},
            {lt(100, {2, 3})});
    const auto y = run_one(ro, {x});
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(y[i * 3 + j], x[j * 2 + i]);
}

TEST(graph_single_op, reduce_l2_keep_dims_and_log_softmax) {
    const auto x = random_floats(3 * 4, 80);
    op red(1, op::kind::ReduceL2, {lt(0, {3, 4})}, {lt(100, {3, 1})});
    red.set_attr(op::attr::axes, std::vector<int64_t> {-1});
    red.set_attr(op::attr::keep_dims, true);
    const auto y = run_one(red, {x});
    for (int i = 0; i < 3; ++i) {
        double s = 0;
        for (int j = 0; j < 4; ++j)
            s += x[i * 4 + j] * x[i * 4 + j];
        EXPECT_NEAR(y[i], std::sqrt(s), 1e-5);
    }
}

TEST(graph_single_op, grouped_conv_transpose_iox_matches_reference) {
    // src 1x4x3x3 NCX, weights IOX 4x3x3x3 (IC 4, OC/G 3), groups 2: 6 output channels;
    // stride 2, pads 1: 5x5 output.
    const int IC = 4, OCG = 3, G = 2, K = 3, IH = 3, OH = 5;
    const auto x = random_floats(IC * IH * IH, 90), w = random_floats(IC * OCG * K * K, 91);
    op ct(1, op::kind::ConvTranspose, {lt(0, {1, IC, IH, IH}), lt(1, {IC, OCG, K, K})},
            {lt(100, {1, OCG * G, OH, OH})});
    ct.set_attr(op::attr::strides, std::vector<int64_t> {2, 2});
    ct.set_attr(op::attr::pads_begin, std::vector<int64_t> {1, 1});
    ct.set_attr(op::attr::pads_end, std::vector<int64_t> {1, 1});
    ct.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
    ct.set_attr(op::attr::groups, int64_t(G));
    ct.set_attr(op::attr::data_format, std::string("NCX"));
    ct.set_attr(op::attr::weights_format, std::string("IOX"));
    const auto y = run_one(ct, {x, w});
    std::vector<double> want(OCG * G * OH * OH, 0.0);
    for (int ic = 0; ic < IC; ++ic) {
        const int grp = ic / (IC / G);
        for (int ih = 0; ih < IH; ++ih)
            for (int iw = 0; iw < IH; ++iw)
                for (int o = 0; o < OCG; ++o)
                    for (int kh = 0; kh < K; ++kh)
                        for (int kw = 0; kw < K; ++kw) {
                            const int oh = ih * 2 - 1 + kh, ow = iw * 2 - 1 + kw;
                            if (oh < 0 || ow < 0 || oh >= OH || ow >= OH) continue;
                            want[((grp * OCG + o) * OH + oh) * OH + ow]
                                    += (double)x[(ic * IH + ih) * IH + iw]
                                    * w[((ic * OCG + o) * K + kh) * K + kw];
                        }
    }
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i)
        EXPECT_NEAR(y[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

// oneDNN's graph dumps write output_padding as a fixed array of 12 values: the entries beyond
// the spatial dims are zeros and are dropped; a non-zero one there is an error.
TEST(graph_single_op, conv_transpose_takes_onednn_fixed_size_output_padding) {
    const int C = 2, K = 2, IH = 3, OH = 7; // (3 - 1) * 2 + 2 + output_padding 1
    const auto x = random_floats(C * IH * IH, 92), w = random_floats(C * C * K * K, 93);
    std::vector<int64_t> opad(12, 0);
    opad[0] = opad[1] = 1;
    auto make = [&](const std::vector<int64_t> &padding) {
        op ct(1, op::kind::ConvTranspose, {lt(0, {1, C, IH, IH}), lt(1, {C, C, K, K})},
                {lt(100, {1, C, OH, OH})});
        ct.set_attr(op::attr::strides, std::vector<int64_t> {2, 2});
        ct.set_attr(op::attr::pads_begin, std::vector<int64_t> {0, 0});
        ct.set_attr(op::attr::pads_end, std::vector<int64_t> {0, 0});
        ct.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
        ct.set_attr(op::attr::output_padding, padding);
        ct.set_attr(op::attr::data_format, std::string("NCX"));
        ct.set_attr(op::attr::weights_format, std::string("IOX"));
        return ct;
    };
    op ct = make(opad);
    const auto y = run_one(ct, {x, w});
    std::vector<double> want(C * OH * OH, 0.0);
    for (int ic = 0; ic < C; ++ic)
        for (int ih = 0; ih < IH; ++ih)
            for (int iw = 0; iw < IH; ++iw)
                for (int oc = 0; oc < C; ++oc)
                    for (int kh = 0; kh < K; ++kh)
                        for (int kw = 0; kw < K; ++kw)
                            want[(oc * OH + ih * 2 + kh) * OH + iw * 2 + kw]
                                    += (double)x[(ic * IH + ih) * IH + iw]
                                    * w[((ic * C + oc) * K + kh) * K + kw];
    ASSERT_EQ(y.size(), want.size());
    for (size_t i = 0; i < y.size(); ++i)
        EXPECT_NEAR(y[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
    opad[5] = 1; // beyond the two spatial dims
    op bad = make(opad);
    EXPECT_ANY_THROW({
        graph g(dnnl::engine::kind::cpu);
        g.add_op(bad);
        g.finalize();
    });
}

// ConvTransposeBackwardData with auto_pad SAME_*: the padding that takes diff_src (the
// deconvolution's input) to diff_dst, the odd unit at the end (UPPER) or the start (LOWER).
TEST(graph_single_op, conv_transpose_backward_data_same_padding) {
    const int ID = 4, OD = 8, K = 3, S = 2; // total padding (4 - 1) * 2 + 3 - 8 = 1
    const auto dd = random_floats(OD, 94), w = random_floats(K, 95);
    for (const char *mode : {"SAME_UPPER", "SAME_LOWER"}) {
        op bd(1, op::kind::ConvTransposeBackwardData, {lt(0, {1, 1, OD}), lt(1, {1, 1, K})},
                {lt(100, {1, 1, ID})});
        bd.set_attr(op::attr::strides, std::vector<int64_t> {S});
        bd.set_attr(op::attr::pads_begin, std::vector<int64_t> {0});
        bd.set_attr(op::attr::pads_end, std::vector<int64_t> {0});
        bd.set_attr(op::attr::dilations, std::vector<int64_t> {1});
        bd.set_attr(op::attr::auto_pad, std::string(mode));
        bd.set_attr(op::attr::data_format, std::string("NCX"));
        bd.set_attr(op::attr::weights_format, std::string("IOX"));
        const auto y = run_one(bd, {dd, w});
        const int pb = std::string(mode) == "SAME_UPPER" ? 0 : 1;
        ASSERT_EQ(y.size(), size_t(ID)) << mode;
        for (int i = 0; i < ID; ++i) {
            double want = 0;
            for (int k = 0; k < K; ++k) {
                const int o = i * S - pb + k;
                if (o >= 0 && o < OD) want += (double)dd[o] * w[k];
            }
            EXPECT_NEAR(y[i], want, 1e-5 * (1 + std::fabs(want))) << mode << " " << i;
        }
    }
}

// gamma / beta of another size than the normalized dims are refused when the graph is built
// (the lowering would read as many values as the normalization takes).
TEST(graph_single_op, norm_gamma_of_the_wrong_size_is_refused) {
    auto build = [](op::kind kind, std::vector<logical_tensor> ins) {
        op o(1, kind, ins, {lt(100, {2, 8, 100})});
        if (kind == op::kind::GroupNorm) {
            o.set_attr(op::attr::groups, int64_t(2));
            o.set_attr(op::attr::data_format, std::string("NCX"));
        }
        graph g(dnnl::engine::kind::cpu);
        g.add_op(o);
        g.finalize();
    };
    const auto src = lt(0, {2, 8, 100});
    EXPECT_ANY_THROW(build(op::kind::LayerNorm, {src, lt(1, {48}), lt(2, {48})}));
    EXPECT_ANY_THROW(build(op::kind::RMSNorm, {src, lt(1, {99})}));
    EXPECT_ANY_THROW(build(op::kind::GroupNorm, {src, lt(1, {100}), lt(2, {100})}));
    EXPECT_NO_THROW(build(op::kind::LayerNorm, {src, lt(1, {100}), lt(2, {100})}));
    EXPECT_NO_THROW(build(op::kind::RMSNorm, {src, lt(1, {100})}));
    EXPECT_NO_THROW(build(op::kind::GroupNorm, {src, lt(1, {8}), lt(2, {8})}));
}
