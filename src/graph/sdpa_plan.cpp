// Reading the sdpa chain of a partition into an sdpa_plan_t (see sdpa_plan.hpp).
#include "graph/sdpa_plan.hpp"

#include <algorithm>

#include "graph/lower.hpp"
#include "graph/sdpa_causal.hpp"

namespace anydnn {
namespace graph {

namespace {

bool batch_fits(const memory_desc_t &md, const dims_t &out_batch) {
    const int nb = static_cast<int>(out_batch.size()), mb = md.ndims - 2;
    if (mb > nb || mb < 0) return false;
    for (int j = 0; j < mb; ++j) {
        const dim_t d = md.dims[j], o = out_batch[j + nb - mb];
        if (d != o && d != 1) return false;
    }
    return true;
}

bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

// The memory of plain strided `src` seen with `dims` (same element count), as a reshape that
// copies nothing would: each run of src dims that are laid out one inside the other maps onto
// the run of new dims of the same element count. False where the layout has no such view.
bool reshape_view(const memory_desc_t &src, const dims_t &dims, memory_desc_t &view) {
    if (src.format_kind != dnnl_blocked || src.blocking.inner_nblks != 0) return false;
    const int n = static_cast<int>(dims.size());
    dims_t strides(n, 1);
    int d = n - 1;
    dim_t base = src.ndims ? src.blocking.strides[src.ndims - 1] : 1, src_count = 1, new_count = 1;
    for (int i = src.ndims - 1; i >= 0; --i) {
        src_count *= src.dims[i];
        const bool run_ends = i == 0
                || (src.dims[i - 1] != 1 && src.blocking.strides[i - 1] != src_count * base);
        if (!run_ends) continue;
        while (d >= 0 && (new_count < src_count || dims[d] == 1)) {
            strides[d] = new_count * base;
            new_count *= dims[d];
            --d;
        }
        if (new_count != src_count) return false;
        if (i > 0) {
            base = src.blocking.strides[i - 1];
            src_count = new_count = 1;
        }
    }
    for (; d >= 0; --d) // leading unit dims
        if (dims[d] != 1) return false;
    view = src;
    view.ndims = n;
    for (int i = 0; i < n; ++i) {
        view.dims[i] = view.padded_dims[i] = dims[i];
        view.padded_offsets[i] = 0;
        view.blocking.strides[i] = strides[i];
    }
    return true;
}

} // namespace

std::vector<dim_t> batch_strides(const memory_desc_t &md, const dims_t &out_batch) {
    const int nb = static_cast<int>(out_batch.size());
    const int mb = md.ndims - 2;
    std::vector<dim_t> s(nb, 0);
    for (int i = 0; i < nb; ++i) {
        const int j = i - (nb - mb);
        if (j >= 0 && md.dims[j] != 1) s[i] = md.blocking.strides[j];
    }
    return s;
}

status_t lowering_t::plan_sdpa(sdpa_plan_t &p) const {
    // The chain QK -> [scale] -> [mask | causal mask] -> SoftMax -> PV, in topological order;
    // StaticReshapes of Q, K, V and of the output (GQA in 5D over 4D tensors) stand aside.
    std::vector<const op_t *> chain, reshapes;
    for (const auto &op : ops)
        (op->kind == dnnl_graph_op_static_reshape ? reshapes : chain).push_back(op.get());
    ANYDNN_REQUIRE(chain.size() >= 3 && chain.size() <= 12 && reshapes.size() <= 4,
            dnnl_unimplemented, "not an sdpa chain");
    const op_t &qk = *chain.front(), &pv = *chain.back(), &sm = *chain[chain.size() - 2];
    const op_t *scale = nullptr, *mask = nullptr;
    ANYDNN_REQUIRE(qk.outputs.size() == 1, dnnl_unimplemented, "sdpa: not a plain QK matmul");
    for (size_t i = 1; i + 2 < chain.size(); ++i) {
        const op_t *o = chain[i];
        if ((o->kind == dnnl_graph_op_multiply || o->kind == dnnl_graph_op_divide)
                && (o->inputs[0].id == qk.outputs[0].id || o->inputs[1].id == qk.outputs[0].id))
            scale = o;
    }
    const size_t scores = scale ? scale->outputs[0].id : qk.outputs[0].id;
    const causal_mask_t causal = match_causal_mask(scores, consumers);
    for (size_t i = 1; i + 2 < chain.size(); ++i) {
        const op_t *o = chain[i];
        if (o == scale
                || std::find(causal.ops.begin(), causal.ops.end(), o) != causal.ops.end())
            continue;
        if (o->kind == dnnl_graph_op_add && !mask && !causal.kind) mask = o;
        else return fail(dnnl_unimplemented, __func__, "sdpa: %s in the chain", op_kind_name(o->kind));
    }
    ANYDNN_REQUIRE(sm.inputs[0].id == (causal.kind ? causal.out->outputs[0].id
                                               : mask ? mask->outputs[0].id : scores),
            dnnl_unimplemented, "sdpa: the softmax does not read the masked scores");
    p.causal = causal.kind;
    p.causal_lengths = causal.kind == 2;
    ANYDNN_REQUIRE(qk.kind == dnnl_graph_op_matmul && pv.kind == dnnl_graph_op_matmul
                    && sm.kind == dnnl_graph_op_softmax && qk.inputs.size() == 2
                    && pv.inputs.size() == 2 && !qk.flag(dnnl_graph_op_attr_transpose_a)
                    && !pv.flag(dnnl_graph_op_attr_transpose_a),
            dnnl_unimplemented, "sdpa: not a plain QK / softmax / PV chain");
    // A reshaped Q, K, V or output: the kernel reads (writes) the reshape's other side,
    // seen with the matmul's dims.
    auto reshaped = [&](size_t id, bool input, size_t &buffer, memory_desc_t &view) {
        buffer = id;
        view = md(id);
        for (const op_t *r : reshapes) {
            const size_t from = r->inputs[0].id, to = r->outputs[0].id;
            if (input ? to != id : from != id) continue;
            buffer = input ? from : to;
            const memory_desc_t &m = md(id);
            return reshape_view(md(buffer), dims_t(m.dims, m.dims + m.ndims), view);
        }
        return true;
    };
    size_t qv, kv, vv, dv;
    ANYDNN_REQUIRE(reshaped(qk.inputs[0].id, true, qv, p.q) && reshaped(qk.inputs[1].id, true, kv, p.k)
                    && reshaped(pv.inputs[1].id, true, vv, p.v)
                    && reshaped(pv.outputs[0].id, false, dv, p.dst),
            dnnl_unimplemented, "sdpa: a reshape that is not a view of its tensor");
    size_t used = 0;
    for (size_t id : {qv, kv, vv, dv})
        used += std::count_if(reshapes.begin(), reshapes.end(), [&](const op_t *r) {
            return r->inputs[0].id == id || r->outputs[0].id == id;
        });
    ANYDNN_REQUIRE(used == reshapes.size(), dnnl_unimplemented,
            "sdpa: a reshape elsewhere than on Q, K, V or the output");
    // The training forward: the SoftMax's statistics, the partition's other output.
    p.has_stats = sm.outputs.size() == 2;
    const size_t sv = p.has_stats ? sm.outputs[1].id : dv;
    ANYDNN_REQUIRE(out.outputs.size() == (p.has_stats ? 2u : 1u)
                    && std::all_of(out.outputs.begin(), out.outputs.end(),
                            [&](const lt_t &o) { return o.id == dv || o.id == sv; }),
            dnnl_unimplemented, "sdpa: intermediate values are partition outputs");
    const int nd = p.dst.ndims;
    ANYDNN_REQUIRE(nd >= 2 && p.q.ndims == nd && p.k.ndims == nd && p.v.ndims == nd,
            dnnl_unimplemented, "sdpa: Q, K, V and dst differ in rank");
    ANYDNN_REQUIRE(float_type(p.q.data_type) && float_type(p.k.data_type)
                    && float_type(p.v.data_type) && float_type(p.dst.data_type),
            dnnl_unimplemented, "sdpa: floating-point tensors only");
    const int64_t axis = sm.s64(dnnl_graph_op_attr_axis, 1);
    ANYDNN_REQUIRE((axis < 0 ? axis + nd : axis) == nd - 1
                    && sm.str(dnnl_graph_op_attr_mode, "none") == "none",
            dnnl_unimplemented, "sdpa: softmax over the last axis only");
    p.k_transposed = qk.flag(dnnl_graph_op_attr_transpose_b);
    p.v_transposed = pv.flag(dnnl_graph_op_attr_transpose_b);
    p.Sq = p.q.dims[nd - 2];
    p.D = p.q.dims[nd - 1];
    p.Sk = p.k_transposed ? p.k.dims[nd - 2] : p.k.dims[nd - 1];
    p.Dv = p.dst.dims[nd - 1];
    p.batch = dims_t(p.dst.dims, p.dst.dims + nd - 2);
    ANYDNN_REQUIRE(batch_fits(p.q, p.batch) && batch_fits(p.k, p.batch) && batch_fits(p.v, p.batch),
            dnnl_unimplemented, "sdpa: batch dimensions do not broadcast");
    p.values = {qv, kv, vv, dv};
    if (scale) {
        const bool first = scale->inputs[0].id == qk.outputs[0].id;
        const size_t sid = scale->inputs[first ? 1 : 0].id;
        ANYDNN_REQUIRE(nelems(md(sid)) == 1 && float_type(lts.at(sid).data_type)
                        && (first || scale->kind == dnnl_graph_op_multiply),
                dnnl_unimplemented, "sdpa: the scale is not one floating-point value");
        p.has_scale = true;
        p.scale_dt = lts.at(sid).data_type;
        p.divide = scale->kind == dnnl_graph_op_divide;
        p.values.push_back(sid);
    }
    if (mask) {
        const size_t prev = scale ? scale->outputs[0].id : qk.outputs[0].id;
        ANYDNN_REQUIRE(mask->inputs[0].id == prev || mask->inputs[1].id == prev,
                dnnl_unimplemented, "sdpa: the mask is not added to the scores");
        const size_t mid = mask->inputs[0].id == prev ? mask->inputs[1].id : mask->inputs[0].id;
        p.mask = expand_md(md(mid), nd);
        ANYDNN_REQUIRE(p.mask.ndims == nd && float_type(p.mask.data_type)
                        && batch_fits(p.mask, p.batch)
                        && (p.mask.dims[nd - 2] == p.Sq || p.mask.dims[nd - 2] == 1)
                        && (p.mask.dims[nd - 1] == p.Sk || p.mask.dims[nd - 1] == 1),
                dnnl_unimplemented, "sdpa: the mask does not broadcast to the scores");
        p.has_mask = true;
        p.ms = batch_strides(p.mask, p.batch);
        p.values.push_back(mid);
    }
    if (p.causal_lengths) {
        p.values.push_back(causal.key_len);
        p.values.push_back(causal.query_len);
    }
    if (p.has_stats) {
        p.stats = md(sv);
        dims_t want = p.batch;
        want.push_back(p.Sq);
        want.push_back(1);
        ANYDNN_REQUIRE(lts.at(sv).data_type == dnnl_f32 && md_dims(p.stats) == want
                        && p.stats.format_kind == dnnl_blocked
                        && p.stats.blocking.inner_nblks == 0,
                dnnl_unimplemented, "sdpa: the statistics are not plain f32 of %s",
                dims_str(want).c_str());
        p.ss = batch_strides(p.stats, p.batch);
        p.values.push_back(sv);
    }
    p.qs = batch_strides(p.q, p.batch);
    p.ks = batch_strides(p.k, p.batch);
    p.vs = batch_strides(p.v, p.batch);
    p.ds = batch_strides(p.dst, p.batch);
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
