// Matmul int8 source zero points that vary (oneDNN's masks: along K, or along M and K grouped
// along K; bits of size-1 dimensions ignored) on the CPU engine, every implementation that
// takes them, against a double reference; and the masks oneDNN refuses.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace {

using namespace c_tensor;

struct zp_case_t {
    dims_t src, wei, dst;
    int mask;
    int64_t gk = 0; // 0: no groups
};

class matmul_src_zp : public engine_fixture {
protected:
    dnnl_status_t create(const zp_case_t &c, dnnl_primitive_desc_t *pd) {
        dnnl_memory_desc_t s = make_md(spec_t(c.src, dnnl_u8, dnnl_format_tag_undef));
        dnnl_memory_desc_t w = make_md(spec_t(c.wei, dnnl_s8, dnnl_format_tag_undef));
        dnnl_memory_desc_t d = make_md(spec_t(c.dst, dnnl_f32, dnnl_format_tag_undef));
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        const dnnl_dims_t g = {1, c.gk};
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points(
                          attr, DNNL_ARG_SRC, c.mask, c.gk ? 2 : 0, g, dnnl_s32),
                dnnl_success);
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, engine, s, w, nullptr, d, attr);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {s, w, d})
            dnnl_memory_desc_destroy(m);
        return st;
    }

    int run(const zp_case_t &c) {
        return on_every_impl([&](dnnl_primitive_desc_t *pd) { return create(c, pd); },
                [&](const_dnnl_primitive_desc_t pd) { check(c, pd); });
    }

    void check(const zp_case_t &c, const_dnnl_primitive_desc_t pd) {
        const int nd = static_cast<int>(c.dst.size());
        auto q = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)), d(engine, q(DNNL_ARG_DST));
        s.fill_random(3);
        w.fill_random(4);
        // One value per (M, K group) or per K, in row-major order of the varying dims.
        const int64_t M = c.src[nd - 2], K = c.src[nd - 1];
        const bool along_m = (c.mask >> (nd - 2) & 1) && M > 1;
        const int64_t kg = c.gk ? c.gk : 1, count = (along_m ? M : 1) * (K / kg);
        tensor_t z(engine, spec_t({count}, dnnl_s32, dnnl_a));
        for (int64_t i = 0; i < count; ++i)
            z.set(&i, float(i % 7 - 3));
        ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem},
                                      {DNNL_ARG_DST, d.mem},
                                      {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, z.mem}}),
                dnnl_success);
        int64_t pos[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        do {
            int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
            bcast_pos(s.lay, pos, sp);
            bcast_pos(w.lay, pos, wp);
            double acc = 0;
            for (int64_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                const int64_t zi = (along_m ? pos[nd - 2] * (K / kg) : 0) + k / kg;
                const int64_t zpos[1] = {zi};
                acc += (s.get(sp) - z.get(zpos)) * w.get(wp);
            }
            const float got = d.get(pos);
            if (std::fabs(got - acc) > 1e-5 * std::max(1.0, std::fabs(acc)) && bad++ < 5)
                ADD_FAILURE() << "dst " << pos[nd - 2] << "," << pos[nd - 1] << ": got " << got
                              << " want " << acc;
        } while (next_pos(pos, d.lay.dims, d.lay.ndims));
        EXPECT_EQ(bad, 0);
    }
};

TEST_F(matmul_src_zp, along_k_and_along_m_and_k_grouped) {
    EXPECT_GE(run({{7, 40}, {40, 9}, {7, 9}, 1 << 1}), 1);
    EXPECT_GE(run({{7, 40}, {40, 9}, {7, 9}, 3, 8}), 1);
    EXPECT_GE(run({{1, 7, 40}, {2, 40, 9}, {2, 7, 9}, 7, 10}), 1); // batch bit of a size-1 dim
    EXPECT_GE(run({{1, 33}, {33, 5}, {1, 5}, 3}), 1); // M of 1: its bit ignored
}

TEST_F(matmul_src_zp, masks_onednn_refuses) {
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(create({{7, 40}, {40, 9}, {7, 9}, 1 << 0}, &pd), dnnl_unimplemented); // along M
    EXPECT_EQ(create({{7, 40}, {40, 9}, {7, 9}, 3, 7}, &pd), dnnl_unimplemented); // 7 does not divide 40
    EXPECT_EQ(pd, nullptr);
}

} // namespace
