// Backward pass of the GPU RNN: each stack from the top layer down, steps in reverse
// processing order (element-wise kernels and small GEMMs per step), then the weight, bias
// and layer-input gradients of all steps as one GEMM or sum each (as cpu/rnn/backward.cpp).
#include <algorithm>

#include "gpu/rnn/rnn.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

namespace {

// A dense f32 N x cols block of the scratchpad, as a copy view.
view_t rows_view(const memory_storage_t *s, size_t off, dim_t cols) {
    view_t v;
    v.s = s;
    v.off = int64_t(off);
    v.st[3] = cols;
    v.st[4] = 1;
    return v;
}

// A user tensor's view moved to (l, d) (4D (L, D, rows, cols) tensors).
view_t at_ld(view_t v, dim_t l, dim_t d) {
    v.off += l * v.st[1] + d * v.st[2];
    v.st[1] = v.st[2] = 0;
    return v;
}

// A user diff weights tensor of (l, d) as a GEMM output (input x column).
mat_t diff_weights_mat(const exec_t &e, int t, dim_t l, dim_t d) {
    const memory_desc_t &md = *e.diff_md[t];
    const auto &s = md.blocking.strides;
    return mat_t {e.diff_mem[t], md.offset0 + l * s[0] + d * s[1], s[2], s[md.ndims - 1]};
}

mat_t transposed(const mat_t &m) { return mat_t {m.s, m.off, m.sc, m.sr}; }

status_t run_stack_layer(const exec_t &e, dim_t l, dim_t d) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    stream_t *st = e.stream;
    const memory_storage_t *bs = e.scratch, *ws = e.ws;
    const dim_t N = c.N, T = c.T, H = c.DHC, GC = c.gate_cols(), DIC = c.DIC;
    const dim_t xcols = std::max(c.SLC, c.DIC), in_c = c.in_cols(l);
    const size_t dx = c.bs_dx + size_t(d * T * N * xcols);
    const int64_t row_dims[5] = {1, 1, 1, N, DIC}, cell_dims[5] = {1, 1, 1, N, H};

    const view_t dh_state = rows_view(bs, c.bs_dh_state, DIC);
    const view_t ddi = c.with_dst_iter && e.diff_md[rnn_dst_iter]
            ? at_ld(user_view(*e.diff_md[rnn_dst_iter], e.diff_mem[rnn_dst_iter]), l, d)
            : view_t();
    ANYDNN_CHECK(k.copy(st, row_dims, dh_state, ddi));
    if (c.lstm) {
        const view_t ddic = c.with_dst_iter_c && e.diff_md[rnn_dst_iter_c]
                ? at_ld(user_view(*e.diff_md[rnn_dst_iter_c], e.diff_mem[rnn_dst_iter_c]), l,
                        d)
                : view_t();
        ANYDNN_CHECK(k.copy(st, cell_dims, rows_view(bs, c.bs_dc, H), ddic));
    }

    const mat_t wi = weights_mat(e, rnn_weights_iter, l, d);
    const mat_t wl = weights_mat(e, rnn_weights_layer, l, d);
    const mat_t wp = c.projection ? weights_mat(e, rnn_weights_projection, l, d) : mat_t();
    const mat_t dh_state_m {bs, int64_t(c.bs_dh_state), DIC, 1};
    const bool top = l == c.L - 1;
    const dim_t top_col = c.direction == dnnl_bidirectional_concat ? d * DIC : 0;
    step_params_t p = step_base(e, l, d);
    p.dh_prev = int64_t(c.bs_dh_state);
    p.dc = int64_t(c.bs_dc);
    p.drh = int64_t(c.bs_drh);
    p.datt_part = int64_t(e.x->base + e.x->datt_part);
    for (dim_t s = T - 1; s >= 0; --s) {
        const dim_t tm = c.time_of(d, s);
        const size_t dh_cell = c.projection ? c.bs_dhall + size_t(s * N * DIC) : c.bs_dh_cell;
        // Gradient of this step's output: from above (dst_layer or the next layer's input
        // gradient) plus the recurrent part.
        view_t above;
        if (top) {
            above = user_view(*e.diff_md[rnn_dst_layer], e.diff_mem[rnn_dst_layer]);
            above.off += tm * above.st[2] + top_col * above.st[4];
            above.st[2] = 0;
        } else {
            above = rows_view(bs, dx + size_t(s * N * DIC), DIC);
        }
        ANYDNN_CHECK(k.copy(st, row_dims, rows_view(bs, dh_cell, DIC), above, dh_state));
        p.dhp = int64_t(dh_cell);
        if (c.projection) {
            ANYDNN_CHECK(k.gemm(st, N, H, DIC, mat_t {bs, int64_t(dh_cell), DIC, 1},
                    transposed(wp), mat_t {bs, int64_t(c.bs_dhp), H, 1}, false));
            p.dhp = int64_t(c.bs_dhp);
        }
        p.gates = int64_t(c.gates(l, d, s));
        p.dg = int64_t(c.bs_dg) + s * N * GC;
        p.hprev = int64_t(c.h(l, d, s));
        if (c.lstm) {
            p.cprev = int64_t(c.c(l, d, s));
            p.cout = int64_t(c.c(l, d, s + 1));
        }
        if (c.lbr) {
            p.hu = int64_t(c.per_step(c.ws_hu, l, d, s));
            p.dhu = int64_t(c.bs_dhu) + s * N * H;
        }
        if (c.augru) p.att = int64_t(e.x->base + e.x->att) + tm * N;
        ANYDNN_CHECK(k.step(st, k.bwd_step, ws, bs, bs, p));
        const mat_t dg {bs, p.dg, GC, 1};
        if (c.vanilla || c.lstm) {
            // Step 0 of initial states with SIC channels: their gradient has rows of its own.
            const bool h0 = s == 0 && c.own_h0();
            ANYDNN_CHECK(k.gemm(st, N, c.SIC, GC, dg, transposed(wi),
                    h0 ? mat_t {bs, int64_t(c.bs_dh0), c.SIC, 1} : dh_state_m, false));
            continue;
        }
        if (c.augru)
            ANYDNN_CHECK(k.row_sums(st, bs, p.datt_part, int64_t(c.bs_datt) + tm * N, N, H));
        const mat_t wi_o {wi.s, wi.off + 2 * H * wi.sc, wi.sr, wi.sc};
        if (!c.lbr) {
            const mat_t dgo {bs, p.dg + 2 * H, GC, 1};
            ANYDNN_CHECK(k.gemm(st, N, H, H, dgo, transposed(wi_o),
                    mat_t {bs, int64_t(c.bs_drh), H, 1}, false));
            ANYDNN_CHECK(k.step(st, k.bwd_gru_gates, ws, bs, bs, p));
        } else {
            ANYDNN_CHECK(k.gemm(st, N, c.SIC, H, mat_t {bs, p.dhu, H, 1}, transposed(wi_o),
                    dh_state_m, true));
        }
        ANYDNN_CHECK(k.gemm(st, N, c.SIC, 2 * H, dg, transposed(wi), dh_state_m, true));
    }

    if (c.with_src_iter && e.diff_md[rnn_src_iter]) {
        const int64_t h0_dims[5] = {1, 1, 1, N, c.SIC};
        ANYDNN_CHECK(k.copy(st, h0_dims,
                at_ld(user_view(*e.diff_md[rnn_src_iter], e.diff_mem[rnn_src_iter]), l, d),
                c.own_h0() ? rows_view(bs, c.bs_dh0, c.SIC) : dh_state));
    }
    if (c.lstm && c.with_src_iter_c && e.diff_md[rnn_src_iter_c])
        ANYDNN_CHECK(k.copy(st, cell_dims,
                at_ld(user_view(*e.diff_md[rnn_src_iter_c], e.diff_mem[rnn_src_iter_c]), l, d),
                rows_view(bs, c.bs_dc, H)));

    // Weight gradients over all steps at once: dW += in^T * dg.
    const dim_t R = T * N;
    const int64_t in = int64_t(l == 0 ? c.x0(d) : c.h(l - 1, d, 1));
    const mat_t in_t {ws, in, 1, in_c};
    const mat_t dg_all {bs, int64_t(c.bs_dg), GC, 1};
    // Previous states of all steps in a row; initial states of SIC channels only ever
    // precede the one step (T = 1) in rows of their own.
    const mat_t hprev_t {ws, int64_t(c.hprev(l, d, 0)), 1, c.hprev_ld(0)};
    ANYDNN_CHECK(k.gemm(st, in_c, GC, R, in_t, dg_all,
            diff_weights_mat(e, rnn_weights_layer, l, d), true));
    const mat_t dwi = diff_weights_mat(e, rnn_weights_iter, l, d);
    const mat_t dwi_o {dwi.s, dwi.off + 2 * H * dwi.sc, dwi.sr, dwi.sc};
    if (c.vanilla || c.lstm) {
        ANYDNN_CHECK(k.gemm(st, c.SIC, GC, R, hprev_t, dg_all, dwi, true));
    } else {
        ANYDNN_CHECK(k.gemm(st, c.SIC, 2 * H, R, hprev_t, dg_all, dwi, true));
        if (!c.lbr)
            ANYDNN_CHECK(k.gemm(st, c.SIC, H, R,
                    mat_t {ws, int64_t(c.per_step(c.ws_rh, l, d, 0)), 1, H},
                    mat_t {bs, int64_t(c.bs_dg) + 2 * H, GC, 1}, dwi_o, true));
        else
            ANYDNN_CHECK(k.gemm(st, c.SIC, H, R, hprev_t,
                    mat_t {bs, int64_t(c.bs_dhu), H, 1}, dwi_o, true));
    }
    if (c.projection && e.diff_md[rnn_weights_projection])
        ANYDNN_CHECK(k.gemm(st, H, DIC, R,
                mat_t {ws, int64_t(c.per_step(c.ws_hp, l, d, 0)), 1, H},
                mat_t {bs, int64_t(c.bs_dhall), DIC, 1},
                diff_weights_mat(e, rnn_weights_projection, l, d), true));
    if (e.diff_md[rnn_bias]) {
        const memory_desc_t &md = *e.diff_md[rnn_bias];
        const auto &s = md.blocking.strides;
        sums_params_t q;
        q.rows = R;
        q.cols = GC;
        q.a_off = int64_t(c.bs_dg);
        q.a_ld = GC;
        q.out_off = md.offset0 + l * s[0] + d * s[1];
        q.out_sg = s[2];
        q.out_sj = s[3];
        q.H = H;
        ANYDNN_CHECK(k.column_sums(st, bs, bs, e.diff_mem[rnn_bias], q));
        if (c.lbr) {
            q.cols = H;
            q.a_off = int64_t(c.bs_dhu);
            q.a_ld = H;
            q.out_off += c.G * s[2];
            ANYDNN_CHECK(k.column_sums(st, bs, bs, e.diff_mem[rnn_bias], q));
        }
    }
    if (c.peephole && e.diff_md[rnn_weights_peephole]) {
        const memory_desc_t &md = *e.diff_md[rnn_weights_peephole];
        const auto &s = md.blocking.strides;
        // Peephole products per gate: i and f with c_{t-1}, o with c_t.
        for (dim_t g = 0; g < 3; ++g) {
            sums_params_t q;
            q.rows = R;
            q.cols = H;
            q.a_off = int64_t(c.bs_dg) + (g == 2 ? 3 * H : g * H);
            q.a_ld = GC;
            q.b_off = int64_t(g == 2 ? c.c(l, d, 1) : c.c(l, d, 0));
            q.b_ld = H;
            q.with_b = 1;
            q.out_off = md.offset0 + l * s[0] + d * s[1] + g * s[2];
            q.out_sj = s[3];
            q.H = H;
            ANYDNN_CHECK(k.column_sums(st, bs, ws, e.diff_mem[rnn_weights_peephole], q));
        }
    }

    // Gradient of the layer input: the next layer down's top gradient, or diff src_layer.
    ANYDNN_CHECK(k.gemm(st, R, in_c, GC, dg_all, transposed(wl),
            mat_t {bs, int64_t(dx), in_c, 1}, false));
    if (l == 0) {
        const int64_t dims[5] = {1, 1, T, N, c.SLC};
        view_t dsrc;
        dsrc.s = bs;
        const bool r2l = c.time_of(d, 0) != 0;
        dsrc.off = int64_t(c.bs_dsrc) + (r2l ? (T - 1) * N * c.SLC : 0);
        dsrc.st[2] = r2l ? -N * c.SLC : N * c.SLC;
        dsrc.st[3] = c.SLC;
        dsrc.st[4] = 1;
        view_t src = rows_view(bs, dx, c.SLC);
        src.st[2] = N * c.SLC;
        ANYDNN_CHECK(k.copy(st, dims, dsrc, src, view_t(), true));
    }
    return dnnl_success;
}

} // namespace

status_t run_backward(const exec_t &e) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    stream_t *st = e.stream;
    const int64_t src_dims[5] = {1, 1, c.T, c.N, c.SLC}, att_dims[5] = {1, 1, 1, c.T, c.N};
    view_t dsrc = rows_view(e.scratch, c.bs_dsrc, c.SLC);
    dsrc.st[2] = c.N * c.SLC;
    ANYDNN_CHECK(k.copy(st, src_dims, dsrc, view_t()));
    const view_t datt = rows_view(e.scratch, c.bs_datt, c.N);
    if (c.augru) ANYDNN_CHECK(k.copy(st, att_dims, datt, view_t()));
    if (c.diff_overwrite)
        for (int t : {rnn_weights_layer, rnn_weights_iter, rnn_weights_peephole,
                     rnn_weights_projection, rnn_bias}) {
            if (!e.diff_md[t]) continue;
            const memory_desc_t &md = *e.diff_md[t];
            int64_t dims[5] = {1, 1, 1, 1, 1};
            for (int i = 0; i < md.ndims; ++i) dims[5 - md.ndims + i] = md.dims[i];
            ANYDNN_CHECK(k.copy(st, dims, user_view(md, e.diff_mem[t]), view_t()));
        }
    ANYDNN_CHECK(load_extras(e));
    for (dim_t l = c.L - 1; l >= 0; --l)
        for (dim_t d = 0; d < c.D; ++d)
            ANYDNN_CHECK(run_stack_layer(e, l, d));
    ANYDNN_CHECK(k.copy(st, src_dims,
            user_view(*e.diff_md[rnn_src_layer], e.diff_mem[rnn_src_layer]), dsrc));
    if (c.augru && e.diff_md[rnn_attention]) {
        const memory_desc_t &md = *e.diff_md[rnn_attention];
        int64_t dims[5] = {1, 1, 1, 1, 1};
        for (int i = 0; i < md.ndims; ++i) dims[5 - md.ndims + i] = md.dims[i];
        view_t src = rows_view(e.scratch, c.bs_datt, c.N);
        src.st[2] = c.N; // (T, N, 1): time, row, unit channel
        src.st[3] = 1;
        src.st[4] = 0;
        ANYDNN_CHECK(k.copy(st, dims, user_view(md, e.diff_mem[rnn_attention]), src));
    }
    return dnnl_success;
}

} // namespace rnn
} // namespace gpu
} // namespace anydnn
