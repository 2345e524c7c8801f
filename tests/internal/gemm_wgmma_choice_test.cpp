// The GEMM core's choice between the wgmma kernels and its own variant at each launch
// (gemm_wgmma_refusal): taken for bf16/f16 with 16-byte rows and unit inner strides, refused
// with a reason for other types, strides, offsets, batches, bias and output stages.
#include <string>

#include <gtest/gtest.h>

#include "gpu/gemm/gemm.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

gemm_types_t bf16_types(dnnl_data_type_t c = dnnl_f32) {
    gemm_types_t t;
    t.a = t.b = dnnl_bf16;
    t.c = c;
    return t;
}

// Row-major A (M x K), row-major B (K x N), row-major C (M x N), dense.
gemm_params_t plain(int64_t M, int64_t N, int64_t K) {
    gemm_params_t p;
    p.M = M, p.N = N, p.K = K;
    p.a_sm = K, p.a_sk = 1;
    p.b_sk = N, p.b_sn = 1;
    p.c_sm = N, p.c_sn = 1;
    return p;
}

} // namespace

TEST(gemm_wgmma_choice, takes_aligned_plain_products_in_every_layout) {
    wgmma_problem_t w;
    gemm_params_t p = plain(256, 512, 1024);
    ASSERT_EQ(gemm_wgmma_refusal(bf16_types(), p, true, w), nullptr);
    EXPECT_FALSE(w.layout.a_m_major);
    EXPECT_TRUE(w.layout.b_n_major);
    EXPECT_EQ(w.layout.lda, 1024);
    EXPECT_EQ(w.layout.ldb, 512);
    EXPECT_EQ(w.layout.ldc, 512);
    EXPECT_EQ(w.m, 256);
    EXPECT_EQ(w.n, 512);
    EXPECT_EQ(w.k, 1024);
    EXPECT_EQ(w.c_type, dnnl_f32);
    EXPECT_EQ(w.bias_type, dnnl_data_type_undef);
    // Transposed A (M-major) and B (K-major): inner product's backward directions.
    p.a_sm = 1, p.a_sk = 256;
    p.b_sk = 1, p.b_sn = 1024;
    ASSERT_EQ(gemm_wgmma_refusal(bf16_types(dnnl_bf16), p, true, w), nullptr);
    EXPECT_TRUE(w.layout.a_m_major);
    EXPECT_FALSE(w.layout.b_n_major);
    EXPECT_EQ(w.layout.lda, 256);
    EXPECT_EQ(w.layout.ldb, 1024);
    EXPECT_EQ(w.c_type, dnnl_bf16);
    // Odd M, N, K are tails for the kernels, not refusals, where the rows are padded to 8.
    gemm_params_t odd = plain(1, 13, 21);
    odd.a_sm = 24, odd.b_sk = 16;
    EXPECT_EQ(gemm_wgmma_refusal(bf16_types(), odd, true, w), nullptr);
}

TEST(gemm_wgmma_choice, one_batch_dimension_with_its_strides) {
    wgmma_problem_t w;
    gemm_params_t p = plain(64, 64, 64);
    p.batch_dims[1] = 3;
    p.a_sb[1] = 64 * 64, p.b_sb[1] = 0, p.c_sb[1] = 64 * 64 + 5;
    ASSERT_EQ(gemm_wgmma_refusal(bf16_types(), p, true, w), nullptr);
    EXPECT_EQ(w.batch, 3);
    EXPECT_EQ(w.a_sb, 64 * 64);
    EXPECT_EQ(w.b_sb, 0);
    EXPECT_EQ(w.c_sb, 64 * 64 + 5);
    p.batch_dims[2] = 2;
    EXPECT_STREQ(gemm_wgmma_refusal(bf16_types(), p, true, w), "more than one batch dimension");
    p.batch_dims[2] = 1;
    p.a_sb[1] = 64 * 64 + 4; // batch step not 16 bytes
    EXPECT_NE(gemm_wgmma_refusal(bf16_types(), p, true, w), nullptr);
}

TEST(gemm_wgmma_choice, falls_back_for_what_the_kernels_do_not_take) {
    wgmma_problem_t w;
    auto refused = [&](const gemm_types_t &t, const gemm_params_t &p, bool plain_out) {
        return gemm_wgmma_refusal(t, p, plain_out, w) != nullptr;
    };
    const gemm_params_t ok = plain(128, 128, 128);
    ASSERT_FALSE(refused(bf16_types(), ok, true));
    gemm_types_t f16 = bf16_types(dnnl_f16);
    f16.a = f16.b = dnnl_f16;
    EXPECT_FALSE(refused(f16, ok, true));

    gemm_types_t f32 = bf16_types();
    f32.a = f32.b = dnnl_f32;
    EXPECT_TRUE(refused(f32, ok, true));
    gemm_types_t mixed = bf16_types();
    mixed.b = dnnl_f16;
    EXPECT_TRUE(refused(mixed, ok, true));
    EXPECT_TRUE(refused(bf16_types(dnnl_f16), ok, true)); // C neither f32 nor bf16
    EXPECT_TRUE(refused(bf16_types(), ok, false));        // post-ops, scales, zero points

    gemm_params_t p = ok;
    p.beta_accumulate = 1;
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.K = 0;
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.a_sm = 136; // fine: 8-element rows
    EXPECT_FALSE(refused(bf16_types(), p, true));
    p = ok, p.a_sm = 130; // rows not 16 bytes apart
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.b_off = 4;
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.c_off = 3, p.c_sm = 131; // C is written element-wise where unaligned
    EXPECT_FALSE(refused(bf16_types(), p, true));
    p = ok, p.a_sk = 2; // no unit stride in A
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.b_sn = 128, p.b_sk = 2;
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.c_sn = 128, p.c_sm = 1; // column-major C
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.K = int64_t(1) << 31;
    EXPECT_TRUE(refused(bf16_types(), p, true));

    // Bias: dense over N in f32 or the input type only.
    p = ok, p.has_bias = 1, p.bias_sn = 1;
    ASSERT_FALSE(refused(bf16_types(), p, true));
    EXPECT_EQ(w.bias_type, dnnl_f32);
    p.bias_sn = 0, p.bias_sm = 1; // over M
    EXPECT_TRUE(refused(bf16_types(), p, true));
    p = ok, p.has_bias = 1, p.bias_sn = 1, p.bias_off = 8;
    EXPECT_TRUE(refused(bf16_types(), p, true));
    gemm_types_t s8_bias = bf16_types();
    s8_bias.bias = dnnl_s8;
    p = ok, p.has_bias = 1, p.bias_sn = 1;
    EXPECT_TRUE(refused(s8_bias, p, true));
}
