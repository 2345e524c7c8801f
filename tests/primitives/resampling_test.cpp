// Resampling forward and backward through the C API, nearest and linear, 1D/2D/3D, every
// implementation (dnnl_primitive_desc_next_impl), against a reference (taps from
// resampling_ref.hpp; forward gathers, backward scatters each dst gradient into the src positions that produced it):
// up- and downsampling, odd shapes, plain / channels-last / blocked layouts with channel
// tails, data types, post-ops, factors vs dims, the factors query, zero-size and bad input.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "c_tensor.hpp"
#include "resampling_ref.hpp"

namespace {

using namespace c_tensor;

using resampling_ref::make_taps;
using resampling_ref::taps_t;

struct problem_t {
    dims_t src, dst;
};

dnnl_format_tag_t tag_for(const std::string &kind, int ndims) {
    static const dnnl_format_tag_t ncx[] = {dnnl_abc, dnnl_abcd, dnnl_abcde};
    static const dnnl_format_tag_t nxc[] = {dnnl_acb, dnnl_acdb, dnnl_acdeb};
    static const dnnl_format_tag_t b16[] = {dnnl_aBc16b, dnnl_aBcd16b, dnnl_aBcde16b};
    static const dnnl_format_tag_t b8[] = {dnnl_aBc8b, dnnl_aBcd8b, dnnl_aBcde8b};
    const int k = ndims - 3;
    if (kind == "ncx") return ncx[k];
    if (kind == "nxc") return nxc[k];
    if (kind == "16c") return b16[k];
    return b8[k];
}

// Reference: out[pos] = sum over taps of w * in[...]; `backward` scatters instead.
void reference(bool linear, const dims_t &sdims, const dims_t &ddims,
        const std::function<double(const int64_t *)> &src_at, std::vector<double> &out,
        bool backward, const std::function<double(const int64_t *)> &dd_at) {
    const int nd = static_cast<int>(sdims.size());
    std::vector<taps_t> taps;
    for (int k = 2; k < nd; ++k)
        taps.push_back(make_taps(linear, sdims[k], ddims[k]));
    int64_t n_src = 1, n_dst = 1;
    for (int k = 0; k < nd; ++k)
        n_src *= sdims[k], n_dst *= ddims[k];
    out.assign(backward ? n_src : n_dst, 0.0);
    if (n_dst == 0 || n_src == 0) return;
    int64_t pos[5] = {}, spos[5];
    auto src_index = [&](const int64_t *p) {
        int64_t i = 0;
        for (int k = 0; k < nd; ++k)
            i = i * sdims[k] + p[k];
        return i;
    };
    int64_t di = 0;
    do {
        // enumerate tap combinations
        const int nsp = nd - 2;
        std::vector<size_t> idx(nsp, 0);
        const double g = backward ? dd_at(pos) : 0.0;
        double acc = 0;
        while (true) {
            double w = 1;
            spos[0] = pos[0];
            spos[1] = pos[1];
            for (int k = 0; k < nsp; ++k) {
                const auto &e = taps[k].at[pos[2 + k]][idx[k]];
                spos[2 + k] = e.first;
                w *= e.second;
            }
            if (backward) out[src_index(spos)] += w * g;
            else acc += w * src_at(spos);
            int k = nsp - 1;
            for (; k >= 0; --k) {
                if (++idx[k] < taps[k].at[pos[2 + k]].size()) break;
                idx[k] = 0;
            }
            if (k < 0) break;
        }
        if (!backward) out[di] = acc;
        ++di;
    } while (next_pos(pos, ddims.data(), nd));
}

struct resampling : public engine_fixture {
    dnnl_primitive_desc_t fwd_pd(dnnl_alg_kind_t alg, const spec_t &s, const spec_t &d,
            const float *factors = nullptr, const_dnnl_primitive_attr_t attr = nullptr,
            dnnl_status_t expect = dnnl_success) {
        dnnl_memory_desc_t smd = make_md(s), dmd = make_md(d);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, engine,
                          dnnl_forward_training, alg, factors, smd, dmd, attr),
                expect);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
        return pd;
    }

    // Runs every implementation of forward and checks against the reference.
    void check_fwd(dnnl_alg_kind_t alg, const problem_t &p, const char *layout,
            dnnl_data_type_t sdt, dnnl_data_type_t ddt, bool with_post_ops = false) {
        const int nd = static_cast<int>(p.src.size());
        const auto tag = tag_for(layout, nd);
        dnnl_primitive_attr_t attr = nullptr;
        dnnl_post_ops_t po = nullptr;
        dims_t bdims(nd, 1);
        bdims[1] = p.src[1];
        dnnl_memory_desc_t bmd = make_md(spec_t(bdims, dnnl_f32, tag_for("ncx", nd)));
        if (with_post_ops) {
            ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
            ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
            ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, bmd), dnnl_success);
            ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_linear, 2.f, 1.f),
                    dnnl_success);
            ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        }
        dnnl_primitive_desc_t pd
                = fwd_pd(alg, spec_t(p.src, sdt, tag), spec_t(p.dst, ddt, tag), nullptr, attr);
        ASSERT_NE(pd, nullptr);
        tensor_t src(engine, spec_t(p.src, sdt, tag));
        src.fill_random(7);
        tensor_t bias(engine, bmd);
        bias.fill_random(9);
        std::vector<double> exp;
        reference(alg == dnnl_resampling_linear, p.src, p.dst,
                [&](const int64_t *pos) { return src.get(pos); }, exp, false, nullptr);
        int impls = 0;
        do {
            const std::string name = impl_name(pd);
            tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x5a);
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
            if (with_post_ops)
                args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, bias.mem});
            ASSERT_EQ(execute(pd, args), dnnl_success) << name;
            int64_t pos[5] = {};
            int64_t i = 0, bad = 0;
            if (!exp.empty()) do {
                    double e = exp[i++];
                    if (with_post_ops) {
                        int64_t bpos[5] = {0, pos[1], 0, 0, 0};
                        e = 2 * (e + bias.get(bpos)) + 1;
                    }
                    const float ef = round_to(ddt, static_cast<float>(e));
                    const float tol = (ddt == dnnl_s8 || ddt == dnnl_u8) ? 1.f
                            : tolerance(ddt, ef) + 1e-5f * std::fabs(ef);
                    if (!(std::fabs(dst.get(pos) - ef) <= tol) && bad++ < 3)
                        ADD_FAILURE() << name << " " << layout << " at " << i - 1 << ": expected "
                                      << ef << " got " << dst.get(pos);
                } while (next_pos(pos, p.dst.data(), nd));
            EXPECT_EQ(bad, 0) << name;
            EXPECT_TRUE(dst.padding_is_zero()) << name;
            ++impls;
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        EXPECT_GE(impls, 1);
        dnnl_primitive_desc_destroy(pd);
        dnnl_memory_desc_destroy(bmd);
        if (po) dnnl_post_ops_destroy(po);
        if (attr) dnnl_primitive_attr_destroy(attr);
    }

    void check_bwd(dnnl_alg_kind_t alg, const problem_t &p, const char *layout,
            dnnl_data_type_t dt) {
        const int nd = static_cast<int>(p.src.size());
        const auto tag = tag_for(layout, nd);
        dnnl_primitive_desc_t hint = fwd_pd(alg, spec_t(p.src, dt, tag), spec_t(p.dst, dt, tag));
        dnnl_memory_desc_t smd = make_md(spec_t(p.src, dt, tag)),
                           dmd = make_md(spec_t(p.dst, dt, tag));
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_resampling_backward_primitive_desc_create(
                          &pd, engine, alg, nullptr, smd, dmd, hint, nullptr),
                dnnl_success);
        tensor_t dd(engine, dmd);
        dd.fill_random(11);
        std::vector<double> exp;
        reference(alg == dnnl_resampling_linear, p.src, p.dst, nullptr, exp, true,
                [&](const int64_t *pos) { return dd.get(pos); });
        do {
            const std::string name = impl_name(pd);
            tensor_t ds(engine, smd, 0x5a);
            ASSERT_EQ(execute(pd, {{DNNL_ARG_DIFF_DST, dd.mem}, {DNNL_ARG_DIFF_SRC, ds.mem}}),
                    dnnl_success);
            int64_t pos[5] = {};
            int64_t i = 0, bad = 0;
            if (!exp.empty()) do {
                    const float ef = static_cast<float>(exp[i++]);
                    if (!(std::fabs(ds.get(pos) - ef) <= 2 * tolerance(dt, ef) + 1e-4f)
                            && bad++ < 3)
                        ADD_FAILURE() << name << " bwd at " << i - 1 << ": expected " << ef
                                      << " got " << ds.get(pos);
                } while (next_pos(pos, p.src.data(), nd));
            EXPECT_EQ(bad, 0);
            EXPECT_TRUE(ds.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_desc_destroy(hint);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
    }
};

const std::vector<problem_t> problems = {
        {{1, 3, 10}, {1, 3, 20}},
        {{2, 5, 7}, {2, 5, 3}},
        {{1, 3, 5, 7}, {1, 3, 10, 13}},
        {{2, 17, 6, 4}, {2, 17, 3, 9}},
        {{1, 1, 1, 1}, {1, 1, 3, 2}},
        {{1, 19, 3, 4, 5}, {1, 19, 5, 2, 9}},
        {{1, 16, 4, 4, 4}, {1, 16, 8, 8, 8}},
};

TEST_F(resampling, forward_f32_every_layout_and_alg) {
    for (auto alg : {dnnl_resampling_nearest, dnnl_resampling_linear})
        for (const auto &p : problems)
            for (const char *l : {"ncx", "nxc", "16c", "8c"})
                check_fwd(alg, p, l, dnnl_f32, dnnl_f32);
}

TEST_F(resampling, forward_data_types) {
    const problem_t p = {{2, 19, 5, 6}, {2, 19, 9, 4}};
    const dnnl_data_type_t types[] = {dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_f32};
    for (auto alg : {dnnl_resampling_nearest, dnnl_resampling_linear})
        for (const char *l : {"ncx", "nxc", "16c"})
            for (auto s : types)
                for (auto d : {dnnl_f32, s}) check_fwd(alg, p, l, s, d);
}

TEST_F(resampling, forward_post_ops) {
    for (auto alg : {dnnl_resampling_nearest, dnnl_resampling_linear})
        for (const char *l : {"ncx", "nxc", "16c"}) {
            check_fwd(alg, {{2, 19, 5, 6}, {2, 19, 9, 4}}, l, dnnl_f32, dnnl_f32, true);
            check_fwd(alg, {{1, 3, 5}, {1, 3, 11}}, l, dnnl_bf16, dnnl_bf16, true);
        }
}

TEST_F(resampling, backward_accumulates_into_diff_src) {
    for (auto alg : {dnnl_resampling_nearest, dnnl_resampling_linear})
        for (const auto &p : problems)
            for (const char *l : {"ncx", "nxc", "16c"})
                check_bwd(alg, p, l, dnnl_f32);
    check_bwd(dnnl_resampling_linear, {{2, 19, 5, 6}, {2, 19, 9, 4}}, "ncx", dnnl_bf16);
    check_bwd(dnnl_resampling_nearest, {{2, 19, 5, 6}, {2, 19, 9, 4}}, "nxc", dnnl_f16);
}

TEST_F(resampling, large_rows_and_channels) {
    check_fwd(dnnl_resampling_linear, {{1, 2, 3, 1500}, {1, 2, 2, 2100}}, "ncx", dnnl_f32,
            dnnl_f32);
    check_fwd(dnnl_resampling_linear, {{1, 2, 3, 1500}, {1, 2, 2, 2100}}, "ncx", dnnl_bf16,
            dnnl_f32);
    check_fwd(dnnl_resampling_nearest, {{1, 300, 3, 5}, {1, 300, 4, 4}}, "nxc", dnnl_f32,
            dnnl_f32);
}

TEST_F(resampling, factors_give_dst_and_are_queried) {
    const float factors[] = {2.f, 0.5f};
    dnnl_memory_desc_t smd = make_md(spec_t({1, 3, 5, 8}, dnnl_f32, dnnl_nchw));
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                      dnnl_resampling_linear, factors, smd, nullptr, nullptr),
            dnnl_success);
    const_dnnl_memory_desc_t dmd = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    layout_t l(dmd);
    EXPECT_EQ(l.dims[2], 10);
    EXPECT_EQ(l.dims[3], 4);
    const float *q = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_factors, 0, &q), dnnl_success);
    EXPECT_EQ(q[0], 2.f);
    EXPECT_EQ(q[1], 0.5f);
    dnnl_primitive_desc_destroy(pd);
    // No factors: derived from the dims.
    dnnl_memory_desc_t dmd2 = make_md(spec_t({1, 3, 15, 2}, dnnl_f32, dnnl_format_tag_any));
    ASSERT_EQ(dnnl_resampling_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_resampling_nearest, nullptr, smd, dmd2, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_factors, 0, &q), dnnl_success);
    EXPECT_FLOAT_EQ(q[0], 3.f);
    EXPECT_FLOAT_EQ(q[1], 0.25f);
    layout_t r(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
    EXPECT_EQ(r.strides[3], 1); // format any takes src's layout
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(dmd2);
    dnnl_memory_desc_destroy(smd);
}

TEST_F(resampling, zero_size_is_a_no_op) {
    check_fwd(dnnl_resampling_linear, {{0, 3, 4, 4}, {0, 3, 8, 8}}, "ncx", dnnl_f32, dnnl_f32);
    check_fwd(dnnl_resampling_nearest, {{2, 0, 4}, {2, 0, 8}}, "nxc", dnnl_f32, dnnl_f32);
    check_bwd(dnnl_resampling_linear, {{0, 3, 4, 4}, {0, 3, 8, 8}}, "ncx", dnnl_f32);
}

TEST_F(resampling, bad_arguments) {
    dnnl_memory_desc_t s4 = make_md(spec_t({1, 3, 5, 8}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t d4 = make_md(spec_t({1, 3, 10, 16}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t dc = make_md(spec_t({1, 4, 10, 16}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t s2 = make_md(spec_t({3, 5}, dnnl_f32, dnnl_ab));
    dnnl_primitive_desc_t pd = nullptr;
    auto fwd = [&](dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const float *f,
                       const_dnnl_memory_desc_t s, const_dnnl_memory_desc_t d) {
        return dnnl_resampling_forward_primitive_desc_create(&pd, engine, prop, alg, f, s, d,
                nullptr);
    };
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, nullptr, s4, d4), dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(fwd(dnnl_backward_data, dnnl_resampling_linear, nullptr, s4, d4),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_eltwise_relu, nullptr, s4, d4),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, nullptr, s4, dc),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, nullptr, s2, s2),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, nullptr, s4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, nullptr, nullptr, d4),
            dnnl_invalid_arguments);
    const float neg[] = {-1.f, 2.f};
    EXPECT_EQ(fwd(dnnl_forward_training, dnnl_resampling_linear, neg, s4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_forward_primitive_desc_create(nullptr, engine,
                      dnnl_forward_training, dnnl_resampling_linear, nullptr, s4, d4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_resampling_backward_primitive_desc_create(
                      &pd, engine, dnnl_resampling_linear, nullptr, s4, dc, nullptr, nullptr),
            dnnl_invalid_arguments);
    // Backward takes no int8 data.
    dnnl_memory_desc_t si = make_md(spec_t({1, 3, 5, 8}, dnnl_s8, dnnl_nchw));
    dnnl_memory_desc_t di = make_md(spec_t({1, 3, 10, 16}, dnnl_s8, dnnl_nchw));
    EXPECT_EQ(dnnl_resampling_backward_primitive_desc_create(
                      &pd, engine, dnnl_resampling_linear, nullptr, si, di, nullptr, nullptr),
            dnnl_unimplemented);
    for (auto m : {s4, d4, dc, s2, si, di})
        dnnl_memory_desc_destroy(m);
}

} // namespace
