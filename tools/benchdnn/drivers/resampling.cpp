// --resampling: nearest / linear resampling forward and backward (--dir, --sdt, --ddt,
// --tag, --alg), problems as mbXicX[idX][ihX]iwX[odX][ohX]owX (missing inner spatial sizes
// repeat the outer ones, as in benchdnn).
#include <cctype>
#include <cmath>

#include "attr.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "names.hpp"
#include "resampling_taps.hpp"

namespace benchdnn {
namespace {

struct rs_desc_t {
    int64_t mb = 2, ic = 1;
    int nsp = 0;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}; // d, h, w
    std::string text;
    dims_t src_dims() const { return dims(in); }
    dims_t dst_dims() const { return dims(out); }

private:
    dims_t dims(const int64_t *sp) const {
        dims_t d = {mb, ic};
        for (int k = 3 - nsp; k < 3; ++k) d.push_back(sp[k]);
        return d;
    }
};

rs_desc_t parse_rs_desc(const std::string &s) {
    rs_desc_t r;
    r.text = s;
    int64_t v[8];
    bool has[8] = {};
    const char *keys[8] = {"mb", "ic", "id", "ih", "iw", "od", "oh", "ow"};
    size_t i = 0;
    while (i < s.size()) {
        if (s[i] == '_') { ++i; continue; }
        if (s[i] == 'n' && (i + 1 >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            // name: runs to the end or the next '_'
            while (i < s.size() && s[i] != '_') ++i;
            continue;
        }
        int k = -1;
        for (int j = 0; j < 8; ++j)
            if (s.compare(i, 2, keys[j]) == 0) k = j;
        if (k < 0) throw std::invalid_argument("bad resampling descriptor '" + s + "'");
        i += 2;
        size_t e = i;
        while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
        if (e == i) throw std::invalid_argument("bad resampling descriptor '" + s + "'");
        v[k] = std::stoll(s.substr(i, e - i));
        has[k] = true;
        i = e;
    }
    if (has[0]) r.mb = v[0];
    if (!has[1]) throw std::invalid_argument("resampling descriptor needs ic: '" + s + "'");
    r.ic = v[1];
    // Rank from the outermost input spatial size given.
    r.nsp = has[2] ? 3 : has[3] ? 2 : has[4] ? 1 : 0;
    if (r.nsp == 0) throw std::invalid_argument("resampling descriptor needs id, ih or iw");
    for (int io = 0; io < 2; ++io) {
        int64_t *sp = io ? r.out : r.in;
        const int b = io ? 5 : 2;
        int64_t last = -1;
        for (int k = 3 - r.nsp; k < 3; ++k) {
            if (has[b + k]) last = v[b + k];
            if (last < 0) throw std::invalid_argument("resampling descriptor misses an outer output size");
            sp[k] = last;
        }
    }
    return r;
}

struct rs_cfg_t {
    dir_t dir;
    dnnl_data_type_t sdt, ddt;
    std::string tag;
    dnnl_alg_kind_t alg;
    attr_desc_t attr;
    rs_desc_t desc;
};

class rs_prb_t : public problem_t {
public:
    explicit rs_prb_t(const rs_cfg_t &c) : c_(c) {}

    std::string repro() const override {
        repro_t r("resampling");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("sdt", dt2str(c_.sdt), "f32")
                .knob("ddt", dt2str(c_.ddt), "f32")
                .knob("tag", c_.tag, "abx")
                .knob("alg", c_.alg == dnnl_resampling_linear ? "linear" : "nearest", "nearest")
                .raw(c_.attr.repro());
        return r.str(c_.desc.text);
    }

    std::string skip_reason() const override {
        if (!dt_supported(c_.sdt) || !dt_supported(c_.ddt)) return "data type not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "resampling has FWD_D, FWD_I and BWD_D only";
        if (c_.dir == dir_t::bwd_d && !c_.attr.is_default()) return "backward takes no attributes";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, d;
        dnnl_status_t st = make_md(s, c_.desc.src_dims(), c_.sdt, c_.tag);
        if (st == dnnl_success) st = make_md(d, c_.desc.dst_dims(), c_.ddt, c_.tag);
        if (st != dnnl_success) return st;
        const dims_t dd = c_.desc.dst_dims();
        bundle_.reset(new attr_bundle_t(c_.attr, dd, [&](int) { return dd; }));
        if (c_.dir != dir_t::bwd_d) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_resampling_forward_primitive_desc_create, pd.out(), engine,
                    prop, c_.alg, nullptr, s.get(), d.get(), bundle_->get());
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_resampling_forward_primitive_desc_create, hint_.out(), engine,
                dnnl_forward_training, c_.alg, nullptr, s.get(), d.get(), nullptr);
        if (st != dnnl_success) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_resampling_backward_primitive_desc_create, pd.out(), engine,
                c_.alg, nullptr, s.get(), d.get(), hint_.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        r.lo = -8;
        r.hi = 8;
        const int64_t ns = product(c_.desc.src_dims()), nd = product(c_.desc.dst_dims());
        if (c_.dir != dir_t::bwd_d) {
            src_ = fill_values(ns, clamp_range(r, c_.sdt), c_.sdt, 1);
            prev_ = fill_values(nd, clamp_range(r, c_.ddt), c_.ddt, 2);
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
            bundle_->prepare(args);
            return;
        }
        dd_ = fill_values(nd, clamp_range(r, c_.ddt), c_.ddt, 3);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(dd_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(fill_values(ns, clamp_range(r, c_.sdt), c_.sdt, 4));
    }

    bool check(const args_t &args, std::string &msg) override {
        const dims_t sd = c_.desc.src_dims(), dd = c_.desc.dst_dims();
        const int nsp = c_.desc.nsp;
        const bool linear = c_.alg == dnnl_resampling_linear;
        std::vector<std::vector<std::vector<std::pair<int64_t, double>>>> t;
        for (int k = 0; k < nsp; ++k) t.push_back(resampling_taps(linear, sd[2 + k], dd[2 + k]));
        const bool bwd = c_.dir == dir_t::bwd_d;
        const int64_t n_dst = product(dd);
        std::vector<double> exp(static_cast<size_t>(bwd ? product(sd) : n_dst), 0.0), mag(exp.size(), 0.0);
        int64_t pos[5], spos[5];
        for (int64_t i = 0; i < n_dst; ++i) {
            logical_position(dd, i, pos);
            spos[0] = pos[0];
            spos[1] = pos[1];
            size_t idx[3] = {0, 0, 0};
            double acc = 0, m = 0;
            while (true) {
                double w = 1;
                for (int k = 0; k < nsp; ++k) {
                    const auto &e = t[k][pos[2 + k]][idx[k]];
                    spos[2 + k] = e.first;
                    w *= e.second;
                }
                const int64_t si = linear_index(sd, spos);
                if (bwd) {
                    exp[si] += w * dd_[i];
                    mag[si] += std::fabs(w * dd_[i]);
                } else {
                    acc += w * src_[si];
                    m += std::fabs(w * src_[si]);
                }
                int k = nsp - 1;
                for (; k >= 0; --k) {
                    if (++idx[k] < t[k][pos[2 + k]].size()) break;
                    idx[k] = 0;
                }
                if (k < 0) break;
            }
            if (!bwd) {
                exp[i] = bundle_->apply_post_ops(acc, pos, prev_[i]);
                mag[i] = m;
            }
        }
        tolerance_t tol;
        tol.eps = 1e-6;
        tol.int_diff = 1;
        return check_output(args.at(bwd ? DNNL_ARG_DIFF_SRC : DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    rs_cfg_t c_;
    pd_h hint_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_, dd_;
};

class rs_driver_t : public knob_driver_t {
public:
    rs_driver_t() {
        // --dt sets both lists.
        action({"--dt"}, [this](const std::string &v) {
            parse("--sdt", v);
            parse("--ddt", v);
        });
    }

    void run(const std::string &text) override {
        const rs_desc_t desc = parse_rs_desc(text);
        for_each_problem([&] {
            rs_cfg_t c {dir_, sdt_, ddt_, tag_, alg_, attr_, desc};
            if (mb_ > 0) c.desc.mb = mb_;
            rs_prb_t prb(c);
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const dnnl_data_type_t &sdt_ = knob({"--sdt"}, {dnnl_f32}, str2dt);
    const dnnl_data_type_t &ddt_ = knob({"--ddt"}, {dnnl_f32}, str2dt);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_resampling_nearest}, [](const std::string &s) {
        const std::string l = lowercase(s);
        if (l == "nearest" || l == "resampling_nearest") return dnnl_resampling_nearest;
        if (l == "linear" || l == "resampling_linear" || l == "bilinear" || l == "trilinear")
            return dnnl_resampling_linear;
        throw std::invalid_argument("unknown resampling algorithm '" + s + "'");
    });
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("resampling", rs_driver_t);

} // namespace benchdnn
