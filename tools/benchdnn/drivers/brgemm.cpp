// --brgemm: the ukernel API (dnnl_ukernel.h) on the CPU engine. A problem "MxK:KxN" is
// D (M x N) = post-ops(scales * (alpha * sum over bs blocks of A_i x B_i + beta * C) + bias),
// with the knobs of oneDNN's benchdnn: --dt=A:B:D, --bia_dt, --ld / --runtime-ld=LDA:LDB:LDD,
// --alpha, --beta (0 or 1: add_C), --bs, --wtag (ab or ba B, packed by the transform),
// --batch-kind, --brgemm-attr (kernel hints, ignored) and the --attr-* knobs.
// How each knob reaches the API: brgemm_run.cpp; the reference: brgemm_ref.cpp.
#include "brgemm_problem.hpp"

#include "data_types.hpp"
#include "driver.hpp"
#include "harness.hpp"
#include "knob_table.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

// "LDA:LDB:LDD", each part may be empty (0: the default).
std::array<int64_t, 3> parse_ld(const std::string &s) {
    std::array<int64_t, 3> ld {0, 0, 0};
    if (s.empty()) return ld;
    const auto parts = split(s, ':');
    if (parts.size() > 3) throw std::invalid_argument("--ld takes LDA:LDB:LDD, got '" + s + "'");
    for (size_t i = 0; i < parts.size(); ++i)
        if (!parts[i].empty()) ld[i] = parse_integer(parts[i], "leading dimension", 1, INT64_MAX);
    return ld;
}

std::string ld2str(const std::array<int64_t, 3> &ld) {
    if (ld[0] == 0 && ld[1] == 0 && ld[2] == 0) return "";
    auto one = [](int64_t v) { return v ? std::to_string(v) : std::string(); };
    return one(ld[0]) + ":" + one(ld[1]) + ":" + one(ld[2]);
}

// KEY:VALUE[+KEY:VALUE...]: oneDNN's internal brgemm attributes (kernel and prefetch hints).
std::string parse_brgemm_attr(const std::string &s) {
    if (s.empty()) return s;
    for (const auto &kv : split(s, '+')) {
        const auto p = split(kv, ':');
        if (p.size() != 2 || p[0].empty())
            throw std::invalid_argument("--brgemm-attr takes KEY:VALUE[+KEY:VALUE], got '" + s + "'");
        parse_integer(p[1], "brgemm attribute value");
    }
    warn_ignored_knob("--brgemm-attr",
            "the ukernel API takes no kernel hints; every problem runs with the library's choice");
    return s;
}

std::string parse_batch_kind(const std::string &s) {
    if (s != "addr" && s != "offs")
        throw std::invalid_argument("--batch-kind takes addr or offs, got '" + s + "'");
    return s;
}

std::string dt_text(const std::array<dnnl_data_type_t, 3> &dt) {
    std::string s = dt2str(dt[0]);
    if (dt[1] != dt[0] || dt[2] != dt[0]) s += std::string(":") + dt2str(dt[1]) + ":" + dt2str(dt[2]);
    return s;
}

std::string num_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

class brgemm_driver_t : public knob_driver_t {
public:
    void run(const std::string &text) override {
        const auto shapes = parse_dims_list(text);
        if (shapes.size() != 2 || shapes[0].size() != 2 || shapes[1].size() != 2
                || shapes[0][1] != shapes[1][0])
            throw std::invalid_argument("brgemm takes MxK:KxN, got '" + text + "'");
        for_each_problem([&] {
            brgemm_cfg_t c;
            c.M = shapes[0][0];
            c.K = shapes[0][1];
            c.N = shapes[1][1];
            c.dt = dt_;
            c.bdt = bdt_;
            c.stag = stag_;
            c.wtag = wtag_;
            c.dtag = dtag_;
            c.ld = ld_;
            c.runtime_ld = rld_;
            c.alpha = alpha_;
            c.beta = beta_;
            c.bs = bs_;
            c.attr = attr_;
            repro_t r("brgemm");
            r.knob("dt", dt_text(dt_), "f32")
                    .knob("bia_dt", dt2str(bdt_), "undef")
                    .knob("stag", stag_, "abx")
                    .knob("wtag", wtag_, "abx")
                    .knob("dtag", dtag_, "abx")
                    .knob("ld", ld2str(ld_), "")
                    .knob("runtime-ld", ld2str(rld_), "")
                    .knob("alpha", num_text(alpha_), "1")
                    .knob("beta", num_text(beta_), "0")
                    .knob("bs", std::to_string(bs_), "1")
                    .knob("batch-kind", batch_kind_, "addr")
                    .knob("brgemm-attr", brgemm_attr_, "")
                    .raw(attr_.repro());
            const auto &s = settings();
            run_brgemm_problem(c,
                    r.str(text + (s.problem_name.empty() ? "" : "n\"" + s.problem_name + "\"")));
        });
    }

private:
    const std::array<dnnl_data_type_t, 3> &dt_
            = knob({"--dt", "--cfg"}, {{dnnl_f32, dnnl_f32, dnnl_f32}}, parse_dt_triple);
    const dnnl_data_type_t &bdt_ = knob({"--bia_dt", "--bia-dt"}, {dnnl_data_type_undef},
            [](const std::string &s) { return s == "undef" ? dnnl_data_type_undef : str2dt(s); });
    const std::string &stag_ = knob({"--stag"}, {"abx"}, checked_tag);
    const std::string &wtag_ = knob({"--wtag"}, {"abx"}, checked_tag);
    const std::string &dtag_ = knob({"--dtag"}, {"abx"}, checked_tag);
    const std::array<int64_t, 3> &ld_ = knob({"--ld"}, {{0, 0, 0}}, parse_ld);
    const std::array<int64_t, 3> &rld_ = knob({"--runtime-ld", "--runtime_ld"}, {{0, 0, 0}}, parse_ld);
    const double &alpha_ = knob({"--alpha"}, {1.0}, number_item("alpha"));
    const double &beta_ = knob({"--beta"}, {0.0}, number_item("beta"));
    const int64_t &bs_ = knob({"--bs"}, {int64_t {1}}, integer_item("batch size", 1, 1 << 20));
    const std::string &batch_kind_
            = knob({"--batch-kind", "--batch_kind"}, {std::string("addr")}, parse_batch_kind);
    const std::string &brgemm_attr_
            = knob({"--brgemm-attr", "--brgemm_attr"}, {std::string()}, parse_brgemm_attr);
    const attr_desc_t &attr_ = attr_knob();
};

} // namespace

BENCHDNN_REGISTER_DRIVER("brgemm", brgemm_driver_t);

} // namespace benchdnn
