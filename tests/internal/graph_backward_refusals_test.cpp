// Backward graph ops the CPU engine does not run, or that are built wrong: compile returns the
// status oneDNN's rules give, and the reason verbose would print names what is refused.
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/verbose.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;

namespace {

using dt = logical_tensor::data_type;
using dims = logical_tensor::dims;

logical_tensor lt(size_t id, const dims &d, dt type = dt::f32) {
    return logical_tensor(id, type, d, logical_tensor::layout_type::strided);
}

struct refusal_t {
    dnnl_status_t status;
    std::string reason;
};

// Compiles the graph's one partition on the CPU engine; what it refused and why.
refusal_t compile_one(const std::function<void(graph &)> &build) {
    graph g(dnnl::engine::kind::cpu);
    build(g);
    g.finalize();
    auto parts = g.get_partitions();
    EXPECT_EQ(parts.size(), 1u);
    if (parts.size() != 1) return {dnnl_success, ""};
    EXPECT_TRUE(parts[0].is_supported());
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    try {
        parts[0].compile(parts[0].get_input_ports(), parts[0].get_output_ports(), eng);
    } catch (const dnnl::error &e) {
        return {e.status, anydnn::last_failure_reason()};
    }
    return {dnnl_success, ""};
}

void expect_refused(const refusal_t &r, dnnl_status_t status, const std::string &words) {
    EXPECT_EQ(r.status, status) << r.reason;
    EXPECT_NE(r.reason.find(words), std::string::npos) << r.reason;
}

} // namespace

TEST(graph_backward_refusals, interpolate_backward_align_corners_is_unimplemented) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::InterpolateBackward, {lt(0, {1, 2, 3, 3}), lt(1, {1, 2, 6, 6})},
                {lt(2, {1, 2, 3, 3})});
        o.set_attr(op::attr::mode, std::string("bilinear"));
        o.set_attr(op::attr::coordinate_transformation_mode, std::string("align_corners"));
        o.set_attr(op::attr::sizes, std::vector<int64_t> {6, 6});
        o.set_attr(op::attr::data_format, std::string("NCX"));
        g.add_op(o);
    }),
            dnnl_unimplemented, "coordinate_transformation_mode align_corners");
}

TEST(graph_backward_refusals, interpolate_backward_diff_dst_must_match_the_sizes) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::InterpolateBackward, {lt(0, {1, 2, 3, 3}), lt(1, {1, 2, 6, 5})},
                {lt(2, {1, 2, 3, 3})});
        o.set_attr(op::attr::mode, std::string("nearest"));
        o.set_attr(op::attr::sizes, std::vector<int64_t> {6, 6});
        o.set_attr(op::attr::data_format, std::string("NCX"));
        g.add_op(o);
    }),
            dnnl_invalid_shape, "the forward's sizes or scales give");
}

TEST(graph_backward_refusals, conv_transpose_backward_weights_strides_must_fit_the_rank) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::ConvTransposeBackwardWeights,
                {lt(0, {1, 2, 4, 4}), lt(1, {1, 2, 6, 6})}, {lt(2, {2, 2, 3, 3})});
        o.set_attr(op::attr::strides, std::vector<int64_t> {1});
        o.set_attr(op::attr::pads_begin, std::vector<int64_t> {0, 0});
        o.set_attr(op::attr::pads_end, std::vector<int64_t> {0, 0});
        o.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
        o.set_attr(op::attr::data_format, std::string("NCX"));
        o.set_attr(op::attr::weights_format, std::string("IOX"));
        o.set_attr(op::attr::weights_shape, std::vector<int64_t> {2, 2, 3, 3});
        g.add_op(o);
    }),
            dnnl_invalid_arguments, "need 2 values each");
}

TEST(graph_backward_refusals, layer_norm_backward_without_affine_has_no_parameter_gradients) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::LayerNormBackward,
                {lt(0, {2, 5}), lt(1, {2, 5}), lt(2, {2}), lt(3, {2})},
                {lt(4, {2, 5}), lt(5, {5}), lt(6, {5})});
        o.set_attr(op::attr::use_affine, false);
        g.add_op(o);
    }),
            dnnl_invalid_arguments, "without use_affine");
}

TEST(graph_backward_refusals, batch_norm_training_takes_gamma_and_beta_together) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::BatchNormForwardTraining,
                {lt(0, {2, 3, 4, 4}), lt(1, {3}), lt(2, {3}), lt(3, {3})},
                {lt(5, {2, 3, 4, 4}), lt(6, {3}), lt(7, {3}), lt(8, {3}), lt(9, {3})});
        o.set_attr(op::attr::epsilon, 1e-5f);
        o.set_attr(op::attr::data_format, std::string("NCX"));
        g.add_op(o);
    }),
            dnnl_invalid_arguments, "gamma and beta together");
}

TEST(graph_backward_refusals, batch_norm_backward_statistics_must_match_the_channels) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::BatchNormTrainingBackward,
                {lt(0, {2, 3, 4, 4}), lt(1, {2, 3, 4, 4}), lt(2, {4}), lt(3, {3})},
                {lt(5, {2, 3, 4, 4})});
        o.set_attr(op::attr::epsilon, 1e-5f);
        o.set_attr(op::attr::data_format, std::string("NCX"));
        g.add_op(o);
    }),
            dnnl_invalid_shape, "should hold 3 dense values");
}

TEST(graph_backward_refusals, elu_backward_from_dst_needs_a_non_negative_alpha) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::EluBackward, {lt(0, {4, 5}), lt(1, {4, 5})}, {lt(2, {4, 5})});
        o.set_attr(op::attr::alpha, -0.5f);
        o.set_attr(op::attr::use_dst, true);
        g.add_op(o);
    }),
            dnnl_invalid_arguments, "needs alpha >= 0");
}

TEST(graph_backward_refusals, relu_backward_of_integers_is_unimplemented) {
    expect_refused(compile_one([](graph &g) {
        op o(1, op::kind::ReLUBackward, {lt(0, {4, 5}, dt::s8), lt(1, {4, 5}, dt::s8)},
                {lt(2, {4, 5}, dt::s8)});
        g.add_op(o);
    }),
            dnnl_unimplemented, "backward takes f32, bf16 or f16");
}
