// --conv and --deconv: forward (FWD_B with bias, FWD_D / FWD_I without), BWD_D, BWD_W, BWD_WB;
// knobs --dt (one type, or src:wei:dst), --stag, --wtag, --dtag, --alg; problems in benchdnn's
// syntax gXmbXicXidXihXiwXocXodXohXowXkdXkhXkwXsdXshXswXpdXphXpwXddXdhXdwX_nNAME (absent inner
// spatial sizes repeat the outer ones; absent outputs follow from padding, absent padding
// from outputs). Reference: one loop nest over (n, g, oc, ic, small position, kernel
// position); the big side (conv src, deconv dst) is at small * s - p + k * (d + 1).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>

#include "attr.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct conv_desc_t {
    bool has_groups = false;
    int64_t g = 1, mb = 2, ic = 1, oc = 1;
    int nsp = 0;
    // d, h, w
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
            pl[3] = {0, 0, 0}, pr[3] = {0, 0, 0}, d[3] = {0, 0, 0};
    std::string text;

    dims_t sp(const int64_t *v, int64_t a, int64_t b) const {
        dims_t r = {a, b};
        for (int x = 3 - nsp; x < 3; ++x)
            r.push_back(v[x]);
        return r;
    }
    dims_t src_dims() const { return sp(i, mb, ic); }
    dims_t dst_dims() const { return sp(o, mb, oc); }
    dims_t wei_dims() const {
        dims_t r;
        if (has_groups) r.push_back(g);
        r.push_back(oc / g);
        r.push_back(ic / g);
        for (int x = 3 - nsp; x < 3; ++x)
            r.push_back(k[x]);
        return r;
    }
    dims_t spatial(const int64_t *v) const {
        dims_t r;
        for (int x = 3 - nsp; x < 3; ++x)
            r.push_back(v[x]);
        return r;
    }
};

// Sizes in benchdnn's convention: i is src and o dst for both kinds; for deconvolution the
// relation runs from dst (big) to src (small).
conv_desc_t parse_conv_desc(const std::string &s, bool deconv) {
    conv_desc_t r;
    r.text = s;
    static const char *keys[] = {"mb", "ic", "id", "ih", "iw", "oc", "od", "oh", "ow", "kd",
            "kh", "kw", "sd", "sh", "sw", "pd", "ph", "pw", "dd", "dh", "dw", "g"};
    const int nkeys = 22;
    int64_t v[22];
    bool has[22] = {};
    size_t p = 0;
    auto bad = [&]() { return std::invalid_argument("bad convolution descriptor '" + s + "'"); };
    while (p < s.size()) {
        if (s[p] == '_') {
            ++p;
            continue;
        }
        if (s[p] == 'n' && (p + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[p + 1])))) {
            if (p + 1 < s.size() && s[p + 1] == '"') {
                const size_t e = s.find('"', p + 2);
                if (e == std::string::npos) throw bad();
                p = e + 1;
            } else {
                while (p < s.size() && s[p] != '_') ++p;
            }
            continue;
        }
        int key = -1;
        for (int j = 0; j < nkeys && key < 0; ++j) {
            const size_t len = std::strlen(keys[j]);
            if (s.compare(p, len, keys[j]) == 0) key = j;
        }
        if (key < 0) throw bad();
        p += std::strlen(keys[key]);
        size_t e = p;
        while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
        if (e == p) throw bad();
        v[key] = std::stoll(s.substr(p, e - p));
        has[key] = true;
        p = e;
    }
    if (!has[1] || !has[5]) throw std::invalid_argument("convolution descriptor needs ic and oc: '" + s + "'");
    if (has[0]) r.mb = v[0];
    r.ic = v[1];
    r.oc = v[5];
    if (has[21]) {
        r.g = v[21];
        r.has_groups = true;
        if (r.g < 1 || r.ic % r.g || r.oc % r.g) throw std::invalid_argument("groups do not divide channels: '" + s + "'");
    }
    // Families: i (2..4), o (6..8), k (9..11), s (12..14), p (15..17), d (18..20).
    auto any_of = [&](int x) { return has[2 + x] || has[6 + x] || has[9 + x] || has[12 + x] || has[15 + x] || has[18 + x]; };
    r.nsp = any_of(0) ? 3 : any_of(1) ? 2 : 1;
    if (!has[2] && !has[3] && !has[4]) throw std::invalid_argument("convolution descriptor needs an input size: '" + s + "'");
    auto fill = [&](int base, int64_t *out, int64_t dflt, bool *given) {
        int64_t last = -1;
        for (int x = 3 - r.nsp; x < 3; ++x) {
            if (has[base + x]) last = v[base + x];
            given[x] = last >= 0;
            out[x] = last >= 0 ? last : dflt;
        }
    };
    bool gi[3], go[3], gk[3], gs[3], gp[3], gd[3];
    fill(2, r.i, 1, gi);
    fill(6, r.o, 1, go);
    fill(9, r.k, 1, gk);
    fill(12, r.s, 1, gs);
    fill(15, r.pl, 0, gp);
    fill(18, r.d, 0, gd);
    for (int x = 3 - r.nsp; x < 3; ++x) {
        if (r.s[x] <= 0) throw std::invalid_argument("convolution stride must be positive");
        const int64_t ext = (r.k[x] - 1) * (r.d[x] + 1) + 1;
        // big / small sides of the relation small = (big + pl + pr - ext) / s + 1.
        int64_t &big = deconv ? r.o[x] : r.i[x];
        int64_t &small = deconv ? r.i[x] : r.o[x];
        const bool big_given = deconv ? go[x] : gi[x], small_given = deconv ? gi[x] : go[x];
        if (!small_given && !deconv) small = (big + 2 * r.pl[x] - ext) / r.s[x] + 1;
        if (deconv && !big_given) big = (small - 1) * r.s[x] + ext - 2 * r.pl[x];
        if (!gp[x] && (deconv ? big_given : small_given))
            r.pl[x] = std::max<int64_t>(0, ((small - 1) * r.s[x] + ext - big) / 2);
        r.pr[x] = (small - 1) * r.s[x] + ext - big - r.pl[x];
    }
    return r;
}

// --mb: the minibatch of the problem and of its text, so the repro line runs the same problem.
void set_mb(conv_desc_t &d, int64_t mb) {
    d.mb = mb;
    const std::string v = "mb" + std::to_string(mb);
    std::string &t = d.text;
    const size_t at = t.find("mb");
    if (at != std::string::npos && at + 2 < t.size() && std::isdigit(static_cast<unsigned char>(t[at + 2]))) {
        size_t end = at + 2;
        while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end])))
            ++end;
        t.replace(at, end - at, v);
        return;
    }
    // No mb in the text: it goes after the groups, where the syntax puts it.
    size_t pos = 0;
    if (!t.empty() && t[0] == 'g')
        for (pos = 1; pos < t.size() && std::isdigit(static_cast<unsigned char>(t[pos])); ++pos) {}
    t.insert(pos, v);
}

struct conv_cfg_t {
    bool deconv;
    dir_t dir;
    dnnl_data_type_t sdt, wdt, ddt;
    std::string stag, wtag, dtag;
    dnnl_alg_kind_t alg;
    attr_desc_t attr;
    conv_desc_t desc;
};

class conv_prb_t : public problem_t {
public:
    explicit conv_prb_t(const conv_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r(c_.deconv ? "deconv" : "conv");
        std::string dt = dt2str(c_.sdt);
        if (c_.wdt != c_.sdt || c_.ddt != c_.sdt)
            dt += std::string(":") + dt2str(c_.wdt) + ":" + dt2str(c_.ddt);
        r.knob("dir", dir2str(c_.dir), "FWD_B")
                .knob("dt", dt, "f32")
                .knob("stag", c_.stag, "any")
                .knob("wtag", c_.wtag, "any")
                .knob("dtag", c_.dtag, "any")
                .knob("alg", c_.alg == dnnl_convolution_winograd ? "wino"
                                : c_.alg == dnnl_convolution_auto ? "auto"
                                                                  : "direct",
                        "direct")
                .raw(c_.attr.repro());
        return r.str(c_.desc.text);
    }

    std::string skip_reason() const override {
        for (auto t : {c_.sdt, c_.wdt, c_.ddt})
            if (!dt_supported(t)) return "data type not handled by the tester";
        if (c_.dir == dir_t::bwd_dw) return "no BWD_DW for convolutions";
        // Backward takes the math mode only (oneDNN's backward has no post-ops or scales).
        if (!is_fwd(c_.dir)
                && (!c_.attr.post_ops.empty() || !c_.attr.scales.empty()
                        || !c_.attr.zero_points.empty()))
            return "backward takes no post-ops, scales or zero points";
        return {};
    }

    double flops() const override {
        const auto &d = c_.desc;
        double small = 1, ker = 1;
        for (int x = 3 - d.nsp; x < 3; ++x) {
            small *= c_.deconv ? d.i[x] : d.o[x];
            ker *= d.k[x];
        }
        return 2.0 * d.mb * (d.oc / d.g) * (d.ic / d.g) * d.g * small * ker;
    }

    bool with_bias() const { return c_.dir == dir_t::fwd_b || c_.dir == dir_t::bwd_wb; }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        const auto &d = c_.desc;
        md_h s, w, b, t;
        dnnl_status_t st = make_md(s, d.src_dims(), c_.sdt, c_.stag);
        if (st == dnnl_success) st = make_md(w, d.wei_dims(), c_.wdt, c_.wtag);
        if (st == dnnl_success) st = make_md(t, d.dst_dims(), c_.ddt, c_.dtag);
        const dnnl_data_type_t bdt = is_fwd(c_.dir) ? dnnl_f32 : c_.ddt;
        if (st == dnnl_success && with_bias()) st = make_md(b, {d.oc}, bdt, "abx");
        if (st != dnnl_success) return st;
        const dims_t dd = d.dst_dims(), sd = d.src_dims(), wd = d.wei_dims();
        // oneDNN's per_oc on weights follows their dims: {OC, IC, ...} mask 1, grouped
        // {G, OC/G, IC/G, ...} mask 3 (group and channel within it).
        bundle_attr_ = c_.attr;
        for (auto &e : bundle_attr_.scales)
            if (e.arg == DNNL_ARG_WEIGHTS && e.policy == "per_oc")
                e.policy = d.has_groups ? "per_dim_01" : "per_dim_0";
        bundle_.reset(new attr_bundle_t(bundle_attr_, dd, [=](int arg) {
            return arg == DNNL_ARG_SRC ? sd : arg == DNNL_ARG_WEIGHTS ? wd : dd;
        }));
        dnnl_dims_t strides, dil, pl, pr;
        for (int x = 0; x < d.nsp; ++x) {
            const int c = 3 - d.nsp + x;
            strides[x] = d.s[c];
            dil[x] = d.d[c];
            pl[x] = d.pl[c];
            pr[x] = d.pr[c];
        }
        const dnnl_alg_kind_t alg = !c_.deconv                       ? c_.alg
                : c_.alg == dnnl_convolution_winograd ? dnnl_deconvolution_winograd
                                                      : dnnl_deconvolution_direct;
        auto fwd = [&](pd_h &out, dnnl_prop_kind_t prop, dnnl_primitive_attr_t a) {
            return c_.deconv
                    ? BENCHDNN_CALL_OP(*this, dnnl_deconvolution_forward_primitive_desc_create,
                            out.out(), engine, prop, alg, s.get(), w.get(), b.get(), t.get(),
                            strides, dil, pl, pr, a)
                    : BENCHDNN_CALL_OP(*this, dnnl_convolution_forward_primitive_desc_create,
                            out.out(), engine, prop, alg, s.get(), w.get(), b.get(), t.get(),
                            strides, dil, pl, pr, a);
        };
        if (is_fwd(c_.dir))
            return fwd(pd, c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training,
                    bundle_->get());
        // The hint sees the same (possibly any) descriptors, with a bias where BWD_WB has one.
        st = fwd(hint_, dnnl_forward_training, nullptr);
        if (st != dnnl_success) return st;
        if (c_.dir == dir_t::bwd_d)
            return c_.deconv ? BENCHDNN_CALL_OP(*this,
                                       dnnl_deconvolution_backward_data_primitive_desc_create,
                                       pd.out(), engine, alg, s.get(), w.get(), t.get(), strides,
                                       dil, pl, pr, hint_.get(), bundle_->get())
                             : BENCHDNN_CALL_OP(*this,
                                     dnnl_convolution_backward_data_primitive_desc_create,
                                     pd.out(), engine, alg, s.get(), w.get(), t.get(), strides,
                                     dil, pl, pr, hint_.get(), bundle_->get());
        return c_.deconv ? BENCHDNN_CALL_OP(*this,
                                   dnnl_deconvolution_backward_weights_primitive_desc_create,
                                   pd.out(), engine, alg, s.get(), w.get(), b.get(), t.get(),
                                   strides, dil, pl, pr, hint_.get(), bundle_->get())
                         : BENCHDNN_CALL_OP(*this,
                                 dnnl_convolution_backward_weights_primitive_desc_create,
                                 pd.out(), engine, alg, s.get(), w.get(), b.get(), t.get(),
                                 strides, dil, pl, pr, hint_.get(), bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        const auto &d = c_.desc;
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        r.step = 0.25;
        fill_range_t ri = r;
        ri.integers = true;
        ri.step = 0;
        auto range = [&](dnnl_data_type_t t) { return clamp_range(dt_is_int(t) ? ri : r, t); };
        const int64_t ns = product(d.src_dims()), nw = product(d.wei_dims()),
                      nd = product(d.dst_dims());
        src_ = fill_values(ns, range(c_.sdt), c_.sdt, 1);
        wei_ = fill_values(nw, range(c_.wdt), c_.wdt, 2);
        dst_ = fill_values(nd, range(c_.ddt), c_.ddt, 3);
        if (with_bias()) bia_ = fill_values(d.oc, range(dnnl_f32), dnnl_f32, 4);
        switch (c_.dir) {
            case dir_t::fwd_b:
            case dir_t::fwd_d:
            case dir_t::fwd_i:
                args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
                args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
                if (with_bias()) args.add(DNNL_ARG_BIAS, md_of(DNNL_ARG_BIAS)).write(bia_);
                args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(dst_);
                bundle_->prepare(args);
                break;
            case dir_t::bwd_d:
                args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(src_);
                args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
                args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dst_);
                break;
            default:
                args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
                args.add(DNNL_ARG_DIFF_WEIGHTS, md_of(DNNL_ARG_DIFF_WEIGHTS)).write(wei_);
                if (with_bias())
                    args.add(DNNL_ARG_DIFF_BIAS, md_of(DNNL_ARG_DIFF_BIAS)).write(bia_);
                args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dst_);
                break;
        }
    }

    // f(src_index, wei_index, dst_index) for every term of the relation (dense indices).
    void relation(const std::function<void(int64_t, int64_t, int64_t)> &f) const {
        const auto &d = c_.desc;
        const int64_t G = d.g, OC = d.oc / G, IC = d.ic / G;
        const int64_t *big = c_.deconv ? d.o : d.i, *small = c_.deconv ? d.i : d.o;
        const int64_t bsp = big[0] * big[1] * big[2], ssp = small[0] * small[1] * small[2],
                      ksz = d.k[0] * d.k[1] * d.k[2];
        for (int64_t n = 0; n < d.mb; ++n)
            for (int64_t g = 0; g < G; ++g)
                for (int64_t oc = 0; oc < OC; ++oc)
                    for (int64_t ic = 0; ic < IC; ++ic)
                        for (int64_t so = 0; so < ssp; ++so) {
                            const int64_t o3[3] = {so / (small[1] * small[2]), so / small[2] % small[1], so % small[2]};
                            for (int64_t ks = 0; ks < ksz; ++ks) {
                                const int64_t k3[3] = {ks / (d.k[1] * d.k[2]), ks / d.k[2] % d.k[1], ks % d.k[2]};
                                int64_t bi = 0;
                                bool in = true;
                                for (int c = 0; c < 3 && in; ++c) {
                                    const int64_t b = o3[c] * d.s[c] - d.pl[c] + k3[c] * (d.d[c] + 1);
                                    in = b >= 0 && b < big[c];
                                    bi = bi * big[c] + b;
                                }
                                if (!in) continue;
                                const int64_t w = ((g * OC + oc) * IC + ic) * ksz + ks;
                                const int64_t si = c_.deconv ? (n * d.ic + g * IC + ic) * ssp + so
                                                             : (n * d.ic + g * IC + ic) * bsp + bi;
                                const int64_t di = c_.deconv ? (n * d.oc + g * OC + oc) * bsp + bi
                                                             : (n * d.oc + g * OC + oc) * ssp + so;
                                f(si, w, di);
                            }
                        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const auto &d = c_.desc;
        tolerance_t tol;
        tol.eps = 2e-6;
        tol.int_diff = 1;
        const int64_t OC = d.oc / d.g;
        if (is_fwd(c_.dir)) {
            const dims_t dd = d.dst_dims(), sd = d.src_dims();
            std::vector<double> acc(dst_.size(), 0.0), mag(dst_.size(), 0.0);
            int64_t zpos[5] = {0, 0, 0, 0, 0};
            // The src zero point of each src channel (one value unless per channel).
            std::vector<double> src_zp(static_cast<size_t>(d.ic));
            for (int64_t c = 0; c < d.ic; ++c) {
                int64_t cpos[5] = {0, c, 0, 0, 0};
                src_zp[static_cast<size_t>(c)] = bundle_->zero_point(DNNL_ARG_SRC, cpos);
            }
            const int64_t src_spat = product(sd) / std::max<int64_t>(1, d.mb * d.ic);
            relation([&](int64_t s, int64_t w, int64_t t) {
                const double v = (src_[s] - src_zp[static_cast<size_t>(s / src_spat % d.ic)])
                        * wei_[w];
                acc[t] += v;
                mag[t] += std::fabs(v);
            });
            const int64_t spat = product(dd) / (d.mb * d.oc);
            std::vector<double> exp(acc.size());
            int64_t pos[5];
            for (size_t x = 0; x < acc.size(); ++x) {
                logical_position(dd, static_cast<int64_t>(x), pos);
                const int64_t c = static_cast<int64_t>(x) / spat % d.oc;
                int64_t wpos[6] = {0, 0, 0, 0, 0, 0};
                if (d.has_groups) {
                    wpos[0] = c / OC;
                    wpos[1] = c % OC;
                } else {
                    wpos[0] = c;
                }
                const double scale = bundle_->scale(DNNL_ARG_SRC, zpos) * bundle_->scale(DNNL_ARG_WEIGHTS, wpos);
                double v = acc[x] * scale + (with_bias() ? bia_[c] : 0.0);
                mag[x] = mag[x] * std::fabs(scale) + std::fabs(v);
                v = bundle_->apply_post_ops(v, pos, dst_[x]);
                exp[x] = v / bundle_->scale(DNNL_ARG_DST, pos) + bundle_->zero_point(DNNL_ARG_DST, pos);
            }
            return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
        }
        if (c_.dir == dir_t::bwd_d) {
            std::vector<double> exp(src_.size(), 0.0), mag(src_.size(), 0.0);
            relation([&](int64_t s, int64_t w, int64_t t) {
                exp[s] += dst_[t] * wei_[w];
                mag[s] += std::fabs(dst_[t] * wei_[w]);
            });
            return check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg, &mag);
        }
        std::vector<double> exp(wei_.size(), 0.0), mag(wei_.size(), 0.0);
        relation([&](int64_t s, int64_t w, int64_t t) {
            exp[w] += src_[s] * dst_[t];
            mag[w] += std::fabs(src_[s] * dst_[t]);
        });
        if (!check_output(args.at(DNNL_ARG_DIFF_WEIGHTS), exp, tol, msg, &mag)) return false;
        if (!with_bias()) return true;
        std::vector<double> eb(d.oc, 0.0), mb(d.oc, 0.0);
        const int64_t spat = product(d.dst_dims()) / (d.mb * d.oc);
        for (size_t x = 0; x < dst_.size(); ++x) {
            eb[x / spat % d.oc] += dst_[x];
            mb[x / spat % d.oc] += std::fabs(dst_[x]);
        }
        return check_output(args.at(DNNL_ARG_DIFF_BIAS), eb, tol, msg, &mb);
    }

private:
    conv_cfg_t c_;
    pd_h hint_;
    attr_desc_t bundle_attr_; // c_.attr with oneDNN's masks; the bundle refers to it
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, wei_, dst_, bia_;
};

class conv_driver_t : public knob_driver_t {
public:
    explicit conv_driver_t(bool deconv) : deconv_(deconv) {}

    void run(const std::string &text) override {
        const conv_desc_t desc = parse_conv_desc(text, deconv_);
        for_each_problem([&] {
            conv_cfg_t c {deconv_, dir_, dt_[0], dt_[1], dt_[2], stag_, wtag_, dtag_, alg_, attr_,
                    desc};
            if (mb_ > 0) set_mb(c.desc, mb_);
            conv_prb_t prb(c);
            run_problem(prb);
        });
    }

private:
    bool deconv_;
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_b}, str2dir);
    const std::array<dnnl_data_type_t, 3> &dt_
            = knob({"--dt", "--cfg"}, {{dnnl_f32, dnnl_f32, dnnl_f32}}, parse_dt_triple);
    const std::string &stag_ = knob({"--stag"}, {"any"}, checked_tag);
    const std::string &wtag_ = knob({"--wtag"}, {"any"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_convolution_direct}, [](const std::string &s) {
        const std::string l = lowercase(s);
        if (l == "direct") return dnnl_convolution_direct;
        if (l == "auto") return dnnl_convolution_auto;
        if (l == "wino" || l == "winograd") return dnnl_convolution_winograd;
        throw std::invalid_argument("unknown convolution algorithm '" + s + "'");
    });
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

struct conv_only_t : conv_driver_t {
    conv_only_t() : conv_driver_t(false) {}
};
struct deconv_only_t : conv_driver_t {
    deconv_only_t() : conv_driver_t(true) {}
};

} // namespace

BENCHDNN_REGISTER_DRIVER("conv", conv_only_t);
BENCHDNN_REGISTER_DRIVER("deconv", deconv_only_t);

} // namespace benchdnn
