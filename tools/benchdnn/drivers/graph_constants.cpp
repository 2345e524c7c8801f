#include "graph_constants.hpp"

#include <limits>

#include "test_mem.hpp"

namespace benchdnn {

namespace {

const graph_op_t *producer(const graph_case_t &c, size_t id) {
    for (const auto &op : c.ops)
        for (const auto &lt : op.outputs)
            if (lt.id == id) return &op;
    return nullptr;
}

bool is_graph_input(const graph_case_t &c, size_t id) {
    return producer(c, id) == nullptr;
}

bool single(const graph_lt_t &lt) {
    return product(lt.shape) == 1;
}

// The GenIndex a value comes from through the bottom-right shift (Add, then Subtract).
const graph_op_t *gen_index_of(const graph_case_t &c, size_t id) {
    for (int hops = 0; hops < 3; ++hops) {
        const graph_op_t *p = producer(c, id);
        if (!p) return nullptr;
        if (p->kind == dnnl_graph_op_gen_index) return p;
        if ((p->kind != dnnl_graph_op_add && p->kind != dnnl_graph_op_subtract)
                || p->inputs.size() != 2)
            return nullptr;
        id = p->inputs[is_graph_input(c, p->inputs[0].id) ? 1 : 0].id;
    }
    return nullptr;
}

// The length of the scores along axis `from_end` counted from the last (1: keys, 2: queries).
double scores_len(const graph_op_t &gen, int from_end) {
    const dims_t &d = gen.inputs.at(0).shape;
    return d.size() >= size_t(from_end) ? double(d[d.size() - from_end]) : 0;
}

} // namespace

std::map<size_t, double> pattern_constants(const graph_case_t &c) {
    std::map<size_t, double> k;
    const double neg_inf = -std::numeric_limits<double>::infinity();
    for (const auto &op : c.ops) {
        if (op.kind != dnnl_graph_op_select || op.inputs.size() != 3) continue;
        const graph_op_t *ge = producer(c, op.inputs[0].id);
        if (!ge || ge->kind != dnnl_graph_op_greater_equal || ge->inputs.size() != 2) continue;
        const graph_op_t *row = gen_index_of(c, ge->inputs[0].id);
        if (!row || !gen_index_of(c, ge->inputs[1].id)) continue;
        // Select(C, S, -inf) or Select(C, 0, -inf)
        if (is_graph_input(c, op.inputs[2].id) && single(op.inputs[2])) k[op.inputs[2].id] = neg_inf;
        if (is_graph_input(c, op.inputs[1].id) && single(op.inputs[1])) k[op.inputs[1].id] = 0;
        // row + Lk - Lq: the shift that aligns the mask bottom-right
        const graph_op_t *sub = producer(c, ge->inputs[0].id);
        if (sub && sub->kind == dnnl_graph_op_subtract && sub->inputs.size() == 2
                && is_graph_input(c, sub->inputs[1].id)) {
            k[sub->inputs[1].id] = scores_len(*row, 2);
            const graph_op_t *add = producer(c, sub->inputs[0].id);
            if (add && add->kind == dnnl_graph_op_add && add->inputs.size() == 2)
                for (const auto &in : add->inputs)
                    if (is_graph_input(c, in.id)) k[in.id] = scores_len(*row, 1);
        }
    }
    return k;
}

} // namespace benchdnn
