// dnnl_graph_graph: the ops the user added, their connections (by logical tensor id), and
// the partitions the last filter produced.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "graph/op.hpp"
#include "graph/partition.hpp"

namespace anydnn {
namespace graph {

// Ops connected through logical tensor ids: who produces and who consumes each value.
struct connectivity_t {
    explicit connectivity_t(const std::vector<std::shared_ptr<op_t>> &ops);
    std::map<size_t, const op_t *> producer;
    std::map<size_t, std::vector<const op_t *>> consumers;
};

// Topological order of ops; invalid_graph with a reason on a cycle or a value produced twice.
status_t topo_order(const std::vector<std::shared_ptr<op_t>> &ops,
        std::vector<std::shared_ptr<op_t>> &sorted);

size_t next_graph_id();

// Groups ops into partitions: fusion patterns (policy fusion) or one op each (debug).
status_t make_partitions(const std::vector<std::shared_ptr<op_t>> &ops,
        dnnl_graph_partition_policy_t policy, dnnl_engine_kind_t engine_kind,
        dnnl_fpmath_mode_t fpmath, std::vector<std::shared_ptr<partition_impl_t>> &parts);

} // namespace graph
} // namespace anydnn

struct dnnl_graph_graph : public anydnn::graph::graph_object_t {
    dnnl_graph_graph(dnnl_engine_kind_t kind, dnnl_fpmath_mode_t mode)
        : graph_object_t(anydnn::graph::handle_kind::graph), engine_kind(kind), fpmath(mode) {}

    anydnn::status_t add_op(const anydnn::graph::op_t &op);
    anydnn::status_t finalize();
    anydnn::status_t filter(dnnl_graph_partition_policy_t policy);

    dnnl_engine_kind_t engine_kind;
    dnnl_fpmath_mode_t fpmath;
    bool fpmath_apply_to_int = false;
    bool finalized = false;
    std::vector<std::shared_ptr<anydnn::graph::op_t>> ops; // topological after finalize
    std::vector<std::shared_ptr<anydnn::graph::partition_impl_t>> partitions;
    size_t id = anydnn::graph::next_graph_id(); // for dump file names
};
