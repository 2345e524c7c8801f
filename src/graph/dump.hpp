// Dump mode (dnnl_graph_set_dump_mode, ONEDNN_GRAPH_DUMP=graph,subgraph): graphs and
// partitions written as JSON files in the working directory.
#pragma once

#include <string>
#include <vector>

#include "graph/partition.hpp"

struct dnnl_graph_graph;

namespace anydnn {
namespace graph {

unsigned dump_mode(); // dnnl_graph_dump_mode_t bits; the environment gives the first value
void set_dump_mode(unsigned modes);

// JSON of ops with their ports: oneDNN's graph JSON, the format benchdnn --graph reads.
std::string to_json(const std::vector<std::shared_ptr<const op_t>> &ops,
        dnnl_engine_kind_t engine_kind, dnnl_fpmath_mode_t fpmath, bool fpmath_apply_to_int,
        const std::vector<lt_t> &inputs, const std::vector<lt_t> &outputs);

void dump_graph(const dnnl_graph_graph &g); // graph-<id>.json when mode has graph
void dump_partition(const partition_impl_t &p); // partition-<id>.json when mode has subgraph

} // namespace graph
} // namespace anydnn
