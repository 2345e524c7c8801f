// Matmul on 4-bit floats (f4_e2m1, f4_e3m0) on the CPU engine, every implementation that
// takes it, against matmul_dq_ref.hpp: f4 src and/or weights with f4, bf16, f16 or f32 on the
// other side, dst f32, bf16 or f4; odd K and N putting elements across bytes, transposed
// weights, M of 1, zero-size, batches with broadcast, bias and scales; what is refused.
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "matmul_dq_ref.hpp"

namespace {

using namespace c_tensor;

struct f4_case_t {
    dims_t src, wei, dst;
    dnnl_data_type_t sdt = dnnl_f4_e2m1, wdt = dnnl_f4_e2m1, ddt = dnnl_f32;
    dnnl_format_tag_t wtag = dnnl_format_tag_undef; // undef: row-major
    bool bias = false;
    int wei_scale_mask = -1; // -1: none; 0 or per N
    float src_scale = 0.f; // common, 0: none
};

// Every code of a 4-bit float at random; other types through fill_random.
void fill(tensor_t &t, uint32_t seed) {
    if (!reorder_f4_ref::is_f4(t.lay.dt)) return t.fill_random(seed);
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(0, 15);
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (t.lay.nelems() > 0) do
            reorder_f4_ref::set_nibble(t, pos, unsigned(dist(gen)));
        while (next_pos(pos, t.lay.dims, t.lay.ndims));
}

class matmul_f4 : public engine_fixture {
protected:
    dnnl_status_t create(const f4_case_t &c, dnnl_primitive_desc_t *pd,
            dnnl_primitive_attr_t extra = nullptr) {
        dnnl_memory_desc_t s = make_md(spec_t(c.src, c.sdt, dnnl_format_tag_undef));
        dnnl_memory_desc_t w = make_md(spec_t(c.wei, c.wdt, c.wtag));
        dnnl_memory_desc_t d = make_md(spec_t(c.dst, c.ddt, dnnl_format_tag_undef));
        dims_t bd(c.dst.size(), 1);
        bd.back() = c.dst.back();
        dnnl_memory_desc_t b
                = c.bias ? make_md(spec_t(bd, dnnl_f32, dnnl_format_tag_undef)) : nullptr;
        dnnl_primitive_attr_t attr = extra;
        if (!attr) dnnl_primitive_attr_create(&attr);
        if (c.wei_scale_mask >= 0)
            dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, c.wei_scale_mask);
        if (c.src_scale != 0.f) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, engine, s, w, b, d, attr);
        if (!extra) dnnl_primitive_attr_destroy(attr);
        for (auto m : {s, w, d, b})
            if (m) dnnl_memory_desc_destroy(m);
        return st;
    }

    int run(const f4_case_t &c) {
        return on_every_impl([&](dnnl_primitive_desc_t *pd) { return create(c, pd); },
                [&](const_dnnl_primitive_desc_t pd) { check(c, pd); });
    }

    void check(const f4_case_t &c, const_dnnl_primitive_desc_t pd) {
        SCOPED_TRACE(::testing::Message() << dnnl_dt2str(c.sdt) << " x " << dnnl_dt2str(c.wdt)
                                          << " -> " << dnnl_dt2str(c.ddt));
        auto q = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST), 0x77);
        fill(s, 31);
        fill(w, 32);
        std::vector<dnnl_exec_arg_t> args
                = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::unique_ptr<tensor_t> b, ws, ss;
        if (c.bias) {
            b.reset(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            b->fill_random(33);
            args.push_back({DNNL_ARG_BIAS, b->mem});
        }
        matmul_dq_ref::quant_t ref;
        if (c.wei_scale_mask >= 0) {
            const int64_t n = c.wei_scale_mask == 0 ? 1 : c.dst.back();
            ws.reset(new tensor_t(engine, spec_t({n}, dnnl_f32, dnnl_a)));
            ref.wei_scale.present = true;
            ref.wei_scale.mask = c.wei_scale_mask;
            for (int64_t i = 0; i < n; ++i) {
                ref.wei_scale.values.push_back(0.25f * float(1 + i % 3));
                ws->set(&i, ref.wei_scale.values.back());
            }
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws->mem});
        }
        if (c.src_scale != 0.f) {
            ss.reset(new tensor_t(engine, spec_t({1}, dnnl_f32, dnnl_a)));
            const int64_t z = 0;
            ss->set(&z, c.src_scale);
            ref.src_scale.present = true;
            ref.src_scale.values = {c.src_scale};
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss->mem});
        }
        ASSERT_EQ(execute(pd, args), dnnl_success);

        int64_t pos[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        if (d.lay.nelems() == 0) return;
        do {
            double acc, mag;
            matmul_dq_ref::dot(s, w, ref, pos, acc, mag);
            if (b) {
                int64_t bp[DNNL_MAX_NDIMS];
                bcast_pos(b->lay, pos, bp);
                acc += b->get(bp);
                mag += std::fabs(b->get(bp));
            }
            const float got = float(matmul_dq_ref::read(d, pos));
            if (!matmul_dq_ref::close(c.ddt, acc, got, mag, 2e-6) && bad++ < 5)
                ADD_FAILURE() << "dst element " << pos[0] << "," << pos[1] << ","
                              << pos[c.dst.size() - 1] << ": got " << got << " want " << acc;
        } while (next_pos(pos, d.lay.dims, d.lay.ndims));
        EXPECT_EQ(bad, 0);
    }
};

f4_case_t make(int64_t M, int64_t K, int64_t N, dnnl_data_type_t sdt, dnnl_data_type_t wdt,
        dnnl_data_type_t ddt) {
    f4_case_t c;
    c.src = {M, K}, c.wei = {K, N}, c.dst = {M, N};
    c.sdt = sdt, c.wdt = wdt, c.ddt = ddt;
    return c;
}

TEST_F(matmul_f4, both_f4_types_into_every_dst) {
    // oneDNN's fp4 batch: f4_e2m1 x f4_e2m1 into f4_e2m1, f32, bf16; f4_e3m0 weights.
    for (auto wdt : {dnnl_f4_e2m1, dnnl_f4_e3m0})
        for (auto ddt : {dnnl_f32, dnnl_bf16, dnnl_f4_e2m1}) {
            f4_case_t c = make(25, 32, 16, dnnl_f4_e2m1, wdt, ddt);
            c.bias = true;
            EXPECT_EQ(run(c), 1);
        }
}

TEST_F(matmul_f4, odd_sizes_put_elements_across_bytes) {
    // K and N odd: rows of src, weights and dst start mid-byte; M and K of 1.
    for (auto mkn : std::vector<dims_t> {{7, 9, 5}, {1, 1, 1}, {1, 13, 3}, {3, 1, 7}})
        for (auto wtag : {dnnl_ab, dnnl_ba}) {
            f4_case_t c = make(mkn[0], mkn[1], mkn[2], dnnl_f4_e2m1, dnnl_f4_e3m0,
                    dnnl_f4_e2m1);
            c.wtag = wtag;
            EXPECT_EQ(run(c), 1);
        }
}

TEST_F(matmul_f4, f4_with_wider_types_scales_and_batches) {
    for (auto other : {dnnl_bf16, dnnl_f16, dnnl_f32}) {
        f4_case_t a = make(5, 24, 9, other, dnnl_f4_e2m1, dnnl_f32); // f4 weights
        a.wei_scale_mask = 1 << 1;
        a.src_scale = 0.5f;
        EXPECT_EQ(run(a), 1);
        f4_case_t b = make(4, 11, 6, dnnl_f4_e3m0, other, dnnl_bf16); // f4 src
        b.wei_scale_mask = 0;
        EXPECT_EQ(run(b), 1);
    }
    f4_case_t c; // weights broadcast over the batch
    c.src = {3, 5, 12}, c.wei = {1, 12, 7}, c.dst = {3, 5, 7};
    c.bias = true;
    EXPECT_EQ(run(c), 1);
}

TEST_F(matmul_f4, zero_size_is_a_no_op) {
    EXPECT_EQ(run(make(0, 8, 6, dnnl_f4_e2m1, dnnl_f4_e2m1, dnnl_f4_e2m1)), 1);
    EXPECT_EQ(run(make(4, 8, 0, dnnl_f4_e2m1, dnnl_f4_e2m1, dnnl_f32)), 1);
}

TEST_F(matmul_f4, refused_combinations) {
    dnnl_primitive_desc_t pd = nullptr;
    // Integer on the other side, s32 dst, zero points: not a floating-point product.
    EXPECT_EQ(create(make(4, 8, 6, dnnl_f4_e2m1, dnnl_s8, dnnl_f32), &pd), dnnl_unimplemented);
    EXPECT_EQ(create(make(4, 8, 6, dnnl_u8, dnnl_f4_e2m1, dnnl_f32), &pd), dnnl_unimplemented);
    EXPECT_EQ(create(make(4, 8, 6, dnnl_f4_e2m1, dnnl_f4_e2m1, dnnl_s32), &pd),
            dnnl_unimplemented);
    dnnl_primitive_attr_t attr;
    dnnl_primitive_attr_create(&attr);
    dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_WEIGHTS, 0);
    EXPECT_EQ(create(make(4, 8, 6, dnnl_f4_e2m1, dnnl_f4_e2m1, dnnl_f32), &pd, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    EXPECT_EQ(pd, nullptr);
}

} // namespace
