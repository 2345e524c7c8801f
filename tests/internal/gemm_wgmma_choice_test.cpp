// The GEMM core's choice between the wgmma kernels and its own variant at each launch
// (gemm_wgmma_refusal): taken for bf16/f16 with 16-byte rows and unit inner strides, refused
// with a reason for other types, strides, offsets, batches, bias and output stages.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "gpu/gemm/gemm.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

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

// 8-bit and f32 (as TF32) products take the kernels only where the primitive offers their
// epilogue (and, for f32, an fpmath mode allowing TF32), with A and B K-major (inner
// product forward: src rows and weights rows), 16-byte rows, C and bias types the epilogue
// writes and reads; zero points and host scales stay on the core's kernels.
TEST(gemm_wgmma_choice, int8_and_tf32_through_the_offered_epilogue) {
    wgmma_problem_t w;
    gemm_wgmma_offer_t none, epi, tf32;
    epi.epilogue = true;
    tf32.epilogue = tf32.tf32 = true;
    // M x K src rows, N x K weights rows: both K-major.
    auto kmajor = [](int64_t M, int64_t N, int64_t K) {
        gemm_params_t p;
        p.M = M, p.N = N, p.K = K;
        p.a_sm = K, p.a_sk = 1;
        p.b_sk = 1, p.b_sn = K;
        p.c_sm = N, p.c_sn = 1;
        return p;
    };
    gemm_types_t u8s8;
    u8s8.a = dnnl_u8, u8s8.b = dnnl_s8, u8s8.c = dnnl_s8;
    const gemm_params_t p = kmajor(200, 96, 256);
    EXPECT_NE(gemm_wgmma_refusal(u8s8, p, true, w, none), nullptr);
    ASSERT_EQ(gemm_wgmma_refusal(u8s8, p, true, w, epi), nullptr);
    EXPECT_FALSE(w.layout.a_m_major);
    EXPECT_FALSE(w.layout.b_n_major);
    EXPECT_EQ(w.layout.lda, 256);
    EXPECT_EQ(w.layout.ldb, 256);
    EXPECT_EQ(w.c_type, dnnl_s8);
    for (dnnl_data_type_t c : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s32, dnnl_u8}) {
        gemm_types_t t = u8s8;
        t.c = c;
        EXPECT_EQ(gemm_wgmma_types_refusal(t, epi), nullptr) << dnnl_dt2str(c);
    }
    gemm_types_t s8s8 = u8s8;
    s8s8.a = dnnl_s8;
    EXPECT_EQ(gemm_wgmma_types_refusal(s8s8, epi), nullptr);
    gemm_types_t mixed = u8s8;
    mixed.b = dnnl_bf16;
    EXPECT_NE(gemm_wgmma_types_refusal(mixed, epi), nullptr);

    // Zero points or host scales (output_ok false), accumulation into C.
    EXPECT_STREQ(gemm_wgmma_refusal(u8s8, p, false, w, epi), "zero points or host scales");
    gemm_params_t q = p;
    q.beta_accumulate = 1;
    EXPECT_NE(gemm_wgmma_refusal(u8s8, q, true, w, epi), nullptr);
    // Row-major B (N-major) or column-major A: no transposed 8-bit or tf32 tiles.
    q = p, q.b_sk = 96, q.b_sn = 1;
    EXPECT_STREQ(gemm_wgmma_refusal(u8s8, q, true, w, epi),
            "tf32 and 8-bit tiles are K-major: A and B need a unit stride along K");
    q = p, q.a_sm = 1, q.a_sk = 200;
    EXPECT_NE(gemm_wgmma_refusal(u8s8, q, true, w, epi), nullptr);
    // 16-byte rows: 16 elements of 8 bits.
    q = p, q.a_sm = 264; // 8 elements past K: enough for bf16, not for bytes
    EXPECT_NE(gemm_wgmma_refusal(u8s8, q, true, w, epi), nullptr);
    q = p, q.a_sm = 272;
    EXPECT_EQ(gemm_wgmma_refusal(u8s8, q, true, w, epi), nullptr);
    q = p, q.b_off = 8;
    EXPECT_NE(gemm_wgmma_refusal(u8s8, q, true, w, epi), nullptr);
    // Bias: f32, bf16, f16 or s32 for 8-bit products, dense over N.
    q = p, q.has_bias = 1, q.bias_sn = 1;
    gemm_types_t biased = u8s8;
    for (dnnl_data_type_t b : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s32}) {
        biased.bias = b;
        ASSERT_EQ(gemm_wgmma_refusal(biased, q, true, w, epi), nullptr) << dnnl_dt2str(b);
        EXPECT_EQ(w.bias_type, b);
    }
    biased.bias = dnnl_s8;
    EXPECT_STREQ(gemm_wgmma_refusal(biased, q, true, w, epi), "bias type");

    // f32: only with TF32 offered, into f32 or bf16, 4-element rows, bias f32 or bf16.
    gemm_types_t f32;
    f32.a = f32.b = f32.c = dnnl_f32;
    EXPECT_NE(gemm_wgmma_refusal(f32, p, true, w, epi), nullptr); // strict f32
    EXPECT_NE(gemm_wgmma_refusal(f32, p, true, w, none), nullptr);
    ASSERT_EQ(gemm_wgmma_refusal(f32, p, true, w, tf32), nullptr);
    gemm_types_t f32_bf16 = f32;
    f32_bf16.c = dnnl_bf16;
    EXPECT_EQ(gemm_wgmma_types_refusal(f32_bf16, tf32), nullptr);
    f32_bf16.c = dnnl_f16;
    EXPECT_NE(gemm_wgmma_types_refusal(f32_bf16, tf32), nullptr);
    q = p, q.a_sm = 260; // 4 floats past K: 16 bytes
    EXPECT_EQ(gemm_wgmma_refusal(f32, q, true, w, tf32), nullptr);
    q = p, q.a_sm = 258;
    EXPECT_NE(gemm_wgmma_refusal(f32, q, true, w, tf32), nullptr);
    q = p, q.has_bias = 1, q.bias_sn = 1;
    gemm_types_t f32_s32_bias = f32;
    f32_s32_bias.bias = dnnl_s32;
    EXPECT_STREQ(gemm_wgmma_refusal(f32_s32_bias, q, true, w, tf32), "bias type");

    // bf16 keeps its plain-only rule whatever the offer.
    EXPECT_NE(gemm_wgmma_refusal(bf16_types(), plain(128, 128, 128), false, w, tf32), nullptr);
}

// The room a primitive books for the core's wgmma launches (gemm_wgmma_scratchpad_bytes):
// the slices where the wgmma table splits the sizes on a device that loads sm_90a PTX, for
// types the kernels take, and the TMA kernels' maps after them where it chooses those.
TEST(gemm_wgmma_choice, split_room_where_the_table_splits) {
    device_caps_t h;
    h.arch = "sm_90";
    h.compute_units = 132;
    h.ptx_binary_sm = 90;
    const gemm_wgmma_offer_t none, tf32 {true, true};
    // Inner product mb 256 x 4096 -> 4096 (forward, backward data): 64 tiles of 128 x 128 on
    // the TMA kernels, K whole: their maps alone, 256 bytes per SM. 128 rows (32 tiles):
    // 128-row cp.async tiles in 4 slices.
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 256, 4096, 4096),
            size_t(132) * 256);
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 128, 4096, 4096),
            size_t(4) * 128 * 4096 * 4);
    // Tails: 300 rows are 3 tiles of 128 in M, 33 columns one of 128 in N.
    const size_t tail = gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 300, 33, 4099);
    EXPECT_EQ(tail % (size_t(300) * 33 * 4), 0u);
    EXPECT_GT(tail, 0u);
    // Backward weights 4096 x 4096 over mb 256: the wide tiles fill the units, no split, on
    // the TMA kernels: their maps alone, 256 bytes per SM.
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 4096, 4096, 256),
            size_t(132) * 256);
    {
        // Forced TMA and split: the slices, then the maps from a 256-byte boundary.
        tuning_env_t env("wgmma:config=tma_256x64s4,splits=2");
        EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 300, 33, 4099),
                (size_t(2) * 300 * 33 * 4 + 255) / 256 * 256 + size_t(132) * 256);
    }
    {
        tuning_env_t env("wgmma:tma=0");
        EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 4096, 4096, 256), 0u);
    }
    // K too short to split: one slice.
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 128, 4096, 64), 0u);
    // Strict f32 never runs on the kernels; TF32 offered, it splits like bf16.
    gemm_types_t f32;
    f32.a = f32.b = f32.c = dnnl_f32;
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, f32, none, 256, 4096, 4096), 0u);
    EXPECT_GT(gemm_wgmma_scratchpad_bytes(h, f32, tf32, 256, 4096, 4096), 0u);
    // TF32 has no TMA kernels: its wide tiles need no room.
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, f32, tf32, 4096, 4096, 256), 0u);
    // A device without sm_90a PTX (PoCL, Intel, sm_80): none.
    device_caps_t ampere = h;
    ampere.ptx_binary_sm = 80;
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(ampere, bf16_types(), none, 256, 4096, 4096), 0u);
    EXPECT_EQ(gemm_wgmma_scratchpad_bytes(h, bf16_types(), none, 0, 4096, 4096), 0u);
}
