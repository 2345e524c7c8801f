// The training-op and int8-convolution cases of tests/graph/training_cases.hpp on the OpenCL
// engine (the application's SVM allocator), checked against the cases' loops. Skipped without
// an OpenCL device.
#include "gpu/graph_ocl_fixture.hpp"
#include "graph/training_cases.hpp"

using namespace graph_ocl_test;
using namespace training_cases;

TEST_F(graph_ocl_t, training_cases_match_their_references) {
    for (const auto &c : all_cases()) {
        SCOPED_TRACE(c.name);
        buffers_t bufs(c.inputs.begin(), c.inputs.end());
        ASSERT_EQ(run_gpu(c.build, bufs), c.partitions);
        check_outputs(c, bufs);
        if (HasFatalFailure()) return;
    }
}

// f8 conversions have no OpenCL kernel yet: the compile says unimplemented, nothing runs.
TEST_F(graph_ocl_t, f8_quantize_is_unimplemented_with_a_reason) {
    graph g(dnnl::engine::kind::gpu);
    op q(1, op::kind::Quantize, {lt(0, {4})}, {lt(1, {4}, dt::f8_e4m3)});
    q.set_attr(op::attr::qtype, std::string("per_tensor"));
    q.set_attr(op::attr::scales, std::vector<float> {1.f});
    g.add_op(q);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    try {
        parts[0].compile(parts[0].get_input_ports(), parts[0].get_output_ports(), eng);
        FAIL() << "f8 compiled on an OpenCL engine";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}
