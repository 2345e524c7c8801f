// --shuffle: channel shuffle forward and backward (--dir, --dt, --tag, --axis, --group).
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
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

class shuffle_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const dims_t dims = parse_dims(desc);
        for_each_problem([&] {
            shuffle_cfg_t c {dir_, dt_, tag_, axis_, group_, apply_mb(dims, mb_)};
            if (axis_ < 0 || axis_ >= int(c.dims.size()))
                throw std::invalid_argument("axis outside the dims");
            shuffle_prb_t prb(c);
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &dt_ = knob({"--dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const int &axis_ = knob({"--axis"}, {1}, int_item("axis"));
    const int64_t &group_ = knob({"--group"}, {int64_t(1)}, integer_item("group", 0, INT64_MAX / 2));
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("shuffle", shuffle_driver_t);

} // namespace benchdnn
