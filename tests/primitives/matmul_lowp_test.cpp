// Low-precision matmul (bf16 x bf16, u8/s8 x u8/s8) through the C API on every implementation,
// against a double-precision reference written here: exact s32 results for int8 (also past
// 2^24, where f32 accumulation would round), bf16 within a bound that grows with K, odd M/N/K
// tails, weights plain / transposed / `any` (packed), batch broadcast, zero points, scales,
// bias and post-ops. Which implementation comes first follows the CPU's ISA, so running the
// suite under ONEDNN_MAX_CPU_ISA=AVX512_CORE covers the fallback too.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "c_tensor.hpp"

namespace {

using namespace c_tensor;

bool isa_has(dnnl_cpu_isa_t isa) {
    return (static_cast<unsigned>(dnnl_get_effective_cpu_isa()) & isa) == unsigned(isa);
}

bool is_int(dnnl_data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8;
}

struct mm_case_t {
    dims_t src, wei, dst;
    dnnl_data_type_t sdt = dnnl_u8, wdt = dnnl_s8, ddt = dnnl_s32;
    dnnl_format_tag_t stag = dnnl_format_tag_undef, wtag = dnnl_format_tag_undef;
    bool bias = false;
    int src_zp = 0, wei_zp = 0, dst_zp = 0;
    float src_scale = 0.f, dst_scale = 0.f; // 0: none
    bool wei_scale_per_n = false, relu = false, sum = false;
    bool full_range = false; // extreme int8 values (exactness past 2^24)
    bool fractions = false; // bf16 values that are not short dyadic fractions
};

class matmul_lowp_test : public engine_fixture {
protected:
    // Runs the case on every implementation; returns their names in list order.
    std::vector<std::string> run(const mm_case_t &c) {
        const int nd = static_cast<int>(c.dst.size());
        auto spec = [](const dims_t &d, dnnl_data_type_t dt, dnnl_format_tag_t tag) {
            return spec_t(d, dt, tag);
        };
        dnnl_memory_desc_t smd = make_md(spec(c.src, c.sdt, c.stag)),
                           wmd = make_md(spec(c.wei, c.wdt, c.wtag)),
                           dmd = make_md(spec(c.dst, c.ddt, dnnl_format_tag_undef));
        dnnl_memory_desc_t bmd = nullptr;
        if (c.bias) {
            dims_t bd(nd, 1);
            bd[nd - 1] = c.dst[nd - 1];
            bmd = make_md(spec(bd, dnnl_f32, dnnl_format_tag_undef));
        }
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        if (c.src_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
        if (c.wei_scale_per_n)
            dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 1 << (nd - 1));
        if (c.dst_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0);
        if (c.src_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0);
        if (c.wei_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_WEIGHTS, 0);
        if (c.dst_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0);
        dnnl_post_ops_t po;
        dnnl_post_ops_create(&po);
        if (c.sum) dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef);
        if (c.relu) dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.25f, 0.f);
        dnnl_primitive_attr_set_post_ops(attr, po);
        dnnl_post_ops_destroy(po);

        std::vector<std::string> names;
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, smd, wmd, bmd, dmd, attr),
                dnnl_success);
        while (pd) {
            names.push_back(impl_name(pd));
            SCOPED_TRACE(names.back());
            check_one(c, pd);
            if (dnnl_primitive_desc_next_impl(pd) != dnnl_success) break;
        }
        if (pd) dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {smd, wmd, dmd, bmd})
            if (m) dnnl_memory_desc_destroy(m);
        return names;
    }

    static void fill(tensor_t &t, const mm_case_t &c, uint32_t seed) {
        std::mt19937 gen(seed);
        int64_t pos[DNNL_MAX_NDIMS] = {};
        if (t.lay.nelems() == 0) return;
        do {
            float v;
            if (c.full_range && t.lay.dt == dnnl_u8) v = float(gen() % 2 ? 255 : gen() % 256);
            else if (c.full_range && t.lay.dt == dnnl_s8) v = float(gen() % 2 ? -128 : int(gen() % 256) - 128);
            else if (t.lay.dt == dnnl_u8) v = float(gen() % 60);
            else if (t.lay.dt == dnnl_s8) v = float(int(gen() % 61) - 30);
            else if (c.fractions) v = float(int(gen() % 20001) - 10000) / 7777.f;
            else v = float(int(gen() % 33) - 16) / 4.f;
            t.set(pos, v);
        } while (next_pos(pos, t.lay.dims, t.lay.ndims));
    }

    void check_one(const mm_case_t &c, const_dnnl_primitive_desc_t pd) {
        const int nd = static_cast<int>(c.dst.size());
        auto q = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST));
        fill(s, c, 1);
        fill(w, c, 2);
        fill(d, c, 3);
        std::vector<dnnl_exec_arg_t> args
                = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::vector<std::unique_ptr<tensor_t>> extra;
        auto scalar = [&](dnnl_data_type_t dt, int64_t n, float v, int arg) {
            extra.emplace_back(new tensor_t(engine, spec_t({n}, dt, dnnl_a)));
            for (int64_t i = 0; i < n; ++i)
                extra.back()->set(&i, v + 0.25f * float(i % 3));
            args.push_back({arg, extra.back()->mem});
        };
        const int64_t N = c.dst[nd - 1], K = c.src[nd - 1];
        tensor_t *bias = nullptr;
        if (c.bias) {
            extra.emplace_back(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            bias = extra.back().get();
            bias->fill_random(4);
            args.push_back({DNNL_ARG_BIAS, bias->mem});
        }
        if (c.src_scale) scalar(dnnl_f32, 1, c.src_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
        if (c.wei_scale_per_n)
            scalar(dnnl_f32, N, 0.5f, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
        if (c.dst_scale) scalar(dnnl_f32, 1, c.dst_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST);
        if (c.src_zp)
            scalar(dnnl_s32, 1, float(c.src_zp), DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
        if (c.wei_zp)
            scalar(dnnl_s32, 1, float(c.wei_zp), DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
        if (c.dst_zp)
            scalar(dnnl_s32, 1, float(c.dst_zp), DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST);

        // Reference first: sum reads the old dst.
        const int64_t total = d.lay.nelems();
        std::vector<double> want(total), mag(total);
        std::vector<int64_t> pos(nd, 0), sp(nd), wp(nd);
        for (int64_t e = 0; e < total; ++e) {
            int64_t r = e;
            for (int i = nd - 1; i >= 0; --i) {
                pos[i] = r % c.dst[i];
                r /= c.dst[i];
            }
            for (int i = 0; i < nd - 2; ++i) {
                sp[i] = c.src[i] == 1 ? 0 : pos[i];
                wp[i] = c.wei[i] == 1 ? 0 : pos[i];
            }
            sp[nd - 2] = pos[nd - 2];
            wp[nd - 1] = pos[nd - 1];
            double acc = 0, abs_acc = 0;
            for (int64_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                const double p = (double(s.get(sp.data())) - c.src_zp)
                        * (double(w.get(wp.data())) - c.wei_zp);
                acc += p;
                abs_acc += std::fabs(p);
            }
            const int64_t n = pos[nd - 1];
            if (c.src_scale) acc *= c.src_scale;
            if (c.wei_scale_per_n) acc *= 0.5 + 0.25 * double(n % 3);
            if (bias) {
                std::vector<int64_t> bp(nd, 0);
                bp[nd - 1] = n;
                acc += bias->get(bp.data());
            }
            if (c.sum) acc += 0.5 * d.get(pos.data());
            if (c.relu && acc < 0) acc *= 0.25;
            if (c.dst_scale) acc /= c.dst_scale;
            acc += c.dst_zp;
            want[e] = acc;
            mag[e] = abs_acc;
        }
        ASSERT_EQ(execute(pd, args), dnnl_success);

        int bad = 0;
        for (int64_t e = 0; e < total && bad < 5; ++e) {
            int64_t r = e;
            for (int i = nd - 1; i >= 0; --i) {
                pos[i] = r % c.dst[i];
                r /= c.dst[i];
            }
            const double got = d.get(pos.data());
            bool ok;
            if (c.ddt == dnnl_s32 && !c.src_scale && !c.wei_scale_per_n && !c.dst_scale && !c.bias
                    && !c.sum && !c.relu) {
                // Integer in, integer out: exact (compared as integers, not floats).
                ok = d.get_s32(pos.data()) == static_cast<int32_t>(want[e]);
            } else if (is_int(c.ddt) || c.ddt == dnnl_s32) {
                ok = std::fabs(got - std::nearbyint(want[e])) <= 1.0
                        || (c.ddt == dnnl_u8 && want[e] < 0 && got == 0)
                        || (c.ddt == dnnl_u8 && want[e] > 255 && got == 255)
                        || (c.ddt == dnnl_s8 && want[e] < -128 && got == -128)
                        || (c.ddt == dnnl_s8 && want[e] > 127 && got == 127);
            } else {
                // f32 accumulation: |error| <= K * 2^-24 * sum |products|, plus one rounding
                // of dst.
                const double expect = round_to(c.ddt, static_cast<float>(want[e]));
                const double acc_err = double(K + 2) * std::ldexp(1.0, -24) * mag[e];
                ok = std::fabs(got - expect) <= acc_err + tolerance(c.ddt, float(want[e]));
            }
            if (!ok) {
                ++bad;
                ADD_FAILURE() << "element " << e << ": got " << got << " want " << want[e];
            }
        }
    }
};

dims_t mk(int64_t r, int64_t c) {
    return {r, c};
}

// The low-precision implementation leads the list exactly when its ISA is enabled.
void expect_first(const std::vector<std::string> &names, bool int8) {
    ASSERT_FALSE(names.empty());
    const bool fast = int8 ? isa_has(dnnl_cpu_isa_avx512_core_vnni)
                           : isa_has(dnnl_cpu_isa_avx512_core_bf16);
    const char *name = int8 ? "cpu:matmul:int8_vnni" : "cpu:matmul:bf16_avx512bf16";
    EXPECT_EQ(names.front() == name, fast) << names.front();
}

TEST_F(matmul_lowp_test, int8_s32_exact_on_odd_tails_every_signedness_plain_and_packed_weights) {
    for (auto mnk : std::vector<dims_t> {{1, 1, 1}, {7, 13, 5}, {13, 65, 67}, {6, 64, 4}})
        for (auto types : std::vector<std::pair<dnnl_data_type_t, dnnl_data_type_t>> {
                     {dnnl_u8, dnnl_s8}, {dnnl_s8, dnnl_s8}, {dnnl_s8, dnnl_u8},
                     {dnnl_u8, dnnl_u8}})
            for (auto wtag : {dnnl_format_tag_undef, dnnl_format_tag_any}) {
                mm_case_t c;
                c.src = mk(mnk[0], mnk[2]);
                c.wei = mk(mnk[2], mnk[1]);
                c.dst = mk(mnk[0], mnk[1]);
                c.sdt = types.first;
                c.wdt = types.second;
                c.wtag = wtag;
                SCOPED_TRACE(testing::Message() << mnk[0] << "x" << mnk[1] << "x" << mnk[2]
                                                << " " << dnnl_dt2str(c.sdt) << ":"
                                                << dnnl_dt2str(c.wdt) << " wtag " << wtag);
                expect_first(run(c), true);
            }
}

TEST_F(matmul_lowp_test, int8_zero_points_are_exact_with_s32_dst) {
    for (auto types : std::vector<std::pair<dnnl_data_type_t, dnnl_data_type_t>> {
                 {dnnl_u8, dnnl_s8}, {dnnl_s8, dnnl_s8}, {dnnl_u8, dnnl_u8}})
        for (auto wtag : {dnnl_format_tag_undef, dnnl_format_tag_any}) {
            mm_case_t c;
            c.src = mk(11, 45);
            c.wei = mk(45, 70);
            c.dst = mk(11, 70);
            c.sdt = types.first;
            c.wdt = types.second;
            c.wtag = wtag;
            c.src_zp = 3;
            c.wei_zp = -2;
            expect_first(run(c), true);
            c.src_zp = 0; // weights' zero point alone: row corrections only
            expect_first(run(c), true);
        }
}

TEST_F(matmul_lowp_test, int8_partial_sums_past_2_24_stay_exact) {
    // 1100 products of 255 x -128 reach 3.6e7: f32 accumulation would round, s32 does not.
    mm_case_t c;
    c.src = mk(5, 1100);
    c.wei = mk(1100, 70);
    c.dst = mk(5, 70);
    c.full_range = true;
    c.wtag = dnnl_format_tag_any;
    if (!isa_has(dnnl_cpu_isa_avx512_core_vnni)) GTEST_SKIP() << "no avx512_core_vnni";
    // Only the VNNI implementation promises exact s32 here: run it alone.
    dnnl_memory_desc_t smd = make_md(spec_t(c.src, c.sdt, dnnl_format_tag_undef)),
                       wmd = make_md(spec_t(c.wei, c.wdt, dnnl_format_tag_any)),
                       dmd = make_md(spec_t(c.dst, c.ddt, dnnl_format_tag_undef));
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, smd, wmd, nullptr, dmd, nullptr),
            dnnl_success);
    EXPECT_EQ(impl_name(pd), "cpu:matmul:int8_vnni");
    check_one(c, pd);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {smd, wmd, dmd})
        dnnl_memory_desc_destroy(m);
}

TEST_F(matmul_lowp_test, int8_scales_bias_post_ops_and_every_dst_type) {
    for (auto ddt : {dnnl_s32, dnnl_f32, dnnl_bf16, dnnl_s8, dnnl_u8}) {
        mm_case_t c;
        c.src = mk(23, 40);
        c.wei = mk(40, 77);
        c.dst = mk(23, 77);
        c.ddt = ddt;
        c.wtag = dnnl_format_tag_any;
        c.bias = true;
        c.src_zp = 1;
        c.src_scale = 0.5f;
        c.wei_scale_per_n = true;
        c.relu = true;
        c.sum = ddt != dnnl_s32;
        if (ddt == dnnl_s8 || ddt == dnnl_u8) {
            c.dst_scale = 64.f;
            c.dst_zp = 5;
        }
        SCOPED_TRACE(dnnl_dt2str(ddt));
        expect_first(run(c), true);
    }
}

TEST_F(matmul_lowp_test, bf16_dst_f32_and_bf16_odd_shapes_plain_and_packed_weights) {
    for (auto mnk : std::vector<dims_t> {{1, 1, 1}, {7, 13, 5}, {13, 65, 67}, {6, 64, 2}})
        for (auto ddt : {dnnl_f32, dnnl_bf16})
            for (auto wtag : {dnnl_format_tag_undef, dnnl_format_tag_any}) {
                mm_case_t c;
                c.src = mk(mnk[0], mnk[2]);
                c.wei = mk(mnk[2], mnk[1]);
                c.dst = mk(mnk[0], mnk[1]);
                c.sdt = c.wdt = dnnl_bf16;
                c.ddt = ddt;
                c.wtag = wtag;
                SCOPED_TRACE(testing::Message() << mnk[0] << "x" << mnk[1] << "x" << mnk[2]
                                                << " dst " << dnnl_dt2str(ddt) << " wtag "
                                                << wtag);
                expect_first(run(c), false);
            }
}

TEST_F(matmul_lowp_test, bf16_rounding_error_fits_k_and_output_stage_applies) {
    mm_case_t c;
    c.src = mk(9, 400);
    c.wei = mk(400, 40);
    c.dst = mk(9, 40);
    c.sdt = c.wdt = dnnl_bf16;
    c.ddt = dnnl_f32;
    c.fractions = true;
    c.wtag = dnnl_format_tag_any;
    expect_first(run(c), false);
    c.ddt = dnnl_bf16;
    c.bias = true;
    c.src_scale = 2.f;
    c.wei_scale_per_n = true;
    c.relu = true;
    c.sum = true;
    expect_first(run(c), false);
}

TEST_F(matmul_lowp_test, batch_broadcast_with_plain_and_packed_weights) {
    for (bool int8 : {true, false}) {
        SCOPED_TRACE(int8 ? "int8" : "bf16");
        mm_case_t c;
        if (!int8) c.sdt = c.wdt = dnnl_bf16, c.ddt = dnnl_f32;
        c.src = {2, 1, 5, 7};
        c.wei = {1, 3, 7, 66};
        c.dst = {2, 3, 5, 66};
        expect_first(run(c), int8);
        for (int64_t wb : {1, 3}) {
            c.src = {3, 11, 9};
            c.wei = {wb, 9, 70};
            c.dst = {3, 11, 70};
            c.wtag = dnnl_format_tag_any;
            c.bias = true;
            expect_first(run(c), int8);
        }
    }
}

TEST_F(matmul_lowp_test, transposed_operands_and_zero_sizes) {
    for (bool int8 : {true, false}) {
        SCOPED_TRACE(int8 ? "int8" : "bf16");
        mm_case_t c;
        if (!int8) c.sdt = c.wdt = dnnl_bf16, c.ddt = dnnl_f32;
        c.src = mk(19, 23);
        c.wei = mk(23, 37);
        c.dst = mk(19, 37);
        c.stag = dnnl_ba;
        c.wtag = dnnl_ba;
        if (int8) c.wei_zp = 2;
        expect_first(run(c), int8);
        c.stag = c.wtag = dnnl_format_tag_undef;
        c.src = mk(0, 6);
        c.wei = mk(6, 7);
        c.dst = mk(0, 7);
        run(c);
        c.src = mk(3, 0);
        c.wei = mk(0, 7);
        c.dst = mk(3, 7);
        c.bias = true;
        run(c);
    }
}

TEST(matmul_lowp_gemm_api, u8s8s32_partial_sums_past_2_24_stay_exact) {
    if (!isa_has(dnnl_cpu_isa_avx512_core_vnni)) GTEST_SKIP() << "no avx512_core_vnni";
    const int64_t M = 4, N = 33, K = 1500;
    std::vector<uint8_t> A(M * K, 250);
    std::vector<int8_t> B(K * N, -120);
    for (int64_t i = 0; i < K * N; i += 7)
        B[i] = 127;
    std::vector<int32_t> C(M * N, 0), co(N);
    for (int64_t j = 0; j < N; ++j)
        co[j] = int32_t(j) - 5;
    const uint8_t ao = 3;
    const int8_t bo = -2;
    ASSERT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'R', M, N, K, 1.f, A.data(), K, ao, B.data(), N, bo,
                      0.f, C.data(), N, co.data()),
            dnnl_success);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            int64_t s = 0;
            for (int64_t k = 0; k < K; ++k)
                s += (int64_t(A[i * K + k]) - ao) * (int64_t(B[k * N + j]) - bo);
            ASSERT_EQ(C[i * N + j], static_cast<int32_t>(s + co[j])) << i << "," << j;
        }
}

TEST(matmul_lowp_gemm_api, s8s8s32_weights_past_64_mib_go_in_column_slabs) {
    // 8200 x 8200 int8 weights (64.1 MiB) are packed in column slabs, not all at once.
    const int64_t M = 1, N = 8200, K = 8200;
    std::vector<int8_t> A(M * K), B(K * N);
    for (int64_t k = 0; k < K; ++k)
        A[k] = static_cast<int8_t>(k % 7 - 3);
    for (int64_t i = 0; i < K * N; ++i)
        B[i] = static_cast<int8_t>((i * 7) % 11 - 5);
    std::vector<int32_t> C(M * N, 0);
    const int32_t co = 4;
    ASSERT_EQ(dnnl_gemm_s8s8s32('N', 'N', 'F', M, N, K, 1.f, A.data(), K, 1, B.data(), N, -1,
                      0.f, C.data(), N, &co),
            dnnl_success);
    for (int64_t j = 0; j < N; j += 37) {
        int64_t s = 0;
        for (int64_t k = 0; k < K; ++k)
            s += (int64_t(A[k]) - 1) * (int64_t(B[k * N + j]) + 1);
        ASSERT_EQ(C[j], static_cast<int32_t>(s + co)) << j;
    }
}

} // namespace
