// --eltwise: element-wise forward and backward (--dir, --dt, --tag, --alg, --alpha, --beta).
#include <cmath>

#include "attr.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"
#include "ref_math.hpp"

namespace benchdnn {
namespace {

struct eltwise_cfg_t {
    dir_t dir;
    dnnl_data_type_t dt;
    std::string tag;
    dnnl_alg_kind_t alg;
    double alpha, beta;
    bool inplace;
    attr_desc_t attr;
    dims_t dims;
};

// Source values where each algorithm is defined and interesting.
fill_range_t src_range(const eltwise_cfg_t &c) {
    fill_range_t r;
    r.lo = -8;
    r.hi = 8;
    switch (c.alg) {
        case dnnl_eltwise_log: r.lo = 0.0625; r.hi = 16; break;
        case dnnl_eltwise_sqrt:
        case dnnl_eltwise_sqrt_use_dst_for_bwd:
            r.lo = c.dir == dir_t::bwd_d ? 0.0625 : 0;
            r.hi = 16;
            break;
        case dnnl_eltwise_pow:
            if (c.beta != std::floor(c.beta)) r.lo = 0.0625;
            else r.lo = -4;
            r.hi = 4;
            break;
        case dnnl_eltwise_exp:
        case dnnl_eltwise_exp_use_dst_for_bwd: r.lo = -10; r.hi = 10; break;
        case dnnl_eltwise_round: r.step = 0.25; break;
        case dnnl_eltwise_square: r.lo = -10; r.hi = 10; break;
        default: break;
    }
    return clamp_range(r, c.dt);
}

class eltwise_prb_t : public problem_t {
public:
    explicit eltwise_prb_t(const eltwise_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("eltwise");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt2str(c_.dt), "f32")
                .knob("tag", c_.tag, "abx")
                .knob("alg", c_.alg == dnnl_alg_kind_undef ? "bounded_relu" : eltwise_alg2str(c_.alg), "relu")
                .knob("alpha", num(c_.alpha), "0")
                .knob("beta", num(c_.beta), "0")
                .knob("inplace", c_.inplace ? "true" : "false", "false")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.dt)) return std::string("data type ") + dt2str(c_.dt) + " not handled by the tester";
        if (c_.alg == dnnl_alg_kind_undef) return "bounded_relu is not in the v3 API (clip replaced it)";
        if (c_.dir == dir_t::bwd_d && c_.alg == dnnl_eltwise_round) return "round has no backward";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "eltwise has FWD_D, FWD_I and BWD_D only";
        if (c_.dir == dir_t::bwd_d && !c_.attr.is_default()) return "backward takes no attributes";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h md;
        dnnl_status_t st = make_md(md, c_.dims, c_.dt, c_.tag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dims, [&](int) { return c_.dims; }));
        const float a = static_cast<float>(c_.alpha), b = static_cast<float>(c_.beta);
        if (c_.dir != dir_t::bwd_d) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_eltwise_forward_primitive_desc_create, pd.out(),
                    engine, prop, c_.alg, md.get(), md.get(), a, b, bundle_->get());
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_eltwise_forward_primitive_desc_create, hint_.out(),
                engine, dnnl_forward_training, c_.alg, md.get(), md.get(), a, b, nullptr);
        if (st != dnnl_success) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_eltwise_backward_primitive_desc_create, pd.out(),
                engine, c_.alg, md.get(), md.get(), md.get(), a, b, hint_.get(), bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        const int64_t n = product(c_.dims);
        src_ = fill_values(n, src_range(c_), c_.dt, 1);
        if (c_.dir != dir_t::bwd_d) {
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            if (c_.inplace) {
                args.alias(DNNL_ARG_DST, DNNL_ARG_SRC);
                prev_ = src_;
            } else {
                fill_range_t r;
                prev_ = fill_values(n, clamp_range(r, c_.dt), c_.dt, 2);
                args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
            }
            bundle_->prepare(args);
            return;
        }
        // Backward reads the source, or the destination for the *_dst algorithms.
        fill_range_t dr;
        dr.lo = -2;
        dr.hi = 2;
        diff_dst_ = fill_values(n, clamp_range(dr, c_.dt), c_.dt, 3);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(diff_dst_);
        if (eltwise_uses_dst(c_.alg)) {
            data_.resize(src_.size());
            for (size_t i = 0; i < src_.size(); ++i)
                data_[i] = round_to_dt(eltwise_fwd(c_.alg, src_[i], c_.alpha, c_.beta), c_.dt);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(data_);
        } else {
            data_ = src_;
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(data_);
        }
        if (c_.inplace)
            args.alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST);
        else
            args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(diff_dst_);
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims);
        std::vector<double> exp(static_cast<size_t>(n));
        tolerance_t tol;
        const bool tr = eltwise_is_transcendental(c_.alg);
        tol.eps = tr ? (c_.dir == dir_t::bwd_d ? 2e-5 : 1e-5) : 0;
        tol.int_diff = tr || c_.alpha != std::floor(c_.alpha) || c_.beta != std::floor(c_.beta) ? 1 : 0;
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        if (c_.dir == dir_t::bwd_d) {
            for (int64_t i = 0; i < n; ++i)
                exp[i] = eltwise_bwd(c_.alg, diff_dst_[i], data_[i], c_.alpha, c_.beta);
            return check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg);
        }
        for (int64_t i = 0; i < n; ++i) {
            logical_position(c_.dims, i, pos);
            double d = eltwise_fwd(c_.alg, src_[i], c_.alpha, c_.beta);
            exp[i] = bundle_->apply_post_ops(d, pos, prev_[i]);
        }
        if (!c_.attr.post_ops.empty()) tol.int_diff = 1;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg);
    }

private:
    static std::string num(double v) {
        char b[32];
        std::snprintf(b, sizeof(b), "%g", v);
        return b;
    }

    eltwise_cfg_t c_;
    pd_h hint_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_, diff_dst_, data_;
};

class eltwise_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            eltwise_prb_t prb({dir_, dt_, tag_, alg_, alpha_, beta_, inplace_, attr_,
                    apply_mb(dims, mb_)});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &dt_ = knob({"--dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_eltwise_relu}, [](const std::string &s) {
        dnnl_alg_kind_t a;
        if (lowercase(s) == "bounded_relu") return dnnl_alg_kind_undef; // oneDNN v2's, gone in v3
        if (!str2eltwise_alg(s, a)) throw std::invalid_argument("unknown eltwise algorithm '" + s + "'");
        return a;
    });
    const double &alpha_ = knob({"--alpha"}, {0.0}, number_item("alpha"));
    const double &beta_ = knob({"--beta"}, {0.0}, number_item("beta"));
    const bool &inplace_ = knob({"--inplace"}, {false}, parse_bool);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("eltwise", eltwise_driver_t);

} // namespace benchdnn
