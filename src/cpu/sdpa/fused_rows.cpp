// Scaled dot-product attention as one CPU kernel: per (batch, head, block of query rows),
// scores = Q K^T * scale (+ mask, causal mask) stay in a per-thread buffer, are softmaxed in place and
// multiplied by V, so the Sq x Sk score matrix never goes to memory. GEMMs on the shared
// ukernel (Q/K/V in f32 or bf16), one thread per block.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/data_types.hpp"
#include "core/ops/sdpa/fused.hpp"
#include "core/parallel.hpp"
#include "cpu/softmax/rows.hpp"
#include "cpu/ukernels/gemm.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {

namespace {

constexpr dim_t rows_per_block = 64;

void run_sdpa(const sdpa_plan_t &p, int max_thr, const std::vector<void *> &buf,
        void *scratch) {
    // buf: q, k, v, dst, [scale], [mask]
    const char *q = static_cast<const char *>(buf[0]);
    const char *k = static_cast<const char *>(buf[1]);
    const char *v = static_cast<const char *>(buf[2]);
    char *dst = static_cast<char *>(buf[3]);
    size_t next = 4;
    float scale = 1.f;
    if (p.has_scale) {
        scale = load_as_f32(p.scale_dt, buf[next++], 0);
        if (p.divide) scale = 1.f / scale;
    }
    const char *mask = p.has_mask ? static_cast<const char *>(buf[next++]) : nullptr;
    // Key j is seen from row i when j <= i + diag (causal masks only).
    dim_t diag = p.causal == 2 ? p.Sk - p.Sq : 0;
    if (p.causal_lengths)
        diag = dim_t(*static_cast<const int32_t *>(buf[next]))
                - *static_cast<const int32_t *>(buf[next + 1]);
    dim_t nbatch = 1;
    for (dim_t b : p.batch)
        nbatch *= b;
    const dim_t nblk = (p.Sq + rows_per_block - 1) / rows_per_block;
    const size_t qsz = data_type_size(p.q.data_type), ksz = data_type_size(p.k.data_type);
    const size_t vsz = data_type_size(p.v.data_type), dsz = data_type_size(p.dst.data_type);
    const int nd = p.q.ndims, md_nd = p.has_mask ? p.mask.ndims : 0;
    const size_t per_thread = rows_per_block * (p.Sk + p.Dv) + p.Sk;
    const bool avx512 = cpu::isa_enabled(dnnl_cpu_isa_avx512_core);
    const int nthr = static_cast<int>(std::min<dim_t>(std::min(max_threads(), max_thr), nbatch * nblk));
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
                if (p.causal) { // keys past the row's diagonal are hidden
                    const dim_t last = r0 + r + diag;
                    for (dim_t j = std::max<dim_t>(last + 1, 0); j < p.Sk; ++j)
                        row[j] = -INFINITY;
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

} // namespace

status_t make_sdpa_host_kernel(const sdpa_plan_t &p, int nthr, sdpa_host_kernel_t &kernel) {
    ANYDNN_REQUIRE(!p.has_stats, dnnl_unimplemented,
            "fused sdpa: the CPU kernel writes no softmax statistics (training forward)");
    kernel.scratchpad_size = sizeof(float) * nthr * (rows_per_block * (p.Sk + p.Dv) + p.Sk);
    kernel.run = [p, nthr](const std::vector<void *> &buf, void *s) { run_sdpa(p, nthr, buf, s); };
    kernel.info = "sdpa:cpu:fused_rows:" + std::string(cpu::ukernels::gemm_isa_name());
    return dnnl_success;
}

} // namespace anydnn
