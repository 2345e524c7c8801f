// --shuffle: channel shuffle forward and backward (--dir, --dt, --tag, --axis, --group).
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct shuffle_cfg_t {
    dir_t dir;
    dnnl_data_type_t dt;
    std::string tag;
    int axis;
    int64_t group;
    dims_t dims;
};

class shuffle_prb_t : public problem_t {
public:
    explicit shuffle_prb_t(const shuffle_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("shuffle");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt2str(c_.dt), "f32")
                .knob("tag", c_.tag, "abx")
                .knob("axis", std::to_string(c_.axis), "1")
                .knob("group", std::to_string(c_.group), "1");
        return r.str(dims2str(c_.dims));
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.dt)) return std::string("data type ") + dt2str(c_.dt) + " not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "shuffle has FWD_D, FWD_I and BWD_D only";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h md;
        dnnl_status_t st = make_md(md, c_.dims, c_.dt, c_.tag);
        if (st != dnnl_success) return st;
        if (c_.dir != dir_t::bwd_d) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_shuffle_forward_primitive_desc_create, pd.out(),
                    engine, prop, md.get(), md.get(), c_.axis, c_.group, nullptr);
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_shuffle_forward_primitive_desc_create, hint_.out(),
                engine, dnnl_forward_training, md.get(), md.get(), c_.axis, c_.group, nullptr);
        if (st != dnnl_success) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_shuffle_backward_primitive_desc_create, pd.out(),
                engine, md.get(), md.get(), c_.axis, c_.group, hint_.get(), nullptr);
    }

    int in_arg() const { return c_.dir == dir_t::bwd_d ? DNNL_ARG_DIFF_DST : DNNL_ARG_SRC; }
    int out_arg() const { return c_.dir == dir_t::bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_DST; }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        src_ = fill_values(product(c_.dims), clamp_range(r, c_.dt), c_.dt, 1);
        args.add(in_arg(), md_of(in_arg())).write(src_);
        args.add(out_arg(), md_of(out_arg())).write(std::vector<double>(src_.size(), 0));
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims), C = c_.dims[c_.axis], G = c_.group, k = C / G;
        int64_t inner = 1;
        for (size_t d = c_.axis + 1; d < c_.dims.size(); ++d)
            inner *= c_.dims[d];
        std::vector<double> exp(static_cast<size_t>(n));
        const bool fwd = c_.dir != dir_t::bwd_d;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t c = (i / inner) % C;
            // Forward reads [C/G][G] as [G][C/G]; backward undoes it.
            const int64_t from = fwd ? (c % k) * G + c / k : (c % G) * k + c / G;
            exp[i] = src_[i + (from - c) * inner];
        }
        tolerance_t tol;
        return check_output(args.at(out_arg()), exp, tol, msg);
    }

private:
    shuffle_cfg_t c_;
    pd_h hint_;
    std::vector<double> src_;
};

class shuffle_driver_t : public driver_t {
public:
    shuffle_driver_t() { reset(); }

    void reset() override {
        dir_ = {dir_t::fwd_d};
        dt_ = {dnnl_f32};
        tag_ = {"abx"};
        axis_ = {1};
        group_ = {1};
        common_.reset();
    }

    bool parse(const std::string &key, const std::string &v) override {
        if (key == "--dir") dir_ = parse_list<dir_t>(v, str2dir);
        else if (key == "--dt") dt_ = parse_list<dnnl_data_type_t>(v, str2dt);
        else if (key == "--tag") tag_ = parse_tag_list(v);
        else if (key == "--axis")
            axis_ = parse_list<int>(v, [](const std::string &s) { return int(parse_integer(s, "axis")); });
        else if (key == "--group")
            group_ = parse_list<int64_t>(v, [](const std::string &s) { return parse_integer(s, "group", 0, INT64_MAX / 2); });
        else return common_.parse(key, v);
        return true;
    }

    void run(const std::string &desc) override {
        dims_t dims = parse_dims(desc);
        for (auto dir : dir_)
            for (auto dt : dt_)
                for (const auto &tag : tag_)
                    for (int axis : axis_)
                        for (int64_t group : group_)
                            for (auto mb : common_.mb) {
                                shuffle_cfg_t c {dir, dt, tag, axis, group, apply_mb(dims, mb)};
                                if (axis < 0 || axis >= int(c.dims.size()))
                                    throw std::invalid_argument("axis outside the dims");
                                shuffle_prb_t prb(c);
                                run_problem(prb);
                            }
    }

private:
    std::vector<dir_t> dir_;
    std::vector<dnnl_data_type_t> dt_;
    std::vector<std::string> tag_;
    std::vector<int> axis_;
    std::vector<int64_t> group_;
    common_knobs_t common_;
};

} // namespace

BENCHDNN_REGISTER_DRIVER("shuffle", shuffle_driver_t);

} // namespace benchdnn
