// --reduction: the nine reduction algorithms (--sdt, --ddt, --stag, --dtag, --alg, --p,
// --eps) on problems "src_dims:dst_dims" (dst dims 1 where reduced).
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

struct alg_name_t {
    const char *name;
    dnnl_alg_kind_t alg;
};
const alg_name_t alg_names[] = {{"max", dnnl_reduction_max}, {"min", dnnl_reduction_min},
        {"sum", dnnl_reduction_sum}, {"mul", dnnl_reduction_mul}, {"mean", dnnl_reduction_mean},
        {"norm_lp_max", dnnl_reduction_norm_lp_max}, {"norm_lp_sum", dnnl_reduction_norm_lp_sum},
        {"norm_lp_power_p_max", dnnl_reduction_norm_lp_power_p_max},
        {"norm_lp_power_p_sum", dnnl_reduction_norm_lp_power_p_sum}};

const char *alg2str(dnnl_alg_kind_t a) {
    for (const auto &e : alg_names)
        if (e.alg == a) return e.name;
    return "?";
}

bool is_norm(dnnl_alg_kind_t a) {
    return a == dnnl_reduction_norm_lp_max || a == dnnl_reduction_norm_lp_sum
            || a == dnnl_reduction_norm_lp_power_p_max || a == dnnl_reduction_norm_lp_power_p_sum;
}

struct red_cfg_t {
    dnnl_data_type_t sdt, ddt;
    std::string stag, dtag;
    dnnl_alg_kind_t alg;
    double p, eps;
    attr_desc_t attr;
    dims_t src, dst;
};

class red_prb_t : public problem_t {
public:
    explicit red_prb_t(const red_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("reduction");
        r.knob("sdt", dt2str(c_.sdt), "f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", c_.stag, "abx")
                .knob("dtag", c_.dtag, "any")
                .knob("alg", alg2str(c_.alg), "sum")
                .knob("p", num(c_.p), "1")
                .knob("eps", num(c_.eps), "0")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.src) + ":" + dims2str(c_.dst));
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.sdt) || !dt_supported(c_.ddt)) return "data type not handled by the tester";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, d;
        dnnl_status_t st = make_md(s, c_.src, c_.sdt, c_.stag);
        if (st == dnnl_success) st = make_md(d, c_.dst, c_.ddt, c_.dtag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dst, [&](int) { return c_.dst; }));
        return BENCHDNN_CALL_OP(*this, dnnl_reduction_primitive_desc_create, pd.out(), engine, c_.alg,
                s.get(), d.get(), static_cast<float>(c_.p), static_cast<float>(c_.eps), bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        if (c_.alg == dnnl_reduction_mul) {
            // Products of values near one stay in range.
            r.lo = 0.5;
            r.hi = 2;
            r.step = 0.25;
            r.random_sign = true;
            r.zero_share = 0;
        } else if (dt_is_int(c_.ddt) || dt_is_int(c_.sdt)) {
            r.lo = -8;
            r.hi = 8;
            r.integers = true;
        }
        src_ = fill_values(product(c_.src), clamp_range(r, c_.sdt), c_.sdt, 1);
        if (c_.alg == dnnl_reduction_mul) {
            // At most ~20 factors differ from one per output, whatever the shape.
            for (size_t i = 0; i < src_.size(); ++i)
                if (i % 7) src_[i] = src_[i] < 0 ? -1 : 1;
        }
        fill_range_t pr;
        prev_ = fill_values(product(c_.dst), clamp_range(pr, c_.ddt), c_.ddt, 2);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
        bundle_->prepare(args);
    }

    bool check(const args_t &args, std::string &msg) override {
        const int nd = static_cast<int>(c_.src.size());
        const int64_t n_dst = product(c_.dst);
        dims_t rdims(nd);
        for (int k = 0; k < nd; ++k) rdims[k] = c_.dst[k] == c_.src[k] ? 1 : c_.src[k];
        const int64_t nr = product(rdims);
        std::vector<double> exp(n_dst), mag(n_dst);
        int64_t pos[DNNL_MAX_NDIMS], rp[DNNL_MAX_NDIMS], sp[DNNL_MAX_NDIMS];
        const double p = c_.p;
        for (int64_t i = 0; i < n_dst; ++i) {
            logical_position(c_.dst, i, pos);
            double acc = c_.alg == dnnl_reduction_max ? -INFINITY
                    : c_.alg == dnnl_reduction_min    ? INFINITY
                    : c_.alg == dnnl_reduction_mul    ? 1
                                                      : 0;
            double m = 0;
            for (int64_t r = 0; r < nr; ++r) {
                logical_position(rdims, r, rp);
                for (int k = 0; k < nd; ++k) sp[k] = rdims[k] == 1 ? pos[k] : rp[k];
                const double x = src_[linear_index(c_.src, sp)];
                switch (c_.alg) {
                    case dnnl_reduction_max: acc = std::max(acc, x); break;
                    case dnnl_reduction_min: acc = std::min(acc, x); break;
                    case dnnl_reduction_mul: acc *= x; break;
                    case dnnl_reduction_sum:
                    case dnnl_reduction_mean: acc += x; m += std::fabs(x); break;
                    default: acc += std::pow(std::fabs(x), p); break;
                }
            }
            double v = acc;
            switch (c_.alg) {
                case dnnl_reduction_mean: v = nr ? acc / nr : acc; m = nr ? m / nr : m; break;
                case dnnl_reduction_norm_lp_max: v = std::pow(std::max(acc, c_.eps), 1 / p); break;
                case dnnl_reduction_norm_lp_sum: v = std::pow(acc + c_.eps, 1 / p); break;
                case dnnl_reduction_norm_lp_power_p_max: v = std::max(acc, c_.eps); break;
                case dnnl_reduction_norm_lp_power_p_sum: v = acc + c_.eps; break;
                case dnnl_reduction_mul: m = std::fabs(acc) * 4; break;
                default: break;
            }
            if (is_norm(c_.alg)) m = std::fabs(v);
            exp[i] = bundle_->apply_post_ops(v, pos, prev_[i]);
            mag[i] = m;
        }
        tolerance_t tol;
        // f32 accumulation over many terms; non-integer powers go through powf.
        tol.eps = (is_norm(c_.alg) && p != 1 && p != 2) ? 1e-5 : 1e-6 * std::max<double>(1.0, std::log2(std::max<int64_t>(2, nr)));
        tol.int_diff = 1;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    static std::string num(double v) {
        char b[32];
        std::snprintf(b, sizeof(b), "%g", v);
        return b;
    }

    red_cfg_t c_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_;
};

class red_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const std::vector<dims_t> shapes = parse_dims_list(desc);
        if (shapes.size() != 2 || shapes[0].size() != shapes[1].size())
            throw std::invalid_argument("reduction takes src_dims:dst_dims of one rank");
        for_each_problem([&] {
            red_cfg_t c {sdt_, ddt_, stag_, dtag_, alg_, p_, eps_, attr_,
                    apply_mb(shapes[0], mb_), apply_mb(shapes[1], mb_)};
            if (mb_ > 0 && shapes[1][0] == 1 && shapes[0][0] != 1) c.dst[0] = 1;
            red_prb_t prb(c);
            run_problem(prb);
        });
    }

private:
    const dnnl_data_type_t &sdt_ = knob({"--sdt"}, {dnnl_f32}, str2dt);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::string &stag_ = knob({"--stag"}, {"abx"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_reduction_sum}, [](const std::string &s) {
        std::string l = lowercase(s);
        if (l.rfind("reduction_", 0) == 0) l = l.substr(10);
        for (const auto &e : alg_names)
            if (l == e.name) return e.alg;
        throw std::invalid_argument("unknown reduction algorithm '" + s + "'");
    });
    const double &p_ = knob({"--p"}, {1.0}, number_item("p"));
    const double &eps_ = knob({"--eps"}, {0.0}, number_item("eps"));
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("reduction", red_driver_t);

} // namespace benchdnn
