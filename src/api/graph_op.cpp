// dnnl_graph op entry points.
#include <memory>

#include "api/api.hpp"
#include "graph/op_schema.hpp"

using namespace anydnn;
using namespace anydnn::graph;

namespace {

status_t check_lt(const dnnl_graph_logical_tensor_t *lt) {
    ANYDNN_REQUIRE_NOT_NULL(lt);
    ANYDNN_REQUIRE(lt->ndims >= DNNL_GRAPH_UNKNOWN_NDIMS && lt->ndims <= DNNL_MAX_NDIMS,
            dnnl_invalid_arguments, "logical tensor %zu has ndims %d", lt->id, lt->ndims);
    return dnnl_success;
}

// Stores one attribute value; its type is checked against the op's schema in add_op.
template <typename T>
status_t set_attr(dnnl_graph_op_t op, dnnl_graph_op_attr_t name, const T *value, size_t len,
        attr_type scalar, attr_type vector) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
    ANYDNN_REQUIRE(is_known_attr(raw_value(name)), dnnl_invalid_arguments,
            "attribute %d is not a graph op attribute", raw_value(name));
    // The attribute's definition decides between one value and a list, as in oneDNN: a scalar
    // attribute reads value[0] whatever value_len says; a list takes value_len values. An
    // attribute of another type keeps the shape the call gave, and validation names the clash.
    const attr_type expected = expected_attr_type(name);
    if (expected == scalar) len = 1;
    ANYDNN_REQUIRE(value != nullptr || len == 0, dnnl_invalid_arguments, "value is null");
    attr_value_t v;
    v.type = expected == vector ? vector : len == 1 ? scalar : vector;
    for (size_t i = 0; i < len; ++i) {
        if (std::is_same<T, float>::value)
            v.f.push_back(static_cast<float>(value[i]));
        else
            v.i.push_back(static_cast<int64_t>(value[i]));
    }
    op->op.attrs[name] = std::move(v);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_op_create(
        dnnl_graph_op_t *op, size_t id, dnnl_graph_op_kind_t kind, const char *verbose_name) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(op);
        ANYDNN_REQUIRE(is_valid_op_kind(raw_value(kind)), dnnl_invalid_arguments,
                "op kind %d is not valid", raw_value(kind));
        auto o = std::make_unique<dnnl_graph_op>();
        o->op.id = id;
        o->op.kind = kind;
        o->op.name = verbose_name ? verbose_name : "";
        *op = o.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_destroy(dnnl_graph_op_t op) {
    if (!op) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
    delete op;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_op_add_input(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *input) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
        ANYDNN_CHECK(check_lt(input));
        op->op.inputs.push_back(*input);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_add_output(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *output) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
        ANYDNN_CHECK(check_lt(output));
        op->op.outputs.push_back(*output);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_set_attr_f32(
        dnnl_graph_op_t op, dnnl_graph_op_attr_t name, const float *value, size_t value_len) {
    return guarded(__func__, [&] {
        return set_attr(op, name, value, value_len, attr_type::f32, attr_type::f32s);
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_set_attr_bool(
        dnnl_graph_op_t op, dnnl_graph_op_attr_t name, const uint8_t *value, size_t value_len) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE(value_len == 1, dnnl_invalid_arguments,
                "a bool attribute takes one value, got %zu", value_len);
        return set_attr(op, name, value, value_len, attr_type::boolean, attr_type::boolean);
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_set_attr_s64(
        dnnl_graph_op_t op, dnnl_graph_op_attr_t name, const int64_t *value, size_t value_len) {
    return guarded(__func__, [&] {
        return set_attr(op, name, value, value_len, attr_type::s64, attr_type::s64s);
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_set_attr_str(
        dnnl_graph_op_t op, dnnl_graph_op_attr_t name, const char *value, size_t value_len) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
        ANYDNN_REQUIRE(is_known_attr(raw_value(name)), dnnl_invalid_arguments,
                "attribute %d is not a graph op attribute", raw_value(name));
        ANYDNN_REQUIRE(value != nullptr || value_len == 0, dnnl_invalid_arguments,
                "value is null");
        attr_value_t v;
        v.type = attr_type::str;
        v.s.assign(value, value_len);
        op->op.attrs[name] = std::move(v);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_op_get_id(const_dnnl_graph_op_t op, size_t *id) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
    ANYDNN_REQUIRE_NOT_NULL(id);
    *id = op->op.id;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_op_get_kind(
        const_dnnl_graph_op_t op, dnnl_graph_op_kind_t *kind) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
    ANYDNN_REQUIRE_NOT_NULL(kind);
    *kind = op->op.kind;
    return dnnl_success;
}

} // extern "C"
