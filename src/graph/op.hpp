// One op of a graph (op_t, a value copied into graphs and partitions) and the handle the
// user builds it through (dnnl_graph_op).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "graph/logical_tensor.hpp"
#include "graph/object.hpp"

namespace anydnn {
namespace graph {

// The type an attribute value was set with.
enum class attr_type { f32, f32s, s64, s64s, boolean, str };
// The type an attribute name takes, from its value range in dnnl_graph_op_attr_t.
attr_type expected_attr_type(dnnl_graph_op_attr_t name);
bool is_known_attr(int name);
const char *attr_name(dnnl_graph_op_attr_t name);
const char *attr_type_name(attr_type t);

struct attr_value_t {
    attr_type type;
    std::vector<float> f;
    std::vector<int64_t> i; // s64 values and bools
    std::string s;
};

struct op_t {
    size_t id = 0;
    dnnl_graph_op_kind_t kind = dnnl_graph_op_wildcard;
    std::string name;
    std::vector<lt_t> inputs, outputs;
    std::map<dnnl_graph_op_attr_t, attr_value_t> attrs;

    bool has(dnnl_graph_op_attr_t a) const { return attrs.count(a) != 0; }
    float f32(dnnl_graph_op_attr_t a, float def = 0.f) const;
    std::vector<float> f32s(dnnl_graph_op_attr_t a) const;
    int64_t s64(dnnl_graph_op_attr_t a, int64_t def = 0) const;
    std::vector<int64_t> s64s(dnnl_graph_op_attr_t a, std::vector<int64_t> def = {}) const;
    bool flag(dnnl_graph_op_attr_t a, bool def = false) const;
    std::string str(dnnl_graph_op_attr_t a, const std::string &def = "") const;
};

const char *op_kind_name(dnnl_graph_op_kind_t kind); // "MatMul"

} // namespace graph
} // namespace anydnn

struct dnnl_graph_op : public anydnn::graph::graph_object_t {
    dnnl_graph_op() : graph_object_t(anydnn::graph::handle_kind::op) {}
    anydnn::graph::op_t op;
};
