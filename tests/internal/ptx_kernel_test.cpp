// PTX kernels through the GPU compute interface: the device probe (ptx_binary_sm), creating a
// kernel from embedded PTX, the embedded modules themselves, and bf16 matmul on a device that
// does not load PTX (PoCL, Intel) falling back to another implementation with the right result.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compute/compute.hpp"
#include "core/primitive_desc.hpp"
#include "core/verbose.hpp"
#include "gpu/impl_entries.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

const char *wgmma_kernel = "anydnn_wgmma_bf16_kn_128x64s4p1";

// The first `buffers` parameters of `entry` are global pointers, the next ones are not.
void expect_buffer_params(const std::string &text, const std::string &entry, int buffers) {
    for (int i = 0; i < buffers + 2; ++i) {
        const std::string param = entry + "_param_" + std::to_string(i);
        const size_t at = text.find(param);
        ASSERT_NE(at, std::string::npos) << param;
        const size_t from = text.rfind(".param", at);
        const std::string decl = text.substr(from, at - from);
        EXPECT_EQ(decl.find(".ptr .global") != std::string::npos, i < buffers) << decl;
    }
}

struct gpu_engine_t {
    dnnl_engine_t engine = nullptr;
    gpu_engine_t() {
        if (dnnl_engine_get_count(dnnl_gpu) > 0) dnnl_engine_create(&engine, dnnl_gpu, 0);
    }
    ~gpu_engine_t() {
        if (engine) dnnl_engine_destroy(engine);
    }
    bool is_nvidia() const {
        return anydnn::gpu::engine_caps(engine).name.find("NVIDIA") != std::string::npos;
    }
};

TEST(PtxKernel, ProbeSaysNoPtxOffNvidiaAndCreatingOneIsUnimplemented) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const int sm = anydnn::gpu::engine_caps(g.engine).ptx_binary_sm;
    std::shared_ptr<anydnn::gpu::kernel_t> k;
    const dnnl_status_t st = anydnn::gpu::create_ptx_kernel(g.engine, wgmma_kernel, k);
    if (g.is_nvidia()) {
        EXPECT_GE(sm, 80);
        if (sm >= 90 && anydnn::gpu::ptx_module(wgmma_kernel)) EXPECT_EQ(st, dnnl_success);
        return;
    }
    EXPECT_EQ(sm, 0);
    EXPECT_EQ(st, dnnl_unimplemented);
    EXPECT_EQ(k, nullptr);
    // Asked again: the cached answer, the same refusal.
    EXPECT_EQ(anydnn::gpu::engine_caps(g.engine).ptx_binary_sm, 0);
    EXPECT_EQ(anydnn::gpu::create_ptx_kernel(g.engine, "no_such_kernel", k), dnnl_unimplemented);
}

TEST(PtxKernel, EmbeddedModulesHoldOneSm90aEntryWithBufferParameters) {
    const char *ptx = anydnn::gpu::ptx_module(wgmma_kernel);
    if (!ptx) GTEST_SKIP() << "built without nvcc";
    const std::string text(ptx);
    EXPECT_NE(text.find(".target sm_90a"), std::string::npos);
    EXPECT_NE(text.find("wgmma.mma_async"), std::string::npos);
    size_t entries = 0;
    for (size_t at = text.find(".entry"); at != std::string::npos; at = text.find(".entry", at + 1))
        ++entries;
    EXPECT_EQ(entries, 1u);
    // A, B, C, bias and the three scales are buffers; the offsets after them are values.
    expect_buffer_params(text, wgmma_kernel, 7);
    EXPECT_EQ(anydnn::gpu::ptx_module("anydnn_wgmma_no_such_kernel"), nullptr);
    // tf32 takes the same seven; the 8-bit kinds three more (zero points, B's column sums).
    const char *tf32 = anydnn::gpu::ptx_module("anydnn_wgmma_tf32_kk_256x32s4p1_epi");
    ASSERT_NE(tf32, nullptr);
    EXPECT_NE(std::string(tf32).find(".tf32.tf32"), std::string::npos);
    expect_buffer_params(tf32, "anydnn_wgmma_tf32_kk_256x32s4p1_epi", 7);
    for (const char *entry :
            {"anydnn_wgmma_u8s8_kk_256x128s4p1", "anydnn_wgmma_s8s8_kk_128x128s4p1_epi"}) {
        const char *int8 = anydnn::gpu::ptx_module(entry);
        ASSERT_NE(int8, nullptr) << entry;
        EXPECT_NE(std::string(int8).find("k32.s32."), std::string::npos) << entry;
        expect_buffer_params(int8, entry, 10);
    }
    const char *sum = anydnn::gpu::ptx_module("anydnn_wgmma_splitk_reduce_s32");
    ASSERT_NE(sum, nullptr);
    expect_buffer_params(sum, "anydnn_wgmma_splitk_reduce_s32", 6);
    // The TMA kernels (wgmma_tma.cu): eight buffers (the maps' workspace last), bulk tensor
    // copies, map patching, every layout and both forms of each 16-bit type, for each tile
    // configuration; the register split between producer and consumers only with two consumer
    // warpgroups (128-row tiles).
    for (const char *tiles : {"256x64s4", "128x64s6", "m64_128x64s8"})
        for (const char *t : {"bf16", "f16"})
            for (const char *l : {"kk", "kn", "mk", "mn"})
                for (const char *e : {"", "_epi"}) {
                    const std::string entry = std::string("anydnn_wgmma_tma_") + t + "_" + l
                            + "_" + tiles + e;
                    const char *tma = anydnn::gpu::ptx_module(entry.c_str());
                    ASSERT_NE(tma, nullptr) << entry;
                    const std::string text(tma);
                    EXPECT_NE(text.find("cp.async.bulk.tensor.3d"), std::string::npos) << entry;
                    EXPECT_NE(text.find("tensormap.replace.tile.global_address"),
                            std::string::npos)
                            << entry;
                    const bool two_consumers = std::string(tiles).compare(0, 4, "m64_") != 0;
                    EXPECT_EQ(text.find("setmaxnreg") != std::string::npos, two_consumers)
                            << entry;
                    expect_buffer_params(tma, entry.c_str(), 8);
                }
    // The f32 split-K sum of four columns per thread: six buffers, 16-byte loads of the slices.
    const char *sum4 = anydnn::gpu::ptx_module("anydnn_wgmma_splitk_reduce4");
    ASSERT_NE(sum4, nullptr);
    EXPECT_NE(std::string(sum4).find("ld.global.v4.f32"), std::string::npos);
    expect_buffer_params(sum4, "anydnn_wgmma_splitk_reduce4", 6);
}

// The flash attention entries take nine buffers (embed_ptx.py's prefix rule
// anydnn_flash_sdpa_*=9): Q, K, V, dst, scale, mask, statistics, key and query lengths.
TEST(PtxKernel, FlashEntriesTakeNineBuffers) {
    for (const char *entry : {"anydnn_flash_sdpa_bf16_d64_w4", "anydnn_flash_sdpa_f16_d256_w4",
                 "anydnn_flash_sdpa_f32_d128", "anydnn_flash_sdpa_bf16_d128_sm90",
                 "anydnn_flash_sdpa_f16_d64_sm90_ps", "anydnn_flash_sdpa_bf16_d128_sm90_pipe",
                 "anydnn_flash_sdpa_f16_d64_sm90_pipe"}) {
        const char *ptx = anydnn::gpu::ptx_module(entry);
        if (!ptx) GTEST_SKIP() << "built without nvcc";
        expect_buffer_params(ptx, entry, 9);
    }
}

// The f32 flash entry of every head size the host takes (gpu/sdpa/flash.cpp): 64 as sm_80 PTX,
// 80, 96, 128 and 256 as sm_90a PTX (their shared memory passes 48 KiB), nine buffers each.
TEST(PtxKernel, FlashF32EntryForEveryHeadSize) {
    for (int d : {64, 80, 96, 128, 256}) {
        const std::string entry = "anydnn_flash_sdpa_f32_d" + std::to_string(d);
        const char *ptx = anydnn::gpu::ptx_module(entry.c_str());
        if (!ptx && d == 64) GTEST_SKIP() << "built without nvcc";
        ASSERT_NE(ptx, nullptr) << entry;
        const std::string text(ptx);
        EXPECT_NE(text.find(d == 64 ? ".target sm_80" : ".target sm_90a"), std::string::npos)
                << entry;
        expect_buffer_params(text, entry, 9);
    }
}

// The _epi kernels call a device function that nvcc kept out of line: their modules carry
// its definition ahead of the entry (else the driver cannot link the entry).
TEST(PtxKernel, EpilogueModulesCarryTheFunctionsTheyCall) {
    for (const char *entry :
            {"anydnn_wgmma_f16_mn_256x64s4p1_epi", "anydnn_wgmma_bf16_kk_128x64s4p1_epi"}) {
        const char *ptx = anydnn::gpu::ptx_module(entry);
        if (!ptx) GTEST_SKIP() << "built without nvcc";
        const std::string text(ptx);
        const size_t call = text.find("call.uni");
        ASSERT_NE(call, std::string::npos) << entry;
        const size_t func = text.find("\n.func");
        ASSERT_NE(func, std::string::npos) << entry;
        EXPECT_LT(func, text.find(".visible .entry")) << entry;
        // Every function defined once: a body, no separate declaration.
        EXPECT_EQ(text.find("\n.func", func + 1), std::string::npos) << entry;
        expect_buffer_params(text, entry, 7);
    }
    // The split-K sum inlines its epilogue: no call, and its six buffers.
    const char *sum = anydnn::gpu::ptx_module("anydnn_wgmma_splitk_reduce");
    ASSERT_NE(sum, nullptr);
    EXPECT_EQ(std::string(sum).find("call.uni"), std::string::npos);
    expect_buffer_params(sum, "anydnn_wgmma_splitk_reduce", 6);
}

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint16_t(u >> 16);
}

// bf16 x bf16 -> f32, 70 x 90 x 40 (tails of every tile): on a device without PTX the wgmma
// implementation steps aside and the next one computes it.
TEST(PtxKernel, Bf16MatmulFallsBackWherePtxDoesNotLoad) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const int64_t M = 70, N = 90, K = 40;
    dnnl_memory_desc_t a, b, c;
    const int64_t ad[] = {M, K}, bd[] = {K, N}, cd[] = {M, N};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&a, 2, ad, dnnl_bf16, dnnl_ab), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&b, 2, bd, dnnl_bf16, dnnl_ab), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&c, 2, cd, dnnl_f32, dnnl_ab), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, g.engine, a, b, nullptr, c, nullptr),
            dnnl_success);
    const char *impl = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl), dnnl_success);
    if (anydnn::gpu::engine_caps(g.engine).ptx_binary_sm < 90)
        EXPECT_EQ(std::string(impl).find("wgmma"), std::string::npos) << impl;

    std::mt19937 rng(3);
    std::uniform_int_distribution<int> dist(-32, 32);
    std::vector<uint16_t> ah(M * K), bh(K * N);
    std::vector<double> av(M * K), bv(K * N);
    for (size_t i = 0; i < ah.size(); ++i)
        ah[i] = to_bf16(float(av[i] = dist(rng) / 32.0));
    for (size_t i = 0; i < bh.size(); ++i)
        bh[i] = to_bf16(float(bv[i] = dist(rng) / 32.0));
    std::vector<float> ch(M * N, NAN);
    dnnl_memory_t am, bm, cm;
    ASSERT_EQ(dnnl_memory_create(&am, a, g.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&bm, b, g.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&cm, c, g.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    auto put = [](dnnl_memory_t m, const void *src, size_t bytes) {
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        std::memcpy(p, src, bytes);
        ASSERT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    };
    put(am, ah.data(), ah.size() * 2);
    put(bm, bh.data(), bh.size() * 2);
    put(cm, ch.data(), ch.size() * 4); // poisoned
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, g.engine, dnnl_stream_default_flags), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}};
    ASSERT_EQ(dnnl_primitive_execute(prim, s, 3, args), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(cm, &p), dnnl_success);
    std::memcpy(ch.data(), p, ch.size() * 4);
    ASSERT_EQ(dnnl_memory_unmap_data(cm, p), dnnl_success);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            double ref = 0;
            for (int64_t k = 0; k < K; ++k)
                ref += av[m * K + k] * bv[k * N + n];
            // Products of k/32 values are exact in f32; sums of 40 stay exact too.
            ASSERT_NEAR(ch[m * N + n], ref, 1e-6) << "m " << m << " n " << n << " " << impl;
        }
    dnnl_stream_destroy(s);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_t m : {am, bm, cm})
        dnnl_memory_destroy(m);
    for (dnnl_memory_desc_t m : {a, b, c})
        dnnl_memory_desc_destroy(m);
}

// The wgmma implementation's answer for a 2-D bf16 matmul 256 x 256 x 256 (bf16 dst) with
// the attribute `make_attr` builds: its status, and the reason when it declines.
struct wgmma_answer_t {
    dnnl_status_t status;
    std::string reason;
};
template <typename F>
wgmma_answer_t ask_wgmma(dnnl_engine_t engine, F make_attr) {
    dnnl_memory_desc_t md = nullptr;
    const int64_t dims[] = {256, 256};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_bf16, dnnl_ab), dnnl_success);
    anydnn::matmul_desc_t d;
    d.src_md = d.weights_md = d.dst_md = *md;
    d.bias_md = anydnn::zero_md();
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    make_attr(attr, md);
    std::unique_ptr<anydnn::primitive_desc_t> pd;
    wgmma_answer_t a;
    a.status = anydnn::gpu::matmul_wgmma_sm90a_entry().create(
            pd, anydnn::op_desc_t(d), *attr, engine, nullptr);
    a.reason = a.status == dnnl_success ? "" : anydnn::last_failure_reason();
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(md);
    return a;
}

void set_post_ops(dnnl_primitive_attr_t attr, const std::function<void(dnnl_post_ops_t)> &add) {
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    add(po);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_post_ops_destroy(po);
}

// What the epilogue applies passes the attribute checks (on a device without sm_90a, the
// device check is then the reason); what it does not apply is refused with its name.
TEST(PtxKernel, WgmmaEpilogueNamesWhatItDoesNotApply) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const bool sm90 = anydnn::gpu::engine_caps(g.engine).ptx_binary_sm >= 90
            && anydnn::gpu::ptx_module(wgmma_kernel);
    auto expect_taken = [&](const wgmma_answer_t &a, const char *what) {
        if (sm90) {
            EXPECT_EQ(a.status, dnnl_success) << what << ": " << a.reason;
        } else {
            EXPECT_EQ(a.status, dnnl_unimplemented) << what;
            EXPECT_NE(a.reason.find("sm_90a"), std::string::npos) << what << ": " << a.reason;
        }
    };
    auto expect_refused = [](const wgmma_answer_t &a, const char *named) {
        EXPECT_EQ(a.status, dnnl_unimplemented) << named;
        EXPECT_NE(a.reason.find(named), std::string::npos) << named << ": " << a.reason;
    };
    auto none = [](dnnl_primitive_attr_t, dnnl_memory_desc_t) {};
    expect_taken(ask_wgmma(g.engine, none), "no attribute");
    // Scales (common, per-N weights), sum then relu, gelu_tanh then sum with a scale.
    expect_taken(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 2), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
        set_post_ops(attr, [](dnnl_post_ops_t po) {
            dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.1f, 0.f);
        });
    }), "scales, sum, relu");
    for (dnnl_alg_kind_t alg : {dnnl_eltwise_gelu_erf, dnnl_eltwise_gelu_tanh, dnnl_eltwise_swish})
        expect_taken(ask_wgmma(g.engine, [alg](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
            set_post_ops(attr, [alg](dnnl_post_ops_t po) {
                dnnl_post_ops_append_eltwise(po, alg, 1.f, 0.f);
                dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_bf16);
            });
        }), dnnl_alg_kind2str(alg));

    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t md) {
        set_post_ops(attr, [md](dnnl_post_ops_t po) {
            dnnl_post_ops_append_binary(po, dnnl_binary_add, md);
        });
    }), "binary");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        set_post_ops(attr, [](dnnl_post_ops_t po) {
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_tanh, 0.f, 0.f);
        });
    }), "eltwise_tanh");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        set_post_ops(attr, [](dnnl_post_ops_t po) {
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_swish, 1.f, 0.f);
        });
    }), "one eltwise");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        set_post_ops(attr, [](dnnl_post_ops_t po) {
            dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
            dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
        });
    }), "one sum");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        set_post_ops(attr, [](dnnl_post_ops_t po) {
            dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_f16);
        });
    }), "dst's own type");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
    }), "zero points");
    expect_refused(ask_wgmma(g.engine, [](dnnl_primitive_attr_t attr, dnnl_memory_desc_t) {
        ASSERT_EQ(dnnl_primitive_attr_set_scales(attr, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f16),
                dnnl_success);
    }), "f32 scales");
}

} // namespace
