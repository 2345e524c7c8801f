// benchdnn --graph's case reader: oneDNN's graph JSON in, clear errors for bad input (never a
// crash), and the library's own dump mode read back.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

#include "drivers/graph_case.hpp"

using namespace benchdnn;

namespace {

const char *matmul_relu = R"({
  "version": "3.13.0", "engine_kind": "cpu", "fpmath_mode": "bf16",
  "fpmath_mode_apply_to_int": "true", "input_ports": [0, 1], "output_ports": [3],
  "graph": [
    {"id": 7, "name": "mm", "kind": "MatMul",
     "attrs": {"transpose_b": {"type": "bool", "value": 1},
               "transpose_a": {"type": "bool", "value": false}},
     "inputs": [{"id": 0, "dtype": "f32", "shape": [2, 3], "stride": [3, 1],
                 "layout_type": "strided", "property_type": "undef"},
                {"id": 1, "dtype": "bf16", "shape": [4, 3], "stride": [1, 4],
                 "layout_type": "strided", "property_type": "constant"}],
     "outputs": [{"id": 2, "dtype": "f32", "shape": [2, 4], "stride": [4, 1],
                  "layout_type": "strided", "property_type": "undef"}]},
    {"id": 8, "name": "relu", "kind": "ReLU", "attrs": {},
     "inputs": [{"id": 2, "dtype": "f32", "shape": [2, 4], "stride": [4, 1],
                 "layout_type": "strided", "property_type": "undef"}],
     "outputs": [{"id": 3, "dtype": "f32", "shape": [2, 4], "stride": [],
                  "layout_type": "any", "property_type": "variable"}]}
  ]
})";

// The text with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string &text, const std::string &from, const std::string &to) {
    std::string s = text;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
}

// The reader's error for text; empty when it was accepted.
std::string error_of(const std::string &text) {
    try {
        read_graph_case(text);
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST(graph_case, reads_onednn_graph_json) {
    const graph_case_t c = read_graph_case(matmul_relu);
    EXPECT_EQ(c.version, "3.13.0");
    EXPECT_EQ(c.engine_kind, dnnl_cpu);
    EXPECT_EQ(c.fpmath, dnnl_fpmath_mode_bf16);
    EXPECT_TRUE(c.fpmath_apply_to_int);
    ASSERT_EQ(c.ops.size(), 2u);
    const graph_op_t &mm = c.ops[0];
    EXPECT_EQ(mm.id, 7u);
    EXPECT_EQ(mm.name, "mm");
    EXPECT_EQ(mm.kind, dnnl_graph_op_matmul);
    EXPECT_TRUE(mm.flag(dnnl_graph_op_attr_transpose_b, false));
    EXPECT_FALSE(mm.flag(dnnl_graph_op_attr_transpose_a, true));
    ASSERT_EQ(mm.inputs.size(), 2u);
    EXPECT_EQ(mm.inputs[1].dt, dnnl_bf16);
    EXPECT_EQ(mm.inputs[1].shape, dims_t({4, 3}));
    EXPECT_EQ(mm.inputs[1].stride, dims_t({1, 4}));
    EXPECT_EQ(mm.inputs[1].property, dnnl_graph_tensor_property_constant);
    EXPECT_EQ(c.ops[1].kind, dnnl_graph_op_relu);
    EXPECT_EQ(c.ops[1].outputs[0].layout, dnnl_graph_layout_type_any);
    ASSERT_EQ(c.graph_inputs().size(), 2u);
    EXPECT_EQ(c.graph_inputs()[1].id, 1u);
    ASSERT_EQ(c.graph_outputs().size(), 1u);
    EXPECT_EQ(c.graph_outputs()[0].id, 3u);
}

TEST(graph_case, attribute_values_of_every_type) {
    const std::string text = edited(matmul_relu, R"("attrs": {},)",
            R"("attrs": {"alpha": {"type": "f32", "value": 0.5},
                "scales": {"type": "f32[]", "value": [1, 2.5e-1]},
                "groups": {"type": "s64", "value": -3},
                "strides": {"type": "s64[]", "value": [2, 2]},
                "mode": {"type": "string", "value": "gelu_tanh\u0021"}},)");
    const graph_case_t c = read_graph_case(text);
    const graph_op_t &op = c.ops[1];
    EXPECT_FLOAT_EQ(op.f32(dnnl_graph_op_attr_alpha, 0), 0.5f);
    EXPECT_EQ(op.f32s(dnnl_graph_op_attr_scales), std::vector<float>({1.f, 0.25f}));
    EXPECT_EQ(op.s64(dnnl_graph_op_attr_groups, 0), -3);
    EXPECT_EQ(op.s64s(dnnl_graph_op_attr_strides, {}), dims_t({2, 2}));
    EXPECT_EQ(op.str(dnnl_graph_op_attr_mode, ""), "gelu_tanh!");
}

TEST(graph_case, missing_stride_means_dense) {
    const std::string text =
            edited(matmul_relu, R"("shape": [2, 3], "stride": [3, 1],)", R"("shape": [2, 3],)");
    EXPECT_EQ(read_graph_case(text).ops[0].inputs[0].stride, dims_t({3, 1}));
}

TEST(graph_case, bad_json_names_line_and_column) {
    const std::string e = error_of(edited(matmul_relu, R"("name": "mm",)", R"("name" "mm",)"));
    EXPECT_NE(e.find("line 5"), std::string::npos) << e;
    EXPECT_NE(e.find("expected ':'"), std::string::npos) << e;
    for (const char *bad : {"", "{", "[1, 2", "{\"graph\": [}", "nul", "{\"a\": 1} x",
                 "\"unterminated", "{\"a\": -}", "{\"a\": 1e99999999999999999999x}",
                 "{\"a\": \"\\q\"}", "{\"a\": 99999999999999999999}"})
        EXPECT_NE(error_of(bad), "") << bad;
    // Deep nesting is refused, not a stack overflow.
    EXPECT_NE(error_of(std::string(100000, '[')).find("nesting"), std::string::npos);
}

TEST(graph_case, unknown_names_are_errors) {
    std::string e = error_of(edited(matmul_relu, R"("kind": "ReLU")", R"("kind": "Relu6")"));
    EXPECT_NE(e.find("unknown op kind \"Relu6\""), std::string::npos) << e;
    EXPECT_NE(e.find("graph[1]"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("dtype": "bf16")", R"("dtype": "f128")"));
    EXPECT_NE(e.find("unknown data type \"f128\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("transpose_b")", R"("transpose_c")"));
    EXPECT_NE(e.find("unknown attribute \"transpose_c\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("layout_type": "any")", R"("layout_type": "opaque")"));
    EXPECT_NE(e.find("unsupported layout"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("fpmath_mode": "bf16")", R"("fpmath_mode": "fast")"));
    EXPECT_NE(e.find("fpmath_mode"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("property_type": "constant")", R"("property_type": "c")"));
    EXPECT_NE(e.find("unknown property"), std::string::npos) << e;
}

// Cases written before oneDNN v3.1 name backward ops "...Backprop"; no other suffix is guessed.
TEST(graph_case, old_backprop_kind_names_read_as_backward) {
    const std::string relu_bwd = edited(matmul_relu, R"("kind": "ReLU")", R"("kind": "ReLUBackprop")");
    EXPECT_EQ(read_graph_case(relu_bwd).ops[1].kind, dnnl_graph_op_relu_backward);
    const std::string e
            = error_of(edited(matmul_relu, R"("kind": "ReLU")", R"("kind": "ReLUBackpropX")"));
    EXPECT_NE(e.find("unknown op kind"), std::string::npos) << e;
    EXPECT_NE(error_of(edited(matmul_relu, R"("kind": "ReLU")", R"("kind": "Backprop")")), "");
}

TEST(graph_case, missing_or_mistyped_fields_are_errors) {
    std::string e = error_of(edited(matmul_relu, R"("kind": "MatMul",)", ""));
    EXPECT_NE(e.find("missing field \"kind\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("dtype": "bf16", )", ""));
    EXPECT_NE(e.find("tensor 1: missing field \"dtype\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("shape": [4, 3])", R"("shape": "4x3")"));
    EXPECT_NE(e.find("shape: expected an array"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("shape": [4, 3])", R"("shape": [4, 3.5])"));
    EXPECT_NE(e.find("expected an integer"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("shape": [4, 3])", R"("shape": [4, -1])"));
    EXPECT_NE(e.find("needs shapes"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("stride": [1, 4])", R"("stride": [1])"));
    EXPECT_NE(e.find("stride: has 1 entries"), std::string::npos) << e;
    e = error_of(edited(
            matmul_relu, R"({"type": "bool", "value": 1})", R"({"type": "s64", "value": 1})"));
    EXPECT_NE(e.find("expected \"bool\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"({"type": "bool", "value": 1})", R"({"type": "bool"})"));
    EXPECT_NE(e.find("missing field \"value\""), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("id": 8)", R"("id": -8)"));
    EXPECT_NE(e.find("negative id"), std::string::npos) << e;
    e = error_of(R"({"version": "3.13.0", "engine_kind": "cpu"})");
    EXPECT_NE(e.find("missing field \"graph\""), std::string::npos) << e;
    e = error_of(R"({"graph": []})");
    EXPECT_NE(e.find("has no ops"), std::string::npos) << e;
    EXPECT_NE(error_of("[1, 2]").find("expected an object"), std::string::npos);
}

TEST(graph_case, inconsistent_values_are_errors) {
    std::string e = error_of(edited(matmul_relu, R"("id": 8)", R"("id": 7)"));
    EXPECT_NE(e.find("op id 7 appears twice"), std::string::npos) << e;
    // The ReLU's input (value 2) described with another shape than its producer's.
    const std::string relu_in = R"("inputs": [{"id": 2, "dtype": "f32", "shape": [2, 4])";
    e = error_of(edited(
            matmul_relu, relu_in, R"("inputs": [{"id": 2, "dtype": "f32", "shape": [4, 2])"));
    EXPECT_NE(e.find("tensor 2: op 8 and op 7 disagree"), std::string::npos) << e;
    e = error_of(edited(matmul_relu, R"("outputs": [{"id": 3,)", R"("outputs": [{"id": 2,)"));
    EXPECT_NE(e.find("produced by op 7 and op 8"), std::string::npos) << e;
}

TEST(graph_case, unreadable_file_is_an_error) {
    try {
        load_graph_case("/nonexistent/case.json");
        FAIL() << "no error";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("cannot read"), std::string::npos);
    }
}

// What the library's dump mode writes (ONEDNN_GRAPH_DUMP=graph) is a case the reader takes.
TEST(graph_case, reads_the_library_dump) {
    using namespace dnnl::graph;
    char dir_template[] = "/tmp/graph_dump_XXXXXX";
    ASSERT_NE(mkdtemp(dir_template), nullptr);
    char old_dir[4096];
    ASSERT_NE(getcwd(old_dir, sizeof(old_dir)), nullptr);
    ASSERT_EQ(chdir(dir_template), 0);
    {
        using dt = logical_tensor::data_type;
        using lt = logical_tensor;
        graph g(dnnl::engine::kind::cpu);
        lt a(0, dt::f32, {2, 3}, lt::layout_type::strided);
        lt b(1, dt::f32, {3, 4}, lt::layout_type::strided, lt::property_type::constant);
        lt c(2, dt::f32, {2, 4}, lt::layout_type::strided);
        lt d(3, dt::f32, {2, 4}, lt::layout_type::strided);
        op mm(10, op::kind::MatMul, {a, b}, {c}, "mm");
        mm.set_attr<bool>(op::attr::transpose_a, false);
        op elu(11, op::kind::Elu, {c}, {d}, "elu");
        elu.set_attr<float>(op::attr::alpha, 0.25f);
        g.add_op(mm);
        g.add_op(elu);
        set_dump_mode(graph_dump_mode::graph);
        g.finalize();
        g.get_partitions();
        set_dump_mode(graph_dump_mode::none);
    }
    std::string file;
    if (DIR *d = opendir(".")) {
        while (dirent *e = readdir(d))
            if (std::string(e->d_name).rfind("graph-", 0) == 0) file = e->d_name;
        closedir(d);
    }
    ASSERT_FALSE(file.empty()) << "no graph-*.json written";
    const graph_case_t c = load_graph_case(file);
    std::remove(file.c_str());
    EXPECT_EQ(chdir(old_dir), 0);
    rmdir(dir_template);
    ASSERT_EQ(c.ops.size(), 2u);
    EXPECT_EQ(c.ops[0].kind, dnnl_graph_op_matmul);
    EXPECT_FALSE(c.ops[0].flag(dnnl_graph_op_attr_transpose_a, true));
    EXPECT_EQ(c.ops[0].inputs[1].property, dnnl_graph_tensor_property_constant);
    EXPECT_EQ(c.ops[1].kind, dnnl_graph_op_elu);
    EXPECT_FLOAT_EQ(c.ops[1].f32(dnnl_graph_op_attr_alpha, 0), 0.25f);
    EXPECT_EQ(c.ops[1].outputs[0].shape, dims_t({2, 4}));
    EXPECT_EQ(c.graph_outputs().size(), 1u);
}

TEST(graph_case, end_op_marks_a_graph_output) {
    const std::string text = edited(matmul_relu, R"(    {"id": 8, "name": "relu")",
            R"(    {"id": 9, "kind": "End", "inputs": [{"id": 2, "dtype": "f32", "shape": [2, 4]}],
     "outputs": []},
    {"id": 8, "name": "relu")");
    const graph_case_t c = read_graph_case(text);
    ASSERT_EQ(c.ops.size(), 3u);
    EXPECT_EQ(c.ops[1].kind, dnnl_graph_op_end);
    EXPECT_EQ(c.ops[1].name, "End"); // no name: the kind
    ASSERT_EQ(c.graph_outputs().size(), 2u);
    EXPECT_EQ(c.graph_outputs()[0].id, 2u);
    EXPECT_EQ(c.graph_outputs()[1].id, 3u);
}
