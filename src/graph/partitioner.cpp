// Fusion patterns: which ops go into one partition. Lowering (lower.cpp) decides how a
// partition runs; a pattern only has to name a convex group of ops worth compiling together.
#include <algorithm>
#include <atomic>
#include <functional>
#include <set>

#include "graph/graph.hpp"
#include "graph/sdpa_causal.hpp"

namespace anydnn {
namespace graph {

size_t next_partition_id() {
    static std::atomic<size_t> id {0};
    return id++;
}

void set_ports(partition_impl_t &p, const std::vector<std::shared_ptr<op_t>> &all_ops) {
    std::set<const op_t *> inside;
    std::set<size_t> produced;
    for (const auto &op : p.ops) {
        inside.insert(op.get());
        for (const auto &lt : op->outputs)
            produced.insert(lt.id);
    }
    std::map<size_t, int> outside_uses, uses;
    for (const auto &op : all_ops)
        for (const auto &lt : op->inputs) {
            ++uses[lt.id];
            if (!inside.count(op.get())) ++outside_uses[lt.id];
        }
    std::set<size_t> seen;
    p.inputs.clear();
    p.outputs.clear();
    for (const auto &op : p.ops)
        for (const auto &lt : op->inputs)
            if (!produced.count(lt.id) && seen.insert(lt.id).second) p.inputs.push_back(lt);
    for (const auto &op : p.ops)
        for (const auto &lt : op->outputs)
            if ((outside_uses[lt.id] > 0 || uses[lt.id] == 0) && seen.insert(lt.id).second)
                p.outputs.push_back(lt);
}

namespace {

bool is_post_eltwise(dnnl_graph_op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_abs:
        case dnnl_graph_op_clamp:
        case dnnl_graph_op_elu:
        case dnnl_graph_op_exp:
        case dnnl_graph_op_gelu:
        case dnnl_graph_op_hard_sigmoid:
        case dnnl_graph_op_hard_swish:
        case dnnl_graph_op_leaky_relu:
        case dnnl_graph_op_log:
        case dnnl_graph_op_mish:
        case dnnl_graph_op_relu:
        case dnnl_graph_op_round:
        case dnnl_graph_op_sigmoid:
        case dnnl_graph_op_softplus:
        case dnnl_graph_op_sqrt:
        case dnnl_graph_op_square:
        case dnnl_graph_op_tanh:
        case dnnl_graph_op_reciprocal: return true;
        default: return false;
    }
}

bool is_post_binary(dnnl_graph_op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_add:
        case dnnl_graph_op_subtract:
        case dnnl_graph_op_multiply:
        case dnnl_graph_op_divide:
        case dnnl_graph_op_maximum:
        case dnnl_graph_op_minimum: return true;
        default: return false;
    }
}

struct matcher_t {
    const std::vector<std::shared_ptr<op_t>> &ops;
    connectivity_t conn;
    std::set<const op_t *> assigned;
    std::map<const op_t *, std::shared_ptr<op_t>> owner;

    explicit matcher_t(const std::vector<std::shared_ptr<op_t>> &ops) : ops(ops), conn(ops) {
        for (const auto &op : ops)
            owner[op.get()] = op;
    }

    bool free(const op_t *op) const { return op && !assigned.count(op); }

    // The one op reading value `id`, when there is exactly one.
    const op_t *sole_consumer(size_t id) const {
        auto it = conn.consumers.find(id);
        if (it == conn.consumers.end() || it->second.size() != 1) return nullptr;
        return free(it->second[0]) ? it->second[0] : nullptr;
    }
    const op_t *producer(size_t id) const {
        auto it = conn.producer.find(id);
        return it == conn.producer.end() || !free(it->second) ? nullptr : it->second;
    }
    // Producer of `id` when that op feeds only `user`.
    const op_t *exclusive_producer(size_t id, dnnl_graph_op_kind_t kind) const {
        const op_t *p = producer(id);
        if (!p || p->kind != kind || p->outputs.size() != 1) return nullptr;
        auto it = conn.consumers.find(id);
        return it->second.size() == 1 ? p : nullptr;
    }

    // No path leaves the group and comes back: otherwise it cannot run as one unit.
    bool convex(const std::set<const op_t *> &group) const {
        std::vector<const op_t *> stack;
        std::set<const op_t *> visited;
        for (const op_t *op : group)
            for (const auto &lt : op->outputs) {
                auto it = conn.consumers.find(lt.id);
                if (it == conn.consumers.end()) continue;
                for (const op_t *c : it->second)
                    if (!group.count(c)) stack.push_back(c);
            }
        while (!stack.empty()) {
            const op_t *op = stack.back();
            stack.pop_back();
            if (group.count(op)) return false;
            if (!visited.insert(op).second) continue;
            for (const auto &lt : op->outputs) {
                auto it = conn.consumers.find(lt.id);
                if (it == conn.consumers.end()) continue;
                for (const op_t *c : it->second)
                    stack.push_back(c);
            }
        }
        return true;
    }

    // Follows eltwise / binary ops, each the sole reader of the previous value, and an
    // optional final Quantize or TypeCast. Binary second operands may be dequantized.
    void post_chain(const op_t *from, std::vector<const op_t *> &group, bool allow_bias) {
        const op_t *cur = from;
        bool bias_allowed = allow_bias;
        while (cur->outputs.size() >= 1) {
            const op_t *next = sole_consumer(cur->outputs[0].id);
            if (!next) return;
            if (next->kind == dnnl_graph_op_bias_add && bias_allowed
                    && next->inputs[0].id == cur->outputs[0].id) {
                bias_allowed = false;
            } else if (is_post_eltwise(next->kind)) {
            } else if (is_post_binary(next->kind)) {
                const size_t other = next->inputs[0].id == cur->outputs[0].id
                        ? next->inputs[1].id
                        : next->inputs[0].id;
                if (next->inputs[0].id == next->inputs[1].id) return;
                if (const op_t *dq = exclusive_producer(other, dnnl_graph_op_dequantize))
                    group.push_back(dq);
                bias_allowed = false;
            } else if (next->kind == dnnl_graph_op_quantize
                    || next->kind == dnnl_graph_op_type_cast) {
                group.push_back(next);
                return;
            } else {
                return;
            }
            group.push_back(next);
            cur = next;
        }
    }

    std::shared_ptr<partition_impl_t> take(
            const std::vector<const op_t *> &group, const char *pattern) {
        std::set<const op_t *> set(group.begin(), group.end());
        for (const op_t *op : set)
            if (!free(op)) return nullptr;
        if (!convex(set)) return nullptr;
        auto p = std::make_shared<partition_impl_t>();
        p->pattern = pattern;
        for (const auto &op : ops) // keep the graph's topological order
            if (set.count(op.get())) p->ops.push_back(op);
        for (const op_t *op : set)
            assigned.insert(op);
        return p;
    }

    // MatMul -> [Multiply|Divide scale] -> [Add mask | Select | causal mask] -> SoftMax
    // -> MatMul; the causal mask as sdpa_causal.hpp recognises it; StaticReshapes of Q, K, V
    // and the output. `training`: a SoftMax with its statistics output too (the training
    // forward, whose fused kernels only GPU engines have) is taken as well.
    std::vector<const op_t *> sdpa(const op_t *qk, bool training) {
        std::vector<const op_t *> g {qk};
        size_t scores = qk->outputs[0].id;
        const op_t *cur = sole_consumer(scores);
        if (cur && (cur->kind == dnnl_graph_op_multiply || cur->kind == dnnl_graph_op_divide)) {
            g.push_back(cur);
            scores = cur->outputs[0].id;
            cur = sole_consumer(scores);
        }
        const causal_mask_t causal = cur ? causal_mask_t() : match_causal_mask(scores, conn.consumers);
        if (causal.kind) {
            g.insert(g.end(), causal.ops.begin(), causal.ops.end());
            cur = sole_consumer(causal.out->outputs[0].id);
        } else if (cur && (cur->kind == dnnl_graph_op_add || cur->kind == dnnl_graph_op_select)) {
            g.push_back(cur);
            cur = sole_consumer(cur->outputs[0].id);
        }
        if (!cur || cur->kind != dnnl_graph_op_softmax
                || !(cur->outputs.size() == 1 || (training && cur->outputs.size() == 2)))
            return {};
        g.push_back(cur);
        const op_t *pv = sole_consumer(cur->outputs[0].id);
        if (!pv || pv->kind != dnnl_graph_op_matmul || pv->inputs[0].id != cur->outputs[0].id)
            return {};
        g.push_back(pv);
        // GQA over 4D tensors: StaticReshapes to 5D of Q, K, V and back of the output.
        for (size_t id : {qk->inputs[0].id, qk->inputs[1].id, pv->inputs[1].id})
            if (const op_t *r = exclusive_producer(id, dnnl_graph_op_static_reshape))
                g.push_back(r);
        const op_t *out = sole_consumer(pv->outputs[0].id);
        if (out && out->kind == dnnl_graph_op_static_reshape) g.push_back(out);
        return g;
    }

    // down(up(x) * act(gate(x))) with act a unary op or x * sigmoid(x) (swish).
    std::vector<const op_t *> gated_mlp(const op_t *down) {
        const op_t *mul = exclusive_producer(down->inputs[0].id, dnnl_graph_op_multiply);
        if (!mul) return {};
        std::vector<const op_t *> g {down, mul};
        const op_t *up = nullptr, *gate = nullptr;
        for (int side = 0; side < 2 && !(up && gate); ++side) {
            const op_t *a = producer(mul->inputs[side].id);
            const op_t *b = producer(mul->inputs[1 - side].id);
            if (!a || !b || a->kind != dnnl_graph_op_matmul) continue;
            std::vector<const op_t *> act;
            const op_t *gm = nullptr;
            if (b->kind == dnnl_graph_op_multiply) { // swish: gate * sigmoid(gate)
                for (int k = 0; k < 2 && !gm; ++k) {
                    const op_t *s = producer(b->inputs[k].id);
                    const op_t *m = producer(b->inputs[1 - k].id);
                    if (s && m && s->kind == dnnl_graph_op_sigmoid && m->kind == dnnl_graph_op_matmul
                            && s->inputs[0].id == m->outputs[0].id) {
                        gm = m;
                        act = {b, s};
                    }
                }
            } else if (is_post_eltwise(b->kind)) {
                const op_t *m = producer(b->inputs[0].id);
                if (m && m->kind == dnnl_graph_op_matmul) {
                    gm = m;
                    act = {b};
                }
            }
            if (!gm || gm == a || gm->inputs[0].id != a->inputs[0].id) continue;
            up = a;
            gate = gm;
            g.insert(g.end(), act.begin(), act.end());
        }
        if (!up || !gate) return {};
        g.push_back(up);
        g.push_back(gate);
        return g;
    }

    std::vector<const op_t *> anchored(const op_t *anchor) {
        std::vector<const op_t *> g {anchor};
        if (anchor->kind == dnnl_graph_op_matmul || anchor->kind == dnnl_graph_op_convolution
                || anchor->kind == dnnl_graph_op_conv_transpose) {
            for (size_t i = 0; i < 2 && i < anchor->inputs.size(); ++i)
                if (const op_t *dq
                        = exclusive_producer(anchor->inputs[i].id, dnnl_graph_op_dequantize))
                    g.push_back(dq);
            post_chain(anchor, g, anchor->inputs.size() < 3);
        } else {
            post_chain(anchor, g, false);
        }
        return g;
    }
};

bool is_norm(dnnl_graph_op_kind_t k) {
    return k == dnnl_graph_op_layer_norm || k == dnnl_graph_op_rms_norm
            || k == dnnl_graph_op_group_norm || k == dnnl_graph_op_batch_norm_inference;
}

} // namespace

status_t make_partitions(const std::vector<std::shared_ptr<op_t>> &ops,
        dnnl_graph_partition_policy_t policy, dnnl_engine_kind_t engine_kind,
        dnnl_fpmath_mode_t fpmath, std::vector<std::shared_ptr<partition_impl_t>> &parts) {
    matcher_t m(ops);
    parts.clear();
    auto add = [&](std::shared_ptr<partition_impl_t> p) {
        if (!p) return false;
        p->engine_kind = engine_kind;
        p->fpmath = fpmath;
        // The ops of a causal mask (GenIndex) have no primitive: only the engines' fused sdpa
        // kernels run them.
        p->supported = p->pattern == "sdpa"
                || std::all_of(p->ops.begin(), p->ops.end(),
                        [](const std::shared_ptr<const op_t> &op) { return lowerable(*op); });
        set_ports(*p, ops);
        parts.push_back(std::move(p));
        return true;
    };
    auto try_pattern = [&](const std::vector<const op_t *> &g, const char *name) {
        return g.size() > 1 && add(m.take(g, name));
    };

    if (policy == dnnl_graph_partition_policy_fusion) {
        for (const auto &op : ops)
            if (m.free(op.get()) && op->kind == dnnl_graph_op_matmul)
                try_pattern(m.sdpa(op.get(), engine_kind == dnnl_gpu), "sdpa");
        for (const auto &op : ops)
            if (m.free(op.get()) && op->kind == dnnl_graph_op_matmul)
                try_pattern(m.gated_mlp(op.get()), "gated_mlp");
        for (const auto &op : ops) {
            if (!m.free(op.get())) continue;
            const auto k = op->kind;
            if (k == dnnl_graph_op_matmul || k == dnnl_graph_op_convolution
                    || k == dnnl_graph_op_conv_transpose)
                try_pattern(m.anchored(op.get()),
                        k == dnnl_graph_op_matmul ? "matmul_post_ops"
                                : k == dnnl_graph_op_convolution ? "conv_post_ops"
                                                                   : "conv_transpose_post_ops");
        }
        for (const auto &op : ops)
            if (m.free(op.get()) && is_norm(op->kind))
                try_pattern(m.anchored(op.get()), "norm_post_ops");
        for (const auto &op : ops)
            if (m.free(op.get()) && (is_post_binary(op->kind) || is_post_eltwise(op->kind)))
                try_pattern(m.anchored(op.get()), "eltwise_binary_chain");
    }
    for (const auto &op : ops) {
        if (!m.free(op.get()) || op->kind == dnnl_graph_op_end) continue;
        add(m.take({op.get()}, "single_op"));
    }
    // Partitions in an order they can run in: producers first, then by first op.
    std::map<const op_t *, size_t> pos;
    for (size_t i = 0; i < ops.size(); ++i)
        pos[ops[i].get()] = i;
    std::stable_sort(parts.begin(), parts.end(), [&](const auto &a, const auto &b) {
        return pos[a->ops[0].get()] < pos[b->ops[0].get()];
    });
    std::map<const op_t *, size_t> part_of;
    for (size_t i = 0; i < parts.size(); ++i)
        for (const auto &op : parts[i]->ops)
            part_of[op.get()] = i;
    std::vector<std::set<size_t>> deps(parts.size());
    for (size_t i = 0; i < parts.size(); ++i)
        for (const auto &op : parts[i]->ops)
            for (const auto &lt : op->inputs) {
                auto it = m.conn.producer.find(lt.id);
                if (it != m.conn.producer.end() && part_of.count(it->second)
                        && part_of[it->second] != i)
                    deps[i].insert(part_of[it->second]);
            }
    std::vector<std::shared_ptr<partition_impl_t>> ordered;
    std::vector<bool> placed(parts.size(), false);
    while (ordered.size() < parts.size()) {
        bool progress = false;
        for (size_t i = 0; i < parts.size(); ++i) {
            if (placed[i]) continue;
            const bool ready = std::all_of(deps[i].begin(), deps[i].end(),
                    [&](size_t d) { return placed[d]; });
            if (!ready) continue;
            placed[i] = true;
            ordered.push_back(parts[i]);
            progress = true;
            break;
        }
        ANYDNN_REQUIRE(progress, dnnl_runtime_error, "partitions depend on each other in a cycle");
    }
    parts = std::move(ordered);
    for (auto &p : parts)
        p->id = next_partition_id();
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
