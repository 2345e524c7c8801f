// --concat: sources joined along --axis (--sdt, --ddt, --stag=abx:abx, --dtag); per-source
// scales come from --attr-scales=msrc0:common:2+msrc1:...
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

struct concat_cfg_t {
    dnnl_data_type_t sdt, ddt;
    std::vector<std::string> stag;
    std::string dtag;
    int axis;
    attr_desc_t attr;
    std::vector<dims_t> src_dims;
};

class concat_prb_t : public problem_t {
public:
    explicit concat_prb_t(const concat_cfg_t &c) : c_(c) {
        n_ = static_cast<int>(c_.src_dims.size());
        while (c_.stag.size() < c_.src_dims.size()) c_.stag.push_back(c_.stag.back());
        c_.stag.resize(c_.src_dims.size());
        dst_dims_ = c_.src_dims[0];
        if (axis_ok()) {
            dst_dims_[c_.axis] = 0;
            for (const auto &d : c_.src_dims) // a source of another rank is skipped later
                if (c_.axis < static_cast<int>(d.size())) dst_dims_[c_.axis] += d[c_.axis];
        }
    }

    std::string repro() const override {
        std::string stag, def_stag, shapes;
        for (int i = 0; i < n_; ++i) {
            stag += (i ? ":" : "") + c_.stag[i];
            def_stag += i ? ":abx" : "abx";
            shapes += (i ? ":" : "") + dims2str(c_.src_dims[i]);
        }
        repro_t r("concat");
        r.knob("sdt", dt2str(c_.sdt), "f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", stag, def_stag)
                .knob("dtag", c_.dtag, "any")
                .knob("axis", std::to_string(c_.axis), "1")
                .raw(c_.attr.repro());
        return r.str(shapes);
    }

    bool axis_ok() const { return c_.axis >= 0 && c_.axis < static_cast<int>(c_.src_dims[0].size()); }

    std::string skip_reason() const override {
        for (auto dt : {c_.sdt, c_.ddt})
            if (!dt_supported(dt))
                return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (!axis_ok()) return "axis " + std::to_string(c_.axis) + " out of range";
        for (const auto &d : c_.src_dims) {
            if (d.size() != dst_dims_.size()) return "sources differ in number of dimensions";
            for (size_t k = 0; k < d.size(); ++k)
                if (static_cast<int>(k) != c_.axis && d[k] != dst_dims_[k])
                    return "sources differ outside the axis";
        }
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        std::vector<md_h> src(n_);
        std::vector<const_dnnl_memory_desc_t> src_ptr(n_);
        for (int i = 0; i < n_; ++i) {
            dnnl_status_t st = make_md(src[i], c_.src_dims[i], c_.sdt, c_.stag[i]);
            if (st != dnnl_success) return st;
            src_ptr[i] = src[i].get();
        }
        // --dtag=undef: no destination descriptor, the library picks it (and its type).
        md_h dst;
        if (c_.dtag != "undef") {
            dnnl_status_t st = make_md(dst, dst_dims_, c_.ddt, c_.dtag);
            if (st != dnnl_success) return st;
        }
        bundle_.reset(new attr_bundle_t(c_.attr, dst_dims_, [&](int arg) {
            int i = arg - DNNL_ARG_MULTIPLE_SRC;
            return i >= 0 && i < n_ ? c_.src_dims[i] : dst_dims_;
        }));
        return BENCHDNN_CALL_OP(*this, dnnl_concat_primitive_desc_create, pd.out(), engine,
                dst.get(), n_, c_.axis, src_ptr.data(),
                bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        src_.resize(n_);
        for (int i = 0; i < n_; ++i) {
            fill_range_t r;
            src_[i] = fill_values(product(c_.src_dims[i]), clamp_range(r, c_.sdt), c_.sdt, 1 + i);
            args.add(DNNL_ARG_MULTIPLE_SRC + i, md_of(DNNL_ARG_MULTIPLE_SRC + i)).write(src_[i]);
        }
        fill_range_t r;
        auto prev = fill_values(product(dst_dims_), clamp_range(r, c_.ddt), c_.ddt, 99);
        args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev);
        bundle_->prepare(args);
    }

    bool check(const args_t &args, std::string &msg) override {
        std::vector<double> exp(static_cast<size_t>(product(dst_dims_)));
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        for (size_t i = 0; i < exp.size(); ++i) {
            logical_position(dst_dims_, static_cast<int64_t>(i), pos);
            int s = 0;
            while (pos[c_.axis] >= c_.src_dims[s][c_.axis]) pos[c_.axis] -= c_.src_dims[s++][c_.axis];
            exp[i] = src_[s][linear_index(c_.src_dims[s], pos)]
                    * bundle_->scale(DNNL_ARG_MULTIPLE_SRC + s, pos);
        }
        tolerance_t tol;
        tol.int_diff = c_.attr.scales.empty() ? 0 : 1;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg);
    }

private:
    concat_cfg_t c_;
    int n_ = 0;
    dims_t dst_dims_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<std::vector<double>> src_;
};

class concat_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const auto shapes = parse_dims_list(desc);
        for_each_problem([&] {
            std::vector<dims_t> dims;
            for (const auto &s : shapes)
                dims.push_back(axis_ == 0 ? s : apply_mb(s, mb_));
            concat_prb_t prb({sdt_, ddt_, stag_, dtag_, axis_, attr_, dims});
            run_problem(prb);
        });
    }

private:
    const dnnl_data_type_t &sdt_ = knob({"--sdt"}, {dnnl_f32}, str2dt);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::vector<std::string> &stag_ = knob_list({"--stag"}, {{"abx"}}, parse_tag_lists);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const int &axis_ = knob({"--axis"}, {1}, int_item("axis"));
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("concat", concat_driver_t);

} // namespace benchdnn
