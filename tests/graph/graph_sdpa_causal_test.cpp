// The sdpa pattern with the causal mask computed in the graph (GenIndex / GreaterEqual /
// Select, or Add of such a mask; top-left, or bottom-right through Add / Subtract of the key
// and query lengths) on the CPU engine: one partition, fused, against a double reference
// written here; a mask whose condition runs the other way (keys after the row) is not taken
// as causal.
#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

// Values: 0 Q, 1 K, 2 V, 3 scale, 4 -inf, 5 QK, 6 scaled, 7 masked, 8 probabilities, 9 dst,
// 10 row index, 11 column index, 12 condition, 13 zero, 14 implicit mask, 15 key length,
// 16 query length, 17 row + key length, 18 shifted row.
void build(graph &g, int64_t H, int64_t Sq, int64_t Sk, int64_t D, bool add_form, bool reversed,
        bool bottom_right = false) {
    const lt_dims sd = {1, H, Sq, Sk};
    op qk(1, op::kind::MatMul, {lt(0, {1, H, Sq, D}), lt(1, {1, H, Sk, D})}, {lt(5, sd)});
    qk.set_attr(op::attr::transpose_b, true);
    op scale(2, op::kind::Multiply, {lt(5, sd), lt(3, {1})}, {lt(6, sd)});
    op row(3, op::kind::GenIndex, {lt(6, sd)}, {lt(10, sd, dt::s32)});
    row.set_attr(op::attr::axis, int64_t(-2));
    op col(4, op::kind::GenIndex, {lt(6, sd)}, {lt(11, sd, dt::s32)});
    col.set_attr(op::attr::axis, int64_t(-1));
    const size_t rows = bottom_right ? 18 : 10;
    op ge(5, op::kind::GreaterEqual,
            {lt(reversed ? 11 : rows, sd, dt::s32), lt(reversed ? rows : 11, sd, dt::s32)},
            {lt(12, sd, dt::boolean)});
    op plus(10, op::kind::Add, {lt(10, sd, dt::s32), lt(15, {1}, dt::s32)}, {lt(17, sd, dt::s32)});
    op minus(11, op::kind::Subtract, {lt(17, sd, dt::s32), lt(16, {1}, dt::s32)},
            {lt(18, sd, dt::s32)});
    op sel(6, op::kind::Select, {lt(12, sd, dt::boolean), add_form ? lt(13, {1}) : lt(6, sd), lt(4, {1})},
            {add_form ? lt(14, sd) : lt(7, sd)});
    op add(7, op::kind::Add, {lt(6, sd), lt(14, sd)}, {lt(7, sd)});
    op sm(8, op::kind::SoftMax, {lt(7, sd)}, {lt(8, sd)});
    sm.set_attr(op::attr::axis, int64_t(-1));
    op pv(9, op::kind::MatMul, {lt(8, sd), lt(2, {1, H, Sk, D})}, {lt(9, {1, H, Sq, D})});
    for (op *o : {&qk, &scale, &row, &col, &ge, &sel})
        g.add_op(*o);
    if (bottom_right) {
        g.add_op(plus);
        g.add_op(minus);
    }
    if (add_form) g.add_op(add);
    g.add_op(sm);
    g.add_op(pv);
    g.finalize();
}

// Key j seen from row i when j <= i + diag; a row that sees no key is NaN (0 / 0).
std::vector<float> reference(const std::vector<float> &q, const std::vector<float> &k,
        const std::vector<float> &v, float scale, int64_t H, int64_t Sq, int64_t Sk, int64_t D,
        int64_t diag = 0) {
    std::vector<float> out(H * Sq * D);
    std::vector<double> p(Sk);
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < Sq; ++i) {
            const int64_t last = std::min(i + diag, Sk - 1);
            if (last < 0) {
                for (int64_t e = 0; e < D; ++e)
                    out[(h * Sq + i) * D + e] = NAN;
                continue;
            }
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j <= last; ++j) {
                double x = 0;
                for (int64_t e = 0; e < D; ++e)
                    x += double(q[(h * Sq + i) * D + e]) * k[(h * Sk + j) * D + e];
                p[j] = x * scale;
                mx = std::max(mx, p[j]);
            }
            for (int64_t j = 0; j <= last; ++j)
                sum += (p[j] = std::exp(p[j] - mx));
            for (int64_t e = 0; e < D; ++e) {
                double acc = 0;
                for (int64_t j = 0; j <= last; ++j)
                    acc += p[j] / sum * v[(h * Sk + j) * D + e];
                out[(h * Sq + i) * D + e] = float(acc);
            }
        }
    return out;
}

// bottom_right: the lengths given to the graph are Sk + shift and Sq (diagonal at Sk - Sq +
// shift); otherwise top-left.
void run_case(int64_t H, int64_t Sq, int64_t Sk, int64_t D, bool add_form,
        bool bottom_right = false, int32_t shift = 0) {
    SCOPED_TRACE("H " + std::to_string(H) + " Sq " + std::to_string(Sq) + " Sk "
            + std::to_string(Sk) + " D " + std::to_string(D) + (add_form ? " add" : " select")
            + (bottom_right ? " bottom-right shift " + std::to_string(shift) : ""));
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    graph g(dnnl::engine::kind::cpu);
    build(g, H, Sq, Sk, D, add_form, false, bottom_right);
    runner_t r(eng);
    const auto q = random_floats(H * Sq * D, 7), k = random_floats(H * Sk * D, 8),
               v = random_floats(H * Sk * D, 9);
    const float scale = 0.7f;
    r.set(0, q);
    r.set(1, k);
    r.set(2, v);
    r.set(3, std::vector<float> {scale});
    r.set(4, std::vector<float> {-INFINITY});
    r.set(13, std::vector<float> {0.f});
    r.set(15, std::vector<int32_t> {int32_t(Sk) + shift});
    r.set(16, std::vector<int32_t> {int32_t(Sq)});
    EXPECT_EQ(r.run(g, partition::policy::fusion), 1u) << "not one partition";
    const int64_t diag = bottom_right ? Sk - Sq + shift : 0;
    const auto got = r.get<float>(9), want = reference(q, k, v, scale, H, Sq, Sk, D, diag);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            ASSERT_TRUE(std::isnan(got[i])) << "at " << i << ": a row that sees no key";
            continue;
        }
        ASSERT_NEAR(got[i], want[i], 1e-4f * (1.f + std::fabs(want[i]))) << "at " << i;
    }
}

TEST(graph_sdpa_causal, select_form_is_fused_and_matches_reference) {
    for (int64_t s : {1, 17, 70})
        run_case(2, s, s, 16, false);
    run_case(3, 9, 33, 8, false); // fewer queries than keys, top-left aligned
}

TEST(graph_sdpa_causal, add_of_implicit_mask_is_fused_and_matches_reference) {
    run_case(2, 65, 65, 24, true);
}

TEST(graph_sdpa_causal, bottom_right_reads_the_graphs_lengths) {
    run_case(2, 9, 33, 8, false, true); // fewer queries: the last row sees every key
    run_case(2, 9, 33, 8, true, true, -5); // lengths that are not the shapes' are what counts
    run_case(1, 20, 12, 16, false, true); // the first rows see no key: NaN
}

TEST(graph_sdpa_causal, reversed_condition_is_not_a_causal_mask) {
    // Keys j >= i are kept: not the sdpa pattern, so each op runs as its own partition
    // (GenIndex included), and the result is that of the reversed mask.
    const int64_t H = 1, S = 8, D = 8;
    graph g(dnnl::engine::kind::cpu);
    build(g, H, S, S, D, false, true);
    auto parts = g.get_partitions(partition::policy::fusion);
    for (auto &p : parts) {
        EXPECT_LT(p.get_ops_num(), 8u) << "a reversed condition was taken as causal";
        EXPECT_TRUE(p.is_supported());
    }
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    const auto q = random_floats(H * S * D, 7), k = random_floats(H * S * D, 8),
               v = random_floats(H * S * D, 9);
    const float scale = 0.7f;
    r.set(0, q);
    r.set(1, k);
    r.set(2, v);
    r.set(3, std::vector<float> {scale});
    r.set(4, std::vector<float> {-INFINITY});
    EXPECT_GT(r.run(g, partition::policy::fusion), 1u);
    const auto got = r.get<float>(9);
    ASSERT_EQ(got.size(), size_t(S * D));
    for (int64_t i = 0; i < S; ++i) {
        std::vector<double> p(S, 0);
        double mx = -INFINITY, sum = 0;
        for (int64_t j = i; j < S; ++j) {
            for (int64_t e = 0; e < D; ++e)
                p[j] += double(q[i * D + e]) * k[j * D + e];
            p[j] *= scale;
            mx = std::max(mx, p[j]);
        }
        for (int64_t j = i; j < S; ++j)
            sum += (p[j] = std::exp(p[j] - mx));
        for (int64_t e = 0; e < D; ++e) {
            double acc = 0;
            for (int64_t j = i; j < S; ++j)
                acc += p[j] / sum * v[j * D + e];
            ASSERT_NEAR(got[i * D + e], acc, 1e-4 * (1 + std::fabs(acc))) << i << "," << e;
        }
    }
}

} // namespace
