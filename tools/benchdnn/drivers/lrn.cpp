// --lrn: local response normalization forward and backward (--dir, --dt, --tag,
// --alg=ACROSS|WITHIN), problems "mb2ic16ih5ls5alpha1e-4beta0.75k1" (defaults: ls 5,
// alpha 1/8192, beta 0.75, k 1).
#include <cmath>

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

struct lrn_cfg_t {
    dir_t dir;
    dnnl_data_type_t dt;
    std::string tag;
    bool across;
    dims_t dims;
    int64_t ls;
    double alpha, beta, k;
    std::string desc;
};

class lrn_prb_t : public problem_t {
public:
    explicit lrn_prb_t(const lrn_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("lrn");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", dt2str(c_.dt), "f32")
                .knob("tag", c_.tag, "abx")
                .knob("alg", c_.across ? "ACROSS" : "WITHIN", "ACROSS");
        return r.str(c_.desc);
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.dt)) return std::string("data type ") + dt2str(c_.dt) + " not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "lrn has FWD_D, FWD_I and BWD_D only";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h md;
        dnnl_status_t st = make_md(md, c_.dims, c_.dt, c_.tag);
        if (st != dnnl_success) return st;
        const auto alg = c_.across ? dnnl_lrn_across_channels : dnnl_lrn_within_channel;
        const float a = float(c_.alpha), b = float(c_.beta), k = float(c_.k);
        const bool fwd = c_.dir != dir_t::bwd_d;
        auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
        st = BENCHDNN_CALL_OP(*this, dnnl_lrn_forward_primitive_desc_create,
                fwd ? pd.out() : hint_.out(), engine, prop, alg, md.get(), md.get(), c_.ls, a, b,
                k, nullptr);
        if (st != dnnl_success || fwd) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_lrn_backward_primitive_desc_create, pd.out(), engine,
                alg, md.get(), md.get(), md.get(), c_.ls, a, b, k, hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        src_ = fill_values(product(c_.dims), clamp_range(r, c_.dt), c_.dt, 1);
        const std::vector<double> zeros(src_.size(), 0);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        // A workspace, where the library asks for one: backward reads what forward wrote.
        const_dnnl_memory_desc_t ws = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
        const bool has_ws = ws && dnnl_memory_desc_get_size(ws) > 0;
        if (has_ws) args.add(DNNL_ARG_WORKSPACE, ws);
        if (has_ws && c_.dir == dir_t::bwd_d) {
            test_mem_t fdst(dnnl_primitive_desc_query_md(hint_.get(), dnnl_query_dst_md, 0),
                    test_engine());
            dnnl_primitive_t fwd = nullptr;
            BENCHDNN_CHECK(dnnl_primitive_create(&fwd, hint_.get()));
            const dnnl_exec_arg_t fa[] = {{DNNL_ARG_SRC, args.at(DNNL_ARG_SRC).get()},
                    {DNNL_ARG_DST, fdst.get()}, {DNNL_ARG_WORKSPACE, args.at(DNNL_ARG_WORKSPACE).get()}};
            const dnnl_status_t st = dnnl_primitive_execute(fwd, test_stream(), 3, fa);
            dnnl_stream_wait(test_stream());
            dnnl_primitive_destroy(fwd);
            BENCHDNN_CHECK(st);
        }
        if (c_.dir != dir_t::bwd_d) {
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(zeros);
            return;
        }
        dd_ = fill_values(product(c_.dims), clamp_range(r, c_.dt), c_.dt, 2);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dd_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(zeros);
    }

    // Calls f(j) for the row-major index j of every element in the window of element i.
    template <typename F>
    void window(int64_t i, F f) const {
        const int nd = static_cast<int>(c_.dims.size());
        int64_t pos[DNNL_MAX_NDIMS], lo[DNNL_MAX_NDIMS], hi[DNNL_MAX_NDIMS], q[DNNL_MAX_NDIMS];
        logical_position(c_.dims, i, pos);
        const int64_t h = (c_.ls - 1) / 2;
        for (int d = 0; d < nd; ++d) {
            const bool w = c_.across ? d == 1 : d >= 2;
            lo[d] = w ? std::max<int64_t>(0, pos[d] - h) : pos[d];
            hi[d] = w ? std::min<int64_t>(c_.dims[d] - 1, pos[d] + h) : pos[d];
            q[d] = lo[d];
        }
        while (true) {
            int64_t j = 0;
            for (int d = 0; d < nd; ++d)
                j = j * c_.dims[d] + q[d];
            f(j);
            int d = nd - 1;
            for (; d >= 0; --d) {
                if (++q[d] <= hi[d]) break;
                q[d] = lo[d];
            }
            if (d < 0) return;
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.dims);
        const double summands = c_.across ? double(c_.ls)
                                          : std::pow(double(c_.ls), double(c_.dims.size() - 2));
        const double a = c_.alpha / summands;
        std::vector<double> S(static_cast<size_t>(n)), exp(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            double sum = 0;
            window(i, [&](int64_t j) { sum += src_[j] * src_[j]; });
            S[i] = c_.k + a * sum;
        }
        tolerance_t tol;
        tol.eps = 1e-5;
        if (c_.dir != dir_t::bwd_d) {
            for (int64_t i = 0; i < n; ++i)
                exp[i] = src_[i] * std::pow(S[i], -c_.beta);
            return check_output(args.at(DNNL_ARG_DST), exp, tol, msg);
        }
        std::vector<double> mag(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            double t = 0;
            window(i, [&](int64_t j) { t += dd_[j] * src_[j] * std::pow(S[j], -c_.beta - 1); });
            const double first = dd_[i] * std::pow(S[i], -c_.beta);
            const double second = 2 * a * c_.beta * src_[i] * t;
            exp[i] = first - second;
            mag[i] = std::fabs(first) + std::fabs(second);
        }
        return check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg, &mag);
    }

private:
    lrn_cfg_t c_;
    pd_h hint_;
    std::vector<double> src_, dd_;
};

class lrn_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const spatial_desc_t d = spatial_desc_t::parse(desc);
        for_each_problem([&] {
            lrn_prb_t prb({dir_, dt_, tag_, across_, apply_mb(d.dims(), mb_),
                    int64_t(d.get("ls", 5)), d.get("alpha", 1.0 / 8192), d.get("beta", 0.75),
                    d.get("k", 1), desc});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &dt_ = knob({"--dt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const bool &across_ = knob({"--alg"}, {true}, [](const std::string &s) {
        if (s == "ACROSS" || s == "across" || s == "lrn_across_channels") return true;
        if (s == "WITHIN" || s == "within" || s == "lrn_within_channel") return false;
        throw std::invalid_argument("unknown lrn algorithm '" + s + "'");
    });
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("lrn", lrn_driver_t);

} // namespace benchdnn
