#include "graph_rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace benchdnn {

namespace {

[[noreturn]] void fail(const std::string &knob, const std::string &entry, const std::string &why) {
    throw std::invalid_argument("--" + knob + "=" + entry + ": " + why);
}

int64_t to_int(const std::string &s, const std::string &knob) {
    size_t used = 0;
    int64_t v = 0;
    try {
        v = std::stoll(s, &used);
    } catch (const std::exception &) { used = 0; }
    if (s.empty() || used != s.size()) fail(knob, s, "expected an integer");
    return v;
}

float to_float(const std::string &s, const std::string &knob) {
    size_t used = 0;
    float v = 0;
    try {
        v = std::stof(s, &used);
    } catch (const std::exception &) { used = 0; }
    if (s.empty() || used != s.size()) fail(knob, s, "expected a number");
    return v;
}

// "IDorOP:REST" -> the number and the rest.
std::pair<size_t, std::string> id_and_rest(const std::string &entry, const std::string &knob) {
    const size_t colon = entry.find(':');
    if (colon == std::string::npos) fail(knob, entry, "expected ID:VALUE");
    const int64_t id = to_int(entry.substr(0, colon), knob);
    if (id < 0) fail(knob, entry, "negative id");
    return {static_cast<size_t>(id), entry.substr(colon + 1)};
}

// Every place a value with this id appears.
std::vector<graph_lt_t *> occurrences(graph_case_t &c, size_t id) {
    std::vector<graph_lt_t *> out;
    for (auto &op : c.ops)
        for (auto *lts : {&op.inputs, &op.outputs})
            for (auto &lt : *lts)
                if (lt.id == id) out.push_back(&lt);
    return out;
}

bool is_in(const std::vector<graph_lt_t> &lts, size_t id) {
    return std::any_of(lts.begin(), lts.end(), [&](const graph_lt_t &l) { return l.id == id; });
}

dims_t dims_of(const std::string &text, const std::string &knob) {
    if (text == "scalar") return {};
    dims_t d;
    for (const auto &p : split_rewrite(text, 'x')) {
        const int64_t v = to_int(p, knob);
        if (v < 0) fail(knob, text, "negative dimension");
        d.push_back(v);
    }
    return d;
}

// Strides of a plain tag ("acdb": a outermost, b innermost) over `shape`.
dims_t tag_strides(const std::string &tag, const dims_t &shape, const std::string &knob) {
    if (tag.size() != shape.size()) fail(knob, tag, "the tag's rank differs from the shape's");
    dims_t stride(shape.size(), 0);
    std::set<size_t> seen;
    int64_t s = 1;
    for (size_t k = tag.size(); k-- > 0;) {
        const size_t d = static_cast<size_t>(tag[k] - 'a');
        if (tag[k] < 'a' || d >= shape.size() || !seen.insert(d).second)
            fail(knob, tag, "not a permutation of the tensor's dimensions");
        stride[d] = s;
        s *= std::max<int64_t>(shape[d], 1);
    }
    return stride;
}

dims_t dense(const dims_t &shape) {
    dims_t stride(shape.size(), 1);
    for (size_t d = shape.size(); d > 1; --d)
        stride[d - 2] = stride[d - 1] * std::max<int64_t>(shape[d - 1], 1);
    return stride;
}

// --in-shapes: boundary values only; returns the ids it named.
std::set<size_t> rewrite_shapes(graph_case_t &c, const std::string &text) {
    const auto ins = c.graph_inputs(), outs = c.graph_outputs();
    std::set<size_t> named;
    for (const auto &entry : split_rewrite(text, '+')) {
        if (entry.empty()) continue;
        const auto ir = id_and_rest(entry, "in-shapes");
        if (!is_in(ins, ir.first) && !is_in(outs, ir.first))
            fail("in-shapes", entry, "tensor " + std::to_string(ir.first)
                                             + " is no input or output of the graph");
        const size_t star = ir.second.find('*');
        const std::string shape_text = ir.second.substr(0, star);
        const std::string layout_text
                = star == std::string::npos ? std::string() : ir.second.substr(star + 1);
        for (graph_lt_t *lt : occurrences(c, ir.first)) {
            if (!shape_text.empty()) lt->shape = dims_of(shape_text, "in-shapes");
            if (layout_text.empty()) {
                if (!shape_text.empty() || lt->layout == dnnl_graph_layout_type_strided) {
                    if (lt->layout == dnnl_graph_layout_type_strided) lt->stride = dense(lt->shape);
                }
            } else if (std::isalpha(static_cast<unsigned char>(layout_text[0]))) {
                lt->layout = dnnl_graph_layout_type_strided;
                lt->stride = tag_strides(layout_text, lt->shape, "in-shapes");
            } else {
                lt->layout = dnnl_graph_layout_type_strided;
                lt->stride = dims_of(layout_text, "in-shapes");
                if (lt->stride.size() != lt->shape.size())
                    fail("in-shapes", entry, "strides of another rank than the shape");
            }
        }
        named.insert(ir.first);
    }
    return named;
}

// The ports of ops whose first dimension is not the minibatch (weights, gammas).
bool weights_port(dnnl_graph_op_kind_t k, size_t port) {
    switch (k) {
    case dnnl_graph_op_convolution:
    case dnnl_graph_op_conv_transpose:
    case dnnl_graph_op_matmul:
    case dnnl_graph_op_prelu:
    case dnnl_graph_op_bias_add: return port >= 1;
    case dnnl_graph_op_convolution_backward_data:
    case dnnl_graph_op_conv_transpose_backward_data: return port == 1;
    default: return false;
    }
}

// --mb: the first dimension of the graph inputs that carry the first op's minibatch.
void rewrite_mb(graph_case_t &c, int64_t mb, const std::set<size_t> &shaped) {
    const auto &first = c.ops.front();
    if (first.inputs.empty() || first.inputs[0].shape.empty()) return;
    const int64_t old_mb = first.inputs[0].shape[0];
    const auto ins = c.graph_inputs();
    std::set<size_t> skip;
    for (const auto &op : c.ops)
        for (size_t p = 0; p < op.inputs.size(); ++p)
            if (weights_port(op.kind, p) || op.inputs[p].shape.size() < 2)
                skip.insert(op.inputs[p].id);
    for (const auto &in : ins) {
        if (skip.count(in.id) || in.shape.empty()) continue;
        if (in.shape[0] != old_mb && !shaped.count(in.id)) continue;
        for (graph_lt_t *lt : occurrences(c, in.id)) {
            lt->shape[0] = mb;
            if (lt->layout == dnnl_graph_layout_type_strided) {
                // keep the order of the strides, recomputed for the new size
                std::vector<size_t> order(lt->shape.size());
                for (size_t d = 0; d < order.size(); ++d)
                    order[d] = d;
                const dims_t old = lt->stride;
                std::stable_sort(order.begin(), order.end(),
                        [&](size_t a, size_t b) { return old[a] > old[b]; });
                std::string tag;
                for (size_t d : order)
                    tag += static_cast<char>('a' + d);
                lt->stride = tag_strides(tag, lt->shape, "mb");
            }
        }
    }
}

graph_attr_t attr_value(const std::string &name, const std::string &value) {
    graph_attr_t a;
    try {
        a.name = graph_attr_by_name(name);
    } catch (const std::invalid_argument &e) { fail("op-attrs", name, e.what()); }
    a.type = graph_attr_type(a.name);
    switch (a.type) {
    case graph_attr_t::type_t::f32: a.f = {to_float(value, "op-attrs")}; break;
    case graph_attr_t::type_t::f32s:
        for (const auto &p : split_rewrite(value, 'x'))
            a.f.push_back(to_float(p, "op-attrs"));
        break;
    case graph_attr_t::type_t::s64: a.i = {to_int(value, "op-attrs")}; break;
    case graph_attr_t::type_t::s64s:
        for (const auto &p : split_rewrite(value, 'x'))
            a.i.push_back(to_int(p, "op-attrs"));
        break;
    case graph_attr_t::type_t::boolean:
        if (value == "true" || value == "1")
            a.i = {1};
        else if (value == "false" || value == "0")
            a.i = {0};
        else
            fail("op-attrs", value, "expected 0, 1, true or false");
        break;
    case graph_attr_t::type_t::str: a.s = value; break;
    }
    return a;
}

graph_op_t &op_by_id(graph_case_t &c, size_t id, const std::string &knob) {
    for (auto &op : c.ops)
        if (op.id == id) return op;
    fail(knob, std::to_string(id), "the case has no op " + std::to_string(id));
}

void rewrite_attrs(graph_case_t &c, const std::string &text) {
    for (const auto &entry : split_rewrite(text, '+')) {
        if (entry.empty()) continue;
        const auto ir = id_and_rest(entry, "op-attrs");
        graph_op_t &op = op_by_id(c, ir.first, "op-attrs");
        for (const auto &kv : split_rewrite(ir.second, '*')) {
            const size_t colon = kv.find(':');
            if (colon == std::string::npos) fail("op-attrs", entry, "expected NAME:VALUE");
            const std::string name = kv.substr(0, colon), value = kv.substr(colon + 1);
            auto same = [&](const graph_attr_t &a) { return graph_attr_name(a.name) == name; };
            op.attrs.erase(std::remove_if(op.attrs.begin(), op.attrs.end(), same), op.attrs.end());
            if (value != "undef") op.attrs.push_back(attr_value(name, value));
        }
    }
}

bool floating(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

void rewrite_dt(graph_case_t &c, const std::string &text) {
    if (text.find(':') == std::string::npos) { // one type for every floating-point value
        dnnl_data_type_t dt;
        try {
            dt = graph_data_type_by_name(text);
        } catch (const std::invalid_argument &e) { fail("dt", text, e.what()); }
        if (dt == dnnl_data_type_undef) return;
        if (!floating(dt)) fail("dt", text, "the graph-wide form takes f32, bf16 or f16");
        for (auto &op : c.ops)
            for (auto *lts : {&op.inputs, &op.outputs})
                for (auto &lt : *lts)
                    if (floating(lt.dt)) lt.dt = dt;
        return;
    }
    for (const auto &entry : split_rewrite(text, '+')) {
        const auto ir = id_and_rest(entry, "dt");
        dnnl_data_type_t dt;
        try {
            dt = graph_data_type_by_name(ir.second);
        } catch (const std::invalid_argument &e) { fail("dt", entry, e.what()); }
        const auto where = occurrences(c, ir.first);
        if (where.empty()) fail("dt", entry, "the case has no tensor " + std::to_string(ir.first));
        for (graph_lt_t *lt : where)
            lt->dt = dt;
    }
}

// Removes `op`, its readers reading instead the input it passes on.
void remove_op(graph_case_t &c, size_t op_id) {
    auto it = std::find_if(
            c.ops.begin(), c.ops.end(), [&](const graph_op_t &o) { return o.id == op_id; });
    if (it->outputs.size() != 1 || it->inputs.empty())
        fail("op-kind", std::to_string(op_id) + ":undef", "only an op with one output is removed");
    std::set<size_t> produced;
    for (const auto &o : c.ops)
        for (const auto &lt : o.outputs)
            produced.insert(lt.id);
    const graph_lt_t *through = nullptr;
    if (it->inputs.size() == 1)
        through = &it->inputs[0];
    else
        for (const auto &in : it->inputs)
            if (produced.count(in.id)) {
                if (through)
                    fail("op-kind", std::to_string(op_id) + ":undef",
                            "more than one input comes from another op");
                through = &in;
            }
    if (!through)
        fail("op-kind", std::to_string(op_id) + ":undef", "no input comes from another op");
    const graph_lt_t keep = *through;
    const size_t gone = it->outputs[0].id;
    c.ops.erase(it);
    for (auto &o : c.ops)
        for (auto &lt : o.inputs)
            if (lt.id == gone) lt = keep;
}

void rewrite_kinds(graph_case_t &c, const std::string &text, bool &removed) {
    for (const auto &entry : split_rewrite(text, '+')) {
        if (entry.empty()) continue;
        const auto ir = id_and_rest(entry, "op-kind");
        graph_op_t &op = op_by_id(c, ir.first, "op-kind");
        if (ir.second == "undef") {
            remove_op(c, ir.first);
            removed = true;
            continue;
        }
        try {
            op.kind = graph_op_kind_by_name(ir.second);
        } catch (const std::invalid_argument &e) { fail("op-kind", entry, e.what()); }
        op.name = ir.second;
    }
}

void rewrite_property(graph_case_t &c, const std::string &text) {
    for (const auto &entry : split_rewrite(text, '+')) {
        if (entry.empty()) continue;
        const auto ir = id_and_rest(entry, "tensor-property");
        dnnl_graph_tensor_property_t p;
        try {
            p = graph_property_by_name(ir.second);
        } catch (const std::invalid_argument &e) { fail("tensor-property", entry, e.what()); }
        const auto where = occurrences(c, ir.first);
        if (where.empty())
            fail("tensor-property", entry, "the case has no tensor " + std::to_string(ir.first));
        for (graph_lt_t *lt : where)
            lt->property = p;
    }
}

void rewrite_fpmath(graph_case_t &c, const std::string &text) {
    static const std::map<std::string, dnnl_fpmath_mode_t> modes
            = {{"strict", dnnl_fpmath_mode_strict}, {"bf16", dnnl_fpmath_mode_bf16},
                    {"f16", dnnl_fpmath_mode_f16}, {"tf32", dnnl_fpmath_mode_tf32},
                    {"any", dnnl_fpmath_mode_any}};
    const auto parts = split_rewrite(text, ':');
    auto it = modes.find(parts[0]);
    if (it == modes.end() || parts.size() > 2)
        fail("attr-fpmath", text, "expected strict, bf16, f16, tf32 or any[:true|false]");
    c.fpmath = it->second;
    c.fpmath_apply_to_int = false;
    if (parts.size() == 2) {
        if (parts[1] == "true" || parts[1] == "1")
            c.fpmath_apply_to_int = true;
        else if (parts[1] != "false" && parts[1] != "0")
            fail("attr-fpmath", text, "APPLY_TO_INT is true or false");
    }
}

} // namespace

std::vector<std::string> split_rewrite(const std::string &text, char sep) {
    std::vector<std::string> out(1);
    for (char ch : text)
        if (ch == sep)
            out.emplace_back();
        else
            out.back() += ch;
    return out;
}

bool graph_rewrite_t::empty() const {
    return in_shapes.empty() && mb == 0 && op_attrs.empty() && (dt.empty() || dt == "undef")
           && op_kind.empty() && tensor_property.empty() && fpmath.empty();
}

std::string graph_rewrite_t::knobs() const {
    std::string s;
    if (mb) s += "--mb=" + std::to_string(mb) + " ";
    if (!in_shapes.empty()) s += "--in-shapes=" + in_shapes + " ";
    if (!op_attrs.empty()) s += "--op-attrs=" + op_attrs + " ";
    if (!dt.empty() && dt != "undef") s += "--dt=" + dt + " ";
    if (!op_kind.empty()) s += "--op-kind=" + op_kind + " ";
    if (!tensor_property.empty()) s += "--tensor-property=" + tensor_property + " ";
    if (!fpmath.empty()) s += "--attr-fpmath=" + fpmath + " ";
    return s;
}

bool apply_graph_rewrite(graph_case_t &c, const graph_rewrite_t &r) {
    bool removed = false;
    if (!r.op_kind.empty()) rewrite_kinds(c, r.op_kind, removed);
    const std::set<size_t> shaped
            = r.in_shapes.empty() ? std::set<size_t>() : rewrite_shapes(c, r.in_shapes);
    if (r.mb > 0) rewrite_mb(c, r.mb, shaped);
    if (!r.op_attrs.empty()) rewrite_attrs(c, r.op_attrs);
    if (!r.dt.empty()) rewrite_dt(c, r.dt);
    if (!r.tensor_property.empty()) rewrite_property(c, r.tensor_property);
    if (!r.fpmath.empty()) rewrite_fpmath(c, r.fpmath);
    const bool reinfer = !shaped.empty() || r.mb > 0 || !r.op_attrs.empty() || removed;
    if (!reinfer) return false;
    // Every value but the graph's inputs (and outputs a rewrite named) gets its shape anew.
    std::set<size_t> fixed = shaped;
    for (const auto &in : c.graph_inputs())
        fixed.insert(in.id);
    for (auto &op : c.ops)
        for (auto *lts : {&op.inputs, &op.outputs})
            for (auto &lt : *lts)
                if (!fixed.count(lt.id)) lt.unknown_shape = true;
    return true;
}

} // namespace benchdnn
