// PTX kernels through the GPU compute interface: the device probe (ptx_binary_sm), creating a
// kernel from embedded PTX, the embedded modules themselves, and bf16 matmul on a device that
// does not load PTX (PoCL, Intel) falling back to another implementation with the right result.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compute/compute.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

const char *wgmma_kernel = "anydnn_wgmma_bf16_kn_128x64s4p1";

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
    for (int i = 0; i < 5; ++i) {
        const std::string param = std::string(wgmma_kernel) + "_param_" + std::to_string(i);
        const size_t at = text.find(param);
        ASSERT_NE(at, std::string::npos);
        const std::string decl = text.substr(text.rfind(".param", at), at - text.rfind(".param", at));
        // A, B, C and bias are buffers; the offsets after them are plain values.
        EXPECT_EQ(decl.find(".ptr .global") != std::string::npos, i < 4) << decl;
    }
    EXPECT_EQ(anydnn::gpu::ptx_module("anydnn_wgmma_no_such_kernel"), nullptr);
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

} // namespace
