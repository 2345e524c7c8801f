// --gnorm: group normalization forward and backward (--dir, --dt=SRC[:DST], --tag,
// --flags=[G][C][H] for global stats, scale, shift, --g=GROUPS), problems "g4mb2ic16ih5eps1e-5"
// (groups from --g unless the descriptor names them; eps 1/16384 by default).
#include <cmath>

#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "drivers/spatial_desc.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct gnorm_cfg_t {
    dir_t dir;
    dnnl_data_type_t sdt, ddt;
    std::string tag;
    unsigned flags;
    int64_t groups;
    dims_t dims;
    double eps;
    std::string desc;
};

std::string flags2str(unsigned f) {
    std::string s;
    if (f & dnnl_use_global_stats) s += "G";
    if (f & dnnl_use_scale) s += "C";
    if (f & dnnl_use_shift) s += "H";
    return s;
}

class gnorm_prb_t : public problem_t {
public:
    explicit gnorm_prb_t(const gnorm_cfg_t &c) : c_(c) {
        N_ = c.dims[0];
        C_ = c.dims[1];
        SP_ = 1;
        for (size_t d = 2; d < c.dims.size(); ++d)
            SP_ *= c.dims[d];
    }

    std::string repro() const override {
        repro_t r("gnorm");
        std::string dt = dt2str(c_.sdt);
        if (c_.ddt != c_.sdt) dt += std::string(":") + dt2str(c_.ddt);
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt, "f32")
                .knob("tag", c_.tag, "abx")
                .knob("flags", flags2str(c_.flags), "")
                .knob("g", std::to_string(c_.groups), "1");
        return r.str(c_.desc);
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.sdt) || !dt_supported(c_.ddt)) return "data type not handled by the tester";
        if (c_.dir == dir_t::fwd_b || c_.dir == dir_t::bwd_w || c_.dir == dir_t::bwd_wb)
            return "gnorm has FWD_D, FWD_I, BWD_D and BWD_DW only";
        if (C_ % c_.groups) return "channels are not a multiple of groups";
        return {};
    }

    bool fwd() const { return c_.dir == dir_t::fwd_d || c_.dir == dir_t::fwd_i; }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, d;
        dnnl_status_t st = make_md(s, c_.dims, c_.sdt, c_.tag);
        if (st == dnnl_success) st = make_md(d, c_.dims, c_.ddt, c_.tag);
        if (st != dnnl_success) return st;
        const float eps = float(c_.eps);
        auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
        st = BENCHDNN_CALL_OP(*this, dnnl_group_normalization_forward_primitive_desc_create,
                fwd() ? pd.out() : hint_.out(), engine, prop, s.get(), d.get(), c_.groups, eps,
                c_.flags, nullptr);
        if (st != dnnl_success || fwd()) return st;
        auto bprop = c_.dir == dir_t::bwd_d ? dnnl_backward_data : dnnl_backward;
        return BENCHDNN_CALL_OP(*this, dnnl_group_normalization_backward_primitive_desc_create,
                pd.out(), engine, bprop, s.get(), s.get(), s.get(), c_.groups, eps, c_.flags,
                hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        const int64_t n = product(c_.dims), G = c_.groups;
        src_ = fill_values(n, clamp_range(r, c_.sdt), c_.sdt, 1);
        fill_range_t sr;
        sr.lo = -2;
        sr.hi = 2;
        scale_ = fill_values(C_, sr, dnnl_f32, 2);
        shift_ = fill_values(C_, sr, dnnl_f32, 3);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        if (c_.flags & dnnl_use_scale) args.add(DNNL_ARG_SCALE, md_of(DNNL_ARG_SCALE)).write(scale_);
        if ((c_.flags & dnnl_use_shift) && fwd())
            args.add(DNNL_ARG_SHIFT, md_of(DNNL_ARG_SHIFT)).write(shift_);
        // Statistics of the data (rounded to f32), or given ones with global stats.
        mean_.assign(N_ * G, 0);
        var_.assign(N_ * G, 0);
        const int64_t Cg = C_ / G;
        for (int64_t w = 0; w < N_ * G; ++w) {
            const int64_t nn = w / G, g = w % G;
            double sum = 0, sq = 0;
            for (int64_t c = g * Cg; c < (g + 1) * Cg; ++c)
                for (int64_t i = 0; i < SP_; ++i)
                    sum += src_[(nn * C_ + c) * SP_ + i];
            const double m = Cg * SP_ != 0 ? sum / (Cg * SP_) : 0;
            for (int64_t c = g * Cg; c < (g + 1) * Cg; ++c)
                for (int64_t i = 0; i < SP_; ++i) {
                    const double dv = src_[(nn * C_ + c) * SP_ + i] - m;
                    sq += dv * dv;
                }
            mean_[w] = m;
            var_[w] = Cg * SP_ != 0 ? sq / (Cg * SP_) : 0;
            if (c_.flags & dnnl_use_global_stats) {
                mean_[w] = 0.25 * (w % 5) - 0.5;
                var_[w] = 0.5 + 0.25 * (w % 3);
            }
        }
        const bool stats_in = (c_.flags & dnnl_use_global_stats) || !fwd();
        if (stats_in)
            for (int64_t w = 0; w < N_ * G; ++w) {
                mean_[w] = float(mean_[w]);
                var_[w] = float(var_[w]);
            }
        const bool stats = stats_in || c_.dir == dir_t::fwd_d;
        if (stats) {
            args.add(DNNL_ARG_MEAN, md_of(DNNL_ARG_MEAN)).write(stats_in ? mean_ : std::vector<double>(mean_.size(), 0));
            args.add(DNNL_ARG_VARIANCE, md_of(DNNL_ARG_VARIANCE)).write(stats_in ? var_ : std::vector<double>(var_.size(), 0));
        }
        const std::vector<double> zeros(src_.size(), 0);
        if (fwd()) {
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(zeros);
            return;
        }
        dd_ = fill_values(n, clamp_range(sr, c_.sdt), c_.sdt, 4);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dd_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(zeros);
        // Scale/shift gradients wherever the primitive has them (some libraries list them
        // for BWD_D too).
        const std::vector<double> cz(C_, 0);
        for (int arg : {DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT}) {
            const_dnnl_memory_desc_t m = md_of(arg);
            if (m && dnnl_memory_desc_get_size(m) > 0) args.add(arg, m).write(cz);
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims), G = c_.groups, Cg = C_ / G;
        const bool sc = c_.flags & dnnl_use_scale, sh = c_.flags & dnnl_use_shift;
        const bool global = c_.flags & dnnl_use_global_stats;
        auto w_of = [&](int64_t i) { return (i / (C_ * SP_)) * G + ((i / SP_) % C_) / Cg; };
        auto c_of = [&](int64_t i) { return (i / SP_) % C_; };
        auto rstd = [&](int64_t w) { return 1.0 / std::sqrt(var_[w] + double(float(c_.eps))); };
        std::vector<double> exp(static_cast<size_t>(n));
        tolerance_t tol;
        tol.eps = 1e-5;
        tol.int_diff = 1;
        if (fwd()) {
            for (int64_t i = 0; i < n; ++i) {
                const int64_t w = w_of(i), c = c_of(i);
                exp[i] = (src_[i] - mean_[w]) * rstd(w) * (sc ? scale_[c] : 1.0) + (sh ? shift_[c] : 0.0);
            }
            if (!check_output(args.at(DNNL_ARG_DST), exp, tol, msg)) return false;
            if (c_.dir == dir_t::fwd_d && !global) {
                tolerance_t st;
                st.eps = 1e-5;
                if (!check_output(args.at(DNNL_ARG_MEAN), mean_, st, msg)) return false;
                return check_output(args.at(DNNL_ARG_VARIANCE), var_, st, msg);
            }
            return true;
        }
        std::vector<double> m1(N_ * G, 0), m2(N_ * G, 0), mag(static_cast<size_t>(n));
        const double M = double(Cg * SP_);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t w = w_of(i), c = c_of(i);
            const double d = dd_[i] * (sc ? scale_[c] : 1.0);
            m1[w] += d / M;
            m2[w] += d * (src_[i] - mean_[w]) * rstd(w) / M;
        }
        for (int64_t i = 0; i < n; ++i) {
            const int64_t w = w_of(i), c = c_of(i);
            const double d = dd_[i] * (sc ? scale_[c] : 1.0);
            const double xh = (src_[i] - mean_[w]) * rstd(w);
            exp[i] = global ? d * rstd(w) : (d - m1[w] - xh * m2[w]) * rstd(w);
            mag[i] = (std::fabs(d) + std::fabs(m1[w]) + std::fabs(xh * m2[w])) * rstd(w);
        }
        if (!check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg, &mag)) return false;
        if (c_.dir != dir_t::bwd_dw) return true; // gradients of BWD_D are not defined
        std::vector<double> ds(C_, 0), db(C_, 0), dsm(C_, 0), dbm(C_, 0);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t w = w_of(i), c = c_of(i);
            const double xh = (src_[i] - mean_[w]) * rstd(w);
            ds[c] += dd_[i] * xh;
            db[c] += dd_[i];
            dsm[c] += std::fabs(dd_[i] * xh);
            dbm[c] += std::fabs(dd_[i]);
        }
        if (sc && !check_output(args.at(DNNL_ARG_DIFF_SCALE), ds, tol, msg, &dsm)) return false;
        if (sh && !check_output(args.at(DNNL_ARG_DIFF_SHIFT), db, tol, msg, &dbm)) return false;
        return true;
    }

private:
    gnorm_cfg_t c_;
    int64_t N_, C_, SP_;
    pd_h hint_;
    std::vector<double> src_, dd_, scale_, shift_, mean_, var_;
};

class gnorm_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const spatial_desc_t d = spatial_desc_t::parse(desc);
        for_each_problem([&] {
            const int64_t groups = d.has("g") ? int64_t(d.get("g", 1)) : g_;
            gnorm_prb_t prb({dir_, dt_.first, dt_.second, tag_, flags_, groups,
                    apply_mb(d.dims(), mb_), d.get("eps", 1.0 / 16384), desc});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const std::pair<dnnl_data_type_t, dnnl_data_type_t> &dt_
            = knob({"--dt"}, {{dnnl_f32, dnnl_f32}}, parse_dt_pair);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const unsigned &flags_ = knob({"--flags"}, {0u}, [](const std::string &s) {
        unsigned f = 0;
        for (char ch : s) {
            if (ch == 'G') f |= dnnl_use_global_stats;
            else if (ch == 'C') f |= dnnl_use_scale;
            else if (ch == 'H') f |= dnnl_use_shift;
            else throw std::invalid_argument("unknown gnorm flag '" + std::string(1, ch) + "'");
        }
        return f;
    });
    const int64_t &g_ = knob({"--g"}, {int64_t(1)}, integer_item("g", 0, INT64_MAX / 2));
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("gnorm", gnorm_driver_t);

} // namespace benchdnn
