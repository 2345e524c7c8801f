// dnnl_graph graph and partition entry points.
#include <algorithm>

#include "api/api.hpp"
#include "graph/graph.hpp"
#include "graph/op_schema.hpp"

using namespace anydnn;
using namespace anydnn::graph;

namespace {

status_t check_engine_kind(dnnl_engine_kind_t kind) {
    const int k = raw_value(kind);
    ANYDNN_REQUIRE(k == dnnl_cpu || k == dnnl_gpu, dnnl_invalid_arguments,
            "engine kind %d is not cpu or gpu", k);
    return dnnl_success;
}

status_t check_fpmath(dnnl_fpmath_mode_t mode) {
    const int m = raw_value(mode);
    ANYDNN_REQUIRE(m >= dnnl_fpmath_mode_strict && m <= dnnl_fpmath_mode_tf32,
            dnnl_invalid_arguments, "fpmath mode %d is not valid", m);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_graph_create(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind) {
    return dnnl_graph_graph_create_with_fpmath_mode(graph, engine_kind, dnnl_fpmath_mode_strict);
}

DNNL_API dnnl_status_t dnnl_graph_graph_create_with_fpmath_mode(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind, dnnl_fpmath_mode_t mode) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(graph);
        ANYDNN_CHECK(check_engine_kind(engine_kind));
        ANYDNN_CHECK(check_fpmath(mode));
        *graph = new dnnl_graph_graph(engine_kind, mode);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_graph_destroy(dnnl_graph_graph_t graph) {
    if (!graph) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
    delete graph;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_graph_set_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t mode, int apply_to_int) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
    ANYDNN_CHECK(check_fpmath(mode));
    graph->fpmath = mode;
    graph->fpmath_apply_to_int = apply_to_int != 0;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_graph_get_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t *mode, int *apply_to_int) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = graph->fpmath;
    if (apply_to_int) *apply_to_int = graph->fpmath_apply_to_int;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_add_op(dnnl_graph_graph_t graph, dnnl_graph_op_t op) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
        ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
        return graph->add_op(op->op);
    });
}

DNNL_API dnnl_status_t dnnl_graph_graph_finalize(dnnl_graph_graph_t graph) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
        return graph->finalize();
    });
}

DNNL_API dnnl_status_t dnnl_graph_graph_is_finalized(dnnl_graph_graph_t graph, uint8_t *finalized) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
    ANYDNN_REQUIRE_NOT_NULL(finalized);
    *finalized = graph->finalized ? 1 : 0;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_graph_filter(
        dnnl_graph_graph_t graph, dnnl_graph_partition_policy_t policy) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
        const int p = raw_value(policy);
        ANYDNN_REQUIRE(p == dnnl_graph_partition_policy_fusion
                        || p == dnnl_graph_partition_policy_debug,
                dnnl_invalid_arguments, "partition policy %d is not valid", p);
        return graph->filter(policy);
    });
}

DNNL_API dnnl_status_t dnnl_graph_graph_get_partition_num(
        const_dnnl_graph_graph_t graph, size_t *num) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
    ANYDNN_REQUIRE_NOT_NULL(num);
    *num = graph->partitions.size();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_graph_get_partitions(
        dnnl_graph_graph_t graph, size_t num, dnnl_graph_partition_t *partitions) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(graph, graph);
        ANYDNN_REQUIRE_NOT_NULL(partitions);
        ANYDNN_REQUIRE(num == graph->partitions.size(), dnnl_invalid_arguments,
                "the graph has %zu partitions, %zu were asked for", graph->partitions.size(),
                num);
        std::vector<std::unique_ptr<dnnl_graph_partition>> made;
        for (const auto &p : graph->partitions)
            made.push_back(std::make_unique<dnnl_graph_partition>(p));
        for (size_t i = 0; i < num; ++i)
            partitions[i] = made[i].release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_partition_create_with_op(
        dnnl_graph_partition_t *partition, const_dnnl_graph_op_t op, dnnl_engine_kind_t ekind) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(partition);
        ANYDNN_REQUIRE_GRAPH_HANDLE(op, op);
        ANYDNN_CHECK(check_engine_kind(ekind));
        ANYDNN_CHECK(validate_op(op->op));
        auto copy = std::make_shared<op_t>(op->op);
        ANYDNN_CHECK(infer_op_shapes(*copy));
        auto p = std::make_shared<partition_impl_t>();
        p->id = next_partition_id();
        p->engine_kind = ekind;
        p->ops.push_back(copy);
        p->pattern = "single_op";
        p->supported = lowerable(*copy);
        set_ports(*p, {copy});
        *partition = new dnnl_graph_partition(p);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_partition_destroy(dnnl_graph_partition_t partition) {
    if (!partition) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    delete partition;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_op_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(num);
    *num = partition->impl->ops.size();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_ops(
        dnnl_graph_partition_t partition, size_t num, size_t *ids) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(ids);
    const auto &ops = partition->impl->ops;
    ANYDNN_REQUIRE(num == ops.size(), dnnl_invalid_arguments,
            "the partition has %zu ops, %zu were asked for", ops.size(), num);
    for (size_t i = 0; i < num; ++i)
        ids[i] = ops[i]->id;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_id(
        const_dnnl_graph_partition_t partition, size_t *id) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(id);
    *id = partition->impl->id;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_input_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(num);
    *num = partition->impl->inputs.size();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_input_ports(const_dnnl_graph_partition_t partition,
        size_t num, dnnl_graph_logical_tensor_t *inputs) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(inputs);
    const auto &ports = partition->impl->inputs;
    ANYDNN_REQUIRE(num == ports.size(), dnnl_invalid_arguments,
            "the partition has %zu inputs, %zu were asked for", ports.size(), num);
    std::copy(ports.begin(), ports.end(), inputs);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_output_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(num);
    *num = partition->impl->outputs.size();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_output_ports(
        const_dnnl_graph_partition_t partition, size_t num, dnnl_graph_logical_tensor_t *outputs) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(outputs);
    const auto &ports = partition->impl->outputs;
    ANYDNN_REQUIRE(num == ports.size(), dnnl_invalid_arguments,
            "the partition has %zu outputs, %zu were asked for", ports.size(), num);
    std::copy(ports.begin(), ports.end(), outputs);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_is_supported(
        const_dnnl_graph_partition_t partition, uint8_t *is_supported) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(is_supported);
    *is_supported = partition->impl->supported ? 1 : 0;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_partition_get_engine_kind(
        const_dnnl_graph_partition_t partition, dnnl_engine_kind_t *kind) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
    ANYDNN_REQUIRE_NOT_NULL(kind);
    *kind = partition->impl->engine_kind;
    return dnnl_success;
}

} // extern "C"
