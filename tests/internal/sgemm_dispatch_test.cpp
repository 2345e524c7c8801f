// The strict f32 PTX GEMM's dispatch (gpu/gemm/sgemm_launch, the sgemm_ptx row of the tuning
// table): which devices and types take it, which launches it refuses (they run fma_8x8), the
// post-op chains it fuses, and the tile configuration for a problem's size.
#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "core/primitive_attr.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/tuning/conv_sgemm_tuning.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

device_caps_t hopper(int ptx_sm) {
    device_caps_t c;
    c.name = "NVIDIA H100 80GB HBM3";
    c.vendor = "NVIDIA Corporation";
    c.arch = "sm_90";
    c.compute_units = 132;
    c.max_work_group_size = 1024;
    c.local_mem_size = 48 * 1024;
    c.nvidia_ptx = true;
    c.inline_mma_sync = true;
    c.ptx_binary_sm = ptx_sm;
    return c;
}

gemm_problem_t f32_problem(dnnl_data_type_t c = dnnl_f32, int64_t m = 0) {
    gemm_problem_t p;
    p.c = c, p.m = m;
    return p;
}

bool built_with_ptx() {
    return ptx_module("anydnn_sgemm_kn_128x128") != nullptr;
}

struct tuning_env_t {
    explicit tuning_env_t(const char *v) {
        setenv("ANYDNN_GPU_TUNING", v, 1);
    }
    ~tuning_env_t() {
        unsetenv("ANYDNN_GPU_TUNING");
    }
};

} // namespace

TEST(sgemm_dispatch, f32_on_a_device_that_loads_sm80_ptx_takes_the_ptx_kernels) {
    gemm_tuning_t t;
    for (int sm : {80, 90}) {
        ASSERT_EQ(gemm_tuning(hopper(sm), f32_problem(), t), dnnl_success);
        if (!built_with_ptx()) {
            EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
            EXPECT_NE(t.why.find("no f32 PTX GEMM in this build"), std::string::npos) << t.why;
            continue;
        }
        EXPECT_EQ(t.variant, gemm_variant_t::sgemm_ptx);
        EXPECT_EQ(t.kt, 8) << "the fma_8x8 fallback's slices";
        EXPECT_NE(t.why.find("sgemm_ptx"), std::string::npos) << t.why;
    }
}

TEST(sgemm_dispatch, other_devices_types_and_shapes_keep_their_kernels) {
    gemm_tuning_t t;
    // No PTX loading (every OpenCL device but NVIDIA's): the FMA OpenCL kernel, with the reason.
    ASSERT_EQ(gemm_tuning(hopper(0), f32_problem(), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    if (built_with_ptx())
        EXPECT_NE(t.why.find("does not load sm_80 PTX"), std::string::npos) << t.why;
    // bf16 C, bf16 operands, few rows: not this kernel's.
    ASSERT_EQ(gemm_tuning(hopper(90), f32_problem(dnnl_bf16), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    gemm_problem_t half;
    half.a = half.b = dnnl_bf16;
    ASSERT_EQ(gemm_tuning(hopper(90), half, t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::mma_sync);
    ASSERT_EQ(gemm_tuning(hopper(90), f32_problem(dnnl_f32, 4), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::skinny);
    device_caps_t cpu;
    cpu.is_cpu = true, cpu.compute_units = 2, cpu.max_work_group_size = 4096;
    cpu.local_mem_size = 4 << 20;
    ASSERT_EQ(gemm_tuning(cpu, f32_problem(), t), dnnl_success);
    EXPECT_EQ(t.variant, gemm_variant_t::tiled_cpu);
}

TEST(sgemm_dispatch, override_forces_it_only_where_it_fits) {
    gemm_tuning_t t;
    {
        tuning_env_t env("variant=sgemm_ptx");
        EXPECT_EQ(gemm_tuning(hopper(0), f32_problem(), t), dnnl_unimplemented);
        EXPECT_EQ(gemm_tuning(hopper(90), f32_problem(dnnl_bf16), t), dnnl_unimplemented);
        EXPECT_EQ(gemm_tuning(hopper(90), f32_problem(), t),
                built_with_ptx() ? dnnl_success : dnnl_unimplemented);
    }
    {
        tuning_env_t env("variant=fma_8x8"); // the OpenCL kernel on the same device
        ASSERT_EQ(gemm_tuning(hopper(90), f32_problem(), t), dnnl_success);
        EXPECT_EQ(t.variant, gemm_variant_t::fma_8x8);
    }
}

TEST(sgemm_dispatch, tiles_give_every_compute_unit_a_block) {
    // 128 x 256 (config 6) where its blocks fill the units: 16 x 32 of them here.
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096), 6);
    EXPECT_EQ(sgemm_pick_config(132, 1, 8192, 8192), 6);
    // 12 x 6 = 72 blocks of 128 x 256 do not fill 132 units, 12 x 12 = 144 of 128 x 128 do.
    EXPECT_EQ(sgemm_pick_config(132, 1, 1536, 1536), 0);
    // 8 x 8 = 64 of them do not; 8 x 16 = 128 of 128 x 64 neither; 16 x 16 of 64 x 64 do.
    EXPECT_EQ(sgemm_pick_config(132, 1, 1024, 1024), 2);
    EXPECT_EQ(sgemm_pick_config(132, 1, 1024, 2048), 1);
    EXPECT_EQ(sgemm_pick_config(132, 3, 1024, 1024), 0) << "batches count";
    EXPECT_EQ(sgemm_pick_config(132, 1, 1, 1), 2) << "the narrowest when none fills";
    // A convolution's 64 output channels: 128-wide blocks would compute half for nothing.
    EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 64), 1);
    EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 256), 6);
    EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 130), 1) << "192 columns, not 256";
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 1000), 0) << "32 x 4 blocks of 128 x 256 do not fill";
    // Where the device loads sm_90a PTX, the 128 x 256 blocks are the 16-deep sm_90a ones.
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 90), 8);
    EXPECT_STREQ(sgemm_config[8].name, "128x256k16_sm90");
    EXPECT_EQ(sgemm_pick_config(132, 1, 1536, 1536, 90), 0);
    EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 64, 90), 1);
    // The override as the kernel object reads it at creation (sgemm_forced_config).
    auto forced = [](const char *env_value) {
        tuning_env_t env(env_value);
        return sgemm_forced_config();
    };
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 80, -1, forced("sgemm:config=64x64")), 2);
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 80, -1,
                      forced("gemm:variant=sgemm_ptx;sgemm:config=128x64")),
            1);
    EXPECT_EQ(forced("sgemm:config=7x7"), -1) << "unknown names are ignored";
    EXPECT_EQ(forced("gemm:variant=sgemm_ptx"), -1) << "no sgemm section";
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 80, -1, -1), 6);
    {
        // The sm_90a module's configurations only where the device loads sm_90a PTX.
        const int c = forced("sgemm:config=128x256k16_sm90");
        EXPECT_EQ(sgemm_pick_config(132, 1, 1024, 1024, 80, -1, c), 2) << "sm_80 PTX only: ignored";
        EXPECT_EQ(sgemm_pick_config(132, 1, 1024, 1024, 90, -1, c), 8);
        EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 90, 5, c), 8) << "the override wins";
    }
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 90, -1,
                      forced("sgemm:config=256x128k16_sm90")),
            10);
    // A caller's preference (the Winograd GEMMs' tiles) over the size's pick, sm_80 ones only.
    // 3x3 256@14 mb64: 3136 tiles by 256 channels, 16 products; 64 x 64 blocks fit exactly.
    EXPECT_EQ(sgemm_pick_config(132, 16, 3136, 256, 90, 5), 5);
    EXPECT_EQ(sgemm_pick_config(132, 16, 3136, 256, 90, -1), 2);
    EXPECT_EQ(sgemm_pick_config(132, 16, 3136, 256, 90, 8), 8)
            << "sm_90a where the device loads it";
    EXPECT_EQ(sgemm_pick_config(132, 16, 3136, 256, 80, 8), 2) << "not where it loads sm_80 only";
    // 16 x 2 x 1 blocks of 256 x 128 leave units idle: the size's pick (64 x 64, 224 blocks).
    EXPECT_EQ(sgemm_pick_config(132, 16, 392, 128, 90, 5), 2);
    EXPECT_EQ(sgemm_config_index("256x128"), 5);
    EXPECT_EQ(sgemm_config_index("128x128k16_sm90"), 11);
    EXPECT_EQ(sgemm_config_index("7x7"), -1);
    EXPECT_EQ(sgemm_config_index("256x64r_sm90"), 18);
    EXPECT_TRUE(sgemm_config[18].a_rows);
    EXPECT_FALSE(sgemm_config[13].a_rows);
    EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 80, -1, forced("sgemm:config=128x256p")),
            12); // sm_80 PTX
    for (int c = 0; c < sgemm_configs; ++c) {
        const bool sm90 = std::string(sgemm_config[c].name).find("_sm90") != std::string::npos;
        EXPECT_EQ(sgemm_config[c].sm, sm90 ? 90 : 80) << sgemm_config[c].name;
    }
    EXPECT_EQ(sgemm_kernel_name(0, true, true), "anydnn_sgemm_kn_128x128");
    EXPECT_EQ(sgemm_kernel_name(1, false, false), "anydnn_sgemm_mk_128x64");
    EXPECT_EQ(sgemm_kernel_name(2, true, false), "anydnn_sgemm_kk_64x64");
    EXPECT_EQ(sgemm_kernel_name(4, true, true), "anydnn_sgemm_kn_128x64k16");
    EXPECT_EQ(sgemm_kernel_name(7, false, true), "anydnn_sgemm_mn_128x128s3");
    for (int m : {1, 64, 1000, 4096}) {
        const int c = sgemm_pick_config(132, 1, m, m);
        const int *order = sgemm_size_order(80);
        EXPECT_NE(std::find(order, order + sgemm_size_choices, c), order + sgemm_size_choices)
                << "16-deep slices and three stages only where forced";
    }
    {
        tuning_env_t env("sgemm:implicit=0,config=128x128k16");
        EXPECT_EQ(sgemm_pick_config(132, 1, 4096, 4096, 80, -1, sgemm_forced_config()), 3);
        EXPECT_EQ(sgemm_override("implicit"), "0");
        EXPECT_EQ(sgemm_override("config"), "128x128k16");
        EXPECT_EQ(sgemm_override("stages"), "");
    }
    if (built_with_ptx())
        for (int c = 0; c < sgemm_configs; ++c) {
            // 192 and 512 rows and A kept as rows: K-major A only (M-major A launches
            // 128x128 instead).
            const bool k_only = 256 % sgemm_config[c].bm != 0 || sgemm_config[c].a_rows;
            for (int l = k_only ? 2 : 0; l < 4; ++l)
                EXPECT_NE(ptx_module(sgemm_kernel_name(c, l / 2, l % 2).c_str()), nullptr)
                        << sgemm_kernel_name(c, l / 2, l % 2);
            if (sgemm_config[c].a_rows)
                EXPECT_EQ(ptx_module(sgemm_kernel_name(c, false, true).c_str()), nullptr);
            const std::string conv = std::string("anydnn_sgemm_conv_") + sgemm_config[c].name;
            EXPECT_NE(ptx_module(conv.c_str()), nullptr) << conv;
        }
}

// The size's pick over a grid of shapes, against the rule written out by the tiles' names:
// 128 x 256 (the sm_90a module's 16-deep one where the device loads sm_90a PTX), 128 x 128,
// 128 x 64, 64 x 64 in that order; of those whose blocks give every compute unit one, the
// least area of C in whole blocks (the earliest of equals); 64 x 64 where none does. (K is
// no input of the pick.)
TEST(sgemm_dispatch, size_pick_follows_one_order_per_ptx_target) {
    struct tile_t {
        int64_t bm, bn;
        const char *sm80, *sm90;
    };
    const tile_t tiles[] = {{128, 256, "128x256", "128x256k16_sm90"},
            {128, 128, "128x128", "128x128"}, {128, 64, "128x64", "128x64"},
            {64, 64, "64x64", "64x64"}};
    auto up = [](int64_t v, int64_t b) { return (v + b - 1) / b; };
    int checked = 0;
    for (int sm : {80, 90})
        for (int64_t units : {1, 108, 132})
            for (int64_t batch : {1, 3})
                for (int64_t m : {1, 63, 64, 129, 777, 1024, 1536, 4096, 12544, 200704})
                    for (int64_t n : {1, 17, 64, 130, 256, 1000, 1536, 4096, 8192}) {
                        const tile_t *want = &tiles[3];
                        int64_t least = -1;
                        for (const tile_t &t : tiles) {
                            const int64_t bm = up(m, t.bm), bn = up(n, t.bn);
                            const int64_t area = bm * t.bm * bn * t.bn;
                            if (batch * bm * bn >= units && (least < 0 || area < least))
                                want = &t, least = area;
                        }
                        const char *name = sm >= 90 ? want->sm90 : want->sm80;
                        const int got = sgemm_pick_config(units, batch, m, n, sm);
                        ASSERT_GE(got, 0);
                        EXPECT_STREQ(sgemm_config[got].name, name)
                                << "sm_" << sm << " units " << units << " batch " << batch
                                << " M " << m << " N " << n;
                        ++checked;
                    }
    EXPECT_EQ(checked, 2 * 3 * 2 * 10 * 9);
}

TEST(sgemm_dispatch, builds_for_f32_and_the_fused_post_op_chains) {
    gemm_types_t t;
    wgmma_epilogue_t e;
    std::string reason;
    EXPECT_EQ(sgemm_build_refusal(t, nullptr, e, reason), nullptr);
    gemm_types_t bf = t;
    bf.c = dnnl_bf16;
    EXPECT_NE(sgemm_build_refusal(bf, nullptr, e, reason), nullptr);
    bf = t;
    bf.a = dnnl_bf16;
    EXPECT_NE(sgemm_build_refusal(bf, nullptr, e, reason), nullptr);
    bf = t;
    bf.scale_b = dnnl_bf16;
    EXPECT_NE(sgemm_build_refusal(bf, nullptr, e, reason), nullptr);

    // sum then gelu_tanh: codes as the wgmma epilogue's; binary is not fused.
    primitive_attr_t attr;
    post_op_t sum;
    sum.kind = dnnl_sum;
    sum.sum_scale = 0.5f;
    sum.sum_dt = dnnl_data_type_undef;
    post_op_t elt;
    elt.kind = dnnl_eltwise;
    elt.alg = dnnl_eltwise_gelu_tanh;
    attr.post_ops.entries = {sum, elt};
    memory_desc_t dst{};
    dst.ndims = 2, dst.dims[0] = 4, dst.dims[1] = 5, dst.data_type = dnnl_f32;
    dst.format_kind = dnnl_blocked;
    dst.padded_dims[0] = 4, dst.padded_dims[1] = 5;
    dst.blocking.strides[0] = 5, dst.blocking.strides[1] = 1;
    std::map<int, memory_desc_t> args;
    gpu::post_ops_t chain;
    ASSERT_EQ(chain.init(attr, dst, args), dnnl_success);
    ASSERT_EQ(sgemm_build_refusal(t, &chain, e, reason), nullptr) << reason;
    EXPECT_EQ(e.sum_at, 1);
    EXPECT_FLOAT_EQ(e.sum_scale, 0.5f);
    EXPECT_EQ(e.elt, 3);
    post_op_t second_elt = elt;
    attr.post_ops.entries = {elt, second_elt};
    ASSERT_EQ(chain.init(attr, dst, args), dnnl_success);
    EXPECT_NE(sgemm_build_refusal(t, &chain, e, reason), nullptr) << "two eltwise post-ops";
}

TEST(sgemm_dispatch, launches_it_refuses_run_the_opencl_kernel) {
    gemm_types_t t;
    gemm_operands_t o;
    gemm_params_t p;
    p.M = 100, p.N = 70, p.K = 33;
    EXPECT_EQ(sgemm_launch_refusal(t, o, p), nullptr);
    p.has_bias = 1;
    t.bias = dnnl_bf16;
    EXPECT_NE(sgemm_launch_refusal(t, o, p), nullptr);
    t.bias = dnnl_f32;
    EXPECT_EQ(sgemm_launch_refusal(t, o, p), nullptr);
    const memory_storage_t *some = reinterpret_cast<const memory_storage_t *>(&p);
    o.zp_a = some;
    EXPECT_NE(sgemm_launch_refusal(t, o, p), nullptr);
    o.zp_a = nullptr;
    p.K = int64_t(1) << 31;
    EXPECT_NE(sgemm_launch_refusal(t, o, p), nullptr);
    p.K = 33;
    p.batch_dims[0] = 1 << 16;
    EXPECT_NE(sgemm_launch_refusal(t, o, p), nullptr);
    p.batch_dims[0] = 1;
    // The copies walk A and B in 64-bit offsets: strides past 32 bits are taken.
    p.a_sm = int64_t(1) << 31;
    p.b_sn = -(int64_t(1) << 33);
    EXPECT_EQ(sgemm_launch_refusal(t, o, p), nullptr);
}

TEST(sgemm_dispatch, convolution_tiles_by_shape) {
    auto tiles = [](int ptx_sm, int64_t batch, int64_t m, int64_t n, int64_t k = 576,
                         int64_t ic = 0) {
        const char *t = conv_sgemm_tiles(132, ptx_sm, batch, m, n, k, ic);
        return std::string(t ? t : "size");
    };
    // ResNet-50 mb64: 3x3 64@56 and 1x1 256->64@56 (200704 x 64): 256 x 64 blocks, 784 of them.
    EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 64, 256), "256x64k16_sm90") << "1x1: A is src";
    EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 64, 576, 64), "128x64k16_sm90") << "3x3, gathered";
    EXPECT_EQ(tiles(90, 1, 64 * 112 * 112, 64, 147, 3), "256x64k16_sm90") << "7x7 conv1, IC 3";
    EXPECT_EQ(tiles(80, 1, 64 * 56 * 56, 64), "size") << "sm_80 PTX only: the size picks";
    // 3x3 256@14 (12544 x 256): 66 x 2 blocks of 192 x 128, one per unit.
    EXPECT_EQ(tiles(90, 1, 64 * 14 * 14, 256), "192x128k16_sm90");
    // 1x1 64->256@56: 128 x 256 blocks fill 12 rounds, 192 x 128 16.
    EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 256), "128x256k16_sm90");
    // ... but with K = 64 (1x1 64->256@56), two blocks per SM: 128 x 128.
    EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 256, 64), "128x128k16_sm90");
    EXPECT_EQ(tiles(90, 1, 64 * 14 * 14, 256, 64), "size") << "196 blocks: not two rounds";
    // 64 channels with few rows: 128 x 64 where 256 x 64 blocks do not fill two rounds, else
    // the size's pick.
    EXPECT_EQ(tiles(90, 1, 200 * 128, 64), "128x64k16_sm90");
    EXPECT_EQ(tiles(90, 1, 100 * 128, 64), "size");
    EXPECT_EQ(tiles(90, 2, 100 * 128, 64), "128x64k16_sm90") << "groups count";
    EXPECT_EQ(tiles(90, 1, 0, 64), "size");
    {
        tuning_env_t env("conv_sgemm:tiles=size");
        EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 64), "size");
    }
    {
        tuning_env_t env("conv_sgemm:tiles=512x64k16_sm90");
        EXPECT_EQ(tiles(90, 1, 64 * 56 * 56, 64), "512x64k16_sm90");
    }
    // Each named configuration exists, and the size's pick takes it as preferred.
    for (const char *name :
            {"256x64k16_sm90", "512x64k16_sm90", "128x64k16_sm90", "192x128k16_sm90"}) {
        const int c = sgemm_config_index(name);
        ASSERT_GE(c, 0) << name;
        EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 64, 90, c), c) << name;
        EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 56 * 56, 64, 80, c), 1) << name << " on sm_80";
    }
    const int wide = sgemm_config_index("192x128k16_sm90");
    EXPECT_EQ(sgemm_pick_config(132, 1, 64 * 14 * 14, 256, 90, wide), wide);
}
