// Runs a graph case built in memory the way --graph runs one read from JSON (build, partition,
// compile, execute, check against graph_ref): the --sdpa driver states its problems as graphs.
#pragma once

#include <map>
#include <string>

#include "graph_case.hpp"

namespace benchdnn {

// Reports one problem with `repro`; graph inputs named in `constants` hold that value in every
// element (an attention scale, the -inf of a causal mask), the others random values.
void run_graph_case(const graph_case_t &c, const std::string &repro,
        const std::map<size_t, double> &constants);

} // namespace benchdnn
