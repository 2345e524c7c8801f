// The dense reduction-shaped GPU kernels (ocl:reduction:dense, ocl:softmax:axis_columns,
// ocl:prelu:dense) against references written here, in double: every reduction algorithm,
// softmax and logsoftmax forward and backward along a non-innermost axis, PReLU forward and
// backward (per-channel, scalar, full-tensor weights), f32/bf16/f16, NCHW and NHWC, odd sizes,
// size 1, tails; zero-size tensors go to the generic kernels. ctest runs it with the GPU rows
// of the tuning table (and with work-group reductions forced) as well as with a CPU's.
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;

#define SKIP_WITHOUT_GPU() \
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no OpenCL device"

uint16_t f32_to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
}
float bf16_to_f32(uint16_t h) {
    const uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
// Normal and zero values only (the tests' values stay in f16's normal range).
uint16_t f32_to_f16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const int e = int((u >> 23) & 0xff) - 127 + 15;
    if (e <= 0) return uint16_t(sign);
    uint32_t m = u & 0x7fffffu;
    uint32_t h = (uint32_t(e) << 10) | (m >> 13);
    const uint32_t rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return uint16_t(sign | h);
}
float f16_to_f32(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const int e = (h >> 10) & 0x1f;
    const uint32_t m = h & 0x3ffu;
    uint32_t u = sign;
    if (e) u |= (uint32_t(e - 15 + 127) << 23) | (m << 13);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// v as the type holds it.
float as_type(float v, dt t) {
    if (t == dt::bf16) return bf16_to_f32(f32_to_bf16(v));
    if (t == dt::f16) return f16_to_f32(f32_to_f16(v));
    return v;
}

double tolerance(dt t) { return t == dt::f32 ? 2e-5 : t == dt::bf16 ? 1.6e-2 : 2e-3; }

int64_t count(const dims &d) {
    int64_t n = 1;
    for (auto v : d)
        n *= v;
    return n;
}

// Physical offset of logical element i (row-major over d) in md.
int64_t offset_of(const memory::desc &md, const dims &d, int64_t i) {
    const dims st = md.get_strides();
    int64_t off = 0;
    for (int k = int(d.size()) - 1; k >= 0; --k) {
        off += (i % d[size_t(k)]) * st[size_t(k)];
        i /= d[size_t(k)];
    }
    return off;
}

// Memory of md on e holding logical values v (converted to md's type).
memory make(const engine &e, const memory::desc &md, const std::vector<float> &v) {
    memory m(md, e);
    const dims d = md.get_dims();
    if (md.get_size() == 0) return m;
    void *p = m.map_data();
    for (int64_t i = 0; i < count(d); ++i) {
        const int64_t o = offset_of(md, d, i);
        const float x = v[size_t(i)];
        if (md.get_data_type() == dt::f32) static_cast<float *>(p)[o] = x;
        else if (md.get_data_type() == dt::bf16) static_cast<uint16_t *>(p)[o] = f32_to_bf16(x);
        else static_cast<uint16_t *>(p)[o] = f32_to_f16(x);
    }
    m.unmap_data(p);
    return m;
}

std::vector<float> fetch(const memory &m) {
    const memory::desc md = m.get_desc();
    const dims d = md.get_dims();
    std::vector<float> v(size_t(count(d)));
    if (v.empty()) return v;
    void *p = m.map_data();
    for (int64_t i = 0; i < count(d); ++i) {
        const int64_t o = offset_of(md, d, i);
        if (md.get_data_type() == dt::f32) v[size_t(i)] = static_cast<float *>(p)[o];
        else if (md.get_data_type() == dt::bf16)
            v[size_t(i)] = bf16_to_f32(static_cast<uint16_t *>(p)[o]);
        else v[size_t(i)] = f16_to_f32(static_cast<uint16_t *>(p)[o]);
    }
    m.unmap_data(p);
    return v;
}

// Values in [lo, lo + span), as type t holds them.
std::vector<float> values(int64_t n, float seed, dt t, float lo = -2.f, float span = 4.f) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        v[size_t(i)] = as_type(lo + span * (0.5f + 0.5f * std::sin(0.731f * float(i) + seed)), t);
    return v;
}

void expect_near(const std::vector<float> &got, const std::vector<double> &want, double tol,
        const std::string &what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isinf(want[i])) {
            ASSERT_EQ(double(got[i]), want[i]) << what << " at " << i;
            continue;
        }
        ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
                << what << " at " << i << " of " << got.size();
    }
}

template <typename PD>
void expect_impl(const PD &pd, const char *name) {
    EXPECT_EQ(std::string(pd.impl_info_str()), name);
}

tag plain_tag(size_t ndims, bool channels_last) {
    if (ndims == 4) return channels_last ? tag::acdb : tag::abcd;
    if (ndims == 3) return channels_last ? tag::acb : tag::abc;
    if (ndims == 2) return tag::ab;
    return tag::a;
}

// ---- reduction --------------------------------------------------------------------------

struct red_alg_t {
    algorithm alg;
    float p;
};

const std::vector<red_alg_t> red_algs = {{algorithm::reduction_max, 0.f}, {algorithm::reduction_min, 0.f},
        {algorithm::reduction_sum, 0.f}, {algorithm::reduction_mul, 0.f},
        {algorithm::reduction_mean, 0.f}, {algorithm::reduction_norm_lp_max, 1.f},
        {algorithm::reduction_norm_lp_sum, 2.f}, {algorithm::reduction_norm_lp_power_p_max, 3.f},
        {algorithm::reduction_norm_lp_power_p_sum, 2.f}, {algorithm::reduction_norm_lp_sum, 3.f}};

// The reference: dst[j] over the src elements whose kept coordinates are j's.
std::vector<double> reduce_ref(const std::vector<float> &x, const dims &sd, const dims &dd,
        red_alg_t a, float eps) {
    std::vector<double> acc(size_t(count(dd)));
    const bool is_max = a.alg == algorithm::reduction_max, is_min = a.alg == algorithm::reduction_min,
               is_mul = a.alg == algorithm::reduction_mul;
    for (auto &v : acc)
        v = is_max ? -INFINITY : is_min ? INFINITY : is_mul ? 1.0 : 0.0;
    const int64_t R = count(sd) / std::max<int64_t>(count(dd), 1);
    for (int64_t i = 0; i < count(sd); ++i) {
        int64_t t = i, j = 0, stride = 1;
        for (int k = int(sd.size()) - 1; k >= 0; --k) {
            const int64_t c = t % sd[size_t(k)];
            t /= sd[size_t(k)];
            if (dd[size_t(k)] != 1) j += c * stride;
            stride *= dd[size_t(k)];
        }
        const double v = x[size_t(i)];
        double &r = acc[size_t(j)];
        if (is_max) r = std::max(r, v);
        else if (is_min) r = std::min(r, v);
        else if (is_mul) r *= v;
        else if (a.alg == algorithm::reduction_sum || a.alg == algorithm::reduction_mean) r += v;
        else r += std::pow(std::fabs(v), double(a.p));
    }
    for (auto &r : acc) {
        switch (a.alg) {
            case algorithm::reduction_mean: r /= double(R); break;
            case algorithm::reduction_norm_lp_max: r = std::pow(std::max(r, double(eps)), 1.0 / a.p); break;
            case algorithm::reduction_norm_lp_sum: r = std::pow(r + eps, 1.0 / a.p); break;
            case algorithm::reduction_norm_lp_power_p_max: r = std::max(r, double(eps)); break;
            case algorithm::reduction_norm_lp_power_p_sum: r += eps; break;
            default: break;
        }
    }
    return acc;
}

struct red_case_t {
    dims src, dst;
    bool channels_last;
};

void check_reduction(const std::vector<red_case_t> &cases, const std::vector<red_alg_t> &algs,
        dt t, const char *impl) {
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &c : cases)
        for (const auto &a : algs) {
            SCOPED_TRACE("alg " + std::to_string(int(a.alg)) + " p " + std::to_string(a.p)
                    + " src " + std::to_string(count(c.src)) + " dst "
                    + std::to_string(count(c.dst)) + (c.channels_last ? " nhwc" : ""));
            const memory::desc smd(c.src, t, plain_tag(c.src.size(), c.channels_last));
            const memory::desc dmd(c.dst, t, plain_tag(c.dst.size(), c.channels_last));
            const float eps = 0.25f;
            reduction::primitive_desc pd(e, a.alg, smd, dmd, a.p, eps);
            expect_impl(pd, impl);
            // mul: values near 1, so that products of many stay finite.
            const bool mul = a.alg == algorithm::reduction_mul;
            const std::vector<float> x
                    = values(count(c.src), 0.3f, t, mul ? 0.9f : -2.f, mul ? 0.2f : 4.f);
            memory dst(dmd, e);
            reduction(pd).execute(s, {{DNNL_ARG_SRC, make(e, smd, x)}, {DNNL_ARG_DST, dst}});
            s.wait();
            std::vector<double> want = reduce_ref(x, c.src, c.dst, a, eps);
            for (auto &w : want)
                w = as_type(float(w), t);
            expect_near(fetch(dst), want, tolerance(t) * 2, "dst");
        }
}

const std::vector<red_case_t> red_cases = {
        {{7, 37}, {7, 1}, false}, // innermost axis, odd
        {{3, 1000}, {3, 1}, false}, // innermost axis, rows with tails
        {{2, 3, 4099}, {2, 3, 1}, false},
        {{1, 1}, {1, 1}, false}, // one element
        {{5, 1}, {5, 1}, false}, // nothing reduced
        {{2, 3, 517}, {1, 1, 1}, false}, // everything
        {{3, 5, 7, 9}, {1, 5, 1, 1}, false}, // NCHW -> 1C11
        {{2, 3, 33, 40}, {1, 3, 1, 1}, false},
        {{3, 5, 7, 9}, {1, 5, 1, 1}, true}, // NHWC -> 1C11: columns
        {{4, 8, 6, 5}, {1, 8, 1, 1}, true},
        {{4, 6, 130}, {1, 6, 130}, false}, // the outermost axis only
        {{9, 4, 12}, {1, 4, 1}, false},
        {{4, 6, 130}, {4, 1, 130}, false}, // a middle axis: kept dims in two runs
        {{2, 3, 5, 300}, {2, 1, 5, 1}, false}, // two runs, rows
        {{3, 5, 7, 9}, {3, 5, 1, 1}, true}, // NHWC spatial: N and C kept
        {{20, 3, 9}, {1, 3, 1}, false}}; // columns of short rows: partials per column

// Every algorithm on a row walk, a column walk and a two-run split; every shape with sum and
// max (each distinct program costs a compile on PoCL).
const std::vector<red_case_t> red_alg_cases = {{{7, 37}, {7, 1}, false},
        {{3, 5, 7, 9}, {1, 5, 1, 1}, true}, {{20, 3, 9}, {1, 3, 1}, false},
        {{4, 6, 130}, {4, 1, 130}, false}};
const std::vector<red_alg_t> red_sum_max
        = {{algorithm::reduction_sum, 0.f}, {algorithm::reduction_max, 0.f}};

TEST(GpuBandwidthReduce, ReductionDenseEveryAlgF32) {
    SKIP_WITHOUT_GPU();
    check_reduction(red_alg_cases, red_algs, dt::f32, "ocl:reduction:dense");
    check_reduction(red_cases, red_sum_max, dt::f32, "ocl:reduction:dense");
}

TEST(GpuBandwidthReduce, ReductionDenseEveryAlgBf16) {
    SKIP_WITHOUT_GPU();
    check_reduction({red_alg_cases[1]}, red_algs, dt::bf16, "ocl:reduction:dense");
    check_reduction(red_cases, red_sum_max, dt::bf16, "ocl:reduction:dense");
}

TEST(GpuBandwidthReduce, ReductionDenseF16) {
    SKIP_WITHOUT_GPU();
    check_reduction({{{7, 37}, {7, 1}, false}, {{3, 5, 7, 9}, {1, 5, 1, 1}, false},
                            {{4, 8, 6, 5}, {1, 8, 1, 1}, true}, {{2, 3, 517}, {1, 1, 1}, false}},
            {{algorithm::reduction_mean, 0.f}, {algorithm::reduction_min, 0.f}}, dt::f16,
            "ocl:reduction:dense");
}

// Large enough that rows are cut into slices along R1 and along R2.
TEST(GpuBandwidthReduce, ReductionDenseSlicedSum) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const red_case_t &c : std::vector<red_case_t> {{{1, 200003}, {1, 1}, false},
                 {{5, 2, 33001}, {1, 2, 1}, false}, {{3001, 17}, {1, 17}, false}}) {
        const memory::desc smd(c.src, dt::f32, plain_tag(c.src.size(), false));
        const memory::desc dmd(c.dst, dt::f32, plain_tag(c.dst.size(), false));
        reduction::primitive_desc pd(e, algorithm::reduction_sum, smd, dmd, 0.f, 0.f);
        expect_impl(pd, "ocl:reduction:dense");
        const std::vector<float> x = values(count(c.src), 1.1f, dt::f32);
        memory dst(dmd, e);
        reduction(pd).execute(s, {{DNNL_ARG_SRC, make(e, smd, x)}, {DNNL_ARG_DST, dst}});
        s.wait();
        expect_near(fetch(dst), reduce_ref(x, c.src, c.dst, {algorithm::reduction_sum, 0.f}, 0.f),
                1e-4, "dst");
    }
}

TEST(GpuBandwidthReduce, ReductionDensePostOps) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const dims sd = {3, 5, 7, 9}, dd = {1, 5, 1, 1};
    const memory::desc smd(sd, dt::f32, tag::abcd), dmd(dd, dt::f32, tag::abcd);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 0.5f, -1.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    reduction::primitive_desc pd(e, algorithm::reduction_mean, smd, dmd, 0.f, 0.f, attr);
    expect_impl(pd, "ocl:reduction:dense");
    const std::vector<float> x = values(count(sd), 2.f, dt::f32);
    memory dst(dmd, e);
    reduction(pd).execute(s, {{DNNL_ARG_SRC, make(e, smd, x)}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<double> want = reduce_ref(x, sd, dd, {algorithm::reduction_mean, 0.f}, 0.f);
    for (auto &w : want)
        w = 0.5 * w - 1.0;
    expect_near(fetch(dst), want, 1e-5, "dst");
}

// Zero-size src: the generic kernel, each dst element the empty reduction's value.
TEST(GpuBandwidthReduce, ReductionZeroSizeTakesGeneric) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const memory::desc smd({0, 6}, dt::f32, tag::ab), dmd({1, 6}, dt::f32, tag::ab);
    reduction::primitive_desc pd(e, algorithm::reduction_sum, smd, dmd, 0.f, 0.f);
    expect_impl(pd, "ocl:reduction:groups");
    memory dst = make(e, dmd, std::vector<float>(6, 7.f));
    reduction(pd).execute(s, {{DNNL_ARG_SRC, memory(smd, e)}, {DNNL_ARG_DST, dst}});
    s.wait();
    expect_near(fetch(dst), std::vector<double>(6, 0.0), 0, "dst");
}

// ---- softmax along a non-innermost axis ------------------------------------------------

struct sm_case_t {
    dims d;
    int axis;
    bool channels_last;
};

const std::vector<sm_case_t> sm_cases = {{{2, 5, 3, 7}, 1, false}, // inner 21: single loads
        {{3, 17, 8, 8}, 1, false}, // C beyond registers: read twice
        {{2, 9, 16}, 1, false}, // C in registers
        {{1, 1, 5}, 1, false}, // C == 1
        {{37, 12}, 0, false}, // the outermost axis
        {{2, 40, 4, 4}, 1, false}, {{2, 6, 5, 3}, 2, true}, // H of NHWC
        {{3, 33, 2, 12}, 1, false}};

// Softmax of x along `axis` of d (logical row-major), accurate or log.
std::vector<double> softmax_ref(const std::vector<float> &x, const dims &d, int axis, bool log) {
    int64_t outer = 1, inner = 1;
    for (int k = 0; k < axis; ++k)
        outer *= d[size_t(k)];
    for (size_t k = size_t(axis) + 1; k < d.size(); ++k)
        inner *= d[k];
    const int64_t C = d[size_t(axis)];
    std::vector<double> y(x.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            auto at = [&](int64_t c) { return size_t((o * C + c) * inner + i); };
            double m = -INFINITY, sum = 0;
            for (int64_t c = 0; c < C; ++c)
                m = std::max(m, double(x[at(c)]));
            for (int64_t c = 0; c < C; ++c)
                sum += std::exp(x[at(c)] - m);
            for (int64_t c = 0; c < C; ++c)
                y[at(c)] = log ? x[at(c)] - m - std::log(sum) : std::exp(x[at(c)] - m) / sum;
        }
    return y;
}

void check_softmax_axis(dt t, const std::vector<sm_case_t> &cases = sm_cases) {
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &c : cases)
        for (bool log : {false, true}) {
            SCOPED_TRACE("axis " + std::to_string(c.axis) + " of " + std::to_string(count(c.d))
                    + (log ? " log" : " accurate") + (c.channels_last ? " nhwc" : ""));
            const algorithm alg = log ? algorithm::softmax_log : algorithm::softmax_accurate;
            const memory::desc md(c.d, t, plain_tag(c.d.size(), c.channels_last));
            softmax_forward::primitive_desc pd(
                    e, prop_kind::forward_training, alg, md, md, c.axis);
            expect_impl(pd, "ocl:softmax:axis_columns");
            const std::vector<float> x = values(count(c.d), 0.9f, t, -6.f, 12.f);
            memory dst(md, e);
            softmax_forward(pd).execute(s, {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}});
            s.wait();
            const std::vector<double> y = softmax_ref(x, c.d, c.axis, log);
            std::vector<double> want = y;
            for (auto &w : want)
                w = as_type(float(w), t);
            expect_near(fetch(dst), want, tolerance(t) * (log ? 1 : 2), "dst");

            // Backward from the reference dst (as t holds it) and a diff_dst.
            std::vector<float> yq(y.size());
            for (size_t i = 0; i < y.size(); ++i)
                yq[i] = as_type(float(y[i]), t);
            const std::vector<float> g = values(count(c.d), 0.2f, t);
            softmax_backward::primitive_desc bpd(e, alg, md, md, md, c.axis, pd);
            expect_impl(bpd, "ocl:softmax:axis_columns");
            memory ds(md, e);
            softmax_backward(bpd).execute(s, {{DNNL_ARG_DST, make(e, md, yq)},
                    {DNNL_ARG_DIFF_DST, make(e, md, g)}, {DNNL_ARG_DIFF_SRC, ds}});
            s.wait();
            int64_t outer = 1, inner = 1;
            for (int k = 0; k < c.axis; ++k)
                outer *= c.d[size_t(k)];
            for (size_t k = size_t(c.axis) + 1; k < c.d.size(); ++k)
                inner *= c.d[k];
            const int64_t C = c.d[size_t(c.axis)];
            std::vector<double> dx(y.size());
            for (int64_t o = 0; o < outer; ++o)
                for (int64_t i = 0; i < inner; ++i) {
                    auto at = [&](int64_t k) { return size_t((o * C + k) * inner + i); };
                    double sum = 0;
                    for (int64_t k = 0; k < C; ++k)
                        sum += log ? double(g[at(k)]) : double(g[at(k)]) * yq[at(k)];
                    for (int64_t k = 0; k < C; ++k)
                        dx[at(k)] = log ? g[at(k)] - std::exp(double(yq[at(k)])) * sum
                                        : yq[at(k)] * (g[at(k)] - sum);
                }
            expect_near(fetch(ds), dx, tolerance(t) * 4, "diff_src");
        }
}

TEST(GpuBandwidthReduce, SoftmaxAxisF32) {
    SKIP_WITHOUT_GPU();
    check_softmax_axis(dt::f32);
}
TEST(GpuBandwidthReduce, SoftmaxAxisBf16) {
    SKIP_WITHOUT_GPU();
    check_softmax_axis(dt::bf16);
}
TEST(GpuBandwidthReduce, SoftmaxAxisF16) {
    SKIP_WITHOUT_GPU();
    check_softmax_axis(dt::f16, {sm_cases[0], sm_cases[1], sm_cases[2]});
}

// The innermost axis stays with the rows kernels.
TEST(GpuBandwidthReduce, SoftmaxInnermostAxisIsNotColumns) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    const memory::desc md({4, 6, 5}, dt::f32, tag::abc);
    softmax_forward::primitive_desc pd(
            e, prop_kind::forward_inference, algorithm::softmax_accurate, md, md, 2);
    EXPECT_NE(std::string(pd.impl_info_str()), "ocl:softmax:axis_columns");
}

// ---- PReLU ------------------------------------------------------------------------------

struct prelu_case_t {
    dims src, wei;
    bool channels_last;
};

const std::vector<prelu_case_t> prelu_cases = {
        {{2, 5, 3, 7}, {1, 5, 1, 1}, false}, // per channel, odd spatial
        {{2, 16, 9, 8}, {1, 16, 1, 1}, false}, // per channel, rows of 72
        {{2, 5, 3, 7}, {1, 5, 1, 1}, true}, // NHWC per channel, C odd
        {{3, 8, 5, 2}, {1, 8, 1, 1}, true}, // NHWC, C a multiple of 8
        {{3, 4, 5, 6}, {1, 1, 1, 1}, false}, // scalar
        {{2, 3, 5, 7}, {2, 3, 5, 7}, false}, // full tensor
        {{1, 1, 1, 1}, {1, 1, 1, 1}, false}, {{7, 1, 3}, {1, 1, 3}, false},
        {{5, 123}, {1, 123}, false}, {{6, 4, 2051}, {1, 4, 1}, false},
        {{20, 3, 8}, {1, 3, 1}, false}, {{33, 2, 3}, {1, 2, 1}, false}}; // columns, R2 > 1

void check_prelu(dt t) {
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &c : prelu_cases) {
        SCOPED_TRACE("src " + std::to_string(count(c.src)) + " weights "
                + std::to_string(count(c.wei)) + (c.channels_last ? " nhwc" : ""));
        const tag st = plain_tag(c.src.size(), c.channels_last);
        const memory::desc smd(c.src, t, st), wmd(c.wei, t, st);
        const std::vector<float> x = values(count(c.src), 0.4f, t);
        const std::vector<float> w = values(count(c.wei), 1.3f, t, -1.f, 2.f);
        // Weight index of src element i: its coordinates where the weights have the dim.
        auto widx = [&](int64_t i) {
            int64_t j = 0, stride = 1;
            for (int k = int(c.src.size()) - 1; k >= 0; --k) {
                const int64_t v = i % c.src[size_t(k)];
                i /= c.src[size_t(k)];
                if (c.wei[size_t(k)] != 1) j += v * stride;
                stride *= c.wei[size_t(k)];
            }
            return size_t(j);
        };
        prelu_forward::primitive_desc pd(e, prop_kind::forward_training, smd, wmd, smd);
        expect_impl(pd, "ocl:prelu:dense");
        memory dst(smd, e);
        prelu_forward(pd).execute(s, {{DNNL_ARG_SRC, make(e, smd, x)},
                {DNNL_ARG_WEIGHTS, make(e, wmd, w)}, {DNNL_ARG_DST, dst}});
        s.wait();
        std::vector<double> y(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            y[i] = as_type(float(x[i] > 0 ? double(x[i]) : double(x[i]) * w[widx(int64_t(i))]), t);
        expect_near(fetch(dst), y, tolerance(t), "dst");

        const std::vector<float> g = values(count(c.src), 2.1f, t);
        prelu_backward::primitive_desc bpd(e, smd, wmd, smd, wmd, smd, pd);
        expect_impl(bpd, "ocl:prelu:dense");
        memory ds(smd, e), dw(wmd, e);
        prelu_backward(bpd).execute(s, {{DNNL_ARG_SRC, make(e, smd, x)},
                {DNNL_ARG_WEIGHTS, make(e, wmd, w)}, {DNNL_ARG_DIFF_DST, make(e, smd, g)},
                {DNNL_ARG_DIFF_SRC, ds}, {DNNL_ARG_DIFF_WEIGHTS, dw}});
        s.wait();
        std::vector<double> dx(x.size()), dwr(w.size(), 0.0);
        for (size_t i = 0; i < x.size(); ++i) {
            const size_t k = widx(int64_t(i));
            dx[i] = as_type(float(x[i] > 0 ? double(g[i]) : double(g[i]) * w[k]), t);
            if (!(x[i] > 0)) dwr[k] += double(x[i]) * g[i];
        }
        expect_near(fetch(ds), dx, tolerance(t), "diff_src");
        // diff_weights: sums of up to a few thousand terms, compared with their magnitude.
        double scale = 1;
        for (size_t i = 0; i < x.size(); ++i)
            scale = std::max(scale, std::fabs(double(x[i]) * g[i]));
        const std::vector<float> got = fetch(dw);
        ASSERT_EQ(got.size(), dwr.size());
        for (size_t k = 0; k < dwr.size(); ++k)
            ASSERT_NEAR(got[k], dwr[k], tolerance(t) * 2 * std::max(scale, std::fabs(dwr[k])))
                    << "diff_weights at " << k;
    }
}

TEST(GpuBandwidthReduce, PreluDenseF32) {
    SKIP_WITHOUT_GPU();
    check_prelu(dt::f32);
}
TEST(GpuBandwidthReduce, PreluDenseBf16) {
    SKIP_WITHOUT_GPU();
    check_prelu(dt::bf16);
}
TEST(GpuBandwidthReduce, PreluDenseF16) {
    SKIP_WITHOUT_GPU();
    check_prelu(dt::f16);
}

// Zero-size tensors go to the generic kernel.
TEST(GpuBandwidthReduce, PreluZeroSizeTakesGeneric) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const memory::desc smd({0, 4, 3, 3}, dt::f32, tag::abcd), wmd({1, 4, 1, 1}, dt::f32, tag::abcd);
    prelu_forward::primitive_desc pd(e, prop_kind::forward_training, smd, wmd, smd);
    expect_impl(pd, "ocl:prelu:generic");
    prelu_forward(pd).execute(s, {{DNNL_ARG_SRC, memory(smd, e)},
            {DNNL_ARG_WEIGHTS, make(e, wmd, std::vector<float>(4, 0.5f))},
            {DNNL_ARG_DST, memory(smd, e)}});
    s.wait();
}

} // namespace
