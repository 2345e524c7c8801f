// Backward pass of the CPU RNN: each stack from the top layer down, steps in reverse
// processing order; gate gradients of all steps kept so the weight gradients and the
// layer-input gradient are one GEMM each per layer.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/parallel.hpp"
#include "cpu/rnn/cells.hpp"
#include "cpu/rnn/drivers.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

namespace {

// out[j] = sum over rows of a[r, j] (* b[r, j] when b is given); threaded over columns.
void column_sums(const float *a, const float *b, dim_t rows, dim_t cols, dim_t ld, float *out) {
    constexpr dim_t blk = 64;
    parallel_split((cols + blk - 1) / blk, max_threads(), 4, [&](int, dim_t s, dim_t e) {
        for (dim_t cb = s; cb < e; ++cb) {
            const dim_t j0 = cb * blk, j1 = std::min(cols, j0 + blk);
            float acc[blk] = {};
            for (dim_t r = 0; r < rows; ++r) {
                const float *ar = a + r * ld;
                if (b) {
                    const float *br = b + r * ld;
                    for (dim_t j = j0; j < j1; ++j)
                        acc[j - j0] += ar[j] * br[j];
                } else {
                    for (dim_t j = j0; j < j1; ++j)
                        acc[j - j0] += ar[j];
                }
            }
            for (dim_t j = j0; j < j1; ++j)
                out[j] = acc[j - j0];
        }
    });
}

// Zeroes a plain f32 tensor (diff weights in overwrite mode).
void zero_tensor(const plain_t &p) {
    if (!p.present()) return;
    const memory_desc_t &md = *p.md;
    if (is_dense(md)) {
        std::memset(p.base + md.offset0 * 4, 0, size_in_bytes(md));
        return;
    }
    const dim_t n = nelems(md);
    for (dim_t i = 0; i < n; ++i) {
        dim_t pos[max_ndims], r = i;
        for (int k = md.ndims - 1; k >= 0; --k) {
            pos[k] = r % md.dims[k];
            r /= md.dims[k];
        }
        reinterpret_cast<float *>(p.base)[off_logical(md, pos)] = 0.f;
    }
}

struct bwd_state_t {
    const conf_t &c;
    const tensors_t &t;
    const float *ws;
    float *bs;
};

void run_stack_layer(const bwd_state_t &st, dim_t l, dim_t d) {
    const conf_t &c = st.c;
    const tensors_t &t = st.t;
    const float *ws = st.ws;
    float *bs = st.bs;
    const dim_t N = c.N, T = c.T, H = c.DHC, GC = c.gate_cols(), DIC = c.DIC;
    const dim_t xcols = std::max(c.SLC, c.DIC);
    float *dg_all = bs + c.bs_dg, *dhu_all = bs + c.bs_dhu, *dhall = bs + c.bs_dhall;
    float *dh_state = bs + c.bs_dh_state, *dc = bs + c.bs_dc, *peep = bs + c.bs_peep;
    float *dx = bs + c.bs_dx + size_t(d * T * N * xcols);
    float *att = bs + c.bs_att;
    load_peephole(c, t.fwd[rnn_weights_peephole], l, d, peep);
    const wmat_t wl = weights_of(t.fwd[rnn_weights_layer], l, d);
    const wmat_t wi = weights_of(t.fwd[rnn_weights_iter], l, d);

    const plain_t &ddi = t.diff[rnn_dst_iter], &ddic = t.diff[rnn_dst_iter_c];
    for (dim_t n = 0; n < N; ++n) {
        float *h = dh_state + n * DIC;
        if (ddi.present())
            ddi.load(ddi.off(l, d, n, 0), DIC, h);
        else
            std::fill(h, h + DIC, 0.f);
        if (!c.lstm) continue;
        float *cc = dc + n * H;
        if (ddic.present())
            ddic.load(ddic.off(l, d, n, 0), H, cc);
        else
            std::fill(cc, cc + H, 0.f);
    }

    const plain_t &ddl = t.diff[rnn_dst_layer];
    const plain_t &attention = t.fwd[rnn_attention];
    const bool top = l == c.L - 1;
    const dim_t top_col = c.direction == dnnl_bidirectional_concat ? d * DIC : 0;
    for (dim_t k = T - 1; k >= 0; --k) {
        const dim_t tm = c.time_of(d, k);
        float *dh_cell = c.projection ? dhall + size_t(k * N * DIC) : bs + c.bs_dh_cell;
        for (dim_t n = 0; n < N; ++n) {
            float *row = dh_cell + n * DIC;
            if (top)
                ddl.load(ddl.off(tm, n, top_col), DIC, row);
            else
                std::memcpy(row, dx + (k * N + n) * DIC, sizeof(float) * DIC);
            const float *hs = dh_state + n * DIC;
            for (dim_t j = 0; j < DIC; ++j)
                row[j] += hs[j];
        }
        step_bwd_t s;
        s.c = &c;
        s.g = ws + c.gates(l, d, k);
        s.dg = dg_all + size_t(k * N * GC);
        s.dhp = dh_cell;
        if (c.projection) {
            const wmat_t wp = weights_of(t.fwd[rnn_weights_projection], l, d);
            gemm_rows(N, H, DIC, dh_cell, DIC, wp.bt(), bs + c.bs_dhp, H, 0.f);
            s.dhp = bs + c.bs_dhp;
        }
        s.hprev = ws + c.h(l, d, k);
        s.peep = peep;
        s.tmp = bs + c.bs_tmp;
        s.dh_prev = dh_state;
        if (c.augru) {
            for (dim_t n = 0; n < N; ++n)
                attention.load(attention.off(tm, n, 0), 1, att + n);
            s.att = att;
            s.datt = bs + c.bs_datt + tm * N;
        }
        if (c.vanilla || c.lstm) {
            if (c.vanilla) {
                vanilla_bwd(s);
            } else {
                s.cprev = ws + c.c(l, d, k);
                s.ccur = ws + c.c(l, d, k + 1);
                s.dc = dc;
                lstm_bwd(s);
            }
            // Step 0 of initial states with SIC channels: their gradient has rows of its own.
            const bool h0 = k == 0 && c.own_h0();
            gemm_rows(N, c.SIC, GC, s.dg, GC, wi.bt(), h0 ? bs + c.bs_dh0 : dh_state,
                    h0 ? c.SIC : DIC, 0.f);
        } else if (!c.lbr) {
            gru_bwd_state(s);
            float *drh = bs + c.bs_drh;
            gemm_rows(N, H, H, s.dg + 2 * H, GC, wi.bt(2 * H), drh, H, 0.f);
            s.drh = drh;
            gru_bwd_gates(s);
            gemm_rows(N, c.SIC, 2 * H, s.dg, GC, wi.bt(0), dh_state, DIC, 1.f);
        } else {
            s.hu = ws + c.per_step(c.ws_hu, l, d, k);
            s.dhu = dhu_all + size_t(k * N * H);
            lbr_bwd(s);
            gemm_rows(N, c.SIC, 2 * H, s.dg, GC, wi.bt(0), dh_state, DIC, 1.f);
            gemm_rows(N, c.SIC, H, s.dhu, H, wi.bt(2 * H), dh_state, DIC, 1.f);
        }
    }

    const plain_t &dsi = t.diff[rnn_src_iter], &dsic = t.diff[rnn_src_iter_c];
    const float *dh0 = c.own_h0() ? bs + c.bs_dh0 : dh_state;
    for (dim_t n = 0; n < N; ++n) {
        if (dsi.present()) dsi.store(dsi.off(l, d, n, 0), c.SIC, dh0 + n * c.SIC);
        if (dsic.present()) dsic.store(dsic.off(l, d, n, 0), H, dc + n * H);
    }

    // Weight gradients over all steps at once.
    const dim_t R = T * N, in_c = c.in_cols(l);
    const float *in = l == 0 ? ws + c.x0(d) : ws + c.h(l - 1, d, 1);
    // Previous states of all steps in a row; initial states of SIC channels only ever
    // precede the one step (T = 1) in rows of their own.
    const float *hprev_all = ws + c.hprev(l, d, 0);
    const dim_t hprev_ld = c.hprev_ld(0);
    accumulate_weights_grad(t.diff[rnn_weights_layer], l, d, 0, in_c, GC, R, in, in_c, dg_all,
            GC);
    const plain_t &dwi = t.diff[rnn_weights_iter];
    if (c.vanilla || c.lstm) {
        accumulate_weights_grad(dwi, l, d, 0, c.SIC, GC, R, hprev_all, hprev_ld, dg_all, GC);
    } else if (!c.lbr) {
        accumulate_weights_grad(dwi, l, d, 0, c.SIC, 2 * H, R, hprev_all, DIC, dg_all, GC);
        accumulate_weights_grad(dwi, l, d, 2 * H, c.SIC, H, R, ws + c.per_step(c.ws_rh, l, d, 0),
                H, dg_all + 2 * H, GC);
    } else {
        accumulate_weights_grad(dwi, l, d, 0, c.SIC, 2 * H, R, hprev_all, DIC, dg_all, GC);
        accumulate_weights_grad(dwi, l, d, 2 * H, c.SIC, H, R, hprev_all, DIC, dhu_all, H);
    }
    const plain_t &dwp = t.diff[rnn_weights_projection];
    if (c.projection && dwp.present())
        accumulate_weights_grad(
                dwp, l, d, 0, H, DIC, R, ws + c.per_step(c.ws_hp, l, d, 0), H, dhall, DIC);
    const plain_t &db = t.diff[rnn_bias];
    if (db.present()) {
        float *sums = bs + c.bs_dbias;
        column_sums(dg_all, nullptr, R, GC, GC, sums);
        if (c.lbr) column_sums(dhu_all, nullptr, R, H, H, sums + GC);
        for (dim_t g = 0; g < c.GB; ++g)
            db.accumulate(db.off(l, d, g, 0), H, sums + g * H);
    }
    const plain_t &dp = t.diff[rnn_weights_peephole];
    if (c.peephole && dp.present()) {
        float *sums = bs + c.bs_dpeep;
        const float *cprev = ws + c.c(l, d, 0), *ccur = ws + c.c(l, d, 1);
        // Peephole products per gate: i and f with c_{t-1}, o with c_t (row pitch GC vs H).
        for (dim_t g = 0; g < 3; ++g) {
            const float *cs = g == 2 ? ccur : cprev;
            const dim_t col = g == 2 ? 3 * H : g * H;
            for (dim_t j = 0; j < H; ++j)
                sums[g * H + j] = 0.f;
            parallel_split(H, max_threads(), 64, [&](int, dim_t s, dim_t e) {
                for (dim_t r = 0; r < R; ++r) {
                    const float *dgr = dg_all + r * GC + col, *cr = cs + r * H;
                    for (dim_t j = s; j < e; ++j)
                        sums[g * H + j] += dgr[j] * cr[j];
                }
            });
            dp.accumulate(dp.off(l, d, g, 0), H, sums + g * H);
        }
    }

    // Gradient of the layer input: the next layer down's top gradient, or diff src_layer.
    gemm_rows(R, in_c, GC, dg_all, GC, wl.bt(), dx, in_c, 0.f);
    if (l == 0) {
        float *dsrc = bs + c.bs_dsrc;
        const dim_t SLC = c.SLC;
        parallel_split(R, max_threads(), 64, [&](int, dim_t s, dim_t e) {
            for (dim_t r = s; r < e; ++r) {
                const dim_t k = r / N, n = r % N;
                float *o = dsrc + (c.time_of(d, k) * N + n) * SLC;
                const float *x = dx + r * SLC;
                for (dim_t j = 0; j < SLC; ++j)
                    o[j] += x[j];
            }
        });
    }
}

// Weight and bias gradients of another type (bf16) accumulate in f32 copies of the user's
// tensors (same strides, so the same offsets), each rounded once when the pass ends.
struct f32_gradients_t {
    static constexpr int kinds[5] = {rnn_weights_layer, rnn_weights_iter, rnn_weights_peephole,
            rnn_weights_projection, rnn_bias};
    memory_desc_t mds[5];
    std::vector<float> bufs[5];
    plain_t user[5]; // the user's tensors that have f32 copies

    // Points t's non-f32 gradients at f32 copies holding their values.
    void attach(tensors_t &t) {
        for (int i = 0; i < 5; ++i) {
            plain_t &p = t.diff[kinds[i]];
            if (!p.present() || p.md->data_type == dnnl_f32) continue;
            user[i] = p;
            mds[i] = *p.md;
            mds[i].data_type = dnnl_f32;
            bufs[i].assign(size_t(mds[i].offset0) + size_in_bytes(mds[i]) / sizeof(float), 0.f);
            p = plain_t(mds[i], bufs[i].data());
            const plain_t &u = user[i];
            each(i, [&](dim_t o) { bufs[i][o] = load_as_f32(u.md->data_type, u.base, o); });
        }
    }
    // Rounds the sums into the user's tensors.
    void detach() {
        for (int i = 0; i < 5; ++i) {
            const plain_t &u = user[i];
            if (!u.present()) continue;
            each(i, [&](dim_t o) { store_from_f32(u.md->data_type, u.base, o, bufs[i][o]); });
        }
    }
    template <typename F>
    void each(int i, F f) const {
        const memory_desc_t &md = mds[i];
        const dim_t n = nelems(md);
        for (dim_t e = 0; e < n; ++e) {
            dim_t pos[max_ndims], r = e;
            for (int k = md.ndims - 1; k >= 0; --k) {
                pos[k] = r % md.dims[k];
                r /= md.dims[k];
            }
            f(off_logical(md, pos));
        }
    }
};

void run_backward_f32(const conf_t &c, const tensors_t &t, const float *ws, float *bs) {
    const dim_t N = c.N, T = c.T;
    std::fill(bs + c.bs_dsrc, bs + c.bs_dsrc + T * N * c.SLC, 0.f);
    if (c.augru) std::fill(bs + c.bs_datt, bs + c.bs_datt + T * N, 0.f);
    if (c.diff_overwrite)
        for (int k : {rnn_weights_layer, rnn_weights_iter, rnn_weights_peephole,
                     rnn_weights_projection, rnn_bias})
            zero_tensor(t.diff[k]);
    bwd_state_t st {c, t, ws, bs};
    for (dim_t l = c.L - 1; l >= 0; --l)
        for (dim_t d = 0; d < c.D; ++d)
            run_stack_layer(st, l, d);
    const plain_t &dsl = t.diff[rnn_src_layer];
    for (dim_t tm = 0; tm < T; ++tm)
        for (dim_t n = 0; n < N; ++n)
            dsl.store(dsl.off(tm, n, 0), c.SLC, bs + c.bs_dsrc + (tm * N + n) * c.SLC);
    const plain_t &da = t.diff[rnn_attention];
    if (c.augru && da.present())
        for (dim_t tm = 0; tm < T; ++tm)
            for (dim_t n = 0; n < N; ++n)
                da.store(da.off(tm, n, 0), 1, bs + c.bs_datt + tm * N + n);
}

} // namespace

void run_backward(const conf_t &c, const tensors_t &user, const float *ws, float *bs) {
    tensors_t t = user;
    f32_gradients_t grads;
    grads.attach(t);
    run_backward_f32(c, t, ws, bs);
    grads.detach();
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
