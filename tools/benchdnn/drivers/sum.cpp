// --sum: dst = sum of scale_i * src_i (--sdt=f32:f32 gives the number of sources, --ddt,
// --stag, --dtag, --scales=1:0.5, --inplace).
#include <cmath>

#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct sum_cfg_t {
    std::vector<dnnl_data_type_t> sdt;
    dnnl_data_type_t ddt;
    std::vector<std::string> stag;
    std::string dtag;
    std::vector<double> scales;
    bool inplace;
    attr_desc_t attr;
    dims_t dims;
};

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof(b), "%g", v);
    return b;
}

class sum_prb_t : public problem_t {
public:
    explicit sum_prb_t(const sum_cfg_t &c) : c_(c) {
        n_ = static_cast<int>(c_.sdt.size());
        while (c_.stag.size() < c_.sdt.size()) c_.stag.push_back(c_.stag.back());
        while (c_.scales.size() < c_.sdt.size()) c_.scales.push_back(c_.scales.back());
    }

    std::string repro() const override {
        std::string sdt, stag, scales;
        for (int i = 0; i < n_; ++i) {
            sdt += (i ? ":" : "") + std::string(dt2str(c_.sdt[i]));
            stag += (i ? ":" : "") + c_.stag[i];
            scales += (i ? ":" : "") + num(c_.scales[i]);
        }
        std::string def_stag, def_scales;
        for (int i = 0; i < n_; ++i) {
            def_stag += i ? ":abx" : "abx";
            def_scales += i ? ":1" : "1";
        }
        repro_t r("sum");
        r.knob("sdt", sdt, "f32:f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", stag, def_stag)
                .knob("dtag", c_.dtag, "any")
                .knob("scales", scales, def_scales)
                .knob("inplace", c_.inplace ? "true" : "false", "false")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        for (auto dt : c_.sdt)
            if (!dt_supported(dt))
                return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (!dt_supported(c_.ddt))
            return std::string("data type ") + dt2str(c_.ddt) + " not handled by the tester";
        if (c_.inplace && c_.sdt[0] != c_.ddt) return "in-place needs src0 typed like dst";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        std::vector<md_h> src(n_);
        std::vector<const_dnnl_memory_desc_t> src_ptr(n_);
        for (int i = 0; i < n_; ++i) {
            dnnl_status_t st = make_md(src[i], c_.dims, c_.sdt[i], c_.stag[i]);
            if (st != dnnl_success) return st;
            src_ptr[i] = src[i].get();
        }
        // --dtag=undef: no destination descriptor, the library picks it (and its type).
        md_h dst;
        if (c_.inplace || c_.dtag != "undef") {
            dnnl_status_t st = make_md(dst, c_.dims, c_.ddt, c_.inplace ? c_.stag[0] : c_.dtag);
            if (st != dnnl_success) return st;
        }
        std::vector<float> scales(c_.scales.begin(), c_.scales.begin() + n_);
        bundle_.reset(new attr_bundle_t(c_.attr, c_.dims, [&](int) { return c_.dims; }));
        return BENCHDNN_CALL_OP(*this, dnnl_sum_primitive_desc_create, pd.out(), engine,
                dst.get(), n_, scales.data(), src_ptr.data(), bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        src_.resize(n_);
        for (int i = 0; i < n_; ++i) {
            fill_range_t r;
            src_[i] = fill_values(product(c_.dims), clamp_range(r, c_.sdt[i]), c_.sdt[i], 1 + i);
            args.add(DNNL_ARG_MULTIPLE_SRC + i, md_of(DNNL_ARG_MULTIPLE_SRC + i)).write(src_[i]);
        }
        if (c_.inplace)
            args.alias(DNNL_ARG_DST, DNNL_ARG_MULTIPLE_SRC);
        else {
            fill_range_t r;
            auto prev = fill_values(product(c_.dims), clamp_range(r, c_.ddt), c_.ddt, 99);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev);
        }
        bundle_->prepare(args);
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims);
        std::vector<double> exp(static_cast<size_t>(n), 0.0), mag(static_cast<size_t>(n), 0.0);
        for (int s = 0; s < n_; ++s) {
            // The library applies each scale as an f32.
            const double k = static_cast<float>(c_.scales[s]);
            for (int64_t i = 0; i < n; ++i) {
                exp[i] += k * src_[s][i];
                mag[i] += std::fabs(k * src_[s][i]);
            }
        }
        tolerance_t tol;
        tol.eps = n_ * dt_epsilon(dnnl_f32);
        tol.int_diff = 1;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    sum_cfg_t c_;
    int n_ = 0;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<std::vector<double>> src_;
};

class sum_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            sum_prb_t prb({sdt_, ddt_, stag_, dtag_, scales_, inplace_, attr_, apply_mb(dims, mb_)});
            run_problem(prb);
        });
    }

private:
    const std::vector<dnnl_data_type_t> &sdt_ = knob_list({"--sdt", "--idt"}, {{dnnl_f32, dnnl_f32}}, parse_dt_lists);
    const dnnl_data_type_t &ddt_ = knob({"--ddt", "--odt"}, {dnnl_f32}, str2dt);
    const std::vector<std::string> &stag_ = knob_list({"--stag", "--itag"}, {{"abx"}}, parse_tag_lists);
    const std::string &dtag_ = knob({"--dtag", "--otag"}, {"any"}, checked_tag);
    const std::vector<double> &scales_ = knob({"--scales"}, {{1.0}}, [](const std::string &s) {
        std::vector<double> k;
        for (const auto &x : split(s, ':'))
            k.push_back(parse_number(x, "scale"));
        return k;
    });
    const bool &inplace_ = knob({"--inplace"}, {false}, parse_bool);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("sum", sum_driver_t);

} // namespace benchdnn
