// A graph case of benchdnn --graph: oneDNN's graph JSON (what ONEDNN_GRAPH_DUMP=graph writes)
// read into plain structs, every field checked, with errors that name the op and the field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.h"

#include "test_mem.hpp"

namespace benchdnn {

struct graph_lt_t {
    size_t id = 0;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    dims_t shape;
    dims_t stride; // empty unless the layout is strided (then dense when the JSON has none)
    dnnl_graph_layout_type_t layout = dnnl_graph_layout_type_strided;
    dnnl_graph_tensor_property_t property = dnnl_graph_tensor_property_undef;
    bool unknown_shape = false; // left for the library to infer (after a shape rewrite)
};

struct graph_attr_t {
    dnnl_graph_op_attr_t name = dnnl_graph_op_attr_undef;
    enum class type_t { f32, f32s, s64, s64s, boolean, str } type = type_t::f32;
    std::vector<float> f;
    std::vector<int64_t> i; // s64, s64[] and bool (0 / 1)
    std::string s;
};

struct graph_op_t {
    size_t id = 0;
    std::string name;
    dnnl_graph_op_kind_t kind = dnnl_graph_op_last_symbol;
    std::vector<graph_attr_t> attrs;
    std::vector<graph_lt_t> inputs, outputs;

    const graph_attr_t *attr(dnnl_graph_op_attr_t a) const;
    float f32(dnnl_graph_op_attr_t a, float def) const;
    int64_t s64(dnnl_graph_op_attr_t a, int64_t def) const;
    std::vector<int64_t> s64s(dnnl_graph_op_attr_t a, const std::vector<int64_t> &def) const;
    std::vector<float> f32s(dnnl_graph_op_attr_t a) const;
    bool flag(dnnl_graph_op_attr_t a, bool def) const;
    std::string str(dnnl_graph_op_attr_t a, const std::string &def) const;
};

struct graph_case_t {
    std::string version;
    dnnl_engine_kind_t engine_kind = dnnl_cpu;
    dnnl_fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    bool fpmath_apply_to_int = false;
    std::vector<graph_op_t> ops; // in written order

    // Values no op produces (graph inputs) and values no op reads (graph outputs), by id.
    std::vector<graph_lt_t> graph_inputs() const;
    std::vector<graph_lt_t> graph_outputs() const;
};

// Reads a case from JSON text; throws std::invalid_argument with the reason (bad JSON, an
// unknown op kind, data type or attribute, a missing or mistyped field, a value whose
// producer and consumer disagree on its shape or type).
graph_case_t read_graph_case(const std::string &json_text);
// The same from a file; the reason names the file.
graph_case_t load_graph_case(const std::string &path);

const char *graph_op_kind_name(dnnl_graph_op_kind_t kind); // "MatMul"; "unknown"
const char *graph_attr_name(dnnl_graph_op_attr_t name);    // "transpose_a"; "unknown"

// Names as the JSON writes them; each throws std::invalid_argument for an unknown name.
dnnl_graph_op_kind_t graph_op_kind_by_name(const std::string &name); // "MatMul"
dnnl_graph_op_attr_t graph_attr_by_name(const std::string &name);    // "transpose_a"
dnnl_data_type_t graph_data_type_by_name(const std::string &name);  // "f32", "boolean"
dnnl_graph_tensor_property_t graph_property_by_name(const std::string &name); // "constant"
graph_attr_t::type_t graph_attr_type(dnnl_graph_op_attr_t name); // the type its value has

} // namespace benchdnn
