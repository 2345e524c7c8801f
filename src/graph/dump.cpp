#include "graph/dump.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "graph/graph.hpp"

namespace anydnn {
namespace graph {

namespace {

unsigned mode_from_env() {
    const char *env = std::getenv("ONEDNN_GRAPH_DUMP");
    if (!env) return 0;
    unsigned m = 0;
    if (std::strstr(env, "subgraph")) m |= dnnl_graph_dump_mode_subgraph;
    // "graph" alone (not only as part of "subgraph").
    for (const char *p = env; (p = std::strstr(p, "graph")); p += 5)
        if (p == env || p[-1] == ',') m |= dnnl_graph_dump_mode_graph;
    return m;
}

std::atomic<unsigned> &mode() {
    static std::atomic<unsigned> m {mode_from_env()};
    return m;
}

const char *layout_name(dnnl_graph_layout_type_t l) {
    switch (l) {
        case dnnl_graph_layout_type_any: return "any";
        case dnnl_graph_layout_type_strided: return "strided";
        case dnnl_graph_layout_type_opaque: return "opaque";
        default: return "undef";
    }
}

const char *property_name(dnnl_graph_tensor_property_t p) {
    switch (p) {
        case dnnl_graph_tensor_property_variable: return "variable";
        case dnnl_graph_tensor_property_constant: return "constant";
        case dnnl_graph_tensor_property_host_scalar: return "host_scalar";
        default: return "undef";
    }
}

template <typename T>
void list(std::ostringstream &os, const T *v, size_t n) {
    os << '[';
    for (size_t i = 0; i < n; ++i)
        os << (i ? ", " : "") << v[i];
    os << ']';
}

void lt_json(std::ostringstream &os, const lt_t &lt) {
    os << "{\"id\": " << lt.id << ", \"dtype\": \"" << dnnl_dt2str(lt.data_type)
       << "\", \"shape\": ";
    list(os, lt.dims, lt.ndims > 0 ? lt.ndims : 0);
    os << ", \"stride\": ";
    if (lt.layout_type == dnnl_graph_layout_type_strided)
        list(os, lt.layout.strides, lt.ndims > 0 ? lt.ndims : 0);
    else
        os << "[]";
    os << ", \"layout_type\": \"" << layout_name(lt.layout_type) << "\", \"property_type\": \""
       << property_name(lt.property) << "\"}";
}

void lts_json(std::ostringstream &os, const std::vector<lt_t> &lts, const char *indent) {
    os << '[';
    for (size_t i = 0; i < lts.size(); ++i) {
        os << (i ? ",\n" : "\n") << indent;
        lt_json(os, lts[i]);
    }
    os << ']';
}

void attr_json(std::ostringstream &os, dnnl_graph_op_attr_t name, const attr_value_t &v) {
    os << '"' << attr_name(name) << "\": {\"type\": \"";
    switch (v.type) {
        case attr_type::f32: os << "f32\", \"value\": " << (v.f.empty() ? 0.f : v.f[0]); break;
        case attr_type::f32s:
            os << "f32[]\", \"value\": ";
            list(os, v.f.data(), v.f.size());
            break;
        case attr_type::s64: os << "s64\", \"value\": " << (v.i.empty() ? 0 : v.i[0]); break;
        case attr_type::s64s:
            os << "s64[]\", \"value\": ";
            list(os, v.i.data(), v.i.size());
            break;
        case attr_type::boolean: // 0 / 1, as oneDNN writes it
            os << "bool\", \"value\": " << (!v.i.empty() && v.i[0] ? 1 : 0);
            break;
        case attr_type::str: os << "string\", \"value\": \"" << v.s << '"'; break;
    }
    os << '}';
}

void write_file(const std::string &name, const std::string &text) {
    if (FILE *f = std::fopen(name.c_str(), "w")) {
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }
}

} // namespace

unsigned dump_mode() {
    return mode().load();
}

void set_dump_mode(unsigned modes) {
    mode() = modes;
}

std::string to_json(const std::vector<std::shared_ptr<const op_t>> &ops,
        dnnl_engine_kind_t engine_kind, dnnl_fpmath_mode_t fpmath, bool fpmath_apply_to_int,
        const std::vector<lt_t> &inputs, const std::vector<lt_t> &outputs) {
    std::ostringstream os;
    os << "{\n  \"version\": \"" << DNNL_VERSION_MAJOR << '.' << DNNL_VERSION_MINOR << '.'
       << DNNL_VERSION_PATCH << "\",\n  \"engine_kind\": \"" << dnnl_engine_kind2str(engine_kind)
       << "\",\n  \"fpmath_mode\": \"" << dnnl_fpmath_mode2str(fpmath)
       << "\",\n  \"fpmath_mode_apply_to_int\": \"" << (fpmath_apply_to_int ? "true" : "false")
       << "\",\n  \"input_ports\": [";
    for (size_t i = 0; i < inputs.size(); ++i)
        os << (i ? ", " : "") << inputs[i].id;
    os << "],\n  \"output_ports\": [";
    for (size_t i = 0; i < outputs.size(); ++i)
        os << (i ? ", " : "") << outputs[i].id;
    os << "],\n  \"graph\": [";
    for (size_t i = 0; i < ops.size(); ++i) {
        const op_t &op = *ops[i];
        os << (i ? ",\n" : "\n") << "    {\n      \"id\": " << op.id << ",\n      \"name\": \""
           << op.name << "\",\n      \"kind\": \"" << op_kind_name(op.kind)
           << "\",\n      \"attrs\": {";
        bool first = true;
        for (const auto &a : op.attrs) {
            os << (first ? "\n        " : ",\n        ");
            attr_json(os, a.first, a.second);
            first = false;
        }
        os << "},\n      \"inputs\": ";
        lts_json(os, op.inputs, "        ");
        os << ",\n      \"outputs\": ";
        lts_json(os, op.outputs, "        ");
        os << "\n    }";
    }
    os << "\n  ]\n}\n";
    return os.str();
}

void dump_graph(const dnnl_graph_graph &g) {
    if (!(dump_mode() & dnnl_graph_dump_mode_graph)) return;
    std::vector<std::shared_ptr<const op_t>> ops(g.ops.begin(), g.ops.end());
    // Graph ports: values no op produces, and values no op reads.
    partition_impl_t all;
    all.ops = ops;
    set_ports(all, g.ops);
    write_file("graph-" + std::to_string(g.id) + ".json",
            to_json(ops, g.engine_kind, g.fpmath, g.fpmath_apply_to_int, all.inputs, all.outputs));
}

void dump_partition(const partition_impl_t &p) {
    if (!(dump_mode() & dnnl_graph_dump_mode_subgraph)) return;
    write_file("graph-partition-" + std::to_string(p.id) + ".json",
            to_json(p.ops, p.engine_kind, p.fpmath, false, p.inputs, p.outputs));
}

} // namespace graph
} // namespace anydnn
