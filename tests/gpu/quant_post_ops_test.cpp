// GPU attributes against the references of tests/primitives: scales (common, per output
// channel; f32 or bf16), zero points and post-op chains (sum, eltwise, binary with broadcast)
// in the output stages (output_stage_ref.hpp, post_ops_ref.hpp) of matmul, inner product,
// convolution, deconvolution (matmul_ref, inner_product_ref, convolution_ref), softmax
// (softmax_ref), layer norm (group_normalization_ref's statistics over one group), reduction
// (reduction_ref), pooling (pooling_ref) and resampling (resampling_ref). Tolerances: one
// rounding of dst's type plus the f32 error bound carried through the stage.
#include <algorithm>
#include <functional>

#include "gpu/device_copy.hpp"
#include "primitives/convolution_ref.hpp"
#include "primitives/group_normalization_ref.hpp"
#include "primitives/inner_product_ref.hpp"
#include "primitives/matmul_ref.hpp"
#include "primitives/output_stage_ref.hpp"
#include "primitives/pooling_ref.hpp"
#include "primitives/reduction_ref.hpp"
#include "primitives/resampling_ref.hpp"
#include "primitives/softmax_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

// An attribute and the execution arguments it adds.
struct attr_t {
    dnnl_primitive_attr_t attr = nullptr;
    dnnl_post_ops_t po = nullptr;
    std::vector<int> args;
    std::vector<dnnl_memory_desc_t> mds;

    attr_t() {
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        EXPECT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    }
    ~attr_t() {
        for (auto m : mds)
            dnnl_memory_desc_destroy(m);
        dnnl_post_ops_destroy(po);
        dnnl_primitive_attr_destroy(attr);
    }
    attr_t &scale(int arg, int mask, dnnl_data_type_t dt = dnnl_f32) {
        EXPECT_EQ(dnnl_primitive_attr_set_scales(attr, arg, mask, 0, nullptr, dt), dnnl_success);
        args.push_back(DNNL_ARG_ATTR_SCALES | arg);
        return *this;
    }
    attr_t &zero_point(int arg) {
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, arg, 0), dnnl_success);
        args.push_back(DNNL_ARG_ATTR_ZERO_POINTS | arg);
        return *this;
    }
    attr_t &sum(float scale) {
        EXPECT_EQ(dnnl_post_ops_append_sum(po, scale, 0, dnnl_data_type_undef), dnnl_success);
        return set();
    }
    attr_t &eltwise(dnnl_alg_kind_t alg, float alpha, float beta) {
        EXPECT_EQ(dnnl_post_ops_append_eltwise(po, alg, alpha, beta), dnnl_success);
        return set();
    }
    attr_t &binary(dnnl_alg_kind_t alg, std::vector<int64_t> dims, dnnl_data_type_t dt,
            dnnl_format_tag_t tag) {
        const int i = dnnl_post_ops_len(po);
        mds.push_back(md(dims, dt, tag));
        EXPECT_EQ(dnnl_post_ops_append_binary(po, alg, mds.back()), dnnl_success);
        args.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
        return set();
    }

private:
    attr_t &set() {
        EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        return *this;
    }
};

// The accumulator of the op at dst position pos before its output stage, with its error bound
// in err; sets what the stage adds per element (bias, a per-channel weights scale) in os.
using acc_t = std::function<double(
        const int64_t *pos, const lookup_t &in, output_stage_ref::params_t &os, double *err)>;

// Runs every implementation of pd on `ins`, the attribute's arguments and (when the chain
// sums) dst before the run, and checks dst: the accumulator through the output stage (src and
// dst scales and the dst zero point common), rounded to dst's type.
int check_stage(const_dnnl_primitive_desc_t cpd, std::vector<int> ins, const attr_t &a,
        const acc_t &acc) {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    EXPECT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_query(cpd, dnnl_query_engine, 0, &gpu), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_clone(&pd, cpd), dnnl_success);
    ins.insert(ins.end(), a.args.begin(), a.args.end());
    const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
    for (int i = 0; i < dnnl_post_ops_len(chain); ++i)
        if (dnnl_post_ops_get_kind(chain, i) == dnnl_sum) ins.push_back(DNNL_ARG_DST);
    const int impls = run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
            [&](const std::vector<tensor_t *> &t) {
                const lookup_t in {ins, t};
                const tensor_t &dst = *t.back();
                output_stage_ref::params_t os;
                os.src_scale = in.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 1);
                os.dst_scale = in.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, 1);
                os.dst_zp = in.common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, 0);
                os.po = chain;
                os.po_ops = post_ops_ref::operands_of(chain, ins, t);
                const std::vector<double> old
                        = in(DNNL_ARG_DST) ? c_tensor::values(*in(DNNL_ARG_DST)) : std::vector<double>();
                std::vector<float> want;
                std::vector<double> slack;
                int64_t pos[DNNL_MAX_NDIMS] = {};
                size_t k = 0;
                if (dst.lay.nelems() > 0) do {
                        double err = 0;
                        const double v = acc(pos, in, os, &err);
                        const double y = output_stage_ref::apply(
                                os, v, old.empty() ? 0.0 : old[k], pos, &err);
                        want.push_back(c_tensor::round_to(dst.lay.dt, float(y)));
                        slack.push_back(err);
                        ++k;
                    } while (c_tensor::next_pos(pos, dst.lay.dims, dst.lay.ndims));
                c_tensor::expect_values(want, dst, slack);
            });
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(cpu);
    return impls;
}

// A per-channel weights scale (mask on dst dim `dim`), or 1 without one.
double wei_scale_at(const lookup_t &in, const int64_t *pos, int dim) {
    const tensor_t *s = in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
    if (!s) return 1;
    const int64_t i = s->lay.nelems() == 1 ? 0 : pos[dim];
    return s->get(&i);
}

// sum, linear, add of a per-channel operand (dims `per_c`), mul of a full s8 operand.
void typical_chain(attr_t &a, const std::vector<int64_t> &per_c, const std::vector<int64_t> &full,
        dnnl_format_tag_t full_tag) {
    a.sum(0.5f)
            .eltwise(dnnl_eltwise_linear, 1.5f, -0.25f)
            .binary(dnnl_binary_add, per_c, dnnl_f32, dnnl_format_tag_any)
            .binary(dnnl_binary_mul, full, dnnl_s8, full_tag)
            .eltwise(dnnl_eltwise_relu, 0.1f, 0.f);
}

// An f32 accumulation's error bound: `terms` roundings of the sum of the terms' magnitudes
// (none for integer sources: s32 is exact).
double sum_error(int64_t terms, double mag, bool integer) {
    return integer ? 0.0 : double(terms) * post_ops_ref::f32_eps * mag;
}

bool is_int(dnnl_data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8;
}

// The GPU engine (created once, the tests' pds hold it).
dnnl_engine_t gpu_engine() {
    static dnnl_engine_t gpu = [] {
        dnnl_engine_t e = nullptr;
        EXPECT_EQ(dnnl_engine_create(&e, dnnl_gpu, 0), dnnl_success);
        return e;
    }();
    return gpu;
}

void check_matmul(dnnl_data_type_t sdt, dnnl_data_type_t wdt, dnnl_data_type_t ddt,
        std::vector<int64_t> sd, std::vector<int64_t> wd, std::vector<int64_t> dd, attr_t &a) {
    SCOPED_TRACE(::testing::Message() << "matmul " << dnnl_dt2str(sdt) << "x" << dnnl_dt2str(wdt)
                                      << "->" << dnnl_dt2str(ddt));
    dnnl_format_tag_t tag = sd.size() == 3 ? dnnl_abc : dnnl_ab;
    std::vector<int64_t> bd(dd.size(), 1);
    bd.back() = dd.back();
    dnnl_memory_desc_t s = md(sd, sdt, tag), w = md(wd, wdt, tag), d = md(dd, ddt, tag),
                       b = md(bd, dnnl_f32, tag);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu_engine(), s, w, b, d, a.attr),
            dnnl_success);
    const int nd = int(dd.size());
    const int64_t K = sd.back();
    if (pd) {
        EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS}, a,
                          [&](const int64_t *pos, const lookup_t &in,
                                  output_stage_ref::params_t &os, double *err) {
                              double mag = 0;
                              const double acc = matmul_ref::dot(
                                      matmul_ref::broadcasting(*in(DNNL_ARG_SRC)),
                                      matmul_ref::broadcasting(*in(DNNL_ARG_WEIGHTS)), nd, pos,
                                      K, in.common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, 0),
                                      in.common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, 0),
                                      &mag);
                              *err = sum_error(K, mag, is_int(sdt));
                              os.wei_scale = wei_scale_at(in, pos, nd - 1);
                              int64_t p[DNNL_MAX_NDIMS];
                              c_tensor::bcast_pos(in(DNNL_ARG_BIAS)->lay, pos, p);
                              os.bias = in(DNNL_ARG_BIAS)->get(p);
                              return acc;
                          }),
                1); // generic, and tiled where the device runs it
    }
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
}

TEST(GpuQuantPostOps, MatmulF32Bf16ScalesAndPostOpsOnBatches) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1 << 2, dnnl_bf16).scale(DNNL_ARG_DST, 0);
    // The binary operands broadcast over the batch (per N) and over M.
    typical_chain(a, {1, 1, 19}, {3, 1, 19}, dnnl_abc);
    check_matmul(dnnl_f32, dnnl_f32, dnnl_f32, {3, 67, 33}, {3, 33, 19}, {3, 67, 19}, a);
}

TEST(GpuQuantPostOps, MatmulInt8ZeroPointsPerChannelScalesS8AndBf16Dst) {
    SKIP_WITHOUT_GPU();
    // Each type is a build of its own (two kernels): u8 and f32 dst are covered by the
    // convolution tests, s32 by the smoke batch.
    for (dnnl_data_type_t ddt : {dnnl_s8, dnnl_bf16}) {
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1 << 1);
        a.zero_point(DNNL_ARG_SRC).zero_point(DNNL_ARG_WEIGHTS).zero_point(DNNL_ARG_DST);
        typical_chain(a, {1, 23}, {17, 23}, dnnl_ba);
        check_matmul(dnnl_u8, dnnl_s8, ddt, {17, 29}, {29, 23}, {17, 23}, a);
    }
}

TEST(GpuQuantPostOps, InnerProductPostOps) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_SRC, 0);
    typical_chain(a, {1, 13}, {5, 13}, dnnl_ab);
    dnnl_memory_desc_t s = md({5, 3, 4, 4}, dnnl_f32, dnnl_nchw),
                       w = md({13, 3, 4, 4}, dnnl_f32, dnnl_oihw), b = md({13}, dnnl_f32, dnnl_a),
                       d = md({5, 13}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                      &pd, gpu_engine(), dnnl_forward_inference, s, w, b, d, a.attr),
            dnnl_success);
    const int64_t K = 3 * 4 * 4;
    EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS}, a,
                      [&](const int64_t *pos, const lookup_t &in, output_stage_ref::params_t &os,
                              double *err) {
                          const auto x = c_tensor::values(*in(DNNL_ARG_SRC)),
                                     w = c_tensor::values(*in(DNNL_ARG_WEIGHTS));
                          auto row_major = [](const std::vector<double> &v) {
                              return [&v](int64_t i) { return v[size_t(i)]; };
                          };
                          double mag = 0;
                          const double acc = inner_product_ref::forward(
                                  row_major(x), row_major(w), pos[0], pos[1], K, &mag);
                          *err = sum_error(K, mag, false);
                          os.bias = in(DNNL_ARG_BIAS)->get(&pos[1]);
                          return acc;
                      }),
            1);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
}

// Convolution (or deconvolution) 2x8x7x7 -> 2x16x.. with a 3x3 kernel, stride 1, pad 1.
int check_conv(bool deconv, dnnl_data_type_t sdt, dnnl_data_type_t ddt, dnnl_format_tag_t dtag,
        attr_t &a) {
    SCOPED_TRACE(::testing::Message() << (deconv ? "deconvolution " : "convolution ")
                                      << dnnl_dt2str(sdt) << "->" << dnnl_dt2str(ddt) << " "
                                      << dnnl_fmt_tag2str(dtag));
    const dnnl_data_type_t wdt = sdt == dnnl_u8 ? dnnl_s8 : sdt;
    dnnl_memory_desc_t s = md({2, 8, 7, 7}, sdt, dnnl_nchw),
                       w = md({16, 8, 3, 3}, wdt, deconv ? dnnl_iohw : dnnl_oihw),
                       b = md({16}, dnnl_f32, dnnl_a), d = md({2, 16, 7, 7}, ddt, dtag);
    const dnnl_dims_t strides = {1, 1}, dil = {0, 0}, pad = {1, 1};
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(deconv ? dnnl_deconvolution_forward_primitive_desc_create(&pd, gpu_engine(),
                               dnnl_forward_inference, dnnl_deconvolution_direct, s, w, b, d,
                               strides, dil, pad, pad, a.attr)
                     : dnnl_convolution_forward_primitive_desc_create(&pd, gpu_engine(),
                             dnnl_forward_inference, dnnl_convolution_direct, s, w, b, d,
                             strides, dil, pad, pad, a.attr),
            dnnl_success);
    convolution_ref::problem_t p;
    p.mb = 2;
    p.oc = 16;
    p.ic = 8;
    p.i[0] = p.i[1] = 7;
    // The accumulators, computed at a run's first element (the relation is a scatter); every
    // run gets the same inputs (the same seeds).
    const void *seen = nullptr;
    std::vector<double> acc, mag;
    int impls = 0;
    if (pd)
        impls = check_stage(pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS}, a,
                [&](const int64_t *pos, const lookup_t &in, output_stage_ref::params_t &os,
                        double *err) {
                    if (seen != in(DNNL_ARG_SRC)) {
                        seen = in(DNNL_ARG_SRC);
                        const auto x = c_tensor::values(*in(DNNL_ARG_SRC)),
                                   wv = c_tensor::values(*in(DNNL_ARG_WEIGHTS));
                        const double zp = in.common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, 0);
                        acc.assign(2 * 16 * 49, 0.0);
                        mag.assign(acc.size(), 0.0);
                        convolution_ref::relation(p, deconv, [&](int64_t si, int64_t wi, int64_t di) {
                            const double t = (x[size_t(si)] - zp) * wv[size_t(wi)];
                            acc[size_t(di)] += t;
                            mag[size_t(di)] += std::fabs(t);
                        });
                    }
                    const size_t i = size_t(((pos[0] * 16 + pos[1]) * 7 + pos[2]) * 7 + pos[3]);
                    *err = sum_error(8 * 9, mag[i], is_int(sdt));
                    os.wei_scale = wei_scale_at(in, pos, 1);
                    os.bias = in(DNNL_ARG_BIAS)->get(&pos[1]);
                    return acc[i];
                });
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
    return impls;
}

TEST(GpuQuantPostOps, ConvolutionPostOpsOnGemmAndDirect) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    typical_chain(a, {1, 16, 1, 1}, {2, 16, 7, 7}, dnnl_nhwc);
    EXPECT_GE(check_conv(false, dnnl_f32, dnnl_f32, dnnl_nchw, a), 1);
    EXPECT_GE(check_conv(false, dnnl_f32, dnnl_f32, dnnl_nChw16c, a), 1);
}

TEST(GpuQuantPostOps, ConvolutionInt8PerChannelScalesZeroPointsPostOps) {
    SKIP_WITHOUT_GPU();
    for (dnnl_data_type_t ddt : {dnnl_u8, dnnl_f32}) {
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1).scale(DNNL_ARG_DST, 0);
        a.zero_point(DNNL_ARG_SRC).zero_point(DNNL_ARG_DST);
        typical_chain(a, {1, 16, 1, 1}, {2, 16, 7, 7}, dnnl_nchw);
        EXPECT_GE(check_conv(false, dnnl_u8, ddt, dnnl_nhwc, a), 1);
    }
}

TEST(GpuQuantPostOps, DeconvolutionScalesPostOps) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_WEIGHTS, 1);
    typical_chain(a, {1, 16, 1, 1}, {1, 1, 7, 7}, dnnl_nchw);
    EXPECT_GE(check_conv(true, dnnl_f32, dnnl_f32, dnnl_nchw, a), 1);
}

TEST(GpuQuantPostOps, SoftmaxScalesPostOpsInt8Dst) {
    SKIP_WITHOUT_GPU();
    // Both algorithms share one build; a u8 dst takes the scaled, shifted results.
    for (dnnl_alg_kind_t alg : {dnnl_softmax_accurate, dnnl_softmax_log}) {
        SCOPED_TRACE(dnnl_alg_kind2str(alg));
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0, dnnl_bf16).scale(DNNL_ARG_DST, 0);
        a.binary(dnnl_binary_add, {3, 1}, dnnl_f32, dnnl_ab)
                .eltwise(dnnl_eltwise_linear, 64.f, 0.f)
                .eltwise(dnnl_eltwise_abs, 0.f, 0.f);
        dnnl_memory_desc_t s = md({3, 37}, dnnl_f32, dnnl_ab), d = md({3, 37}, dnnl_u8, dnnl_ab);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_softmax_forward_primitive_desc_create(
                          &pd, gpu_engine(), dnnl_forward_inference, alg, s, d, 1, a.attr),
                dnnl_success);
        EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC}, a,
                          [&](const int64_t *pos, const lookup_t &in,
                                  output_stage_ref::params_t &, double *err) {
                              std::vector<double> x;
                              for (int64_t k = 0; k < 37; ++k) {
                                  const int64_t p[2] = {pos[0], k};
                                  x.push_back(in(DNNL_ARG_SRC)->get(p));
                              }
                              const double y = softmax_ref::slice(alg, x)[size_t(pos[1])];
                              // exp and log to a few ulps over the row's sum.
                              *err = 37 * 4 * post_ops_ref::f32_eps * (std::fabs(y) + 1);
                              return y;
                          }),
                1);
        dnnl_primitive_desc_destroy(pd);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(d);
    }
}

TEST(GpuQuantPostOps, LayerNormScalesInt8Dst) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_DST, 0);
    dnnl_memory_desc_t s = md({5, 3, 40}, dnnl_f32, dnnl_abc),
                       d = md({5, 3, 40}, dnnl_s8, dnnl_abc);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(&pd, gpu_engine(),
                      dnnl_forward_inference, s, d, nullptr, 1e-3f,
                      dnnl_use_scale | dnnl_use_shift, a.attr),
            dnnl_success);
    // Layer norm's statistics over the last dim are group norm's with one group of one
    // channel per row.
    const group_normalization_ref::shape_t rows({15, 1, 40}, 1);
    EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC, DNNL_ARG_SCALE, DNNL_ARG_SHIFT}, a,
                      [&](const int64_t *pos, const lookup_t &in, output_stage_ref::params_t &,
                              double *err) {
                          const auto x = c_tensor::values(*in(DNNL_ARG_SRC));
                          std::vector<double> mu, va;
                          group_normalization_ref::statistics(x, rows, mu, va);
                          const size_t r = size_t(pos[0] * 3 + pos[1]);
                          const double y = group_normalization_ref::forward(
                                  x[r * 40 + size_t(pos[2])], mu[r], va[r], 1e-3,
                                  in(DNNL_ARG_SCALE)->get(&pos[2]),
                                  in(DNNL_ARG_SHIFT)->get(&pos[2]));
                          *err = 4 * 40 * post_ops_ref::f32_eps * (std::fabs(y) + 1);
                          return y;
                      }),
            1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(d);
}

TEST(GpuQuantPostOps, ReductionPoolingResamplingPostOps) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    typical_chain(a, {1, 5, 1, 1}, {2, 5, 3, 3}, dnnl_nhwc);
    dnnl_memory_desc_t s = md({2, 5, 6, 6}, dnnl_f32, dnnl_nChw8c),
                       d = md({2, 5, 3, 3}, dnnl_f32, dnnl_nchw),
                       r = md({2, 5, 1, 1}, dnnl_f32, dnnl_nchw);
    {
        SCOPED_TRACE("pooling avg_exclude_padding 2x2 stride 2");
        pooling_ref::pool_case_t pc {{2, 5, 6, 6}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}};
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, gpu_engine(),
                          dnnl_forward_inference, dnnl_pooling_avg_exclude_padding, s, d,
                          pc.s.data(), pc.k.data(), pc.dl.data(), pc.pl.data(), pc.pr.data(),
                          a.attr),
                dnnl_success);
        EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC}, a,
                          [&](const int64_t *pos, const lookup_t &in,
                                  output_stage_ref::params_t &, double *err) {
                              const pooling_ref::window_t w = pooling_ref::window(pc, pos);
                              double sum = 0, mag = 0;
                              for (const auto &sp : w.taps) {
                                  const int64_t p[4] = {pos[0], pos[1], sp[0], sp[1]};
                                  sum += in(DNNL_ARG_SRC)->get(p);
                                  mag += std::fabs(in(DNNL_ARG_SRC)->get(p));
                              }
                              *err = sum_error(int64_t(w.taps.size()) + 1, mag, false);
                              return sum / double(w.taps.size());
                          }),
                1);
        dnnl_primitive_desc_destroy(pd);
    }
    {
        SCOPED_TRACE("resampling linear 6x6 to 3x3");
        const resampling_ref::taps_t taps = resampling_ref::make_taps(true, 6, 3);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, gpu_engine(),
                          dnnl_forward_inference, dnnl_resampling_linear, nullptr, s, d, a.attr),
                dnnl_success);
        EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC}, a,
                          [&](const int64_t *pos, const lookup_t &in,
                                  output_stage_ref::params_t &, double *err) {
                              double v = 0, mag = 0;
                              for (const auto &h : taps.at[size_t(pos[2])])
                                  for (const auto &w : taps.at[size_t(pos[3])]) {
                                      const int64_t p[4] = {pos[0], pos[1], h.first, w.first};
                                      const double t = h.second * w.second
                                              * in(DNNL_ARG_SRC)->get(p);
                                      v += t;
                                      mag += std::fabs(t);
                                  }
                              // The weights are f32 computations of the positions too.
                              *err = sum_error(8, mag, false);
                              return v;
                          }),
                1);
        dnnl_primitive_desc_destroy(pd);
    }
    {
        SCOPED_TRACE("reduction mean over spatial");
        attr_t ra;
        ra.sum(1.f).binary(dnnl_binary_sub, {1, 5, 1, 1}, dnnl_f32, dnnl_nchw);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reduction_primitive_desc_create(
                          &pd, gpu_engine(), dnnl_reduction_mean, s, r, 0.f, 0.f, ra.attr),
                dnnl_success);
        EXPECT_GE(check_stage(pd, {DNNL_ARG_SRC}, ra,
                          [&](const int64_t *pos, const lookup_t &in,
                                  output_stage_ref::params_t &, double *err) {
                              std::vector<double> x;
                              for (int64_t h = 0; h < 6; ++h)
                                  for (int64_t w = 0; w < 6; ++w) {
                                      const int64_t p[4] = {pos[0], pos[1], h, w};
                                      x.push_back(in(DNNL_ARG_SRC)->get(p));
                                  }
                              const reduction_ref::ref_t v = reduction_ref::reduce(
                                      dnnl_reduction_mean, x, 0, 0);
                              *err = sum_error(int64_t(x.size()) + 1, v.magnitude, false);
                              return v.value;
                          }),
                1);
        dnnl_primitive_desc_destroy(pd);
    }
    for (auto m : {s, d, r})
        dnnl_memory_desc_destroy(m);
}

TEST(GpuQuantPostOps, HostScalarScalesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32, 1),
            dnnl_success);
    dnnl_memory_desc_t s = md({3, 8}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(&pd, gpu, dnnl_forward_inference,
                      dnnl_softmax_accurate, s, s, 1, attr),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(s);
    dnnl_primitive_attr_destroy(attr);
    dnnl_engine_destroy(gpu);
}

} // namespace
