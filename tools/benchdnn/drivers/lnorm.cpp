// --lnorm: layer normalization forward and backward (--dir, --dt=SRC[:DST], --tag, --stat_tag,
// --ss_dt, --flags, --inplace). Flags: G global statistics, C scale, H shift, M rms_norm.
// Reference: double-precision rows over the last dimension.
#include <algorithm>
#include <cmath>

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

struct lnorm_cfg_t {
    dir_t dir;
    dnnl_data_type_t sdt, ddt, ss_dt;
    std::string tag, stat_tag;
    unsigned flags;
    bool inplace;
    attr_desc_t attr;
    dims_t dims;
};

unsigned str2flags(const std::string &s) {
    unsigned f = 0;
    for (char ch : s) {
        switch (ch) {
            case 'G': f |= dnnl_use_global_stats; break;
            case 'C': f |= dnnl_use_scale; break;
            case 'H': f |= dnnl_use_shift; break;
            case 'M': f |= dnnl_rms_norm; break;
            default: throw std::invalid_argument(std::string("unknown lnorm flag '") + ch + "'");
        }
    }
    return f;
}

std::string flags2str(unsigned f) {
    std::string s;
    if (f & dnnl_use_global_stats) s += 'G';
    if (f & dnnl_use_scale) s += 'C';
    if (f & dnnl_use_shift) s += 'H';
    if (f & dnnl_rms_norm) s += 'M';
    return s;
}

class lnorm_prb_t : public problem_t {
public:
    explicit lnorm_prb_t(const lnorm_cfg_t &c) : c_(c) {
        C_ = c_.dims.back();
        sdims_.assign(c_.dims.begin(), c_.dims.end() - 1);
        rows_ = product(sdims_); // statistics exist even for rows of zero length

    }

    std::string repro() const override {
        repro_t r("lnorm");
        std::string dt = dt2str(c_.sdt);
        if (c_.ddt != c_.sdt) dt += std::string(":") + dt2str(c_.ddt);
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt, "f32")
                .knob("tag", c_.tag, "abx")
                .knob("stat_tag", c_.stat_tag, "abx")
                .knob("ss_dt", dt2str(c_.ss_dt), "f32")
                .knob("flags", flags2str(c_.flags), "")
                .knob("inplace", c_.inplace ? "true" : "false", "false")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.sdt) || !dt_supported(c_.ddt)) return "data type not handled by the tester";
        if (c_.dims.size() < 2) return "layer normalization needs 2 dimensions or more";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d
                && c_.dir != dir_t::bwd_dw)
            return "lnorm has FWD_D, FWD_I, BWD_D and BWD_DW";
        if (!is_fwd(c_.dir) && !c_.attr.is_default()) return "backward takes no attributes";
        if (c_.inplace && c_.sdt != c_.ddt) return "in-place needs one data type";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h smd, dmd, stmd;
        dnnl_status_t st = make_md(smd, c_.dims, c_.sdt, c_.tag);
        if (st != dnnl_success) return st;
        st = make_md(dmd, c_.dims, c_.ddt, c_.tag);
        if (st != dnnl_success) return st;
        // --stat_tag=undef: no statistics descriptor, the library picks it.
        if (c_.stat_tag != "undef") st = make_md(stmd, sdims_, dnnl_f32, c_.stat_tag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dims, [&](int) { return c_.dims; }));
        const float eps = 1.f / 16;
        if (is_fwd(c_.dir)) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this,
                    dnnl_layer_normalization_forward_primitive_desc_create_v2, pd.out(), engine,
                    prop, smd.get(), dmd.get(), stmd.get(), c_.ss_dt, eps, c_.flags,
                    bundle_->get());
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_layer_normalization_forward_primitive_desc_create_v2,
                hint_.out(), engine, dnnl_forward_training, smd.get(), smd.get(), stmd.get(),
                c_.ss_dt, eps, c_.flags, nullptr);
        if (st != dnnl_success) return st;
        auto prop = c_.dir == dir_t::bwd_d ? dnnl_backward_data : dnnl_backward;
        return BENCHDNN_CALL_OP(*this, dnnl_layer_normalization_backward_primitive_desc_create_v2,
                pd.out(), engine, prop, smd.get(), smd.get(), smd.get(), stmd.get(), c_.ss_dt,
                c_.ss_dt, eps, c_.flags, hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        const int64_t n = product(c_.dims);
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        src_ = fill_values(n, clamp_range(r, c_.sdt), c_.sdt, 1);
        fill_range_t gr;
        gr.lo = 0.25;
        gr.hi = 2;
        gamma_ = fill_values(C_, clamp_range(gr, c_.ss_dt), c_.ss_dt, 4);
        fill_range_t br;
        br.lo = -1;
        br.hi = 1;
        beta_ = fill_values(C_, clamp_range(br, c_.ss_dt), c_.ss_dt, 5);
        mean_.assign(rows_, 0);
        var_.assign(rows_, 0);
        const bool global = c_.flags & dnnl_use_global_stats;
        const bool rms = c_.flags & dnnl_rms_norm;
        if (global || !is_fwd(c_.dir)) {
            // Statistics as given inputs: the true ones of src, rounded to f32.
            compute_stats();
        }
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        const bool stats_arg = !is_fwd(c_.dir) || global || c_.dir == dir_t::fwd_d;
        if (stats_arg) {
            if (!rms) args.add(DNNL_ARG_MEAN, md_of(DNNL_ARG_MEAN)).write(mean_);
            args.add(DNNL_ARG_VARIANCE, md_of(DNNL_ARG_VARIANCE)).write(var_);
        }
        if (c_.flags & dnnl_use_scale) args.add(DNNL_ARG_SCALE, md_of(DNNL_ARG_SCALE)).write(gamma_);
        if (is_fwd(c_.dir)) {
            if (c_.flags & dnnl_use_shift) args.add(DNNL_ARG_SHIFT, md_of(DNNL_ARG_SHIFT)).write(beta_);
            if (c_.inplace) {
                args.alias(DNNL_ARG_DST, DNNL_ARG_SRC);
            } else {
                args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(std::vector<double>(n, 0));
            }
            bundle_->prepare(args);
            return;
        }
        fill_range_t dr;
        dr.lo = -2;
        dr.hi = 2;
        diff_dst_ = fill_values(n, clamp_range(dr, c_.sdt), c_.sdt, 3);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(diff_dst_);
        if (c_.inplace)
            args.alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST);
        else
            args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(diff_dst_);
        if (c_.dir == dir_t::bwd_dw) {
            if (c_.flags & dnnl_use_scale)
                args.add(DNNL_ARG_DIFF_SCALE, md_of(DNNL_ARG_DIFF_SCALE)).write(gamma_);
            if (c_.flags & dnnl_use_shift)
                args.add(DNNL_ARG_DIFF_SHIFT, md_of(DNNL_ARG_DIFF_SHIFT)).write(beta_);
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const bool global = c_.flags & dnnl_use_global_stats;
        const bool rms = c_.flags & dnnl_rms_norm;
        if (is_fwd(c_.dir) && !global) compute_stats();
        tolerance_t tol;
        tol.eps = is_fwd(c_.dir) ? 2e-5 : 1e-4;
        tol.int_diff = 1;
        const int64_t n = product(c_.dims);
        std::vector<double> out(n), mag(n), dg(C_, 0), db(C_, 0);
        int64_t z[DNNL_MAX_NDIMS] = {0};
        const double ss = bundle_->scale(DNNL_ARG_SRC, z), ds = bundle_->scale(DNNL_ARG_DST, z);
        const bool use_g = c_.flags & dnnl_use_scale, use_b = c_.flags & dnnl_use_shift;
        for (int64_t r = 0; r < rows_; ++r) {
            const double m = mean_[r], rstd = 1 / std::sqrt(var_[r] + 1.0 / 16);
            double s1 = 0, s2 = 0;
            for (int64_t k = 0; k < C_; ++k) {
                const int64_t i = r * C_ + k;
                const double xh = (src_[i] - m) * rstd, g = use_g ? gamma_[k] : 1;
                if (is_fwd(c_.dir)) {
                    out[i] = (xh * g + (use_b ? beta_[k] : 0)) * ss / ds;
                    // x - mean cancels near the mean: f32 errors scale with the terms.
                    mag[i] = ((std::fabs(src_[i]) + std::fabs(m)) * rstd * std::fabs(g)
                                     + (use_b ? std::fabs(beta_[k]) : 0))
                            * std::fabs(ss / ds);
                } else {
                    s1 += diff_dst_[i] * g;
                    s2 += diff_dst_[i] * g * xh;
                    dg[k] += diff_dst_[i] * xh;
                    db[k] += diff_dst_[i];
                }
            }
            if (!is_fwd(c_.dir)) {
                const double m1 = global || rms ? 0 : s1 / C_, m2 = global ? 0 : s2 / C_;
                for (int64_t k = 0; k < C_; ++k) {
                    const int64_t i = r * C_ + k;
                    const double xh = (src_[i] - m) * rstd, g = use_g ? gamma_[k] : 1;
                    out[i] = rstd * (diff_dst_[i] * g - m1 - xh * m2);
                }
            }
        }
        if (is_fwd(c_.dir)) {
            bool ok = check_output(args.at(DNNL_ARG_DST), out, tol, msg, &mag);
            if (ok && c_.dir == dir_t::fwd_d && !global && C_ > 0) {
                tolerance_t st;
                st.eps = 1e-5;
                if (!rms) ok = check_output(args.at(DNNL_ARG_MEAN), mean_, st, msg);
                if (ok) ok = check_output(args.at(DNNL_ARG_VARIANCE), var_, st, msg);
            }
            return ok;
        }
        bool ok = check_output(args.at(DNNL_ARG_DIFF_SRC), out, tol, msg);
        if (ok && c_.dir == dir_t::bwd_dw) {
            tolerance_t wt;
            wt.eps = 1e-4;
            if (use_g) ok = check_output(args.at(DNNL_ARG_DIFF_SCALE), dg, wt, msg);
            if (ok && use_b) ok = check_output(args.at(DNNL_ARG_DIFF_SHIFT), db, wt, msg);
        }
        return ok;
    }

private:
    void compute_stats() {
        if (C_ == 0) return; // no statistics of empty rows: inputs stay 0, outputs unchecked
        const bool rms = c_.flags & dnnl_rms_norm;
        for (int64_t r = 0; r < rows_; ++r) {
            double m = 0, v = 0;
            if (!rms) {
                for (int64_t k = 0; k < C_; ++k)
                    m += src_[r * C_ + k];
                m /= C_;
            }
            for (int64_t k = 0; k < C_; ++k)
                v += (src_[r * C_ + k] - m) * (src_[r * C_ + k] - m);
            mean_[r] = static_cast<float>(m);
            var_[r] = static_cast<float>(v / C_);
        }
    }

    lnorm_cfg_t c_;
    int64_t C_ = 0, rows_ = 0;
    dims_t sdims_;
    pd_h hint_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, gamma_, beta_, mean_, var_, diff_dst_;
};

class lnorm_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            lnorm_prb_t prb({dir_, dt_.first, dt_.second, ss_dt_, tag_, stat_tag_, flags_,
                    inplace_, attr_, apply_mb(dims, mb_)});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const std::pair<dnnl_data_type_t, dnnl_data_type_t> &dt_
            = knob({"--dt"}, {{dnnl_f32, dnnl_f32}}, parse_dt_pair);
    const dnnl_data_type_t &ss_dt_ = knob({"--ss_dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const std::string &stat_tag_ = knob({"--stat_tag"}, {"abx"}, checked_tag);
    const unsigned &flags_ = knob({"--flags"}, {0u}, str2flags);
    const bool &inplace_ = knob({"--inplace"}, {false}, parse_bool);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("lnorm", lnorm_driver_t);

} // namespace benchdnn
