// Scaled dot-product attention as one CPU kernel: per (batch, head, block of query rows),
// scores = Q K^T * scale (+ mask) stay in a per-thread buffer, are softmaxed in place and
// multiplied by V, so the Sq x Sk score matrix never goes to memory. GEMMs on the shared
// ukernel (Q/K/V in f32 or bf16), one thread per block.
#include <algorithm>
#include <cmath>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "cpu/softmax/rows.hpp"
#include "cpu/ukernels/gemm.hpp"
#include "runtime/cpu/isa.hpp"
#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

namespace {

constexpr dim_t rows_per_block = 64;

// Strides of `md` seen over the batch dims of `out` (right-aligned, broadcast dims 0).
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

bool batch_fits(const memory_desc_t &md, const dims_t &out_batch) {
    const int nb = static_cast<int>(out_batch.size()), mb = md.ndims - 2;
    if (mb > nb || mb < 0) return false;
    for (int j = 0; j < mb; ++j) {
        const dim_t d = md.dims[j], o = out_batch[j + nb - mb];
        if (d != o && d != 1) return false;
    }
    return true;
}

struct sdpa_plan_t {
    dims_t batch; // dst batch dims
    dim_t Sq, Sk, D, Dv;
    memory_desc_t q, k, v, dst, mask;
    bool k_transposed; // K given as [.., Sk, D]
    bool v_transposed; // V given as [.., Dv, Sk]
    bool has_scale = false, divide = false, has_mask = false;
    std::vector<dim_t> qs, ks, vs, ds, ms; // batch strides
    int nthr = 1;
};

void run_sdpa(const sdpa_plan_t &p, const std::vector<void *> &buf, void *scratch) {
    // buf: q, k, v, dst, [scale], [mask]
    const char *q = static_cast<const char *>(buf[0]);
    const char *k = static_cast<const char *>(buf[1]);
    const char *v = static_cast<const char *>(buf[2]);
    char *dst = static_cast<char *>(buf[3]);
    size_t next = 4;
    float scale = 1.f;
    if (p.has_scale) {
        scale = load_as_f32(dnnl_f32, buf[next++], 0);
        if (p.divide) scale = 1.f / scale;
    }
    const char *mask = p.has_mask ? static_cast<const char *>(buf[next++]) : nullptr;
    dim_t nbatch = 1;
    for (dim_t b : p.batch)
        nbatch *= b;
    const dim_t nblk = (p.Sq + rows_per_block - 1) / rows_per_block;
    const size_t qsz = data_type_size(p.q.data_type), ksz = data_type_size(p.k.data_type);
    const size_t vsz = data_type_size(p.v.data_type), dsz = data_type_size(p.dst.data_type);
    const int nd = p.q.ndims, md_nd = p.has_mask ? p.mask.ndims : 0;
    const size_t per_thread = rows_per_block * (p.Sk + p.Dv) + p.Sk;
    const bool avx512 = cpu::isa_enabled(dnnl_cpu_isa_avx512_core);
    const int nthr = static_cast<int>(std::min<dim_t>(std::min(max_threads(), p.nthr), nbatch * nblk));
    parallel(nthr, [&](int ithr, int nt) {
        float *scores = static_cast<float *>(scratch) + ithr * per_thread;
        float *out = scores + rows_per_block * p.Sk;
        float *tmp = out + rows_per_block * p.Dv;
        dim_t start, end;
        balance211(nbatch * nblk, nt, ithr, start, end);
        for (dim_t w = start; w < end; ++w) {
            const dim_t blk = w % nblk;
            dim_t rest = w / nblk;
            dim_t qo = 0, ko = 0, vo = 0, dof = 0, mo = 0;
            for (int i = static_cast<int>(p.batch.size()) - 1; i >= 0; --i) {
                const dim_t idx = rest % p.batch[i];
                rest /= p.batch[i];
                qo += idx * p.qs[i];
                ko += idx * p.ks[i];
                vo += idx * p.vs[i];
                dof += idx * p.ds[i];
                if (p.has_mask) mo += idx * p.ms[i];
            }
            const dim_t r0 = blk * rows_per_block;
            const dim_t mb = std::min(rows_per_block, p.Sq - r0);
            cpu::ukernels::gemm_problem_t g1;
            g1.M = mb;
            g1.N = p.Sk;
            g1.K = p.D;
            g1.a = {q + (qo + r0 * p.q.blocking.strides[nd - 2]) * qsz, p.q.data_type,
                    p.q.blocking.strides[nd - 2], p.q.blocking.strides[nd - 1]};
            // B(d, j) = K(j, d)
            const dim_t kj = p.k_transposed ? p.k.blocking.strides[nd - 2] : p.k.blocking.strides[nd - 1];
            const dim_t kd = p.k_transposed ? p.k.blocking.strides[nd - 1] : p.k.blocking.strides[nd - 2];
            g1.b = {k + ko * ksz, p.k.data_type, kd, kj};
            g1.c = scores;
            g1.ldc = p.Sk;
            g1.alpha = scale;
            g1.nthr = 1;
            cpu::ukernels::gemm(g1);
            for (dim_t r = 0; r < mb; ++r) {
                float *row = scores + r * p.Sk;
                if (mask) {
                    const dim_t rs = p.mask.dims[md_nd - 2] == 1 ? 0 : p.mask.blocking.strides[md_nd - 2];
                    const dim_t cs = p.mask.dims[md_nd - 1] == 1 ? 0 : p.mask.blocking.strides[md_nd - 1];
                    const dim_t base = mo + (r0 + r) * rs;
                    if (p.mask.data_type == dnnl_f32 && cs == 1) {
                        const float *m = reinterpret_cast<const float *>(mask) + base;
                        for (dim_t j = 0; j < p.Sk; ++j)
                            row[j] += m[j];
                    } else {
                        for (dim_t j = 0; j < p.Sk; ++j)
                            row[j] += load_as_f32(p.mask.data_type, mask, base + j * cs);
                    }
                }
                if (avx512)
                    cpu::softmax::fwd_row_avx512(row, row, p.Sk, false, 1.f, false, tmp);
                else
                    cpu::softmax::fwd_row_scalar(row, row, p.Sk, false, 1.f);
            }
            cpu::ukernels::gemm_problem_t g2;
            g2.M = mb;
            g2.N = p.Dv;
            g2.K = p.Sk;
            g2.a = {scores, dnnl_f32, p.Sk, 1};
            // B(j, d) = V(j, d)
            const dim_t vj = p.v_transposed ? p.v.blocking.strides[nd - 1] : p.v.blocking.strides[nd - 2];
            const dim_t vd = p.v_transposed ? p.v.blocking.strides[nd - 2] : p.v.blocking.strides[nd - 1];
            g2.b = {v + vo * vsz, p.v.data_type, vj, vd};
            g2.c = out;
            g2.ldc = p.Dv;
            g2.nthr = 1;
            cpu::ukernels::gemm(g2);
            const dim_t drs = p.dst.blocking.strides[nd - 2], dcs = p.dst.blocking.strides[nd - 1];
            for (dim_t r = 0; r < mb; ++r)
                for (dim_t d = 0; d < p.Dv; ++d)
                    store_from_f32(p.dst.data_type, dst + dsz * dof, (r0 + r) * drs + d * dcs,
                            out[r * p.Dv + d]);
        }
    });
}

bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace

status_t lowering_t::lower_sdpa_fused() {
    // The chain QK -> [scale] -> [mask] -> SoftMax -> PV, in topological order.
    ANYDNN_REQUIRE(ops.size() >= 3 && ops.size() <= 5, dnnl_unimplemented, "not an sdpa chain");
    const op_t &qk = *ops.front(), &pv = *ops.back(), &sm = *ops[ops.size() - 2];
    const op_t *scale = nullptr, *mask = nullptr;
    for (size_t i = 1; i + 2 < ops.size(); ++i) {
        const op_t *o = ops[i].get();
        if (o->kind == dnnl_graph_op_add) mask = o;
        else if (o->kind == dnnl_graph_op_multiply || o->kind == dnnl_graph_op_divide) scale = o;
        else return fail(dnnl_unimplemented, __func__, "sdpa: %s in the chain", op_kind_name(o->kind));
    }
    ANYDNN_REQUIRE(qk.kind == dnnl_graph_op_matmul && pv.kind == dnnl_graph_op_matmul
                    && sm.kind == dnnl_graph_op_softmax && qk.inputs.size() == 2
                    && pv.inputs.size() == 2 && !qk.flag(dnnl_graph_op_attr_transpose_a)
                    && !pv.flag(dnnl_graph_op_attr_transpose_a),
            dnnl_unimplemented, "sdpa: not a plain QK / softmax / PV chain");
    ANYDNN_REQUIRE(out.outputs.size() == 1 && out.outputs[0].id == pv.outputs[0].id,
            dnnl_unimplemented, "sdpa: intermediate values are partition outputs");
    sdpa_plan_t p;
    p.q = md(qk.inputs[0].id);
    p.k = md(qk.inputs[1].id);
    p.v = md(pv.inputs[1].id);
    p.dst = md(pv.outputs[0].id);
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
    std::vector<std::pair<int, size_t>> arg_values = {{0, qk.inputs[0].id},
            {0, qk.inputs[1].id}, {0, pv.inputs[1].id}, {0, pv.outputs[0].id}};
    if (scale) {
        const bool first = scale->inputs[0].id == qk.outputs[0].id;
        const size_t sid = scale->inputs[first ? 1 : 0].id;
        ANYDNN_REQUIRE(nelems(md(sid)) == 1 && lts.at(sid).data_type == dnnl_f32
                        && (first || scale->kind == dnnl_graph_op_multiply),
                dnnl_unimplemented, "sdpa: the scale is not one f32 value");
        p.has_scale = true;
        p.divide = scale->kind == dnnl_graph_op_divide;
        arg_values.push_back({0, sid});
    }
    if (mask) {
        const size_t prev = scale ? scale->outputs[0].id : qk.outputs[0].id;
        const size_t mid = mask->inputs[0].id == prev ? mask->inputs[1].id : mask->inputs[0].id;
        p.mask = expand_md(md(mid), nd);
        ANYDNN_REQUIRE(p.mask.ndims == nd && float_type(p.mask.data_type)
                        && batch_fits(p.mask, p.batch)
                        && (p.mask.dims[nd - 2] == p.Sq || p.mask.dims[nd - 2] == 1)
                        && (p.mask.dims[nd - 1] == p.Sk || p.mask.dims[nd - 1] == 1),
                dnnl_unimplemented, "sdpa: the mask does not broadcast to the scores");
        p.has_mask = true;
        p.ms = batch_strides(p.mask, p.batch);
        arg_values.push_back({0, mid});
    }
    p.qs = batch_strides(p.q, p.batch);
    p.ks = batch_strides(p.k, p.batch);
    p.vs = batch_strides(p.v, p.batch);
    p.ds = batch_strides(p.dst, p.batch);
    p.nthr = max_threads();

    exec_step_t step;
    for (auto &a : arg_values)
        step.args.push_back({0, view(a.second)});
    step.scratchpad_md = zero_md();
    const size_t scratch = sizeof(float) * p.nthr * (rows_per_block * (p.Sk + p.Dv) + p.Sk);
    out.scratchpad_size = std::max(out.scratchpad_size, scratch);
    step.host_kernel = [p](const std::vector<void *> &buf, void *s) { run_sdpa(p, buf, s); };
    out.steps.push_back(std::move(step));
    out.info = "sdpa:cpu:fused_rows:" + std::string(cpu::ukernels::gemm_isa_name());
    for (const auto &op : ops)
        done.insert(op.get());
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
