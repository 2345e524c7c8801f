// --rnn: recurrent layers, forward and backward (--prop=FWD_I|FWD_D|BWD_DW, --alg=VANILLA_RNN|
// VANILLA_LSTM|VANILLA_GRU|LBR_GRU|VANILLA_AUGRU|LBR_AUGRU, --direction=left2right|right2left|
// concat|sum, --activation=RELU|TANH|LOGISTIC (--alpha), --cfg=f32|bf16|bf16f32|f16 or int8
// as four types src_iter src_layer dst_iter dst_layer (u8u8u8u8, f32u8f32f32, s8s8s8f32...:
// u8 data with scale 64 / shift 128, s8 data shift 0, s8 weights with one scale or, with
// --scaling=per_oc, one per gate column (projection: per output channel); LSTM/GRU
// inference), --with-peephole,
// --with-projection, --flags=O for diff weights overwrite). Problems: lLtTmbNsicSslcSdhcHdicI
// with an optional _nNAME. Reference: the recurrence in double (each direction a stack of
// layers), backward by back-propagation through time written here.
#include <cmath>
#include <cstring>

#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

// Tensor slots in the order of the C API.
enum { SL, SI, SC, ATT, WL, WI, WPH, WPR, BIA, DL, DI, DC, NT };
const int fwd_arg[NT] = {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
        DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER,
        DNNL_ARG_WEIGHTS_PEEPHOLE, DNNL_ARG_WEIGHTS_PROJECTION, DNNL_ARG_BIAS,
        DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
const int diff_arg[NT] = {DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER,
        DNNL_ARG_DIFF_SRC_ITER_C, DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
        DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
        DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS, DNNL_ARG_DIFF_DST_LAYER,
        DNNL_ARG_DIFF_DST_ITER, DNNL_ARG_DIFF_DST_ITER_C};

struct rnn_desc_t {
    int64_t L = 1, T = 1, N = 2, SIC = 0, SLC = 0, DHC = 0, DIC = 0;
    std::string name;
};

rnn_desc_t parse_rnn_desc(const std::string &s) {
    rnn_desc_t d;
    std::string body = s;
    const size_t n = s.find("_n");
    if (n != std::string::npos) {
        d.name = s.substr(n + 2);
        body = s.substr(0, n);
    }
    static const struct {
        const char *key;
        int64_t rnn_desc_t::*field;
    } keys[] = {{"mb", &rnn_desc_t::N}, {"sic", &rnn_desc_t::SIC}, {"slc", &rnn_desc_t::SLC},
            {"dhc", &rnn_desc_t::DHC}, {"dic", &rnn_desc_t::DIC}, {"l", &rnn_desc_t::L},
            {"t", &rnn_desc_t::T}};
    size_t i = 0;
    while (i < body.size()) {
        bool hit = false;
        for (const auto &k : keys) {
            const size_t kl = std::strlen(k.key);
            if (body.compare(i, kl, k.key) != 0) continue;
            size_t j = i + kl, e = j;
            while (e < body.size() && std::isdigit(static_cast<unsigned char>(body[e]))) ++e;
            if (e == j) continue;
            d.*(k.field) = std::stoll(body.substr(j, e - j));
            i = e;
            hit = true;
            break;
        }
        if (!hit) throw std::invalid_argument("bad rnn problem '" + s + "'");
    }
    if (!d.DHC) d.DHC = d.DIC ? d.DIC : d.SIC;
    if (!d.DHC) throw std::invalid_argument("rnn problem '" + s + "' has no dhc/dic/sic");
    if (!d.DIC) d.DIC = d.DHC;
    if (!d.SIC) d.SIC = d.DIC;
    if (!d.SLC) d.SLC = d.SIC;
    return d;
}

std::string desc2str(const rnn_desc_t &d) {
    std::string s = "l" + std::to_string(d.L) + "t" + std::to_string(d.T) + "mb"
            + std::to_string(d.N) + "sic" + std::to_string(d.SIC) + "slc"
            + std::to_string(d.SLC) + "dhc" + std::to_string(d.DHC) + "dic"
            + std::to_string(d.DIC);
    if (!d.name.empty()) s += "_n" + d.name;
    return s;
}

dnnl_alg_kind_t str2cell(const std::string &s) {
    if (s == "VANILLA_RNN") return dnnl_vanilla_rnn;
    if (s == "VANILLA_LSTM") return dnnl_vanilla_lstm;
    if (s == "VANILLA_GRU") return dnnl_vanilla_gru;
    if (s == "LBR_GRU") return dnnl_lbr_gru;
    if (s == "VANILLA_AUGRU") return dnnl_vanilla_augru;
    if (s == "LBR_AUGRU") return dnnl_lbr_augru;
    throw std::invalid_argument("unknown rnn alg '" + s + "'");
}
const char *cell2str(dnnl_alg_kind_t a) {
    switch (a) {
        case dnnl_vanilla_rnn: return "VANILLA_RNN";
        case dnnl_vanilla_lstm: return "VANILLA_LSTM";
        case dnnl_vanilla_gru: return "VANILLA_GRU";
        case dnnl_lbr_gru: return "LBR_GRU";
        case dnnl_vanilla_augru: return "VANILLA_AUGRU";
        default: return "LBR_AUGRU";
    }
}
dnnl_rnn_direction_t str2direction(const std::string &s) {
    if (s == "left2right") return dnnl_unidirectional_left2right;
    if (s == "right2left") return dnnl_unidirectional_right2left;
    if (s == "concat") return dnnl_bidirectional_concat;
    if (s == "sum") return dnnl_bidirectional_sum;
    throw std::invalid_argument("unknown rnn direction '" + s + "'");
}
const char *direction2str(dnnl_rnn_direction_t d) {
    switch (d) {
        case dnnl_unidirectional_left2right: return "left2right";
        case dnnl_unidirectional_right2left: return "right2left";
        case dnnl_bidirectional_concat: return "concat";
        default: return "sum";
    }
}
dnnl_alg_kind_t str2activation(const std::string &s) {
    if (s == "RELU") return dnnl_eltwise_relu;
    if (s == "TANH") return dnnl_eltwise_tanh;
    if (s == "LOGISTIC") return dnnl_eltwise_logistic;
    if (s == "UNDEF") return dnnl_alg_kind_undef; // the cell's own (LSTM, GRU)
    throw std::invalid_argument("unknown rnn activation '" + s + "'");
}
const char *activation2str(dnnl_alg_kind_t a) {
    return a == dnnl_eltwise_relu       ? "RELU"
            : a == dnnl_eltwise_tanh     ? "TANH"
            : a == dnnl_alg_kind_undef   ? "UNDEF"
                                         : "LOGISTIC";
}

struct rnn_cfg_t {
    dir_t prop;
    dnnl_alg_kind_t cell, activation;
    dnnl_rnn_direction_t direction;
    std::string cfg; // f32, bf16, u8u8u8u8, u8u8u8f32
    bool peephole, projection;
    unsigned flags;
    bool per_oc_scales; // --scaling
    float alpha;
    rnn_desc_t d;
};

double sigm(double x) { return 1 / (1 + std::exp(-x)); }

class rnn_prb_t : public problem_t {
public:
    explicit rnn_prb_t(const rnn_cfg_t &c) : c_(c) {
        const auto &d = c_.d;
        L = d.L, T = d.T, N = d.N, SLC = d.SLC, SIC = d.SIC, DHC = d.DHC;
        DIC = c_.projection ? d.DIC : d.DHC;
        D = c_.direction == dnnl_bidirectional_concat || c_.direction == dnnl_bidirectional_sum
                ? 2
                : 1;
        G = c_.cell == dnnl_vanilla_rnn ? 1 : lstm() ? 4 : 3;
        GB = G + (lbr() ? 1 : 0);
        DLC = c_.direction == dnnl_bidirectional_concat ? 2 * DIC : DIC;
    }

    bool lstm() const { return c_.cell == dnnl_vanilla_lstm; }
    bool lbr() const { return c_.cell == dnnl_lbr_gru || c_.cell == dnnl_lbr_augru; }
    bool augru() const { return c_.cell == dnnl_vanilla_augru || c_.cell == dnnl_lbr_augru; }
    bool gru() const { return !lstm() && c_.cell != dnnl_vanilla_rnn; }
    bool bwd() const { return c_.prop == dir_t::bwd_dw; }

    bool has(int k) const {
        switch (k) {
            case SC:
            case DC: return lstm();
            case ATT: return augru();
            case WPH: return lstm() && c_.peephole;
            case WPR: return lstm() && c_.projection;
            default: return true;
        }
    }
    dims_t dims(int k) const {
        switch (k) {
            case SL: return {T, N, SLC};
            case SI: return {L, D, N, SIC};
            case SC: return {L, D, N, DHC};
            case ATT: return {T, N, 1};
            case WL: return {L, D, SLC, G, DHC};
            case WI: return {L, D, SIC, G, DHC};
            case WPH: return {L, D, 3, DHC};
            case WPR: return {L, D, DHC, DIC};
            case BIA: return {L, D, GB, DHC};
            case DL: return {T, N, DLC};
            case DI: return {L, D, N, DIC};
            default: return {L, D, N, DHC};
        }
    }
    // int8 cfgs name four types, src_iter src_layer dst_iter dst_layer (u8u8u8f32,
    // f32s8f32s8...), with u8 or s8 src_layer; weights are s8, bias and cell states f32.
    bool int8_types(dnnl_data_type_t t[4]) const {
        size_t i = 0;
        for (int k = 0; k < 4; ++k) {
            if (c_.cfg.compare(i, 3, "f32") == 0) t[k] = dnnl_f32, i += 3;
            else if (c_.cfg.compare(i, 2, "u8") == 0) t[k] = dnnl_u8, i += 2;
            else if (c_.cfg.compare(i, 2, "s8") == 0) t[k] = dnnl_s8, i += 2;
            else return false;
        }
        return i == c_.cfg.size() && (t[1] == dnnl_u8 || t[1] == dnnl_s8);
    }
    bool int8() const {
        dnnl_data_type_t t[4];
        return int8_types(t);
    }
    bool s8_data() const {
        dnnl_data_type_t t[4];
        return int8_types(t) && t[1] == dnnl_s8;
    }
    static constexpr double data_scale = 64;
    double data_shift() const { return s8_data() ? 0 : 128; }
    // --scaling=common: one weights scale; per_oc: one per gate column.
    double wscale(int64_t col) const { return c_.per_oc_scales ? 30 + col % 7 : 31; }
    // Projection weights: one scale, or with per_oc one per output channel.
    double pscale(int64_t col) const { return c_.per_oc_scales ? 100 + col % 5 : 97; }

    dnnl_data_type_t dt(int k) const {
        // oneDNN's bf16 cfg keeps the bias and cell states in bf16 too; bf16f32 has them f32.
        if (c_.cfg == "bf16" && (k == BIA || k == SC || k == DC)) return dnnl_bf16;
        if (c_.cfg == "f32" || k == BIA || k == WPH || k == SC || k == DC || k == ATT)
            return dnnl_f32;
        dnnl_data_type_t t[4];
        if (int8_types(t)) {
            if (k == WL || k == WI || k == WPR) return dnnl_s8;
            return k == SI ? t[0] : k == SL ? t[1] : k == DI ? t[2] : k == DL ? t[3] : dnnl_f32;
        }
        return c_.cfg == "f16" ? dnnl_f16 : dnnl_bf16;
    }
    // bf16: bf16 data, weights, bias and cell states; bf16f32: f32 bias and cell states.
    bool bf16() const { return c_.cfg == "bf16" || c_.cfg == "bf16f32"; }

    std::string repro() const override {
        repro_t r("rnn");
        r.knob("prop", dir2str(c_.prop), "FWD_D")
                .knob("cfg", c_.cfg, "f32")
                .knob("alg", cell2str(c_.cell), "VANILLA_RNN")
                .knob("direction", direction2str(c_.direction), "left2right")
                .knob("activation", activation2str(c_.activation), "RELU")
                .knob("alpha", c_.alpha == 0.f ? "0" : std::to_string(c_.alpha), "0")
                .knob("with-peephole", c_.peephole ? "true" : "false", "false")
                .knob("with-projection", c_.projection ? "true" : "false", "false")
                .knob("flags", c_.flags ? "O" : "", "")
                .knob("scaling", c_.per_oc_scales ? "per_oc" : "common", "common");
        return r.str(desc2str(c_.d));
    }

    std::string skip_reason() const override {
        if (c_.cfg != "f32" && !bf16() && c_.cfg != "f16" && !int8())
            return "cfg " + c_.cfg + " not handled by the tester";
        // oneDNN's benchdnn skips int8 beyond LSTM and GRU inference as well.
        if (int8() && (c_.prop != dir_t::fwd_i
                              || !(lstm() || c_.cell == dnnl_vanilla_gru || c_.cell == dnnl_lbr_gru)))
            return "int8 is LSTM/GRU/LBR_GRU inference";
        if (c_.prop != dir_t::fwd_i && c_.prop != dir_t::fwd_d && c_.prop != dir_t::bwd_dw)
            return "rnn has FWD_I, FWD_D and BWD_DW";
        if ((c_.peephole || c_.projection) && !lstm()) return "peephole/projection are LSTM only";
        if ((c_.cell == dnnl_vanilla_augru || c_.cell == dnnl_lbr_augru)
                && (L > 1 || c_.direction != dnnl_unidirectional_left2right))
            return "AUGRU is one layer, left2right (oneDNN's rule)";
        if (c_.cell == dnnl_vanilla_rnn && c_.activation == dnnl_alg_kind_undef)
            return "a vanilla RNN needs an activation";
        // oneDNN's benchdnn skips these as invalid too: the state fed back (dic channels) must
        // fit weights_iter (sic rows) after the first step, and GRU gates multiply h by itself.
        if (!c_.projection && c_.d.DIC != c_.d.DHC) return "dic differs from dhc without projection";
        if (SIC != DIC && T > 1) return "sic differs from dic over several time steps";
        if (SIC != DIC && gru()) return "GRU/AUGRU need sic equal to dic";
        if (L > 1 && SLC != DIC) return "several layers need slc equal to dic";
        return {};
    }

    double flops() const override {
        const double step = 2.0 * N * G * DHC * (SLC + SIC) + (lstm() && c_.projection ? 2.0 * N * DHC * DIC : 0);
        return L * D * T * step * (bwd() ? 3 : 1);
    }

    dnnl_status_t make_mds(md_h *m) {
        for (int k = 0; k < NT; ++k) {
            if (!has(k)) continue;
            const dims_t d = dims(k);
            const std::string tag = d.size() == 5 ? "abcde" : d.size() == 4 ? "abcd" : "abc";
            // int8 weights plain: a packed layout would be written through a reorder.
            const bool any = (k == WL || k == WI || k == WPR) && !int8();
            dnnl_status_t st = make_md(m[k], d, dt(k), any ? "any" : tag);
            if (st != dnnl_success) return st;
        }
        return dnnl_success;
    }

    dnnl_status_t call(pd_h &pd, dnnl_engine_t e, dnnl_prop_kind_t prop, md_h *m, md_h *dm,
            const_dnnl_primitive_desc_t hint) {
        const_dnnl_memory_desc_t a[NT] = {}, b[NT] = {};
        for (int k = 0; k < NT; ++k) {
            a[k] = m[k].get();
            b[k] = dm ? dm[k].get() : nullptr;
        }
        const unsigned f = c_.flags;
        const_dnnl_primitive_attr_t attr = dm ? nullptr : attr_.get();
        switch (c_.cell) {
            case dnnl_vanilla_rnn:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_vanilla_rnn_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.activation, c_.direction, a[SL], a[SI], a[WL],
                            a[WI], a[BIA], a[DL], a[DI], b[SL], b[SI], b[WL], b[WI], b[BIA], b[DL],
                            b[DI], f, c_.alpha, 0.f, hint, nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_vanilla_rnn_forward_primitive_desc_create,
                        pd.out(), e, prop, c_.activation, c_.direction, a[SL], a[SI], a[WL],
                        a[WI], a[BIA], a[DL], a[DI], f, c_.alpha, 0.f, attr);
            case dnnl_vanilla_lstm:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_lstm_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.direction, a[SL], a[SI], a[SC], a[WL], a[WI],
                            a[WPH], a[WPR], a[BIA], a[DL], a[DI], a[DC], b[SL], b[SI], b[SC],
                            b[WL], b[WI], b[WPH], b[WPR], b[BIA], b[DL], b[DI], b[DC], f, hint,
                            nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_lstm_forward_primitive_desc_create, pd.out(),
                        e, prop, c_.direction, a[SL], a[SI], a[SC], a[WL], a[WI], a[WPH], a[WPR],
                        a[BIA], a[DL], a[DI], a[DC], f, attr);
            case dnnl_vanilla_gru:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_gru_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.direction, a[SL], a[SI], a[WL], a[WI], a[BIA],
                            a[DL], a[DI], b[SL], b[SI], b[WL], b[WI], b[BIA], b[DL], b[DI], f,
                            hint, nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_gru_forward_primitive_desc_create, pd.out(), e,
                        prop, c_.direction, a[SL], a[SI], a[WL], a[WI], a[BIA], a[DL], a[DI], f,
                        attr);
            case dnnl_lbr_gru:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_lbr_gru_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.direction, a[SL], a[SI], a[WL], a[WI], a[BIA],
                            a[DL], a[DI], b[SL], b[SI], b[WL], b[WI], b[BIA], b[DL], b[DI], f,
                            hint, nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_lbr_gru_forward_primitive_desc_create,
                        pd.out(), e, prop, c_.direction, a[SL], a[SI], a[WL], a[WI], a[BIA],
                        a[DL], a[DI], f, attr);
            case dnnl_vanilla_augru:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_augru_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.direction, a[SL], a[SI], a[ATT], a[WL], a[WI],
                            a[BIA], a[DL], a[DI], b[SL], b[SI], b[ATT], b[WL], b[WI], b[BIA],
                            b[DL], b[DI], f, hint, nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_augru_forward_primitive_desc_create,
                        pd.out(), e, prop, c_.direction, a[SL], a[SI], a[ATT], a[WL], a[WI],
                        a[BIA], a[DL], a[DI], f, attr);
            default:
                if (dm)
                    return BENCHDNN_CALL_OP(*this, dnnl_lbr_augru_backward_primitive_desc_create,
                            pd.out(), e, prop, c_.direction, a[SL], a[SI], a[ATT], a[WL], a[WI],
                            a[BIA], a[DL], a[DI], b[SL], b[SI], b[ATT], b[WL], b[WI], b[BIA],
                            b[DL], b[DI], f, hint, nullptr);
                return BENCHDNN_CALL_OP(*this, dnnl_lbr_augru_forward_primitive_desc_create,
                        pd.out(), e, prop, c_.direction, a[SL], a[SI], a[ATT], a[WL], a[WI],
                        a[BIA], a[DL], a[DI], f, attr);
        }
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h m[NT], dm[NT];
        if (int8()) {
            BENCHDNN_CHECK(dnnl_primitive_attr_create(attr_.out()));
            BENCHDNN_CHECK(dnnl_primitive_attr_set_rnn_data_qparams(
                    attr_.get(), float(data_scale), float(data_shift())));
            const int64_t nws = c_.per_oc_scales ? G * DHC : 1;
            std::vector<float> ws(nws);
            for (int64_t j = 0; j < nws; ++j)
                ws[j] = float(wscale(j));
            BENCHDNN_CHECK(dnnl_primitive_attr_set_rnn_weights_qparams(
                    attr_.get(), nws, c_.per_oc_scales ? 24 : 0, ws.data()));
            if (has(WPR)) {
                const int64_t nps = c_.per_oc_scales ? DIC : 1;
                std::vector<float> ps(nps);
                for (int64_t j = 0; j < nps; ++j)
                    ps[j] = float(pscale(j));
                BENCHDNN_CHECK(dnnl_primitive_attr_set_rnn_weights_projection_qparams(
                        attr_.get(), nps, c_.per_oc_scales ? 8 : 0, ps.data()));
            }
        }
        dnnl_status_t st = make_mds(m);
        if (st != dnnl_success) return st;
        if (!bwd())
            return call(pd, engine,
                    c_.prop == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training, m,
                    nullptr, nullptr);
        st = call(hint_, engine, dnnl_forward_training, m, nullptr, nullptr);
        if (st != dnnl_success) return st;
        st = make_mds(dm);
        if (st != dnnl_success) return st;
        return call(pd, engine, dnnl_backward, m, dm, hint_.get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](const_dnnl_primitive_desc_t p, int arg) {
            return dnnl_primitive_desc_query_md(p, dnnl_query_exec_arg_md, arg);
        };
        for (int k = 0; k < DL; ++k) {
            if (!has(k)) continue;
            fill_range_t r;
            r.lo = k == ATT ? 0 : -1;
            r.hi = 1;
            if (k == WL || k == WI || k == WPR) r.lo = -0.5, r.hi = 0.5;
            r.zero_share = 0;
            const bool weights = k == WL || k == WI || k == WPR;
            if (dt(k) == dnnl_u8) r.lo = 64, r.hi = 192, r.integers = true;
            if (dt(k) == dnnl_s8) r.lo = weights ? -20 : -64, r.hi = weights ? 20 : 64, r.integers = true;
            in_[k] = fill_values(product(dims(k)), clamp_range(r, dt(k)), dt(k), 10 + k);
            args.add(fwd_arg[k], md_of(pd, fwd_arg[k])).write(in_[k]);
            // The reference computes on the values the integers stand for.
            for (size_t i = 0; i < in_[k].size(); ++i) {
                if (k == WPR && dt(k) == dnnl_s8) in_[k][i] /= pscale(int64_t(i) % DIC);
                else if (weights && dt(k) == dnnl_s8) in_[k][i] /= wscale(int64_t(i) % (G * DHC));
                else if (dt(k) == dnnl_u8 || dt(k) == dnnl_s8)
                    in_[k][i] = (in_[k][i] - data_shift()) / data_scale;
            }
        }
        const_dnnl_memory_desc_t ws_md = md_of(pd, DNNL_ARG_WORKSPACE);
        const bool ws = dnnl_memory_desc_get_size(ws_md) > 0;
        if (!bwd()) {
            for (int k : {DL, DI, DC})
                if (has(k))
                    args.add(fwd_arg[k], md_of(pd, fwd_arg[k]))
                            .write(std::vector<double>(product(dims(k)), 0));
            if (ws) args.add(DNNL_ARG_WORKSPACE, ws_md);
            return;
        }
        // Backward: run the forward hint (in its own layouts, which may differ from the
        // backward's) for the workspace and dst, then the diff inputs.
        test_mem_t &w = args.add(DNNL_ARG_WORKSPACE, ws_md);
        std::vector<dnnl_exec_arg_t> fa;
        for (int k = 0; k < NT; ++k) {
            if (!has(k)) continue;
            hmem_[k] = test_mem_t(md_of(hint_.get(), fwd_arg[k]), test_engine());
            if (k < DL) hmem_[k].write(in_[k]);
            fa.push_back({fwd_arg[k], hmem_[k].get()});
        }
        fa.push_back({DNNL_ARG_WORKSPACE, w.get()});
        dnnl_primitive_t p = nullptr;
        if (dnnl_primitive_create(&p, hint_.get()) == dnnl_success) {
            dnnl_primitive_execute(p, test_stream(), static_cast<int>(fa.size()), fa.data());
            dnnl_stream_wait(test_stream());
            dnnl_primitive_destroy(p);
        }
        for (int k : {DL, DI, DC})
            if (has(k)) args.add(fwd_arg[k], md_of(pd, fwd_arg[k])).write(hmem_[k].read());
        for (int k = 0; k < NT; ++k) {
            if (!has(k)) continue;
            if (k >= DL) {
                fill_range_t r;
                r.lo = -1;
                r.hi = 1;
                dout_[k] = fill_values(product(dims(k)), clamp_range(r, dt(k)), dt(k), 20 + k);
                args.add(diff_arg[k], md_of(pd, diff_arg[k])).write(dout_[k]);
            } else {
                args.add(diff_arg[k], md_of(pd, diff_arg[k]))
                        .write(std::vector<double>(product(dims(k)), 0));
            }
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        forward();
        tolerance_t tol;
        tol.eps = bf16() ? 3e-2 : c_.cfg == "f16" ? 5e-3 : bwd() ? 2e-4 : 5e-5;
        tol.int_diff = 1; // u8 outputs: one quantization step
        if (!bwd()) {
            for (int k : {DL, DI, DC}) {
                if (!has(k)) continue;
                if (dt(k) == dnnl_u8 || dt(k) == dnnl_s8) {
                    const double lo = dt(k) == dnnl_u8 ? 0 : -128, hi = dt(k) == dnnl_u8 ? 255 : 127;
                    for (auto &v : out_[k])
                        v = std::min(hi, std::max(lo, std::round(v * data_scale + data_shift())));
                }
                if (!check_output(args.at(fwd_arg[k]), out_[k], tol, msg)) return false;
            }
            return true;
        }
        backward();
        for (int k = 0; k < DL; ++k)
            if (has(k) && !check_output(args.at(diff_arg[k]), grad_[k], tol, msg)) return false;
        return true;
    }

private:
    // What backward needs of one step of one layer of one stack.
    struct step_t {
        std::vector<double> x, hp, cp, gates, ct, hh, hu, rh;
        int64_t hw = 0; // channels of hp: SIC at the first step, DIC after
    };

    int64_t time_of(int64_t d, int64_t k) const {
        const bool rev = c_.direction == dnnl_unidirectional_right2left || d == 1;
        return rev ? T - 1 - k : k;
    }
    double w(int k, int64_t ld, int64_t rows, int64_t i, int64_t g, int64_t o) const {
        return in_[k][((ld * rows + i) * G + g) * DHC + o];
    }
    double bias(int64_t ld, int64_t g, int64_t o) const { return in_[BIA][(ld * GB + g) * DHC + o]; }
    double peep(int64_t ld, int g, int64_t o) const {
        return c_.peephole ? in_[WPH][(ld * 3 + g) * DHC + o] : 0.0;
    }
    double act(double s) const {
        switch (c_.activation) {
            case dnnl_eltwise_relu: return s > 0 ? s : c_.alpha * s;
            case dnnl_eltwise_tanh: return std::tanh(s);
            default: return sigm(s);
        }
    }
    double act_grad(double s) const {
        switch (c_.activation) {
            case dnnl_eltwise_relu: return s > 0 ? 1 : c_.alpha;
            case dnnl_eltwise_tanh: return 1 - std::tanh(s) * std::tanh(s);
            default: return sigm(s) * (1 - sigm(s));
        }
    }

    void forward() {
        const int64_t H = DHC;
        for (int k : {DL, DI, DC})
            out_[k].assign(product(dims(k)), 0.0);
        steps_.assign(L * D * T, step_t());
        for (int64_t d = 0; d < D; ++d) {
            int64_t C = SLC;
            std::vector<double> x = in_[SL];
            for (int64_t l = 0; l < L; ++l) {
                const int64_t ld = l * D + d;
                int64_t hwid = SIC; // the initial state has sic channels
                std::vector<double> h(N * SIC), c(N * H, 0.0), y(T * N * DIC);
                for (int64_t i = 0; i < N * SIC; ++i)
                    h[i] = in_[SI][ld * N * SIC + i];
                if (lstm())
                    for (int64_t i = 0; i < N * H; ++i)
                        c[i] = in_[SC][ld * N * H + i];
                for (int64_t k = 0; k < T; ++k) {
                    const int64_t t = time_of(d, k);
                    step_t &s = steps_[ld * T + k];
                    s.x.assign(x.begin() + t * N * C, x.begin() + (t + 1) * N * C);
                    s.hp = h;
                    s.hw = hwid;
                    s.cp = c;
                    s.gates.assign(N * G * H, 0.0);
                    s.ct.assign(N * H, 0.0);
                    s.hh.assign(N * H, 0.0);
                    s.hu.assign(N * H, 0.0);
                    s.rh.assign(N * H, 0.0);
                    std::vector<double> hn(N * DIC);
                    for (int64_t n = 0; n < N; ++n) {
                        std::vector<double> xw(G * H), hw(G * H);
                        for (int64_t g = 0; g < G; ++g)
                            for (int64_t o = 0; o < H; ++o) {
                                double sx = bias(ld, g, o), sh = 0;
                                for (int64_t i = 0; i < C; ++i)
                                    sx += s.x[n * C + i] * w(WL, ld, C, i, g, o);
                                for (int64_t i = 0; i < hwid; ++i)
                                    sh += h[n * hwid + i] * w(WI, ld, SIC, i, g, o);
                                xw[g * H + o] = sx;
                                hw[g * H + o] = sh;
                            }
                        double *gt = &s.gates[n * G * H];
                        const double a = augru() ? in_[ATT][t * N + n] : 0;
                        if (c_.cell == dnnl_vanilla_rnn) {
                            for (int64_t o = 0; o < H; ++o) {
                                gt[o] = xw[o] + hw[o];
                                s.hh[n * H + o] = act(gt[o]);
                            }
                        } else if (lstm()) {
                            for (int64_t o = 0; o < H; ++o) {
                                const double cp = c[n * H + o];
                                gt[o] = sigm(xw[o] + hw[o] + peep(ld, 0, o) * cp);
                                gt[H + o] = sigm(xw[H + o] + hw[H + o] + peep(ld, 1, o) * cp);
                                gt[2 * H + o] = std::tanh(xw[2 * H + o] + hw[2 * H + o]);
                                const double ct = gt[H + o] * cp + gt[o] * gt[2 * H + o];
                                gt[3 * H + o] = sigm(xw[3 * H + o] + hw[3 * H + o] + peep(ld, 2, o) * ct);
                                s.ct[n * H + o] = ct;
                                s.hh[n * H + o] = gt[3 * H + o] * std::tanh(ct);
                            }
                        } else {
                            for (int64_t o = 0; o < H; ++o) {
                                gt[o] = sigm(xw[o] + hw[o]);
                                gt[H + o] = sigm(xw[H + o] + hw[H + o]);
                                s.rh[n * H + o] = gt[H + o] * h[n * hwid + o];
                            }
                            for (int64_t o = 0; o < H; ++o) {
                                if (lbr()) {
                                    s.hu[n * H + o] = hw[2 * H + o] + bias(ld, 3, o);
                                    gt[2 * H + o] = std::tanh(xw[2 * H + o] + gt[H + o] * s.hu[n * H + o]);
                                } else {
                                    double sum = xw[2 * H + o];
                                    for (int64_t i = 0; i < hwid; ++i)
                                        sum += s.rh[n * H + i] * w(WI, ld, SIC, i, 2, o);
                                    gt[2 * H + o] = std::tanh(sum);
                                }
                                const double ue = (1 - a) * gt[o];
                                s.hh[n * H + o] = ue * h[n * hwid + o] + (1 - ue) * gt[2 * H + o];
                            }
                        }
                        for (int64_t j = 0; j < DIC; ++j) {
                            double v = 0;
                            if (lstm() && c_.projection)
                                for (int64_t o = 0; o < H; ++o)
                                    v += s.hh[n * H + o] * in_[WPR][(ld * H + o) * DIC + j];
                            else
                                v = s.hh[n * H + j];
                            hn[n * DIC + j] = v;
                        }
                    }
                    h = hn;
                    hwid = DIC;
                    if (lstm()) c = s.ct;
                    std::copy(h.begin(), h.end(), y.begin() + t * N * DIC);
                }
                std::copy(h.begin(), h.end(), out_[DI].begin() + ld * N * DIC);
                if (lstm()) std::copy(c.begin(), c.end(), out_[DC].begin() + ld * N * H);
                x = y;
                C = DIC;
            }
            for (int64_t t = 0; t < T; ++t)
                for (int64_t n = 0; n < N; ++n)
                    for (int64_t j = 0; j < DIC; ++j) {
                        const double v = x[(t * N + n) * DIC + j];
                        const int64_t col = c_.direction == dnnl_bidirectional_concat ? d * DIC + j : j;
                        out_[DL][(t * N + n) * DLC + col] += v;
                    }
        }
    }

    void backward() {
        const int64_t H = DHC;
        for (int k = 0; k < DL; ++k)
            grad_[k].assign(product(dims(k)), 0.0);
        for (int64_t d = 0; d < D; ++d) {
            std::vector<double> top; // gradient of this layer's outputs from the layer above
            for (int64_t l = L - 1; l >= 0; --l) {
                const int64_t ld = l * D + d, C = l == 0 ? SLC : DIC;
                std::vector<double> dh(N * DIC), dc(N * H, 0.0), below(T * N * C, 0.0);
                for (int64_t i = 0; i < N * DIC; ++i)
                    dh[i] = dout_[DI][ld * N * DIC + i];
                if (lstm())
                    for (int64_t i = 0; i < N * H; ++i)
                        dc[i] = dout_[DC][ld * N * H + i];
                for (int64_t k = T - 1; k >= 0; --k) {
                    const int64_t t = time_of(d, k);
                    const step_t &s = steps_[ld * T + k];
                    std::vector<double> dhh(N * H, 0.0), dg(N * G * H, 0.0), dhu(N * H, 0.0);
                    const int64_t hw = s.hw;
                    std::vector<double> dhp(N * hw, 0.0);
                    for (int64_t n = 0; n < N; ++n) {
                        std::vector<double> g(DIC);
                        for (int64_t j = 0; j < DIC; ++j) {
                            const double tg = l == L - 1
                                    ? dout_[DL][(t * N + n) * DLC
                                              + (c_.direction == dnnl_bidirectional_concat ? d * DIC : 0) + j]
                                    : top[(t * N + n) * DIC + j];
                            g[j] = dh[n * DIC + j] + tg;
                        }
                        if (lstm() && c_.projection) {
                            for (int64_t o = 0; o < H; ++o)
                                for (int64_t j = 0; j < DIC; ++j) {
                                    grad_[WPR][(ld * H + o) * DIC + j] += s.hh[n * H + o] * g[j];
                                    dhh[n * H + o] += g[j] * in_[WPR][(ld * H + o) * DIC + j];
                                }
                        } else {
                            for (int64_t o = 0; o < H; ++o)
                                dhh[n * H + o] = g[o];
                        }
                        const double *gt = &s.gates[n * G * H];
                        double *dgt = &dg[n * G * H];
                        const double a = augru() ? in_[ATT][t * N + n] : 0;
                        for (int64_t o = 0; o < H; ++o) {
                            const double dy = dhh[n * H + o];
                            if (c_.cell == dnnl_vanilla_rnn) {
                                dgt[o] = dy * act_grad(gt[o]);
                            } else if (lstm()) {
                                const double i = gt[o], f = gt[H + o], cc = gt[2 * H + o],
                                             og = gt[3 * H + o], ct = s.ct[n * H + o],
                                             cp = s.cp[n * H + o], tc = std::tanh(ct);
                                dgt[3 * H + o] = dy * tc * og * (1 - og);
                                const double dct = dc[n * H + o] + dy * og * (1 - tc * tc)
                                        + dgt[3 * H + o] * peep(ld, 2, o);
                                dgt[o] = dct * cc * i * (1 - i);
                                dgt[H + o] = dct * cp * f * (1 - f);
                                dgt[2 * H + o] = dct * i * (1 - cc * cc);
                                dc[n * H + o] = dct * f + dgt[o] * peep(ld, 0, o)
                                        + dgt[H + o] * peep(ld, 1, o);
                                if (c_.peephole) {
                                    grad_[WPH][(ld * 3 + 0) * H + o] += dgt[o] * cp;
                                    grad_[WPH][(ld * 3 + 1) * H + o] += dgt[H + o] * cp;
                                    grad_[WPH][(ld * 3 + 2) * H + o] += dgt[3 * H + o] * ct;
                                }
                            } else {
                                const double u = gt[o], og = gt[2 * H + o], hp = s.hp[n * hw + o];
                                const double ue = (1 - a) * u, due = dy * (hp - og);
                                if (augru()) grad_[ATT][t * N + n] -= due * u;
                                dgt[o] = due * (1 - a) * u * (1 - u);
                                dgt[2 * H + o] = dy * (1 - ue) * (1 - og * og);
                                dhp[n * hw + o] += dy * ue;
                            }
                        }
                        if (gru()) {
                            for (int64_t o = 0; o < H; ++o) {
                                const double r = gt[H + o];
                                if (lbr()) {
                                    dgt[H + o] = dgt[2 * H + o] * s.hu[n * H + o] * r * (1 - r);
                                    dhu[n * H + o] = dgt[2 * H + o] * r;
                                } else {
                                    double drh = 0;
                                    for (int64_t j = 0; j < H; ++j)
                                        drh += dgt[2 * H + j] * w(WI, ld, SIC, o, 2, j);
                                    dgt[H + o] = drh * s.hp[n * hw + o] * r * (1 - r);
                                    dhp[n * hw + o] += drh * r;
                                }
                            }
                        }
                    }
                    // Weights, bias, and the gradients flowing to the input and previous state.
                    for (int64_t n = 0; n < N; ++n)
                        for (int64_t g = 0; g < G; ++g)
                            for (int64_t o = 0; o < H; ++o) {
                                const double gx = dg[(n * G + g) * H + o];
                                // The recurrent part of LBR's o gate and GRU's o gate differ.
                                const bool o_gate = gru() && g == 2;
                                const double gh = o_gate && lbr() ? dhu[n * H + o] : gx;
                                grad_[BIA][(ld * GB + g) * H + o] += gx;
                                for (int64_t i = 0; i < C; ++i) {
                                    grad_[WL][((ld * C + i) * G + g) * H + o] += s.x[n * C + i] * gx;
                                    below[(t * N + n) * C + i] += gx * w(WL, ld, C, i, g, o);
                                }
                                for (int64_t i = 0; i < hw; ++i) {
                                    const double hin = o_gate && !lbr() ? s.rh[n * H + i] : s.hp[n * hw + i];
                                    grad_[WI][((ld * SIC + i) * G + g) * H + o] += hin * gh;
                                    if (!(o_gate && !lbr()))
                                        dhp[n * hw + i] += gh * w(WI, ld, SIC, i, g, o);
                                }
                                if (o_gate && lbr()) grad_[BIA][(ld * GB + 3) * H + o] += gh;
                            }
                    dh = dhp;
                }
                // After the first step dh holds the initial state's gradient (sic channels).
                for (int64_t i = 0; i < N * SIC; ++i)
                    grad_[SI][ld * N * SIC + i] = dh[i];
                if (lstm())
                    for (int64_t i = 0; i < N * H; ++i)
                        grad_[SC][ld * N * H + i] = dc[i];
                if (l == 0)
                    for (size_t i = 0; i < below.size(); ++i)
                        grad_[SL][i] += below[i];
                top = below;
            }
        }
    }

    rnn_cfg_t c_;
    int64_t L, D, T, N, SLC, SIC, DHC, DIC, DLC, G, GB;
    pd_h hint_;
    attr_h attr_;
    std::vector<double> in_[NT], out_[NT], dout_[NT], grad_[NT];
    std::vector<step_t> steps_;
    test_mem_t hmem_[NT];
};

class rnn_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const rnn_desc_t desc_d = parse_rnn_desc(desc);
        for_each_problem([&] {
            // --l, --t and --mb replace the problem's layers, time steps and batch.
            rnn_desc_t d = desc_d;
            if (l_ > 0) d.L = l_;
            if (t_ > 0) d.T = t_;
            if (mb_ > 0) d.N = mb_;
            rnn_prb_t prb({prop_, cell_, activation_, direction_, cfg_, peephole_, projection_,
                    flags_, scaling_, alpha_, d});
            run_problem(prb);
        });
    }

private:
    const dir_t &prop_ = knob({"--prop"}, {dir_t::fwd_d}, str2dir);
    const std::string &cfg_ = knob({"--cfg"}, {"f32"}, [](const std::string &s) { return s; });
    const dnnl_alg_kind_t &cell_ = knob({"--alg"}, {dnnl_vanilla_rnn}, str2cell);
    const dnnl_rnn_direction_t &direction_
            = knob({"--direction"}, {dnnl_unidirectional_left2right}, str2direction);
    const dnnl_alg_kind_t &activation_ = knob({"--activation"}, {dnnl_eltwise_relu}, str2activation);
    const float &alpha_ = knob({"--alpha"}, {0.f},
            [](const std::string &s) { return float(parse_number(s, "alpha")); });
    const bool &peephole_ = knob({"--with-peephole"}, {false}, parse_bool);
    const bool &projection_ = knob({"--with-projection"}, {false}, parse_bool);
    const unsigned &flags_ = knob({"--flags"}, {0u}, [](const std::string &s) -> unsigned {
        if (s.empty()) return 0;
        if (s == "O") return dnnl_rnn_flags_diff_weights_overwrite;
        throw std::invalid_argument("unknown rnn flags '" + s + "'");
    });
    const int64_t &l_ = knob({"--l"}, {int64_t(0)}, integer_item("layers", 0, 1 << 20));
    const int64_t &t_ = knob({"--t"}, {int64_t(0)}, integer_item("time steps", 0, 1 << 20));
    const int64_t &mb_ = mb_knob();
    const bool &scaling_ = knob({"--scaling"}, {false}, [](const std::string &s) {
        if (s.empty() || s == "common") return false;
        if (s == "per_oc") return true;
        throw std::invalid_argument("unknown rnn scaling '" + s + "'");
    });
};

} // namespace

BENCHDNN_REGISTER_DRIVER("rnn", rnn_driver_t);

} // namespace benchdnn
