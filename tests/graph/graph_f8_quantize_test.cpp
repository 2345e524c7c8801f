// Quantize, Dequantize and TypeCast with f8_e4m3 and f8_e5m2 on the CPU engine against the
// code-table reference of f8_cases.hpp; zero points (not defined for f8) are unimplemented.
#include "graph/f8_cases.hpp"

using namespace graph_test;

TEST(graph_f8, quantize_dequantize_and_type_cast_round_to_the_nearest_code) {
    for (const auto &c : f8_cases::all_cases()) {
        SCOPED_TRACE(c.name);
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        runner_t r(eng);
        for (const auto &in : c.inputs)
            r.buffers[in.first] = in.second;
        graph g(dnnl::engine::kind::cpu);
        c.build(g);
        g.finalize();
        ASSERT_EQ(r.run(g, partition::policy::fusion), c.partitions);
        training_cases::check_outputs(c, r.buffers);
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
