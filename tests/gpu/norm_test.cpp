// The GPU engine's reduction-shaped primitives against the references of tests/primitives:
// softmax (softmax_ref), layer and batch normalization (group_normalization_ref: layer norm is
// one group of the last dim per row, batch norm a group per channel), reduction
// (reduction_ref), pooling (pooling_ref) and resampling (resampling_ref), every implementation
// run on c_tensor host tensors (device_copy.hpp). Tolerances: one rounding of the output's
// type plus f32 roundings over the reduction length. Skipped without an OpenCL device.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "gpu/device_copy.hpp"
#include "primitives/group_normalization_ref.hpp"
#include "primitives/pooling_ref.hpp"
#include "primitives/post_ops_ref.hpp"
#include "primitives/reduction_ref.hpp"
#include "primitives/resampling_ref.hpp"
#include "primitives/softmax_ref.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;
using c_tensor::tensor_t;
using gpu_test::default_fill;
using gpu_test::expect_near;
using gpu_test::lookup_t;
using gpu_test::run_each_impl;

memory::desc md(const dims &d, tag t) {
    return memory::desc(d, dt::f32, t);
}

// The C handle of a C++ primitive descriptor, which run_each_impl walks with next_impl.
template <typename PD>
dnnl_primitive_desc_t handle(PD &pd) {
    return pd.get();
}

// Calls f(first position of the slice, stride) for every slice of t along `axis`.
template <typename F>
void for_each_slice(const c_tensor::layout_t &l, int axis, F f) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (l.nelems() == 0) return;
    do
        if (pos[axis] == 0) f(pos);
    while (c_tensor::next_pos(pos, l.dims, l.ndims));
}

// The values of t along `axis` from position pos.
std::vector<double> slice_of(const tensor_t &t, const int64_t *pos, int axis) {
    int64_t p[DNNL_MAX_NDIMS];
    std::copy(pos, pos + t.lay.ndims, p);
    std::vector<double> v;
    for (p[axis] = 0; p[axis] < t.lay.dims[axis]; ++p[axis])
        v.push_back(t.get(p));
    return v;
}

// Expected values of an output, in row-major order, set slice by slice.
struct expected_t {
    std::vector<float> want;
    std::vector<double> slack;
    const c_tensor::layout_t &l;
    explicit expected_t(const c_tensor::layout_t &l)
        : want(size_t(l.nelems())), slack(size_t(l.nelems())), l(l) {}
    size_t index(const int64_t *pos) const {
        int64_t i = 0;
        for (int d = 0; d < l.ndims; ++d)
            i = i * l.dims[d] + pos[d];
        return size_t(i);
    }
    void set(const int64_t *pos, double v, double err) {
        want[index(pos)] = c_tensor::round_to(l.dt, float(v));
        slack[index(pos)] = err;
    }
};

TEST(GpuSoftmax, ForwardAndBackwardEveryAxis) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
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
                         + std::to_string(c.d[1]) + " "
                         + dnnl_alg_kind2str(static_cast<dnnl_alg_kind_t>(alg)));
            const auto m = md(c.d, c.t);
            const dnnl_alg_kind_t a = static_cast<dnnl_alg_kind_t>(alg);
            // exp, log and the division to a few ulps, over the slice's sum.
            const double err = 8 * double(c.d[size_t(c.axis)]) * post_ops_ref::f32_eps;
            auto fwd = softmax_forward::primitive_desc(gpu, prop_kind::forward_training, alg, m, m, c.axis);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), {DNNL_ARG_SRC},
                              {DNNL_ARG_DST},
                              [&](const std::vector<tensor_t *> &t) {
                                  expected_t e(t[1]->lay);
                                  for_each_slice(t[0]->lay, c.axis, [&](const int64_t *pos) {
                                      const auto y = softmax_ref::slice(a, slice_of(*t[0], pos, c.axis));
                                      int64_t p[DNNL_MAX_NDIMS];
                                      std::copy(pos, pos + t[0]->lay.ndims, p);
                                      for (size_t k = 0; k < y.size(); ++k) {
                                          p[c.axis] = int64_t(k);
                                          e.set(p, y[k], err * (std::fabs(y[k]) + 1));
                                      }
                                  });
                                  c_tensor::expect_values(e.want, *t[1], e.slack);
                              }),
                    1);
            auto bwd = softmax_backward::primitive_desc(gpu, alg, m, m, m, c.axis, fwd);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(bwd),
                              {DNNL_ARG_DST, DNNL_ARG_DIFF_DST}, {DNNL_ARG_DIFF_SRC},
                              [&](const std::vector<tensor_t *> &t) {
                                  expected_t e(t[2]->lay);
                                  for_each_slice(t[0]->lay, c.axis, [&](const int64_t *pos) {
                                      const auto y = slice_of(*t[0], pos, c.axis),
                                                 dy = slice_of(*t[1], pos, c.axis);
                                      const auto dx = softmax_ref::backward_slice(a, y, dy);
                                      double mag = 0;
                                      for (size_t k = 0; k < y.size(); ++k)
                                          mag += std::fabs(dy[k] * (a == dnnl_softmax_log ? 1 : y[k]));
                                      int64_t p[DNNL_MAX_NDIMS];
                                      std::copy(pos, pos + t[0]->lay.ndims, p);
                                      for (size_t k = 0; k < y.size(); ++k) {
                                          p[c.axis] = int64_t(k);
                                          // The sum's roundings, scaled by y (or exp(y)).
                                          const double scale = a == dnnl_softmax_log
                                                  ? std::exp(y[k]) : std::fabs(y[k]);
                                          e.set(p, dx[k],
                                                  err * (std::fabs(dx[k]) + 1)
                                                          + double(y.size()) * post_ops_ref::f32_eps
                                                                  * mag * (scale + 1));
                                      }
                                  });
                                  c_tensor::expect_values(e.want, *t[2], e.slack);
                              }),
                    1);
        }
}

namespace gn = group_normalization_ref;

TEST(GpuLayerNorm, FlagsDirectionsAndLayouts) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
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
    const double eps = 1e-3;
    for (const auto &c : cases)
        for (auto f : flag_sets) {
            SCOPED_TRACE("flags " + std::to_string(int(f)) + " dims " + std::to_string(c.d[0]) + "x"
                         + std::to_string(c.d[1]));
            const auto m = md(c.d, c.t);
            dims sd(c.d.begin(), c.d.end() - 1);
            const auto st = md(sd, c.st);
            auto has = [&](normalization_flags x) { return (f & x) != normalization_flags::none; };
            const bool global = has(normalization_flags::use_global_stats),
                       rms = has(normalization_flags::rms_norm);
            // Rows of the last dim: group normalization's {rows, C, 1} with one group.
            const int64_t C = c.d.back(), rows = int64_t(memory::desc(m).get_size() / 4) / C;
            const gn::shape_t sh({rows, C, 1}, 1);
            std::vector<int> in = {DNNL_ARG_SRC};
            if (has(normalization_flags::use_scale)) in.push_back(DNNL_ARG_SCALE);
            if (has(normalization_flags::use_shift)) in.push_back(DNNL_ARG_SHIFT);
            std::vector<int> out = {DNNL_ARG_DST};
            (global ? in : out).push_back(DNNL_ARG_VARIANCE);
            if (!rms) (global ? in : out).push_back(DNNL_ARG_MEAN);
            auto fwd = layer_normalization_forward::primitive_desc(
                    gpu, prop_kind::forward_training, m, m, st, float(eps), f);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), in, out,
                              [&](const std::vector<tensor_t *> &t) {
                                  const std::vector<tensor_t *> outputs(t.begin() + long(in.size()), t.end());
                                  const lookup_t at {in, t}, res {out, outputs};
                                  const auto x = c_tensor::values(*t[0]);
                                  std::vector<double> mu, va;
                                  if (global) {
                                      va = c_tensor::values(*at(DNNL_ARG_VARIANCE));
                                      mu = rms ? std::vector<double>(va.size(), 0.0)
                                               : c_tensor::values(*at(DNNL_ARG_MEAN));
                                  } else {
                                      gn::statistics(x, sh, mu, va, rms);
                                  }
                                  std::vector<double> y(x.size());
                                  for (size_t e = 0; e < x.size(); ++e) {
                                      const int64_t k = int64_t(e) % C;
                                      y[e] = gn::forward(x[e], mu[e / size_t(C)], va[e / size_t(C)], eps,
                                              at(DNNL_ARG_SCALE) ? at(DNNL_ARG_SCALE)->get(&k) : 1.0,
                                              at(DNNL_ARG_SHIFT) ? at(DNNL_ARG_SHIFT)->get(&k) : 0.0);
                                  }
                                  expect_near(*res(DNNL_ARG_DST), y, 8 * double(C));
                                  if (!global) {
                                      expect_near(*res(DNNL_ARG_VARIANCE), va, 8 * double(C));
                                      if (!rms) expect_near(*res(DNNL_ARG_MEAN), mu, 2 * double(C));
                                  }
                              }),
                    1);
            const normalization_flags bf
                    = (f & ~normalization_flags::use_global_stats) | normalization_flags::use_scale;
            std::vector<int> bin = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE};
            if (!rms) bin.push_back(DNNL_ARG_MEAN);
            std::vector<int> bout = {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_SCALE};
            if ((bf & normalization_flags::use_shift) != normalization_flags::none)
                bout.push_back(DNNL_ARG_DIFF_SHIFT);
            auto hint = layer_normalization_forward::primitive_desc(
                    gpu, prop_kind::forward_training, m, m, st, float(eps), f & ~normalization_flags::use_global_stats);
            auto bwd = layer_normalization_backward::primitive_desc(
                    gpu, prop_kind::backward, m, m, m, st, float(eps), bf, hint);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(bwd), bin, bout,
                              [&](const std::vector<tensor_t *> &t) {
                                  const std::vector<tensor_t *> outputs(t.begin() + long(bin.size()), t.end());
                                  const lookup_t at {bin, t}, res {bout, outputs};
                                  const auto va = c_tensor::values(*at(DNNL_ARG_VARIANCE));
                                  const auto mu = rms ? std::vector<double>(va.size(), 0.0)
                                                      : c_tensor::values(*at(DNNL_ARG_MEAN));
                                  const gn::backward_t want = gn::backward(c_tensor::values(*t[0]),
                                          c_tensor::values(*at(DNNL_ARG_DIFF_DST)), mu, va,
                                          c_tensor::values(*at(DNNL_ARG_SCALE)), sh, eps, false, rms);
                                  expect_near(*res(DNNL_ARG_DIFF_SRC), want.diff_src, 32 * double(C));
                                  expect_near(*res(DNNL_ARG_DIFF_SCALE), want.diff_scale, 16 * double(rows));
                                  if (res(DNNL_ARG_DIFF_SHIFT))
                                      expect_near(*res(DNNL_ARG_DIFF_SHIFT), want.diff_shift, 4 * double(rows));
                              }),
                    1);
        }
}

// Values of a {N, C, spatial...} tensor channel by channel: batch normalization's statistics
// are group normalization's over {1, C, N x spatial} with a group per channel.
std::vector<double> channel_major(const std::vector<double> &x, int64_t N, int64_t C, int64_t SP) {
    std::vector<double> r(x.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t i = 0; i < SP; ++i)
                r[size_t((c * N + n) * SP + i)] = x[size_t((n * C + c) * SP + i)];
    return r;
}
std::vector<double> from_channel_major(const std::vector<double> &r, int64_t N, int64_t C, int64_t SP) {
    std::vector<double> x(r.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t i = 0; i < SP; ++i)
                x[size_t((n * C + c) * SP + i)] = r[size_t((c * N + n) * SP + i)];
    return x;
}

TEST(GpuBatchNorm, FlagsAndDirections) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    struct case_t {
        dims d;
        tag t;
    };
    const case_t cases[] = {{{2, 3, 4, 5}, tag::abcd}, {{3, 19, 5}, tag::acb},
            {{2, 32, 3, 3}, tag::aBcd16b}, {{1, 1, 1, 1}, tag::abcd}};
    const normalization_flags ss = normalization_flags::use_scale | normalization_flags::use_shift;
    const double eps = 1e-3;
    for (const auto &c : cases) {
        const auto m = md(c.d, c.t);
        const int64_t N = c.d[0], C = c.d[1];
        int64_t SP = 1;
        for (size_t k = 2; k < c.d.size(); ++k)
            SP *= c.d[k];
        const gn::shape_t sh({1, C, N * SP}, C);
        for (auto f : {normalization_flags::none, ss, ss | normalization_flags::use_global_stats,
                     ss | normalization_flags::fuse_norm_relu}) {
            SCOPED_TRACE("flags " + std::to_string(int(f)) + " C " + std::to_string(C));
            auto has = [&](normalization_flags x) { return (f & x) != normalization_flags::none; };
            const bool global = has(normalization_flags::use_global_stats);
            std::vector<int> in = {DNNL_ARG_SRC};
            if (has(normalization_flags::use_scale)) in.push_back(DNNL_ARG_SCALE);
            if (has(normalization_flags::use_shift)) in.push_back(DNNL_ARG_SHIFT);
            std::vector<int> out = {DNNL_ARG_DST};
            for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE})
                (global ? in : out).push_back(a);
            auto fwd = batch_normalization_forward::primitive_desc(gpu,
                    global ? prop_kind::forward_inference : prop_kind::forward_training, m, m,
                    float(eps), f);
            if (has(normalization_flags::fuse_norm_relu)) out.push_back(DNNL_ARG_WORKSPACE);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), in, out,
                              [&](const std::vector<tensor_t *> &t) {
                                  const std::vector<tensor_t *> outputs(t.begin() + long(in.size()), t.end());
                                  const lookup_t at {in, t}, res {out, outputs};
                                  const auto x = channel_major(c_tensor::values(*t[0]), N, C, SP);
                                  std::vector<double> mu, va;
                                  if (global) {
                                      mu = c_tensor::values(*at(DNNL_ARG_MEAN));
                                      va = c_tensor::values(*at(DNNL_ARG_VARIANCE));
                                  } else {
                                      gn::statistics(x, sh, mu, va);
                                  }
                                  std::vector<double> y(x.size());
                                  for (size_t e = 0; e < x.size(); ++e) {
                                      const int64_t ch = int64_t(e) / (N * SP);
                                      y[e] = gn::forward(x[e], mu[size_t(ch)], va[size_t(ch)], eps,
                                              at(DNNL_ARG_SCALE) ? at(DNNL_ARG_SCALE)->get(&ch) : 1.0,
                                              at(DNNL_ARG_SHIFT) ? at(DNNL_ARG_SHIFT)->get(&ch) : 0.0);
                                      if (has(normalization_flags::fuse_norm_relu)) y[e] = std::max(y[e], 0.0);
                                  }
                                  const double L = double(N * SP);
                                  expect_near(*res(DNNL_ARG_DST), from_channel_major(y, N, C, SP), 8 * L);
                                  if (!global) {
                                      expect_near(*res(DNNL_ARG_MEAN), mu, 2 * L);
                                      expect_near(*res(DNNL_ARG_VARIANCE), va, 8 * L);
                                  }
                              }),
                    1);
        }
        auto hint = batch_normalization_forward::primitive_desc(
                gpu, prop_kind::forward_training, m, m, float(eps), ss);
        auto bwd = batch_normalization_backward::primitive_desc(
                gpu, prop_kind::backward, m, m, m, float(eps), ss, hint);
        const std::vector<int> bin = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_MEAN,
                DNNL_ARG_VARIANCE, DNNL_ARG_SCALE};
        EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(bwd), bin,
                          {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT},
                          [&](const std::vector<tensor_t *> &t) {
                              const gn::backward_t want = gn::backward(
                                      channel_major(c_tensor::values(*t[0]), N, C, SP),
                                      channel_major(c_tensor::values(*t[1]), N, C, SP),
                                      c_tensor::values(*t[2]), c_tensor::values(*t[3]),
                                      c_tensor::values(*t[4]), sh, eps, false);
                              const double L = double(N * SP);
                              expect_near(*t[5], from_channel_major(want.diff_src, N, C, SP), 32 * L);
                              expect_near(*t[6], want.diff_scale, 16 * L);
                              expect_near(*t[7], want.diff_shift, 4 * L);
                          }),
                1);
    }
}

TEST(GpuReduction, EveryAlgorithm) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
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
    const double p = 3, eps = 0.25;
    for (const auto &c : cases)
        for (auto alg : algs) {
            const dnnl_alg_kind_t a = static_cast<dnnl_alg_kind_t>(alg);
            SCOPED_TRACE(std::string(dnnl_alg_kind2str(a)) + " of " + std::to_string(c.s.size())
                    + "D dims " + std::to_string(c.s[1]));
            auto pd = reduction::primitive_desc(gpu, alg, md(c.s, c.t), md(c.d, c.t), float(p), float(eps));
            // Products of many values leave the values small (exact in f32 up to the range).
            auto fill = [&](int arg, tensor_t &t, uint32_t seed) {
                default_fill(arg, t, seed);
                if (a != dnnl_reduction_mul) return;
                const float cycle[4] = {-1.f, 0.5f, 1.f, 2.f}; // each four multiply to -1
                int64_t pos[DNNL_MAX_NDIMS] = {};
                int k = 0;
                do
                    t.set(pos, cycle[k++ % 4]);
                while (c_tensor::next_pos(pos, t.lay.dims, t.lay.ndims));
            };
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(pd), {DNNL_ARG_SRC},
                              {DNNL_ARG_DST},
                              [&](const std::vector<tensor_t *> &t) {
                                  const tensor_t &src = *t[0], &dst = *t[1];
                                  expected_t e(dst.lay);
                                  int64_t dp[DNNL_MAX_NDIMS] = {};
                                  do {
                                      std::vector<double> x;
                                      int64_t sp[DNNL_MAX_NDIMS] = {};
                                      do {
                                          bool in = true;
                                          for (int d = 0; d < src.lay.ndims; ++d)
                                              in = in && (dst.lay.dims[d] == 1 || sp[d] == dp[d]);
                                          if (in) x.push_back(src.get(sp));
                                      } while (c_tensor::next_pos(sp, src.lay.dims, src.lay.ndims));
                                      const reduction_ref::ref_t r = reduction_ref::reduce(a, x, p, eps);
                                      // f32 roundings of each term, powers to a few ulps.
                                      e.set(dp, r.value,
                                              4 * double(x.size() + 1) * post_ops_ref::f32_eps
                                                      * r.magnitude);
                                  } while (c_tensor::next_pos(dp, dst.lay.dims, dst.lay.ndims));
                                  c_tensor::expect_values(e.want, dst, e.slack);
                              },
                              fill),
                    1);
        }
}

// Distinct values (a permutation of quarters), so that every max window has one argmax.
void fill_distinct(tensor_t &t) {
    const int64_t n = t.lay.nelems();
    int64_t pos[DNNL_MAX_NDIMS] = {}, i = 0;
    if (n > 0) do
            t.set(pos, float((i++ * 7919) % n - n / 2) * 0.25f);
        while (c_tensor::next_pos(pos, t.lay.dims, t.lay.ndims));
}

TEST(GpuPooling, MaxAndAvgForwardAndBackward1d2d3d) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
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
            const dnnl_alg_kind_t a = static_cast<dnnl_alg_kind_t>(alg);
            SCOPED_TRACE(std::string(dnnl_alg_kind2str(a)) + " " + std::to_string(c.s.size() - 2) + "D");
            const tag t = c.s.size() == 3 ? tag::acb : c.s.size() == 4 ? tag::acdb : tag::abcde;
            const auto sm = md(c.s, t), dm = md(c.d, t);
            const pooling_ref::pool_case_t pc {c.s, c.k, c.st, c.dl, c.pl, c.pr};
            const bool max = alg == algorithm::pooling_max;
            auto fwd = pooling_forward::primitive_desc(
                    gpu, prop_kind::forward_training, alg, sm, dm, c.st, c.k, c.dl, c.pl, c.pr);
            // The window's value: the max (and where it is), or the average over the taps
            // (exclude) or the kernel (include).
            auto window_of = [&](const tensor_t &src, const int64_t *dp, int64_t *argmax) {
                const pooling_ref::window_t w = pooling_ref::window(pc, dp);
                double v = max ? -INFINITY : 0.0;
                int64_t sp[DNNL_MAX_NDIMS] = {dp[0], dp[1]};
                for (const auto &tap : w.taps) {
                    std::copy(tap.begin(), tap.end(), sp + 2);
                    const double x = src.get(sp);
                    if (max && x > v) {
                        v = x;
                        std::copy(sp, sp + src.lay.ndims, argmax);
                    }
                    if (!max) v += x;
                }
                if (!max)
                    v /= double(alg == algorithm::pooling_avg_include_padding ? w.ksize
                                                                            : int(w.taps.size()));
                return std::make_pair(v, w);
            };
            // Forward: dst, and (max) the workspace its backward reads, kept from the first run.
            std::vector<int> fout = {DNNL_ARG_DST};
            if (max) fout.push_back(DNNL_ARG_WORKSPACE);
            std::vector<unsigned char> ws;
            auto distinct = [&](int arg, tensor_t &x, uint32_t seed) {
                if (arg == DNNL_ARG_SRC) fill_distinct(x);
                else default_fill(arg, x, seed);
            };
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), {DNNL_ARG_SRC}, fout,
                              [&](const std::vector<tensor_t *> &x) {
                                  expected_t e(x[1]->lay);
                                  int64_t dp[DNNL_MAX_NDIMS] = {}, am[DNNL_MAX_NDIMS];
                                  do
                                      e.set(dp, window_of(*x[0], dp, am).first, 0);
                                  while (c_tensor::next_pos(dp, x[1]->lay.dims, x[1]->lay.ndims));
                                  // A sum of the window's values over a count: its roundings.
                                  for (auto &sl : e.slack)
                                      sl = max ? 0 : 32 * post_ops_ref::f32_eps * 8;
                                  c_tensor::expect_values(e.want, *x[1], e.slack);
                                  if (max && ws.empty())
                                      ws.assign(static_cast<unsigned char *>(x[2]->data()),
                                              static_cast<unsigned char *>(x[2]->data()) + x[2]->bytes);
                              },
                              distinct),
                    1);
            // Backward: each diff_dst goes to the argmax (max) or spreads over the window.
            auto bwd = pooling_backward::primitive_desc(
                    gpu, alg, sm, dm, c.st, c.k, c.dl, c.pl, c.pr, fwd);
            std::vector<int> bin = {DNNL_ARG_DIFF_DST};
            if (max) bin.push_back(DNNL_ARG_WORKSPACE);
            auto with_ws = [&](int arg, tensor_t &x, uint32_t seed) {
                if (arg == DNNL_ARG_WORKSPACE) std::copy(ws.begin(), ws.end(), static_cast<unsigned char *>(x.data()));
                else default_fill(arg, x, seed);
            };
            tensor_t src(cpu.get(), sm.get());
            fill_distinct(src);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(bwd), bin, {DNNL_ARG_DIFF_SRC},
                              [&](const std::vector<tensor_t *> &x) {
                                  const tensor_t &dy = *x[0], &dx = *x.back();
                                  std::vector<double> want(size_t(dx.lay.nelems()), 0.0);
                                  expected_t idx(dx.lay);
                                  int64_t dp[DNNL_MAX_NDIMS] = {}, am[DNNL_MAX_NDIMS];
                                  do {
                                      const auto vw = window_of(src, dp, am);
                                      const double g = dy.get(dp);
                                      if (max) {
                                          if (!vw.second.taps.empty()) want[idx.index(am)] += g;
                                          continue;
                                      }
                                      const double share = g
                                              / double(alg == algorithm::pooling_avg_include_padding
                                                              ? vw.second.ksize
                                                              : int(vw.second.taps.size()));
                                      int64_t sp[DNNL_MAX_NDIMS] = {dp[0], dp[1]};
                                      for (const auto &tap : vw.second.taps) {
                                          std::copy(tap.begin(), tap.end(), sp + 2);
                                          want[idx.index(sp)] += share;
                                      }
                                  } while (c_tensor::next_pos(dp, dy.lay.dims, dy.lay.ndims));
                                  std::vector<float> w(want.begin(), want.end());
                                  // Overlapping windows add up to kernel-size shares.
                                  c_tensor::expect_values(w, dx,
                                          std::vector<double>(w.size(), 64 * post_ops_ref::f32_eps * 8));
                              },
                              with_ws),
                    1);
        }
}

// Max pooling into another data type: the window's maximum converted once, training and
// inference, 1D/2D/3D with channel tails.
TEST(GpuPooling, MaxConvertsBetweenDataTypes) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    struct case_t {
        dims s, d, k, st, pl, pr, dl;
        tag t;
    };
    const case_t cases[] = {{{2, 3, 9}, {2, 3, 5}, {3}, {2}, {1}, {1}, {0}, tag::acb},
            {{2, 5, 7, 8}, {2, 5, 4, 4}, {3, 3}, {2, 2}, {1, 1}, {1, 0}, {0, 0}, tag::abcd},
            {{1, 17, 4, 5, 4}, {1, 17, 3, 5, 2}, {2, 3, 2}, {2, 1, 2}, {1, 1, 0}, {1, 1, 0},
                    {0, 0, 0}, tag::acdeb}};
    const dt pairs[][2] = {{dt::f32, dt::s8}, {dt::s8, dt::f32}, {dt::u8, dt::s8},
            {dt::f16, dt::u8}};
    for (const auto &c : cases)
        for (const auto &pr : pairs)
            for (auto prop : {prop_kind::forward_inference, prop_kind::forward_training}) {
                SCOPED_TRACE(std::to_string(c.s.size() - 2) + "D " + std::to_string(int(pr[0]))
                        + "->" + std::to_string(int(pr[1])));
                const memory::desc sm(c.s, pr[0], c.t), dm(c.d, pr[1], c.t);
                const pooling_ref::pool_case_t pc {c.s, c.k, c.st, c.dl, c.pl, c.pr};
                auto fwd = pooling_forward::primitive_desc(gpu, prop, algorithm::pooling_max, sm,
                        dm, c.st, c.k, c.dl, c.pl, c.pr);
                std::vector<int> outs = {DNNL_ARG_DST};
                if (prop == prop_kind::forward_training) outs.push_back(DNNL_ARG_WORKSPACE);
                EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), {DNNL_ARG_SRC}, outs,
                                  [&](const std::vector<tensor_t *> &x) {
                                      expected_t e(x[1]->lay);
                                      int64_t dp[DNNL_MAX_NDIMS] = {};
                                      do {
                                          const auto w = pooling_ref::window(pc, dp);
                                          double v = -INFINITY; // no window is all padding
                                          int64_t sp[DNNL_MAX_NDIMS] = {dp[0], dp[1]};
                                          for (const auto &tap : w.taps) {
                                              std::copy(tap.begin(), tap.end(), sp + 2);
                                              v = std::max(v, double(x[0]->get(sp)));
                                          }
                                          e.set(dp, v, 0);
                                      } while (c_tensor::next_pos(
                                              dp, x[1]->lay.dims, x[1]->lay.ndims));
                                      c_tensor::expect_values(e.want, *x[1], e.slack);
                                  }),
                        1);
            }
}

TEST(GpuResampling, NearestAndLinearForwardAndBackward) {
    SKIP_WITHOUT_GPU();
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    struct case_t {
        dims s, d;
        tag t;
    };
    const case_t cases[] = {{{1, 3, 10}, {1, 3, 20}, tag::abc},
            {{2, 17, 5, 7}, {2, 17, 9, 4}, tag::acdb},
            {{1, 16, 3, 4, 5}, {1, 16, 5, 2, 9}, tag::aBcde16b}, {{1, 2, 6}, {1, 2, 11}, tag::abc}};
    for (const auto &c : cases)
        for (auto alg : {algorithm::resampling_nearest, algorithm::resampling_linear}) {
            const bool linear = alg == algorithm::resampling_linear;
            SCOPED_TRACE(std::string(linear ? "linear " : "nearest ") + std::to_string(c.s.size() - 2) + "D");
            const auto sm = md(c.s, c.t), dm = md(c.d, c.t);
            const size_t ns = c.s.size() - 2;
            std::vector<resampling_ref::taps_t> taps;
            for (size_t k = 0; k < ns; ++k)
                taps.push_back(resampling_ref::make_taps(linear, c.s[2 + k], c.d[2 + k]));
            // Calls f(src position, weight) for every tap of dst position dp.
            auto each_tap = [&](const int64_t *dp, const std::function<void(const int64_t *, double)> &f) {
                size_t n = 1;
                for (size_t k = 0; k < ns; ++k)
                    n *= taps[k].at[size_t(dp[2 + k])].size();
                for (size_t i = 0; i < n; ++i) {
                    int64_t sp[DNNL_MAX_NDIMS] = {dp[0], dp[1]};
                    double w = 1;
                    size_t r = i;
                    for (size_t k = 0; k < ns; ++k) {
                        const auto &at = taps[k].at[size_t(dp[2 + k])];
                        sp[2 + k] = at[r % at.size()].first;
                        w *= at[r % at.size()].second;
                        r /= at.size();
                    }
                    f(sp, w);
                }
            };
            auto fwd = resampling_forward::primitive_desc(gpu, prop_kind::forward_training, alg, sm, dm);
            // The weights are f32 computations of positions: a few roundings per tap.
            const double err = 16 * post_ops_ref::f32_eps * 8;
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(fwd), {DNNL_ARG_SRC},
                              {DNNL_ARG_DST},
                              [&](const std::vector<tensor_t *> &x) {
                                  expected_t e(x[1]->lay);
                                  int64_t dp[DNNL_MAX_NDIMS] = {};
                                  do {
                                      double v = 0;
                                      each_tap(dp, [&](const int64_t *sp, double w) { v += w * x[0]->get(sp); });
                                      e.set(dp, v, err);
                                  } while (c_tensor::next_pos(dp, x[1]->lay.dims, x[1]->lay.ndims));
                                  c_tensor::expect_values(e.want, *x[1], e.slack);
                              }),
                    1);
            auto bwd = resampling_backward::primitive_desc(gpu, alg, sm, dm, fwd);
            EXPECT_GE(run_each_impl(cpu.get(), gpu.get(), handle(bwd), {DNNL_ARG_DIFF_DST},
                              {DNNL_ARG_DIFF_SRC},
                              [&](const std::vector<tensor_t *> &x) {
                                  expected_t idx(x[1]->lay);
                                  std::vector<double> want(size_t(x[1]->lay.nelems()), 0.0);
                                  int64_t dp[DNNL_MAX_NDIMS] = {};
                                  do {
                                      const double g = x[0]->get(dp);
                                      each_tap(dp, [&](const int64_t *sp, double w) { want[idx.index(sp)] += w * g; });
                                  } while (c_tensor::next_pos(dp, x[0]->lay.dims, x[0]->lay.ndims));
                                  std::vector<float> w(want.begin(), want.end());
                                  // Each src gathers a few dst gradients.
                                  c_tensor::expect_values(w, *x[1], std::vector<double>(w.size(), 4 * err));
                              }),
                    1);
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
