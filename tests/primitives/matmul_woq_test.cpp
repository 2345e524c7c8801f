// Matmul weights decompression (weight-only quantization) on the CPU engine, every
// implementation that takes it (dnnl_primitive_desc_next_impl), against a double-precision
// reference (matmul_woq_ref.hpp): f32/bf16/f16 src with s8/u8/s4/u4 weights, scales and zero
// points grouped along K (and N), per-N, common and host-scalar, transposed, batched and `any`
// weights, odd shapes and tails; what oneDNN refuses is refused.
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "matmul_woq_ref.hpp"

namespace {

using namespace c_tensor;
using matmul_ref::wei_param_t;

struct param_spec_t {
    int mask = -1; // -1: none
    dims_t groups; // {} or {Gk, Gn}
    dnnl_data_type_t dt = dnnl_f32;
    bool host = false; // host-scalar (mask 0)
};

struct woq_case_t {
    dims_t src, wei, dst;
    dnnl_data_type_t sdt = dnnl_f32, wdt = dnnl_s4, ddt = dnnl_f32;
    dnnl_format_tag_t wtag = dnnl_format_tag_undef; // undef: row-major
    param_spec_t scale, zp;
    bool bias = false, relu = false;
    dnnl_fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    int apply_to_int = 1;
};

int64_t weight_lo(dnnl_data_type_t dt) {
    return dt == dnnl_s4 ? -8 : dt == dnnl_s8 ? -20 : 0;
}
int64_t weight_hi(dnnl_data_type_t dt) {
    return dt == dnnl_s4 ? 7 : dt == dnnl_u4 ? 15 : dt == dnnl_s8 ? 20 : 40;
}

class matmul_woq : public engine_fixture {
protected:
    dnnl_status_t create(const woq_case_t &c, dnnl_primitive_desc_t *pd) {
        dnnl_memory_desc_t s = make_md(spec_t(c.src, c.sdt, dnnl_format_tag_undef));
        dnnl_memory_desc_t w = make_md(spec_t(c.wei, c.wdt, c.wtag));
        dnnl_memory_desc_t d = make_md(spec_t(c.dst, c.ddt, dnnl_format_tag_undef));
        dims_t bd(c.dst.size(), 1);
        bd.back() = c.dst.back();
        dnnl_memory_desc_t b = c.bias ? make_md(spec_t(bd, dnnl_f32, dnnl_format_tag_undef))
                                      : nullptr;
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(attr, c.fpmath, c.apply_to_int),
                dnnl_success);
        auto set = [&](const param_spec_t &p, bool zp) {
            if (p.mask < 0) return;
            dnnl_dims_t g = {};
            for (size_t i = 0; i < p.groups.size(); ++i)
                g[i] = p.groups[i];
            const int gn = static_cast<int>(p.groups.size());
            if (zp)
                EXPECT_EQ(dnnl_primitive_attr_set_zero_points(
                                  attr, DNNL_ARG_WEIGHTS, p.mask, gn, g, p.dt),
                        dnnl_success);
            else
                EXPECT_EQ(dnnl_primitive_attr_set_scales_v2(
                                  attr, DNNL_ARG_WEIGHTS, p.mask, gn, g, p.dt, p.host),
                        dnnl_success);
        };
        set(c.scale, false);
        set(c.zp, true);
        if (c.relu) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, engine, s, w, b, d, attr);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {s, w, d, b})
            if (m) dnnl_memory_desc_destroy(m);
        return st;
    }

    // Runs the case on every implementation that takes it; returns how many ran.
    int run(const woq_case_t &c) {
        return on_every_impl([&](dnnl_primitive_desc_t *pd) { return create(c, pd); },
                [&](const_dnnl_primitive_desc_t pd) { check(c, pd); });
    }

    // The parameter's values (exact in every scale type), written to a memory of its own.
    void make_param(const woq_case_t &c, const param_spec_t &p, bool zp, wei_param_t &ref,
            std::unique_ptr<tensor_t> &mem, dnnl_memory_t &host, std::vector<dnnl_exec_arg_t> &args) {
        if (p.mask < 0) return;
        const int nd = static_cast<int>(c.wei.size());
        ref.present = true;
        ref.mask = p.mask;
        if (!p.groups.empty()) ref.gk = p.groups[0], ref.gn = p.groups[1];
        const int64_t n = wei_param_t::count(p.mask, c.wei.data(), nd, ref.gk, ref.gn);
        const bool sgn = p.dt == dnnl_s8 || p.dt == dnnl_s4 || p.dt == dnnl_s32;
        for (int64_t i = 0; i < n; ++i)
            ref.values.push_back(zp ? float(i % 5 - (sgn ? 2 : 0)) : 0.125f * (1 + i % 4));
        const int arg = (zp ? DNNL_ARG_ATTR_ZERO_POINTS : DNNL_ARG_ATTR_SCALES) | DNNL_ARG_WEIGHTS;
        if (p.host) {
            dnnl_memory_desc_t md;
            ASSERT_EQ(dnnl_memory_desc_create_host_scalar(&md, p.dt), dnnl_success);
            float v = ref.values[0];
            ASSERT_EQ(dnnl_memory_create_host_scalar(&host, md, &v), dnnl_success);
            dnnl_memory_desc_destroy(md);
            args.push_back({arg, host});
            return;
        }
        mem.reset(new tensor_t(engine, spec_t({n}, p.dt, dnnl_a)));
        for (int64_t i = 0; i < n; ++i)
            mem->set(&i, ref.values[i]);
        args.push_back({arg, mem->mem});
    }

    void check(const woq_case_t &c, const_dnnl_primitive_desc_t pd) {
        const int nd = static_cast<int>(c.dst.size());
        auto q = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST), 0xff);
        s.fill_random(11);
        { // weights over their type's whole range
            std::mt19937 gen(12);
            std::uniform_int_distribution<int> dist(
                    int(weight_lo(c.wdt)), int(weight_hi(c.wdt)));
            int64_t pos[DNNL_MAX_NDIMS] = {};
            if (w.lay.nelems() > 0) do
                    w.set(pos, float(dist(gen)));
                while (next_pos(pos, w.lay.dims, w.lay.ndims));
        }
        std::vector<dnnl_exec_arg_t> args
                = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::unique_ptr<tensor_t> b, sc, zp;
        if (c.bias) {
            b.reset(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            b->fill_random(13);
            args.push_back({DNNL_ARG_BIAS, b->mem});
        }
        wei_param_t sref, zref;
        dnnl_memory_t sc_host = nullptr, zp_host = nullptr;
        make_param(c, c.scale, false, sref, sc, sc_host, args);
        make_param(c, c.zp, true, zref, zp, zp_host, args);
        ASSERT_EQ(execute(pd, args), dnnl_success);
        if (sc_host) dnnl_memory_destroy(sc_host);
        if (zp_host) dnnl_memory_destroy(zp_host);

        const int64_t K = c.src[nd - 1];
        int64_t pos[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        if (d.lay.nelems() == 0) return;
        do {
            int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
            bcast_pos(s.lay, pos, sp);
            bcast_pos(w.lay, pos, wp);
            double acc = 0, mag = 0;
            for (int64_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                const double t = s.get(sp)
                        * matmul_ref::dequant(w.get(wp), sref, zref, wp, c.wei.data(), nd);
                acc += t;
                mag += std::fabs(t);
            }
            if (b) {
                int64_t bp[DNNL_MAX_NDIMS];
                bcast_pos(b->lay, pos, bp);
                acc += b->get(bp);
            }
            if (c.relu && acc < 0) acc = 0;
            const float want = round_to(c.ddt, float(acc));
            const float got = d.get(pos);
            const float tol = tolerance(c.ddt, want) + 1e-6f * float(mag);
            if (!(std::fabs(got - want) <= tol) && bad++ < 5)
                ADD_FAILURE() << "dst element " << pos[0] << "," << pos[1] << "," << pos[nd - 1]
                              << ": got " << got << " want " << want;
        } while (next_pos(pos, d.lay.dims, d.lay.ndims));
        EXPECT_EQ(bad, 0);
    }
};

param_spec_t grouped(int nd, int64_t gk, dnnl_data_type_t dt, int64_t gn = 1) {
    return {(1 << (nd - 2)) | (1 << (nd - 1)), {gk, gn}, dt};
}

TEST_F(matmul_woq, every_weight_type_with_k_grouped_scales_and_zero_points) {
    for (auto wdt : {dnnl_s4, dnnl_u4, dnnl_s8, dnnl_u8}) {
        SCOPED_TRACE(dnnl_dt2str(wdt));
        woq_case_t c;
        c.src = {3, 128}, c.wei = {128, 64}, c.dst = {3, 64};
        c.wdt = wdt;
        c.scale = grouped(2, 32, dnnl_f32);
        c.zp = grouped(2, 32, wdt);
        EXPECT_EQ(run(c), 2);
    }
}

TEST_F(matmul_woq, llm_decode_shape_and_k_beyond_a_block) {
    // M of 1 and 5 rows; K past one depth block (1024) with groups of 128; N with a tail.
    for (int64_t M : {1, 5}) {
        woq_case_t c;
        c.src = {M, 2176}, c.wei = {2176, 100}, c.dst = {M, 100};
        c.scale = grouped(2, 128, dnnl_f16);
        c.zp = grouped(2, 128, dnnl_u8);
        c.wdt = dnnl_u4;
        EXPECT_EQ(run(c), 2);
    }
}

TEST_F(matmul_woq, odd_sizes_put_nibbles_across_bytes) {
    // N odd: 4-bit rows start mid-byte; K of 1 and a group of 1.
    for (auto mnk : std::vector<dims_t> {{7, 37, 9}, {1, 1, 1}, {2, 33, 3}}) {
        woq_case_t c;
        const int64_t M = mnk[0], N = mnk[1], K = mnk[2];
        c.src = {M, K}, c.wei = {K, N}, c.dst = {M, N};
        c.scale = grouped(2, K == 9 ? 3 : 1, dnnl_bf16);
        c.zp = grouped(2, 1, dnnl_s4);
        EXPECT_EQ(run(c), 2);
    }
}

TEST_F(matmul_woq, transposed_and_any_weights) {
    for (auto tag : {dnnl_ba, dnnl_format_tag_any}) {
        woq_case_t c;
        c.src = {9, 64}, c.wei = {64, 40}, c.dst = {9, 40};
        c.wtag = tag;
        c.scale = grouped(2, 16, dnnl_f32);
        c.zp = grouped(2, 16, dnnl_s8);
        EXPECT_EQ(run(c), 2);
    }
}

TEST_F(matmul_woq, per_n_common_host_scalar_and_n_grouped_parameters) {
    woq_case_t c;
    c.src = {6, 48}, c.wei = {48, 40}, c.dst = {6, 40};
    c.wdt = dnnl_s8;
    c.scale = {1 << 1, {}, dnnl_f32}; // per N
    EXPECT_EQ(run(c), 2);
    c.scale = {0, {}, dnnl_f32}; // common, in memory
    c.zp = {0, {}, dnnl_s32};
    EXPECT_EQ(run(c), 2);
    c.scale = {0, {}, dnnl_f32, true}; // host scalar
    c.zp = grouped(2, 1, dnnl_s4, 4); // groups along N
    EXPECT_EQ(run(c), 2);
    c.scale = {1 << 0, {}, dnnl_f16}; // per K (only decompression can apply it)
    c.zp = {};
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_woq, low_precision_src_dst_batches_bias_and_post_ops) {
    for (auto dt : {dnnl_bf16, dnnl_f16}) {
        woq_case_t c;
        c.src = {2, 5, 64}, c.wei = {1, 64, 48}, c.dst = {2, 5, 48}; // weights broadcast
        c.sdt = c.ddt = dt;
        c.fpmath = dt == dnnl_bf16 ? dnnl_fpmath_mode_bf16 : dnnl_fpmath_mode_f16;
        c.scale = grouped(3, 32, dt);
        c.zp = grouped(3, 32, dnnl_u4);
        c.bias = c.relu = true;
        EXPECT_EQ(run(c), 2);
    }
    woq_case_t c; // batched weights, scales varying along the batch too
    c.src = {3, 4, 32}, c.wei = {3, 32, 24}, c.dst = {3, 4, 24};
    c.scale = {7, {8, 1}, dnnl_f32};
    c.zp = {7, {8, 1}, dnnl_s4};
    EXPECT_EQ(run(c), 2);
}

// Not decompression: int8 src with 4-bit weights, integer products (the reference matmul).
TEST_F(matmul_woq, int8_src_with_4bit_weights) {
    for (auto wdt : {dnnl_s4, dnnl_u4}) {
        woq_case_t c;
        c.src = {5, 70}, c.wei = {70, 33}, c.dst = {5, 33};
        c.sdt = dnnl_u8, c.wdt = wdt;
        c.scale = {1 << 1, {}, dnnl_f32};
        c.zp = {0, {}, dnnl_s32};
        c.apply_to_int = 0;
        EXPECT_GE(run(c), 1);
    }
}

TEST_F(matmul_woq, zero_size_is_a_no_op) {
    woq_case_t c;
    c.src = {0, 64}, c.wei = {64, 32}, c.dst = {0, 32};
    c.scale = grouped(2, 32, dnnl_f32);
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_woq, refused_as_onednn_refuses) {
    dnnl_primitive_desc_t pd = nullptr;
    woq_case_t c;
    c.src = {4, 64}, c.wei = {64, 32}, c.dst = {4, 32};
    c.scale = grouped(2, 32, dnnl_f32);
    c.apply_to_int = 0; // integer weights need apply_to_int
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.apply_to_int = 1;
    c.scale = grouped(2, 24, dnnl_f32); // 24 does not divide K
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.scale = {1 << 1, {32, 1}, dnnl_f32}; // groups without the K bit
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.scale = grouped(2, 32, dnnl_s8); // scales are floating point
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.scale = grouped(2, 32, dnnl_f32);
    c.zp = grouped(2, 32, dnnl_f32); // zero points are integers
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.zp = grouped(2, 32, dnnl_s8, 4); // zero points grouped along both K and N
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    // Zero points on src are not part of weights decompression.
    dnnl_memory_desc_t s = make_md(spec_t({4, 64}, dnnl_f32, dnnl_format_tag_undef));
    dnnl_memory_desc_t w = make_md(spec_t({64, 32}, dnnl_s8, dnnl_format_tag_undef));
    dnnl_memory_desc_t d = make_md(spec_t({4, 32}, dnnl_f32, dnnl_format_tag_undef));
    dnnl_primitive_attr_t attr;
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_fpmath_mode_v2(attr, dnnl_fpmath_mode_strict, 1);
    dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, s, w, nullptr, d, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    for (auto m : {s, w, d})
        dnnl_memory_desc_destroy(m);
}

} // namespace
