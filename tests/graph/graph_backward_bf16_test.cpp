// Backward graph ops on bf16 data (statistics and normalization parameters f32, as oneDNN's
// graph spec pairs them) on the CPU engine, against the formulas evaluated in double on the
// bf16-rounded inputs; the tolerance is bf16's rounding of the output.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

uint16_t to_bf16(float f) { // round to nearest even
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}
float from_bf16(uint16_t h) {
    const uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
// The values rounded to bf16, as bytes and as the floats they now are.
std::vector<uint16_t> bf16_of(std::vector<float> &v) {
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        h[i] = to_bf16(v[i]);
        v[i] = from_bf16(h[i]);
    }
    return h;
}
std::vector<float> floats_of_bf16(const std::vector<uint16_t> &h) {
    std::vector<float> v(h.size());
    for (size_t i = 0; i < h.size(); ++i)
        v[i] = from_bf16(h[i]);
    return v;
}

// Every element within 2^-7 of the largest magnitude (bf16 keeps 8 bits).
void expect_bf16_close(const std::vector<float> &got, const std::vector<double> &want,
        const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    double scale = 1e-6;
    for (double w : want)
        scale = std::max(scale, std::fabs(w));
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], scale / 128) << what << " at " << i;
}

size_t run_one(runner_t &r, const std::function<void(graph &)> &build) {
    graph g(dnnl::engine::kind::cpu);
    build(g);
    g.finalize();
    return r.run(g, partition::policy::fusion);
}

} // namespace

TEST(graph_backward_bf16, gelu_backward_from_src) {
    const lt_dims d {3, 41};
    auto x = random_floats(nelems(d), 141, -3.f, 3.f), dd = random_floats(nelems(d), 142);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    r.set(0, bf16_of(x));
    r.set(1, bf16_of(dd));
    ASSERT_EQ(run_one(r, [&](graph &g) {
        g.add_op(op(1, op::kind::GELUBackward, {lt(0, d, dt::bf16), lt(1, d, dt::bf16)},
                {lt(2, d, dt::bf16)}));
    }), 1u);
    std::vector<double> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const double v = x[i];
        want[i] = dd[i]
                * (0.5 * (1.0 + std::erf(v / std::sqrt(2.0)))
                        + v * std::exp(-0.5 * v * v) / std::sqrt(2.0 * 3.14159265358979323846));
    }
    expect_bf16_close(floats_of_bf16(r.get<uint16_t>(2)), want, "diff_src");
}

TEST(graph_backward_bf16, tanh_backward_from_dst) {
    const lt_dims d {2, 3, 7};
    auto x = random_floats(nelems(d), 143, -2.f, 2.f), dd = random_floats(nelems(d), 144);
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        y[i] = std::tanh(x[i]);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    r.set(0, bf16_of(y));
    r.set(1, bf16_of(dd));
    ASSERT_EQ(run_one(r, [&](graph &g) {
        op o(1, op::kind::TanhBackward, {lt(0, d, dt::bf16), lt(1, d, dt::bf16)},
                {lt(2, d, dt::bf16)});
        o.set_attr(op::attr::use_dst, true);
        g.add_op(o);
    }), 1u);
    std::vector<double> want(y.size());
    for (size_t i = 0; i < y.size(); ++i)
        want[i] = double(dd[i]) * (1.0 - double(y[i]) * y[i]);
    expect_bf16_close(floats_of_bf16(r.get<uint16_t>(2)), want, "diff_src");
}

// LayerNormBackward with bf16 src, diff_dst and diff_src; f32 statistics, gamma and diffs.
TEST(graph_backward_bf16, layer_norm_backward) {
    const int64_t R = 4, C = 19;
    const float eps = 1e-5f;
    auto x = random_floats(R * C, 145, -2.f, 2.f), dy = random_floats(R * C, 146);
    const auto gamma = random_floats(C, 147, 0.5f, 1.5f), beta = random_floats(C, 148);
    const auto xb = bf16_of(x), dyb = bf16_of(dy);
    std::vector<float> mean(R), var(R);
    for (int64_t r = 0; r < R; ++r) {
        double m = 0, v = 0;
        for (int64_t c = 0; c < C; ++c)
            m += x[r * C + c] / double(C);
        for (int64_t c = 0; c < C; ++c)
            v += (x[r * C + c] - m) * (x[r * C + c] - m) / double(C);
        mean[r] = float(m);
        var[r] = float(v);
    }
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t rn(eng);
    rn.set(0, xb);
    rn.set(1, dyb);
    rn.set(2, mean);
    rn.set(3, var);
    rn.set(4, gamma);
    rn.set(5, beta);
    ASSERT_EQ(run_one(rn, [&](graph &g) {
        op o(1, op::kind::LayerNormBackward,
                {lt(0, {R, C}, dt::bf16), lt(1, {R, C}, dt::bf16), lt(2, {R}), lt(3, {R}),
                        lt(4, {C}), lt(5, {C})},
                {lt(6, {R, C}, dt::bf16), lt(7, {C}), lt(8, {C})});
        o.set_attr(op::attr::epsilon, eps);
        g.add_op(o);
    }), 1u);
    std::vector<double> dx(R * C), dg(C, 0.0), db(C, 0.0);
    for (int64_t r = 0; r < R; ++r) {
        const double rs = 1.0 / std::sqrt(double(var[r]) + eps);
        double s1 = 0, s2 = 0;
        for (int64_t c = 0; c < C; ++c) {
            const double xhat = (x[r * C + c] - double(mean[r])) * rs;
            s1 += gamma[c] * dy[r * C + c];
            s2 += gamma[c] * dy[r * C + c] * xhat;
            dg[c] += dy[r * C + c] * xhat;
            db[c] += dy[r * C + c];
        }
        for (int64_t c = 0; c < C; ++c) {
            const double xhat = (x[r * C + c] - double(mean[r])) * rs;
            dx[r * C + c] = rs * (gamma[c] * dy[r * C + c] - s1 / C - xhat * s2 / C);
        }
    }
    expect_bf16_close(floats_of_bf16(rn.get<uint16_t>(6)), dx, "diff_src");
    expect_close(rn.get<float>(7), std::vector<float>(dg.begin(), dg.end()), 1e-4f, "diff_gamma");
    expect_close(rn.get<float>(8), std::vector<float>(db.begin(), db.end()), 1e-4f, "diff_beta");
}

// BatchNormTrainingBackward, NXC, bf16 data; f32 statistics, gamma and diffs.
TEST(graph_backward_bf16, batch_norm_backward_nxc) {
    const int64_t N = 2, H = 3, W = 5, C = 4, M = N * H * W;
    const float eps = 1e-3f;
    auto x = random_floats(M * C, 151, -2.f, 2.f), dy = random_floats(M * C, 152);
    const auto gamma = random_floats(C, 153, 0.5f, 1.5f);
    const auto xb = bf16_of(x), dyb = bf16_of(dy);
    std::vector<float> mean(C, 0.f), var(C, 0.f);
    for (int64_t c = 0; c < C; ++c) {
        double m = 0, v = 0;
        for (int64_t i = 0; i < M; ++i)
            m += x[i * C + c] / double(M);
        for (int64_t i = 0; i < M; ++i)
            v += (x[i * C + c] - m) * (x[i * C + c] - m) / double(M);
        mean[c] = float(m);
        var[c] = float(v);
    }
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t rn(eng);
    rn.set(0, xb);
    rn.set(1, dyb);
    rn.set(2, mean);
    rn.set(3, var);
    rn.set(4, gamma);
    const lt_dims d {N, H, W, C};
    ASSERT_EQ(run_one(rn, [&](graph &g) {
        op o(1, op::kind::BatchNormTrainingBackward,
                {lt(0, d, dt::bf16), lt(1, d, dt::bf16), lt(2, {C}), lt(3, {C}), lt(4, {C})},
                {lt(5, d, dt::bf16), lt(6, {C}), lt(7, {C})});
        o.set_attr(op::attr::epsilon, eps);
        g.add_op(o);
    }), 1u);
    std::vector<double> dx(M * C), dg(C, 0.0), db(C, 0.0);
    for (int64_t c = 0; c < C; ++c) {
        const double rs = 1.0 / std::sqrt(double(var[c]) + eps);
        for (int64_t i = 0; i < M; ++i) {
            db[c] += dy[i * C + c];
            dg[c] += dy[i * C + c] * (x[i * C + c] - double(mean[c])) * rs;
        }
        for (int64_t i = 0; i < M; ++i) {
            const double xhat = (x[i * C + c] - double(mean[c])) * rs;
            dx[i * C + c] = gamma[c] * rs * (dy[i * C + c] - db[c] / M - xhat * dg[c] / M);
        }
    }
    expect_bf16_close(floats_of_bf16(rn.get<uint16_t>(5)), dx, "diff_src");
    expect_close(rn.get<float>(6), std::vector<float>(dg.begin(), dg.end()), 1e-4f, "diff_gamma");
    expect_close(rn.get<float>(7), std::vector<float>(db.begin(), db.end()), 1e-4f, "diff_beta");
}
