// The training-op and int8-convolution cases of training_cases.hpp, backward_cases.hpp and
// norm_training_cases.hpp on the CPU engine, each one partition compiled and run, checked
// against the cases' loops.
#include "graph/backward_cases.hpp"
#include "graph/norm_training_cases.hpp"
#include "graph/training_cases.hpp"

using namespace graph_test;
using namespace training_cases;

namespace {

void run_on_cpu(const case_t &c) {
    SCOPED_TRACE(c.name);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    for (const auto &in : c.inputs)
        r.buffers[in.first] = in.second;
    graph g(dnnl::engine::kind::cpu);
    c.build(g);
    g.finalize();
    ASSERT_EQ(r.run(g, partition::policy::fusion), c.partitions);
    check_outputs(c, r.buffers);
}

} // namespace

TEST(graph_training, every_case_matches_its_reference_on_cpu) {
    for (const auto &c : all_cases())
        run_on_cpu(c);
}

TEST(graph_training, backward_ops_match_their_formulas_on_cpu) {
    for (const auto &c : backward_cases())
        run_on_cpu(c);
}

TEST(graph_training, normalization_training_ops_match_their_formulas_on_cpu) {
    for (const auto &c : norm_training_cases())
        run_on_cpu(c);
}
