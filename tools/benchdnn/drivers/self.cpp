// --self: checks of this tester's own machinery, as oneDNN's `benchdnn --self` checks its
// parsers: knob values, problem texts, layouts, attributes, batch-file syntax, element
// encodings and the comparison's tolerances. Runs once when named; takes no problems. Each
// group is one result line ("--self NAME"), FAILED with the first expectation that did not hold.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

#include "attr.hpp"
#include "batch.hpp"
#include "capture.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "harness.hpp"
#include "knobs.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct expectation_failed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

#define SELF_EXPECT(cond) \
    do { \
        if (!(cond)) throw expectation_failed("line " + std::to_string(__LINE__) + ": " #cond); \
    } while (0)

// Whether f throws std::invalid_argument (how knob and problem errors are reported).
bool rejects(const std::function<void()> &f) {
    try {
        f();
    } catch (const std::invalid_argument &) {
        return true;
    }
    return false;
}

void check_dims() {
    SELF_EXPECT(parse_dims("2x16x3x3") == (dims_t {2, 16, 3, 3}));
    SELF_EXPECT(parse_dims("7") == (dims_t {7}));
    const auto l = parse_dims_list("2x3:2x5");
    SELF_EXPECT(l.size() == 2 && l[1] == (dims_t {2, 5}));
    SELF_EXPECT(rejects([] { parse_dims("2xx3"); }));
    SELF_EXPECT(rejects([] { parse_dims("2x-3"); }));
    SELF_EXPECT(dims2str({4, 1, 9}) == "4x1x9");
    SELF_EXPECT(parse_integer("12", "n") == 12);
    SELF_EXPECT(rejects([] { parse_integer("1.5", "n"); }));
    SELF_EXPECT(rejects([] { parse_integer("9", "n", 0, 8); }));
    SELF_EXPECT(parse_number("-0.25", "x") == -0.25);
    SELF_EXPECT(split("a,,b", ',') == (std::vector<std::string> {"a", "", "b"}));
}

void check_data_types() {
    const auto t = parse_dt_triple("u8:s8:f32");
    SELF_EXPECT(t[0] == dnnl_u8 && t[1] == dnnl_s8 && t[2] == dnnl_f32);
    const auto one = parse_dt_triple("bf16");
    SELF_EXPECT(one[0] == dnnl_bf16 && one[1] == dnnl_bf16 && one[2] == dnnl_bf16);
    SELF_EXPECT(rejects([] { parse_dt_triple("f32:f33:f32"); }));
    SELF_EXPECT(str2dt("f8_e5m2") == dnnl_f8_e5m2 && std::string(dt2str(dnnl_s32)) == "s32");
}

void check_problem_text() {
    auto p = split_problem_text("mb16_ic64n\"resnet:1\"");
    SELF_EXPECT(p.body == "mb16ic64" && p.name == "resnet:1");
    p = split_problem_text("16x32:32x16_n\"bf16:no_tail:0\"");
    SELF_EXPECT(p.body == "16x32:32x16" && p.name == "bf16:no_tail:0");
    p = split_problem_text("2x3");
    SELF_EXPECT(p.body == "2x3" && p.name.empty());
    SELF_EXPECT(apply_mb({8, 3, 5}, 2) == (dims_t {2, 3, 5}));
    SELF_EXPECT(apply_mb({8, 3, 5}, 0) == (dims_t {8, 3, 5}));
}

void check_tags() {
    SELF_EXPECT(expand_tag("xba", 4) == "cdba");
    SELF_EXPECT(expand_tag("aBx16b", 4) == "aBcd16b");
    SELF_EXPECT(tag_known("nChw16c") && tag_known("acdb") && tag_known("abx"));
    // Names are checked for their form here; the library judges the layout.
    SELF_EXPECT(!tag_known("ab-c") && !tag_known("axbx") && !tag_known("1ab"));
    SELF_EXPECT(rejects([] { checked_tag("ab-c"); }));
    dnnl_format_tag_t tag = dnnl_format_tag_undef;
    SELF_EXPECT(str2tag("nhwc", tag) && tag_letters(tag) == "acdb");
    const auto lists = parse_tag_lists("abx:any,axb:axb");
    SELF_EXPECT(lists.size() == 2 && lists[0].size() == 2 && lists[1][1] == "axb");
}

void check_attributes() {
    const auto po = parse_post_ops("sum:2+relu:0.5+add:f32:per_oc");
    SELF_EXPECT(po.size() == 3);
    SELF_EXPECT(po[0].kind == post_op_t::kind_t::sum && po[0].scale == 2);
    SELF_EXPECT(po[1].kind == post_op_t::kind_t::eltwise && po[1].alg == dnnl_eltwise_relu
            && po[1].alpha == 0.5);
    SELF_EXPECT(po[2].kind == post_op_t::kind_t::binary && po[2].alg == dnnl_binary_add
            && po[2].dt == dnnl_f32 && po[2].policy == "per_oc");
    SELF_EXPECT(rejects([] { parse_post_ops("nosuchop"); }));
    const auto q = parse_quant("src:common:0.5*+wei:per_oc:2", false);
    SELF_EXPECT(q.size() == 2 && q[0].arg == DNNL_ARG_SRC && q[0].value == 0.5);
    SELF_EXPECT(q[1].arg == DNNL_ARG_WEIGHTS && q[1].policy == "per_oc" && q[1].value == 2);
    SELF_EXPECT(policy_mask("common", 4) == 0 && policy_mask("per_oc", 4) == 2);
    SELF_EXPECT(policy_mask("per_dim_01", 4) == 3 && policy_mask("per_tensor", 3) == 7);
    SELF_EXPECT(policy_mask("5", 4) == 5);
    SELF_EXPECT(rejects([] { policy_mask("per_nothing", 4); }));
    SELF_EXPECT(masked_dims({2, 3, 4}, 2) == (dims_t {1, 3, 1}));
}

void check_batch_files() {
    char path[] = "/tmp/benchdnn_selfXXXXXX";
    const int fd = mkstemp(path);
    SELF_EXPECT(fd >= 0);
    close(fd);
    {
        std::ofstream f(path);
        f << "# a comment\n--alg=relu, \\\n   tanh  # trailing comment\n2x3_n\"first\" 4x5\n";
    }
    std::vector<token_t> t;
    try {
        t = read_batch(path);
    } catch (...) {
        std::remove(path);
        throw;
    }
    std::remove(path);
    SELF_EXPECT(t.size() == 3);
    SELF_EXPECT(t[0].text == "--alg=relu,tanh");
    SELF_EXPECT(t[1].text == "2x3_n\"first\"" && t[2].text == "4x5");
    SELF_EXPECT(t[2].origin.find(":4") != std::string::npos);
    SELF_EXPECT(join_continued("--dt=f32,", "  bf16") == "--dt=f32,bf16");
}

void check_encodings() {
    // Round to nearest even, saturation, and exact small values.
    SELF_EXPECT(round_to_dt(1.0 + std::ldexp(1.0, -8), dnnl_bf16) == 1.0);
    SELF_EXPECT(round_to_dt(1.0 + 3 * std::ldexp(1.0, -8), dnnl_bf16) == 1.0 + std::ldexp(1.0, -6));
    SELF_EXPECT(round_to_dt(200, dnnl_s8) == 127 && round_to_dt(-3, dnnl_u8) == 0);
    SELF_EXPECT(round_to_dt(2.5, dnnl_s32) == 2 && round_to_dt(3.5, dnnl_s32) == 4);
    SELF_EXPECT(round_to_dt(0.1, dnnl_f16) != 0.1 && round_to_dt(0.25, dnnl_f16) == 0.25);
    unsigned char buf[16] = {};
    for (auto dt : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32, dnnl_f8_e4m3}) {
        store_elem(buf, 1, dt, 3.0);
        SELF_EXPECT(load_elem(buf, 1, dt) == 3.0);
    }
}

// compare() with its mismatch lines kept off the output (they are expected here).
bool quiet_compare(const std::vector<double> &got, const std::vector<double> &exp,
        dnnl_data_type_t dt, const tolerance_t &tol, std::string &msg) {
    stdout_capture_t capture;
    const bool ok = compare(got, exp, {static_cast<int64_t>(exp.size())}, dt, tol, msg);
    capture.finish();
    return ok;
}

void check_comparison() {
    std::string msg;
    tolerance_t tol;
    tol.eps = 1e-6;
    SELF_EXPECT(quiet_compare({1.0000001, 2}, {1, 2}, dnnl_f32, tol, msg));
    SELF_EXPECT(!quiet_compare({1.001, 2}, {1, 2}, dnnl_f32, tol, msg) && !msg.empty());
    tol.int_diff = 1;
    SELF_EXPECT(quiet_compare({4, 7}, {3.4, 7.2}, dnnl_s32, tol, msg));
    SELF_EXPECT(!quiet_compare({6, 7}, {3.4, 7.2}, dnnl_s32, tol, msg));
    // A NaN only matches a NaN.
    SELF_EXPECT(!quiet_compare({std::nan("")}, {1}, dnnl_f32, tol, msg));
}

class self_driver_t : public driver_t {
public:
    void reset() override {}
    bool parse(const std::string &, const std::string &) override { return false; }
    void run(const std::string &) override {
        throw std::invalid_argument("--self takes no problems");
    }
    void on_select() override {
        const std::pair<const char *, void (*)()> groups[] = {{"dims", check_dims},
                {"data_types", check_data_types}, {"problem_text", check_problem_text},
                {"tags", check_tags}, {"attributes", check_attributes},
                {"batch_files", check_batch_files}, {"encodings", check_encodings},
                {"comparison", check_comparison}};
        for (const auto &g : groups) {
            const int idx = begin_problem();
            const std::string repro = std::string("--self ") + g.first;
            if (settings().list) {
                report_problem(idx, outcome_t::listed, "", repro);
                continue;
            }
            try {
                g.second();
                report_problem(idx, outcome_t::passed, "", repro);
            } catch (const std::exception &e) {
                report_problem(idx, outcome_t::failed, e.what(), repro);
            }
        }
    }
};

} // namespace

BENCHDNN_REGISTER_DRIVER("self", self_driver_t);

} // namespace benchdnn
