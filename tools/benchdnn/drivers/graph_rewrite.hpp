// oneDNN benchdnn's graph case rewriting (--in-shapes, --mb, --op-attrs, --dt, --op-kind,
// --tensor-property, --attr-fpmath): one alternative of each knob applied to a case read from
// JSON before it is built. Shapes the rewrite may change are marked unknown, for the library's
// shape inference to fill in (graph.cpp reads them back from the finalized graph).
#pragma once

#include <string>
#include <vector>

#include "graph_case.hpp"

namespace benchdnn {

struct graph_rewrite_t {
    std::string in_shapes;       // ID:SHAPE[*TAG|*STRIDES] joined by '+'; ID:*TAG, ID:scalar
    int64_t mb = 0;              // 0: as written
    std::string op_attrs;        // OP_ID:NAME:VALUE[*NAME:VALUE] joined by '+'
    std::string dt;              // DT for every floating-point tensor, or ID:DT joined by '+'
    std::string op_kind;         // OP_ID:KIND joined by '+'; KIND undef removes the op
    std::string tensor_property; // ID:PROPERTY joined by '+'
    std::string fpmath;          // MODE[:APPLY_TO_INT]

    bool empty() const;
    // The knobs as benchdnn writes them ("--mb=2 --dt=f16 "), for the repro line.
    std::string knobs() const;
};

// Applies `r` to `c`; throws std::invalid_argument naming the knob for a value that does not
// parse or names no tensor or op of the case. Returns true when the shapes of values no
// rewrite named must be inferred again (they are then marked unknown_shape).
bool apply_graph_rewrite(graph_case_t &c, const graph_rewrite_t &r);

// `text` split at `sep` (an empty text gives one empty piece).
std::vector<std::string> split_rewrite(const std::string &text, char sep);

} // namespace benchdnn
