// The wgmma matmul's rows of the GPU tuning table: wide tiles where they fill the compute
// units, else narrow ones split along K (bounded by the units, the depth and the row's cap),
// and the "wgmma" section of ANYDNN_GPU_TUNING beside the GEMM's.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/gemm/wgmma_launch.hpp"
#include "gpu/tuning/gemm_tuning.hpp"
#include "gpu/tuning/tuning_override.hpp"
#include "gpu/tuning/wgmma_tuning.hpp"

namespace {

using namespace anydnn;
using namespace anydnn::gpu;

device_caps_t hopper() {
    device_caps_t c;
    c.name = "NVIDIA H100 80GB HBM3";
    c.vendor = "NVIDIA Corporation";
    c.arch = "sm_90";
    c.compute_units = 132;
    c.max_work_group_size = 1024;
    c.local_mem_size = 48 * 1024;
    c.nvidia_ptx = true;
    return c;
}

struct tuning_env_t {
    explicit tuning_env_t(const char *v) { setenv("ANYDNN_GPU_TUNING", v, 1); }
    ~tuning_env_t() { unsetenv("ANYDNN_GPU_TUNING"); }
};

} // namespace

TEST(wgmma_tuning, wide_tiles_where_they_fill_the_compute_units) {
    wgmma_tuning_t t;
    // 4096^2: 32 x 16 tiles of 128 x 256, more than 132 units.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
    EXPECT_EQ(t.config, "256x64s4p1");
    EXPECT_EQ(t.tile_n, 256);
    EXPECT_EQ(t.tile_k, 64);
    EXPECT_EQ(t.splits, 1);
    EXPECT_NE(t.why.find("fill"), std::string::npos) << t.why;
    // Exactly one tile per unit (batch 132 of 128 x 256) still counts as filled.
    ASSERT_EQ(wgmma_tuning(hopper(), 132, 128, 256, 64, t), dnnl_success);
    EXPECT_EQ(t.splits, 1);
    EXPECT_EQ(t.tile_n, 256);
}

TEST(wgmma_tuning, few_tiles_split_along_k_within_units_depth_and_cap) {
    wgmma_tuning_t t;
    // 128 x 4096: 32 tiles of 128 x 128 -> 132 / 32 = 4 slices.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 128, 4096, 4096, t), dnnl_success);
    EXPECT_EQ(t.config, "128x64s4p1");
    EXPECT_EQ(t.tile_n, 128);
    EXPECT_EQ(t.splits, 4);
    // 256 x 4096: 64 tiles of 128 x 128 but 128 of 64 x 128, at least 7/8 of 132 units:
    // the 64-row tiles, K whole (2-byte elements only; TF32 splits its 128-row tiles).
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 256, 4096, 4096, t), dnnl_success);
    EXPECT_EQ(t.config, "m64_128x64s4p1");
    EXPECT_EQ(t.tile_m, 64);
    EXPECT_EQ(t.splits, 1);
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 256, 4096, 4096, t, 4), dnnl_success);
    EXPECT_EQ(t.tile_m, 128);
    EXPECT_EQ(t.splits, 2);
    // 112 tiles of 64 x 128 (under 7/8 of 132): 128-row tiles split.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 256, 3584, 4096, t), dnnl_success);
    EXPECT_EQ(t.tile_m, 128);
    EXPECT_EQ(t.splits, 2);
    // One tile, K 4096: the cap of 16 (units would allow 132, depth 16).
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 64, 128, 4096, t), dnnl_success);
    EXPECT_EQ(t.splits, 16);
    // One tile, K 1000: slices keep 4 steps of 64 -> 3.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 77, 96, 1000, t), dnnl_success);
    EXPECT_EQ(t.splits, 3);
    // Shallow K: no split.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 64, 64, 100, t), dnnl_success);
    EXPECT_EQ(t.splits, 1);
    EXPECT_NE(t.why.find("split 1"), std::string::npos) << t.why;
    // Zero-size and one-unit devices do not divide by zero.
    device_caps_t one = hopper();
    one.compute_units = 0;
    ASSERT_EQ(wgmma_tuning(one, 1, 0, 0, 0, t), dnnl_success);
    EXPECT_EQ(t.splits, 1);
}

TEST(wgmma_tuning, override_section_replaces_fields_and_leaves_the_gemm_alone) {
    {
        tuning_env_t env("gemm:variant=tiled_wg,tm=2;wgmma:config=128x64s4p1,splits=3");
        wgmma_tuning_t t;
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_EQ(t.config, "128x64s4p1");
        EXPECT_EQ(t.tile_n, 128);
        EXPECT_EQ(t.splits, 3);
        EXPECT_NE(t.why.find("ANYDNN_GPU_TUNING"), std::string::npos) << t.why;
        EXPECT_EQ(tuning_override("gemm"), "variant=tiled_wg,tm=2");
        gemm_problem_t p;
        gemm_tuning_t g;
        ASSERT_EQ(gemm_tuning(hopper(), p, g), dnnl_success);
        EXPECT_EQ(g.variant, gemm_variant_t::tiled_wg);
        EXPECT_EQ(g.tm, 2);
    }
    {
        // A section without a name is the GEMM's; the wgmma choice stays the table's.
        tuning_env_t env("variant=tiled_wg,tm=2");
        EXPECT_EQ(tuning_override("wgmma"), "");
        EXPECT_EQ(tuning_override("gemm"), "variant=tiled_wg,tm=2");
        wgmma_tuning_t t;
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_EQ(t.config, "256x64s4p1");
    }
    {
        // 64-row tiles: the m64_ prefix.
        tuning_env_t env("wgmma:config=m64_64x64s4p1,splits=1");
        wgmma_tuning_t t;
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 256, 4096, 4096, t), dnnl_success);
        EXPECT_EQ(t.config, "m64_64x64s4p1");
        EXPECT_EQ(t.tile_m, 64);
        EXPECT_EQ(t.tile_n, 64);
        EXPECT_EQ(t.tile_k, 64);
        EXPECT_EQ(t.splits, 1);
    }
    {
        wgmma_tuning_t t; // the table's rows: 128 rows where their tiles fill the units
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_EQ(t.tile_m, 128);
    }
    for (const char *bad : {"wgmma:tile=3", "wgmma:splits=0", "wgmma:splits=x",
                 "wgmma:config=huge", "wgmma:config=256x64s4p1x", "wgmma:splits", "wgmma:core=2",
                 "wgmma:core=", "wgmma:config=m32_64x64s4p1", "wgmma:config=m64_",
                 "wgmma:config=m64"}) {
        tuning_env_t env(bad);
        wgmma_tuning_t t;
        EXPECT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_unimplemented) << bad;
    }
}

// The table lets the GEMM core use the kernels; "core=0" in the wgmma section takes that back
// (and "core=1" gives it) without touching the rest of the choice.
TEST(wgmma_tuning, core_switch_of_the_row_and_the_override) {
    wgmma_tuning_t t;
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
    EXPECT_TRUE(t.core);
    {
        tuning_env_t env("wgmma:core=0");
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_FALSE(t.core);
        EXPECT_EQ(t.config, "256x64s4p1");
        EXPECT_EQ(t.splits, 1);
    }
    {
        tuning_env_t env("wgmma:splits=2,core=1");
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_TRUE(t.core);
        EXPECT_EQ(t.splits, 2);
    }
}

// tf32 (4-byte) and 8-bit operands have rows of their own: the same 128-byte lines (BK 32 and
// 128 elements), split along K on their own depth, open to the GEMM core (which takes them
// where its primitive offers their epilogue); sizes without a row are refused.
TEST(wgmma_tuning, rows_per_element_size) {
    wgmma_tuning_t t;
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 8192, 8192, 8192, t, 4), dnnl_success);
    EXPECT_EQ(t.config, "256x32s4p1");
    EXPECT_EQ(t.tile_k, 32);
    EXPECT_EQ(t.splits, 1);
    EXPECT_TRUE(t.core);
    EXPECT_NE(t.why.find("4-byte"), std::string::npos) << t.why;
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t, 1), dnnl_success);
    EXPECT_EQ(t.config, "256x128s4p1");
    EXPECT_EQ(t.tile_k, 128);
    EXPECT_TRUE(t.core);
    EXPECT_NE(t.why.find("1-byte"), std::string::npos) << t.why;
    // One 128 x 128 tile, K 1000: slices keep 4 steps of 128 -> 1; of 32 -> 7.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 77, 96, 1000, t, 1), dnnl_success);
    EXPECT_EQ(t.config, "128x128s4p1");
    EXPECT_EQ(t.splits, 1);
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 77, 96, 1000, t, 4), dnnl_success);
    EXPECT_EQ(t.config, "128x32s4p1");
    EXPECT_EQ(t.splits, 7);
    // The 16-bit row is the default one.
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t), dnnl_success);
    EXPECT_EQ(t.config, "256x64s4p1");
    EXPECT_TRUE(t.core);
    EXPECT_EQ(wgmma_tuning(hopper(), 1, 64, 64, 64, t, 8), dnnl_unimplemented);
}

// The TMA configurations ("tma_<BN>x<BK>s<S>[o]", gpu/gemm/hopper/wgmma_tma.cu) go only to
// callers that launch them (tma_ok) on devices that load sm_90a PTX (the kernels build their
// tensor maps), K > 0; elsewhere the table's choice stays, also when the override forces
// one, and the GEMM core's configuration list never holds them. "tma=0|1" parses.
TEST(wgmma_tuning, tma_configurations_only_where_sm90a_and_a_caller_take_them) {
    device_caps_t h = hopper();
    h.ptx_binary_sm = 90;
    const bool maps = true;
    wgmma_tuning_t t;
    ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t, 2, true), dnnl_success);
    EXPECT_EQ(t.tma, maps);
    EXPECT_EQ(t.config, maps ? "tma_256x64s4o" : "256x64s4p1");
    if (maps) {
        EXPECT_TRUE(t.core); // the GEMM core takes them where its caller books their maps
        EXPECT_TRUE(t.tma_overlap);
        EXPECT_EQ(t.tile_m, 128);
        EXPECT_EQ(t.tile_n, 256);
        EXPECT_EQ(t.tile_k, 64);
        EXPECT_EQ(t.splits, 1);
        EXPECT_NE(t.why.find("bulk tensor copies"), std::string::npos) << t.why;
    }
    // 128 x 256 tiles too few, 128 x 128 ones for 3/8 of the units or more (256 x 4096: 64 of
    // them for 132; 256 x 3584: 56 > 49.5): those on TMA, K whole. Without TMA the 64-row
    // cp.async tiles, K whole, or 128-row ones split.
    ASSERT_EQ(wgmma_tuning(h, 1, 256, 4096, 4096, t, 2, true), dnnl_success);
    EXPECT_EQ(t.config, "tma_128x64s6");
    EXPECT_TRUE(t.tma);
    EXPECT_FALSE(t.tma_overlap);
    EXPECT_EQ(t.tile_m, 128);
    EXPECT_EQ(t.tile_n, 128);
    EXPECT_EQ(t.splits, 1);
    EXPECT_NE(t.why.find("K whole"), std::string::npos) << t.why;
    ASSERT_EQ(wgmma_tuning(h, 1, 256, 3584, 4096, t, 2, true), dnnl_success);
    EXPECT_EQ(t.config, "tma_128x64s6");
    ASSERT_EQ(wgmma_tuning(h, 1, 256, 4096, 4096, t), dnnl_success);
    EXPECT_EQ(t.config, "m64_128x64s4p1");
    // 48 tiles of 128 x 128 (under 49.5): not on TMA, 128-row cp.async tiles split in 2.
    ASSERT_EQ(wgmma_tuning(h, 1, 256, 3072, 4096, t, 2, true), dnnl_success);
    EXPECT_FALSE(t.tma);
    EXPECT_EQ(t.config, "128x64s4p1");
    EXPECT_EQ(t.splits, 2);
    // Not for the GEMM core (tma_ok false), other element sizes, narrow shapes, or a device
    // without sm_90a PTX.
    ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t), dnnl_success);
    EXPECT_FALSE(t.tma);
    EXPECT_EQ(t.config, "256x64s4p1");
    ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t, 4, true), dnnl_success);
    EXPECT_FALSE(t.tma);
    ASSERT_EQ(wgmma_tuning(h, 1, 128, 4096, 4096, t, 2, true), dnnl_success);
    EXPECT_FALSE(t.tma);
    EXPECT_EQ(t.config, "128x64s4p1");
    EXPECT_EQ(t.splits, 4);
    ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t, 2, true), dnnl_success);
    EXPECT_FALSE(t.tma);
    ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 0, t, 2, true), dnnl_success); // K 0: no loads
    EXPECT_FALSE(t.tma);
    {
        tuning_env_t env("wgmma:tma=0");
        ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t, 2, true), dnnl_success);
        EXPECT_FALSE(t.tma);
        EXPECT_EQ(t.config, "256x64s4p1");
        ASSERT_EQ(wgmma_tuning(h, 1, 256, 4096, 4096, t, 2, true), dnnl_success);
        EXPECT_FALSE(t.tma);
        EXPECT_EQ(t.config, "m64_128x64s4p1");
    }
    {
        // Forced: taken where possible (any shape, split too), else the table's choice.
        tuning_env_t env("wgmma:config=tma_256x64s4,splits=3");
        ASSERT_EQ(wgmma_tuning(h, 1, 100, 70, 1000, t, 2, true), dnnl_success);
        EXPECT_EQ(t.tma, maps);
        EXPECT_EQ(t.splits, 3);
        ASSERT_EQ(wgmma_tuning(hopper(), 1, 4096, 4096, 4096, t, 2, true), dnnl_success);
        EXPECT_FALSE(t.tma);
        EXPECT_EQ(t.config, "256x64s4p1");
        EXPECT_NE(t.why.find("needs sm_90a PTX"), std::string::npos) << t.why;
        ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t), dnnl_success);
        EXPECT_FALSE(t.tma);
        std::vector<wgmma_tuning_t> configs;
        ASSERT_EQ(wgmma_table_configs(h, 2, configs), dnnl_success);
        for (const wgmma_tuning_t &c : configs)
            EXPECT_FALSE(c.tma) << c.config;
    }
    {
        // TMA tiles of 64 rows: "tma_m64_".
        tuning_env_t env("wgmma:config=tma_m64_128x64s8o,splits=1");
        ASSERT_EQ(wgmma_tuning(h, 1, 256, 4096, 4096, t, 2, true), dnnl_success);
        EXPECT_TRUE(t.tma);
        EXPECT_TRUE(t.tma_overlap);
        EXPECT_EQ(t.tile_m, 64);
        EXPECT_EQ(t.tile_n, 128);
        EXPECT_EQ(t.splits, 1);
        wgmma_layout_t l;
        EXPECT_EQ(wgmma_kernel_name(dnnl_bf16, dnnl_bf16, l, t.config, false),
                "anydnn_wgmma_tma_bf16_kk_m64_128x64s8");
    }
    {
        // The overlapping form parses the same.
        tuning_env_t env("wgmma:config=tma_256x64s4o");
        ASSERT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t, 2, true), dnnl_success);
        EXPECT_EQ(t.tma, maps);
        EXPECT_EQ(t.config, maps ? "tma_256x64s4o" : "256x64s4p1");
        EXPECT_EQ(t.tma_overlap, maps);
    }
    for (const char *bad : {"wgmma:tma=2", "wgmma:tma=", "wgmma:config=tma_256x64",
                 "wgmma:config=tma_256x64s4p1", "wgmma:config=tma_", "wgmma:config=tma_256x64s4oo",
                 "wgmma:config=tma_256x64s4x", "wgmma:config=tma_m64_",
                 "wgmma:config=tma_m32_128x64s8", "wgmma:config=m64_tma_128x64s8"}) {
        tuning_env_t env(bad);
        EXPECT_EQ(wgmma_tuning(h, 1, 4096, 4096, 4096, t, 2, true), dnnl_unimplemented) << bad;
    }
}

// The configurations the GEMM core loads up front: with tma_ok (its caller books the maps'
// room) and sm_90a PTX the TMA one first, then the cp.async ones every launch may fall back
// to; without either, or with tma=0, none of TMA. A forced TMA configuration takes the TMA
// slot and leaves the fallbacks; a forced cp.async one is the only entry.
TEST(wgmma_tuning, table_configs_of_the_core_with_and_without_tma) {
    device_caps_t h = hopper();
    h.ptx_binary_sm = 90;
    std::vector<wgmma_tuning_t> configs;
    auto names = [&]() {
        std::string all;
        for (const wgmma_tuning_t &c : configs)
            all += (all.empty() ? "" : " ") + c.config;
        return all;
    };
    ASSERT_EQ(wgmma_table_configs(h, 2, configs, true), dnnl_success);
    EXPECT_EQ(names(), "tma_256x64s4o tma_128x64s6 256x64s4p1 m64_128x64s4p1 128x64s4p1");
    ASSERT_FALSE(configs.empty());
    EXPECT_TRUE(configs[0].tma);
    EXPECT_EQ(configs[0].tile_m, 128);
    EXPECT_EQ(configs[0].tile_n, 256);
    EXPECT_TRUE(configs[0].tma_overlap);
    ASSERT_GT(configs.size(), 1u);
    EXPECT_TRUE(configs[1].tma);
    EXPECT_EQ(configs[1].tile_n, 128);
    EXPECT_FALSE(configs[1].tma_overlap);
    for (size_t i = 2; i < configs.size(); ++i)
        EXPECT_FALSE(configs[i].tma) << configs[i].config;
    ASSERT_EQ(wgmma_table_configs(h, 2, configs), dnnl_success);
    EXPECT_EQ(names(), "256x64s4p1 m64_128x64s4p1 128x64s4p1");
    ASSERT_EQ(wgmma_table_configs(hopper(), 2, configs, true), dnnl_success); // no sm_90a
    EXPECT_EQ(names(), "256x64s4p1 m64_128x64s4p1 128x64s4p1");
    ASSERT_EQ(wgmma_table_configs(h, 4, configs, true), dnnl_success); // tf32: no TMA row
    EXPECT_EQ(names(), "256x32s4p1 128x32s4p1");
    {
        tuning_env_t env("wgmma:tma=0");
        ASSERT_EQ(wgmma_table_configs(h, 2, configs, true), dnnl_success);
        EXPECT_EQ(names(), "256x64s4p1 m64_128x64s4p1 128x64s4p1");
    }
    {
        tuning_env_t env("wgmma:config=tma_128x64s6o,splits=2");
        ASSERT_EQ(wgmma_table_configs(h, 2, configs, true), dnnl_success);
        EXPECT_EQ(names(), "tma_128x64s6o 256x64s4p1 m64_128x64s4p1 128x64s4p1");
        ASSERT_FALSE(configs.empty());
        EXPECT_EQ(configs[0].tile_n, 128);
        EXPECT_TRUE(configs[0].tma_overlap);
        EXPECT_EQ(configs[0].splits, 2);
        ASSERT_EQ(wgmma_table_configs(h, 2, configs), dnnl_success);
        EXPECT_EQ(names(), "256x64s4p1 m64_128x64s4p1 128x64s4p1");
    }
    {
        tuning_env_t env("wgmma:config=m64_64x64s4p1");
        ASSERT_EQ(wgmma_table_configs(h, 2, configs, true), dnnl_success);
        EXPECT_EQ(names(), "m64_64x64s4p1");
    }
    {
        tuning_env_t env("wgmma:tma=3");
        EXPECT_EQ(wgmma_table_configs(h, 2, configs, true), dnnl_unimplemented);
    }
}

// TMA configurations name the entries of wgmma_tma.cu; the others keep their names.
TEST(wgmma_tuning, tma_kernel_names) {
    wgmma_layout_t l;
    EXPECT_EQ(wgmma_kernel_name(dnnl_bf16, dnnl_bf16, l, "tma_256x64s4", false),
            "anydnn_wgmma_tma_bf16_kk_256x64s4");
    l.a_m_major = true;
    l.b_n_major = true;
    EXPECT_EQ(wgmma_kernel_name(dnnl_f16, dnnl_f16, l, "tma_256x64s4", true),
            "anydnn_wgmma_tma_f16_mn_256x64s4_epi");
    EXPECT_EQ(wgmma_kernel_name(dnnl_bf16, dnnl_bf16, l, "tma_256x64s4o", false),
            "anydnn_wgmma_tma_bf16_mn_256x64s4"); // the o form: an argument of the same entry
    EXPECT_EQ(wgmma_kernel_name(dnnl_bf16, dnnl_bf16, l, "256x64s4p1", false),
            "anydnn_wgmma_bf16_mn_256x64s4p1");
}
