// Recognising the causal mask subgraph of an sdpa pattern (see sdpa_causal.hpp).
#include "graph/sdpa_causal.hpp"

namespace anydnn {
namespace graph {

namespace {

const std::vector<const op_t *> &readers(
        const std::map<size_t, std::vector<const op_t *>> &consumers, size_t id) {
    static const std::vector<const op_t *> none;
    auto it = consumers.find(id);
    return it == consumers.end() ? none : it->second;
}

const op_t *only_reader(const std::map<size_t, std::vector<const op_t *>> &consumers, size_t id) {
    const auto &r = readers(consumers, id);
    return r.size() == 1 ? r[0] : nullptr;
}

// The axis a GenIndex counts along, made non-negative against its input's rank.
int64_t index_axis(const op_t &gen) {
    const int64_t nd = gen.inputs[0].ndims, axis = gen.s64(dnnl_graph_op_attr_axis, 0);
    return axis < 0 ? axis + nd : axis;
}

} // namespace

causal_mask_t match_causal_mask(
        size_t scores, const std::map<size_t, std::vector<const op_t *>> &consumers) {
    causal_mask_t none, m;
    const auto &users = readers(consumers, scores);
    if (users.size() != 3) return none;
    const op_t *row = nullptr, *col = nullptr, *user = nullptr;
    for (const op_t *op : users) {
        if (op->kind == dnnl_graph_op_gen_index && op->inputs.size() == 1
                && op->outputs.size() == 1 && op->inputs[0].ndims >= 2) {
            const int64_t nd = op->inputs[0].ndims, axis = index_axis(*op);
            if (axis == nd - 2 && !row) row = op;
            else if (axis == nd - 1 && !col) col = op;
            else return none;
        } else if (!user) {
            user = op;
        } else {
            return none;
        }
    }
    if (!row || !col || !user) return none;
    const op_t *ge = only_reader(consumers, row->outputs[0].id);
    if (!ge || ge != only_reader(consumers, col->outputs[0].id)
            || ge->kind != dnnl_graph_op_greater_equal || ge->inputs.size() != 2
            || ge->inputs[0].id != row->outputs[0].id || ge->inputs[1].id != col->outputs[0].id)
        return none;
    const op_t *sel = only_reader(consumers, ge->outputs[0].id);
    if (!sel || sel->kind != dnnl_graph_op_select || sel->inputs.size() != 3
            || sel->inputs[0].id != ge->outputs[0].id)
        return none;
    m.ops = {row, col, ge, sel};
    if (sel == user) {
        // Select(C, S, -inf): S must be the value kept where C holds.
        if (sel->inputs[1].id != scores || sel->inputs[2].id == scores) return none;
        m.out = sel;
    } else {
        // Add(S, Select(C, 0, -inf)): the Select reads only the condition and two constants.
        if (sel->inputs[1].id == scores || sel->inputs[2].id == scores) return none;
        if (user->kind != dnnl_graph_op_add || user->inputs.size() != 2
                || only_reader(consumers, sel->outputs[0].id) != user)
            return none;
        const bool fits = (user->inputs[0].id == scores && user->inputs[1].id == sel->outputs[0].id)
                || (user->inputs[1].id == scores && user->inputs[0].id == sel->outputs[0].id);
        if (!fits) return none;
        m.ops.push_back(user);
        m.out = user;
    }
    m.kind = 1;
    return m;
}

} // namespace graph
} // namespace anydnn
