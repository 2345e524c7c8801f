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

// One s32 value (a length of the bottom-right form).
bool s32_scalar(const lt_t &lt) {
    if (lt.data_type != dnnl_s32 || lt.ndims < 0) return false;
    int64_t n = 1;
    for (int i = 0; i < lt.ndims; ++i)
        n *= lt.dims[i];
    return n == 1;
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
    // The row index, shifted by Lk - Lq in the bottom-right form.
    size_t shifted = row->outputs[0].id;
    const op_t *ge = only_reader(consumers, shifted);
    std::vector<const op_t *> shift;
    if (ge && ge->kind == dnnl_graph_op_add && ge->inputs.size() == 2) {
        const op_t *add = ge;
        const op_t *sub = only_reader(consumers, add->outputs[0].id);
        const int at = add->inputs[0].id == shifted ? 1 : 0;
        if (add->inputs[1 - at].id != shifted || !s32_scalar(add->inputs[at]) || !sub
                || sub->kind != dnnl_graph_op_subtract || sub->inputs.size() != 2
                || sub->inputs[0].id != add->outputs[0].id || !s32_scalar(sub->inputs[1]))
            return none;
        m.key_len = add->inputs[at].id;
        m.query_len = sub->inputs[1].id;
        shift = {add, sub};
        shifted = sub->outputs[0].id;
        ge = only_reader(consumers, shifted);
    }
    if (!ge || ge != only_reader(consumers, col->outputs[0].id)
            || ge->kind != dnnl_graph_op_greater_equal || ge->inputs.size() != 2
            || ge->inputs[0].id != shifted || ge->inputs[1].id != col->outputs[0].id)
        return none;
    const op_t *sel = only_reader(consumers, ge->outputs[0].id);
    if (!sel || sel->kind != dnnl_graph_op_select || sel->inputs.size() != 3
            || sel->inputs[0].id != ge->outputs[0].id)
        return none;
    m.ops = {row, col};
    m.ops.insert(m.ops.end(), shift.begin(), shift.end());
    m.ops.push_back(ge);
    m.ops.push_back(sel);
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
    m.kind = shift.empty() ? 1 : 2;
    return m;
}

} // namespace graph
} // namespace anydnn
