// The GPU engine's reduction-shaped primitives (softmax, layer and batch normalization,
// reduction, pooling, resampling) against the CPU engine's (which the primitive tests check
// against references): same problem, same inputs, outputs within a tolerance. Skipped
// without an OpenCL device.
#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;

bool have_gpu() {
    return engine::get_count(engine::kind::gpu) > 0;
}

// Deterministic values in [-2, 2) for tensor `arg`; statistics of variance kind positive.
float value_of(int arg, size_t i) {
    const float v = std::sin(0.37f * float(i) + 0.11f * float(arg)) * 2.f;
    return arg == DNNL_ARG_VARIANCE ? std::fabs(v) + 0.5f : v;
}

void fill(memory &m, int arg) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    float *p = static_cast<float *>(m.map_data());
    for (size_t i = 0; i < n; ++i)
        p[i] = value_of(arg, i);
    m.unmap_data(p);
}

std::vector<float> read(const memory &m) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    const float *p = static_cast<const float *>(m.map_data());
    std::vector<float> v(p, p + n);
    m.unmap_data(const_cast<float *>(p));
    return v;
}

// One run of a primitive on one engine: its memories by argument.
struct run_t {
    std::unordered_map<int, memory> mem;
};

// Creates the pd on `eng`, memories for `inputs` (filled, or taken from `given`) and
// `outputs`, and executes once.
template <typename PD>
run_t run_on(const engine &eng, const std::function<PD(const engine &)> &make,
        const std::vector<int> &inputs, const std::vector<int> &outputs,
        const std::unordered_map<int, memory> &given = {}) {
    PD pd = make(eng);
    run_t r;
    for (int a : inputs) {
        auto it = given.find(a);
        if (it != given.end()) {
            r.mem[a] = it->second;
            continue;
        }
        const memory::desc d = pd.query_md(query::exec_arg_md, a);
        if (d.get_ndims() == 0) continue; // the primitive takes no such tensor
        r.mem[a] = memory(d, eng);
        fill(r.mem[a], a);
    }
    for (int a : outputs) {
        const memory::desc d = pd.query_md(query::exec_arg_md, a);
        if (d.get_ndims() != 0) r.mem[a] = memory(d, eng);
    }
    stream s(eng);
    primitive(pd).execute(s, r.mem);
    s.wait();
    return r;
}

void expect_close(const memory &gpu, const memory &cpu, float tol, const char *what) {
    const std::vector<float> g = read(gpu), c = read(cpu);
    ASSERT_EQ(g.size(), c.size()) << what;
    for (size_t i = 0; i < g.size(); ++i) {
        if (std::isnan(c[i])) continue;
        ASSERT_NEAR(g[i], c[i], tol * std::max(1.f, std::fabs(c[i])))
                << what << " at " << i << " of " << g.size();
    }
}

// Runs `make` on both engines and compares every output.
template <typename PD>
void compare(const std::function<PD(const engine &)> &make, const std::vector<int> &inputs,
        const std::vector<int> &outputs, float tol = 1e-5f) {
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    // Outputs some flags add (the workspace, diff shift) are compared too.
    std::vector<int> outs = outputs;
    for (int a : {DNNL_ARG_WORKSPACE, DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT})
        if (std::find(outs.begin(), outs.end(), a) == outs.end()
                && std::find(inputs.begin(), inputs.end(), a) == inputs.end())
            outs.push_back(a);
    run_t rc = run_on<PD>(cpu, make, inputs, outs);
    run_t rg = run_on<PD>(gpu, make, inputs, outs);
    for (int a : outs) {
        ASSERT_EQ(rg.mem.count(a), rc.mem.count(a)) << "arg " << a;
        if (rc.mem.count(a))
            expect_close(rg.mem[a], rc.mem[a], tol, ("arg " + std::to_string(a)).c_str());
    }
}

memory::desc md(const dims &d, tag t) {
    return memory::desc(d, dt::f32, t);
}

#define SKIP_WITHOUT_GPU()                                                                         \
    if (!have_gpu()) GTEST_SKIP() << "no OpenCL device"

TEST(GpuSoftmax, ForwardAndBackwardEveryAxis) {
    SKIP_WITHOUT_GPU();
    struct case_t {
        dims d;
        tag t;
        int axis;
    };
    const case_t cases[] = {{{1, 1}, tag::ab, 1}, {{3, 5, 19}, tag::abc, 0},
            {{3, 5, 19}, tag::abc, 1}, {{7, 1000}, tag::ab, 1}, {{2, 32, 3, 3}, tag::aBcd16b, 1},
            {{2, 19, 3, 3}, tag::acdb, 1}, {{2, 16, 3, 5}, tag::aBcd16b, 3}, {{4, 0}, tag::ab, 1}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::softmax_accurate, algorithm::softmax_log}) {
            SCOPED_TRACE("axis " + std::to_string(c.axis) + " dims " + std::to_string(c.d[0]) + "x"
                         + std::to_string(c.d[1]) + " alg " + std::to_string(int(alg)));
            const auto m = md(c.d, c.t);
            compare<softmax_forward::primitive_desc>(
                    [&](const engine &e) {
                        return softmax_forward::primitive_desc(
                                e, prop_kind::forward_training, alg, m, m, c.axis);
                    },
                    {DNNL_ARG_SRC}, {DNNL_ARG_DST});
            compare<softmax_backward::primitive_desc>(
                    [&](const engine &e) {
                        auto fwd = softmax_forward::primitive_desc(
                                e, prop_kind::forward_training, alg, m, m, c.axis);
                        return softmax_backward::primitive_desc(e, alg, m, m, m, c.axis, fwd);
                    },
                    {DNNL_ARG_DST, DNNL_ARG_DIFF_DST}, {DNNL_ARG_DIFF_SRC}, 1e-4f);
        }
}

TEST(GpuLayerNorm, FlagsDirectionsAndLayouts) {
    SKIP_WITHOUT_GPU();
    const normalization_flags flag_sets[] = {normalization_flags::none,
            normalization_flags::use_scale | normalization_flags::use_shift,
            normalization_flags::use_global_stats | normalization_flags::use_scale,
            normalization_flags::rms_norm | normalization_flags::use_scale};
    struct case_t {
        dims d;
        tag t, st;
    };
    const case_t cases[] = {{{1, 1}, tag::ab, tag::a}, {{3, 37}, tag::ab, tag::a},
            {{2, 3, 17}, tag::abc, tag::ab}, {{2, 3, 17}, tag::bac, tag::ba},
            {{5, 300}, tag::ab, tag::a}};
    for (const auto &c : cases)
        for (auto f : flag_sets) {
            SCOPED_TRACE("flags " + std::to_string(int(f)) + " dims " + std::to_string(c.d[0]) + "x"
                         + std::to_string(c.d[1]));
            const auto m = md(c.d, c.t);
            dims sd(c.d.begin(), c.d.end() - 1);
            const auto st = md(sd, c.st);
            const bool global =
                    (f & normalization_flags::use_global_stats) != normalization_flags::none;
            std::vector<int> in = {DNNL_ARG_SRC, DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
            std::vector<int> out = {DNNL_ARG_DST};
            (global ? in : out).push_back(DNNL_ARG_VARIANCE);
            if ((f & normalization_flags::rms_norm) == normalization_flags::none)
                (global ? in : out).push_back(DNNL_ARG_MEAN);
            compare<layer_normalization_forward::primitive_desc>(
                    [&](const engine &e) {
                        return layer_normalization_forward::primitive_desc(
                                e, prop_kind::forward_training, m, m, st, 1e-3f, f);
                    },
                    in, out, 2e-5f);
            const normalization_flags bf = f & ~normalization_flags::use_global_stats;
            std::vector<int> bin = {
                    DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE};
            if ((f & normalization_flags::rms_norm) == normalization_flags::none)
                bin.push_back(DNNL_ARG_MEAN);
            std::vector<int> bout = {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_SCALE};
            compare<layer_normalization_backward::primitive_desc>(
                    [&](const engine &e) {
                        auto fwd = layer_normalization_forward::primitive_desc(
                                e, prop_kind::forward_training, m, m, st, 1e-3f, bf);
                        return layer_normalization_backward::primitive_desc(e, prop_kind::backward,
                                m, m, m, st, 1e-3f, bf | normalization_flags::use_scale, fwd);
                    },
                    bin, bout, 1e-4f);
        }
}

TEST(GpuBatchNorm, FlagsAndDirections) {
    SKIP_WITHOUT_GPU();
    struct case_t {
        dims d;
        tag t;
    };
    const case_t cases[] = {{{2, 3, 4, 5}, tag::abcd}, {{3, 19, 5}, tag::acb},
            {{2, 32, 3, 3}, tag::aBcd16b}, {{1, 1, 1, 1}, tag::abcd}};
    const normalization_flags ss = normalization_flags::use_scale | normalization_flags::use_shift;
    for (const auto &c : cases) {
        const auto m = md(c.d, c.t);
        for (auto f : {normalization_flags::none, ss, ss | normalization_flags::use_global_stats,
                     ss | normalization_flags::fuse_norm_relu}) {
            const bool global =
                    (f & normalization_flags::use_global_stats) != normalization_flags::none;
            std::vector<int> in = {DNNL_ARG_SRC, DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
            std::vector<int> out = {DNNL_ARG_DST};
            for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE})
                (global ? in : out).push_back(a);
            compare<batch_normalization_forward::primitive_desc>(
                    [&](const engine &e) {
                        return batch_normalization_forward::primitive_desc(e,
                                global ? prop_kind::forward_inference : prop_kind::forward_training,
                                m, m, 1e-3f, f);
                    },
                    in, out, 2e-5f);
        }
        compare<batch_normalization_backward::primitive_desc>(
                [&](const engine &e) {
                    auto fwd = batch_normalization_forward::primitive_desc(
                            e, prop_kind::forward_training, m, m, 1e-3f, ss);
                    return batch_normalization_backward::primitive_desc(
                            e, prop_kind::backward, m, m, m, 1e-3f, ss, fwd);
                },
                {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE},
                {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT}, 1e-4f);
    }
}

TEST(GpuReduction, EveryAlgorithm) {
    SKIP_WITHOUT_GPU();
    const algorithm algs[] = {algorithm::reduction_max, algorithm::reduction_min,
            algorithm::reduction_sum, algorithm::reduction_mul, algorithm::reduction_mean,
            algorithm::reduction_norm_lp_max, algorithm::reduction_norm_lp_sum,
            algorithm::reduction_norm_lp_power_p_max, algorithm::reduction_norm_lp_power_p_sum};
    struct case_t {
        dims s, d;
        tag t;
    };
    const case_t cases[] = {{{3, 5, 7}, {3, 1, 7}, tag::abc}, {{3, 5, 7}, {1, 1, 1}, tag::abc},
            {{2, 32, 3, 5}, {2, 32, 1, 1}, tag::aBcd16b}, {{2, 19, 3, 5}, {2, 1, 3, 5}, tag::acdb},
            {{1, 3001}, {1, 1}, tag::ab}};
    for (const auto &c : cases)
        for (auto alg : algs)
            compare<reduction::primitive_desc>(
                    [&](const engine &e) {
                        return reduction::primitive_desc(
                                e, alg, md(c.s, c.t), md(c.d, c.t), 3.f, 0.25f);
                    },
                    {DNNL_ARG_SRC}, {DNNL_ARG_DST},
                    alg == algorithm::reduction_mul ? 1e-3f : 1e-4f);
}

TEST(GpuPooling, MaxAndAvgForwardAndBackward1d2d3d) {
    SKIP_WITHOUT_GPU();
    struct case_t {
        dims s, d, k, st, pl, pr, dl;
    };
    const case_t cases[] = {{{2, 3, 9}, {2, 3, 5}, {3}, {2}, {1}, {1}, {0}},
            {{2, 5, 7, 8}, {2, 5, 4, 4}, {3, 3}, {2, 2}, {1, 1}, {1, 0}, {0, 0}},
            {{1, 3, 6, 5}, {1, 3, 4, 3}, {2, 2}, {1, 2}, {0, 1}, {0, 0}, {1, 0}},
            {{1, 2, 4, 5, 4}, {1, 2, 3, 5, 2}, {2, 3, 2}, {2, 1, 2}, {1, 1, 0}, {1, 1, 0},
                    {0, 0, 0}}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::pooling_max, algorithm::pooling_avg_include_padding,
                     algorithm::pooling_avg_exclude_padding}) {
            const tag t = c.s.size() == 3 ? tag::acb : c.s.size() == 4 ? tag::acdb : tag::abcde;
            const auto sm = md(c.s, t), dm = md(c.d, t);
            auto make_fwd = [&](const engine &e) {
                return pooling_forward::primitive_desc(
                        e, prop_kind::forward_training, alg, sm, dm, c.st, c.k, c.dl, c.pl, c.pr);
            };
            const bool max = alg == algorithm::pooling_max;
            std::vector<int> out = {DNNL_ARG_DST};
            compare<pooling_forward::primitive_desc>(make_fwd, {DNNL_ARG_SRC}, out);
            // Backward on each engine from that engine's own forward workspace.
            engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
            std::vector<int> fout = {DNNL_ARG_DST};
            if (max) fout.push_back(DNNL_ARG_WORKSPACE);
            std::function<pooling_backward::primitive_desc(const engine &)> make_bwd =
                    [&](const engine &e) {
                        return pooling_backward::primitive_desc(
                                e, alg, sm, dm, c.st, c.k, c.dl, c.pl, c.pr, make_fwd(e));
                    };
            std::vector<int> bin = {DNNL_ARG_DIFF_DST};
            if (max) bin.push_back(DNNL_ARG_WORKSPACE);
            run_t fc = run_on<pooling_forward::primitive_desc>(cpu, make_fwd, {DNNL_ARG_SRC}, fout);
            run_t fg = run_on<pooling_forward::primitive_desc>(gpu, make_fwd, {DNNL_ARG_SRC}, fout);
            run_t bc = run_on(cpu, make_bwd, bin, {DNNL_ARG_DIFF_SRC}, fc.mem);
            run_t bg = run_on(gpu, make_bwd, bin, {DNNL_ARG_DIFF_SRC}, fg.mem);
            expect_close(bg.mem[DNNL_ARG_DIFF_SRC], bc.mem[DNNL_ARG_DIFF_SRC], 1e-5f, "diff_src");
        }
}

TEST(GpuResampling, NearestAndLinearForwardAndBackward) {
    SKIP_WITHOUT_GPU();
    struct case_t {
        dims s, d;
        tag t;
    };
    const case_t cases[] = {{{1, 3, 10}, {1, 3, 20}, tag::abc},
            {{2, 17, 5, 7}, {2, 17, 9, 4}, tag::acdb},
            {{1, 16, 3, 4, 5}, {1, 16, 5, 2, 9}, tag::aBcde16b}, {{1, 2, 6}, {1, 2, 11}, tag::abc}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::resampling_nearest, algorithm::resampling_linear}) {
            const auto sm = md(c.s, c.t), dm = md(c.d, c.t);
            compare<resampling_forward::primitive_desc>(
                    [&](const engine &e) {
                        return resampling_forward::primitive_desc(
                                e, prop_kind::forward_training, alg, sm, dm);
                    },
                    {DNNL_ARG_SRC}, {DNNL_ARG_DST});
            compare<resampling_backward::primitive_desc>(
                    [&](const engine &e) {
                        auto fwd = resampling_forward::primitive_desc(
                                e, prop_kind::forward_training, alg, sm, dm);
                        return resampling_backward::primitive_desc(e, alg, sm, dm, fwd);
                    },
                    {DNNL_ARG_DIFF_DST}, {DNNL_ARG_DIFF_SRC}, 1e-5f);
        }
}

TEST(GpuNorm, UnsupportedAttributesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    engine gpu(engine::kind::gpu, 0);
    const auto m = md({3, 40}, tag::ab);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 1 << 1); // scales take one value (mask 0) only
    try {
        softmax_forward::primitive_desc(
                gpu, prop_kind::forward_inference, algorithm::softmax_accurate, m, m, 1, attr);
        FAIL() << "per-channel scales were accepted";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}

} // namespace
