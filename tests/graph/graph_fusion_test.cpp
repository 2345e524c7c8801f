// Fusion patterns: each graph runs once with the fusion policy and once op by op (debug
// policy), and the results agree; most also against a reference written here.
#include <cmath>
#include <functional>

#include "graph/graph_runner.hpp"
#include "graph/sdpa_ref.hpp"

using namespace graph_test;

namespace {

struct fusion_case_t {
    std::function<void(graph &)> build;
    std::map<size_t, std::vector<float>> inputs; // f32 inputs by id
    std::map<size_t, std::vector<uint8_t>> raw_inputs; // other types, as bytes
    std::vector<size_t> outputs;
};

// Runs both policies; returns {fused partition count, debug partition count}.
std::pair<size_t, size_t> run_both(const fusion_case_t &c, std::map<size_t, runner_t *> &,
        runner_t &fused, runner_t &debug) {
    for (runner_t *r : {&fused, &debug}) {
        for (const auto &in : c.inputs)
            r->set(in.first, in.second);
        for (const auto &in : c.raw_inputs)
            r->buffers[in.first] = in.second;
    }
    graph gf(dnnl::engine::kind::cpu), gd(dnnl::engine::kind::cpu);
    c.build(gf);
    c.build(gd);
    gf.finalize();
    gd.finalize();
    const size_t nf = fused.run(gf, partition::policy::fusion);
    const size_t nd = debug.run(gd, partition::policy::debug);
    return {nf, nd};
}

std::pair<size_t, size_t> compare_policies(const fusion_case_t &c, float tol,
        runner_t *keep = nullptr) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t fused(eng), debug(eng);
    std::map<size_t, runner_t *> unused;
    auto counts = run_both(c, unused, fused, debug);
    for (size_t id : c.outputs) {
        SCOPED_TRACE("output " + std::to_string(id));
        const auto f = fused.get<float>(id), d = debug.get<float>(id);
        expect_close(f, d, tol, "fusion vs op by op");
    }
    if (keep) keep->buffers = fused.buffers;
    return counts;
}

std::vector<float> ref_matmul(const std::vector<float> &a, const std::vector<float> &b, size_t M,
        size_t K, size_t N, bool transpose_b = false) {
    std::vector<float> c(M * N);
    for (size_t m = 0; m < M; ++m)
        for (size_t n = 0; n < N; ++n) {
            double acc = 0;
            for (size_t k = 0; k < K; ++k)
                acc += (double)a[m * K + k] * b[transpose_b ? n * K + k : k * N + n];
            c[m * N + n] = (float)acc;
        }
    return c;
}

} // namespace

TEST(graph_fusion, matmul_bias_relu_is_one_partition_and_matches_reference) {
    const size_t M = 5, K = 7, N = 9;
    fusion_case_t c;
    c.inputs[0] = random_floats(M * K, 1);
    c.inputs[1] = random_floats(K * N, 2);
    c.inputs[2] = random_floats(N, 3);
    c.outputs = {4};
    c.build = [&](graph &g) {
        op mm(10, op::kind::MatMul, {lt(0, {5, 7}), lt(1, {7, 9}), lt(2, {9})}, {lt(3, {5, 9})});
        op relu(11, op::kind::ReLU, {lt(3, {5, 9})}, {lt(4, {5, 9})});
        g.add_op(mm);
        g.add_op(relu);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(counts.second, 2u);
    auto want = ref_matmul(c.inputs[0], c.inputs[1], M, K, N);
    for (size_t m = 0; m < M; ++m)
        for (size_t n = 0; n < N; ++n)
            want[m * N + n] = std::max(0.f, want[m * N + n] + c.inputs[2][n]);
    expect_close(keep.get<float>(4), want, 1e-5f, "reference");
}

TEST(graph_fusion, matmul_transpose_biasadd_binary_eltwise_chain) {
    fusion_case_t c;
    c.inputs[0] = random_floats(2 * 3 * 4, 4);
    c.inputs[1] = random_floats(5 * 4, 5);
    c.inputs[2] = random_floats(5, 6);
    c.inputs[4] = random_floats(3 * 5, 7);
    c.inputs[6] = {0.5f};
    c.outputs = {8};
    c.build = [](graph &g) {
        op mm(1, op::kind::MatMul, {lt(0, {2, 3, 4}), lt(1, {5, 4})}, {lt(10, {2, 3, 5})});
        mm.set_attr(op::attr::transpose_b, true);
        op bias(2, op::kind::BiasAdd, {lt(10, {2, 3, 5}), lt(2, {5})}, {lt(3, {2, 3, 5})});
        op add(3, op::kind::Add, {lt(3, {2, 3, 5}), lt(4, {3, 5})}, {lt(5, {2, 3, 5})});
        op sig(4, op::kind::Sigmoid, {lt(5, {2, 3, 5})}, {lt(11, {2, 3, 5})});
        op mul(5, op::kind::Multiply, {lt(6, {1}), lt(11, {2, 3, 5})}, {lt(7, {2, 3, 5})});
        op gelu(6, op::kind::GELU, {lt(7, {2, 3, 5})}, {lt(8, {2, 3, 5})});
        for (auto *o : {&mm, &bias, &add, &sig, &mul, &gelu})
            g.add_op(*o);
    };
    auto counts = compare_policies(c, 1e-5f);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(counts.second, 6u);
}

TEST(graph_fusion, conv_nxc_bias_add_relu_matches_reference) {
    // src 1x5x5x3 (NXC), weights 3x3x3x4 (XIO), stride 1, pad 1.
    fusion_case_t c;
    c.inputs[0] = random_floats(5 * 5 * 3, 8);
    c.inputs[1] = random_floats(3 * 3 * 3 * 4, 9);
    c.inputs[2] = random_floats(4, 10);
    c.inputs[3] = random_floats(5 * 5 * 4, 11);
    c.outputs = {6};
    c.build = [](graph &g) {
        op conv(1, op::kind::Convolution, {lt(0, {1, 5, 5, 3}), lt(1, {3, 3, 3, 4}), lt(2, {4})},
                {lt(4, {1, 5, 5, 4})});
        conv.set_attr(op::attr::strides, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::pads_begin, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::pads_end, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::data_format, std::string("NXC"));
        conv.set_attr(op::attr::weights_format, std::string("XIO"));
        op add(2, op::kind::Add, {lt(4, {1, 5, 5, 4}), lt(3, {1, 5, 5, 4})}, {lt(5, {1, 5, 5, 4})});
        op relu(3, op::kind::ReLU, {lt(5, {1, 5, 5, 4})}, {lt(6, {1, 5, 5, 4})});
        g.add_op(conv);
        g.add_op(add);
        g.add_op(relu);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    std::vector<float> want(5 * 5 * 4);
    for (int h = 0; h < 5; ++h)
        for (int w = 0; w < 5; ++w)
            for (int o = 0; o < 4; ++o) {
                double acc = c.inputs[2][o];
                for (int kh = 0; kh < 3; ++kh)
                    for (int kw = 0; kw < 3; ++kw)
                        for (int i = 0; i < 3; ++i) {
                            const int ih = h + kh - 1, iw = w + kw - 1;
                            if (ih < 0 || iw < 0 || ih >= 5 || iw >= 5) continue;
                            acc += (double)c.inputs[0][(ih * 5 + iw) * 3 + i]
                                    * c.inputs[1][((kh * 3 + kw) * 3 + i) * 4 + o];
                        }
                const size_t at = (h * 5 + w) * 4 + o;
                want[at] = std::max(0.f, (float)acc + c.inputs[3][at]);
            }
    expect_close(keep.get<float>(6), want, 1e-5f, "reference");
}

TEST(graph_fusion, conv_transpose_ncx_with_bias_and_clamp) {
    fusion_case_t c;
    c.inputs[0] = random_floats(2 * 4 * 3 * 3, 12);
    c.inputs[1] = random_floats(4 * 6 * 2 * 2, 13); // IOX: 4 in, 6 out
    c.inputs[2] = random_floats(6, 14);
    c.outputs = {4};
    c.build = [](graph &g) {
        op deconv(1, op::kind::ConvTranspose,
                {lt(0, {2, 4, 3, 3}), lt(1, {4, 6, 2, 2}), lt(2, {6})}, {lt(3, {2, 6, 6, 6})});
        deconv.set_attr(op::attr::strides, std::vector<int64_t> {2, 2});
        deconv.set_attr(op::attr::pads_begin, std::vector<int64_t> {0, 0});
        deconv.set_attr(op::attr::pads_end, std::vector<int64_t> {0, 0});
        deconv.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
        deconv.set_attr(op::attr::data_format, std::string("NCX"));
        deconv.set_attr(op::attr::weights_format, std::string("IOX"));
        op clamp(2, op::kind::Clamp, {lt(3, {2, 6, 6, 6})}, {lt(4, {2, 6, 6, 6})});
        clamp.set_attr(op::attr::min, -0.5f);
        clamp.set_attr(op::attr::max, 0.5f);
        g.add_op(deconv);
        g.add_op(clamp);
    };
    auto counts = compare_policies(c, 1e-5f);
    EXPECT_EQ(counts.first, 1u);
}

TEST(graph_fusion, int8_matmul_dequantize_relu_quantize) {
    const size_t M = 4, K = 8, N = 6;
    fusion_case_t c;
    std::vector<uint8_t> src(M * K);
    std::vector<uint8_t> wei(K * N);
    std::mt19937 gen(15);
    for (auto &x : src)
        x = static_cast<uint8_t>(gen() % 256);
    for (auto &x : wei)
        x = static_cast<uint8_t>(static_cast<int8_t>(static_cast<int>(gen() % 255) - 127));
    c.raw_inputs[0] = src;
    c.raw_inputs[1] = wei;
    c.outputs = {};
    const std::vector<float> wscales {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f};
    c.build = [&](graph &g) {
        op dqs(1, op::kind::Dequantize, {lt(0, {4, 8}, dt::u8)}, {lt(10, {4, 8})});
        dqs.set_attr(op::attr::scales, std::vector<float> {0.05f});
        dqs.set_attr(op::attr::zps, std::vector<int64_t> {128});
        dqs.set_attr(op::attr::qtype, std::string("per_tensor"));
        op dqw(2, op::kind::Dequantize, {lt(1, {8, 6}, dt::s8)}, {lt(11, {8, 6})});
        dqw.set_attr(op::attr::scales, wscales);
        dqw.set_attr(op::attr::zps, std::vector<int64_t>(6, 0));
        dqw.set_attr(op::attr::qtype, std::string("per_channel"));
        dqw.set_attr(op::attr::axis, int64_t(1));
        op mm(3, op::kind::MatMul, {lt(10, {4, 8}), lt(11, {8, 6})}, {lt(12, {4, 6})});
        op relu(4, op::kind::ReLU, {lt(12, {4, 6})}, {lt(13, {4, 6})});
        op q(5, op::kind::Quantize, {lt(13, {4, 6})}, {lt(14, {4, 6}, dt::u8)});
        q.set_attr(op::attr::scales, std::vector<float> {0.1f});
        q.set_attr(op::attr::zps, std::vector<int64_t> {3});
        q.set_attr(op::attr::qtype, std::string("per_tensor"));
        for (auto *o : {&dqs, &dqw, &mm, &relu, &q})
            g.add_op(*o);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t fused(eng), debug(eng);
    std::map<size_t, runner_t *> unused;
    auto counts = run_both(c, unused, fused, debug);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(counts.second, 5u);
    const auto f = fused.get<uint8_t>(14), d = debug.get<uint8_t>(14);
    ASSERT_EQ(f.size(), M * N);
    for (size_t m = 0; m < M; ++m)
        for (size_t n = 0; n < N; ++n) {
            double acc = 0;
            for (size_t k = 0; k < K; ++k)
                acc += (src[m * K + k] - 128.0) * 0.05 * (int8_t)wei[k * N + n] * wscales[n];
            const double q = std::nearbyint(std::max(0.0, acc) / 0.1) + 3;
            const int want = (int)std::min(255.0, std::max(0.0, q));
            EXPECT_NEAR(f[m * N + n], want, 1) << m << "," << n;
            EXPECT_NEAR(f[m * N + n], d[m * N + n], 1) << m << "," << n;
        }
}

TEST(graph_fusion, matmul_typecast_to_bf16_is_fused) {
    fusion_case_t c;
    c.inputs[0] = random_floats(3 * 4, 16);
    c.inputs[1] = random_floats(4 * 5, 17);
    c.build = [](graph &g) {
        op mm(1, op::kind::MatMul, {lt(0, {3, 4}), lt(1, {4, 5})}, {lt(2, {3, 5})});
        op tc(2, op::kind::TypeCast, {lt(2, {3, 5})}, {lt(3, {3, 5}, dt::bf16)});
        g.add_op(mm);
        g.add_op(tc);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t fused(eng), debug(eng);
    std::map<size_t, runner_t *> unused;
    auto counts = run_both(c, unused, fused, debug);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(fused.get<uint16_t>(3), debug.get<uint16_t>(3));
}

TEST(graph_fusion, layer_norm_add_relu_matches_reference) {
    const size_t R = 6, C = 10;
    fusion_case_t c;
    c.inputs[0] = random_floats(R * C, 18);
    c.inputs[1] = random_floats(C, 19, 0.5f, 1.5f);
    c.inputs[2] = random_floats(C, 20);
    c.inputs[4] = random_floats(R * C, 21);
    c.outputs = {6};
    c.build = [](graph &g) {
        op ln(1, op::kind::LayerNorm, {lt(0, {2, 3, 10}), lt(1, {10}), lt(2, {10})},
                {lt(3, {2, 3, 10})});
        ln.set_attr(op::attr::keep_stats, false);
        ln.set_attr(op::attr::epsilon, 1e-5f);
        op add(2, op::kind::Add, {lt(3, {2, 3, 10}), lt(4, {2, 3, 10})}, {lt(5, {2, 3, 10})});
        op relu(3, op::kind::ReLU, {lt(5, {2, 3, 10})}, {lt(6, {2, 3, 10})});
        g.add_op(ln);
        g.add_op(add);
        g.add_op(relu);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    std::vector<float> want(R * C);
    for (size_t r = 0; r < R; ++r) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < C; ++i)
            mean += c.inputs[0][r * C + i];
        mean /= C;
        for (size_t i = 0; i < C; ++i)
            var += std::pow(c.inputs[0][r * C + i] - mean, 2);
        var /= C;
        for (size_t i = 0; i < C; ++i) {
            const double y = (c.inputs[0][r * C + i] - mean) / std::sqrt(var + 1e-5)
                            * c.inputs[1][i]
                    + c.inputs[2][i];
            want[r * C + i] = std::max(0.f, (float)y + c.inputs[4][r * C + i]);
        }
    }
    expect_close(keep.get<float>(6), want, 1e-4f, "reference");
}

TEST(graph_fusion, rms_norm_multiply_and_group_norm_relu) {
    fusion_case_t c;
    c.inputs[0] = random_floats(4 * 8, 22);
    c.inputs[1] = random_floats(8, 23, 0.5f, 1.5f);
    c.inputs[3] = random_floats(4 * 8, 24);
    c.inputs[10] = random_floats(2 * 4 * 3 * 3, 25);
    c.inputs[11] = random_floats(4, 26, 0.5f, 1.5f);
    c.inputs[12] = random_floats(4, 27);
    c.outputs = {4, 14};
    c.build = [](graph &g) {
        op rms(1, op::kind::RMSNorm, {lt(0, {4, 8}), lt(1, {8})}, {lt(2, {4, 8})});
        rms.set_attr(op::attr::epsilon, 1e-6f);
        op mul(2, op::kind::Multiply, {lt(2, {4, 8}), lt(3, {4, 8})}, {lt(4, {4, 8})});
        op gn(3, op::kind::GroupNorm, {lt(10, {2, 4, 3, 3}), lt(11, {4}), lt(12, {4})},
                {lt(13, {2, 4, 3, 3})});
        gn.set_attr(op::attr::groups, int64_t(2));
        gn.set_attr(op::attr::data_format, std::string("NCX"));
        gn.set_attr(op::attr::keep_stats, false);
        op relu(4, op::kind::ReLU, {lt(13, {2, 4, 3, 3})}, {lt(14, {2, 4, 3, 3})});
        for (auto *o : {&rms, &mul, &gn, &relu})
            g.add_op(*o);
    };
    auto counts = compare_policies(c, 1e-5f);
    EXPECT_EQ(counts.first, 2u);
    EXPECT_EQ(counts.second, 4u);
}

namespace {

// Scaled dot-product attention: Q K^T / sqrt(d) + mask, softmax, times V. K and V have
// kv_heads heads shared by groups of query heads (GQA when kv_heads < heads).
fusion_case_t sdpa_case(int64_t heads, int64_t kv_heads, int64_t S, int64_t D, bool mask,
        bool host_scalar_scale = false) {
    const int64_t G = heads / kv_heads;
    fusion_case_t c;
    const lt_dims q_dims {1, kv_heads, G, S, D}, kv_dims {1, kv_heads, 1, S, D};
    const lt_dims s_dims {1, kv_heads, G, S, S};
    c.inputs[0] = random_floats(nelems(q_dims), 30);
    c.inputs[1] = random_floats(nelems(kv_dims), 31);
    c.inputs[2] = random_floats(nelems(kv_dims), 32);
    c.inputs[3] = {std::sqrt((float)D)};
    if (mask) { // causal: -inf above the diagonal
        std::vector<float> m(S * S);
        for (int64_t i = 0; i < S; ++i)
            for (int64_t j = 0; j < S; ++j)
                m[i * S + j] = j > i ? -INFINITY : 0.f;
        c.inputs[4] = m;
    }
    c.outputs = {9};
    c.build = [=](graph &g) {
        op qk(1, op::kind::MatMul, {lt(0, q_dims), lt(1, kv_dims)}, {lt(5, s_dims)});
        qk.set_attr(op::attr::transpose_b, true);
        const logical_tensor scale_lt = host_scalar_scale
                ? logical_tensor(3, dt::f32, lt_dims {}, logical_tensor::layout_type::strided,
                        logical_tensor::property_type::host_scalar)
                : lt(3, {1});
        op scale(2, op::kind::Divide, {lt(5, s_dims), scale_lt}, {lt(6, s_dims)});
        op add(3, op::kind::Add, {lt(6, s_dims), lt(4, {1, 1, 1, S, S})}, {lt(7, s_dims)});
        op sm(4, op::kind::SoftMax, {lt(mask ? 7 : 6, s_dims)}, {lt(8, s_dims)});
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(5, op::kind::MatMul, {lt(8, s_dims), lt(2, kv_dims)}, {lt(9, q_dims)});
        g.add_op(qk);
        g.add_op(scale);
        if (mask) g.add_op(add);
        g.add_op(sm);
        g.add_op(pv);
    };
    return c;
}

std::vector<float> ref_sdpa(const fusion_case_t &c, int64_t heads, int64_t kv_heads, int64_t S,
        int64_t D, bool mask) {
    return sdpa_ref::forward(c.inputs.at(0), c.inputs.at(1), c.inputs.at(2), heads, kv_heads, S,
            D, mask, 1 / std::sqrt(double(D)));
}

} // namespace

TEST(graph_fusion, sdpa_is_one_partition_and_matches_reference) {
    auto c = sdpa_case(2, 2, 8, 16, false);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(counts.second, 4u);
    expect_close(keep.get<float>(9), ref_sdpa(c, 2, 2, 8, 16, false), 1e-4f, "reference");
}

TEST(graph_fusion, sdpa_causal_mask_matches_reference) {
    auto c = sdpa_case(2, 2, 7, 8, true);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    expect_close(keep.get<float>(9), ref_sdpa(c, 2, 2, 7, 8, true), 1e-4f, "reference");
}

TEST(graph_fusion, sdpa_grouped_query_attention_with_host_scalar_scale_matches_reference) {
    auto c = sdpa_case(4, 2, 6, 8, true, true);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    expect_close(keep.get<float>(9), ref_sdpa(c, 4, 2, 6, 8, true), 1e-4f, "reference");
}

TEST(graph_fusion, gated_mlp_swish_is_one_partition_and_matches_reference) {
    const size_t M = 3, H = 8, I = 12;
    fusion_case_t c;
    c.inputs[0] = random_floats(M * H, 40);
    c.inputs[1] = random_floats(H * I, 41);
    c.inputs[2] = random_floats(H * I, 42);
    c.inputs[3] = random_floats(I * H, 43);
    c.outputs = {9};
    c.build = [](graph &g) {
        op gate(1, op::kind::MatMul, {lt(0, {3, 8}), lt(1, {8, 12})}, {lt(4, {3, 12})});
        op sig(2, op::kind::Sigmoid, {lt(4, {3, 12})}, {lt(5, {3, 12})});
        op swish(3, op::kind::Multiply, {lt(4, {3, 12}), lt(5, {3, 12})}, {lt(6, {3, 12})});
        op up(4, op::kind::MatMul, {lt(0, {3, 8}), lt(2, {8, 12})}, {lt(7, {3, 12})});
        op mul(5, op::kind::Multiply, {lt(6, {3, 12}), lt(7, {3, 12})}, {lt(8, {3, 12})});
        op down(6, op::kind::MatMul, {lt(8, {3, 12}), lt(3, {12, 8})}, {lt(9, {3, 8})});
        for (auto *o : {&gate, &sig, &swish, &up, &mul, &down})
            g.add_op(*o);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    auto counts = compare_policies(c, 1e-5f, &keep);
    EXPECT_EQ(counts.first, 1u);
    EXPECT_EQ(counts.second, 6u);
    auto g = ref_matmul(c.inputs[0], c.inputs[1], M, H, I);
    auto u = ref_matmul(c.inputs[0], c.inputs[2], M, H, I);
    for (size_t i = 0; i < g.size(); ++i)
        g[i] = g[i] / (1.f + std::exp(-g[i])) * u[i];
    expect_close(keep.get<float>(9), ref_matmul(g, c.inputs[3], M, I, H), 1e-4f, "reference");
}

TEST(graph_fusion, single_ops_of_many_kinds_run_op_by_op) {
    fusion_case_t c;
    c.inputs[0] = random_floats(2 * 3 * 4 * 4, 50, 0.1f, 1.f);
    c.outputs = {2, 3, 4, 5, 6, 7, 8};
    c.build = [](graph &g) {
        const lt_dims d {2, 3, 4, 4};
        op pool(1, op::kind::MaxPool, {lt(0, d)}, {lt(2, {2, 3, 2, 2})});
        pool.set_attr(op::attr::strides, std::vector<int64_t> {2, 2});
        pool.set_attr(op::attr::kernel, std::vector<int64_t> {2, 2});
        pool.set_attr(op::attr::pads_begin, std::vector<int64_t> {0, 0});
        pool.set_attr(op::attr::pads_end, std::vector<int64_t> {0, 0});
        pool.set_attr(op::attr::data_format, std::string("NCX"));
        op red(2, op::kind::ReduceMean, {lt(0, d)}, {lt(3, {2, 3})});
        red.set_attr(op::attr::axes, std::vector<int64_t> {2, 3});
        op tr(3, op::kind::StaticTranspose, {lt(0, d)}, {lt(4, {4, 4, 3, 2})});
        tr.set_attr(op::attr::order, std::vector<int64_t> {3, 2, 1, 0});
        op rs(4, op::kind::StaticReshape, {lt(0, d)}, {lt(5, {6, 16})});
        rs.set_attr(op::attr::shape, std::vector<int64_t> {6, -1});
        rs.set_attr(op::attr::special_zero, false);
        op sm(5, op::kind::LogSoftmax, {lt(0, d)}, {lt(6, d)});
        sm.set_attr(op::attr::axis, int64_t(1));
        op cat(6, op::kind::Concat, {lt(0, d), lt(0, d)}, {lt(7, {2, 6, 4, 4})});
        cat.set_attr(op::attr::axis, int64_t(1));
        op sq(7, op::kind::Sqrt, {lt(0, d)}, {lt(8, d)});
        for (auto *o : {&pool, &red, &tr, &rs, &sm, &cat, &sq})
            g.add_op(*o);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t keep(eng);
    compare_policies(c, 1e-6f, &keep);
    const auto &x = c.inputs[0];
    const auto tr = keep.get<float>(4);
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 3; ++b)
            for (int h = 0; h < 4; ++h)
                for (int w = 0; w < 4; ++w)
                    ASSERT_EQ(tr[((w * 4 + h) * 3 + b) * 2 + a], x[((a * 3 + b) * 4 + h) * 4 + w]);
    EXPECT_EQ(keep.get<float>(5), x);
    const auto mean = keep.get<float>(3);
    for (int i = 0; i < 6; ++i) {
        double s = 0;
        for (int k = 0; k < 16; ++k)
            s += x[i * 16 + k];
        EXPECT_NEAR(mean[i], s / 16, 1e-5);
    }
}

TEST(graph_fusion, sdpa_bf16_matches_op_by_op) {
    const lt_dims qd {1, 2, 16, 8}, sd {1, 2, 16, 16};
    auto to_bf16 = [](const std::vector<float> &v) {
        std::vector<uint8_t> b(v.size() * 2);
        for (size_t i = 0; i < v.size(); ++i) {
            uint32_t u;
            std::memcpy(&u, &v[i], 4);
            const uint16_t h = static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
            std::memcpy(&b[2 * i], &h, 2);
        }
        return b;
    };
    fusion_case_t c;
    for (size_t id : {0, 1, 2})
        c.raw_inputs[id] = to_bf16(random_floats(nelems(qd), 60 + (unsigned)id));
    c.inputs[3] = {0.25f};
    c.build = [&](graph &g) {
        op qk(1, op::kind::MatMul, {lt(0, qd, dt::bf16), lt(1, qd, dt::bf16)}, {lt(5, sd)});
        qk.set_attr(op::attr::transpose_b, true);
        op mul(2, op::kind::Multiply, {lt(5, sd), lt(3, {1})}, {lt(6, sd)});
        op sm(3, op::kind::SoftMax, {lt(6, sd)}, {lt(8, sd, dt::bf16)});
        sm.set_attr(op::attr::axis, int64_t(3));
        op pv(4, op::kind::MatMul, {lt(8, sd, dt::bf16), lt(2, qd, dt::bf16)},
                {lt(9, qd, dt::bf16)});
        for (auto *o : {&qk, &mul, &sm, &pv})
            g.add_op(*o);
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t fused(eng), debug(eng);
    std::map<size_t, runner_t *> unused;
    auto counts = run_both(c, unused, fused, debug);
    EXPECT_EQ(counts.first, 1u);
    const auto f = fused.get<uint16_t>(9), d = debug.get<uint16_t>(9);
    ASSERT_EQ(f.size(), nelems(qd));
    for (size_t i = 0; i < f.size(); ++i) {
        uint32_t a = uint32_t(f[i]) << 16, b = uint32_t(d[i]) << 16;
        float fa, fb;
        std::memcpy(&fa, &a, 4);
        std::memcpy(&fb, &b, 4);
        ASSERT_NEAR(fa, fb, 2e-2f * (1.f + std::fabs(fb))) << i;
    }
}
