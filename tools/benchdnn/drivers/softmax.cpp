// --softmax: softmax forward and backward (--dir, --sdt, --ddt, --stag, --dtag, --alg, --axis,
// --inplace). Reference: double-precision rows along the axis.
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

struct softmax_cfg_t {
    dir_t dir;
    dnnl_data_type_t sdt, ddt;
    std::string stag, dtag;
    dnnl_alg_kind_t alg;
    int axis;
    bool inplace;
    attr_desc_t attr;
    dims_t dims;
};

bool str2alg(const std::string &s, dnnl_alg_kind_t &a) {
    if (s == "SOFTMAX" || s == "softmax" || s == "softmax_accurate") a = dnnl_softmax_accurate;
    else if (s == "LOGSOFTMAX" || s == "logsoftmax" || s == "softmax_log") a = dnnl_softmax_log;
    else return false;
    return true;
}

class softmax_prb_t : public problem_t {
public:
    explicit softmax_prb_t(const softmax_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("softmax");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("sdt", dt2str(c_.sdt), "f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", c_.stag, "abx")
                .knob("dtag", c_.dtag, "any")
                .knob("alg", c_.alg == dnnl_softmax_log ? "LOGSOFTMAX" : "SOFTMAX", "SOFTMAX")
                .knob("axis", std::to_string(c_.axis), "1")
                .knob("inplace", c_.inplace ? "true" : "false", "false")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.sdt) || !dt_supported(c_.ddt)) return "data type not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "softmax has FWD_D, FWD_I and BWD_D only";
        if (c_.axis < 0 || c_.axis >= static_cast<int>(c_.dims.size())) return "axis outside the tensor";
        if (c_.dir == dir_t::bwd_d && !c_.attr.is_default()) return "backward takes no attributes";
        if (c_.inplace && (c_.sdt != c_.ddt || (c_.dtag != "any" && c_.dtag != c_.stag)))
            return "in-place needs one data type and layout (oneDNN's benchdnn skips it as invalid too)";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h smd, dmd;
        dnnl_status_t st = make_md(smd, c_.dims, c_.sdt, c_.stag);
        if (st != dnnl_success) return st;
        st = make_md(dmd, c_.dims, c_.ddt, c_.inplace ? c_.stag : c_.dtag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dims, [&](int) { return c_.dims; }));
        if (c_.dir != dir_t::bwd_d) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_softmax_forward_primitive_desc_create, pd.out(),
                    engine, prop, c_.alg, smd.get(), dmd.get(), c_.axis, bundle_->get());
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_softmax_forward_primitive_desc_create, hint_.out(),
                engine, dnnl_forward_training, c_.alg, smd.get(), dmd.get(), c_.axis, nullptr);
        if (st != dnnl_success) return st;
        // Backward: dst and diff_dst in dst's type, diff_src in src's.
        md_h ddmd, dsmd;
        make_md(ddmd, c_.dims, c_.ddt, c_.inplace ? c_.stag : c_.dtag);
        make_md(dsmd, c_.dims, c_.sdt, c_.stag);
        return BENCHDNN_CALL_OP(*this, dnnl_softmax_backward_primitive_desc_create, pd.out(),
                engine, c_.alg, dsmd.get(), ddmd.get(), dmd.get(), c_.axis, hint_.get(),
                bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        const int64_t n = product(c_.dims);
        fill_range_t r;
        r.lo = -8;
        r.hi = 8;
        src_ = fill_values(n, clamp_range(r, c_.sdt), c_.sdt, 1);
        if (c_.dir != dir_t::bwd_d) {
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            if (c_.inplace) {
                args.alias(DNNL_ARG_DST, DNNL_ARG_SRC);
                prev_ = src_;
            } else {
                fill_range_t pr;
                prev_ = fill_values(n, clamp_range(pr, c_.ddt), c_.ddt, 2);
                args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
            }
            bundle_->prepare(args);
            return;
        }
        // dst: a genuine softmax result of src, rounded to its type.
        dst_ = forward(src_, false);
        for (auto &v : dst_)
            v = round_to_dt(v, c_.ddt);
        fill_range_t dr;
        dr.lo = -2;
        dr.hi = 2;
        diff_dst_ = fill_values(n, clamp_range(dr, c_.ddt), c_.ddt, 3);
        args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(dst_);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(diff_dst_);
        if (c_.inplace)
            args.alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST);
        else
            args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(diff_dst_);
    }

    bool check(const args_t &args, std::string &msg) override {
        tolerance_t tol;
        tol.eps = c_.dir == dir_t::bwd_d ? 1e-4 : 2e-5;
        tol.int_diff = 1;
        if (c_.dir == dir_t::bwd_d) return check_output(args.at(DNNL_ARG_DIFF_SRC), backward(), tol, msg);
        return check_output(args.at(DNNL_ARG_DST), forward(src_, true), tol, msg);
    }

private:
    // Calls f(first linear index of the row, stride along the axis) for every row.
    template <typename F>
    void for_rows(F f) const {
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < c_.axis; ++d)
            outer *= c_.dims[d];
        for (size_t d = c_.axis + 1; d < c_.dims.size(); ++d)
            inner *= c_.dims[d];
        const int64_t C = c_.dims[c_.axis];
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i)
                f(o * C * inner + i, inner);
    }

    std::vector<double> forward(const std::vector<double> &x, bool with_attr) const {
        std::vector<double> y(x.size());
        const int64_t C = c_.dims[c_.axis];
        int64_t z[DNNL_MAX_NDIMS] = {0};
        const double ss = with_attr ? bundle_->scale(DNNL_ARG_SRC, z) : 1;
        const double ds = with_attr ? bundle_->scale(DNNL_ARG_DST, z) : 1;
        int64_t pos[DNNL_MAX_NDIMS];
        for_rows([&](int64_t b, int64_t s) {
            double mx = -INFINITY, sum = 0;
            for (int64_t k = 0; k < C; ++k)
                mx = std::max(mx, x[b + k * s]);
            for (int64_t k = 0; k < C; ++k)
                sum += std::exp(x[b + k * s] - mx);
            for (int64_t k = 0; k < C; ++k) {
                const int64_t i = b + k * s;
                double v = c_.alg == dnnl_softmax_log ? x[i] - mx - std::log(sum)
                                                      : std::exp(x[i] - mx) / sum;
                if (with_attr) {
                    v *= ss;
                    logical_position(c_.dims, i, pos);
                    v = bundle_->apply_post_ops(v, pos, prev_[i]);
                    v /= ds;
                }
                y[i] = v;
            }
        });
        return y;
    }

    std::vector<double> backward() const {
        std::vector<double> o(dst_.size());
        const int64_t C = c_.dims[c_.axis];
        for_rows([&](int64_t b, int64_t s) {
            double sum = 0;
            for (int64_t k = 0; k < C; ++k) {
                const int64_t i = b + k * s;
                sum += c_.alg == dnnl_softmax_log ? diff_dst_[i] : diff_dst_[i] * dst_[i];
            }
            for (int64_t k = 0; k < C; ++k) {
                const int64_t i = b + k * s;
                o[i] = c_.alg == dnnl_softmax_log ? diff_dst_[i] - std::exp(dst_[i]) * sum
                                                  : dst_[i] * (diff_dst_[i] - sum);
            }
        });
        return o;
    }

    softmax_cfg_t c_;
    pd_h hint_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_, dst_, diff_dst_;
};

class softmax_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            softmax_prb_t prb({dir_, sdt_, ddt_, stag_, dtag_, alg_, axis_, inplace_, attr_,
                    apply_mb(dims, mb_)});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &sdt_ = knob({"--sdt"}, {dnnl_f32}, str2dt);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::string &stag_ = knob({"--stag"}, {"abx"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_softmax_accurate}, [](const std::string &s) {
        dnnl_alg_kind_t a;
        if (!str2alg(s, a)) throw std::invalid_argument("unknown softmax algorithm '" + s + "'");
        return a;
    });
    const int &axis_ = knob({"--axis"}, {1}, int_item("axis"));
    const bool &inplace_ = knob({"--inplace"}, {false}, parse_bool);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("softmax", softmax_driver_t);

} // namespace benchdnn
