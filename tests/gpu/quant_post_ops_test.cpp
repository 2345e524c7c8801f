// GPU attributes against the CPU engine: scales (common, per output channel; f32 or bf16),
// zero points and post-op chains (sum, eltwise, binary with broadcast) in the output stages of
// matmul, inner product, convolution, deconvolution, softmax, layer norm, reduction, pooling
// and resampling.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

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

std::vector<int> with(std::vector<int> a, const attr_t &at) {
    a.insert(a.end(), at.args.begin(), at.args.end());
    return a;
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

void check_matmul(dnnl_data_type_t sdt, dnnl_data_type_t wdt, dnnl_data_type_t ddt,
        std::vector<int64_t> sd, std::vector<int64_t> wd, std::vector<int64_t> dd,
        attr_t &a, float tol) {
    dnnl_format_tag_t tag = sd.size() == 3 ? dnnl_abc : dnnl_ab;
    std::vector<int64_t> bd(dd.size(), 1);
    bd.back() = dd.back();
    dnnl_memory_desc_t s = md(sd, sdt, tag), w = md(wd, wdt, tag), d = md(dd, ddt, tag),
                       b = md(bd, dnnl_f32, tag);
    const std::vector<int> args = with(
            {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST}, a);
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_matmul_primitive_desc_create(pd, e, s, w, b, d, a.attr);
                      },
                      args, DNNL_ARG_DST, tol),
            1); // generic, and tiled where the device runs it
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
}

TEST(GpuQuantPostOps, MatmulF32Bf16ScalesAndPostOpsOnBatches) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1 << 2, dnnl_bf16).scale(DNNL_ARG_DST, 0);
    // The binary operands broadcast over the batch (per N) and over M.
    typical_chain(a, {1, 1, 19}, {3, 1, 19}, dnnl_abc);
    check_matmul(dnnl_f32, dnnl_f32, dnnl_f32, {3, 67, 33}, {3, 33, 19}, {3, 67, 19}, a, 1e-5f);
}

TEST(GpuQuantPostOps, MatmulInt8ZeroPointsPerChannelScalesS8AndBf16Dst) {
    SKIP_WITHOUT_GPU();
    // Each type is a build of its own (two kernels): u8 and f32 dst are covered by the
    // convolution tests, s32 by the smoke batch.
    for (dnnl_data_type_t ddt : {dnnl_s8, dnnl_bf16}) {
        SCOPED_TRACE(ddt);
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1 << 1);
        a.zero_point(DNNL_ARG_SRC).zero_point(DNNL_ARG_WEIGHTS).zero_point(DNNL_ARG_DST);
        typical_chain(a, {1, 23}, {17, 23}, dnnl_ba);
        // Integer dst: the GEMMs round the same f32 value; bf16 keeps 8 bits.
        const float tol = ddt == dnnl_bf16 ? 1e-2f : 1e-5f;
        check_matmul(dnnl_u8, dnnl_s8, ddt, {17, 29}, {29, 23}, {17, 23}, a, tol);
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
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_inner_product_forward_primitive_desc_create(
                                  pd, e, dnnl_forward_inference, s, w, b, d, a.attr);
                      },
                      with({DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST}, a),
                      DNNL_ARG_DST),
            1);
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
}

// Convolution (or deconvolution) 2x8x7x7 -> 2x16x.. with a 3x3 kernel, stride 1, pad 1.
int check_conv(bool deconv, dnnl_data_type_t sdt, dnnl_data_type_t ddt, dnnl_format_tag_t dtag,
        attr_t &a, float tol) {
    const dnnl_data_type_t wdt = sdt == dnnl_u8 ? dnnl_s8 : sdt;
    dnnl_memory_desc_t s = md({2, 8, 7, 7}, sdt, dnnl_nchw),
                       w = md({16, 8, 3, 3}, wdt, deconv ? dnnl_iohw : dnnl_oihw),
                       b = md({16}, dnnl_f32, dnnl_a), d = md({2, 16, 7, 7}, ddt, dtag);
    const dnnl_dims_t strides = {1, 1}, dil = {0, 0}, pad = {1, 1};
    const int impls = expect_gpu_matches_cpu(
            [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                if (deconv)
                    return dnnl_deconvolution_forward_primitive_desc_create(pd, e,
                            dnnl_forward_inference, dnnl_deconvolution_direct, s, w, b, d,
                            strides, dil, pad, pad, a.attr);
                return dnnl_convolution_forward_primitive_desc_create(pd, e,
                        dnnl_forward_inference, dnnl_convolution_direct, s, w, b, d, strides,
                        dil, pad, pad, a.attr);
            },
            with({DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST}, a), DNNL_ARG_DST,
            tol);
    for (auto m : {s, w, d, b})
        dnnl_memory_desc_destroy(m);
    return impls;
}

TEST(GpuQuantPostOps, ConvolutionPostOpsOnGemmAndDirect) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    typical_chain(a, {1, 16, 1, 1}, {2, 16, 7, 7}, dnnl_nhwc);
    EXPECT_GE(check_conv(false, dnnl_f32, dnnl_f32, dnnl_nchw, a, 1e-5f), 1);
    EXPECT_GE(check_conv(false, dnnl_f32, dnnl_f32, dnnl_nChw16c, a, 1e-5f), 1);
}

TEST(GpuQuantPostOps, ConvolutionInt8PerChannelScalesZeroPointsPostOps) {
    SKIP_WITHOUT_GPU();
    for (dnnl_data_type_t ddt : {dnnl_u8, dnnl_f32}) {
        SCOPED_TRACE(ddt);
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0).scale(DNNL_ARG_WEIGHTS, 1).scale(DNNL_ARG_DST, 0);
        a.zero_point(DNNL_ARG_SRC).zero_point(DNNL_ARG_DST);
        typical_chain(a, {1, 16, 1, 1}, {2, 16, 7, 7}, dnnl_nchw);
        EXPECT_GE(check_conv(false, dnnl_u8, ddt, dnnl_nhwc, a, 1e-5f), 1);
    }
}

TEST(GpuQuantPostOps, DeconvolutionScalesPostOps) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    a.scale(DNNL_ARG_WEIGHTS, 1);
    typical_chain(a, {1, 16, 1, 1}, {1, 1, 7, 7}, dnnl_nchw);
    EXPECT_GE(check_conv(true, dnnl_f32, dnnl_f32, dnnl_nchw, a, 1e-5f), 1);
}

TEST(GpuQuantPostOps, SoftmaxScalesPostOpsInt8Dst) {
    SKIP_WITHOUT_GPU();
    // Both algorithms share one build; a u8 dst takes the scaled, shifted results.
    for (dnnl_alg_kind_t alg : {dnnl_softmax_accurate, dnnl_softmax_log}) {
        attr_t a;
        a.scale(DNNL_ARG_SRC, 0, dnnl_bf16).scale(DNNL_ARG_DST, 0);
        a.binary(dnnl_binary_add, {3, 1}, dnnl_f32, dnnl_ab)
                .eltwise(dnnl_eltwise_linear, 64.f, 0.f)
                .eltwise(dnnl_eltwise_abs, 0.f, 0.f);
        dnnl_memory_desc_t s = md({3, 37}, dnnl_f32, dnnl_ab), d = md({3, 37}, dnnl_u8, dnnl_ab);
        EXPECT_GE(expect_gpu_matches_cpu(
                          [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                              return dnnl_softmax_forward_primitive_desc_create(
                                      pd, e, dnnl_forward_inference, alg, s, d, 1, a.attr);
                          },
                          with({DNNL_ARG_SRC, DNNL_ARG_DST}, a), DNNL_ARG_DST, 1e-4f),
                1);
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
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_layer_normalization_forward_primitive_desc_create(pd, e,
                                  dnnl_forward_inference, s, d, nullptr, 1e-3f,
                                  dnnl_use_scale | dnnl_use_shift, a.attr);
                      },
                      with({DNNL_ARG_SRC, DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_DST}, a),
                      DNNL_ARG_DST, 1e-4f),
            1);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(d);
}

TEST(GpuQuantPostOps, ReductionPoolingResamplingPostOps) {
    SKIP_WITHOUT_GPU();
    attr_t a;
    typical_chain(a, {1, 5, 1, 1}, {2, 5, 3, 3}, dnnl_nhwc);
    const std::vector<int> args = with({DNNL_ARG_SRC, DNNL_ARG_DST}, a);
    dnnl_memory_desc_t s = md({2, 5, 6, 6}, dnnl_f32, dnnl_nChw8c),
                       d = md({2, 5, 3, 3}, dnnl_f32, dnnl_nchw),
                       r = md({2, 5, 1, 1}, dnnl_f32, dnnl_nchw);
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          const dnnl_dims_t st = {2, 2}, k = {2, 2}, dl = {0, 0}, p = {0, 0};
                          return dnnl_pooling_forward_primitive_desc_create(pd, e,
                                  dnnl_forward_inference, dnnl_pooling_avg_exclude_padding, s, d,
                                  st, k, dl, p, p, a.attr);
                      },
                      args, DNNL_ARG_DST),
            1);
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_resampling_forward_primitive_desc_create(pd, e,
                                  dnnl_forward_inference, dnnl_resampling_linear, nullptr, s, d,
                                  a.attr);
                      },
                      args, DNNL_ARG_DST),
            1);
    attr_t ra;
    ra.sum(1.f).binary(dnnl_binary_sub, {1, 5, 1, 1}, dnnl_f32, dnnl_nchw);
    EXPECT_GE(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_reduction_primitive_desc_create(
                                  pd, e, dnnl_reduction_mean, s, r, 0.f, 0.f, ra.attr);
                      },
                      with({DNNL_ARG_SRC, DNNL_ARG_DST}, ra), DNNL_ARG_DST),
            1);
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
