// Quantize, Dequantize and TypeCast with f8_e4m3 and f8_e5m2 on the CPU engine. The reference
// decodes every one of the 256 codes from its fields and quantizes by searching them for the
// nearest value (ties to the even code), so it shares nothing with the library's conversion.
#include <cmath>

#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

// The value of code c: sign, exponent field, mantissa field; e4m3 has no infinity.
float decode(uint8_t c, bool e4m3) {
    const int mb = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, ef = (c & 0x7f) >> mb,
              mf = c & ((1 << mb) - 1), emax = e4m3 ? 15 : 31;
    const double sign = (c & 0x80) ? -1 : 1;
    if (e4m3 && (c & 0x7f) == 0x7f) return NAN;
    if (!e4m3 && ef == emax) return mf ? NAN : float(sign * INFINITY);
    const double frac = ef ? 1.0 + mf / double(1 << mb) : mf / double(1 << mb);
    return float(sign * frac * std::pow(2.0, (ef ? ef : 1) - bias));
}

// The code nearest to x among the finite ones; ties go to the even code.
uint8_t nearest(float x, bool e4m3) {
    int best = -1;
    double best_d = INFINITY;
    for (int c = 0; c < 256; ++c) {
        const float v = decode(uint8_t(c), e4m3);
        if (!std::isfinite(v) || (std::signbit(v) != std::signbit(x) && v != 0)) continue;
        const double d = std::fabs(double(v) - x);
        if (d < best_d || (d == best_d && (c & 1) == 0)) best = c, best_d = d;
    }
    return uint8_t(best);
}

std::vector<float> run_graph(graph &g, const std::map<size_t, std::vector<float>> &in, size_t out) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    for (const auto &i : in)
        r.set(i.first, i.second);
    g.finalize();
    r.run(g, partition::policy::fusion);
    return r.get<float>(out);
}

void round_trip(bool e4m3, bool per_channel) {
    const dt f8 = e4m3 ? dt::f8_e4m3 : dt::f8_e5m2;
    const int64_t C = 3, W = 7;
    const std::vector<float> scales = per_channel ? std::vector<float> {0.5f, 0.01f, 2.f}
                                                  : std::vector<float> {0.25f};
    // Values across the range: subnormal, normal, near the largest finite value.
    std::vector<float> x(C * W);
    const float top = e4m3 ? 440.f : 50000.f;
    for (int64_t c = 0; c < C; ++c)
        for (int64_t w = 0; w < W; ++w) {
            const float s = scales[per_channel ? c : 0];
            const float mags[] = {0.f, 0.0013f, 0.03f, 1.f, 3.3f, 17.7f, top};
            x[c * W + w] = (w % 2 ? -1.f : 1.f) * mags[w] * s;
        }
    graph g(dnnl::engine::kind::cpu);
    op q(1, op::kind::Quantize, {lt(0, {C, W})}, {lt(1, {C, W}, f8)});
    op dq(2, op::kind::Dequantize, {lt(1, {C, W}, f8)}, {lt(2, {C, W})});
    for (op *o : {&q, &dq}) {
        o->set_attr(op::attr::qtype, std::string(per_channel ? "per_channel" : "per_tensor"));
        o->set_attr(op::attr::axis, int64_t(0));
        o->set_attr(op::attr::scales, scales);
        o->set_attr(op::attr::zps, std::vector<int64_t>(scales.size(), 0));
    }
    g.add_op(q);
    g.add_op(dq);
    const auto y = run_graph(g, {{0, x}}, 2);
    ASSERT_EQ(y.size(), x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const float s = scales[per_channel ? i / W : 0];
        const float want = decode(nearest(x[i] / s, e4m3), e4m3) * s;
        ASSERT_EQ(y[i], want) << (e4m3 ? "e4m3" : "e5m2") << " at " << i << " x " << x[i];
    }
}

} // namespace

TEST(graph_f8, quantize_dequantize_round_to_the_nearest_code) {
    for (bool e4m3 : {true, false})
        for (bool per_channel : {false, true})
            round_trip(e4m3, per_channel);
}

TEST(graph_f8, type_cast_through_f8_and_every_code_decodes) {
    for (bool e4m3 : {true, false}) {
        const dt f8 = e4m3 ? dt::f8_e4m3 : dt::f8_e5m2;
        // Every finite code's value survives f32 -> f8 -> f32; midpoints go to even codes.
        std::vector<float> x;
        for (int c = 0; c < 256; ++c) {
            const float v = decode(uint8_t(c), e4m3);
            if (std::isfinite(v)) x.push_back(v);
        }
        const size_t exact = x.size();
        for (size_t i = 0; i + 1 < exact; ++i)
            if (std::signbit(x[i]) == std::signbit(x[i + 1]) && x[i] != 0 && x[i + 1] != 0)
                x.push_back(0.5f * (x[i] + x[i + 1]));
        const int64_t n = int64_t(x.size());
        graph g(dnnl::engine::kind::cpu);
        g.add_op(op(1, op::kind::TypeCast, {lt(0, {n})}, {lt(1, {n}, f8)}));
        g.add_op(op(2, op::kind::TypeCast, {lt(1, {n}, f8)}, {lt(2, {n})}));
        const auto y = run_graph(g, {{0, x}}, 2);
        ASSERT_EQ(y.size(), x.size());
        for (size_t i = 0; i < x.size(); ++i)
            ASSERT_EQ(y[i], decode(nearest(x[i], e4m3), e4m3))
                    << (e4m3 ? "e4m3" : "e5m2") << " at " << i << " x " << x[i];
    }
}

TEST(graph_f8, zero_points_are_refused_with_a_reason) {
    graph g(dnnl::engine::kind::cpu);
    op q(1, op::kind::Quantize, {lt(0, {4})}, {lt(1, {4}, dt::f8_e4m3)});
    q.set_attr(op::attr::qtype, std::string("per_tensor"));
    q.set_attr(op::attr::scales, std::vector<float> {1.f});
    q.set_attr(op::attr::zps, std::vector<int64_t> {3});
    g.add_op(q);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    try {
        parts[0].compile(parts[0].get_input_ports(), parts[0].get_output_ports(), eng);
        FAIL() << "an f8 zero point compiled";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}
