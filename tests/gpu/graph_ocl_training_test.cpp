// The training-op and int8-convolution cases of tests/graph/training_cases.hpp (and the
// backward and normalization training cases beside it) on the OpenCL
// engine (the application's SVM allocator), checked against the cases' loops. Skipped without
// an OpenCL device.
#include "gpu/graph_ocl_fixture.hpp"
#include "graph/backward_cases.hpp"
#include "graph/f8_cases.hpp"
#include "graph/norm_training_cases.hpp"
#include "graph/training_cases.hpp"

using namespace graph_ocl_test;
using namespace training_cases;

TEST_F(graph_ocl_t, training_cases_match_their_references) {
    std::vector<case_t> cases = all_cases();
    for (auto *more : {&backward_cases, &norm_training_cases})
        for (auto &c : more())
            cases.push_back(c);
    for (const auto &c : cases) {
        SCOPED_TRACE(c.name);
        buffers_t bufs(c.inputs.begin(), c.inputs.end());
        ASSERT_EQ(run_gpu(c.build, bufs), c.partitions);
        check_outputs(c, bufs);
        if (HasFatalFailure()) return;
    }
}

// f8 Quantize / Dequantize / TypeCast: the OpenCL reorder converts f8 element by element.
TEST_F(graph_ocl_t, f8_cases_match_their_references) {
    for (const auto &c : f8_cases::all_cases()) {
        SCOPED_TRACE(c.name);
        buffers_t bufs(c.inputs.begin(), c.inputs.end());
        ASSERT_EQ(run_gpu(c.build, bufs), c.partitions);
        check_outputs(c, bufs);
        if (HasFatalFailure()) return;
    }
}
