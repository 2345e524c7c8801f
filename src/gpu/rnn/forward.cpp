// Forward pass of the GPU RNN: per layer and direction one GEMM for the input part of every
// step's gates, then per step the recurrent product (the tiled GEMM where the device runs
// it, else inside the cell kernel; K split into slices where the product is too small to
// fill the device, the cell kernel adding their partial sums), the cell kernel (GRU: two,
// its o gate reads r * h of every channel), and the projection GEMM; or, where the
// persistent LSTM kernel was chosen (persistent.hpp), every step in one launch.
#include "gpu/rnn/rnn.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

namespace {

// Workspace rows of h(l, d, s) for all (l, d): strides over (l, d, n, channel).
view_t ws_state(const conf_t &c, const memory_storage_t *ws, size_t base, dim_t s,
        dim_t cols) {
    view_t v;
    v.s = ws;
    v.off = int64_t(base) + s * c.N * cols;
    v.st[1] = c.D * (c.T + 1) * c.N * cols;
    v.st[2] = (c.T + 1) * c.N * cols;
    v.st[3] = cols;
    v.st[4] = 1;
    return v;
}

status_t load_inputs(const exec_t &e) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    // src_layer into each stack's rows in processing order (right-to-left: time reversed).
    const memory_desc_t &sl = *e.md[rnn_src_layer];
    for (dim_t d = 0; d < c.D; ++d) {
        const int64_t dims[5] = {1, 1, c.T, c.N, c.SLC};
        view_t dst;
        dst.s = e.ws;
        dst.off = int64_t(c.x0(d));
        dst.st[2] = c.N * c.SLC;
        dst.st[3] = c.SLC;
        dst.st[4] = 1;
        view_t src = user_view(sl, e.mem[rnn_src_layer]);
        if (c.time_of(d, 0) != 0) {
            src.off += (c.T - 1) * src.st[2];
            src.st[2] = -src.st[2];
        }
        ANYDNN_CHECK(k.copy(e.stream, dims, dst, src, view_t(), false,
                data_quant(c, sl.data_type, quant_dequantize)));
    }
    const int64_t hdims[5] = {1, c.L, c.D, c.N, c.SIC};
    const view_t si = c.with_src_iter ? user_view(*e.md[rnn_src_iter], e.mem[rnn_src_iter])
                                      : view_t();
    // Initial states of SIC channels other than DIC have rows of their own (one time step).
    view_t h0 = ws_state(c, e.ws, c.ws_h, 0, c.DIC);
    if (c.own_h0()) {
        h0.off = int64_t(c.ws_h0);
        h0.st[1] = c.D * c.N * c.SIC;
        h0.st[2] = c.N * c.SIC;
        h0.st[3] = c.SIC;
    }
    // An absent src_iter is zeros in f32 (si.dt is f32 then: nothing to dequantize).
    ANYDNN_CHECK(k.copy(e.stream, hdims, h0, si, view_t(), false,
            data_quant(c, dnnl_data_type_t(si.dt), quant_dequantize)));
    if (c.lstm) {
        const int64_t cdims[5] = {1, c.L, c.D, c.N, c.DHC};
        const view_t sic = c.with_src_iter_c
                ? user_view(*e.md[rnn_src_iter_c], e.mem[rnn_src_iter_c])
                : view_t();
        ANYDNN_CHECK(k.copy(e.stream, cdims, ws_state(c, e.ws, c.ws_c, 0, c.DHC), sic));
    }
    return load_extras(e);
}

status_t store_outputs(const exec_t &e) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    const dim_t top = c.L - 1, DIC = c.DIC;
    // h of time tm in stack d of the top layer: step time_of(d, tm) + 1.
    auto top_h = [&](dim_t d) {
        view_t v;
        v.s = e.ws;
        const bool r2l = c.time_of(d, 0) != 0;
        v.off = int64_t(c.h(top, d, r2l ? c.T : 1));
        v.st[2] = r2l ? -c.N * DIC : c.N * DIC;
        v.st[3] = DIC;
        v.st[4] = 1;
        return v;
    };
    const memory_desc_t &dl = *e.md[rnn_dst_layer];
    const int64_t dims[5] = {1, 1, c.T, c.N, DIC};
    const view_t dst = user_view(dl, e.mem[rnn_dst_layer]);
    // u8 and s8 outputs quantize the f32 state (after the bidirectional sum).
    const copy_quant_t q = data_quant(c, dl.data_type, quant_quantize);
    if (c.direction == dnnl_bidirectional_sum) {
        ANYDNN_CHECK(k.copy(e.stream, dims, dst, top_h(0), top_h(1), false, q));
    } else {
        for (dim_t d = 0; d < c.D; ++d) {
            view_t part = dst;
            part.off += d * DIC * dst.st[4];
            ANYDNN_CHECK(k.copy(e.stream, dims, part, top_h(d), view_t(), false, q));
        }
    }
    if (c.with_dst_iter) {
        const int64_t hdims[5] = {1, c.L, c.D, c.N, DIC};
        const memory_desc_t &di = *e.md[rnn_dst_iter];
        ANYDNN_CHECK(k.copy(e.stream, hdims, user_view(di, e.mem[rnn_dst_iter]),
                ws_state(c, e.ws, c.ws_h, c.T, DIC), view_t(), false,
                data_quant(c, di.data_type, quant_quantize)));
    }
    if (c.with_dst_iter_c) {
        const int64_t cdims[5] = {1, c.L, c.D, c.N, c.DHC};
        ANYDNN_CHECK(k.copy(e.stream, cdims,
                user_view(*e.md[rnn_dst_iter_c], e.mem[rnn_dst_iter_c]),
                ws_state(c, e.ws, c.ws_c, c.T, c.DHC)));
    }
    return dnnl_success;
}

status_t run_stack_layer(const exec_t &e, dim_t l, dim_t d) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    const dim_t N = c.N, T = c.T, H = c.DHC, GC = c.gate_cols(), in_c = c.in_cols(l);
    // Input part of every step's gates.
    const mat_t in {e.ws, int64_t(l == 0 ? c.x0(d) : c.h(l - 1, d, 1)), in_c, 1};
    const mat_t gates {e.ws, int64_t(c.gates(l, d, 0)), GC, 1};
    ANYDNN_CHECK(k.gemm(e.stream, T * N, GC, in_c, in,
            weights_mat(e, rnn_weights_layer, l, d), gates, false));
    if (k.persistent) return run_persistent(e, l, d);
    const mat_t wi = weights_mat(e, rnn_weights_iter, l, d);
    const mat_t wi_o {wi.s, wi.off + 2 * H * wi.sc, wi.sr, wi.sc};
    const memory_storage_t *w = wi.s;
    const mat_t wp = c.projection ? weights_mat(e, rnn_weights_projection, l, d) : mat_t();
    step_params_t p = step_base(e, l, d);
    // The recurrent products: the tiled GEMM where it runs, else inside the cell kernel.
    p.gemm_done = k.tiled() ? 1 : 0;
    // Products too small to fill the device have K split (the cell kernels add the slices'
    // partial sums): GRU's two, or one over every gate column (LBR's o part included).
    const device_caps_t &caps = engine_caps(e.stream->engine());
    const bool gru2 = c.gru && !c.lbr;
    const split_t sp = p.gemm_done ? step_split(caps, N, gru2 ? 2 * H : GC, c.SIC) : split_t();
    const split_t sp_o = p.gemm_done && gru2 ? step_split(caps, N, H, H) : split_t();
    p.part = int64_t(e.x->base + e.x->part);
    p.part_s = N * GC;
    const mat_t part {e.scratch, p.part, GC, 1}, part_o {e.scratch, p.part + 2 * H, GC, 1};
    for (dim_t s = 0; s < T; ++s) {
        p.gates = int64_t(c.gates(l, d, s));
        p.hprev = int64_t(c.hprev(l, d, s));
        // The pitch of hprev in the kernels (only GRU, whose SIC is DIC, reads it otherwise).
        p.DIC = c.hprev_ld(s);
        const int64_t hnext = int64_t(c.h(l, d, s + 1));
        p.hout = c.projection ? int64_t(c.per_step(c.ws_hp, l, d, s)) : hnext;
        if (c.lstm) {
            p.cprev = int64_t(c.c(l, d, s));
            p.cout = int64_t(c.c(l, d, s + 1));
        }
        if (c.gru && !c.lbr) p.rh = int64_t(c.per_step(c.ws_rh, l, d, s));
        if (c.lbr) p.hu = int64_t(c.per_step(c.ws_hu, l, d, s));
        if (c.augru) p.att = int64_t(e.x->base + e.x->att) + c.time_of(d, s) * N;
        const mat_t hprev {e.ws, p.hprev, p.DIC, 1}, g {e.ws, p.gates, GC, 1};
        const mat_t g_o {e.ws, p.gates + 2 * H, GC, 1};
        p.slices = int32_t(sp.slices());
        if (sp.slices())
            ANYDNN_CHECK(k.gemm_slices(
                    e.stream, N, gru2 ? 2 * H : GC, sp, hprev, wi, part, p.part_s));
        if (gru2) {
            if (p.gemm_done && !sp.slices())
                ANYDNN_CHECK(k.gemm(e.stream, N, 2 * H, c.SIC, hprev, wi, g, true));
            ANYDNN_CHECK(k.step(e.stream, k.fwd_gru_gates, e.ws, e.scratch, w, p));
            const mat_t rh {e.ws, p.rh, H, 1};
            p.slices = int32_t(sp_o.slices());
            if (sp_o.slices())
                ANYDNN_CHECK(k.gemm_slices(e.stream, N, H, sp_o, rh, wi_o, part_o, p.part_s));
            else if (p.gemm_done)
                ANYDNN_CHECK(k.gemm(e.stream, N, H, H, rh, wi_o, g_o, true));
            ANYDNN_CHECK(k.step(e.stream, k.fwd_gru_state, e.ws, e.scratch, w, p));
        } else {
            if (p.gemm_done && !sp.slices() && c.lbr) {
                ANYDNN_CHECK(k.gemm(e.stream, N, 2 * H, c.SIC, hprev, wi, g, true));
                ANYDNN_CHECK(k.gemm(e.stream, N, H, c.SIC, hprev, wi_o,
                        mat_t {e.ws, p.hu, H, 1}, false));
            } else if (p.gemm_done && !sp.slices()) {
                ANYDNN_CHECK(k.gemm(e.stream, N, GC, c.SIC, hprev, wi, g, true));
            }
            ANYDNN_CHECK(k.step(e.stream, k.fwd_step, e.ws, e.scratch, w, p));
        }
        if (c.projection)
            ANYDNN_CHECK(k.gemm(e.stream, N, c.DIC, H, mat_t {e.ws, p.hout, H, 1}, wp,
                    mat_t {e.ws, hnext, c.DIC, 1}, false));
    }
    return dnnl_success;
}

} // namespace

status_t run_forward(const exec_t &e) {
    ANYDNN_CHECK(load_inputs(e));
    for (dim_t l = 0; l < e.c->L; ++l)
        for (dim_t d = 0; d < e.c->D; ++d)
            ANYDNN_CHECK(run_stack_layer(e, l, d));
    return store_outputs(e);
}

} // namespace rnn
} // namespace gpu
} // namespace anydnn
