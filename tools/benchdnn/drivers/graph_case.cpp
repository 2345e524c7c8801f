#include "graph_case.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace benchdnn {

namespace {

// clang-format off
#define BENCHDNN_GRAPH_OP_KINDS(X) \
    X(abs, "Abs") X(abs_backward, "AbsBackward") X(add, "Add") X(avg_pool, "AvgPool") \
    X(avg_pool_backward, "AvgPoolBackward") X(batch_norm_backward, "BatchNormTrainingBackward") \
    X(batch_norm_forward_training, "BatchNormForwardTraining") \
    X(batch_norm_inference, "BatchNormInference") X(bias_add, "BiasAdd") \
    X(bias_add_backward, "BiasAddBackward") X(clamp, "Clamp") X(clamp_backward, "ClampBackward") \
    X(concat, "Concat") X(convolution, "Convolution") \
    X(convolution_backward_data, "ConvolutionBackwardData") \
    X(convolution_backward_weights, "ConvolutionBackwardWeights") \
    X(conv_transpose, "ConvTranspose") \
    X(conv_transpose_backward_data, "ConvTransposeBackwardData") \
    X(conv_transpose_backward_weights, "ConvTransposeBackwardWeights") \
    X(dequantize, "Dequantize") X(divide, "Divide") \
    X(dynamic_dequantize, "DynamicDequantize") X(dynamic_quantize, "DynamicQuantize") \
    X(elu, "Elu") X(elu_backward, "EluBackward") X(end, "End") X(exp, "Exp") X(gelu, "GELU") \
    X(gelu_backward, "GELUBackward") X(hard_swish, "HardSwish") \
    X(hard_swish_backward, "HardSwishBackward") X(interpolate, "Interpolate") \
    X(interpolate_backward, "InterpolateBackward") X(layer_norm, "LayerNorm") \
    X(layer_norm_backward, "LayerNormBackward") X(leaky_relu, "LeakyReLU") X(log, "Log") \
    X(log_softmax, "LogSoftmax") X(log_softmax_backward, "LogSoftmaxBackward") \
    X(matmul, "MatMul") X(maximum, "Maximum") X(max_pool, "MaxPool") \
    X(max_pool_backward, "MaxPoolBackward") X(minimum, "Minimum") X(mish, "Mish") \
    X(mish_backward, "MishBackward") X(multiply, "Multiply") X(prelu, "PReLU") \
    X(prelu_backward, "PReLUBackward") X(quantize, "Quantize") X(reciprocal, "Reciprocal") \
    X(reduce_l1, "ReduceL1") X(reduce_l2, "ReduceL2") X(reduce_max, "ReduceMax") \
    X(reduce_mean, "ReduceMean") X(reduce_min, "ReduceMin") X(reduce_prod, "ReduceProd") \
    X(reduce_sum, "ReduceSum") X(relu, "ReLU") X(relu_backward, "ReLUBackward") \
    X(reorder, "Reorder") X(round, "Round") X(sigmoid, "Sigmoid") \
    X(sigmoid_backward, "SigmoidBackward") X(softmax, "SoftMax") \
    X(softmax_backward, "SoftMaxBackward") X(softplus, "SoftPlus") \
    X(softplus_backward, "SoftPlusBackward") X(sqrt, "Sqrt") X(sqrt_backward, "SqrtBackward") \
    X(square, "Square") X(squared_difference, "SquaredDifference") \
    X(static_reshape, "StaticReshape") X(static_transpose, "StaticTranspose") \
    X(subtract, "Subtract") X(tanh, "Tanh") X(tanh_backward, "TanhBackward") \
    X(type_cast, "TypeCast") X(wildcard, "Wildcard") X(hard_sigmoid, "HardSigmoid") \
    X(hard_sigmoid_backward, "HardSigmoidBackward") X(select, "Select") X(pow, "Pow") \
    X(group_norm, "GroupNorm") X(gen_index, "GenIndex") X(greater_equal, "GreaterEqual") \
    X(rms_norm, "RMSNorm") X(dropout, "Dropout")

#define BENCHDNN_GRAPH_ATTRS(X) \
    X(alpha) X(beta) X(epsilon) X(max) X(min) X(momentum) X(scales) X(axis) \
    X(begin_norm_axis) X(groups) X(axes) X(dilations) X(dst_shape) X(kernel) X(order) \
    X(output_padding) X(pads_begin) X(pads_end) X(shape) X(sizes) X(src_shape) X(strides) \
    X(weights_shape) X(zps) X(group_shape) X(exclude_pad) X(keep_dims) X(keep_stats) \
    X(per_channel_broadcast) X(special_zero) X(transpose_a) X(transpose_b) X(use_affine) \
    X(use_dst) X(auto_broadcast) X(auto_pad) X(coordinate_transformation_mode) \
    X(data_format) X(mode) X(qtype) X(rounding_type) X(weights_format) X(accumulation_mode)

// clang-format on

// Members keep their written order (attributes are read in that order).
using json_t = nlohmann::ordered_json;
using kind_t = json_t::value_t;

// The kind of a value with its article, for messages ("expected an array, found a string").
const char *kind_name(kind_t k) {
    switch (k) {
    case kind_t::null: return "null";
    case kind_t::boolean: return "a boolean";
    case kind_t::number_integer:
    case kind_t::number_unsigned:
    case kind_t::number_float: return "a number";
    case kind_t::string: return "a string";
    case kind_t::array: return "an array";
    case kind_t::object: return "an object";
    default: return "an unsupported value";
    }
}

// A JSON document deeper than this is refused before it is built (bad input never exhausts
// the stack of the code that walks or frees the tree).
constexpr int max_json_depth = 64;

// Parses one document; errors name the line and column the library reports, without its
// exception tag.
json_t parse_json(const std::string &text) {
    const json_t::parser_callback_t depth_check = [](int depth, json_t::parse_event_t,
                                                          json_t &) {
        if (depth > max_json_depth)
            throw std::invalid_argument("JSON nesting deeper than "
                                        + std::to_string(max_json_depth) + " levels");
        return true;
    };
    try {
        return json_t::parse(text, depth_check);
    } catch (const json_t::exception &e) { // a parse error, or a number out of range
        const std::string what = e.what();
        const size_t tag_end = what.find("] ");
        throw std::invalid_argument(
                "JSON " + (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
    }
}

// Where a field sits, for messages: "op 3 (matmul): inputs[1]: shape".
struct where_t {
    std::string text;
    where_t sub(const std::string &s) const {
        return {text.empty() ? s : text + ": " + s};
    }
    [[noreturn]] void fail(const std::string &what) const {
        throw std::invalid_argument(text.empty() ? what : text + ": " + what);
    }
};

// The member named key of an object, or null when absent.
const json_t *find(const json_t &obj, const char *key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json_t &member(const json_t &obj, const char *key, const where_t &w) {
    const json_t *v = find(obj, key);
    if (!v) w.fail(std::string("missing field \"") + key + "\"");
    return *v;
}

const json_t &typed(const json_t &v, kind_t k, const where_t &w) {
    if (v.type() != k)
        w.fail(std::string("expected ") + kind_name(k) + ", found " + kind_name(v.type()));
    return v;
}

const std::string &string_field(const json_t &obj, const char *key, const where_t &w) {
    return typed(member(obj, key, w), kind_t::string, w.sub(key)).get_ref<const std::string &>();
}

// A number written without fraction or exponent that fits int64_t.
int64_t integer(const json_t &v, const where_t &w) {
    if (!v.is_number_integer())
        w.fail(std::string("expected an integer, found ") + kind_name(v.type()));
    if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
        w.fail("integer " + v.dump() + " out of range");
    return v.get<int64_t>();
}

size_t id_field(const json_t &obj, const where_t &w) {
    const int64_t id = integer(member(obj, "id", w), w.sub("id"));
    if (id < 0) w.sub("id").fail("negative id " + std::to_string(id));
    return static_cast<size_t>(id);
}

std::vector<int64_t> integers(const json_t &v, const where_t &w) {
    std::vector<int64_t> out;
    for (size_t i = 0; i < typed(v, kind_t::array, w).size(); ++i)
        out.push_back(integer(v[i], w.sub("[" + std::to_string(i) + "]")));
    return out;
}

dnnl_data_type_t data_type(const std::string &s, const where_t &w) {
    static const std::map<std::string, dnnl_data_type_t> names = {{"undef", dnnl_data_type_undef},
            {"f16", dnnl_f16}, {"bf16", dnnl_bf16}, {"f32", dnnl_f32}, {"s32", dnnl_s32},
            {"s8", dnnl_s8}, {"u8", dnnl_u8}, {"f64", dnnl_f64}, {"boolean", dnnl_boolean},
            {"f8_e5m2", dnnl_f8_e5m2}, {"f8_e4m3", dnnl_f8_e4m3}, {"s4", dnnl_s4}, {"u4", dnnl_u4},
            {"s64", dnnl_s64}};
    auto it = names.find(s);
    if (it == names.end()) w.fail("unknown data type \"" + s + "\"");
    return it->second;
}

graph_lt_t logical_tensor(const json_t &v, const where_t &w) {
    typed(v, kind_t::object, w);
    graph_lt_t lt;
    lt.id = id_field(v, w);
    const where_t here = w.sub("tensor " + std::to_string(lt.id));
    lt.dt = data_type(string_field(v, "dtype", here), here.sub("dtype"));
    lt.shape = integers(member(v, "shape", here), here.sub("shape"));
    if (lt.shape.size() > DNNL_MAX_NDIMS)
        here.sub("shape").fail("more than " + std::to_string(DNNL_MAX_NDIMS) + " dimensions");
    for (int64_t d : lt.shape)
        if (d < 0) here.sub("shape").fail("unknown or negative dimension (benchdnn needs shapes)");
    const std::string layout =
            find(v, "layout_type") ? string_field(v, "layout_type", here) : std::string("strided");
    if (layout == "strided")
        lt.layout = dnnl_graph_layout_type_strided;
    else if (layout == "any")
        lt.layout = dnnl_graph_layout_type_any;
    else
        here.sub("layout_type").fail("unsupported layout \"" + layout + "\" (strided or any)");
    if (const json_t *s = find(v, "stride")) lt.stride = integers(*s, here.sub("stride"));
    if (lt.layout == dnnl_graph_layout_type_strided) {
        if (lt.stride.empty() && !lt.shape.empty()) { // dense row-major
            lt.stride.assign(lt.shape.size(), 1);
            for (size_t d = lt.shape.size() - 1; d > 0; --d)
                lt.stride[d - 1] = lt.stride[d] * std::max<int64_t>(lt.shape[d], 1);
        }
        if (lt.stride.size() != lt.shape.size())
            here.sub("stride").fail("has " + std::to_string(lt.stride.size())
                                    + " entries for a shape of " + std::to_string(lt.shape.size()));
        for (int64_t s : lt.stride)
            if (s < 0) here.sub("stride").fail("negative stride");
    } else
        lt.stride.clear();
    const std::string prop =
            find(v, "property_type") ? string_field(v, "property_type", here) : std::string("undef");
    try {
        lt.property = graph_property_by_name(prop);
    } catch (const std::invalid_argument &e) {
        here.sub("property_type").fail(e.what());
    }
    return lt;
}

dnnl_graph_op_kind_t op_kind(const std::string &s, const where_t &w) {
#define X(e, n) {n, dnnl_graph_op_##e},
    static const std::map<std::string, dnnl_graph_op_kind_t> kinds = {BENCHDNN_GRAPH_OP_KINDS(X)};
#undef X
    auto it = kinds.find(s);
    // Files written before oneDNN v3.1 name backward ops "...Backprop".
    const std::string old_suffix = "Backprop";
    if (it == kinds.end() && s.size() > old_suffix.size()
            && s.compare(s.size() - old_suffix.size(), old_suffix.size(), old_suffix) == 0)
        it = kinds.find(s.substr(0, s.size() - old_suffix.size()) + "Backward");
    if (it == kinds.end()) w.fail("unknown op kind \"" + s + "\"");
    return it->second;
}

dnnl_graph_op_attr_t attr_by_name(const std::string &s, const where_t &w) {
#define X(n) {#n, dnnl_graph_op_attr_##n},
    static const std::map<std::string, dnnl_graph_op_attr_t> names = {BENCHDNN_GRAPH_ATTRS(X)};
#undef X
    auto it = names.find(s);
    if (it == names.end()) w.fail("unknown attribute \"" + s + "\"");
    return it->second;
}

// The value type an attribute has by its enum range (dnnl_graph_types.h groups them).
graph_attr_t::type_t attr_type_of(dnnl_graph_op_attr_t a) {
    const int v = a;
    if (v >= 0x80) return graph_attr_t::type_t::str;
    if (v >= 0x60) return graph_attr_t::type_t::boolean;
    if (v >= 0x40) return graph_attr_t::type_t::s64s;
    if (v >= 0x30) return graph_attr_t::type_t::s64;
    if (v >= 0x20) return graph_attr_t::type_t::f32s;
    return graph_attr_t::type_t::f32;
}

float number(const json_t &v, const where_t &w) {
    if (!v.is_number()) w.fail(std::string("expected a number, found ") + kind_name(v.type()));
    return v.get<float>();
}

graph_attr_t attribute(const std::string &name, const json_t &v, const where_t &w) {
    const where_t here = w.sub("attrs: " + name);
    typed(v, kind_t::object, here);
    graph_attr_t a;
    a.name = attr_by_name(name, here);
    a.type = attr_type_of(a.name);
    const std::string &type = string_field(v, "type", here);
    static const char *type_names[] = {"f32", "f32[]", "s64", "s64[]", "bool", "string"};
    const char *want = type_names[static_cast<int>(a.type)];
    if (type != want) here.sub("type").fail("is \"" + type + "\", expected \"" + want + "\"");
    const json_t &val = member(v, "value", here);
    const where_t wv = here.sub("value");
    switch (a.type) {
    case graph_attr_t::type_t::f32: a.f = {number(val, wv)}; break;
    case graph_attr_t::type_t::f32s:
        for (size_t i = 0; i < typed(val, kind_t::array, wv).size(); ++i)
            a.f.push_back(number(val[i], wv.sub("[" + std::to_string(i) + "]")));
        break;
    case graph_attr_t::type_t::s64: a.i = {integer(val, wv)}; break;
    case graph_attr_t::type_t::s64s: a.i = integers(val, wv); break;
    case graph_attr_t::type_t::boolean:
        // oneDNN writes 0 / 1; true / false is accepted too.
        if (val.is_boolean())
            a.i = {val.get<bool>() ? 1 : 0};
        else
            a.i = {integer(val, wv) != 0};
        break;
    case graph_attr_t::type_t::str: a.s = typed(val, kind_t::string, wv).get<std::string>(); break;
    }
    return a;
}

graph_op_t op(const json_t &v, const where_t &w) {
    typed(v, kind_t::object, w);
    graph_op_t o;
    o.id = id_field(v, w);
    const std::string &kind = string_field(v, "kind", w.sub("op " + std::to_string(o.id)));
    const where_t here = w.sub("op " + std::to_string(o.id) + " (" + kind + ")");
    o.kind = op_kind(kind, here);
    o.name = find(v, "name") ? string_field(v, "name", here) : kind;
    if (const json_t *attrs = find(v, "attrs")) {
        typed(*attrs, kind_t::object, here.sub("attrs"));
        for (const auto &m : attrs->items())
            o.attrs.push_back(attribute(m.key(), m.value(), here));
    }
    for (const char *side : {"inputs", "outputs"}) {
        const json_t &list = typed(member(v, side, here), kind_t::array, here.sub(side));
        auto &lts = side[0] == 'i' ? o.inputs : o.outputs;
        for (size_t i = 0; i < list.size(); ++i)
            lts.push_back(logical_tensor(
                    list[i], here.sub(std::string(side) + "[" + std::to_string(i) + "]")));
    }
    return o;
}

bool same_value(const graph_lt_t &a, const graph_lt_t &b) {
    return a.dt == b.dt && a.shape == b.shape;
}

// Every value is described the same way wherever it appears, and produced at most once.
void check_values(const graph_case_t &c) {
    std::map<size_t, std::pair<const graph_lt_t *, size_t>> seen; // id -> (lt, op id)
    std::map<size_t, size_t> producer;
    for (const auto &o : c.ops) {
        for (const auto *lts : {&o.inputs, &o.outputs})
            for (const auto &lt : *lts) {
                auto it = seen.find(lt.id);
                if (it == seen.end()) {
                    seen[lt.id] = {&lt, o.id};
                    continue;
                }
                if (!same_value(*it->second.first, lt))
                    throw std::invalid_argument("tensor " + std::to_string(lt.id) + ": op "
                                                + std::to_string(o.id) + " and op "
                                                + std::to_string(it->second.second)
                                                + " disagree on its data type or shape");
            }
        for (const auto &lt : o.outputs)
            if (!producer.emplace(lt.id, o.id).second)
                throw std::invalid_argument(
                        "tensor " + std::to_string(lt.id) + " is produced by op "
                        + std::to_string(producer[lt.id]) + " and op " + std::to_string(o.id));
    }
}

std::vector<graph_lt_t> ports(const graph_case_t &c, bool inputs) {
    std::map<size_t, int> produced, consumed, ended;
    for (const auto &o : c.ops) {
        // An End op marks its input as a graph output.
        for (const auto &lt : o.inputs)
            (o.kind == dnnl_graph_op_end ? ended : consumed)[lt.id] = 1;
        for (const auto &lt : o.outputs)
            produced[lt.id] = 1;
    }
    std::vector<graph_lt_t> out;
    std::map<size_t, int> listed;
    for (const auto &o : c.ops)
        for (const auto &lt : inputs ? o.inputs : o.outputs) {
            const bool port =
                    inputs ? !produced.count(lt.id) : !consumed.count(lt.id) || ended.count(lt.id);
            if (port && !listed[lt.id]++) out.push_back(lt);
        }
    return out;
}

} // namespace

const graph_attr_t *graph_op_t::attr(dnnl_graph_op_attr_t a) const {
    for (const auto &x : attrs)
        if (x.name == a) return &x;
    return nullptr;
}

float graph_op_t::f32(dnnl_graph_op_attr_t a, float def) const {
    const auto *x = attr(a);
    return x && !x->f.empty() ? x->f[0] : def;
}

int64_t graph_op_t::s64(dnnl_graph_op_attr_t a, int64_t def) const {
    const auto *x = attr(a);
    return x && !x->i.empty() ? x->i[0] : def;
}

std::vector<int64_t> graph_op_t::s64s(
        dnnl_graph_op_attr_t a, const std::vector<int64_t> &def) const {
    const auto *x = attr(a);
    return x ? x->i : def;
}

std::vector<float> graph_op_t::f32s(dnnl_graph_op_attr_t a) const {
    const auto *x = attr(a);
    return x ? x->f : std::vector<float>();
}

bool graph_op_t::flag(dnnl_graph_op_attr_t a, bool def) const {
    const auto *x = attr(a);
    return x && !x->i.empty() ? x->i[0] != 0 : def;
}

std::string graph_op_t::str(dnnl_graph_op_attr_t a, const std::string &def) const {
    const auto *x = attr(a);
    return x ? x->s : def;
}

std::vector<graph_lt_t> graph_case_t::graph_inputs() const {
    return ports(*this, true);
}

std::vector<graph_lt_t> graph_case_t::graph_outputs() const {
    return ports(*this, false);
}

graph_case_t read_graph_case(const std::string &json_text) {
    const json_t doc = parse_json(json_text);
    const where_t top;
    typed(doc, kind_t::object, top);
    graph_case_t c;
    if (find(doc, "version")) c.version = string_field(doc, "version", top);
    if (find(doc, "engine_kind")) {
        const std::string &e = string_field(doc, "engine_kind", top);
        if (e == "cpu")
            c.engine_kind = dnnl_cpu;
        else if (e == "gpu")
            c.engine_kind = dnnl_gpu;
        else
            top.sub("engine_kind").fail("unknown engine kind \"" + e + "\"");
    }
    if (find(doc, "fpmath_mode")) {
        static const std::map<std::string, dnnl_fpmath_mode_t> modes = {
                {"strict", dnnl_fpmath_mode_strict}, {"bf16", dnnl_fpmath_mode_bf16},
                {"f16", dnnl_fpmath_mode_f16}, {"tf32", dnnl_fpmath_mode_tf32},
                {"any", dnnl_fpmath_mode_any}};
        const std::string &m = string_field(doc, "fpmath_mode", top);
        auto it = modes.find(m);
        if (it == modes.end()) top.sub("fpmath_mode").fail("unknown mode \"" + m + "\"");
        c.fpmath = it->second;
    }
    if (const json_t *a = find(doc, "fpmath_mode_apply_to_int")) {
        // oneDNN writes the strings "true" / "false".
        if (a->is_boolean())
            c.fpmath_apply_to_int = a->get<bool>();
        else
            c.fpmath_apply_to_int = string_field(doc, "fpmath_mode_apply_to_int", top) == "true";
    }
    const json_t &graph = typed(member(doc, "graph", top), kind_t::array, top.sub("graph"));
    if (graph.empty()) top.sub("graph").fail("has no ops");
    std::map<size_t, int> ids;
    for (size_t i = 0; i < graph.size(); ++i) {
        c.ops.push_back(op(graph[i], top.sub("graph[" + std::to_string(i) + "]")));
        if (ids[c.ops.back().id]++)
            throw std::invalid_argument(
                    "op id " + std::to_string(c.ops.back().id) + " appears twice");
    }
    check_values(c);
    return c;
}

graph_case_t load_graph_case(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw std::invalid_argument("cannot read graph case " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    try {
        return read_graph_case(ss.str());
    } catch (const std::invalid_argument &e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

dnnl_graph_op_kind_t graph_op_kind_by_name(const std::string &name) {
    return op_kind(name, where_t());
}

dnnl_graph_op_attr_t graph_attr_by_name(const std::string &name) {
    return attr_by_name(name, where_t());
}

dnnl_data_type_t graph_data_type_by_name(const std::string &name) {
    return data_type(name, where_t());
}

dnnl_graph_tensor_property_t graph_property_by_name(const std::string &name) {
    static const std::map<std::string, dnnl_graph_tensor_property_t> names
            = {{"undef", dnnl_graph_tensor_property_undef},
                    {"variable", dnnl_graph_tensor_property_variable},
                    {"constant", dnnl_graph_tensor_property_constant},
                    {"host_scalar", dnnl_graph_tensor_property_host_scalar}};
    auto it = names.find(name);
    if (it == names.end()) throw std::invalid_argument("unknown property \"" + name + "\"");
    return it->second;
}

graph_attr_t::type_t graph_attr_type(dnnl_graph_op_attr_t name) {
    return attr_type_of(name);
}

const char *graph_op_kind_name(dnnl_graph_op_kind_t kind) {
    switch (kind) {
#define X(e, n)                                                                                    \
    case dnnl_graph_op_##e: return n;
        BENCHDNN_GRAPH_OP_KINDS(X)
#undef X
    default: return "unknown";
    }
}

const char *graph_attr_name(dnnl_graph_op_attr_t name) {
    switch (name) {
#define X(n)                                                                                       \
    case dnnl_graph_op_attr_##n: return #n;
        BENCHDNN_GRAPH_ATTRS(X)
#undef X
    default: return "unknown";
    }
}

} // namespace benchdnn
