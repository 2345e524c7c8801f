#include "graph/graph.hpp"

#include <algorithm>
#include <atomic>
#include <set>

#include "graph/dump.hpp"
#include "graph/op_schema.hpp"

namespace anydnn {
namespace graph {

size_t next_graph_id() {
    static std::atomic<size_t> id {0};
    return id++;
}

connectivity_t::connectivity_t(const std::vector<std::shared_ptr<op_t>> &ops) {
    for (const auto &op : ops) {
        for (const auto &lt : op->outputs)
            producer[lt.id] = op.get();
        for (const auto &lt : op->inputs)
            consumers[lt.id].push_back(op.get());
    }
}

status_t topo_order(const std::vector<std::shared_ptr<op_t>> &ops,
        std::vector<std::shared_ptr<op_t>> &sorted) {
    std::map<size_t, size_t> producer; // value id -> op index
    for (size_t i = 0; i < ops.size(); ++i)
        for (const auto &lt : ops[i]->outputs) {
            auto it = producer.find(lt.id);
            ANYDNN_REQUIRE(it == producer.end(), dnnl_invalid_graph,
                    "logical tensor %zu is produced by op %zu and op %zu", lt.id,
                    ops[it == producer.end() ? i : it->second]->id, ops[i]->id);
            producer[lt.id] = i;
        }
    std::vector<int> pending(ops.size(), 0);
    std::vector<std::vector<size_t>> users(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        for (const auto &lt : ops[i]->inputs) {
            auto it = producer.find(lt.id);
            if (it == producer.end()) continue;
            ++pending[i];
            users[it->second].push_back(i);
        }
    std::vector<size_t> ready;
    for (size_t i = ops.size(); i-- > 0;)
        if (pending[i] == 0) ready.push_back(i);
    sorted.clear();
    while (!ready.empty()) {
        const size_t i = ready.back();
        ready.pop_back();
        sorted.push_back(ops[i]);
        for (size_t u : users[i])
            if (--pending[u] == 0) ready.push_back(u);
    }
    if (sorted.size() != ops.size()) {
        size_t stuck = 0;
        for (size_t i = 0; i < ops.size(); ++i)
            if (pending[i] > 0) stuck = ops[i]->id;
        return fail(dnnl_invalid_graph, __func__, "the graph has a cycle through op %zu", stuck);
    }
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn

using namespace anydnn;
using namespace anydnn::graph;

status_t dnnl_graph_graph::add_op(const op_t &op) {
    ANYDNN_REQUIRE(!finalized, dnnl_invalid_graph, "the graph is finalized: no more ops");
    for (const auto &o : ops)
        ANYDNN_REQUIRE(o->id != op.id, dnnl_invalid_graph, "op id %zu is already in the graph",
                op.id);
    ANYDNN_CHECK(validate_op(op));
    auto copy = std::make_shared<op_t>(op);
    ANYDNN_CHECK(infer_op_shapes(*copy));
    ops.push_back(std::move(copy));
    return dnnl_success;
}

status_t dnnl_graph_graph::finalize() {
    if (finalized) return dnnl_success;
    std::vector<std::shared_ptr<op_t>> sorted;
    ANYDNN_CHECK(topo_order(ops, sorted));
    // Each value has one type; shapes flow from producers to consumers.
    std::map<size_t, lt_t> value;
    for (auto &op : sorted) {
        for (auto &in : op->inputs) {
            auto it = value.find(in.id);
            if (it == value.end()) {
                value[in.id] = in;
                continue;
            }
            ANYDNN_REQUIRE(it->second.data_type == in.data_type, dnnl_invalid_graph,
                    "logical tensor %zu is %s where op %zu reads it, %s elsewhere", in.id,
                    dnnl_dt2str(in.data_type), op->id, dnnl_dt2str(it->second.data_type));
            if (!known_shape(in) && known_shape(it->second)) {
                const auto layout = in.layout_type;
                in = it->second;
                if (layout == dnnl_graph_layout_type_any) in.layout_type = layout;
            } else if (known_shape(in) && known_shape(it->second)) {
                ANYDNN_REQUIRE(lt_dims(in) == lt_dims(it->second), dnnl_invalid_shape,
                        "logical tensor %zu is %s where op %zu reads it, %s elsewhere", in.id,
                        dims_str(lt_dims(in)).c_str(), op->id,
                        dims_str(lt_dims(it->second)).c_str());
            }
        }
        ANYDNN_CHECK(infer_op_shapes(*op));
        for (const auto &out : op->outputs) {
            auto it = value.find(out.id);
            if (it != value.end())
                ANYDNN_REQUIRE(it->second.data_type == out.data_type, dnnl_invalid_graph,
                        "logical tensor %zu is %s as output of op %zu, %s elsewhere", out.id,
                        dnnl_dt2str(out.data_type), op->id, dnnl_dt2str(it->second.data_type));
            value[out.id] = out;
        }
    }
    ops = std::move(sorted);
    finalized = true;
    return dnnl_success;
}

status_t dnnl_graph_graph::filter(dnnl_graph_partition_policy_t policy) {
    ANYDNN_REQUIRE(finalized, dnnl_invalid_graph, "the graph is not finalized");
    std::vector<std::shared_ptr<partition_impl_t>> parts;
    ANYDNN_CHECK(make_partitions(ops, policy, engine_kind, fpmath, parts));
    partitions = std::move(parts);
    dump_graph(*this);
    return dnnl_success;
}
