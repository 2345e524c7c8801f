// GPU group normalization against the reference of tests/primitives
// (group_normalization_ref.hpp, post_ops_ref.hpp): forward training (dst and statistics),
// inference with global statistics, backward (diff_src, diff scale/shift), post-ops; edge
// shapes (size 1, odd channels and spatial sizes, groups of one channel, blocked tails with
// their padding zeroed, an empty batch), f32 and bf16; unsupported attributes. Tolerances: one
// rounding of the output's type plus f32 roundings over the group (its reduction length).
#include <algorithm>
#include <string>

#include "gpu/device_copy.hpp"
#include "primitives/group_normalization_ref.hpp"
#include "primitives/post_ops_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;
namespace ref = group_normalization_ref;

constexpr unsigned scale_shift = dnnl_use_scale | dnnl_use_shift;
constexpr double eps = 1e-3;

struct shape_t {
    std::vector<int64_t> dims;
    int64_t groups;
    dnnl_format_tag_t tag;
    dnnl_data_type_t dt;
};

const shape_t shapes[] = {
        {{1, 1, 1}, 1, dnnl_abc, dnnl_f32}, // one element
        {{2, 6, 5}, 3, dnnl_abc, dnnl_f32}, // odd spatial size
        {{2, 5, 3, 3}, 5, dnnl_abcd, dnnl_f32}, // groups of one channel, odd channels
        {{3, 7, 2, 3}, 1, dnnl_acdb, dnnl_f32}, // one group, channels last
        {{2, 20, 3, 3}, 5, dnnl_aBcd16b, dnnl_f32}, // blocked tail: padding zeroed
        {{2, 3, 2, 2, 3}, 3, dnnl_abcde, dnnl_f32}, // 3D spatial
        {{2, 8, 4}, 2, dnnl_abc, dnnl_bf16},
        {{0, 4, 3}, 2, dnnl_abc, dnnl_f32}, // empty batch
};

std::string name_of(const shape_t &s, unsigned flags) {
    return "c " + std::to_string(s.dims[1]) + " g " + std::to_string(s.groups) + " "
            + dnnl_fmt_tag2str(s.tag) + " " + dnnl_dt2str(s.dt) + " flags "
            + std::to_string(flags);
}

// Forward pd of `s` with flags on the GPU (prop training or inference).
dnnl_status_t make_fwd(dnnl_primitive_desc_t *pd, dnnl_engine_t e, const shape_t &s,
        dnnl_prop_kind_t prop, unsigned flags, const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_memory_desc_t m = md(s.dims, s.dt, s.tag);
    const dnnl_status_t st = dnnl_group_normalization_forward_primitive_desc_create(
            pd, e, prop, m, m, s.groups, float(eps), flags, attr);
    dnnl_memory_desc_destroy(m);
    return st;
}

// The forward outputs (dst through the chain, and the statistics when computed) of every
// implementation of pd, against the reference.
void check_forward(dnnl_engine_t cpu, dnnl_engine_t gpu, dnnl_primitive_desc_t pd,
        const shape_t &s, unsigned flags, bool training) {
    const ref::shape_t sh(s.dims, s.groups);
    const bool global = flags & dnnl_use_global_stats;
    std::vector<int> ins = {DNNL_ARG_SRC};
    if (flags & dnnl_use_scale) ins.push_back(DNNL_ARG_SCALE);
    if (flags & dnnl_use_shift) ins.push_back(DNNL_ARG_SHIFT);
    if (global) ins.insert(ins.end(), {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE});
    const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
    for (int i = 0; i < dnnl_post_ops_len(chain); ++i)
        if (dnnl_post_ops_get_kind(chain, i) == dnnl_sum) ins.push_back(DNNL_ARG_DST);
    std::vector<int> outs = {DNNL_ARG_DST};
    if (training && !global) outs.insert(outs.end(), {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE});
    EXPECT_GE(run_each_impl(cpu, gpu, pd, ins, outs,
                      [&](const std::vector<tensor_t *> &t) {
                          const lookup_t in {ins, t};
                          const std::vector<double> x = c_tensor::values(*t[0]);
                          std::vector<double> mu, va, gam, bet, old;
                          if (global) {
                              mu = c_tensor::values(*in(DNNL_ARG_MEAN));
                              va = c_tensor::values(*in(DNNL_ARG_VARIANCE));
                          } else {
                              ref::statistics(x, sh, mu, va);
                          }
                          if (in(DNNL_ARG_SCALE)) gam = c_tensor::values(*in(DNNL_ARG_SCALE));
                          if (in(DNNL_ARG_SHIFT)) bet = c_tensor::values(*in(DNNL_ARG_SHIFT));
                          if (in(DNNL_ARG_DST)) old = c_tensor::values(*in(DNNL_ARG_DST));
                          const post_ops_ref::operands_t none;
                          std::vector<double> y(x.size());
                          int64_t pos[DNNL_MAX_NDIMS] = {};
                          for (size_t e = 0; e < x.size(); ++e) {
                              const int64_t c = int64_t(e) / sh.SP % sh.C;
                              const size_t w = size_t(sh.stat(int64_t(e) / sh.SP / sh.C, c));
                              y[e] = post_ops_ref::apply(chain,
                                      ref::forward(x[e], mu[w], va[w], eps,
                                              gam.empty() ? 1.0 : gam[size_t(c)],
                                              bet.empty() ? 0.0 : bet[size_t(c)]),
                                      old.empty() ? 0.0 : old[e], pos, none);
                          }
                          const double L = double(sh.group_size());
                          expect_near(*t[ins.size()], y, 4 * L);
                          if (outs.size() > 1) {
                              expect_near(*t[ins.size() + 1], mu, L);
                              expect_near(*t[ins.size() + 2], va, 4 * L);
                          }
                      }),
            1);
}

TEST(GpuGroupNorm, ForwardTrainingDstAndStatistics) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    for (const auto &s : shapes)
        for (unsigned flags : {0u, scale_shift}) {
            SCOPED_TRACE(name_of(s, flags));
            dnnl_primitive_desc_t pd = nullptr;
            ASSERT_EQ(make_fwd(&pd, gpu, s, dnnl_forward_training, flags), dnnl_success);
            check_forward(cpu, gpu, pd, s, flags, true);
            dnnl_primitive_desc_destroy(pd);
        }
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

// s8/u8 data (oneDNN's forward takes them): statistics of the integers, dst rounded and
// saturated to the integer type.
TEST(GpuGroupNorm, IntegerDataForward) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const shape_t ints[] = {{{2, 6, 5}, 3, dnnl_abc, dnnl_s8}, {{3, 7, 2, 3}, 7, dnnl_acdb, dnnl_u8},
            {{1, 4, 3, 3, 2}, 2, dnnl_abcde, dnnl_s8}};
    for (const auto &s : ints)
        for (auto prop : {dnnl_forward_training, dnnl_forward_inference})
            for (unsigned flags : {0u, scale_shift}) {
                SCOPED_TRACE(name_of(s, flags));
                dnnl_primitive_desc_t pd = nullptr;
                ASSERT_EQ(make_fwd(&pd, gpu, s, prop, flags), dnnl_success);
                check_forward(cpu, gpu, pd, s, flags, prop == dnnl_forward_training);
                dnnl_primitive_desc_destroy(pd);
            }
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuGroupNorm, InferenceWithGlobalStatistics) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    int i = 0;
    for (const auto &s : shapes) {
        // Scale alone and shift alone on some shapes, both on the others.
        const unsigned ss = i % 3 == 0 ? unsigned(dnnl_use_scale)
                : i % 3 == 1           ? unsigned(dnnl_use_shift)
                                       : scale_shift;
        ++i;
        const unsigned flags = ss | dnnl_use_global_stats;
        SCOPED_TRACE(name_of(s, flags));
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(make_fwd(&pd, gpu, s, dnnl_forward_inference, flags), dnnl_success);
        check_forward(cpu, gpu, pd, s, flags, false);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuGroupNorm, BackwardDataAndScaleShift) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    for (const auto &s : shapes)
        for (unsigned flags : {0u, scale_shift, scale_shift | dnnl_use_global_stats}) {
            SCOPED_TRACE(name_of(s, flags));
            dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
            ASSERT_EQ(make_fwd(&hint, gpu, s, dnnl_forward_training, flags), dnnl_success);
            dnnl_memory_desc_t m = md(s.dims, s.dt, s.tag);
            ASSERT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, gpu,
                              dnnl_backward, m, m, m, s.groups, float(eps), flags, hint, nullptr),
                    dnnl_success);
            dnnl_memory_desc_destroy(m);
            std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_MEAN,
                    DNNL_ARG_VARIANCE};
            std::vector<int> outs = {DNNL_ARG_DIFF_SRC};
            if (flags & dnnl_use_scale) {
                ins.push_back(DNNL_ARG_SCALE);
                outs.insert(outs.end(), {DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT});
            }
            const ref::shape_t sh(s.dims, s.groups);
            EXPECT_EQ(run_each_impl(cpu, gpu, pd, ins, outs,
                              [&](const std::vector<tensor_t *> &t) {
                                  std::vector<double> gam;
                                  if (flags & dnnl_use_scale) gam = c_tensor::values(*t[4]);
                                  const ref::backward_t want = ref::backward(
                                          c_tensor::values(*t[0]), c_tensor::values(*t[1]),
                                          c_tensor::values(*t[2]), c_tensor::values(*t[3]), gam,
                                          sh, eps, flags & dnnl_use_global_stats);
                                  const double L = double(sh.group_size());
                                  expect_near(*t[ins.size()], want.diff_src, 16 * L);
                                  if (outs.size() > 1) {
                                      const double NS = double(sh.N * sh.SP);
                                      expect_near(*t[ins.size() + 1], want.diff_scale, 16 * NS);
                                      expect_near(*t[ins.size() + 2], want.diff_shift, 4 * NS);
                                  }
                              }),
                    1);
            dnnl_primitive_desc_destroy(pd);
            dnnl_primitive_desc_destroy(hint);
        }
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuGroupNorm, ForwardPostOps) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.1f, 0.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    for (const shape_t &s : {shapes[2], shapes[4]}) {
        SCOPED_TRACE(name_of(s, scale_shift));
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(make_fwd(&pd, gpu, s, dnnl_forward_inference, scale_shift, attr), dnnl_success);
        check_forward(cpu, gpu, pd, s, scale_shift, false);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

// One src/dst scale each is oneDNN's (norm_post_ops_test.cpp runs them); per-channel is not.
TEST(GpuGroupNorm, PerChannelScalesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 1 << 1), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(make_fwd(&pd, gpu, shapes[1], dnnl_forward_inference, 0, attr), dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_engine_destroy(gpu);
}

} // namespace
