// Grouped-query attention as oneDNN's graph writes it over 4D tensors: StaticReshape of Q
// [N, Hq, S, D] to [N, Hkv, G, S, D] and of K, V [N, Hkv, S, D] to [N, Hkv, 1, S, D], the 5D
// sdpa chain (causal), and a StaticReshape of the output back to 4D. On the CPU engine: one
// fused partition, against a double reference written here, with Q dense or laid out
// [N, S, Hq, D] (the reshape is then a strided view).
#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

struct gqa_case_t {
    int64_t Hkv = 2, G = 3, S = 13, D = 8;
    bool q_seq_major = false; // Q's memory [N, S, Hq, D]
};

// Values: 0 Q (4D), 1 K (4D), 2 V (4D), 3 scale, 4 -inf, 5 QK, 6 scaled, 7 masked,
// 8 probabilities, 9 dst (4D), 10..12 causal mask, 20 Q, 21 K, 22 V (5D), 23 dst (5D).
void build(graph &g, const gqa_case_t &c) {
    const int64_t H = c.Hkv * c.G, S = c.S, D = c.D;
    const lt_dims q4 = {1, H, S, D}, kv4 = {1, c.Hkv, S, D}, q5 = {1, c.Hkv, c.G, S, D},
                  kv5 = {1, c.Hkv, 1, S, D}, sd = {1, c.Hkv, c.G, S, S};
    const logical_tensor q_in = c.q_seq_major
            ? logical_tensor(0, dt::f32, q4, lt_dims {S * H * D, D, H * D, 1})
            : lt(0, q4);
    op rq(1, op::kind::StaticReshape, {q_in}, {lt(20, q5)});
    op rk(2, op::kind::StaticReshape, {lt(1, kv4)}, {lt(21, kv5)});
    op rv(3, op::kind::StaticReshape, {lt(2, kv4)}, {lt(22, kv5)});
    op qk(4, op::kind::MatMul, {lt(20, q5), lt(21, kv5)}, {lt(5, sd)});
    qk.set_attr(op::attr::transpose_b, true);
    op scale(5, op::kind::Multiply, {lt(5, sd), lt(3, {1})}, {lt(6, sd)});
    op row(6, op::kind::GenIndex, {lt(6, sd)}, {lt(10, sd, dt::s32)});
    row.set_attr(op::attr::axis, int64_t(-2));
    op col(7, op::kind::GenIndex, {lt(6, sd)}, {lt(11, sd, dt::s32)});
    col.set_attr(op::attr::axis, int64_t(-1));
    op ge(8, op::kind::GreaterEqual, {lt(10, sd, dt::s32), lt(11, sd, dt::s32)},
            {lt(12, sd, dt::boolean)});
    op sel(9, op::kind::Select, {lt(12, sd, dt::boolean), lt(6, sd), lt(4, {1})}, {lt(7, sd)});
    op sm(10, op::kind::SoftMax, {lt(7, sd)}, {lt(8, sd)});
    sm.set_attr(op::attr::axis, int64_t(-1));
    op pv(11, op::kind::MatMul, {lt(8, sd), lt(22, kv5)}, {lt(23, q5)});
    op ro(12, op::kind::StaticReshape, {lt(23, q5)}, {lt(9, q4)});
    for (op *o : {&rq, &rk, &rv, &ro}) {
        o->set_attr(op::attr::special_zero, false);
    }
    rq.set_attr(op::attr::shape, q5);
    rk.set_attr(op::attr::shape, kv5);
    rv.set_attr(op::attr::shape, kv5);
    ro.set_attr(op::attr::shape, q4);
    for (op *o : {&rq, &rk, &rv, &qk, &scale, &row, &col, &ge, &sel, &sm, &pv, &ro})
        g.add_op(*o);
    g.finalize();
}

TEST(graph_sdpa_gqa_reshape, causal_gqa_over_4d_tensors_is_fused_and_matches_reference) {
    for (bool seq_major : {false, true}) {
        gqa_case_t c;
        c.q_seq_major = seq_major;
        SCOPED_TRACE(seq_major ? "Q [N, S, H, D]" : "Q dense");
        const int64_t H = c.Hkv * c.G, S = c.S, D = c.D;
        // Q(h, i, e) in logical order, then in memory as the case lays it out.
        const auto q = random_floats(H * S * D, 11), k = random_floats(c.Hkv * S * D, 12),
                   v = random_floats(c.Hkv * S * D, 13);
        std::vector<float> q_mem(q.size());
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < S; ++i)
                for (int64_t e = 0; e < D; ++e)
                    q_mem[seq_major ? (i * H + h) * D + e : (h * S + i) * D + e]
                            = q[(h * S + i) * D + e];
        const float scale = 0.6f;
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        graph g(dnnl::engine::kind::cpu);
        build(g, c);
        runner_t r(eng);
        r.set(0, q_mem);
        r.set(1, k);
        r.set(2, v);
        r.set(3, std::vector<float> {scale});
        r.set(4, std::vector<float> {-INFINITY});
        ASSERT_EQ(r.run(g, partition::policy::fusion), 1u) << "not one partition";
        const auto got = r.get<float>(9);
        ASSERT_EQ(got.size(), q.size());
        std::vector<double> p(S);
        for (int64_t h = 0; h < H; ++h) {
            const int64_t kvh = h / c.G; // query head h reads K/V head h / G
            for (int64_t i = 0; i < S; ++i) {
                double mx = -INFINITY, sum = 0;
                for (int64_t j = 0; j <= i; ++j) {
                    double x = 0;
                    for (int64_t e = 0; e < D; ++e)
                        x += double(q[(h * S + i) * D + e]) * k[(kvh * S + j) * D + e];
                    p[j] = x * scale;
                    mx = std::max(mx, p[j]);
                }
                for (int64_t j = 0; j <= i; ++j)
                    sum += (p[j] = std::exp(p[j] - mx));
                for (int64_t e = 0; e < D; ++e) {
                    double want = 0;
                    for (int64_t j = 0; j <= i; ++j)
                        want += p[j] / sum * v[(kvh * S + j) * D + e];
                    ASSERT_NEAR(got[(h * S + i) * D + e], want, 1e-4 * (1 + std::fabs(want)))
                            << "head " << h << " row " << i << " col " << e;
                }
            }
        }
    }
}

} // namespace
