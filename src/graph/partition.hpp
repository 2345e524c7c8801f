// A partition: ops grouped to be compiled and run as one unit, with its input and output
// ports; dnnl_graph_partition is the user's handle on one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/op.hpp"

namespace anydnn {
namespace graph {

struct partition_impl_t {
    size_t id = 0;
    dnnl_engine_kind_t engine_kind = dnnl_cpu;
    dnnl_fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    std::vector<std::shared_ptr<const op_t>> ops; // topological order
    std::vector<lt_t> inputs, outputs;
    bool supported = true;
    std::string pattern; // name of the fusion pattern that formed it, for verbose and dumps
};

// Next partition id (unique in the process).
size_t next_partition_id();
// Ports of a group of ops: values read but not produced inside (inputs), values produced
// inside and read outside or by no op (outputs), in first-use order.
void set_ports(partition_impl_t &p, const std::vector<std::shared_ptr<op_t>> &all_ops);
// Whether the library can lower every op of the partition (support by kind; data types and
// shapes are checked at compile).
bool lowerable(const op_t &op);

} // namespace graph
} // namespace anydnn

struct dnnl_graph_partition : public anydnn::graph::graph_object_t {
    explicit dnnl_graph_partition(std::shared_ptr<const anydnn::graph::partition_impl_t> impl)
        : graph_object_t(anydnn::graph::handle_kind::partition), impl(std::move(impl)) {}
    std::shared_ptr<const anydnn::graph::partition_impl_t> impl;
};
