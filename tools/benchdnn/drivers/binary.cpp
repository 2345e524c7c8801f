// --binary: dst = src0 (op) src1 with numpy-style broadcast of size-1 dimensions
// (--sdt=f32:f32, --ddt, --stag=abx:abx, --dtag, --alg, --inplace); select takes a third
// source, the condition.
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
#include "ref_math.hpp"

namespace benchdnn {
namespace {

struct binary_cfg_t {
    std::vector<dnnl_data_type_t> sdt; // one per source
    dnnl_data_type_t ddt;
    std::vector<std::string> stag; // one per source
    std::string dtag;
    dnnl_alg_kind_t alg;
    bool inplace;
    attr_desc_t attr;
    std::vector<dims_t> src_dims;
};

template <typename T>
std::string joined(const std::vector<T> &v, std::string (*f)(const T &)) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ":" : "") + f(v[i]);
    return s;
}
std::string dt_name(const dnnl_data_type_t &d) {
    return dt2str(d);
}
std::string same(const std::string &s) {
    return s;
}
std::string dims_name(const dims_t &d) {
    return dims2str(d);
}

class binary_prb_t : public problem_t {
public:
    explicit binary_prb_t(const binary_cfg_t &c) : c_(c) {
        nsrc_ = c.alg == dnnl_binary_select ? 3 : 2;
        // Missing entries repeat the first (dt, tag) or src0 (shape); select's condition
        // defaults to s8.
        while (c_.sdt.size() < static_cast<size_t>(nsrc_))
            c_.sdt.push_back(c_.sdt.size() == 2 ? dnnl_s8 : c_.sdt[0]);
        while (c_.stag.size() < static_cast<size_t>(nsrc_)) c_.stag.push_back(c_.stag[0]);
        while (c_.src_dims.size() < static_cast<size_t>(nsrc_))
            c_.src_dims.push_back(c_.src_dims[0]);
        dst_dims_ = c_.src_dims[0];
        for (int i = 1; i < nsrc_; ++i)
            for (size_t d = 0; d < dst_dims_.size() && d < c_.src_dims[i].size(); ++d)
                if (dst_dims_[d] == 1) dst_dims_[d] = c_.src_dims[i][d];
    }

    std::string repro() const override {
        // Print the knobs as given (two sources unless select).
        repro_t r("binary");
        std::vector<dnnl_data_type_t> sdt(c_.sdt.begin(), c_.sdt.begin() + nsrc_);
        std::vector<std::string> stag(c_.stag.begin(), c_.stag.begin() + nsrc_);
        r.knob("sdt", joined(sdt, dt_name), nsrc_ == 2 ? "f32:f32" : "f32:f32:s8")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("stag", joined(stag, same), nsrc_ == 2 ? "abx:abx" : "abx:abx:abx")
                .knob("dtag", c_.dtag, "any")
                .knob("alg", binary_alg2str(c_.alg), "add")
                .knob("inplace", c_.inplace ? "true" : "false", "false")
                .raw(c_.attr.repro());
        std::vector<dims_t> dims(c_.src_dims.begin(), c_.src_dims.begin() + nsrc_);
        return r.str(joined(dims, dims_name));
    }

    std::string skip_reason() const override {
        for (auto dt : c_.sdt)
            if (!dt_supported(dt))
                return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (!dt_supported(c_.ddt))
            return std::string("data type ") + dt2str(c_.ddt) + " not handled by the tester";
        for (int i = 0; i < nsrc_; ++i) {
            if (c_.src_dims[i].size() != dst_dims_.size())
                return "sources differ in number of dimensions";
            for (size_t d = 0; d < dst_dims_.size(); ++d)
                if (c_.src_dims[i][d] != dst_dims_[d] && c_.src_dims[i][d] != 1)
                    return "source " + std::to_string(i) + " does not broadcast to "
                            + dims2str(dst_dims_);
        }
        if (c_.inplace && (c_.src_dims[0] != dst_dims_ || c_.sdt[0] != c_.ddt))
            return "in-place needs src0 shaped and typed like dst";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h src[3], dst;
        for (int i = 0; i < nsrc_; ++i) {
            dnnl_status_t st = make_md(src[i], c_.src_dims[i], c_.sdt[i], c_.stag[i]);
            if (st != dnnl_success) return st;
        }
        std::string dtag = c_.inplace ? c_.stag[0] : c_.dtag;
        dnnl_status_t st = make_md(dst, dst_dims_, c_.ddt, dtag);
        if (st != dnnl_success) return st;
        bundle_.reset(new attr_bundle_t(c_.attr, dst_dims_, [&](int arg) {
            return arg == DNNL_ARG_SRC_1 ? c_.src_dims[1]
                    : arg == DNNL_ARG_DST ? dst_dims_
                                          : c_.src_dims[0];
        }));
        if (nsrc_ == 3)
            return BENCHDNN_CALL_OP(*this, dnnl_binary_primitive_desc_create_v2, pd.out(), engine,
                    c_.alg, src[0].get(), src[1].get(), src[2].get(), dst.get(), bundle_->get());
        return BENCHDNN_CALL_OP(*this, dnnl_binary_primitive_desc_create, pd.out(), engine,
                c_.alg, src[0].get(), src[1].get(), dst.get(), bundle_->get());
    }

    fill_range_t range(int i) const {
        fill_range_t r;
        r.lo = -8;
        r.hi = 8;
        if (i == 2) { // select's condition
            r.lo = -1;
            r.hi = 1;
            r.integers = true;
        } else if (binary_is_compare(c_.alg) || c_.alg == dnnl_binary_max
                || c_.alg == dnnl_binary_min) {
            r.lo = -3;
            r.hi = 3;
            r.integers = true;
        } else if (c_.alg == dnnl_binary_div && i == 1) {
            r.lo = 0.5;
            r.hi = 4;
            r.random_sign = true;
        }
        return clamp_range(r, c_.sdt[i]);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        const int args_of[3] = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_SRC_2};
        for (int i = 0; i < nsrc_; ++i) {
            src_[i] = fill_values(product(c_.src_dims[i]), range(i), c_.sdt[i], 1 + i);
            args.add(args_of[i], md_of(args_of[i])).write(src_[i]);
        }
        if (c_.inplace) {
            args.alias(DNNL_ARG_DST, DNNL_ARG_SRC_0);
            prev_ = src_[0];
        } else {
            fill_range_t r;
            prev_ = fill_values(product(dst_dims_), clamp_range(r, c_.ddt), c_.ddt, 7);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
        }
        bundle_->prepare(args);
    }

    static double at(const dims_t &dims, const std::vector<double> &v, const int64_t *pos) {
        return v[static_cast<size_t>(masked_index(dims, pos))];
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(dst_dims_);
        std::vector<double> exp(static_cast<size_t>(n)), mag(static_cast<size_t>(n));
        int64_t pos[DNNL_MAX_NDIMS] = {0}, p0[DNNL_MAX_NDIMS] = {0}, p1[DNNL_MAX_NDIMS] = {0};
        for (int64_t i = 0; i < n; ++i) {
            logical_position(dst_dims_, i, pos);
            for (size_t d = 0; d < dst_dims_.size(); ++d) {
                p0[d] = c_.src_dims[0][d] == 1 ? 0 : pos[d];
                p1[d] = c_.src_dims[1][d] == 1 ? 0 : pos[d];
            }
            double a = at(c_.src_dims[0], src_[0], pos) * bundle_->scale(DNNL_ARG_SRC_0, p0);
            double b = at(c_.src_dims[1], src_[1], pos) * bundle_->scale(DNNL_ARG_SRC_1, p1);
            double cond = nsrc_ == 3 ? at(c_.src_dims[2], src_[2], pos) : 0;
            double v = binary_op(c_.alg, a, b, cond);
            exp[i] = bundle_->apply_post_ops(v, pos, prev_[i]);
            mag[i] = std::fabs(a) + std::fabs(b);
        }
        tolerance_t tol;
        bool post_transcendental = false;
        for (const auto &po : c_.attr.post_ops)
            post_transcendental = post_transcendental
                    || (po.kind == post_op_t::kind_t::eltwise && eltwise_is_transcendental(po.alg));
        const bool rounded = c_.alg == dnnl_binary_div || !c_.attr.is_default();
        tol.eps = post_transcendental ? 1e-5 : rounded ? 1e-6 : 0;
        tol.int_diff = rounded ? 1 : 0;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    binary_cfg_t c_;
    int nsrc_ = 2;
    dims_t dst_dims_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_[3], prev_;
};

class binary_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        auto shapes = parse_dims_list(desc);
        if (shapes.size() < 2 || shapes.size() > 3)
            throw std::invalid_argument("binary takes SRC0:SRC1[:SRC2] shapes");
        // A source of lower rank is padded with ones at the end: 8x3x5x5:8x3 is 8x3x1x1.
        size_t nd = 0;
        for (const auto &s : shapes)
            nd = std::max(nd, s.size());
        for (auto &s : shapes)
            s.resize(nd, 1);
        for_each_problem([&] {
            // --mb resizes every source that is not broadcast along the batch.
            std::vector<dims_t> dims;
            for (const auto &s : shapes)
                dims.push_back(s[0] == shapes[0][0] ? apply_mb(s, mb_) : s);
            binary_prb_t prb({sdt_, ddt_, stag_, dtag_, alg_, inplace_, attr_, dims});
            run_problem(prb);
        });
    }

private:
    const std::vector<dnnl_data_type_t> &sdt_ = knob_list({"--sdt"}, {{dnnl_f32, dnnl_f32}}, parse_dt_lists);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::vector<std::string> &stag_ = knob_list({"--stag"}, {{"abx", "abx"}}, parse_tag_lists);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_binary_add}, [](const std::string &s) {
        dnnl_alg_kind_t a;
        if (!str2binary_alg(s, a)) throw std::invalid_argument("unknown binary algorithm '" + s + "'");
        return a;
    });
    const bool &inplace_ = knob({"--inplace"}, {false}, parse_bool);
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("binary", binary_driver_t);

} // namespace benchdnn
