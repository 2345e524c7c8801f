// The GEMM rows of the GPU tuning table: fallback device -> architecture -> vendor -> default,
// capability gates (inline mma.sync, local memory, work-group size), the environment override.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "gpu/gemm/gemm_skinny.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

device_caps_t hopper(bool mma) {
    device_caps_t c;
    c.name = "NVIDIA H100 80GB HBM3";
    c.vendor = "NVIDIA Corporation";
    c.arch = "sm_90";
    c.compute_units = 132;
    c.max_work_group_size = 1024;
    c.local_mem_size = 48 * 1024;
    c.nvidia_ptx = true;
    c.inline_mma_sync = mma;
    return c;
}

device_caps_t cpu_device(uint64_t local_mem) {
    device_caps_t c;
    c.name = "cpu-x86-64";
    c.vendor = "GenuineIntel";
    c.compute_units = 2;
    c.max_work_group_size = 4096;
    c.local_mem_size = local_mem;
    c.is_cpu = true;
    return c;
}

gemm_problem_t problem(dnnl_data_type_t a, dnnl_data_type_t b, int64_t c_elems = 0) {
    gemm_problem_t p;
    p.a = a, p.b = b, p.c_elems = c_elems;
    return p;
}

// Sets ANYDNN_GPU_TUNING for one scope.
struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

} // namespace

TEST(gemm_tuning, hopper_bf16_takes_mma_sync_from_its_architecture_row) {
    gemm_tuning_t t;
    ASSERT_EQ(gemm_tuning(hopper(true), problem(dnnl_bf16, dnnl_bf16), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::mma_sync);
    EXPECT_EQ(t.bm, 128);
    EXPECT_EQ(t.bn, 128);
    EXPECT_EQ(t.stages, 3);
    EXPECT_NE(t.why.find("architecture 'sm_90'"), std::string::npos) << t.why;
}

TEST(gemm_tuning, another_gpu_with_mma_sync_takes_the_default_row) {
    device_caps_t c = hopper(true);
    c.arch = "sm_86";
    gemm_tuning_t t;
    ASSERT_EQ(gemm_tuning(c, problem(dnnl_f16, dnnl_f16), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::mma_sync);
    EXPECT_EQ(t.bn, 128);
    EXPECT_EQ(t.stages, 3);
    EXPECT_NE(t.why.find("GPU default"), std::string::npos) << t.why;
}

TEST(gemm_tuning, without_the_probe_or_with_f32_or_mixed_operands_the_fma_kernels) {
    gemm_tuning_t t;
    ASSERT_EQ(gemm_tuning(hopper(false), problem(dnnl_bf16, dnnl_bf16), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    EXPECT_NE(t.why.find("skipped"), std::string::npos) << t.why;
    EXPECT_NE(t.why.find("mma.sync"), std::string::npos) << t.why;
    for (auto p : {problem(dnnl_f32, dnnl_f32), problem(dnnl_bf16, dnnl_f16)}) {
        ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
        EXPECT_EQ(t.bm, 128);
    }
    ASSERT_EQ(gemm_tuning(hopper(true), problem(dnnl_u8, dnnl_s8), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_wg);
    // After a newer kernel failed to build: the basic rows only.
    gemm_problem_t basic = problem(dnnl_bf16, dnnl_bf16);
    basic.basic_only = true;
    ASSERT_EQ(gemm_tuning(hopper(true), basic, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_wg);
}

TEST(gemm_tuning, gpus_take_the_skinny_kernel_for_few_known_rows) {
    gemm_tuning_t t;
    gemm_problem_t p = problem(dnnl_f32, dnnl_f32);
    p.m = 1;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    p.m = 4;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    EXPECT_EQ(t.tm, 4);
    // f32 with 5 to 8 rows: the row of 8 rows per work-item.
    for (int64_t m : {5, 8}) {
        p.m = m;
        ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::skinny) << m;
        EXPECT_EQ(t.tm, 8) << m;
    }
    p.m = 9;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    p.m = 0; // not known: launches may have more rows
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    p.m = 1;
    ASSERT_EQ(gemm_tuning(cpu_device(4 << 20), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_cpu);
}

// f32 with one row (or one column of one type) and enough columns for the work-groups: the
// one-launch skinny shape (no K split); more rows, narrow C or unknown sizes keep the K split.
TEST(gemm_tuning, hopper_f32_gemv_of_one_wide_row_takes_the_one_launch_shape) {
    const int64_t units = hopper(true).compute_units;
    auto pick = [&](dnnl_data_type_t a, dnnl_data_type_t b, int64_t m, int64_t n) {
        gemm_problem_t p = problem(a, b, m * n);
        p.m = m, p.n = n;
        gemm_tuning_t t;
        EXPECT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
        return t;
    };
    auto one_launch = [](const gemm_tuning_t &t) {
        return t.variant == gemm_variant_t::skinny && t.kt >= 100000 && t.wg_m == 64
                && t.wg_n == 4 && t.stages == 8;
    };
    gemm_tuning_t t = pick(dnnl_f32, dnnl_f32, 1, 4096);
    EXPECT_TRUE(one_launch(t)) << t.why;
    EXPECT_EQ(t.tm, 4);
    EXPECT_TRUE(one_launch(pick(dnnl_f32, dnnl_f32, 4096, 1))); // C^T of one row
    EXPECT_TRUE(one_launch(pick(dnnl_f32, dnnl_f32, 1, 16 * units))); // the bound itself
    // Below 16 columns per compute unit: the K-split row.
    t = pick(dnnl_f32, dnnl_f32, 1, 16 * units - 1);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    EXPECT_FALSE(one_launch(t));
    EXPECT_EQ(t.kt, 256);
    t = pick(dnnl_f32, dnnl_f32, 1, 1024);
    EXPECT_FALSE(one_launch(t));
    EXPECT_EQ(t.kt, 256);
    // Two to four rows: the K-split row.
    for (int64_t m : {2, 4}) {
        t = pick(dnnl_f32, dnnl_f32, m, 4096);
        EXPECT_EQ(t.variant, gemm_variant_t::skinny) << m;
        EXPECT_FALSE(one_launch(t)) << m;
    }
    // bf16: the K-split row (the shape was timed for f32 only).
    EXPECT_FALSE(one_launch(pick(dnnl_bf16, dnnl_bf16, 1, 4096)));
    // C's size not known: the K-split row.
    gemm_problem_t p = problem(dnnl_f32, dnnl_f32);
    p.m = 1;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_FALSE(one_launch(t));
    // B's K dense (the inner product's weights): the K-split row.
    p = problem(dnnl_f32, dnnl_f32, 4096);
    p.m = 1, p.k_dense_b = true;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    EXPECT_FALSE(one_launch(t));
}

// A matmul's B as its creation knows it (skinny_k_dense of the weights' strides): dense
// rows of N (tag ab) keep the one-launch row, transposed weights (ba: K dense, as the inner
// product's) the K-split one; an N of 1 reads its single column along K.
TEST(gemm_tuning, hopper_f32_gemv_row_follows_the_weights_layout) {
    const int64_t K = 4096, N = 4096;
    EXPECT_FALSE(skinny_k_dense(N, 1, N)) << "ab";
    EXPECT_TRUE(skinny_k_dense(1, K, N)) << "ba";
    EXPECT_TRUE(skinny_k_dense(1, 1, 1)) << "one column";
    EXPECT_FALSE(skinny_k_dense(1, 1, 7)) << "K of 1, tag ba: its columns are dense too";
    EXPECT_FALSE(skinny_k_dense(2 * N, 2, N)) << "no unit stride";
    for (bool ba : {false, true}) {
        gemm_problem_t p = problem(dnnl_f32, dnnl_f32, N);
        p.m = 1, p.n = N;
        p.k_dense_b = ba ? skinny_k_dense(1, K, N) : skinny_k_dense(N, 1, N);
        gemm_tuning_t t;
        ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::skinny);
        EXPECT_EQ(t.kt, ba ? 256 : 100000) << (ba ? "ba: " : "ab: ") << t.why;
    }
}

TEST(gemm_tuning, gpus_take_the_skinny_kernel_for_few_known_columns_of_one_type) {
    gemm_tuning_t t;
    gemm_problem_t p = problem(dnnl_f32, dnnl_f32);
    p.m = 4096, p.n = 4; // computed as C^T
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    p.n = 8;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    p.n = 9;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    p = problem(dnnl_bf16, dnnl_f32); // A and B of two types: not swapped
    p.m = 4096, p.n = 1;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_NE(t.variant, gemm_variant_t::skinny);
    // bf16 with few rows streams on Hopper instead of taking mma_sync.
    p = problem(dnnl_bf16, dnnl_bf16);
    p.m = 4;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    p.m = 5;
    ASSERT_EQ(gemm_tuning(hopper(true), p, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::mma_sync);
}

TEST(gemm_tuning, small_work_groups_fall_to_the_8x8_row) {
    device_caps_t c = hopper(false);
    c.max_work_group_size = 64; // too small for fma_8x8 and the 16 x 16 tiled_wg
    gemm_tuning_t t;
    ASSERT_EQ(gemm_tuning(c, problem(dnnl_f32, dnnl_f32), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_wg);
    EXPECT_EQ(t.wg_m * t.wg_n, 64);
    c.max_work_group_size = 16;
    EXPECT_EQ(gemm_tuning(c, problem(dnnl_f32, dnnl_f32), t), dnnl_unimplemented);
}

TEST(gemm_tuning, cpu_devices_take_large_blocks_only_for_large_products) {
    const device_caps_t c = cpu_device(4 << 20);
    gemm_tuning_t t;
    ASSERT_EQ(gemm_tuning(c, problem(dnnl_f32, dnnl_f32, 1000), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_cpu);
    EXPECT_EQ(t.bm, 64);
    EXPECT_EQ(t.bn, 256);
    ASSERT_EQ(gemm_tuning(c, problem(dnnl_f32, dnnl_f32, 2 * 4 * 128 * 512), t), dnnl_success);
    EXPECT_EQ(t.bm, 128);
    EXPECT_EQ(t.bn, 512);
    // Large blocks that do not fit local memory give way to the small ones.
    ASSERT_EQ(gemm_tuning(cpu_device(450 * 1024), problem(dnnl_f32, dnnl_f32, 1 << 30), t),
            dnnl_success);
    EXPECT_EQ(t.bm, 64);
    EXPECT_EQ(gemm_tuning(cpu_device(1024), problem(dnnl_f32, dnnl_f32), t), dnnl_unimplemented);
}

TEST(gemm_tuning, override_replaces_variant_and_fields) {
    gemm_tuning_t t;
    {
        tuning_env_t env("gemm:variant=tiled_wg,tm=8,tn=8");
        ASSERT_EQ(gemm_tuning(cpu_device(4 << 20), problem(dnnl_f32, dnnl_f32), t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::tiled_wg);
        EXPECT_EQ(t.tm, 8);
        EXPECT_EQ(t.bm, t.wg_m * 8); // derived from the work-group
        EXPECT_NE(t.why.find("ANYDNN_GPU_TUNING"), std::string::npos);
    }
    {
        tuning_env_t env("stages=4");
        ASSERT_EQ(gemm_tuning(hopper(true), problem(dnnl_bf16, dnnl_bf16), t), dnnl_unimplemented)
                << "4 stages of 128 x 128 x 32 do not fit 48 KiB";
        device_caps_t big = hopper(true);
        big.local_mem_size = 100 * 1024;
        ASSERT_EQ(gemm_tuning(big, problem(dnnl_bf16, dnnl_bf16), t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::mma_sync);
        EXPECT_EQ(t.stages, 4);
    }
    for (const char *bad : {"variant=fast", "tm", "tm=x", "colour=3", "tm=8,", "tm=-1"}) {
        tuning_env_t env(bad);
        EXPECT_EQ(gemm_tuning(hopper(true), problem(dnnl_f32, dnnl_f32), t), dnnl_unimplemented)
                << bad;
    }
    {
        tuning_env_t env("variant=mma_sync");
        EXPECT_EQ(gemm_tuning(hopper(true), problem(dnnl_f32, dnnl_f32), t), dnnl_unimplemented)
                << "f32 operands never take the bf16 tensor-core kernel";
    }
}
