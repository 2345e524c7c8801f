// --prelu: PReLU forward and backward (--dir, --sdt=SRC:WEI, --stag=SRC:WEI), problems
// "SRC_DIMS:WEI_DIMS" with weights dims each equal to src's or 1.
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

struct prelu_cfg_t {
    dir_t dir;
    std::vector<dnnl_data_type_t> sdt; // src, weights
    std::vector<std::string> stag;
    dims_t sdims, wdims;
};

class prelu_prb_t : public problem_t {
public:
    explicit prelu_prb_t(const prelu_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("prelu");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("sdt", dt2str(c_.sdt[0]) + std::string(":") + dt2str(c_.sdt[1]), "f32:f32")
                .knob("stag", c_.stag[0] + ":" + c_.stag[1], "abx:any");
        return r.str(dims2str(c_.sdims) + ":" + dims2str(c_.wdims));
    }

    std::string skip_reason() const override {
        for (auto dt : c_.sdt)
            if (!dt_supported(dt)) return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_dw)
            return "prelu has FWD_D, FWD_I and BWD_DW only";
        if (c_.sdims.size() != c_.wdims.size()) return "weights rank differs from src";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, w;
        dnnl_status_t st = make_md(s, c_.sdims, c_.sdt[0], c_.stag[0]);
        if (st == dnnl_success) st = make_md(w, c_.wdims, c_.sdt[1], c_.stag[1]);
        if (st != dnnl_success) return st;
        const bool fwd = c_.dir != dir_t::bwd_dw;
        auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
        st = BENCHDNN_CALL_OP(*this, dnnl_prelu_forward_primitive_desc_create,
                fwd ? pd.out() : hint_.out(), engine, prop, s.get(), w.get(), s.get(), nullptr);
        if (st != dnnl_success || fwd) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_prelu_backward_primitive_desc_create, pd.out(),
                engine, s.get(), w.get(), s.get(), w.get(), s.get(), hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        r.lo = -4;
        r.hi = 4;
        src_ = fill_values(product(c_.sdims), clamp_range(r, c_.sdt[0]), c_.sdt[0], 1);
        fill_range_t wr;
        wr.lo = -2;
        wr.hi = 2;
        wei_ = fill_values(product(c_.wdims), clamp_range(wr, c_.sdt[1]), c_.sdt[1], 2);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
        if (c_.dir != dir_t::bwd_dw) {
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(std::vector<double>(src_.size(), 0));
            return;
        }
        dd_ = fill_values(product(c_.sdims), clamp_range(wr, c_.sdt[0]), c_.sdt[0], 3);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dd_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(std::vector<double>(src_.size(), 0));
        args.add(DNNL_ARG_DIFF_WEIGHTS, md_of(DNNL_ARG_DIFF_WEIGHTS))
                .write(std::vector<double>(wei_.size(), 0));
    }

    // Row-major index of the weights element that src element i reads.
    int64_t wei_index(const int64_t *pos) const {
        int64_t j = 0;
        for (size_t d = 0; d < c_.sdims.size(); ++d)
            j = j * c_.wdims[d] + (c_.wdims[d] == 1 ? 0 : pos[d]);
        return j;
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t n = product(c_.sdims);
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        std::vector<double> exp(static_cast<size_t>(n));
        tolerance_t tol;
        if (c_.dir != dir_t::bwd_dw) {
            for (int64_t i = 0; i < n; ++i) {
                logical_position(c_.sdims, i, pos);
                const double x = src_[i];
                exp[i] = x > 0 ? x : x * wei_[wei_index(pos)];
            }
            tol.int_diff = 1;
            return check_output(args.at(DNNL_ARG_DST), exp, tol, msg);
        }
        std::vector<double> dw(wei_.size(), 0.0), mag(wei_.size(), 0.0);
        for (int64_t i = 0; i < n; ++i) {
            logical_position(c_.sdims, i, pos);
            const double x = src_[i], g = dd_[i];
            const int64_t j = wei_index(pos);
            exp[i] = x > 0 ? g : g * wei_[j];
            if (!(x > 0)) {
                dw[j] += g * x;
                mag[j] += std::fabs(g * x);
            }
        }
        if (!check_output(args.at(DNNL_ARG_DIFF_SRC), exp, tol, msg)) return false;
        // Reductions in another order: relative to the magnitude of the summed terms.
        tolerance_t rtol;
        rtol.eps = 1e-6;
        return check_output(args.at(DNNL_ARG_DIFF_WEIGHTS), dw, rtol, msg, &mag);
    }

private:
    prelu_cfg_t c_;
    pd_h hint_;
    std::vector<double> src_, wei_, dd_;
};

class prelu_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        const std::vector<dims_t> d = parse_dims_list(desc);
        if (d.size() != 2) throw std::invalid_argument("prelu problem is SRC_DIMS:WEI_DIMS");
        for_each_problem([&] {
            prelu_prb_t prb({dir_, sdt_, stag_, apply_mb(d[0], mb_), d[1]});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const std::vector<dnnl_data_type_t> &sdt_
            = knob({"--sdt"}, {{dnnl_f32, dnnl_f32}}, [](const std::string &s) {
                  std::vector<dnnl_data_type_t> r;
                  for (const auto &p : split(s, ':'))
                      r.push_back(str2dt(p));
                  if (r.size() == 1) r.push_back(r[0]);
                  if (r.size() != 2) throw std::invalid_argument("--sdt takes SRC:WEI");
                  return r;
              });
    const std::vector<std::string> &stag_
            = knob({"--stag"}, {{"abx", "any"}}, [](const std::string &s) {
                  std::vector<std::string> r = split(s, ':');
                  if (r.size() == 1) r.push_back("any");
                  for (const auto &t : r)
                      checked_tag(t);
                  if (r.size() != 2) throw std::invalid_argument("--stag takes SRC:WEI");
                  return r;
              });
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("prelu", prelu_driver_t);

} // namespace benchdnn
