// The Hopper wgmma matmul's TF32 and 8-bit integer kinds: which problems it takes (on a
// device without sm_90a PTX the device check is then the reason) and which it refuses with a
// reason (strict fpmath never runs f32 as TF32; dst, bias and zero points it lacks); and the
// answer of whichever implementation runs them, against a double-precision reference, on
// row-major and transposed operands with tails.
#include <array>
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

struct gpu_engine_t {
    dnnl_engine_t engine = nullptr;
    gpu_engine_t() {
        if (dnnl_engine_get_count(dnnl_gpu) > 0) dnnl_engine_create(&engine, dnnl_gpu, 0);
    }
    ~gpu_engine_t() {
        if (engine) dnnl_engine_destroy(engine);
    }
    bool sm90() const {
        return anydnn::gpu::engine_caps(engine).ptx_binary_sm >= 90
                && anydnn::gpu::ptx_module("anydnn_wgmma_tf32_kk_256x32s4p1");
    }
};

struct types_t {
    dnnl_data_type_t a, b, c, bias = dnnl_data_type_undef;
};

struct answer_t {
    dnnl_status_t status;
    std::string reason;
};

// The wgmma implementation's answer for a 2-D matmul 256 x 192 x 160 of these types (row-major
// operands), with fpmath mode `mode` and the attribute `more` adds.
answer_t ask(dnnl_engine_t engine, const types_t &t, dnnl_fpmath_mode_t mode,
        const std::function<void(dnnl_primitive_attr_t)> &more = {}) {
    dnnl_memory_desc_t a = nullptr, b = nullptr, c = nullptr, bias = nullptr;
    const int64_t ad[] = {256, 160}, bd[] = {160, 192}, cd[] = {256, 192}, biasd[] = {1, 192};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&a, 2, ad, t.a, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&b, 2, bd, t.b, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&c, 2, cd, t.c, dnnl_ab), dnnl_success);
    if (t.bias != dnnl_data_type_undef)
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&bias, 2, biasd, t.bias, dnnl_ab),
                dnnl_success);
    anydnn::matmul_desc_t d;
    d.src_md = *a;
    d.weights_md = *b;
    d.dst_md = *c;
    d.bias_md = bias ? *bias : anydnn::zero_md();
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode(attr, mode), dnnl_success);
    if (more) more(attr);
    std::unique_ptr<anydnn::primitive_desc_t> pd;
    answer_t r;
    r.status = anydnn::gpu::matmul_wgmma_sm90a_entry().create(
            pd, anydnn::op_desc_t(d), *attr, engine, nullptr);
    r.reason = r.status == dnnl_success ? "" : anydnn::last_failure_reason();
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t md : {a, b, c, bias})
        if (md) dnnl_memory_desc_destroy(md);
    return r;
}

} // namespace

TEST(WgmmaTf32Int8, TakesTf32OnlyWhereFpmathAllowsIt) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const bool sm90 = g.sm90();
    auto taken = [&](const answer_t &r, const std::string &what) {
        if (sm90) {
            EXPECT_EQ(r.status, dnnl_success) << what << ": " << r.reason;
        } else {
            EXPECT_EQ(r.status, dnnl_unimplemented) << what;
            EXPECT_NE(r.reason.find("sm_90a"), std::string::npos) << what << ": " << r.reason;
        }
    };
    auto refused = [](const answer_t &r, const char *named) {
        EXPECT_EQ(r.status, dnnl_unimplemented) << named;
        EXPECT_NE(r.reason.find(named), std::string::npos) << named << ": " << r.reason;
    };
    const types_t f32 {dnnl_f32, dnnl_f32, dnnl_f32};
    // TF32 is at least as accurate as bf16 and f16 (8 exponent, 10 mantissa bits): those
    // modes allow it too; strict never does.
    for (dnnl_fpmath_mode_t m : {dnnl_fpmath_mode_tf32, dnnl_fpmath_mode_bf16,
                 dnnl_fpmath_mode_f16, dnnl_fpmath_mode_any})
        taken(ask(g.engine, f32, m), dnnl_fpmath_mode2str(m));
    refused(ask(g.engine, f32, dnnl_fpmath_mode_strict), "fpmath");
    taken(ask(g.engine, {dnnl_f32, dnnl_f32, dnnl_bf16, dnnl_f32}, dnnl_fpmath_mode_tf32),
            "bf16 dst, f32 bias");
    refused(ask(g.engine, {dnnl_f32, dnnl_f32, dnnl_f16}, dnnl_fpmath_mode_tf32),
            "dst f32 or bf16");
    refused(ask(g.engine, {dnnl_f32, dnnl_f32, dnnl_f32, dnnl_f16}, dnnl_fpmath_mode_tf32),
            "bias is f32 or bf16");
    refused(ask(g.engine, {dnnl_f32, dnnl_bf16, dnnl_f32}, dnnl_fpmath_mode_any), "f32 x bf16");
    // Scales and post-ops ride in the epilogue, as for bf16.
    taken(ask(g.engine, f32, dnnl_fpmath_mode_tf32, [](dnnl_primitive_attr_t attr) {
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 2), dnnl_success);
        dnnl_post_ops_t po = nullptr;
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        dnnl_post_ops_append_eltwise(po, dnnl_eltwise_gelu_erf, 0.f, 0.f);
        ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        dnnl_post_ops_destroy(po);
    }), "per-N scales, gelu_erf");
}

TEST(WgmmaTf32Int8, TakesEightBitIntegersWithTheEpilogueTheyNeed) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const bool sm90 = g.sm90();
    auto taken = [&](const answer_t &r, const std::string &what) {
        if (sm90) {
            EXPECT_EQ(r.status, dnnl_success) << what << ": " << r.reason;
        } else {
            EXPECT_EQ(r.status, dnnl_unimplemented) << what;
            EXPECT_NE(r.reason.find("sm_90a"), std::string::npos) << what << ": " << r.reason;
        }
    };
    auto refused = [](const answer_t &r, const char *named) {
        EXPECT_EQ(r.status, dnnl_unimplemented) << named;
        EXPECT_NE(r.reason.find(named), std::string::npos) << named << ": " << r.reason;
    };
    // fpmath does not matter for integers.
    const dnnl_fpmath_mode_t strict = dnnl_fpmath_mode_strict;
    taken(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_s32}, strict), "u8s8s32");
    taken(ask(g.engine, {dnnl_s8, dnnl_s8, dnnl_f32, dnnl_f32}, strict), "s8s8f32, f32 bias");
    taken(ask(g.engine, {dnnl_u8, dnnl_u8, dnnl_u8, dnnl_s32}, strict), "u8u8u8, s32 bias");
    taken(ask(g.engine, {dnnl_s8, dnnl_u8, dnnl_bf16}, strict), "s8u8bf16");
    taken(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_s8}, strict, [](dnnl_primitive_attr_t attr) {
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 2), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
        dnnl_post_ops_t po = nullptr;
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
        dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
        ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        dnnl_post_ops_destroy(po);
    }), "u8s8s8 with scales, sum, relu");
    refused(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_f16}, strict), "dst f32, s32, s8, u8 or bf16");
    refused(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_s32, dnnl_s8}, strict), "bias is f32");
    // Common zero points of src and dst are applied; of weights, or per N, not.
    taken(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_u8}, strict, [](dnnl_primitive_attr_t attr) {
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
    }), "src and dst zero points");
    refused(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_s32}, strict, [](dnnl_primitive_attr_t attr) {
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_WEIGHTS, 0),
                dnnl_success);
    }), "zero points for argument");
    refused(ask(g.engine, {dnnl_u8, dnnl_s8, dnnl_s32}, strict, [](dnnl_primitive_attr_t attr) {
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 2), dnnl_success);
    }), "common zero points");
    // Not for tf32 or 16-bit types.
    refused(ask(g.engine, {dnnl_f32, dnnl_f32, dnnl_f32}, dnnl_fpmath_mode_tf32,
                    [](dnnl_primitive_attr_t attr) {
                        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0),
                                dnnl_success);
                    }),
            "zero points");
}

namespace {

// Runs C = A B through the public API on the GPU engine (whichever implementation it picks)
// with A M x K row-major or (a_t) column-major, B K x N row-major or (b_t) column-major, and
// returns C as doubles; the inputs are small integers (exact in tf32 and 8 bits), so every
// kind's sums are exact and the reference is too.
std::vector<double> run_matmul(dnnl_engine_t engine, dnnl_data_type_t ta, dnnl_data_type_t tb,
        dnnl_data_type_t tc, dnnl_fpmath_mode_t mode, int64_t M, int64_t N, int64_t K, bool a_t,
        bool b_t, const std::vector<int> &av, const std::vector<int> &bv, std::string &impl,
        const int *zps = nullptr) {
    dnnl_memory_desc_t a, b, c;
    const int64_t ad[] = {M, K}, bd[] = {K, N}, cd[] = {M, N};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&a, 2, ad, ta, a_t ? dnnl_ba : dnnl_ab),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&b, 2, bd, tb, b_t ? dnnl_ba : dnnl_ab),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&c, 2, cd, tc, dnnl_ab), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode(attr, mode), dnnl_success);
    if (zps) { // zps[0] of src, zps[1] of dst, common
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
    }
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, a, b, nullptr, c, attr),
            dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    if (!pd) return {};
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    impl = name ? name : "";
    auto fill = [](dnnl_memory_t m, dnnl_data_type_t t, const std::vector<int> &v, int64_t rows,
                        int64_t cols, bool transposed) {
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t q = 0; q < cols; ++q) {
                const int64_t at = transposed ? q * rows + r : r * cols + q;
                const int x = v[r * cols + q];
                if (t == dnnl_f32) static_cast<float *>(p)[at] = float(x) / 8.f;
                else if (t == dnnl_s8) static_cast<int8_t *>(p)[at] = int8_t(x);
                else static_cast<uint8_t *>(p)[at] = uint8_t(x);
            }
        ASSERT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    };
    dnnl_memory_t am, bm, cm;
    EXPECT_EQ(dnnl_memory_create(&am, a, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&bm, b, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&cm, c, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    fill(am, ta, av, M, K, a_t);
    fill(bm, tb, bv, K, N, b_t);
    const size_t c_bytes = size_t(M * N) * 4;
    void *p = nullptr;
    EXPECT_EQ(dnnl_memory_map_data(cm, &p), dnnl_success);
    std::memset(p, 0x7f, c_bytes); // poisoned: NaN-like f32, a large s32
    EXPECT_EQ(dnnl_memory_unmap_data(cm, p), dnnl_success);
    dnnl_primitive_t prim = nullptr;
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    EXPECT_EQ(dnnl_stream_create(&s, engine, dnnl_stream_default_flags), dnnl_success);
    dnnl_memory_t zm[2] = {nullptr, nullptr};
    dnnl_memory_desc_t zmd = nullptr;
    std::vector<dnnl_exec_arg_t> args
            = {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}};
    if (zps) {
        const int64_t one[] = {1};
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&zmd, 1, one, dnnl_s32, dnnl_a), dnnl_success);
        for (int i = 0; i < 2; ++i) {
            EXPECT_EQ(dnnl_memory_create(&zm[i], zmd, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
            void *zp = nullptr;
            EXPECT_EQ(dnnl_memory_map_data(zm[i], &zp), dnnl_success);
            *static_cast<int32_t *>(zp) = zps[i];
            EXPECT_EQ(dnnl_memory_unmap_data(zm[i], zp), dnnl_success);
        }
        args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, zm[0]});
        args.push_back({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, zm[1]});
    }
    EXPECT_EQ(dnnl_primitive_execute(prim, s, int(args.size()), args.data()), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    for (dnnl_memory_t m : zm)
        if (m) dnnl_memory_destroy(m);
    if (zmd) dnnl_memory_desc_destroy(zmd);
    std::vector<double> out(size_t(M * N));
    EXPECT_EQ(dnnl_memory_map_data(cm, &p), dnnl_success);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = tc == dnnl_f32 ? double(static_cast<float *>(p)[i])
                                : double(static_cast<int32_t *>(p)[i]);
    EXPECT_EQ(dnnl_memory_unmap_data(cm, p), dnnl_success);
    dnnl_stream_destroy(s);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_t m : {am, bm, cm})
        dnnl_memory_destroy(m);
    for (dnnl_memory_desc_t m : {a, b, c})
        dnnl_memory_desc_destroy(m);
    return out;
}

void check_kind(dnnl_engine_t engine, dnnl_data_type_t ta, dnnl_data_type_t tb,
        dnnl_data_type_t tc, dnnl_fpmath_mode_t mode, int lo_a, int hi_a, double unit,
        const int *zps = nullptr) {
    // Tails of every tile (M 130, N 70, K 45 and 1 x 1 x 1), each layout of A and B.
    const std::array<std::array<int64_t, 3>, 2> shapes = {{{130, 70, 45}, {1, 1, 1}}};
    for (const auto &mnk : shapes)
        for (int layout = 0; layout < 4; ++layout) {
            const int64_t M = mnk[0], N = mnk[1], K = mnk[2];
            std::mt19937 rng(11 + layout);
            std::uniform_int_distribution<int> da(lo_a, hi_a), db(-128, 127);
            std::vector<int> av(size_t(M * K)), bv(size_t(K * N));
            for (int &x : av)
                x = da(rng);
            for (int &x : bv)
                x = tb == dnnl_u8 ? db(rng) + 128 : db(rng);
            std::string impl;
            const std::vector<double> c = run_matmul(engine, ta, tb, tc, mode, M, N, K,
                    layout / 2 != 0, layout % 2 != 0, av, bv, impl, zps);
            ASSERT_EQ(c.size(), size_t(M * N));
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < N; ++n) {
                    double ref = 0;
                    for (int64_t k = 0; k < K; ++k)
                        ref += double(av[m * K + k] - (zps ? zps[0] : 0)) * double(bv[k * N + n]);
                    if (zps) ref += zps[1];
                    ASSERT_EQ(c[m * N + n], ref * unit)
                            << "m " << m << " n " << n << " layout " << layout << " " << impl;
                }
        }
}

} // namespace

// f32 x f32 with TF32 allowed: values k / 8 for |k| <= 128 have 8 significant bits (exact in
// tf32), products and sums of 45 stay exact in f32.
TEST(WgmmaTf32Int8, Tf32MatmulIsExactOnExactData) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    check_kind(g.engine, dnnl_f32, dnnl_f32, dnnl_f32, dnnl_fpmath_mode_tf32, -128, 127,
            1.0 / 64);
}

TEST(WgmmaTf32Int8, Int8MatmulIntoS32IsExact) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    check_kind(g.engine, dnnl_u8, dnnl_s8, dnnl_s32, dnnl_fpmath_mode_strict, 0, 255, 1.0);
    check_kind(g.engine, dnnl_s8, dnnl_s8, dnnl_s32, dnnl_fpmath_mode_strict, -128, 127, 1.0);
}

// Common zero points: src's times B's column sums comes off the s32 sums, dst's is added.
TEST(WgmmaTf32Int8, Int8ZeroPointsOfSrcAndDst) {
    gpu_engine_t g;
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const int zps[2] = {100, -7};
    check_kind(g.engine, dnnl_u8, dnnl_s8, dnnl_s32, dnnl_fpmath_mode_strict, 0, 255, 1.0, zps);
    const int szps[2] = {-3, 11};
    check_kind(g.engine, dnnl_s8, dnnl_u8, dnnl_s32, dnnl_fpmath_mode_strict, -128, 127, 1.0,
            szps);
}
