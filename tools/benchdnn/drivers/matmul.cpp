// --matmul: dst = src x weights (+ bias) with attributes; "MxK:KxN" or batched
// "BxMxK:BxKxN" (batch dims of one broadcast), --dt=f32|bf16|u8:s8:s32|bf16:s4:bf16 (SRC:WEI:DST;
// integer weights with floating-point src are weights decompression, grouped scales and zero points),
// --stag/--wtag/--dtag, --bia-dt=undef|f32 (bias of shape 1x..xN), --encoding=SRC:WEI:DST
// (sparse operands, drivers/matmul_sparse.hpp).
#include <algorithm>
#include <array>
#include <cmath>

#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "matmul_sparse.hpp"
#include "harness.hpp"
#include "names.hpp"
#include "parallel.hpp"

namespace benchdnn {
namespace {

struct matmul_cfg_t {
    dnnl_data_type_t sdt, wdt, ddt, bdt;
    int bia_mask; // dst dimensions the bias runs along; -1: the last one
    std::string stag, wtag, dtag;
    attr_desc_t attr;
    dims_t sd, wd;
};

class matmul_prb_t : public problem_t {
public:
    explicit matmul_prb_t(const matmul_cfg_t &c) : c_(c) {
        const int nd = static_cast<int>(c_.sd.size());
        // oneDNN's matmul policies follow the last dims of each argument: per_oc is the last
        // one (N of weights and dst, K of src), per_ocic the last two.
        for (auto *q : {&c_.attr.scales, &c_.attr.zero_points})
            for (auto &e : *q) {
                if (e.policy == "per_oc") e.policy = std::to_string(1 << (nd - 1));
                else if (e.policy == "per_ocic")
                    e.policy = std::to_string((1 << (nd - 1)) | (1 << (nd - 2)));
            }
        dd_ = c_.sd;
        for (int i = 0; i < nd - 2; ++i)
            dd_[i] = std::max(c_.sd[i], c_.wd[i]);
        dd_[nd - 1] = c_.wd[nd - 1];
        bd_ = masked_dims(dd_, c_.bia_mask < 0 ? 1 << (nd - 1) : c_.bia_mask);
    }

    std::string repro() const override {
        std::string dt = dt2str(c_.sdt);
        if (c_.wdt != c_.sdt || c_.ddt != c_.sdt)
            dt += std::string(":") + dt2str(c_.wdt) + ":" + dt2str(c_.ddt);
        repro_t r("matmul");
        r.knob("dt", dt, "f32")
                .knob("stag", c_.stag, "any")
                .knob("wtag", c_.wtag, "any")
                .knob("dtag", c_.dtag, "any")
                .knob("bia-dt", dt2str(c_.bdt), "undef")
                .knob("bia_mask", std::to_string(c_.bia_mask), "-1")
                .raw(c_.attr.repro());
        return r.str(dims2str(c_.sd) + ":" + dims2str(c_.wd));
    }

    std::string skip_reason() const override {
        for (auto t : {c_.sdt, c_.wdt, c_.ddt})
            if (!dt_supported(t)) return "data type not handled by the tester";
        return {};
    }

    double flops() const override {
        const int nd = static_cast<int>(dd_.size());
        return 2.0 * product(dd_) * c_.sd[nd - 1];
    }

    bool with_bias() const { return c_.bdt != dnnl_data_type_undef; }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, w, b, t;
        dnnl_status_t st = make_md(s, c_.sd, c_.sdt, c_.stag);
        if (st == dnnl_success) st = make_md(w, c_.wd, c_.wdt, c_.wtag);
        if (st == dnnl_success) st = make_md(t, dd_, c_.ddt, c_.dtag);
        if (st == dnnl_success && with_bias()) st = make_md(b, bd_, c_.bdt, "abx");
        if (st != dnnl_success) return st;
        const dims_t sd = c_.sd, wd = c_.wd, dd = dd_;
        bundle_.reset(new attr_bundle_t(c_.attr, dd, [=](int arg) {
            return arg == DNNL_ARG_SRC ? sd : arg == DNNL_ARG_WEIGHTS ? wd : dd;
        }));
        return BENCHDNN_CALL_OP(*this, dnnl_matmul_primitive_desc_create, pd.out(), engine,
                s.get(), w.get(), b.get(), t.get(), bundle_->get());
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
        // 4-bit weights take every value of their type (both nibble signs, the largest codes).
        fill_range_t r4 = ri;
        r4.lo = -8;
        r4.hi = 15;
        src_ = fill_values(product(c_.sd), range(c_.sdt), c_.sdt, 1);
        wei_ = fill_values(product(c_.wd),
                dt_is_4bit(c_.wdt) && dt_is_int(c_.wdt) ? clamp_range(r4, c_.wdt) : range(c_.wdt),
                c_.wdt, 2);
        dst_ = fill_values(product(dd_), range(c_.ddt), c_.ddt, 3);
        args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
        args.add(DNNL_ARG_WEIGHTS, md_of(DNNL_ARG_WEIGHTS)).write(wei_);
        if (with_bias()) {
            bia_ = fill_values(product(bd_), range(c_.bdt), c_.bdt, 4);
            args.add(DNNL_ARG_BIAS, md_of(DNNL_ARG_BIAS)).write(bia_);
        }
        args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(dst_);
        bundle_->prepare(args);
    }

    bool check(const args_t &args, std::string &msg) override {
        const int nd = static_cast<int>(dd_.size());
        const int64_t K = c_.sd[nd - 1];
        std::vector<double> exp(dst_.size()), mag(dst_.size());
        // Each operand element with its own scale and zero point applied (grouped ones vary
        // along K), once: the dot products below then read plain values.
        auto dequantize = [&](const std::vector<double> &v, const dims_t &dims, int arg) {
            std::vector<double> q(v.size());
            parallel_chunks(static_cast<int64_t>(v.size()), [&](int64_t b, int64_t e) {
                std::vector<int64_t> p(nd);
                for (int64_t i = b; i < e; ++i) {
                    logical_position(dims, i, p.data());
                    q[i] = (v[i] - bundle_->zero_point(arg, p.data()))
                            * bundle_->scale(arg, p.data());
                }
            });
            return q;
        };
        const std::vector<double> sq = dequantize(src_, c_.sd, DNNL_ARG_SRC);
        const std::vector<double> wq = dequantize(wei_, c_.wd, DNNL_ARG_WEIGHTS);
        const int64_t N = c_.wd[nd - 1];
        auto ref = [&](int64_t begin, int64_t end) {
            std::vector<int64_t> pos(nd), sp(nd), wp(nd), zero(nd, 0);
            for (int64_t x = begin; x < end; ++x) {
                logical_position(dd_, x, pos.data());
                for (int i = 0; i < nd - 2; ++i) {
                    sp[i] = c_.sd[i] == 1 ? 0 : pos[i];
                    wp[i] = c_.wd[i] == 1 ? 0 : pos[i];
                }
                sp[nd - 2] = pos[nd - 2];
                sp[nd - 1] = 0;
                wp[nd - 2] = 0;
                wp[nd - 1] = pos[nd - 1];
                // Row k of src runs along K contiguously; weights step by N.
                const double *a = &sq[linear_index(c_.sd, sp.data())];
                const double *b = &wq[linear_index(c_.wd, wp.data())];
                double acc = 0, m = 0;
                for (int64_t k = 0; k < K; ++k) {
                    const double t = a[k] * b[k * N];
                    acc += t;
                    m += std::fabs(t);
                }
                double v = acc + (with_bias() ? bia_[masked_index(bd_, pos.data())] : 0.0);
                mag[x] = m + std::fabs(v);
                v = bundle_->apply_post_ops(v, pos.data(), dst_[x]);
                exp[x] = v / bundle_->scale(DNNL_ARG_DST, zero.data())
                        + bundle_->zero_point(DNNL_ARG_DST, pos.data());
            }
        };
        parallel_chunks(static_cast<int64_t>(exp.size()), ref,
                std::max<int64_t>(1, (int64_t(1) << 18) / std::max<int64_t>(K, 1)));
        tolerance_t tol;
        tol.eps = 2e-6;
        tol.int_diff = 1;
        // A reduced fpmath mode lets the library compute f32 products in that precision.
        if (c_.attr.has_fpmath) {
            switch (c_.attr.fpmath) {
                case dnnl_fpmath_mode_bf16:
                case dnnl_fpmath_mode_any: tol.eps = dt_epsilon(dnnl_bf16); break;
                case dnnl_fpmath_mode_f16: tol.eps = dt_epsilon(dnnl_f16); break;
                case dnnl_fpmath_mode_tf32: tol.eps = 1.0 / (1 << 10); break;
                default: break;
            }
        }
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    matmul_cfg_t c_;
    dims_t dd_, bd_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, wei_, dst_, bia_;
};

class matmul_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const auto shapes = parse_dims_list(text);
        if (shapes.size() < 2) throw std::invalid_argument("matmul takes MxK:KxN");
        const dims_t &sd = shapes[0], &wd = shapes[1];
        const size_t nd = sd.size();
        if (nd < 2 || wd.size() != nd || sd[nd - 1] != wd[nd - 2])
            throw std::invalid_argument("matmul shapes do not agree: " + text);
        for_each_problem([&] {
            if (!enc_.dense()) {
                std::string why;
                if (!attr_.is_default() || bdt_ != dnnl_data_type_undef)
                    why = "attributes and bias with a sparse encoding are not handled by the "
                          "tester";
                auto prb = make_sparse_matmul({dt_[0], dt_[1], dt_[2], stag_, wtag_, dtag_, sd,
                        wd, enc_, why});
                return run_problem(*prb);
            }
            matmul_prb_t prb({dt_[0], dt_[1], dt_[2], bdt_, bia_mask_, stag_, wtag_, dtag_, attr_,
                    sd, wd});
            run_problem(prb);
        });
    }

private:
    const std::array<dnnl_data_type_t, 3> &dt_
            = knob({"--dt", "--cfg"}, {{dnnl_f32, dnnl_f32, dnnl_f32}}, parse_dt_triple);
    const dnnl_data_type_t &bdt_ = knob({"--bia-dt", "--bia_dt"}, {dnnl_data_type_undef},
            [](const std::string &s) { return s == "undef" ? dnnl_data_type_undef : str2dt(s); });
    const int &bia_mask_ = knob({"--bia_mask", "--bia-mask"}, {-1},
            [](const std::string &s) { return static_cast<int>(parse_integer(s, "bias mask", 0, 0xffff)); });
    const std::string &stag_ = knob({"--stag"}, {"any"}, checked_tag);
    const std::string &wtag_ = knob({"--wtag"}, {"any"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"any"}, checked_tag);
    const encoding_t &enc_ = knob({"--encoding"}, {encoding_t {}}, parse_encoding);
    const attr_desc_t &attr_ = attr_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("matmul", matmul_driver_t);

} // namespace benchdnn
