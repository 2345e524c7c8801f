// The causal mask as oneDNN's graph patterns compute it on the attention scores S, recognised
// once for every engine (the partitioner groups its ops, the sdpa plan reads its kind):
//   GreaterEqual(GenIndex(S, axis -2), GenIndex(S, axis -1)) -> C (key j seen from row i: i >= j)
//   or, aligned bottom-right, GreaterEqual(Subtract(Add(GenIndex(S, -2), Lk), Lq), GenIndex(S, -1))
//   with Lk, Lq one s32 value each (key and query lengths: i + Lk - Lq >= j); then
//   Select(C, S, -inf)                     (masked scores directly), or
//   Add(S, Select(C, 0, -inf))             (an implicit additive mask).
// The -inf and 0 operands are taken as named: they are inputs the kernels do not read.
#pragma once

#include <map>
#include <vector>

#include "graph/op.hpp"

namespace anydnn {
namespace graph {

struct causal_mask_t {
    int kind = 0; // sdpa_plan_t::causal: 1 top-left, 2 bottom-right (0 when no match)
    size_t key_len = 0, query_len = 0; // bottom-right: the values Lk and Lq
    std::vector<const op_t *> ops; // GenIndex x2, [Add, Subtract,] GreaterEqual, Select [, Add]
    const op_t *out = nullptr; // the op whose output holds the masked scores
};

// The causal mask applied to value `scores`, read through `consumers` (every op reading a
// value); kind 0 when the readers of `scores` are not exactly such a subgraph.
causal_mask_t match_causal_mask(
        size_t scores, const std::map<size_t, std::vector<const op_t *>> &consumers);

} // namespace graph
} // namespace anydnn
