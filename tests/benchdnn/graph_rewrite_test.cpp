// benchdnn --graph's case rewriting (oneDNN's --in-shapes, --mb, --op-attrs, --dt, --op-kind,
// --tensor-property, --attr-fpmath): what each does to a case, and the errors bad values give.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "drivers/graph_rewrite.hpp"

using namespace benchdnn;

namespace {

// Convolution (src 0, weights 1) -> 2, ReLU -> 3, Add(3, 4) -> 5.
const char *conv_relu_add = R"({
  "graph": [
    {"id": 10, "kind": "Convolution",
     "attrs": {"strides": {"type": "s64[]", "value": [1, 1]},
               "pads_begin": {"type": "s64[]", "value": [0, 0]},
               "pads_end": {"type": "s64[]", "value": [0, 0]},
               "dilations": {"type": "s64[]", "value": [1, 1]},
               "data_format": {"type": "string", "value": "NCX"}},
     "inputs": [{"id": 0, "dtype": "f32", "shape": [2, 3, 5, 5]},
                {"id": 1, "dtype": "f32", "shape": [2, 3, 1, 1], "property_type": "constant"}],
     "outputs": [{"id": 2, "dtype": "f32", "shape": [2, 2, 5, 5]}]},
    {"id": 11, "kind": "ReLU", "inputs": [{"id": 2, "dtype": "f32", "shape": [2, 2, 5, 5]}],
     "outputs": [{"id": 3, "dtype": "f32", "shape": [2, 2, 5, 5]}]},
    {"id": 12, "kind": "Add", "inputs": [{"id": 3, "dtype": "f32", "shape": [2, 2, 5, 5]},
                                         {"id": 4, "dtype": "s8", "shape": [2, 2, 5, 5]}],
     "outputs": [{"id": 5, "dtype": "f32", "shape": [2, 2, 5, 5]}]}
  ]
})";

graph_case_t rewritten(const graph_rewrite_t &r, bool *reinfer = nullptr) {
    graph_case_t c = read_graph_case(conv_relu_add);
    const bool again = apply_graph_rewrite(c, r);
    if (reinfer) *reinfer = again;
    return c;
}

std::string error_of(const graph_rewrite_t &r) {
    try {
        rewritten(r);
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return {};
}

const graph_lt_t &input(const graph_case_t &c, size_t op, size_t port) {
    return c.ops.at(op).inputs.at(port);
}

const graph_attr_t *attr(const graph_case_t &c, size_t op, dnnl_graph_op_attr_t a) {
    return c.ops.at(op).attr(a);
}

TEST(GraphRewrite, NothingChangesWithoutKnobs) {
    bool reinfer = true;
    const graph_case_t c = rewritten(graph_rewrite_t(), &reinfer);
    EXPECT_FALSE(reinfer);
    EXPECT_EQ(input(c, 2, 0).shape, dims_t({2, 2, 5, 5}));
    EXPECT_FALSE(input(c, 2, 0).unknown_shape);
    EXPECT_TRUE(graph_rewrite_t().empty());
    EXPECT_EQ(graph_rewrite_t().knobs(), "");
}

TEST(GraphRewrite, InShapesSetShapeLayoutAndLeaveTheRestToInference) {
    graph_rewrite_t r;
    r.in_shapes = "0:1x3x7x9*acdb+4:1x2x7x9";
    bool reinfer = false;
    const graph_case_t c = rewritten(r, &reinfer);
    EXPECT_TRUE(reinfer);
    EXPECT_EQ(input(c, 0, 0).shape, dims_t({1, 3, 7, 9}));
    EXPECT_EQ(input(c, 0, 0).stride, dims_t({189, 1, 27, 3})); // channels innermost
    EXPECT_EQ(input(c, 2, 1).stride, dims_t({126, 63, 9, 1})); // shape only: dense
    EXPECT_FALSE(input(c, 0, 1).unknown_shape); // a graph input keeps its shape
    EXPECT_TRUE(input(c, 1, 0).unknown_shape);  // produced values are inferred again
    EXPECT_TRUE(c.ops[2].outputs[0].unknown_shape);
    EXPECT_EQ(r.knobs(), "--in-shapes=0:1x3x7x9*acdb+4:1x2x7x9 ");
}

TEST(GraphRewrite, InShapesStridesScalarAndLayoutOnly) {
    graph_rewrite_t r;
    r.in_shapes = "0:*1x50x10x2+4:scalar";
    const graph_case_t c = rewritten(r);
    EXPECT_EQ(input(c, 0, 0).shape, dims_t({2, 3, 5, 5}));
    EXPECT_EQ(input(c, 0, 0).stride, dims_t({1, 50, 10, 2}));
    EXPECT_TRUE(input(c, 2, 1).shape.empty());
}

TEST(GraphRewrite, InShapesRefusesInternalUnknownAndMalformed) {
    graph_rewrite_t r;
    r.in_shapes = "2:1x2";
    EXPECT_NE(error_of(r).find("no input or output of the graph"), std::string::npos);
    r.in_shapes = "9:1x2";
    EXPECT_NE(error_of(r).find("tensor 9"), std::string::npos);
    r.in_shapes = "0:2xAx5";
    EXPECT_NE(error_of(r).find("expected an integer"), std::string::npos);
    r.in_shapes = "0:*abca";
    EXPECT_NE(error_of(r).find("not a permutation"), std::string::npos);
    r.in_shapes = "0:*abc";
    EXPECT_NE(error_of(r).find("rank"), std::string::npos);
    r.in_shapes = "0:*1x2";
    EXPECT_NE(error_of(r).find("strides of another rank"), std::string::npos);
    r.in_shapes = "0";
    EXPECT_NE(error_of(r).find("expected ID:VALUE"), std::string::npos);
}

TEST(GraphRewrite, MbChangesTheDataInputsNotTheWeights) {
    graph_rewrite_t r;
    r.mb = 7;
    bool reinfer = false;
    const graph_case_t c = rewritten(r, &reinfer);
    EXPECT_TRUE(reinfer);
    EXPECT_EQ(input(c, 0, 0).shape, dims_t({7, 3, 5, 5}));
    EXPECT_EQ(input(c, 0, 0).stride, dims_t({75, 25, 5, 1}));
    EXPECT_EQ(input(c, 0, 1).shape, dims_t({2, 3, 1, 1})); // weights: 2 output channels
    EXPECT_EQ(input(c, 2, 1).shape, dims_t({7, 2, 5, 5}));
}

TEST(GraphRewrite, OpAttrsSetTypedValuesAndRemoveUndef) {
    graph_rewrite_t r;
    r.op_attrs = "10:strides:2x2*auto_pad:SAME_UPPER*pads_begin:undef*groups:1+11:alpha:0.5";
    const graph_case_t c = rewritten(r);
    ASSERT_NE(attr(c, 0, dnnl_graph_op_attr_strides), nullptr);
    EXPECT_EQ(attr(c, 0, dnnl_graph_op_attr_strides)->i, std::vector<int64_t>({2, 2}));
    EXPECT_EQ(c.ops[0].str(dnnl_graph_op_attr_auto_pad, ""), "SAME_UPPER");
    EXPECT_EQ(attr(c, 0, dnnl_graph_op_attr_pads_begin), nullptr);
    EXPECT_EQ(c.ops[0].s64(dnnl_graph_op_attr_groups, 0), 1);
    EXPECT_FLOAT_EQ(c.ops[1].f32(dnnl_graph_op_attr_alpha, 0), 0.5f);
    r.op_attrs = "11:use_dst:true";
    EXPECT_TRUE(rewritten(r).ops[1].flag(dnnl_graph_op_attr_use_dst, false));
}

TEST(GraphRewrite, OpAttrsRefuseUnknownOpsNamesAndValues) {
    graph_rewrite_t r;
    r.op_attrs = "99:groups:2";
    EXPECT_NE(error_of(r).find("no op 99"), std::string::npos);
    r.op_attrs = "10:no_such:1";
    EXPECT_NE(error_of(r).find("unknown attribute"), std::string::npos);
    r.op_attrs = "10:groups:two";
    EXPECT_NE(error_of(r).find("expected an integer"), std::string::npos);
    r.op_attrs = "11:use_dst:maybe";
    EXPECT_NE(error_of(r).find("expected 0, 1, true or false"), std::string::npos);
    r.op_attrs = "10:groups";
    EXPECT_NE(error_of(r).find("NAME:VALUE"), std::string::npos);
}

TEST(GraphRewrite, DtGlobalTouchesFloatsOnlyAndByIdTouchesOne) {
    graph_rewrite_t r;
    r.dt = "f16";
    graph_case_t c = rewritten(r);
    EXPECT_EQ(input(c, 0, 0).dt, dnnl_f16);
    EXPECT_EQ(c.ops[2].outputs[0].dt, dnnl_f16);
    EXPECT_EQ(input(c, 2, 1).dt, dnnl_s8); // integers stay
    r.dt = "3:bf16+4:u8";
    c = rewritten(r);
    EXPECT_EQ(c.ops[1].outputs[0].dt, dnnl_bf16);
    EXPECT_EQ(input(c, 2, 0).dt, dnnl_bf16); // every place the value appears
    EXPECT_EQ(input(c, 2, 1).dt, dnnl_u8);
    EXPECT_EQ(input(c, 0, 0).dt, dnnl_f32);
    r.dt = "undef";
    EXPECT_EQ(rewritten(r).ops[0].inputs[0].dt, dnnl_f32);
    r.dt = "s8";
    EXPECT_NE(error_of(r).find("f32, bf16 or f16"), std::string::npos);
    r.dt = "42:f16";
    EXPECT_NE(error_of(r).find("no tensor 42"), std::string::npos);
}

TEST(GraphRewrite, OpKindRenamesAndUndefRemovesAnOp) {
    graph_rewrite_t r;
    r.op_kind = "11:Sigmoid+12:Multiply";
    graph_case_t c = rewritten(r);
    EXPECT_EQ(c.ops[1].kind, dnnl_graph_op_sigmoid);
    EXPECT_EQ(c.ops[2].kind, dnnl_graph_op_multiply);
    r.op_kind = "11:undef";
    bool reinfer = false;
    c = rewritten(r, &reinfer);
    EXPECT_TRUE(reinfer);
    ASSERT_EQ(c.ops.size(), 2u);
    EXPECT_EQ(input(c, 1, 0).id, 2u); // Add now reads the convolution's output
    r.op_kind = "12:undef"; // Add: only input 3 comes from an op
    c = rewritten(r);
    ASSERT_EQ(c.ops.size(), 2u);
    EXPECT_EQ(c.graph_outputs().at(0).id, 3u);
    r.op_kind = "11:NoSuchOp";
    EXPECT_NE(error_of(r).find("unknown op kind"), std::string::npos);
}

TEST(GraphRewrite, PropertyAndFpmath) {
    graph_rewrite_t r;
    r.tensor_property = "0:constant+4:host_scalar";
    r.fpmath = "bf16:true";
    const graph_case_t c = rewritten(r);
    EXPECT_EQ(input(c, 0, 0).property, dnnl_graph_tensor_property_constant);
    EXPECT_EQ(input(c, 2, 1).property, dnnl_graph_tensor_property_host_scalar);
    EXPECT_EQ(c.fpmath, dnnl_fpmath_mode_bf16);
    EXPECT_TRUE(c.fpmath_apply_to_int);
    r.fpmath = "tf32";
    EXPECT_FALSE(rewritten(r).fpmath_apply_to_int);
    r.fpmath = "fast";
    EXPECT_NE(error_of(r).find("strict, bf16"), std::string::npos);
    r.fpmath = "";
    r.tensor_property = "0:frozen";
    EXPECT_NE(error_of(r).find("unknown property"), std::string::npos);
}

TEST(GraphRewrite, SplitKeepsEmptyAlternatives) {
    EXPECT_EQ(split_rewrite(",0:a", ','), std::vector<std::string>({"", "0:a"}));
    EXPECT_EQ(split_rewrite("", ','), std::vector<std::string>({""}));
}

} // namespace
