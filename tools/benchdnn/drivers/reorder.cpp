// --reorder: layout and data type conversion (--sdt, --ddt, --stag, --dtag), with scales,
// zero points and a sum post-op; --cross-engine=cpu2gpu|gpu2cpu puts src or dst on a CPU
// engine beside the tested one (upstream benchdnn's knob). Checked by addressing both layouts directly, never through
// another reorder.
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

struct reorder_cfg_t {
    dnnl_data_type_t sdt, ddt;
    std::string stag, dtag;
    attr_desc_t attr;
    dims_t dims;
    std::string cross = "none"; // none, cpu2gpu, gpu2cpu
};

class reorder_prb_t : public problem_t {
public:
    explicit reorder_prb_t(const reorder_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("reorder");
        r.knob("sdt", dt2str(c_.sdt), "f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", c_.stag, "abx")
                .knob("dtag", c_.dtag, "abx")
                .knob("cross-engine", c_.cross, "none")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        for (auto dt : {c_.sdt, c_.ddt})
            if (!dt_supported(dt))
                return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (c_.stag == "any") return "a reorder source needs a defined layout";
        if (c_.cross != "none" && settings().engine_kind != dnnl_gpu)
            return "--cross-engine needs --engine=gpu";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h src, dst;
        dnnl_status_t st = make_md(src, c_.dims, c_.sdt, c_.stag);
        if (st == dnnl_success) st = make_md(dst, c_.dims, c_.ddt, c_.dtag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dims, [&](int) { return c_.dims; }));
        return BENCHDNN_CALL_OP(*this, dnnl_reorder_primitive_desc_create, pd.out(), src.get(),
                engine_of(DNNL_ARG_FROM, engine), dst.get(), engine_of(DNNL_ARG_TO, engine),
                bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        const int64_t n = product(c_.dims);
        // Quarter steps put exact ties in the rounding to integers; the range overflows s8
        // and u8 so saturation is checked too.
        fill_range_t r;
        r.lo = -160;
        r.hi = 160;
        r.step = 0.25;
        src_ = fill_values(n, clamp_range(r, c_.sdt), c_.sdt, 1);
        args.add_on(DNNL_ARG_FROM, md_of(DNNL_ARG_FROM), engine_of(DNNL_ARG_FROM, test_engine()))
                .write(src_);
        fill_range_t d;
        prev_ = fill_values(n, clamp_range(d, c_.ddt), c_.ddt, 2);
        args.add_on(DNNL_ARG_TO, md_of(DNNL_ARG_TO), engine_of(DNNL_ARG_TO, test_engine()))
                .write(prev_);
        bundle_->prepare(args);
    }

    // dst = (src_scale * (src - src_zp) [+ post-ops]) / dst_scale + dst_zp
    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims);
        std::vector<double> exp(static_cast<size_t>(n));
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        for (int64_t i = 0; i < n; ++i) {
            logical_position(c_.dims, i, pos);
            double v = bundle_->scale(DNNL_ARG_SRC, pos)
                    * (src_[i] - bundle_->zero_point(DNNL_ARG_SRC, pos));
            v = bundle_->apply_post_ops(v, pos, prev_[i]);
            exp[i] = v / bundle_->scale(DNNL_ARG_DST, pos) + bundle_->zero_point(DNNL_ARG_DST, pos);
        }
        tolerance_t tol;
        // Scaled values are computed in f32 by the library: allow its rounding.
        const bool scaled = !c_.attr.is_default();
        tol.eps = scaled ? 4 * dt_epsilon(dnnl_f32) : 0;
        tol.int_diff = scaled ? 1 : 0;
        return check_output(args.at(DNNL_ARG_TO), exp, tol, msg);
    }

private:
    // The CPU engine for the side --cross-engine puts there, else the tested engine.
    dnnl_engine_t engine_of(int arg, dnnl_engine_t tested) const {
        const bool host = (arg == DNNL_ARG_FROM && c_.cross == "cpu2gpu")
                || (arg == DNNL_ARG_TO && c_.cross == "gpu2cpu");
        return host ? host_engine() : tested;
    }

    reorder_cfg_t c_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_;
};

std::string checked_cross(const std::string &c) {
    if (c != "none" && c != "cpu2gpu" && c != "gpu2cpu")
        throw std::invalid_argument("--cross-engine is none, cpu2gpu or gpu2cpu, not '" + c + "'");
    return c;
}

class reorder_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            reorder_prb_t prb({sdt_, ddt_, stag_, dtag_, attr_, apply_mb(dims, mb_), cross_});
            run_problem(prb);
        });
    }

private:
    const dnnl_data_type_t &sdt_ = knob({"--sdt"}, {dnnl_f32}, str2dt);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::string &stag_ = knob({"--stag"}, {"abx"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"abx"}, checked_tag);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
    const std::string &cross_ = knob({"--cross-engine"}, {"none"}, checked_cross);
};

} // namespace

BENCHDNN_REGISTER_DRIVER("reorder", reorder_driver_t);

} // namespace benchdnn
