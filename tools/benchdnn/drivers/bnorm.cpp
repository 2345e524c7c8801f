// --bnorm: batch normalization (--dir FWD_D/FWD_I/BWD_D/BWD_DW, --dt, --tag, --flags from
// G global stats, C scale, H shift, R fused relu, A fused add+relu) on descriptors like
// mb16ic64ih56 (id/ih/iw; missing W copies H), optional eps in the descriptor ("eps1e-3").
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

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

struct bnorm_desc_t {
    dims_t dims; // N, C, spatial...
    float eps = 1.f / 16;
    std::string text;
};

bnorm_desc_t parse_bnorm_desc(const std::string &text) {
    bnorm_desc_t d;
    d.text = text;
    std::map<std::string, std::string> v;
    const std::string t = text.substr(0, text.find('_'));
    size_t i = 0;
    while (i < t.size()) {
        size_t j = i;
        while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
        size_t k = j;
        while (k < t.size()
                && (std::isdigit(static_cast<unsigned char>(t[k])) || t[k] == '.'
                        || (t[k] == 'e' && j - i == 3) || t[k] == '-'))
            ++k;
        if (j == i || k == j) throw std::invalid_argument("bad bnorm descriptor '" + text + "'");
        v[t.substr(i, j - i)] = t.substr(j, k - j);
        i = k;
    }
    auto num = [&](const char *key, int64_t def) {
        return v.count(key) ? std::stoll(v[key]) : def;
    };
    if (!v.count("ic")) throw std::invalid_argument("bnorm descriptor needs ic: '" + text + "'");
    d.dims = {num("mb", 2), num("ic", 1)};
    const bool has_d = v.count("id") != 0, has_h = v.count("ih") != 0, has_w = v.count("iw") != 0;
    if (has_d) d.dims.push_back(num("id", 1));
    if (has_d || has_h) d.dims.push_back(num("ih", num("iw", 1)));
    if (has_d || has_h || has_w) d.dims.push_back(num("iw", num("ih", 1)));
    if (v.count("eps")) d.eps = std::stof(v["eps"]);
    return d;
}

struct bnorm_cfg_t {
    dir_t dir;
    dnnl_data_type_t dt;
    std::string tag;
    unsigned flags;
    bnorm_desc_t desc;
};

unsigned str2flags(const std::string &s) {
    unsigned f = 0;
    for (char ch : s) {
        switch (ch) {
            case 'G': f |= dnnl_use_global_stats; break;
            case 'C': f |= dnnl_use_scale; break;
            case 'H': f |= dnnl_use_shift; break;
            case 'S': f |= dnnl_use_scale | dnnl_use_shift; break; // v2's scaleshift
            case 'R': f |= dnnl_fuse_norm_relu; break;
            case 'A': f |= dnnl_fuse_norm_add_relu; break;
            default: throw std::invalid_argument(std::string("unknown bnorm flag '") + ch + "'");
        }
    }
    return f;
}

std::string flags2str(unsigned f) {
    std::string s;
    if (f & dnnl_use_global_stats) s += 'G';
    if (f & dnnl_use_scale) s += 'C';
    if (f & dnnl_use_shift) s += 'H';
    if (f & dnnl_fuse_norm_relu) s += 'R';
    if (f & dnnl_fuse_norm_add_relu) s += 'A';
    return s;
}

class bnorm_prb_t : public problem_t {
public:
    explicit bnorm_prb_t(const bnorm_cfg_t &c) : c_(c) {
        c_n_ = c_.desc.dims[1];
        for (size_t i = 2; i < c_.desc.dims.size(); ++i)
            per_c_ *= c_.desc.dims[i];
    }

    std::string repro() const override {
        repro_t r("bnorm");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt2str(c_.dt), "f32")
                .knob("tag", c_.tag, "abx")
                .knob("flags", flags2str(c_.flags), "");
        return r.str(c_.desc.text);
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.dt)) return std::string("data type ") + dt2str(c_.dt) + " not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d
                && c_.dir != dir_t::bwd_dw)
            return "bnorm has FWD_D, FWD_I, BWD_D and BWD_DW only";
        return {};
    }

    bool fwd() const { return is_fwd(c_.dir); }
    bool relu() const { return c_.flags & (dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu); }
    bool add() const { return c_.flags & dnnl_fuse_norm_add_relu; }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h src, any;
        dnnl_status_t st = make_md(src, c_.desc.dims, c_.dt, c_.tag);
        if (st == dnnl_success) st = make_md(any, c_.desc.dims, c_.dt, "any");
        if (st != dnnl_success) return st;
        if (fwd()) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_batch_normalization_forward_primitive_desc_create,
                    pd.out(), engine, prop, src.get(), any.get(), c_.desc.eps, c_.flags, nullptr);
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_batch_normalization_forward_primitive_desc_create,
                hint_.out(), engine, dnnl_forward_training, src.get(), any.get(), c_.desc.eps,
                c_.flags, nullptr);
        if (st != dnnl_success) return st;
        auto prop = c_.dir == dir_t::bwd_d ? dnnl_backward_data : dnnl_backward;
        return BENCHDNN_CALL_OP(*this, dnnl_batch_normalization_backward_primitive_desc_create,
                pd.out(), engine, prop, any.get(), any.get(), src.get(), c_.desc.eps, c_.flags,
                hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        const int64_t n = product(c_.desc.dims);
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        r.step = 0.125;
        src_ = fill_values(n, clamp_range(r, c_.dt), c_.dt, 1);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        scale_.assign(c_n_, 0);
        shift_.assign(c_n_, 0);
        mean_.assign(c_n_, 0);
        var_.assign(c_n_, 0);
        for (int64_t c = 0; c < c_n_; ++c) {
            scale_[c] = 0.5 + 0.125 * (c % 9);
            shift_[c] = 0.25 * (c % 5) - 0.5;
            mean_[c] = 0.125 * (c % 7) - 0.25;
            var_[c] = 0.5 + 0.25 * (c % 6);
        }
        const bool stats_in = !fwd() || (c_.flags & dnnl_use_global_stats);
        const bool stats_out = c_.dir == dir_t::fwd_d && !(c_.flags & dnnl_use_global_stats);
        if (stats_in || stats_out) {
            args.add(DNNL_ARG_MEAN, md_of(DNNL_ARG_MEAN)).write(mean_);
            args.add(DNNL_ARG_VARIANCE, md_of(DNNL_ARG_VARIANCE)).write(var_);
        }
        if (c_.flags & dnnl_use_scale) args.add(DNNL_ARG_SCALE, md_of(DNNL_ARG_SCALE)).write(scale_);
        if ((c_.flags & dnnl_use_shift) && fwd()) args.add(DNNL_ARG_SHIFT, md_of(DNNL_ARG_SHIFT)).write(shift_);
        if (add()) {
            src1_ = fill_values(n, clamp_range(r, c_.dt), c_.dt, 4);
            if (fwd()) args.add(DNNL_ARG_SRC_1, md_of(DNNL_ARG_SRC_1)).write(src1_);
        }
        if (fwd()) {
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST));
            if (relu() && c_.dir == dir_t::fwd_d) args.add(DNNL_ARG_WORKSPACE, md_of(DNNL_ARG_WORKSPACE));
            return;
        }
        dd_ = fill_values(n, clamp_range(r, c_.dt), c_.dt, 5);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dd_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC));
        if (add()) args.add(DNNL_ARG_DIFF_SRC_1, md_of(DNNL_ARG_DIFF_SRC_1));
        if (c_.dir == dir_t::bwd_dw) {
            if (c_.flags & dnnl_use_scale) args.add(DNNL_ARG_DIFF_SCALE, md_of(DNNL_ARG_DIFF_SCALE));
            if (c_.flags & dnnl_use_shift) args.add(DNNL_ARG_DIFF_SHIFT, md_of(DNNL_ARG_DIFF_SHIFT));
        }
        if (relu()) {
            // The relu mask: run the forward hint with the given statistics' inputs.
            test_mem_t &ws = args.add(DNNL_ARG_WORKSPACE, md_of(DNNL_ARG_WORKSPACE));
            const_dnnl_primitive_desc_t h = hint_.get();
            auto hmd = [&](int a) { return dnnl_primitive_desc_query_md(h, dnnl_query_exec_arg_md, a); };
            hsrc_ = test_mem_t(hmd(DNNL_ARG_SRC), test_engine());
            hsrc_.write(src_);
            hdst_ = test_mem_t(hmd(DNNL_ARG_DST), test_engine());
            hmean_ = test_mem_t(hmd(DNNL_ARG_MEAN), test_engine());
            hvar_ = test_mem_t(hmd(DNNL_ARG_VARIANCE), test_engine());
            hmean_.write(mean_);
            hvar_.write(var_);
            hsc_ = test_mem_t(hmd(DNNL_ARG_SCALE), test_engine());
            hsh_ = test_mem_t(hmd(DNNL_ARG_SHIFT), test_engine());
            hsc_.write(scale_);
            hsh_.write(shift_);
            hsrc1_ = test_mem_t(hmd(DNNL_ARG_SRC_1), test_engine());
            if (add()) hsrc1_.write(src1_);
            std::vector<dnnl_exec_arg_t> a = {{DNNL_ARG_SRC, hsrc_.get()}, {DNNL_ARG_DST, hdst_.get()},
                    {DNNL_ARG_MEAN, hmean_.get()}, {DNNL_ARG_VARIANCE, hvar_.get()},
                    {DNNL_ARG_WORKSPACE, ws.get()}};
            if (c_.flags & dnnl_use_scale) a.push_back({DNNL_ARG_SCALE, hsc_.get()});
            if (c_.flags & dnnl_use_shift) a.push_back({DNNL_ARG_SHIFT, hsh_.get()});
            if (add()) a.push_back({DNNL_ARG_SRC_1, hsrc1_.get()});
            dnnl_primitive_t p = nullptr;
            if (dnnl_primitive_create(&p, h) == dnnl_success) {
                dnnl_primitive_execute(p, test_stream(), static_cast<int>(a.size()), a.data());
                dnnl_stream_wait(test_stream());
                dnnl_primitive_destroy(p);
            }
            fwd_dst_ = hdst_.read(); // the relu mask: where the forward output is positive
            // Training recomputes the statistics: the backward pass uses those.
            if (!(c_.flags & dnnl_use_global_stats)) {
                mean_ = hmean_.read();
                var_ = hvar_.read();
                args.at(DNNL_ARG_MEAN).write(mean_);
                args.at(DNNL_ARG_VARIANCE).write(var_);
            }
        }
    }

    // Channel of element i in row-major order (per_c_: spatial points per channel).
    int64_t chan(int64_t i) const { return (i / per_c_) % c_n_; }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.desc.dims);
        const double cnt = double(c_.desc.dims[0] * per_c_);
        std::vector<double> mu(c_n_), s2(c_n_);
        const bool gs = c_.flags & dnnl_use_global_stats;
        const bool computes = fwd() && !gs;
        for (int64_t c = 0; c < c_n_; ++c) {
            mu[c] = computes ? 0 : mean_[c];
            s2[c] = computes ? 0 : var_[c];
        }
        if (computes && cnt > 0) {
            for (int64_t i = 0; i < n; ++i) mu[chan(i)] += src_[i];
            for (auto &m : mu) m /= cnt;
            for (int64_t i = 0; i < n; ++i) s2[chan(i)] += (src_[i] - mu[chan(i)]) * (src_[i] - mu[chan(i)]);
            for (auto &v : s2) v /= cnt;
        }
        auto gam = [&](int64_t c) { return (c_.flags & dnnl_use_scale) ? scale_[c] : 1.0; };
        auto bet = [&](int64_t c) { return (c_.flags & dnnl_use_shift) ? shift_[c] : 0.0; };
        auto inv = [&](int64_t c) { return 1.0 / std::sqrt(s2[c] + c_.desc.eps); };
        tolerance_t tol;
        tol.eps = 1e-5;
        tol.int_diff = 1;
        bool ok = true;
        if (fwd()) {
            std::vector<double> exp(n);
            for (int64_t i = 0; i < n; ++i) {
                const int64_t c = chan(i);
                double y = gam(c) * (src_[i] - mu[c]) * inv(c) + bet(c);
                if (add()) y += src1_[i];
                if (relu()) y = std::max(0.0, y);
                exp[i] = y;
            }
            ok = check_output(args.at(DNNL_ARG_DST), exp, tol, msg);
            if (ok && c_.dir == dir_t::fwd_d && !gs) {
                ok = check_output(args.at(DNNL_ARG_MEAN), mu, tol, msg)
                        && check_output(args.at(DNNL_ARG_VARIANCE), s2, tol, msg);
            }
            return ok;
        }
        // Backward: g masked where the forward output was not positive.
        std::vector<double> g(dd_);
        if (relu())
            for (int64_t i = 0; i < n; ++i)
                if (!(fwd_dst_[i] > 0)) g[i] = 0;
        std::vector<double> sg(c_n_, 0), sgx(c_n_, 0);
        for (int64_t i = 0; i < n; ++i) {
            sg[chan(i)] += g[i];
            sgx[chan(i)] += g[i] * (src_[i] - mu[chan(i)]);
        }
        std::vector<double> exp(n), dsc(c_n_), dsh(c_n_);
        for (int64_t c = 0; c < c_n_; ++c) {
            dsc[c] = sgx[c] * inv(c);
            dsh[c] = sg[c];
        }
        for (int64_t i = 0; i < n; ++i) {
            const int64_t c = chan(i);
            double v = g[i];
            if (!gs && cnt > 0) v -= sg[c] / cnt + (src_[i] - mu[c]) * inv(c) * dsc[c] / cnt;
            exp[i] = v * gam(c) * inv(c);
        }
        tol.eps = 1e-4;
        ok = check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg);
        if (ok && add()) ok = check_output(args.at(DNNL_ARG_DIFF_SRC_1), g, tol, msg);
        if (ok && c_.dir == dir_t::bwd_dw && (c_.flags & dnnl_use_scale))
            ok = check_output(args.at(DNNL_ARG_DIFF_SCALE), dsc, tol, msg);
        if (ok && c_.dir == dir_t::bwd_dw && (c_.flags & dnnl_use_shift))
            ok = check_output(args.at(DNNL_ARG_DIFF_SHIFT), dsh, tol, msg);
        return ok;
    }

private:
    bnorm_cfg_t c_;
    int64_t c_n_ = 1, per_c_ = 1;
    pd_h hint_;
    std::vector<double> src_, src1_, dd_, scale_, shift_, mean_, var_, fwd_dst_;
    test_mem_t hsrc_, hdst_, hmean_, hvar_, hsc_, hsh_, hsrc1_;
};

class bnorm_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const bnorm_desc_t desc = parse_bnorm_desc(text);
        for_each_problem([&] {
            bnorm_desc_t d = desc;
            if (mb_ > 0) d.dims[0] = mb_;
            bnorm_prb_t prb({dir_, dt_, tag_, flags_, d});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &dt_ = knob({"--dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const unsigned &flags_ = knob({"--flags"}, {0u}, str2flags);
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("bnorm", bnorm_driver_t);

} // namespace benchdnn
