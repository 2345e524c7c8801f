// --ip: inner product, forward (FWD_B with bias, FWD_D / FWD_I without), BWD_D, BWD_W, BWD_WB;
// knobs --dt (one type, or src:wei:dst), --stag, --wtag, --dtag, --mb and the attributes;
// problems "mbXicXocX" with optional spatial sizes "idXihXiwX" (absent inner sizes repeat
// the outer ones) and an "_name"/"nNAME" tail. Reference: dst[n][o] = sum over (i, spatial)
// of src[n][i][sp] * wei[o][i][sp] (+ bias[o]), and the two gradients of that relation.
#include <array>
#include <cctype>
#include <cmath>
#include <memory>

#include "attr.hpp"
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

struct ip_cfg_t {
    dir_t dir;
    dnnl_data_type_t sdt, wdt, ddt;
    std::string stag, wtag, dtag;
    attr_desc_t attr;
    dims_t src_dims; // mb, ic[, spatial...]
    int64_t oc;
    std::string text;
};

class ip_prb_t : public problem_t {
public:
    explicit ip_prb_t(const ip_cfg_t &c) : c_(c) {
        wei_dims_ = c_.src_dims;
        wei_dims_[0] = c_.oc;
        dst_dims_ = {c_.src_dims[0], c_.oc};
        k_ = 1; // the reduction size: every source dimension but the batch (which may be 0)
        for (size_t i = 1; i < c_.src_dims.size(); ++i) k_ *= c_.src_dims[i];
    }

    std::string repro() const override {
        std::string dt = dt2str(c_.sdt);
        if (c_.wdt != c_.sdt || c_.ddt != c_.sdt)
            dt += std::string(":") + dt2str(c_.wdt) + ":" + dt2str(c_.ddt);
        repro_t r("ip");
        r.knob("dir", dir2str(c_.dir), "FWD_B")
                .knob("dt", dt, "f32")
                .knob("stag", c_.stag, "any")
                .knob("wtag", c_.wtag, "any")
                .knob("dtag", c_.dtag, "any")
                .raw(c_.attr.repro());
        return r.str(c_.text);
    }

    std::string skip_reason() const override {
        for (auto t : {c_.sdt, c_.wdt, c_.ddt})
            if (!dt_supported(t)) return "data type not handled by the tester";
        if (c_.dir == dir_t::bwd_dw) return "no BWD_DW for inner products";
        if (!is_fwd(c_.dir) && !c_.attr.is_default()) return "backward takes no attributes";
        return {};
    }

    double flops() const override { return 2.0 * c_.src_dims[0] * c_.oc * k_; }

    bool with_bias() const { return c_.dir == dir_t::fwd_b || c_.dir == dir_t::bwd_wb; }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, w, b, t;
        dnnl_status_t st = make_md(s, c_.src_dims, c_.sdt, c_.stag);
        if (st == dnnl_success) st = make_md(w, wei_dims_, c_.wdt, c_.wtag);
        if (st == dnnl_success) st = make_md(t, dst_dims_, c_.ddt, c_.dtag);
        const dnnl_data_type_t bdt = is_fwd(c_.dir) ? dnnl_f32 : c_.ddt;
        if (st == dnnl_success && with_bias()) st = make_md(b, {c_.oc}, bdt, "abx");
        if (st != dnnl_success) return st;
        const dims_t sd = c_.src_dims, wd = wei_dims_, dd = dst_dims_;
        // oneDNN's per_oc on inner-product weights {OC, IC...} is mask 1 (dimension 0).
        bundle_attr_ = c_.attr;
        for (auto &e : bundle_attr_.scales)
            if (e.arg == DNNL_ARG_WEIGHTS && e.policy == "per_oc") e.policy = "per_dim_0";
        bundle_.reset(new attr_bundle_t(bundle_attr_, dd, [=](int arg) {
            return arg == DNNL_ARG_SRC ? sd : arg == DNNL_ARG_WEIGHTS ? wd : dd;
        }));
        auto fwd = [&](pd_h &out, dnnl_prop_kind_t prop, dnnl_primitive_attr_t a) {
            return BENCHDNN_CALL_OP(*this, dnnl_inner_product_forward_primitive_desc_create,
                    out.out(), engine, prop, s.get(), w.get(), b.get(), t.get(), a);
        };
        if (is_fwd(c_.dir))
            return fwd(pd, c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training,
                    bundle_->get());
        st = fwd(hint_, dnnl_forward_training, nullptr);
        if (st != dnnl_success) return st;
        if (c_.dir == dir_t::bwd_d)
            return BENCHDNN_CALL_OP(*this, dnnl_inner_product_backward_data_primitive_desc_create,
                    pd.out(), engine, s.get(), w.get(), t.get(), hint_.get(), nullptr);
        return BENCHDNN_CALL_OP(*this, dnnl_inner_product_backward_weights_primitive_desc_create,
                pd.out(), engine, s.get(), w.get(), b.get(), t.get(), hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        r.step = 0.25;
        fill_range_t ri = r;
        ri.integers = true;
        ri.step = 0;
        auto range = [&](dnnl_data_type_t t) { return clamp_range(dt_is_int(t) ? ri : r, t); };
        src_ = fill_values(product(c_.src_dims), range(c_.sdt), c_.sdt, 1);
        wei_ = fill_values(product(wei_dims_), range(c_.wdt), c_.wdt, 2);
        dst_ = fill_values(product(dst_dims_), range(c_.ddt), c_.ddt, 3);
        if (with_bias()) bia_ = fill_values(c_.oc, range(dnnl_f32), dnnl_f32, 4);
        if (is_fwd(c_.dir)) {
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
            if (with_bias()) args.add(DNNL_ARG_BIAS, md_of(DNNL_ARG_BIAS)).write(bia_);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(dst_);
            bundle_->prepare(args);
        } else if (c_.dir == dir_t::bwd_d) {
            args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(src_);
            args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
            args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dst_);
        } else {
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            args.add(DNNL_ARG_DIFF_WEIGHTS, md_of(DNNL_ARG_DIFF_WEIGHTS)).write(wei_);
            if (with_bias()) args.add(DNNL_ARG_DIFF_BIAS, md_of(DNNL_ARG_DIFF_BIAS)).write(bia_);
            args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dst_);
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t MB = c_.src_dims[0], OC = c_.oc, K = k_;
        tolerance_t tol;
        tol.eps = 2e-6;
        tol.int_diff = 1;
        if (is_fwd(c_.dir)) {
            std::vector<double> exp(dst_.size()), mag(dst_.size());
            int64_t zero[2] = {0, 0};
            const double zp = bundle_->zero_point(DNNL_ARG_SRC, zero);
            for (int64_t n = 0; n < MB; ++n)
                for (int64_t o = 0; o < OC; ++o) {
                    double acc = 0, m = 0;
                    for (int64_t k = 0; k < K; ++k) {
                        const double v = (src_[n * K + k] - zp) * wei_[o * K + k];
                        acc += v;
                        m += std::fabs(v);
                    }
                    int64_t pos[2] = {n, o}, wpos[6] = {o, 0, 0, 0, 0, 0};
                    const double scale = bundle_->scale(DNNL_ARG_SRC, zero)
                            * bundle_->scale(DNNL_ARG_WEIGHTS, wpos);
                    double v = acc * scale + (with_bias() ? bia_[o] : 0.0);
                    const size_t x = static_cast<size_t>(n * OC + o);
                    mag[x] = m * std::fabs(scale) + std::fabs(v);
                    v = bundle_->apply_post_ops(v, pos, dst_[x]);
                    exp[x] = v / bundle_->scale(DNNL_ARG_DST, zero)
                            + bundle_->zero_point(DNNL_ARG_DST, zero);
                }
            return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
        }
        if (c_.dir == dir_t::bwd_d) {
            std::vector<double> exp(src_.size(), 0.0), mag(src_.size(), 0.0);
            for (int64_t n = 0; n < MB; ++n)
                for (int64_t o = 0; o < OC; ++o)
                    for (int64_t k = 0; k < K; ++k) {
                        const double v = dst_[n * OC + o] * wei_[o * K + k];
                        exp[n * K + k] += v;
                        mag[n * K + k] += std::fabs(v);
                    }
            return check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg, &mag);
        }
        std::vector<double> exp(wei_.size(), 0.0), mag(wei_.size(), 0.0);
        for (int64_t n = 0; n < MB; ++n)
            for (int64_t o = 0; o < OC; ++o)
                for (int64_t k = 0; k < K; ++k) {
                    const double v = dst_[n * OC + o] * src_[n * K + k];
                    exp[o * K + k] += v;
                    mag[o * K + k] += std::fabs(v);
                }
        if (!check_output(args.at(DNNL_ARG_DIFF_WEIGHTS), exp, tol, msg, &mag)) return false;
        if (!with_bias()) return true;
        std::vector<double> eb(OC, 0.0), mb(OC, 0.0);
        for (int64_t n = 0; n < MB; ++n)
            for (int64_t o = 0; o < OC; ++o) {
                eb[o] += dst_[n * OC + o];
                mb[o] += std::fabs(dst_[n * OC + o]);
            }
        return check_output(args.at(DNNL_ARG_DIFF_BIAS), eb, tol, msg, &mb);
    }

private:
    ip_cfg_t c_;
    dims_t wei_dims_, dst_dims_;
    int64_t k_ = 1; // ic times the spatial size
    pd_h hint_;
    attr_desc_t bundle_attr_; // c_.attr with oneDNN's masks; the bundle refers to it
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, wei_, dst_, bia_;
};

// The descriptor text with its minibatch replaced (repro lines show what ran).
std::string with_mb(const std::string &text, int64_t mb) {
    const size_t at = text.find("mb");
    if (at != 0) return "mb" + std::to_string(mb) + text;
    size_t end = 2;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    return "mb" + std::to_string(mb) + text.substr(end);
}

class ip_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const spatial_desc_t d = spatial_desc_t::parse(text);
        if (!d.has("oc")) throw std::invalid_argument("inner product descriptor has no oc");
        dims_t src = d.dims();
        // "mbXicXocX" alone is 2D; spatial sizes make it 3D to 5D.
        if (!d.has("id") && !d.has("ih") && !d.has("iw")) src = {src[0], src[1]};
        const int64_t oc = static_cast<int64_t>(d.get("oc", 1));
        for_each_problem([&] {
            ip_cfg_t c {dir_, dt_[0], dt_[1], dt_[2], stag_, wtag_, dtag_, attr_, src, oc, text};
            if (mb_ > 0) {
                c.src_dims[0] = mb_;
                c.text = with_mb(text, mb_);
            }
            ip_prb_t prb(c);
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_b}, str2dir);
    const std::array<dnnl_data_type_t, 3> &dt_
            = knob({"--dt", "--cfg"}, {{dnnl_f32, dnnl_f32, dnnl_f32}}, parse_dt_triple);
    const std::string &stag_ = knob({"--stag"}, {"any"}, checked_tag);
    const std::string &wtag_ = knob({"--wtag"}, {"any"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("ip", ip_driver_t);

} // namespace benchdnn
