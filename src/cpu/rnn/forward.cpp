// Forward pass of the CPU RNN (see drivers.hpp and conf.hpp for the buffer layout).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/parallel.hpp"
#include "cpu/rnn/cells.hpp"
#include "cpu/rnn/drivers.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

void load_bias(const conf_t &c, const plain_t &bias, dim_t l, dim_t d, float *out) {
    if (!bias.present()) {
        std::fill(out, out + c.GB * c.DHC, 0.f);
        return;
    }
    for (dim_t g = 0; g < c.GB; ++g)
        bias.load(bias.off(l, d, g, 0), c.DHC, out + g * c.DHC);
}

void load_peephole(const conf_t &c, const plain_t &peep, dim_t l, dim_t d, float *out) {
    if (!peep.present()) return;
    for (dim_t g = 0; g < 3; ++g)
        peep.load(peep.off(l, d, g, 0), c.DHC, out + g * c.DHC);
}

namespace {

bool int8_data(const plain_t &p) {
    return p.md->data_type == dnnl_u8 || p.md->data_type == dnnl_s8;
}

// int8 data: u8 or s8 values to the f32 they stand for, and back (saturating on store).
void dequantize(const conf_t &c, const plain_t &p, float *v, dim_t n) {
    if (!int8_data(p)) return;
    const float inv = 1.f / c.data_scale;
    for (dim_t j = 0; j < n; ++j)
        v[j] = (v[j] - c.data_shift) * inv;
}

void store_row(const conf_t &c, const plain_t &p, dim_t off, dim_t n, const float *v,
        float *row) {
    if (!int8_data(p)) return p.store(off, n, v);
    for (dim_t j = 0; j < n; ++j)
        row[j] = v[j] * c.data_scale + c.data_shift;
    p.store(off, n, row);
}

// s8 weights of (l, d) as f32 rows (input channel) x (column: gate and channel, or the
// projection's output channel), divided by their scales (one, or one per column).
wmat_t dequantize_weights(const plain_t &w, dim_t l, dim_t d, dim_t rows, dim_t cols,
        const std::vector<float> &sc, float *out) {
    const wmat_t m = weights_of(w, l, d);
    parallel_split(rows, max_threads(), 16, [&](int, dim_t s, dim_t e) {
        for (dim_t i = s; i < e; ++i)
            for (dim_t j = 0; j < cols; ++j) {
                const float scale = sc.empty() ? 1.f : sc.size() == 1 ? sc[0] : sc[j];
                const int8_t v = reinterpret_cast<const int8_t *>(m.ptr)[i * m.si + j * m.sj];
                out[i * cols + j] = float(v) / scale;
            }
    });
    wmat_t f;
    f.ptr = reinterpret_cast<const char *>(out);
    f.dt = dnnl_f32;
    f.esz = sizeof(float);
    f.si = cols;
    f.sj = 1;
    return f;
}

// src_layer into each stack's input rows (processing order); initial states.
void load_inputs(const conf_t &c, const tensors_t &t, float *ws) {
    const dim_t N = c.N, T = c.T;
    const plain_t &src = t.fwd[rnn_src_layer];
    parallel_split(c.D * T * N, max_threads(), 64, [&](int, dim_t s, dim_t e) {
        for (dim_t r = s; r < e; ++r) {
            const dim_t d = r / (T * N), k = (r / N) % T, n = r % N;
            float *x = ws + c.x0(d) + size_t((k * N + n) * c.SLC);
            src.load(src.off(c.time_of(d, k), n, 0), c.SLC, x);
            dequantize(c, src, x, c.SLC);
        }
    });
    const plain_t &si = t.fwd[rnn_src_iter], &sic = t.fwd[rnn_src_iter_c];
    for (dim_t l = 0; l < c.L; ++l)
        for (dim_t d = 0; d < c.D; ++d)
            for (dim_t n = 0; n < N; ++n) {
                float *h = ws + c.hprev(l, d, 0) + n * c.SIC;
                if (si.present()) {
                    si.load(si.off(l, d, n, 0), c.SIC, h);
                    dequantize(c, si, h, c.SIC);
                } else
                    std::fill(h, h + c.SIC, 0.f);
                if (!c.lstm) continue;
                float *cs = ws + c.c(l, d, 0) + n * c.DHC;
                if (sic.present())
                    sic.load(sic.off(l, d, n, 0), c.DHC, cs);
                else
                    std::fill(cs, cs + c.DHC, 0.f);
            }
}

void store_outputs(const conf_t &c, const tensors_t &t, const float *ws, float *row) {
    const dim_t N = c.N, T = c.T, DIC = c.DIC, top = c.L - 1;
    const plain_t &dst = t.fwd[rnn_dst_layer];
    // Step of time `tm` in stack d.
    auto step = [&](dim_t d, dim_t tm) { return c.time_of(d, tm); };
    for (dim_t tm = 0; tm < T; ++tm)
        for (dim_t n = 0; n < N; ++n) {
            const float *h0 = ws + c.h(top, 0, step(0, tm) + 1) + n * DIC;
            if (c.direction == dnnl_bidirectional_concat) {
                const float *h1 = ws + c.h(top, 1, step(1, tm) + 1) + n * DIC;
                store_row(c, dst, dst.off(tm, n, 0), DIC, h0, row);
                store_row(c, dst, dst.off(tm, n, DIC), DIC, h1, row);
            } else if (c.direction == dnnl_bidirectional_sum) {
                const float *h1 = ws + c.h(top, 1, step(1, tm) + 1) + n * DIC;
                for (dim_t j = 0; j < DIC; ++j)
                    row[j] = h0[j] + h1[j];
                store_row(c, dst, dst.off(tm, n, 0), DIC, row, row);
            } else {
                store_row(c, dst, dst.off(tm, n, 0), DIC, h0, row);
            }
        }
    const plain_t &di = t.fwd[rnn_dst_iter], &dic = t.fwd[rnn_dst_iter_c];
    for (dim_t l = 0; l < c.L; ++l)
        for (dim_t d = 0; d < c.D; ++d)
            for (dim_t n = 0; n < N; ++n) {
                if (di.present())
                    store_row(c, di, di.off(l, d, n, 0), DIC, ws + c.h(l, d, T) + n * DIC, row);
                if (dic.present())
                    dic.store(dic.off(l, d, n, 0), c.DHC, ws + c.c(l, d, T) + n * c.DHC);
            }
}

void run_stack_layer(const conf_t &c, const tensors_t &t, float *ws, float *fs, dim_t l,
        dim_t d, const primitive_attr_t *attr) {
    const dim_t N = c.N, T = c.T, H = c.DHC, GC = c.gate_cols();
    float *bias = fs + c.fs_bias, *peep = fs + c.fs_peep, *git = fs + c.fs_git;
    float *att = fs + c.fs_att;
    load_bias(c, t.fwd[rnn_bias], l, d, bias);
    load_peephole(c, t.fwd[rnn_weights_peephole], l, d, peep);
    const wmat_t wl = c.int8 ? dequantize_weights(t.fwd[rnn_weights_layer], l, d, c.in_cols(l),
                                       GC, attr->rnn_weights_scales, fs + c.fs_wl)
                             : weights_of(t.fwd[rnn_weights_layer], l, d);
    const wmat_t wi = c.int8 ? dequantize_weights(t.fwd[rnn_weights_iter], l, d, c.SIC, GC,
                                       attr->rnn_weights_scales, fs + c.fs_wi)
                             : weights_of(t.fwd[rnn_weights_iter], l, d);
    const float *in = l == 0 ? ws + c.x0(d) : ws + c.h(l - 1, d, 1);
    gemm_rows(T * N, GC, c.in_cols(l), in, c.in_cols(l), wl.b(), ws + c.gates(l, d, 0), GC,
            0.f);
    const plain_t &attention = t.fwd[rnn_attention];
    if (c.augru)
        for (dim_t tm = 0; tm < T; ++tm)
            for (dim_t n = 0; n < N; ++n)
                attention.load(attention.off(tm, n, 0), 1, att + tm * N + n);
    // One parallel region for all steps: each thread owns a slice of output channels of
    // every gate (its share of the recurrent GEMM and of the cell), so a step needs one
    // barrier (GRU two: its o gate reads r * h of all channels; projection two).
    const dim_t chunk = 16, nchunks = (H + chunk - 1) / chunk;
    const int nthr = int(std::min<dim_t>(max_barrier_threads(), nchunks));
    const wmat_t wp = !c.projection ? wmat_t()
            : c.int8 ? dequantize_weights(t.fwd[rnn_weights_projection], l, d, H, c.DIC,
                               attr->rnn_weights_projection_scales, fs + c.fs_wp)
                     : weights_of(t.fwd[rnn_weights_projection], l, d);
    parallel(nthr, [&](int ithr, int nt) {
        dim_t c0, c1, p0, p1;
        balance211(nchunks, nt, ithr, c0, c1);
        balance211(c.DIC, nt, ithr, p0, p1);
        const dim_t j0 = std::min(H, c0 * chunk), j1 = std::min(H, c1 * chunk), nj = j1 - j0;
        const int gnt = nt > 1 ? 1 : 0;
        for (dim_t k = 0; k < T; ++k) {
            step_fwd_t s;
            s.c = &c;
            s.j0 = j0;
            s.j1 = j1;
            s.g = ws + c.gates(l, d, k);
            s.hprev = ws + c.hprev(l, d, k);
            const dim_t hld = c.hprev_ld(k);
            float *hnext = ws + c.h(l, d, k + 1);
            s.hout = c.projection ? ws + c.per_step(c.ws_hp, l, d, k) : hnext;
            s.bias = bias;
            s.peep = peep;
            if (c.lstm) {
                s.cprev = ws + c.c(l, d, k);
                s.cout = ws + c.c(l, d, k + 1);
            }
            if (c.augru) s.att = att + c.time_of(d, k) * N;
            // Recurrent GEMM for gates [g0, g1) into dst (pitch GC), this thread's channels.
            auto recurrent = [&](dim_t g0, dim_t g1, const float *a, dim_t lda, dim_t K,
                                     float *dst, float beta) {
                if (nj == 0) return;
                for (dim_t g = g0; g < g1; ++g)
                    gemm_rows(N, nj, K, a, lda, wi.b(g * H + j0), dst + g * H + j0, GC, beta,
                            gnt);
            };
            if (c.vanilla || c.lstm) {
                recurrent(0, c.G, s.hprev, hld, c.SIC, s.g, 1.f);
                if (nj > 0) {
                    if (c.vanilla)
                        vanilla_fwd(s);
                    else
                        lstm_fwd(s);
                }
            } else if (!c.lbr) {
                s.rh = ws + c.per_step(c.ws_rh, l, d, k);
                recurrent(0, 2, s.hprev, hld, c.SIC, s.g, 1.f);
                if (nj > 0) gru_fwd_gates(s);
#pragma omp barrier
                recurrent(2, 3, s.rh, H, H, s.g, 1.f);
                if (nj > 0) gru_fwd_state(s);
            } else {
                s.git = git;
                s.hu = ws + c.per_step(c.ws_hu, l, d, k);
                recurrent(0, 3, s.hprev, hld, c.SIC, git, 0.f);
                if (nj > 0) lbr_fwd(s);
            }
            if (c.projection) {
#pragma omp barrier
                if (p1 > p0)
                    gemm_rows(N, p1 - p0, H, s.hout, H, wp.b(p0), hnext + p0, c.DIC, 0.f, gnt);
            }
#pragma omp barrier
        }
    });
}

} // namespace

void run_forward(const conf_t &c, const tensors_t &t, float *ws, float *fs,
        const primitive_attr_t *attr) {
    load_inputs(c, t, ws);
    for (dim_t l = 0; l < c.L; ++l)
        for (dim_t d = 0; d < c.D; ++d)
            run_stack_layer(c, t, ws, fs, l, d, attr);
    std::vector<float> row(size_t(c.DIC)); // bidirectional sum of one output row
    store_outputs(c, t, ws, row.data());
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
