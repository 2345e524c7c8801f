// --pool: pooling forward and backward (--dir, --dt, --tag, --alg) on descriptors like
// mb16ic64ih112oh56kh3sh2ph1 (id/ih/iw, od/oh/ow, kd/kh/kw, sd/sh/sw, dd/dh/dw, pd/ph/pw).
#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

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

// Shape of one pooling problem; spatial arrays are D, H, W with `nsp` of them in use.
struct pool_desc_t {
    int64_t mb = 2, ic = 1;
    int nsp = 2;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
            dl[3] = {0, 0, 0}, pl[3] = {0, 0, 0}, pr[3] = {0, 0, 0};
    std::string text;
};

// "mb16ic64ih112oh56kh3sh2ph1": missing W values copy H, missing H copy W; missing outputs
// follow from the other sizes.
pool_desc_t parse_pool_desc(const std::string &text) {
    pool_desc_t d;
    d.text = text;
    std::map<std::string, int64_t> v;
    size_t i = 0;
    const std::string t = text.substr(0, text.find('_'));
    while (i < t.size()) {
        size_t j = i;
        while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
        size_t k = j;
        while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
        if (j == i || k == j) throw std::invalid_argument("bad pooling descriptor '" + text + "'");
        v[t.substr(i, j - i)] = std::stoll(t.substr(j, k - j));
        i = k;
    }
    auto has = [&](const char *key) { return v.count(key) != 0; };
    if (has("mb")) d.mb = v["mb"];
    if (!has("ic")) throw std::invalid_argument("pooling descriptor needs ic: '" + text + "'");
    d.ic = v["ic"];
    const bool is3d = has("id") || has("od") || has("kd");
    const bool is1d = !is3d && !has("ih") && !has("oh") && !has("kh");
    d.nsp = is3d ? 3 : is1d ? 1 : 2;
    const char dimc[3] = {'d', 'h', 'w'};
    auto get = [&](char p, int s, int64_t def) {
        std::string key = std::string(1, p) + dimc[s];
        if (has(key.c_str())) return v[key];
        // Square defaults: w from h and h from w (3D: d from h).
        const int alt = s == 2 ? 1 : s == 1 ? 2 : 1;
        key = std::string(1, p) + dimc[alt];
        if (d.nsp > 1 && has(key.c_str())) return v[key];
        return def;
    };
    for (int s = 3 - d.nsp; s < 3; ++s) {
        d.in[s] = get('i', s, 1);
        d.k[s] = get('k', s, 1);
        d.s[s] = get('s', s, 1);
        d.dl[s] = get('d', s, 0);
        d.pl[s] = get('p', s, 0);
        if (d.s[s] <= 0)
            throw std::invalid_argument("pooling stride must be positive: '" + text + "'");
        const int64_t ext = (d.k[s] - 1) * (d.dl[s] + 1) + 1;
        d.out[s] = get('o', s, (d.in[s] + 2 * d.pl[s] - ext) / d.s[s] + 1);
        d.pr[s] = (d.out[s] - 1) * d.s[s] + ext - d.in[s] - d.pl[s];
        if (d.pr[s] < 0) d.pr[s] = 0;
    }
    return d;
}

struct pool_cfg_t {
    dir_t dir;
    dnnl_data_type_t dt, ddt; // src, dst
    std::string tag;
    dnnl_alg_kind_t alg;
    attr_desc_t attr;
    pool_desc_t desc;
};

const char *alg2str(dnnl_alg_kind_t a) {
    return a == dnnl_pooling_max ? "max" : a == dnnl_pooling_avg_include_padding ? "avg_p" : "avg_np";
}

class pool_prb_t : public problem_t {
public:
    explicit pool_prb_t(const pool_cfg_t &c) : c_(c) {
        const auto &d = c_.desc;
        src_dims_ = {d.mb, d.ic};
        dst_dims_ = {d.mb, d.ic};
        for (int s = 3 - d.nsp; s < 3; ++s) {
            src_dims_.push_back(d.in[s]);
            dst_dims_.push_back(d.out[s]);
        }
    }

    std::string repro() const override {
        repro_t r("pool");
        r.knob("dir", dir2str(c_.dir), "FWD_D")
                .knob("dt", c_.dt == c_.ddt ? dt2str(c_.dt)
                                             : std::string(dt2str(c_.dt)) + ":" + dt2str(c_.ddt),
                        "f32")
                .knob("tag", c_.tag, "abx")
                .knob("alg", alg2str(c_.alg), "max")
                .raw(c_.attr.repro());
        return r.str(c_.desc.text);
    }

    std::string skip_reason() const override {
        for (auto dt : {c_.dt, c_.ddt})
            if (!dt_supported(dt)) return std::string("data type ") + dt2str(dt) + " not handled by the tester";
        if (c_.dir != dir_t::fwd_d && c_.dir != dir_t::fwd_i && c_.dir != dir_t::bwd_d)
            return "pooling has FWD_D, FWD_I and BWD_D only";
        if (c_.dir == dir_t::bwd_d && !c_.attr.is_default()) return "backward takes no attributes";
        return {};
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h src, dst, any_dst;
        dnnl_status_t st = make_md(src, src_dims_, c_.dt, c_.tag);
        if (st == dnnl_success) st = make_md(dst, dst_dims_, c_.ddt, "any");
        if (st != dnnl_success) return st;
        const auto &d = c_.desc;
        dnnl_dims_t k, s, dl, pl, pr;
        for (int i = 0; i < d.nsp; ++i) {
            const int j = 3 - d.nsp + i;
            k[i] = d.k[j], s[i] = d.s[j], dl[i] = d.dl[j], pl[i] = d.pl[j], pr[i] = d.pr[j];
        }
        bundle_.reset(new attr_bundle_t(c_.attr, dst_dims_, [&](int) { return dst_dims_; }));
        if (c_.dir != dir_t::bwd_d) {
            auto prop = c_.dir == dir_t::fwd_i ? dnnl_forward_inference : dnnl_forward_training;
            return BENCHDNN_CALL_OP(*this, dnnl_pooling_forward_primitive_desc_create, pd.out(),
                    engine, prop, c_.alg, src.get(), dst.get(), s, k, dl, pl, pr, bundle_->get());
        }
        st = BENCHDNN_CALL_OP(*this, dnnl_pooling_forward_primitive_desc_create, hint_.out(),
                engine, dnnl_forward_training, c_.alg, src.get(), dst.get(), s, k, dl, pl, pr,
                nullptr);
        if (st != dnnl_success) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_pooling_backward_primitive_desc_create, pd.out(),
                engine, c_.alg, src.get(), dst.get(), s, k, dl, pl, pr, hint_.get(),
                bundle_->get());
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        fill_range_t r;
        r.lo = -8;
        r.hi = 8;
        r.step = 0.25;
        src_ = fill_values(product(src_dims_), clamp_range(r, c_.dt), c_.dt, 1);
        if (c_.dir != dir_t::bwd_d) {
            args.add(DNNL_ARG_SRC, md_of(DNNL_ARG_SRC)).write(src_);
            prev_ = fill_values(product(dst_dims_), clamp_range(r, c_.ddt), c_.ddt, 2);
            args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST)).write(prev_);
            if (c_.alg == dnnl_pooling_max && c_.dir == dir_t::fwd_d)
                args.add(DNNL_ARG_WORKSPACE, md_of(DNNL_ARG_WORKSPACE));
            bundle_->prepare(args);
            return;
        }
        // The workspace comes from running the forward hint on src.
        diff_dst_ = fill_values(product(dst_dims_), clamp_range(r, c_.ddt), c_.ddt, 3);
        args.add(DNNL_ARG_DIFF_DST, md_of(DNNL_ARG_DIFF_DST)).write(diff_dst_);
        args.add(DNNL_ARG_DIFF_SRC, md_of(DNNL_ARG_DIFF_SRC)).write(src_);
        if (c_.alg == dnnl_pooling_max) {
            const_dnnl_memory_desc_t hs = dnnl_primitive_desc_query_md(hint_.get(), dnnl_query_src_md, 0);
            const_dnnl_memory_desc_t hd = dnnl_primitive_desc_query_md(hint_.get(), dnnl_query_dst_md, 0);
            fwd_src_ = test_mem_t(hs, test_engine());
            fwd_src_.write(src_);
            fwd_dst_ = test_mem_t(hd, test_engine());
            test_mem_t &ws = args.add(DNNL_ARG_WORKSPACE, md_of(DNNL_ARG_WORKSPACE));
            dnnl_primitive_t p = nullptr;
            if (dnnl_primitive_create(&p, hint_.get()) == dnnl_success) {
                dnnl_exec_arg_t a[3] = {{DNNL_ARG_SRC, fwd_src_.get()}, {DNNL_ARG_DST, fwd_dst_.get()},
                        {DNNL_ARG_WORKSPACE, ws.get()}};
                dnnl_primitive_execute(p, test_stream(), 3, a);
                dnnl_stream_wait(test_stream());
                dnnl_primitive_destroy(p);
            }
        }
    }

    bool check(const args_t &args, std::string &msg) override {
        const auto &d = c_.desc;
        std::vector<double> exp(static_cast<size_t>(product(c_.dir == dir_t::bwd_d ? src_dims_ : dst_dims_)), 0.0);
        int64_t pos[DNNL_MAX_NDIMS] = {}, sp[DNNL_MAX_NDIMS] = {};
        tolerance_t tol;
        tol.int_diff = 1;
        const int64_t ndst = product(dst_dims_);
        for (int64_t i = 0; i < ndst; ++i) {
            logical_position(dst_dims_, i, pos);
            sp[0] = pos[0];
            sp[1] = pos[1];
            // Walk the window taps in (kd, kh, kw) order.
            int64_t ksize = 1;
            for (int s = 3 - d.nsp; s < 3; ++s)
                ksize *= d.k[s];
            double acc = c_.alg == dnnl_pooling_max ? -INFINITY : 0;
            int64_t count = 0, arg = -1;
            for (int64_t t = 0; t < ksize; ++t) {
                int64_t r = t;
                bool in = true;
                for (int s = 2; s >= 3 - d.nsp; --s) {
                    const int64_t kk = r % d.k[s];
                    r /= d.k[s];
                    const int dim = 2 + s - (3 - d.nsp);
                    sp[dim] = pos[dim] * d.s[s] - d.pl[s] + kk * (d.dl[s] + 1);
                    in = in && sp[dim] >= 0 && sp[dim] < d.in[s];
                }
                if (!in) continue;
                ++count;
                const int64_t li = linear_index(src_dims_, sp);
                if (c_.dir == dir_t::bwd_d) {
                    if (c_.alg == dnnl_pooling_max) {
                        if (src_[li] > acc) acc = src_[li], arg = li;
                    }
                    continue;
                }
                if (c_.alg == dnnl_pooling_max) acc = std::max(acc, src_[li]);
                else acc += src_[li];
            }
            const double div = c_.alg == dnnl_pooling_avg_include_padding ? double(ksize) : double(count);
            if (c_.dir == dir_t::bwd_d) {
                if (c_.alg == dnnl_pooling_max) {
                    if (arg >= 0) exp[arg] += diff_dst_[i];
                    continue;
                }
                // Second walk: distribute diff_dst / div once the taps are counted.
                for (int64_t t = 0; t < ksize; ++t) {
                    int64_t r = t;
                    bool in = true;
                    for (int s = 2; s >= 3 - d.nsp; --s) {
                        const int64_t kk = r % d.k[s];
                        r /= d.k[s];
                        const int dim = 2 + s - (3 - d.nsp);
                        sp[dim] = pos[dim] * d.s[s] - d.pl[s] + kk * (d.dl[s] + 1);
                        in = in && sp[dim] >= 0 && sp[dim] < d.in[s];
                    }
                    if (in) exp[linear_index(src_dims_, sp)] += diff_dst_[i] / div;
                }
                continue;
            }
            if (c_.alg != dnnl_pooling_max) acc = count ? acc / div : 0;
            // A window entirely in padding: max gives the type's lowest value, averages 0.
            if (count == 0) acc = c_.alg == dnnl_pooling_max ? dt_lowest(c_.dt) : 0;
            exp[i] = bundle_->apply_post_ops(acc, pos, prev_[i]);
        }
        // Averages divide: OpenCL lets a device's f32 division be off by 2.5 ulp (NVIDIA's
        // is), so forward averages get a few ulp; max pooling stays exact.
        tol.eps = c_.dir == dir_t::bwd_d ? 1e-6 : c_.alg != dnnl_pooling_max ? 5e-7 : 0;
        return check_output(args.at(c_.dir == dir_t::bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_DST), exp, tol, msg);
    }

private:
    pool_cfg_t c_;
    dims_t src_dims_, dst_dims_;
    pd_h hint_;
    std::unique_ptr<attr_bundle_t> bundle_;
    std::vector<double> src_, prev_, diff_dst_;
    test_mem_t fwd_src_, fwd_dst_;
};

class pool_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const pool_desc_t desc = parse_pool_desc(text);
        for_each_problem([&] {
            pool_desc_t d = desc;
            if (mb_ > 0) d.mb = mb_;
            pool_prb_t prb({dir_, dt_.first, dt_.second, tag_, alg_, attr_, d});
            run_problem(prb);
        });
    }

private:
    const dir_t &dir_ = knob({"--dir"}, {dir_t::fwd_d}, str2dir);
    const std::pair<dnnl_data_type_t, dnnl_data_type_t> &dt_
            = knob({"--dt"}, {{dnnl_f32, dnnl_f32}}, parse_dt_pair);
    const std::string &tag_ = knob({"--tag"}, {"abx"}, checked_tag);
    const dnnl_alg_kind_t &alg_ = knob({"--alg"}, {dnnl_pooling_max}, [](const std::string &s) {
        const std::string l = lowercase(s);
        if (l == "max" || l == "pooling_max") return dnnl_pooling_max;
        if (l == "avg_p" || l == "avg_include_padding" || l == "pooling_avg_include_padding")
            return dnnl_pooling_avg_include_padding;
        if (l == "avg_np" || l == "avg_exclude_padding" || l == "pooling_avg_exclude_padding")
            return dnnl_pooling_avg_exclude_padding;
        throw std::invalid_argument("unknown pooling algorithm '" + s + "'");
    });
    const attr_desc_t &attr_ = attr_knob();
    const int64_t &mb_ = mb_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("pool", pool_driver_t);

} // namespace benchdnn
