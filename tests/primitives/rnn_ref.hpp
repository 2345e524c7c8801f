// RNN's reference, shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu): the problem (every cell kind, direction, layers, optional states, projection,
// peepholes), its C API entry points, the recurrence in double precision, and gradients by
// central differences of it.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "c_tensor.hpp"

namespace rnn_ref {

using c_tensor::dims_t;
using c_tensor::next_pos;
using c_tensor::tensor_t;
using vec = std::vector<double>;

// Tensor slots, in the order of the C API.
enum { SL, SI, SIC, ATT, WL, WI, WPH, WPR, BIA, DL, DI, DIC, NT };
constexpr const char *slot_names[NT] = {"src_layer", "src_iter", "src_iter_c", "attention",
        "weights_layer", "weights_iter", "weights_peephole", "weights_projection", "bias",
        "dst_layer", "dst_iter", "dst_iter_c"};

struct prob_t {
    dnnl_alg_kind_t cell = dnnl_vanilla_lstm;
    dnnl_alg_kind_t act = dnnl_eltwise_tanh;
    float alpha = 0.f;
    dnnl_rnn_direction_t dir = dnnl_unidirectional_left2right;
    int64_t L = 1, T = 3, N = 2, SLC = 5, DHC = 7, proj_dic = 0; // proj_dic 0: no projection
    int64_t sic = 0; // src_iter channels; 0: the state size (others need T = 1)
    bool src_iter = true, src_iter_c = true, bias = true, dst_iter = true, dst_iter_c = true;
    bool peephole = false;
    dnnl_data_type_t dt = dnnl_f32; // data and weights
    bool ldgoi = false; // weights layout

    bool lstm() const { return cell == dnnl_vanilla_lstm; }
    bool lbr() const { return cell == dnnl_lbr_gru || cell == dnnl_lbr_augru; }
    bool augru() const { return cell == dnnl_vanilla_augru || cell == dnnl_lbr_augru; }
    bool projection() const { return proj_dic != 0; }
    int64_t D() const {
        return dir == dnnl_bidirectional_concat || dir == dnnl_bidirectional_sum ? 2 : 1;
    }
    int64_t G() const { return cell == dnnl_vanilla_rnn ? 1 : lstm() ? 4 : 3; }
    int64_t GB() const { return G() + (lbr() ? 1 : 0); }
    int64_t dic() const { return projection() ? proj_dic : DHC; }
    int64_t SIC_() const { return sic ? sic : dic(); }
    int64_t DLC() const { return dir == dnnl_bidirectional_concat ? 2 * dic() : dic(); }
    bool has(int k) const {
        switch (k) {
            case SI: return src_iter;
            case SIC: return lstm() && src_iter_c;
            case ATT: return augru();
            case WPH: return lstm() && peephole;
            case WPR: return lstm() && projection();
            case BIA: return bias;
            case DI: return dst_iter;
            case DIC: return lstm() && dst_iter_c;
            default: return true;
        }
    }
    dims_t dims(int k) const {
        const int64_t D_ = D();
        switch (k) {
            case SL: return {T, N, SLC};
            case SI: return {L, D_, N, SIC_()};
            case SIC: return {L, D_, N, DHC};
            case ATT: return {T, N, 1};
            case WL: return {L, D_, SLC, G(), DHC};
            case WI: return {L, D_, SIC_(), G(), DHC};
            case WPH: return {L, D_, 3, DHC};
            case WPR: return {L, D_, DHC, dic()};
            case BIA: return {L, D_, GB(), DHC};
            case DL: return {T, N, DLC()};
            case DI: return {L, D_, N, dic()};
            default: return {L, D_, N, DHC};
        }
    }
    dnnl_data_type_t dt_of(int k) const {
        if (k == BIA || k == WPH || k == SIC || k == DIC || k == ATT) return dnnl_f32;
        if (dt == dnnl_u8 || dt == dnnl_s8) { // int8: u8 or s8 data (dst_layer, the h states
            // f32 when asked), s8 weights
            if (k == WL || k == WI || k == WPR) return dnnl_s8;
            if (k == DL && f32_dst) return dnnl_f32;
            if ((k == SI || k == DI) && f32_iter) return dnnl_f32;
        }
        return dt;
    }
    bool f32_dst = false, f32_iter = false;
    dnnl_format_tag_t tag_of(int k) const {
        if ((k == WL || k == WI) && ldgoi) return dnnl_ldgoi;
        switch (dims(k).size()) {
            case 3: return dnnl_abc;
            case 4: return dnnl_abcd;
            default: return dnnl_abcde;
        }
    }
};

inline int64_t count(const dims_t &d) {
    int64_t n = 1;
    for (auto v : d)
        n *= v;
    return n;
}

inline double sigm(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct ref_out_t {
    vec v[NT]; // DL, DI, DIC filled
};

// The recurrence in double: each direction a stack of L layers, outputs combined at the top.
inline ref_out_t ref_forward(const prob_t &p, const vec *in) {
    const int64_t L = p.L, D = p.D(), T = p.T, N = p.N, H = p.DHC, DI_ = p.dic(), G = p.G();
    const int64_t SI_ = p.SIC_();
    ref_out_t out;
    out.v[DL].assign(count(p.dims(DL)), 0.0);
    out.v[DI].assign(count(p.dims(DI)), 0.0);
    out.v[DIC].assign(count(p.dims(DIC)), 0.0);
    for (int64_t d = 0; d < D; ++d) {
        const bool rev = p.dir == dnnl_unidirectional_right2left || d == 1;
        int64_t C = p.SLC;
        vec x = in[SL]; // T x N x C
        for (int64_t l = 0; l < L; ++l) {
            const int64_t ld = l * D + d;
            // h has rows of SI_ channels until the first step, DI_ after.
            int64_t HW = SI_;
            vec h(N * SI_, 0.0), c(N * H, 0.0), y(T * N * DI_);
            for (int64_t n = 0; n < N; ++n) {
                for (int64_t j = 0; j < SI_; ++j)
                    if (p.src_iter) h[n * SI_ + j] = in[SI][(ld * N + n) * SI_ + j];
                for (int64_t j = 0; j < H; ++j)
                    if (p.has(SIC)) c[n * H + j] = in[SIC][(ld * N + n) * H + j];
            }
            auto w = [&](int k, int64_t rows, int64_t i, int64_t g, int64_t o) {
                return in[k][((ld * rows + i) * G + g) * H + o];
            };
            auto b = [&](int64_t g, int64_t o) {
                return p.bias ? in[BIA][(ld * p.GB() + g) * H + o] : 0.0;
            };
            for (int64_t k = 0; k < T; ++k) {
                const int64_t t = rev ? T - 1 - k : k;
                vec hn(N * DI_), cn(N * H);
                for (int64_t n = 0; n < N; ++n) {
                    const double *xr = &x[(t * N + n) * C];
                    const double *hr = &h[n * HW];
                    vec xw(G * H), hw(G * H);
                    for (int64_t g = 0; g < G; ++g)
                        for (int64_t o = 0; o < H; ++o) {
                            double sx = b(g, o), sh = 0;
                            for (int64_t i = 0; i < C; ++i)
                                sx += xr[i] * w(WL, C, i, g, o);
                            for (int64_t i = 0; i < HW; ++i)
                                sh += hr[i] * w(WI, SI_, i, g, o);
                            xw[g * H + o] = sx;
                            hw[g * H + o] = sh;
                        }
                    const double a = p.augru() ? in[ATT][t * N + n] : 0.0;
                    if (p.cell == dnnl_vanilla_rnn) {
                        for (int64_t o = 0; o < H; ++o) {
                            const double s = xw[o] + hw[o];
                            hn[n * DI_ + o] = p.act == dnnl_eltwise_relu
                                    ? (s > 0 ? s : p.alpha * s)
                                    : p.act == dnnl_eltwise_tanh ? std::tanh(s) : sigm(s);
                        }
                    } else if (p.lstm()) {
                        vec hh(H);
                        for (int64_t o = 0; o < H; ++o) {
                            const double cp = c[n * H + o];
                            auto peep = [&](int g) {
                                return p.peephole ? in[WPH][(ld * 3 + g) * H + o] : 0.0;
                            };
                            const double ig = sigm(xw[o] + hw[o] + peep(0) * cp);
                            const double fg = sigm(xw[H + o] + hw[H + o] + peep(1) * cp);
                            const double cc = std::tanh(xw[2 * H + o] + hw[2 * H + o]);
                            const double ct = fg * cp + ig * cc;
                            const double og = sigm(xw[3 * H + o] + hw[3 * H + o] + peep(2) * ct);
                            cn[n * H + o] = ct;
                            hh[o] = og * std::tanh(ct);
                        }
                        for (int64_t j = 0; j < DI_; ++j) {
                            double s = 0;
                            if (p.projection())
                                for (int64_t o = 0; o < H; ++o)
                                    s += hh[o] * in[WPR][(ld * H + o) * DI_ + j];
                            else
                                s = hh[j];
                            hn[n * DI_ + j] = s;
                        }
                    } else {
                        vec u(H), r(H);
                        for (int64_t o = 0; o < H; ++o) {
                            u[o] = sigm(xw[o] + hw[o]);
                            r[o] = sigm(xw[H + o] + hw[H + o]);
                        }
                        for (int64_t o = 0; o < H; ++o) {
                            double og;
                            if (p.lbr()) {
                                og = std::tanh(xw[2 * H + o] + r[o] * (hw[2 * H + o] + b(3, o)));
                            } else {
                                double s = xw[2 * H + o];
                                for (int64_t i = 0; i < DI_; ++i)
                                    s += r[i] * hr[i] * w(WI, DI_, i, 2, o);
                                og = std::tanh(s);
                            }
                            const double ue = p.augru() ? (1 - a) * u[o] : u[o];
                            hn[n * DI_ + o] = ue * hr[o] + (1 - ue) * og;
                        }
                    }
                }
                h = hn;
                HW = DI_;
                if (p.lstm()) c = cn;
                for (int64_t n = 0; n < N; ++n)
                    for (int64_t j = 0; j < DI_; ++j)
                        y[(t * N + n) * DI_ + j] = h[n * DI_ + j];
            }
            for (int64_t n = 0; n < N; ++n) {
                for (int64_t j = 0; j < DI_; ++j)
                    out.v[DI][(ld * N + n) * DI_ + j] = h[n * DI_ + j];
                if (p.lstm())
                    for (int64_t j = 0; j < H; ++j)
                        out.v[DIC][(ld * N + n) * H + j] = c[n * H + j];
            }
            x = y;
            C = DI_;
        }
        const int64_t DLC = p.DLC();
        for (int64_t t = 0; t < T; ++t)
            for (int64_t n = 0; n < N; ++n)
                for (int64_t j = 0; j < DI_; ++j) {
                    const double v = x[(t * N + n) * DI_ + j];
                    if (p.dir == dnnl_bidirectional_concat)
                        out.v[DL][(t * N + n) * DLC + d * DI_ + j] = v;
                    else
                        out.v[DL][(t * N + n) * DLC + j] += v;
                }
    }
    return out;
}

// Row-major logical order of a tensor's elements.
inline vec read_all(const tensor_t &t) {
    vec v;
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (t.lay.nelems() == 0) return v;
    do {
        v.push_back(t.get(pos));
    } while (next_pos(pos, t.lay.dims, t.lay.ndims));
    return v;
}

inline void write_all(tensor_t &t, const vec &v) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    size_t i = 0;
    do {
        t.set(pos, float(v[i++]));
    } while (next_pos(pos, t.lay.dims, t.lay.ndims));
}

inline vec random_values(int64_t n, uint32_t seed, double lo, double hi) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    vec v(n);
    for (auto &x : v)
        x = dist(gen);
    return v;
}

constexpr int fwd_arg[NT] = {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
        DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER,
        DNNL_ARG_WEIGHTS_PEEPHOLE, DNNL_ARG_WEIGHTS_PROJECTION, DNNL_ARG_BIAS,
        DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
constexpr int diff_arg[NT] = {DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER,
        DNNL_ARG_DIFF_SRC_ITER_C, DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
        DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
        DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS, DNNL_ARG_DIFF_DST_LAYER,
        DNNL_ARG_DIFF_DST_ITER, DNNL_ARG_DIFF_DST_ITER_C};

// The C entry point for p's cell kind; mds/diffs indexed by slot (null: absent).
inline dnnl_status_t create_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t e, const prob_t &p,
        dnnl_prop_kind_t prop, const_dnnl_memory_desc_t *m, const_dnnl_memory_desc_t *dm,
        const_dnnl_primitive_desc_t hint, unsigned flags = 0) {
    const bool bwd = prop == dnnl_backward;
    switch (p.cell) {
        case dnnl_vanilla_rnn:
            return bwd ? dnnl_vanilla_rnn_backward_primitive_desc_create(pd, e, prop, p.act,
                           p.dir, m[SL], m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], dm[SL],
                           dm[SI], dm[WL], dm[WI], dm[BIA], dm[DL], dm[DI], flags, p.alpha,
                           0.f, hint, nullptr)
                       : dnnl_vanilla_rnn_forward_primitive_desc_create(pd, e, prop, p.act,
                               p.dir, m[SL], m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], flags,
                               p.alpha, 0.f, nullptr);
        case dnnl_vanilla_lstm:
            return bwd ? dnnl_lstm_backward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                           m[SI], m[SIC], m[WL], m[WI], m[WPH], m[WPR], m[BIA], m[DL], m[DI],
                           m[DIC], dm[SL], dm[SI], dm[SIC], dm[WL], dm[WI], dm[WPH], dm[WPR],
                           dm[BIA], dm[DL], dm[DI], dm[DIC], flags, hint, nullptr)
                       : dnnl_lstm_forward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                               m[SI], m[SIC], m[WL], m[WI], m[WPH], m[WPR], m[BIA], m[DL],
                               m[DI], m[DIC], flags, nullptr);
        case dnnl_vanilla_gru:
            return bwd ? dnnl_gru_backward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                           m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], dm[SL], dm[SI], dm[WL],
                           dm[WI], dm[BIA], dm[DL], dm[DI], flags, hint, nullptr)
                       : dnnl_gru_forward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                               m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], flags, nullptr);
        case dnnl_lbr_gru:
            return bwd ? dnnl_lbr_gru_backward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                           m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], dm[SL], dm[SI], dm[WL],
                           dm[WI], dm[BIA], dm[DL], dm[DI], flags, hint, nullptr)
                       : dnnl_lbr_gru_forward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                               m[SI], m[WL], m[WI], m[BIA], m[DL], m[DI], flags, nullptr);
        case dnnl_vanilla_augru:
            return bwd ? dnnl_augru_backward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                           m[SI], m[ATT], m[WL], m[WI], m[BIA], m[DL], m[DI], dm[SL], dm[SI],
                           dm[ATT], dm[WL], dm[WI], dm[BIA], dm[DL], dm[DI], flags, hint,
                           nullptr)
                       : dnnl_augru_forward_primitive_desc_create(pd, e, prop, p.dir, m[SL],
                               m[SI], m[ATT], m[WL], m[WI], m[BIA], m[DL], m[DI], flags,
                               nullptr);
        default:
            return bwd ? dnnl_lbr_augru_backward_primitive_desc_create(pd, e, prop, p.dir,
                           m[SL], m[SI], m[ATT], m[WL], m[WI], m[BIA], m[DL], m[DI], dm[SL],
                           dm[SI], dm[ATT], dm[WL], dm[WI], dm[BIA], dm[DL], dm[DI], flags,
                           hint, nullptr)
                       : dnnl_lbr_augru_forward_primitive_desc_create(pd, e, prop, p.dir,
                               m[SL], m[SI], m[ATT], m[WL], m[WI], m[BIA], m[DL], m[DI], flags,
                               nullptr);
    }
}

// Inputs for slot k: small values that keep the gates away from saturation.
inline vec input_values(const prob_t &p, int k, uint32_t seed) {
    const int64_t n = count(p.dims(k));
    if (k == ATT) return random_values(n, seed, 0.0, 1.0);
    if (k == WL || k == WI || k == WPR) return random_values(n, seed, -0.6, 0.6);
    return random_values(n, seed, -1.0, 1.0);
}

// d(sum over outputs of diff_dst * dst)/d(input k, element i) by central differences of the
// reference, at inputs x (restored on return).
inline double numeric_gradient(const prob_t &p, vec *x, const vec *dout, int k, size_t i) {
    auto loss = [&]() {
        const ref_out_t r = ref_forward(p, x);
        double s = 0;
        for (int o : {DL, DI, DIC})
            if (p.has(o))
                for (size_t j = 0; j < r.v[o].size(); ++j)
                    s += r.v[o][j] * dout[o][j];
        return s;
    };
    const double h = 1e-5, keep = x[k][i];
    x[k][i] = keep + h;
    const double lp = loss();
    x[k][i] = keep - h;
    const double lm = loss();
    x[k][i] = keep;
    return (lp - lm) / (2 * h);
}

} // namespace rnn_ref
