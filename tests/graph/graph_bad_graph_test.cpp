// Bad graphs are refused with the status that names the problem.
#include "graph/graph_runner.hpp"

using namespace graph_test;

namespace {

dnnl_status_t add(graph &g, const op &o) {
    return static_cast<dnnl_status_t>(g.add_op(o, false));
}

} // namespace

TEST(graph_bad, cycle_is_invalid_graph) {
    graph g(dnnl::engine::kind::cpu);
    op a(1, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    op b(2, op::kind::Add, {lt(1, {4}), lt(3, {4})}, {lt(2, {4})});
    op c(3, op::kind::Tanh, {lt(2, {4})}, {lt(3, {4})});
    EXPECT_EQ(add(g, a), dnnl_success);
    EXPECT_EQ(add(g, b), dnnl_success);
    EXPECT_EQ(add(g, c), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_finalize(g.get()), dnnl_invalid_graph);
}

TEST(graph_bad, value_produced_twice_is_invalid_graph) {
    graph g(dnnl::engine::kind::cpu);
    op a(1, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    op b(2, op::kind::Tanh, {lt(0, {4})}, {lt(1, {4})});
    add(g, a);
    add(g, b);
    EXPECT_EQ(dnnl_graph_graph_finalize(g.get()), dnnl_invalid_graph);
}

TEST(graph_bad, missing_inputs_and_outputs_are_invalid_graph_op) {
    graph g(dnnl::engine::kind::cpu);
    op mm(1, op::kind::MatMul, {lt(0, {2, 3})}, {lt(2, {2, 4})});
    EXPECT_EQ(add(g, mm), dnnl_invalid_graph_op);
    op relu(2, op::kind::ReLU, {lt(0, {2})}, {});
    EXPECT_EQ(add(g, relu), dnnl_invalid_graph_op);
}

TEST(graph_bad, attributes_wrong_type_unknown_or_missing_are_invalid_graph_op) {
    graph g(dnnl::engine::kind::cpu);
    op elu(1, op::kind::Elu, {lt(0, {4})}, {lt(1, {4})});
    EXPECT_EQ(add(g, elu), dnnl_invalid_graph_op); // alpha is required
    elu.set_attr(op::attr::alpha, int64_t(1)); // an s64 for an f32 attribute
    EXPECT_EQ(add(g, elu), dnnl_invalid_graph_op);
    elu.set_attr(op::attr::alpha, 1.f);
    elu.set_attr(op::attr::axis, int64_t(0)); // Elu takes no axis
    EXPECT_EQ(add(g, elu), dnnl_invalid_graph_op);
    op ok(2, op::kind::Elu, {lt(0, {4})}, {lt(1, {4})});
    ok.set_attr(op::attr::alpha, 1.f);
    EXPECT_EQ(add(g, ok), dnnl_success);
    op q(3, op::kind::Quantize, {lt(5, {4})}, {lt(6, {4}, dt::f32)});
    q.set_attr(op::attr::scales, std::vector<float> {1.f});
    EXPECT_EQ(add(g, q), dnnl_invalid_graph_op); // Quantize must produce u8 or s8
}

TEST(graph_bad, shape_mismatches_are_invalid_shape) {
    graph g(dnnl::engine::kind::cpu);
    op mm(1, op::kind::MatMul, {lt(0, {2, 3}), lt(1, {4, 5})}, {lt(2, {2, 5})});
    EXPECT_EQ(add(g, mm), dnnl_invalid_shape);
    op addop(2, op::kind::Add, {lt(0, {2, 3}), lt(1, {4, 3})}, {lt(2, {2, 3})});
    EXPECT_EQ(add(g, addop), dnnl_invalid_shape);
    op relu(3, op::kind::ReLU, {lt(0, {2, 3})}, {lt(2, {3, 2})});
    EXPECT_EQ(add(g, relu), dnnl_invalid_shape);
    op rs(4, op::kind::StaticReshape, {lt(0, {2, 3})}, {lt_any(2)});
    rs.set_attr(op::attr::shape, std::vector<int64_t> {4, 2});
    rs.set_attr(op::attr::special_zero, false);
    EXPECT_EQ(add(g, rs), dnnl_invalid_shape);
}

TEST(graph_bad, shapes_disagreeing_across_ops_are_invalid_shape_at_finalize) {
    graph g(dnnl::engine::kind::cpu);
    op a(1, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    op b(2, op::kind::Tanh, {lt(1, {5})}, {lt(2, {5})});
    add(g, a);
    add(g, b);
    EXPECT_EQ(dnnl_graph_graph_finalize(g.get()), dnnl_invalid_shape);
}

TEST(graph_bad, data_types_disagreeing_across_ops_are_invalid_graph) {
    graph g(dnnl::engine::kind::cpu);
    op a(1, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    op b(2, op::kind::Tanh, {lt(1, {4}, dt::bf16)}, {lt(2, {4}, dt::bf16)});
    add(g, a);
    add(g, b);
    EXPECT_EQ(dnnl_graph_graph_finalize(g.get()), dnnl_invalid_graph);
}

TEST(graph_bad, compile_with_wrong_shapes_or_ports_fails) {
    graph g(dnnl::engine::kind::cpu);
    op mm(1, op::kind::MatMul, {lt(0, {2, 3}), lt(1, {3, 4})}, {lt(2, {2, 4})});
    g.add_op(mm);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0].get()), dnnl_success);
    auto x = lt(0, {2, 7}), w = lt(1, {3, 4}), y = lt_any(2), stranger = lt(9, {3, 4});
    dnnl_graph_logical_tensor_t cx = *reinterpret_cast<dnnl_graph_logical_tensor_t *>(&x);
    (void)cx;
    const dnnl_graph_logical_tensor_t *ins[2], *outs[1];
    std::vector<dnnl_graph_logical_tensor_t> c_lts;
    for (auto *l : {&x, &w, &y, &stranger}) {
        dnnl_graph_logical_tensor_t t;
        std::memcpy(&t, l, sizeof(t));
        c_lts.push_back(t);
    }
    ins[0] = &c_lts[0];
    ins[1] = &c_lts[1];
    outs[0] = &c_lts[2];
    EXPECT_EQ(dnnl_graph_partition_compile(parts[0].get(), cp, 2, ins, 1, outs, eng.get()),
            dnnl_invalid_shape);
    ins[0] = &c_lts[3];
    EXPECT_EQ(dnnl_graph_partition_compile(parts[0].get(), cp, 2, ins, 1, outs, eng.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_partition_compile(parts[0].get(), cp, 1, ins, 1, outs, eng.get()),
            dnnl_invalid_arguments);
    dnnl_graph_compiled_partition_destroy(cp);
}

TEST(graph_bad, ops_without_a_lowering_are_unsupported_partitions) {
    graph g(dnnl::engine::kind::cpu);
    op gi(1, op::kind::Pow, {lt(0, {4, 4}), lt(1, {4, 4})}, {lt(5, {4, 4})});
    op rb(2, op::kind::Wildcard, {lt(2, {4})}, {lt(4, {4})});
    g.add_op(gi);
    g.add_op(rb);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 2u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    for (auto &p : parts) {
        EXPECT_FALSE(p.is_supported());
        EXPECT_THROW(p.compile(p.get_input_ports(), p.get_output_ports(), eng), dnnl::error);
    }
}

TEST(graph_bad, execute_with_other_strides_than_compiled_is_refused) {
    graph g(dnnl::engine::kind::cpu);
    op relu(1, op::kind::ReLU, {lt(0, {2, 3})}, {lt(1, {2, 3})});
    g.add_op(relu);
    g.finalize();
    auto parts = g.get_partitions();
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    auto cp = parts[0].compile({lt(0, {2, 3})}, {lt(1, {2, 3})}, eng);
    std::vector<float> x(6, 1.f), y(6);
    tensor tx(logical_tensor(0, dt::f32, lt_dims {2, 3}, lt_dims {1, 2}), eng, x.data());
    tensor ty(lt(1, {2, 3}), eng, y.data());
    EXPECT_THROW(cp.execute(strm, {tx}, {ty}), dnnl::error);
}
