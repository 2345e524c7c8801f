// The bandwidth-shaped GPU kernels (ocl:bnorm:flat, ocl:softmax:rows_in_registers forward and
// backward, ocl:lnorm:rows_in_registers, vector eltwise, ocl:binary:bcast_vec, vector dense
// reorder, ocl:sum:dense, ocl:concat:rows, ocl:pooling:dense backward) against references
// written here, on whatever OpenCL device is present. ctest runs this binary with
// ANYDNN_GPU_TUNING set to a GPU's row of the tuning table (vectors, work-groups), so a CPU
// device such as PoCL takes the paths a GPU takes; each test checks which implementation ran.
// Edge shapes: size 1, odd widths, tails, zero sizes.
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "gnorm_reference.hpp"
#include "host_values.hpp"

namespace {

using namespace dnnl;
using namespace host_values;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;

// Deterministic values in [lo, lo + span) by element index.
std::vector<float> values(size_t n, float seed, float lo = -2.f, float span = 4.f) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = lo + span * (0.5f + 0.5f * std::sin(0.731f * float(i) + seed));
    return v;
}

std::vector<float> bf16_values(size_t n, float seed) {
    std::vector<float> v = values(n, seed);
    for (float &x : v)
        x = bf16_round(x);
    return v;
}

// Physical offset of (n, c, s) in NCHW (cl = false) or NHWC (cl = true), s the spatial index.
size_t nc_offset(bool cl, int64_t N, int64_t C, int64_t S, int64_t n, int64_t c, int64_t s) {
    (void)N;
    return size_t(cl ? (n * S + s) * C + c : (n * C + c) * S + s);
}

struct bn_case_t {
    dims d; // N, C, H, W
    bool channels_last;
};

const bn_case_t bn_cases[] = {{{2, 16, 5, 5}, false}, {{2, 16, 5, 5}, true},
        {{3, 5, 7, 3}, false}, {{3, 5, 7, 3}, true}, {{1, 1, 1, 1}, false},
        {{4, 32, 1, 1}, false}, {{4, 32, 1, 1}, true}, {{2, 20, 8, 8}, true},
        {{9, 3, 2, 2}, false}};

TEST(GpuBandwidth, BatchNormForwardTrainingStatisticsAndRelu) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &bc : bn_cases) {
        const int64_t N = bc.d[0], C = bc.d[1], S = bc.d[2] * bc.d[3];
        SCOPED_TRACE(std::to_string(N) + "x" + std::to_string(C) + "x" + std::to_string(S)
                     + (bc.channels_last ? " nhwc" : " nchw"));
        const memory::desc md(bc.d, dt::f32, bc.channels_last ? tag::nhwc : tag::nchw);
        const auto flags = normalization_flags::use_scale | normalization_flags::use_shift
                           | normalization_flags::fuse_norm_relu;
        batch_normalization_forward::primitive_desc pd(
                e, prop_kind::forward_training, md, md, 1e-3f, flags);
        expect_impl(pd, "ocl:bnorm:flat");
        // A large common offset makes the statistics' rounding visible.
        const std::vector<float> x = values(size_t(N * C * S), 0.3f, 50.f, 4.f);
        const std::vector<float> sc = values(size_t(C), 1.1f), sh = values(size_t(C), 2.2f);
        const memory::desc cmd({C}, dt::f32, tag::a);
        memory src = make(e, md, x), dst(md, e), mean(cmd, e), var(cmd, e);
        memory scale = make(e, cmd, sc), shift = make(e, cmd, sh);
        memory ws(pd.workspace_desc(), e);
        batch_normalization_forward(pd).execute(s,
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                        {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scale},
                        {DNNL_ARG_SHIFT, shift}, {DNNL_ARG_WORKSPACE, ws}});
        s.wait();
        std::vector<double> m(size_t(C), 0.0), v(size_t(C), 0.0), y(x.size());
        for (int64_t c = 0; c < C; ++c) {
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < S; ++k)
                    m[c] += x[nc_offset(bc.channels_last, N, C, S, n, c, k)];
            m[c] /= double(N * S);
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < S; ++k) {
                    const double d = x[nc_offset(bc.channels_last, N, C, S, n, c, k)] - m[c];
                    v[c] += d * d;
                }
            v[c] /= double(N * S);
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < S; ++k) {
                    const size_t o = nc_offset(bc.channels_last, N, C, S, n, c, k);
                    const double r = (x[o] - m[c]) / std::sqrt(v[c] + 1e-3) * sc[c] + sh[c];
                    y[o] = r > 0 ? r : 0;
                }
        }
        expect_near(read(mean), m, 1e-5, "mean");
        expect_near(read(var), v, 1e-3, "variance");
        expect_near(read(dst), y, 2e-3, "dst");
    }
}

TEST(GpuBandwidth, BatchNormInferenceGlobalStatistics) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &bc : bn_cases) {
        const int64_t N = bc.d[0], C = bc.d[1], S = bc.d[2] * bc.d[3];
        const memory::desc md(bc.d, dt::f32, bc.channels_last ? tag::nhwc : tag::nchw);
        batch_normalization_forward::primitive_desc pd(e, prop_kind::forward_inference, md, md,
                1e-5f, normalization_flags::use_global_stats | normalization_flags::use_scale);
        expect_impl(pd, "ocl:bnorm:flat");
        const std::vector<float> x = values(size_t(N * C * S), 0.5f);
        const std::vector<float> m = values(size_t(C), 0.9f), sc = values(size_t(C), 1.7f);
        const std::vector<float> v = values(size_t(C), 0.4f, 0.5f, 2.f);
        const memory::desc cmd({C}, dt::f32, tag::a);
        memory src = make(e, md, x), dst(md, e);
        batch_normalization_forward(pd).execute(s,
                {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, make(e, cmd, m)},
                        {DNNL_ARG_VARIANCE, make(e, cmd, v)},
                        {DNNL_ARG_SCALE, make(e, cmd, sc)}});
        s.wait();
        std::vector<double> y(x.size());
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t k = 0; k < S; ++k) {
                    const size_t o = nc_offset(bc.channels_last, N, C, S, n, c, k);
                    y[o] = (x[o] - m[c]) / std::sqrt(double(v[c]) + 1e-5) * sc[c];
                }
        expect_near(read(dst), y, 1e-5, "dst");
    }
}

TEST(GpuBandwidth, BatchNormBackwardDataScaleShift) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &bc : bn_cases) {
        const int64_t N = bc.d[0], C = bc.d[1], S = bc.d[2] * bc.d[3];
        SCOPED_TRACE(std::to_string(N) + "x" + std::to_string(C) + "x" + std::to_string(S)
                     + (bc.channels_last ? " nhwc" : " nchw"));
        const memory::desc md(bc.d, dt::f32, bc.channels_last ? tag::nhwc : tag::nchw);
        const auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
        batch_normalization_forward::primitive_desc fpd(
                e, prop_kind::forward_training, md, md, 1e-2f, flags);
        batch_normalization_backward::primitive_desc pd(
                e, prop_kind::backward, md, md, md, 1e-2f, flags, fpd);
        expect_impl(pd, "ocl:bnorm:flat");
        const std::vector<float> x = values(size_t(N * C * S), 0.2f);
        const std::vector<float> g = values(size_t(N * C * S), 1.3f);
        const std::vector<float> m = values(size_t(C), 0.6f, -0.5f, 1.f);
        const std::vector<float> v = values(size_t(C), 0.8f, 0.5f, 2.f);
        const std::vector<float> sc = values(size_t(C), 1.9f);
        const memory::desc cmd({C}, dt::f32, tag::a);
        memory ds(md, e), dsc(cmd, e), dsh(cmd, e);
        batch_normalization_backward(pd).execute(s,
                {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DIFF_DST, make(e, md, g)},
                        {DNNL_ARG_MEAN, make(e, cmd, m)}, {DNNL_ARG_VARIANCE, make(e, cmd, v)},
                        {DNNL_ARG_SCALE, make(e, cmd, sc)}, {DNNL_ARG_DIFF_SRC, ds},
                        {DNNL_ARG_DIFF_SCALE, dsc}, {DNNL_ARG_DIFF_SHIFT, dsh}});
        s.wait();
        std::vector<double> want_ds(x.size()), want_sc(static_cast<size_t>(C)), want_sh(static_cast<size_t>(C));
        for (int64_t c = 0; c < C; ++c) {
            const double inv = 1.0 / std::sqrt(double(v[c]) + 1e-2), cnt = double(N * S);
            double sg = 0, sgx = 0;
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < S; ++k) {
                    const size_t o = nc_offset(bc.channels_last, N, C, S, n, c, k);
                    sg += g[o];
                    sgx += g[o] * (x[o] - m[c]) * inv;
                }
            want_sc[c] = sgx;
            want_sh[c] = sg;
            for (int64_t n = 0; n < N; ++n)
                for (int64_t k = 0; k < S; ++k) {
                    const size_t o = nc_offset(bc.channels_last, N, C, S, n, c, k);
                    const double xh = (x[o] - m[c]) * inv;
                    want_ds[o] = sc[c] * inv * (g[o] - sg / cnt - xh * sgx / cnt);
                }
        }
        expect_near(read(dsc), want_sc, 1e-4, "diff_scale");
        expect_near(read(dsh), want_sh, 1e-4, "diff_shift");
        expect_near(read(ds), want_ds, 1e-4, "diff_src");
    }
}

TEST(GpuBandwidth, BatchNormZeroBatchWritesZeroStatistics) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const memory::desc md({0, 4, 3, 3}, dt::f32, tag::nchw), cmd({4}, dt::f32, tag::a);
    batch_normalization_forward::primitive_desc pd(
            e, prop_kind::forward_training, md, md, 1e-5f, normalization_flags::none);
    memory mean = make(e, cmd, {7, 7, 7, 7}), var = make(e, cmd, {7, 7, 7, 7});
    batch_normalization_forward(pd).execute(s,
            {{DNNL_ARG_SRC, memory(md, e)}, {DNNL_ARG_DST, memory(md, e)},
                    {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var}});
    s.wait();
    expect_near(read(mean), {0, 0, 0, 0}, 0, "mean");
    expect_near(read(var), {0, 0, 0, 0}, 0, "variance");
}

// Softmax and log-softmax over the last axis of each shape, by implementation `impl`,
// against a plain reference in double.
void check_softmax_rows(const std::vector<dims> &shapes, const char *impl) {
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &d : shapes)
        for (auto alg : {algorithm::softmax_accurate, algorithm::softmax_log}) {
            const int64_t C = d.back();
            int64_t rows = 1;
            for (size_t i = 0; i + 1 < d.size(); ++i)
                rows *= d[i];
            SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(C));
            const memory::desc md(d, dt::f32, d.size() == 2 ? tag::ab : tag::abc);
            softmax_forward::primitive_desc pd(
                    e, prop_kind::forward_inference, alg, md, md, int(d.size()) - 1);
            expect_impl(pd, impl);
            const std::vector<float> x = values(size_t(rows * C), 0.7f, -8.f, 16.f);
            memory dst(md, e);
            softmax_forward(pd).execute(s, {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}});
            s.wait();
            std::vector<double> y(x.size());
            for (int64_t r = 0; r < rows; ++r) {
                const float *p = x.data() + r * C;
                double mx = p[0], sum = 0;
                for (int64_t c = 0; c < C; ++c)
                    mx = std::max(mx, double(p[c]));
                for (int64_t c = 0; c < C; ++c)
                    sum += std::exp(p[c] - mx);
                for (int64_t c = 0; c < C; ++c)
                    y[size_t(r * C + c)] = alg == algorithm::softmax_log
                                                   ? p[c] - mx - std::log(sum)
                                                   : std::exp(p[c] - mx) / sum;
            }
            expect_near(read(dst), y, 1e-5, "dst");
        }
}

TEST(GpuBandwidth, SoftmaxRowsInRegistersAccurateAndLog) {
    SKIP_WITHOUT_GPU();
    check_softmax_rows({{7, 33}, {5, 1024}, {3, 4}, {1, 1}, {9, 1000}, {2, 3, 37}, {4, 2048}},
            "ocl:softmax:rows_in_registers");
}

// Wider than row_group_max x row_elems_max: read twice by a whole work-group, with 4-element
// loads (widths divisible by 4) or single ones, and rows that end in a partial pass.
TEST(GpuBandwidth, SoftmaxRowsStreamedAccurateAndLog) {
    SKIP_WITHOUT_GPU();
    check_softmax_rows({{2, 20480}, {3, 20003}, {1, 70001}}, "ocl:softmax:rows_streamed");
}

TEST(GpuBandwidth, SoftmaxZeroRowsRun) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const memory::desc empty({0, 64}, dt::f32, tag::ab);
    softmax_forward::primitive_desc pd(
            e, prop_kind::forward_inference, algorithm::softmax_accurate, empty, empty, 1);
    softmax_forward(pd).execute(s, {{DNNL_ARG_SRC, memory(empty, e)}, {DNNL_ARG_DST, memory(empty, e)}});
    s.wait();
}

// Group norm over dense NCHW with four-element loads: training writes dst and the
// statistics, including data far from zero (where sums of squares alone would cancel).
TEST(GpuBandwidth, GroupNormFlatTrainingFourPerLoad) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct case_t {
        dims d;
        int64_t groups;
        float lo;
    };
    for (const case_t &c : {case_t {{2, 8, 4, 6}, 4, -2.f}, case_t {{3, 6, 2, 2}, 3, 1000.f},
                 case_t {{1, 4, 1, 4}, 1, -2.f}}) {
        const int64_t N = c.d[0], C = c.d[1], SP = c.d[2] * c.d[3], G = c.groups;
        SCOPED_TRACE("N " + std::to_string(N) + " C " + std::to_string(C) + " groups "
                + std::to_string(G) + " from " + std::to_string(c.lo));
        const memory::desc md(c.d, dt::f32, tag::abcd), stat({N, G}, dt::f32, tag::ab),
                ch({C}, dt::f32, tag::a);
        group_normalization_forward::primitive_desc pd(e, prop_kind::forward_training, md, md,
                G, 1e-5f, normalization_flags::use_scale | normalization_flags::use_shift);
        expect_impl(pd, "ocl:gnorm:flat");
        const auto x = values(size_t(N * C * SP), 0.3f, c.lo, 4.f);
        const auto gamma = values(size_t(C), 1.1f, 0.5f, 1.f), beta = values(size_t(C), 2.f);
        memory dst(md, e), mean(stat, e), var(stat, e);
        group_normalization_forward(pd).execute(s, {{DNNL_ARG_SRC, make(e, md, x)},
                {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                {DNNL_ARG_SCALE, make(e, ch, gamma)}, {DNNL_ARG_SHIFT, make(e, ch, beta)}});
        s.wait();
        const gnorm_want_t w = gnorm_reference(x, N, C, SP, G, gamma, beta, 1e-5);
        expect_near(read(mean), w.mean, 1e-6, "mean");
        expect_near(read(var), w.variance, 1e-4, "variance");
        expect_near(read(dst), w.dst, 1e-4, "dst");
    }
}

TEST(GpuBandwidth, LayerNormAndRmsNormRowsInRegisters) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const dims shapes[] = {{7, 33}, {3, 1024}, {1, 1}, {5, 36}, {2, 3, 100}};
    for (const auto &d : shapes)
        for (bool rms : {false, true}) {
            const int64_t C = d.back();
            int64_t rows = 1;
            for (size_t i = 0; i + 1 < d.size(); ++i)
                rows *= d[i];
            SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(C)
                         + (rms ? " rms" : ""));
            const memory::desc md(d, dt::f32, d.size() == 2 ? tag::ab : tag::abc);
            dims sd(d.begin(), d.end() - 1);
            const memory::desc smd(sd, dt::f32, sd.size() == 1 ? tag::a : tag::ab);
            auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
            if (rms) flags = normalization_flags::use_scale | normalization_flags::rms_norm;
            layer_normalization_forward::primitive_desc pd(
                    e, prop_kind::forward_training, md, md, smd, 1e-4f, flags);
            expect_impl(pd, "ocl:lnorm:rows_in_registers");
            const std::vector<float> x = values(size_t(rows * C), 0.1f, 10.f, 4.f);
            const std::vector<float> sc = values(size_t(C), 2.5f), sh = values(size_t(C), 3.5f);
            const memory::desc cmd({C}, dt::f32, tag::a);
            memory dst(md, e), mean(smd, e), var(smd, e);
            layer_normalization_forward(pd).execute(s,
                    {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                            {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, make(e, cmd, sc)},
                            {DNNL_ARG_SHIFT, make(e, cmd, sh)}});
            s.wait();
            std::vector<double> y(x.size()), m(static_cast<size_t>(rows)), v(static_cast<size_t>(rows));
            for (int64_t r = 0; r < rows; ++r) {
                const float *p = x.data() + r * C;
                double mu = 0, q = 0;
                if (!rms) {
                    for (int64_t c = 0; c < C; ++c)
                        mu += p[c];
                    mu /= double(C);
                }
                for (int64_t c = 0; c < C; ++c)
                    q += (p[c] - mu) * (p[c] - mu);
                q /= double(C);
                m[size_t(r)] = mu;
                v[size_t(r)] = q;
                for (int64_t c = 0; c < C; ++c)
                    y[size_t(r * C + c)] = (p[c] - mu) / std::sqrt(q + 1e-4) * sc[c]
                                           + (rms ? 0.0 : double(sh[c]));
            }
            expect_near(read(dst), y, 1e-4, "dst");
            expect_near(read(var), v, 1e-4, "variance");
            if (!rms) expect_near(read(mean), m, 1e-5, "mean");
        }
}

TEST(GpuBandwidth, LayerNormBackwardRowsInRegisters) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const dims shapes[] = {{7, 33}, {3, 1024}, {1, 1}, {17, 64}, {0, 8}};
    for (const auto &d : shapes)
        for (bool rms : {false, true}) {
            const int64_t rows = d[0], C = d[1];
            SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(C)
                         + (rms ? " rms" : ""));
            const memory::desc md(d, dt::f32, tag::ab), smd({rows}, dt::f32, tag::a);
            auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
            if (rms) flags = normalization_flags::use_scale | normalization_flags::rms_norm;
            layer_normalization_forward::primitive_desc fpd(
                    e, prop_kind::forward_training, md, md, smd, 1e-3f, flags);
            layer_normalization_backward::primitive_desc pd(
                    e, prop_kind::backward, md, md, md, smd, 1e-3f, flags, fpd);
            expect_impl(pd, "ocl:lnorm:rows_in_registers");
            const std::vector<float> x = values(size_t(rows * C), 0.6f);
            const std::vector<float> g = values(size_t(rows * C), 1.6f);
            const std::vector<float> m = values(size_t(rows), 2.6f, -0.5f, 1.f);
            const std::vector<float> v = values(size_t(rows), 3.6f, 0.5f, 2.f);
            const std::vector<float> sc = values(size_t(C), 4.6f);
            const memory::desc cmd({C}, dt::f32, tag::a);
            memory ds(md, e), dsc(cmd, e), dsh(cmd, e);
            std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, make(e, md, x)},
                    {DNNL_ARG_DIFF_DST, make(e, md, g)}, {DNNL_ARG_VARIANCE, make(e, smd, v)},
                    {DNNL_ARG_SCALE, make(e, cmd, sc)}, {DNNL_ARG_DIFF_SRC, ds},
                    {DNNL_ARG_DIFF_SCALE, dsc}};
            if (!rms) {
                args[DNNL_ARG_MEAN] = make(e, smd, m);
                args[DNNL_ARG_DIFF_SHIFT] = dsh;
            }
            layer_normalization_backward(pd).execute(s, args);
            s.wait();
            std::vector<double> want_ds(x.size()), want_sc(static_cast<size_t>(C), 0.0),
                    want_sh(static_cast<size_t>(C), 0.0);
            for (int64_t r = 0; r < rows; ++r) {
                const double mu = rms ? 0.0 : m[size_t(r)];
                const double inv = 1.0 / std::sqrt(double(v[size_t(r)]) + 1e-3);
                double sg = 0, sgx = 0;
                for (int64_t c = 0; c < C; ++c) {
                    const size_t o = size_t(r * C + c);
                    const double xh = (x[o] - mu) * inv, gs = double(g[o]) * sc[size_t(c)];
                    sg += gs;
                    sgx += gs * xh;
                    want_sc[size_t(c)] += g[o] * xh;
                    want_sh[size_t(c)] += g[o];
                }
                if (rms) sg = 0;
                for (int64_t c = 0; c < C; ++c) {
                    const size_t o = size_t(r * C + c);
                    const double xh = (x[o] - mu) * inv, gs = double(g[o]) * sc[size_t(c)];
                    want_ds[o] = inv * (gs - sg / double(C) - xh * sgx / double(C));
                }
            }
            expect_near(read(ds), want_ds, 1e-4, "diff_src");
            expect_near(read(dsc), want_sc, 1e-4, "diff_scale");
            if (!rms) expect_near(read(dsh), want_sh, 1e-4, "diff_shift");
        }
}

TEST(GpuBandwidth, ReluFourPerWorkItemWithTails) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : {1, 3, 4, 7, 1027, 4096}) {
        const memory::desc md({n}, dt::f32, tag::a);
        eltwise_forward::primitive_desc pd(
                e, prop_kind::forward_inference, algorithm::eltwise_relu, md, md, 0.25f);
        const std::vector<float> x = values(size_t(n), 0.9f);
        memory dst(md, e);
        eltwise_forward(pd).execute(s, {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}});
        s.wait();
        std::vector<double> y(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            y[i] = x[i] > 0 ? x[i] : 0.25 * x[i];
        expect_near(read(dst), y, 0, "dst");
    }
}

TEST(GpuBandwidth, BinaryAddBroadcastBands) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct case_t {
        dims a, b;
        tag t;
    };
    const case_t cases[] = {{{2, 16, 5, 7}, {1, 16, 1, 1}, tag::nchw},
            {{2, 16, 5, 7}, {1, 16, 1, 1}, tag::nhwc}, {{2, 16, 5, 7}, {1, 1, 1, 1}, tag::nchw},
            {{2, 16, 5, 7}, {1, 1, 5, 7}, tag::nchw}, {{2, 16, 5, 7}, {2, 16, 5, 7}, tag::nchw},
            {{3, 5, 7, 9}, {3, 5, 1, 1}, tag::nchw}, {{1, 3, 1, 1}, {1, 3, 1, 1}, tag::nchw},
            {{2, 12, 4, 4}, {1, 12, 4, 4}, tag::nchw}};
    for (const auto &c : cases) {
        const memory::desc a(c.a, dt::f32, c.t), b(c.b, dt::f32, c.t);
        binary::primitive_desc pd(e, algorithm::binary_add, a, b, a);
        expect_impl(pd, "ocl:binary:bcast_vec");
        const int64_t n = c.a[0] * c.a[1] * c.a[2] * c.a[3];
        const int64_t nb = c.b[0] * c.b[1] * c.b[2] * c.b[3];
        const std::vector<float> x = values(size_t(n), 0.4f), y = values(size_t(nb), 1.4f);
        memory dst(a, e);
        binary(pd).execute(s, {{DNNL_ARG_SRC_0, make(e, a, x)}, {DNNL_ARG_SRC_1, make(e, b, y)},
                                      {DNNL_ARG_DST, dst}});
        s.wait();
        // Logical walk: physical offsets from each tensor's strides.
        const auto sa = a.get_strides(), sb = b.get_strides();
        std::vector<double> want(static_cast<size_t>(n));
        for (int64_t i0 = 0; i0 < c.a[0]; ++i0)
            for (int64_t i1 = 0; i1 < c.a[1]; ++i1)
                for (int64_t i2 = 0; i2 < c.a[2]; ++i2)
                    for (int64_t i3 = 0; i3 < c.a[3]; ++i3) {
                        const int64_t oa = i0 * sa[0] + i1 * sa[1] + i2 * sa[2] + i3 * sa[3];
                        const int64_t j[4] = {c.b[0] == 1 ? 0 : i0, c.b[1] == 1 ? 0 : i1,
                                c.b[2] == 1 ? 0 : i2, c.b[3] == 1 ? 0 : i3};
                        const int64_t ob = j[0] * sb[0] + j[1] * sb[1] + j[2] * sb[2] + j[3] * sb[3];
                        want[size_t(oa)] = double(x[size_t(oa)]) + y[size_t(ob)];
                    }
        expect_near(read(dst), want, 1e-6, "dst");
    }
}

TEST(GpuBandwidth, DenseReorderCopyAndTail) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : {1, 5, 8, 1027}) {
        const memory::desc md({n}, dt::f32, tag::a);
        const std::vector<float> x = values(size_t(n), 2.1f);
        memory src = make(e, md, x), dst(md, e);
        reorder(src, dst).execute(s, src, dst);
        s.wait();
        expect_near(read(dst), std::vector<double>(x.begin(), x.end()), 0, "dst");
    }
}

// bf16 takes several groups of four per work-item (the tuned run's item_bytes): sizes below,
// at and past a group, odd tails, and more elements than one group per work-item covers.
const int64_t group_sizes[] = {1, 3, 4, 7, 9, 33, 1027, 4099};

TEST(GpuBandwidth, ReluBf16GroupsWithTails) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : group_sizes) {
        const memory::desc md({n}, dt::bf16, tag::a);
        eltwise_forward::primitive_desc pd(
                e, prop_kind::forward_inference, algorithm::eltwise_relu, md, md, 0.5f);
        const std::vector<float> x = bf16_values(size_t(n), 0.3f);
        memory dst(md, e);
        eltwise_forward(pd).execute(
                s, {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}});
        s.wait();
        std::vector<double> y(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            y[i] = x[i] > 0 ? x[i] : 0.5 * x[i]; // exact in bf16: a power of two
        expect_near(read(dst), y, 0, "dst");
    }
}

TEST(GpuBandwidth, BinaryMulBf16GroupsWithTails) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : group_sizes) {
        const memory::desc a({n}, dt::bf16, tag::a), f({n}, dt::f32, tag::a);
        binary::primitive_desc pd(e, algorithm::binary_mul, a, a, f);
        expect_impl(pd, "ocl:binary:bcast_vec");
        const std::vector<float> x = bf16_values(size_t(n), 0.7f), y = bf16_values(size_t(n), 1.9f);
        memory dst(f, e);
        binary(pd).execute(s, {{DNNL_ARG_SRC_0, make(e, a, x)},
                                      {DNNL_ARG_SRC_1, make(e, a, y)}, {DNNL_ARG_DST, dst}});
        s.wait();
        std::vector<double> want(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            want[i] = double(x[i]) * y[i]; // exact in f32: two 8-bit mantissas
        expect_near(read(dst), want, 0, "dst");
    }
}

TEST(GpuBandwidth, DenseReorderBf16ToF32Groups) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : group_sizes) {
        const memory::desc sd({n}, dt::bf16, tag::a), dd({n}, dt::f32, tag::a);
        const std::vector<float> x = bf16_values(size_t(n), 2.6f);
        memory src = make(e, sd, x), dst(dd, e);
        reorder(src, dst).execute(s, src, dst);
        s.wait();
        expect_near(read(dst), std::vector<double>(x.begin(), x.end()), 0, "dst");
    }
}

TEST(GpuBandwidth, SumDenseGroupsWithTails) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t n : group_sizes) {
        const memory::desc a({n}, dt::bf16, tag::a), f({n}, dt::f32, tag::a);
        const std::vector<float> scales = {0.5f, -2.f, 0.25f};
        sum::primitive_desc pd(e, f, scales, {a, f, a});
        expect_impl(pd, "ocl:sum:dense");
        const std::vector<float> x = bf16_values(size_t(n), 0.1f), y = values(size_t(n), 3.3f),
                                 z = bf16_values(size_t(n), 5.2f);
        memory dst(f, e);
        sum(pd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, make(e, a, x)},
                                   {DNNL_ARG_MULTIPLE_SRC + 1, make(e, f, y)},
                                   {DNNL_ARG_MULTIPLE_SRC + 2, make(e, a, z)},
                                   {DNNL_ARG_DST, dst}});
        s.wait();
        std::vector<double> want(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            want[i] = 0.5 * x[i] - 2.0 * y[i] + 0.25 * z[i];
        expect_near(read(dst), want, 1e-6, "dst");
    }
}

TEST(GpuBandwidth, ConcatRowsGroups) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    // NCHW along channels: rows of C_i x 20 elements (multiples of 4: four-element groups),
    // and of C_i x 3 (one element per work-item); bf16 sources into f32.
    for (int64_t hw : {20, 3})
        for (int64_t n : {1, 3}) {
            const dims d0 = {n, 3, hw, 1}, d1 = {n, 5, hw, 1}, dd = {n, 8, hw, 1};
            const memory::desc a(d0, dt::bf16, tag::nchw), b(d1, dt::bf16, tag::nchw),
                    dst_md(dd, dt::f32, tag::nchw);
            concat::primitive_desc pd(e, dst_md, 1, {a, b});
            expect_impl(pd, "ocl:concat:rows");
            const std::vector<float> x = bf16_values(size_t(n * 3 * hw), 0.2f),
                                     y = bf16_values(size_t(n * 5 * hw), 4.4f);
            memory dst(dst_md, e);
            concat(pd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, make(e, a, x)},
                                          {DNNL_ARG_MULTIPLE_SRC + 1, make(e, b, y)},
                                          {DNNL_ARG_DST, dst}});
            s.wait();
            std::vector<double> want;
            for (int64_t i = 0; i < n; ++i) {
                want.insert(want.end(), x.begin() + i * 3 * hw, x.begin() + (i + 1) * 3 * hw);
                want.insert(want.end(), y.begin() + i * 5 * hw, y.begin() + (i + 1) * 5 * hw);
            }
            expect_near(read(dst), want, 0, "dst");
        }
}

// f32 to bf16 rounded to nearest even, as a bf16 store does (the inputs here are finite).
double round_bf16(double v) {
    const float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    float r;
    std::memcpy(&r, &u, sizeof(r));
    return r;
}

// bf16 on every tensor: groups of eight elements in one 16-byte access where the run's
// access_bytes is 16 (the second ctest run), of four otherwise. src1 broadcast bands whose
// group width differs: a per-channel value shared by 8 (width 8), by 20 (four only), a run
// of 24 or 12 along dst (width 8 / four only), one value, and a run of 35 (per element).
TEST(GpuBandwidth, BinaryAddBf16Bands) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct band_t {
        dims d0, d1;
    };
    const band_t cases[] = {{{4099}, {4099}}, {{7}, {7}}, {{3, 5, 8}, {1, 5, 1}},
            {{3, 5, 20}, {1, 5, 1}}, {{5, 24}, {1, 24}}, {{5, 12}, {1, 12}}, {{9, 9}, {1, 1}},
            {{3, 5, 7}, {1, 5, 7}}};
    for (const auto &c : cases) {
        const tag t = c.d0.size() == 1 ? tag::a : c.d0.size() == 2 ? tag::ab : tag::abc;
        const memory::desc a(c.d0, dt::bf16, t), b(c.d1, dt::bf16, t);
        binary::primitive_desc pd(e, algorithm::binary_add, a, b, a);
        expect_impl(pd, "ocl:binary:bcast_vec");
        const int64_t n = int64_t(a.get_size() / 2), n1 = int64_t(b.get_size() / 2);
        SCOPED_TRACE(std::to_string(n) + " + " + std::to_string(n1));
        const std::vector<float> x = bf16_values(size_t(n), 0.7f), y = bf16_values(size_t(n1), 1.9f);
        memory dst(a, e);
        binary(pd).execute(s, {{DNNL_ARG_SRC_0, make(e, a, x)},
                                      {DNNL_ARG_SRC_1, make(e, b, y)}, {DNNL_ARG_DST, dst}});
        s.wait();
        // src1's index of dst element i: each dimension's index, 0 where src1's is 1.
        std::vector<double> want(x.size());
        for (int64_t i = 0; i < n; ++i) {
            int64_t rest = i, j = 0, stride0 = n, stride1 = n1;
            for (size_t k = 0; k < c.d0.size(); ++k) {
                stride0 /= c.d0[k];
                stride1 /= c.d1[k];
                const int64_t idx = rest / stride0;
                rest %= stride0;
                if (c.d1[k] != 1) j += idx * stride1;
            }
            want[size_t(i)] = round_bf16(double(x[size_t(i)]) + y[size_t(j)]);
        }
        expect_near(read(dst), want, 0, "dst");
    }
}

// bf16 rows forward, layer norm and RMS norm: widths of eight-element groups (8, 24, 1024),
// of four only (36) and of one (33); statistics against a double reference.
TEST(GpuBandwidth, LayerNormAndRmsNormBf16Rows) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t C : {8, 24, 1024, 36, 33})
        for (bool rms : {false, true}) {
            const int64_t rows = 5;
            SCOPED_TRACE(std::to_string(C) + (rms ? " rms" : ""));
            const memory::desc md({rows, C}, dt::bf16, tag::ab), smd({rows}, dt::f32, tag::a),
                    cmd({C}, dt::f32, tag::a);
            auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
            if (rms) flags = normalization_flags::use_scale | normalization_flags::rms_norm;
            layer_normalization_forward::primitive_desc pd(
                    e, prop_kind::forward_training, md, md, smd, 1e-4f, flags);
            expect_impl(pd, "ocl:lnorm:rows_in_registers");
            const std::vector<float> x = bf16_values(size_t(rows * C), 0.4f);
            const std::vector<float> sc = values(size_t(C), 2.5f), sh = values(size_t(C), 3.5f);
            memory dst(md, e), mean(smd, e), var(smd, e);
            layer_normalization_forward(pd).execute(s,
                    {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst},
                            {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                            {DNNL_ARG_SCALE, make(e, cmd, sc)}, {DNNL_ARG_SHIFT, make(e, cmd, sh)}});
            s.wait();
            std::vector<double> y(x.size()), v(static_cast<size_t>(rows)),
                    m(static_cast<size_t>(rows));
            for (int64_t r = 0; r < rows; ++r) {
                const float *p = x.data() + r * C;
                double mu = 0, q = 0;
                for (int64_t c = 0; c < C && !rms; ++c)
                    mu += p[c] / double(C);
                for (int64_t c = 0; c < C; ++c)
                    q += (p[c] - mu) * (p[c] - mu) / double(C);
                m[size_t(r)] = mu;
                v[size_t(r)] = q;
                for (int64_t c = 0; c < C; ++c)
                    y[size_t(r * C + c)] = (p[c] - mu) / std::sqrt(q + 1e-4) * sc[c]
                                           + (rms ? 0.0 : double(sh[c]));
            }
            expect_near(read(dst), y, 1e-2, "dst"); // bf16: 8-bit mantissa
            expect_near(read(var), v, 1e-5, "variance");
            if (!rms) expect_near(read(mean), m, 1e-5, "mean");
        }
}

// Softmax backward over dense rows: dst a softmax-like row (accurate: in [0, 2/C); log: in
// [-8, 0)), diff_dst in [-2, 2); rows kept in registers (two arrays: half the forward's
// width) and rows wider than that streamed. Tolerance: f32 roundings of the row's sum.
TEST(GpuBandwidth, SoftmaxBackwardRows) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const struct {
        dims d;
        const char *impl;
    } cases[] = {{{7, 33}, "ocl:softmax:rows_in_registers"},
            {{5, 1024}, "ocl:softmax:rows_in_registers"}, {{1, 1}, "ocl:softmax:rows_in_registers"},
            {{2, 3, 37}, "ocl:softmax:rows_in_registers"},
            {{3, 20003}, "ocl:softmax:rows_streamed"}, {{2, 20480}, "ocl:softmax:rows_streamed"}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::softmax_accurate, algorithm::softmax_log}) {
            const bool log = alg == algorithm::softmax_log;
            const int64_t C = c.d.back();
            const int64_t rows = int64_t(std::accumulate(c.d.begin(), c.d.end() - 1, int64_t(1),
                    std::multiplies<int64_t>()));
            SCOPED_TRACE(std::to_string(rows) + " rows of " + std::to_string(C)
                         + (log ? " log" : ""));
            const memory::desc md(c.d, dt::f32, c.d.size() == 2 ? tag::ab : tag::abc);
            const int axis = int(c.d.size()) - 1;
            softmax_forward::primitive_desc fpd(e, prop_kind::forward_training, alg, md, md, axis);
            softmax_backward::primitive_desc pd(e, alg, md, md, md, axis, fpd);
            expect_impl(pd, c.impl);
            const std::vector<float> y = log ? values(size_t(rows * C), 0.3f, -8.f, 8.f)
                                             : values(size_t(rows * C), 0.3f, 0.f, 2.f / float(C));
            const std::vector<float> g = values(size_t(rows * C), 1.1f);
            memory ds(md, e);
            softmax_backward(pd).execute(s, {{DNNL_ARG_DST, make(e, md, y)},
                                                    {DNNL_ARG_DIFF_DST, make(e, md, g)},
                                                    {DNNL_ARG_DIFF_SRC, ds}});
            s.wait();
            const std::vector<float> got = read(ds);
            for (int64_t r = 0; r < rows; ++r) {
                double sum = 0, mag = 0;
                for (int64_t k = r * C; k < (r + 1) * C; ++k) {
                    const double t = log ? double(g[size_t(k)]) : double(g[size_t(k)]) * y[size_t(k)];
                    sum += t;
                    mag += std::fabs(t);
                }
                for (int64_t k = r * C; k < (r + 1) * C; ++k) {
                    const double yk = y[size_t(k)], gk = g[size_t(k)];
                    const double want = log ? gk - std::exp(yk) * sum : yk * (gk - sum);
                    const double scale = log ? std::fabs(gk) + std::exp(yk) * mag
                                             : std::fabs(yk) * (std::fabs(gk) + mag);
                    ASSERT_NEAR(got[size_t(k)], want, 1e-5 * scale + 1e-30) << "at " << k;
                }
            }
        }
}

// Pooling backward over dense NCHW / NHWC (and 1D, 3D NCDHW) with the sizes built into the
// kernel: max through the forward's workspace (distinct src values: one argmax a window, the
// first tap's), average with and without padding; strides, dilation, asymmetric padding.
TEST(GpuBandwidth, PoolingBackwardDense) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct case_t {
        dims src, k, st, dl, pl, pr;
        bool cl;
    };
    const case_t cases[] = {{{2, 19, 9, 9}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}, false},
            {{2, 19, 9, 9}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}, true},
            {{1, 3, 7, 6}, {2, 2}, {1, 2}, {1, 0}, {0, 1}, {1, 0}, true},
            {{2, 3, 7}, {3}, {1}, {0}, {1}, {1}, false},
            {{1, 2, 4, 5, 4}, {2, 3, 2}, {2, 1, 2}, {0, 0, 0}, {1, 1, 0}, {1, 1, 0}, false}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::pooling_max, algorithm::pooling_avg_include_padding,
                     algorithm::pooling_avg_exclude_padding}) {
            const size_t ns = c.k.size();
            dims dd = {c.src[0], c.src[1]};
            for (size_t i = 0; i < ns; ++i)
                dd.push_back((c.src[2 + i] + c.pl[i] + c.pr[i] - ((c.k[i] - 1) * (c.dl[i] + 1) + 1))
                                / c.st[i]
                        + 1);
            const tag t = ns == 1 ? (c.cl ? tag::acb : tag::abc)
                    : ns == 2     ? (c.cl ? tag::acdb : tag::abcd)
                                  : tag::abcde;
            SCOPED_TRACE(std::to_string(ns) + "D" + (c.cl ? " channels last " : " ")
                         + std::to_string(int(alg)));
            const memory::desc sm(c.src, dt::f32, t), dm(dd, dt::f32, t);
            pooling_forward::primitive_desc fpd(e, prop_kind::forward_training, alg, sm, dm, c.st,
                    c.k, c.dl, c.pl, c.pr);
            pooling_backward::primitive_desc pd(e, alg, sm, dm, c.st, c.k, c.dl, c.pl, c.pr, fpd);
            expect_impl(pd, "ocl:pooling:dense");
            const bool max = alg == algorithm::pooling_max;
            const int64_t n_src = int64_t(sm.get_size() / 4), n_dst = int64_t(dm.get_size() / 4);
            // Values by logical index (the references walk logical positions).
            std::vector<float> x(static_cast<size_t>(n_src)), g = values(size_t(n_dst), 0.9f);
            for (int64_t i = 0; i < n_src; ++i)
                x[size_t(i)] = float((i * 7919) % n_src - n_src / 2) * 0.25f;
            // Physical offset of a logical (n, c, spatial...) position of dims `d`.
            auto offset = [&](const dims &d, const int64_t *pos) {
                int64_t off = 0;
                if (c.cl) {
                    off = pos[0];
                    for (size_t i = 0; i < ns; ++i)
                        off = off * d[2 + i] + pos[2 + i];
                    return off * d[1] + pos[1];
                }
                for (size_t i = 0; i < d.size(); ++i)
                    off = off * d[i] + pos[i];
                return off;
            };
            auto logical = [&](const dims &d, int64_t i, int64_t *pos) {
                for (int k = int(d.size()) - 1; k >= 0; --k) {
                    pos[k] = i % d[size_t(k)];
                    i /= d[size_t(k)];
                }
            };
            std::vector<float> xp(x.size()), gp(g.size());
            int64_t pos[5], sp[5];
            for (int64_t i = 0; i < n_src; ++i) {
                logical(c.src, i, pos);
                xp[size_t(offset(c.src, pos))] = x[size_t(i)];
            }
            for (int64_t i = 0; i < n_dst; ++i) {
                logical(dd, i, pos);
                gp[size_t(offset(dd, pos))] = g[size_t(i)];
            }
            memory src = make(e, sm, xp), dst(dm, e), ds(sm, e);
            std::unordered_map<int, memory> fargs = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
            std::unordered_map<int, memory> bargs
                    = {{DNNL_ARG_DIFF_DST, make(e, dm, gp)}, {DNNL_ARG_DIFF_SRC, ds}};
            if (max) {
                memory ws(fpd.workspace_desc(), e);
                fargs[DNNL_ARG_WORKSPACE] = ws;
                bargs[DNNL_ARG_WORKSPACE] = ws;
            }
            pooling_forward(fpd).execute(s, fargs);
            pooling_backward(pd).execute(s, bargs);
            s.wait();
            // Each diff_dst element to its window's argmax, or spread over the taps inside
            // (exclude) or the whole kernel (include).
            std::vector<double> want(size_t(n_src), 0.0);
            for (int64_t o = 0; o < n_dst; ++o) {
                logical(dd, o, pos);
                std::vector<int64_t> taps;
                int64_t ksize = 1;
                for (size_t i = 0; i < ns; ++i)
                    ksize *= c.k[i];
                for (int64_t tap = 0; tap < ksize; ++tap) {
                    int64_t r = tap;
                    bool in = true;
                    sp[0] = pos[0];
                    sp[1] = pos[1];
                    for (int i = int(ns) - 1; i >= 0; --i) {
                        const int64_t kk = r % c.k[size_t(i)];
                        r /= c.k[size_t(i)];
                        sp[2 + i] = pos[2 + i] * c.st[size_t(i)] - c.pl[size_t(i)]
                                + kk * (c.dl[size_t(i)] + 1);
                        in = in && sp[2 + i] >= 0 && sp[2 + i] < c.src[2 + size_t(i)];
                    }
                    if (!in) continue;
                    int64_t li = 0;
                    for (size_t k = 0; k < c.src.size(); ++k)
                        li = li * c.src[k] + sp[k];
                    taps.push_back(li);
                }
                if (taps.empty()) continue;
                if (max) {
                    int64_t best = taps[0];
                    for (int64_t li : taps)
                        if (x[size_t(li)] > x[size_t(best)]) best = li;
                    want[size_t(best)] += g[size_t(o)];
                    continue;
                }
                const double share = g[size_t(o)]
                        / double(alg == algorithm::pooling_avg_include_padding ? ksize
                                                                              : int64_t(taps.size()));
                for (int64_t li : taps)
                    want[size_t(li)] += share;
            }
            const std::vector<float> got = read(ds);
            for (int64_t i = 0; i < n_src; ++i) {
                logical(c.src, i, pos);
                ASSERT_NEAR(got[size_t(offset(c.src, pos))], want[size_t(i)],
                        1e-5 * std::max(1.0, std::fabs(want[size_t(i)])))
                        << "at " << i;
            }
        }
}

} // namespace
