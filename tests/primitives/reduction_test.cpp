// Reduction through the C API: the nine algorithms, any set of reduced dims, every
// implementation (dnnl_primitive_desc_next_impl), against the double-precision reference of
// reduction_ref.hpp: plain, channels-last and blocked layouts, data types, p and eps, post-ops,
// long reductions that the fast path splits over threads, zero-size and bad input.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "c_tensor.hpp"
#include "reduction_ref.hpp"

namespace {

using namespace c_tensor;

const dnnl_alg_kind_t all_algs[] = {dnnl_reduction_max, dnnl_reduction_min, dnnl_reduction_sum,
        dnnl_reduction_mul, dnnl_reduction_mean, dnnl_reduction_norm_lp_max,
        dnnl_reduction_norm_lp_sum, dnnl_reduction_norm_lp_power_p_max,
        dnnl_reduction_norm_lp_power_p_sum};

using reduction_ref::reduce;
using reduction_ref::ref_t;

struct reduction : public engine_fixture {
    dnnl_primitive_desc_t make_pd(dnnl_alg_kind_t alg, const spec_t &s, const spec_t &d,
            float p, float eps, const_dnnl_primitive_attr_t attr = nullptr) {
        dnnl_memory_desc_t smd = make_md(s), dmd = make_md(d);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, alg, smd, dmd, p, eps, attr),
                dnnl_success);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
        return pd;
    }

    // Every implementation against the reference; returns the implementation names seen.
    std::string check(dnnl_alg_kind_t alg, const dims_t &sd, const dims_t &dd,
            dnnl_format_tag_t stag, dnnl_format_tag_t dtag, dnnl_data_type_t sdt,
            dnnl_data_type_t ddt, float p = 2.f, float eps = 0.f, bool post_ops = false) {
        const int nd = static_cast<int>(sd.size());
        dnnl_primitive_attr_t attr = nullptr;
        dnnl_post_ops_t po = nullptr;
        if (post_ops) {
            dnnl_primitive_attr_create(&attr);
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_linear, 0.5f, -1.f);
            dnnl_post_ops_append_sum(po, 1.f, 0, dnnl_data_type_undef);
            dnnl_primitive_attr_set_post_ops(attr, po);
        }
        dnnl_primitive_desc_t pd
                = make_pd(alg, spec_t(sd, sdt, stag), spec_t(dd, ddt, dtag), p, eps, attr);
        std::string names;
        if (!pd) return names;
        tensor_t src(engine, spec_t(sd, sdt, stag));
        src.fill_random(5, alg == dnnl_reduction_mul);
        if (alg == dnnl_reduction_mul && sdt != dnnl_s8 && sdt != dnnl_u8 && sdt != dnnl_s32) {
            // Keep products in range: values near one.
            int64_t pos[DNNL_MAX_NDIMS] = {};
            int64_t k = 0;
            if (src.lay.nelems()) do {
                    src.set(pos, (k % 5 == 0 ? -1.f : 1.f) * (1.f + 0.125f * ((k + 1) % 3)));
                    ++k;
                } while (next_pos(pos, src.lay.dims, nd));
        }
        // Reference per dst element.
        int64_t n_dst = 1;
        for (auto v : dd) n_dst *= v;
        std::vector<ref_t> exp;
        int64_t pos[DNNL_MAX_NDIMS] = {};
        if (n_dst) do {
                std::vector<double> x;
                int64_t sp[DNNL_MAX_NDIMS] = {}, rd[DNNL_MAX_NDIMS];
                for (int k = 0; k < nd; ++k)
                    rd[k] = dd[k] == sd[k] ? 1 : sd[k];
                bool any = true;
                for (int k = 0; k < nd; ++k) any = any && rd[k] > 0;
                int64_t r[DNNL_MAX_NDIMS] = {};
                if (any) do {
                        for (int k = 0; k < nd; ++k)
                            sp[k] = dd[k] == sd[k] ? pos[k] : r[k];
                        x.push_back(src.get(sp));
                    } while (next_pos(r, rd, nd));
                exp.push_back(reduce(alg, x, p, eps));
            } while (next_pos(pos, dd.data(), nd));
        do {
            const std::string name = impl_name(pd);
            names += name + ";";
            tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
            dst.fill_random(3);
            std::vector<double> prev;
            int64_t q[DNNL_MAX_NDIMS] = {};
            if (n_dst) do prev.push_back(dst.get(q)); while (next_pos(q, dd.data(), nd));
            EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}}),
                    dnnl_success)
                    << name;
            int64_t i = 0, bad = 0;
            std::fill(q, q + DNNL_MAX_NDIMS, 0);
            if (n_dst) do {
                    double e = exp[i].value, mag = exp[i].magnitude;
                    if (post_ops) e = 0.5 * e - 1 + prev[i], mag = 0.5 * mag + 1 + std::fabs(prev[i]);
                    const float ef = round_to(ddt, static_cast<float>(e));
                    const bool int_dst = ddt == dnnl_s8 || ddt == dnnl_u8 || ddt == dnnl_s32;
                    const double tol = int_dst ? 1.0
                                               : tolerance(ddt, ef) + 2e-5 * mag
                                    + ((p != 1.f && p != 2.f) ? 1e-4 * mag : 0.0);
                    const float got = dst.get(q);
                    const bool ok = std::isinf(ef) ? got == ef : std::fabs(got - ef) <= tol;
                    if (!ok && bad++ < 3)
                        ADD_FAILURE() << name << " alg " << dnnl_alg_kind2str(alg) << " at "
                                      << i << ": expected " << ef << " got " << got;
                    ++i;
                } while (next_pos(q, dd.data(), nd));
            EXPECT_EQ(bad, 0) << name << " " << dnnl_alg_kind2str(alg);
            EXPECT_TRUE(dst.padding_is_zero()) << name;
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        if (po) dnnl_post_ops_destroy(po);
        if (attr) dnnl_primitive_attr_destroy(attr);
        return names;
    }
};

TEST_F(reduction, every_alg_inner_outer_and_middle_dims_f32) {
    struct shape_t {
        dims_t s, d;
    };
    const std::vector<shape_t> shapes = {{{3, 5, 7}, {3, 1, 7}}, {{3, 5, 7}, {3, 5, 1}},
            {{3, 5, 7}, {1, 5, 7}}, {{3, 5, 7}, {1, 1, 1}}, {{3, 5, 7}, {1, 5, 1}},
            {{37}, {1}}, {{4, 1, 19}, {4, 1, 1}}, {{2, 3, 4, 5}, {2, 1, 1, 5}}};
    for (auto alg : all_algs)
        for (const auto &sh : shapes) {
            const auto tag = sh.s.size() == 1 ? dnnl_a : sh.s.size() == 3 ? dnnl_abc : dnnl_abcd;
            const std::string names
                    = check(alg, sh.s, sh.d, tag, dnnl_format_tag_any, dnnl_f32, dnnl_f32);
            EXPECT_NE(names.find("cpu:reduction:ref"), std::string::npos);
        }
}

TEST_F(reduction, fast_path_is_taken_for_inner_and_outer_groups) {
    const std::string inner = check(dnnl_reduction_sum, {64, 300}, {64, 1}, dnnl_ab,
            dnnl_format_tag_any, dnnl_f32, dnnl_f32);
    EXPECT_EQ(inner.find("cpu:reduction:simple"), 0u) << inner;
    const std::string outer = check(dnnl_reduction_max, {300, 70}, {1, 70}, dnnl_ab,
            dnnl_format_tag_any, dnnl_f32, dnnl_f32);
    EXPECT_EQ(outer.find("cpu:reduction:simple"), 0u) << outer;
}

TEST_F(reduction, p_and_eps) {
    for (float p : {1.f, 2.f, 3.f, 1.5f})
        for (float eps : {0.f, 0.5f, 100.f})
            for (auto alg : {dnnl_reduction_norm_lp_max, dnnl_reduction_norm_lp_sum,
                         dnnl_reduction_norm_lp_power_p_max, dnnl_reduction_norm_lp_power_p_sum})
                check(alg, {4, 33}, {4, 1}, dnnl_ab, dnnl_ab, dnnl_f32, dnnl_f32, p, eps);
}

TEST_F(reduction, layouts_channels_last_and_blocked) {
    for (auto alg : {dnnl_reduction_sum, dnnl_reduction_max, dnnl_reduction_mean,
                 dnnl_reduction_norm_lp_sum}) {
        check(alg, {2, 19, 3, 5}, {2, 19, 1, 1}, dnnl_acdb, dnnl_acdb, dnnl_f32, dnnl_f32);
        check(alg, {2, 19, 3, 5}, {2, 1, 3, 5}, dnnl_acdb, dnnl_format_tag_any, dnnl_f32,
                dnnl_f32);
        check(alg, {2, 19, 3, 5}, {2, 19, 1, 1}, dnnl_aBcd16b, dnnl_aBcd16b, dnnl_f32,
                dnnl_f32);
        check(alg, {2, 19, 3, 5}, {1, 19, 3, 1}, dnnl_aBcd16b, dnnl_abcd, dnnl_f32, dnnl_f32);
        check(alg, {2, 19, 3, 5}, {2, 1, 3, 5}, dnnl_aBcd8b, dnnl_abcd, dnnl_f32, dnnl_f32);
        check(alg, {5, 6}, {1, 6}, dnnl_ba, dnnl_ba, dnnl_f32, dnnl_f32);
        check(alg, {5, 6}, {5, 1}, dnnl_ba, dnnl_ab, dnnl_f32, dnnl_f32);
    }
}

TEST_F(reduction, data_types) {
    const dnnl_data_type_t types[] = {dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32, dnnl_f32};
    for (auto alg : all_algs)
        for (auto s : types)
            for (auto d : {dnnl_f32, s}) {
                if ((s == dnnl_s8 || s == dnnl_u8 || s == dnnl_s32)
                        && alg == dnnl_reduction_mul)
                    continue; // products of integers overflow any small type
                check(alg, {3, 21}, {3, 1}, dnnl_ab, dnnl_ab, s, d);
                check(alg, {21, 3}, {1, 3}, dnnl_ab, dnnl_ab, s, d);
            }
    check(dnnl_reduction_sum, {4, 100}, {4, 1}, dnnl_ab, dnnl_ab, dnnl_s8, dnnl_s32);
    check(dnnl_reduction_mean, {4, 100}, {4, 1}, dnnl_ab, dnnl_ab, dnnl_u8, dnnl_u8);
}

TEST_F(reduction, post_ops) {
    for (auto alg : {dnnl_reduction_sum, dnnl_reduction_max, dnnl_reduction_norm_lp_max}) {
        check(alg, {6, 40}, {6, 1}, dnnl_ab, dnnl_ab, dnnl_f32, dnnl_f32, 2.f, 0.f, true);
        check(alg, {40, 6}, {1, 6}, dnnl_ab, dnnl_ab, dnnl_bf16, dnnl_bf16, 2.f, 0.f, true);
        check(alg, {2, 19, 3}, {2, 1, 3}, dnnl_aBc16b, dnnl_abc, dnnl_f32, dnnl_f32, 2.f, 0.f,
                true);
    }
}

TEST_F(reduction, long_reductions_split_over_threads) {
    for (auto alg : {dnnl_reduction_sum, dnnl_reduction_min, dnnl_reduction_norm_lp_sum}) {
        check(alg, {1, 70001}, {1, 1}, dnnl_ab, dnnl_ab, dnnl_f32, dnnl_f32);
        check(alg, {20001, 5}, {1, 5}, dnnl_ab, dnnl_ab, dnnl_bf16, dnnl_f32);
        check(alg, {2, 3001, 300}, {2, 1, 300}, dnnl_abc, dnnl_abc, dnnl_f32, dnnl_f32);
    }
}

TEST_F(reduction, zero_size_is_a_no_op) {
    check(dnnl_reduction_sum, {0, 5}, {0, 1}, dnnl_ab, dnnl_ab, dnnl_f32, dnnl_f32);
    check(dnnl_reduction_max, {3, 0}, {3, 0}, dnnl_ab, dnnl_ab, dnnl_f32, dnnl_f32);
}

TEST_F(reduction, bad_arguments) {
    dnnl_memory_desc_t s = make_md(spec_t({3, 5}, dnnl_f32, dnnl_ab));
    dnnl_memory_desc_t d = make_md(spec_t({3, 1}, dnnl_f32, dnnl_ab));
    dnnl_memory_desc_t d2 = make_md(spec_t({3, 2}, dnnl_f32, dnnl_ab));
    dnnl_memory_desc_t d3 = make_md(spec_t({3, 1, 1}, dnnl_f32, dnnl_abc));
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_sum, s, d, 0, 0,
                      nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_eltwise_relu, s, d, 0, 0,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_sum, s, d2, 0, 0,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_sum, s, d3, 0, 0,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_norm_lp_sum, s,
                      d, 0.5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_norm_lp_sum, s,
                      d, INFINITY, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(&pd, engine, dnnl_reduction_sum, nullptr, d,
                      0, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reduction_primitive_desc_create(nullptr, engine, dnnl_reduction_sum, s, d, 0,
                      0, nullptr),
            dnnl_invalid_arguments);
    for (auto m : {s, d, d2, d3})
        dnnl_memory_desc_destroy(m);
}

} // namespace
