// Pooling through the C API: max and both averages, forward (training with the workspace,
// inference) and backward, 1D/2D/3D, plain, channels-last and nCx16c layouts, every data type,
// every implementation (dnnl_primitive_desc_next_impl), against a double-precision reference
// (window geometry from pooling_ref.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "primitives/c_tensor.hpp"
#include "primitives/pooling_ref.hpp"

using namespace c_tensor;

namespace {

using pooling_ref::dst_dims;
using pooling_ref::pool_case_t;
using pooling_ref::window;
using pooling_ref::window_t;

std::vector<pool_case_t> cases() {
    return {
            {{2, 5, 9}, {3}, {2}, {0}, {1}, {1}}, // 1D
            {{2, 19, 7, 8}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}}, // 2D, channel tail
            {{1, 32, 6, 5}, {2, 2}, {1, 2}, {1, 0}, {0, 1}, {1, 0}}, // dilation, uneven pads
            {{1, 17, 4, 5, 4}, {2, 3, 2}, {2, 1, 2}, {0, 0, 0}, {1, 1, 0}, {0, 1, 1}}, // 3D
            {{1, 1, 1, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {0, 0}}, // shape 1
    };
}

const dnnl_alg_kind_t algs[] = {
        dnnl_pooling_max, dnnl_pooling_avg_include_padding, dnnl_pooling_avg_exclude_padding};

dnnl_format_tag_t tag_for(const std::string &t, size_t nd) {
    if (t == "abx") return nd == 3 ? dnnl_abc : nd == 4 ? dnnl_abcd : dnnl_abcde;
    if (t == "axb") return nd == 3 ? dnnl_acb : nd == 4 ? dnnl_acdb : dnnl_acdeb;
    return nd == 3 ? dnnl_aBc16b : nd == 4 ? dnnl_aBcd16b : dnnl_aBcde16b;
}

struct pooling : public engine_fixture {
    dnnl_primitive_desc_t fwd_pd(const pool_case_t &p, dnnl_alg_kind_t alg, dnnl_prop_kind_t prop,
            dnnl_data_type_t sdt, dnnl_data_type_t ddt, dnnl_format_tag_t tag,
            dnnl_format_tag_t dtag, const_dnnl_primitive_attr_t attr = nullptr) {
        dnnl_memory_desc_t s = make_md(spec_t(p.src, sdt, tag));
        dnnl_memory_desc_t d = make_md(spec_t(dst_dims(p), ddt, dtag));
        dnnl_dims_t k, st, dl, pl, pr;
        for (size_t i = 0; i < p.k.size(); ++i)
            k[i] = p.k[i], st[i] = p.s[i], dl[i] = p.dl[i], pl[i] = p.pl[i], pr[i] = p.pr[i];
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(
                          &pd, engine, prop, alg, s, d, st, k, dl, pl, pr, attr),
                dnnl_success);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(d);
        return pd;
    }

    // Runs every implementation of the forward problem and checks dst (and the workspace).
    void check_fwd(const pool_case_t &p, dnnl_alg_kind_t alg, dnnl_prop_kind_t prop,
            dnnl_data_type_t sdt, dnnl_data_type_t ddt, const std::string &tag,
            std::vector<std::string> *impls = nullptr) {
        const dnnl_format_tag_t t = tag_for(tag, p.src.size());
        dnnl_primitive_desc_t pd = fwd_pd(p, alg, prop, sdt, ddt, t, dnnl_format_tag_any);
        ASSERT_NE(pd, nullptr);
        do {
            SCOPED_TRACE(impl_name(pd) + " " + tag + " " + dnnl_dt2str(sdt));
            if (impls) impls->push_back(impl_name(pd));
            tensor_t src(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0));
            tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x5a);
            const_dnnl_memory_desc_t wsmd = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
            int wnd = 0;
            dnnl_memory_desc_query(wsmd, dnnl_query_ndims_s32, &wnd);
            const bool has_ws = alg == dnnl_pooling_max && prop == dnnl_forward_training;
            EXPECT_EQ(wnd > 0, has_ws);
            tensor_t ws(engine, wsmd);
            src.fill_random(7);
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
            if (has_ws) args.push_back({DNNL_ARG_WORKSPACE, ws.mem});
            ASSERT_EQ(execute(pd, args), dnnl_success);
            int64_t pos[DNNL_MAX_NDIMS] = {}, sp[DNNL_MAX_NDIMS] = {};
            const dims_t dd = dst_dims(p);
            int bad = 0;
            if (dst.lay.nelems() > 0) do {
                    const window_t w = window(p, pos);
                    sp[0] = pos[0];
                    sp[1] = pos[1];
                    double acc = alg == dnnl_pooling_max ? -INFINITY : 0;
                    int arg = 0;
                    for (size_t i = 0; i < w.taps.size(); ++i) {
                        for (size_t j = 0; j < w.taps[i].size(); ++j)
                            sp[2 + j] = w.taps[i][j];
                        const double v = src.get(sp);
                        if (alg == dnnl_pooling_max) {
                            if (v > acc) acc = v, arg = w.tap_index[i];
                        } else {
                            acc += v;
                        }
                    }
                    if (alg == dnnl_pooling_avg_include_padding) acc /= w.ksize;
                    if (alg == dnnl_pooling_avg_exclude_padding) acc /= double(w.taps.size());
                    const float exp = round_to(ddt, float(acc));
                    const float got = dst.get(pos);
                    const bool int_dt = ddt == dnnl_s8 || ddt == dnnl_u8 || ddt == dnnl_s32;
                    const bool ok = int_dt ? std::fabs(exp - got) <= 1.f : close(ddt, exp, got);
                    if (!ok && bad++ < 5) ADD_FAILURE() << "dst mismatch: expected " << exp << " got " << got;
                    if (has_ws) {
                        const float wi = ws.get(pos);
                        if (wi != float(arg) && bad++ < 5)
                            ADD_FAILURE() << "workspace index " << wi << " expected " << arg;
                    }
                } while (next_pos(pos, dd.data(), static_cast<int>(dd.size())));
            EXPECT_TRUE(dst.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }

    void check_bwd(const pool_case_t &p, dnnl_alg_kind_t alg, dnnl_data_type_t dt,
            const std::string &tag, std::vector<std::string> *impls = nullptr) {
        const dnnl_format_tag_t t = tag_for(tag, p.src.size());
        dnnl_primitive_desc_t hint = fwd_pd(p, alg, dnnl_forward_training, dt, dt, t, dnnl_format_tag_any);
        ASSERT_NE(hint, nullptr);
        tensor_t src(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_src_md, 0));
        tensor_t dst(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_dst_md, 0));
        tensor_t ws(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_workspace_md, 0));
        src.fill_random(11);
        std::vector<dnnl_exec_arg_t> fargs = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
        if (alg == dnnl_pooling_max) fargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        ASSERT_EQ(execute(hint, fargs), dnnl_success);

        dnnl_memory_desc_t dsm = make_md(spec_t(p.src, dt, dnnl_format_tag_any));
        dnnl_memory_desc_t ddm = make_md(spec_t(dst_dims(p), dt, dnnl_format_tag_any));
        dnnl_dims_t k, st, dl, pl, pr;
        for (size_t i = 0; i < p.k.size(); ++i)
            k[i] = p.k[i], st[i] = p.s[i], dl[i] = p.dl[i], pl[i] = p.pl[i], pr[i] = p.pr[i];
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_pooling_backward_primitive_desc_create(
                          &pd, engine, alg, dsm, ddm, st, k, dl, pl, pr, hint, nullptr),
                dnnl_success);
        dnnl_memory_desc_destroy(dsm);
        dnnl_memory_desc_destroy(ddm);
        do {
            SCOPED_TRACE(impl_name(pd) + " " + tag + " " + dnnl_dt2str(dt));
            if (impls) impls->push_back(impl_name(pd));
            tensor_t dd(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_dst_md, 0));
            tensor_t ds(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_src_md, 0), 0x33);
            dd.fill_random(13);
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_DIFF_DST, dd.mem}, {DNNL_ARG_DIFF_SRC, ds.mem}};
            if (alg == dnnl_pooling_max) args.push_back({DNNL_ARG_WORKSPACE, ws.mem});
            ASSERT_EQ(execute(pd, args), dnnl_success);
            // Reference: scatter every diff_dst value over its window.
            const int64_t n_src = src.lay.nelems();
            std::vector<double> exp(static_cast<size_t>(n_src), 0.0);
            auto flat = [&](const int64_t *q) {
                int64_t f = 0;
                for (size_t d = 0; d < p.src.size(); ++d)
                    f = f * p.src[d] + q[d];
                return f;
            };
            int64_t pos[DNNL_MAX_NDIMS] = {}, sp[DNNL_MAX_NDIMS] = {};
            const dims_t odims = dst_dims(p);
            if (dd.lay.nelems() > 0) do {
                    const window_t w = window(p, pos);
                    sp[0] = pos[0];
                    sp[1] = pos[1];
                    const double g = dd.get(pos);
                    double best = -INFINITY;
                    int64_t at = -1;
                    for (size_t i = 0; i < w.taps.size(); ++i) {
                        for (size_t j = 0; j < w.taps[i].size(); ++j)
                            sp[2 + j] = w.taps[i][j];
                        if (alg == dnnl_pooling_max) {
                            const double v = src.get(sp);
                            if (v > best) best = v, at = flat(sp);
                        } else {
                            const double div = alg == dnnl_pooling_avg_include_padding
                                    ? w.ksize
                                    : double(w.taps.size());
                            exp[flat(sp)] += g / div;
                        }
                    }
                    if (alg == dnnl_pooling_max && at >= 0) exp[at] += g;
                } while (next_pos(pos, odims.data(), static_cast<int>(odims.size())));
            int64_t q[DNNL_MAX_NDIMS] = {};
            int bad = 0;
            if (n_src > 0) do {
                const float e = round_to(dt, float(exp[flat(q)]));
                const float got = ds.get(q);
                if (!close(dt, e, got) && bad++ < 5)
                    ADD_FAILURE() << "diff_src mismatch: expected " << e << " got " << got;
            } while (next_pos(q, p.src.data(), static_cast<int>(p.src.size())));
            EXPECT_TRUE(ds.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_desc_destroy(hint);
    }
};

TEST_F(pooling, forward_every_alg_layout_and_impl_f32) {
    std::vector<std::string> impls;
    for (const auto &p : cases())
        for (auto alg : algs)
            for (const char *tag : {"abx", "axb", "aBx16b"})
                for (auto prop : {dnnl_forward_training, dnnl_forward_inference})
                    check_fwd(p, alg, prop, dnnl_f32, dnnl_f32, tag, &impls);
    EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:pooling:ref"), impls.end());
    dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    if ((isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core) {
        EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:pooling:avx512"), impls.end());
    }
}

TEST_F(pooling, forward_low_precision_and_integer_types) {
    const auto all = cases();
    for (auto dt : {dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8})
        for (auto alg : algs)
            for (const char *tag : {"abx", "axb", "aBx16b"}) {
                check_fwd(all[1], alg, dnnl_forward_training, dt, dt, tag);
                check_fwd(all[3], alg, dnnl_forward_inference, dt, dt, tag);
            }
    // Average of integers into a float destination.
    check_fwd(all[1], dnnl_pooling_avg_exclude_padding, dnnl_forward_inference, dnnl_u8, dnnl_f32, "axb");
    check_fwd(all[1], dnnl_pooling_avg_include_padding, dnnl_forward_inference, dnnl_s8, dnnl_f32, "abx");
}

// Max pooling converts the window's maximum to another dst type (oneDNN's mixed-type max
// pooling), forward training with its workspace and inference, on every implementation.
TEST_F(pooling, max_converts_between_data_types) {
    const auto all = cases();
    const dnnl_data_type_t pairs[][2] = {{dnnl_f32, dnnl_s8}, {dnnl_f32, dnnl_u8},
            {dnnl_s8, dnnl_f32}, {dnnl_u8, dnnl_f16}, {dnnl_s8, dnnl_u8}, {dnnl_u8, dnnl_s8},
            {dnnl_f16, dnnl_s8}, {dnnl_bf16, dnnl_f32}};
    for (const auto &pr : pairs)
        for (const char *tag : {"abx", "axb", "aBx16b"})
            for (const auto &p : all) {
                check_fwd(p, dnnl_pooling_max, dnnl_forward_inference, pr[0], pr[1], tag);
                check_fwd(p, dnnl_pooling_max, dnnl_forward_training, pr[0], pr[1], tag);
            }
}

// Rows wide enough for the multi-pixel interior steps (full, shorter last, border) and
// channel counts that split into several chunk groups with a tail; a global pool.
TEST_F(pooling, forward_wide_rows_and_channel_groups) {
    const std::vector<pool_case_t> wide = {
            {{2, 16, 30}, {4}, {3}, {0}, {1}, {0}}, // 1D
            {{1, 80, 5, 23}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}},
            {{1, 33, 4, 19}, {2, 3}, {1, 1}, {0, 1}, {0, 2}, {0, 2}}, // dilated along x
            {{2, 40, 7, 7}, {7, 7}, {1, 1}, {0, 0}, {0, 0}, {0, 0}}, // global
            {{1, 20, 5, 6, 13}, {3, 3, 3}, {1, 2, 2}, {0, 0, 0}, {1, 1, 1}, {1, 0, 1}}, // 3D
    };
    for (const auto &p : wide)
        for (auto alg : algs)
            for (const char *tag : {"abx", "axb", "aBx16b"})
                check_fwd(p, alg, alg == dnnl_pooling_max ? dnnl_forward_training
                                                          : dnnl_forward_inference,
                        dnnl_f32, dnnl_f32, tag);
    for (auto dt : {dnnl_bf16, dnnl_s8})
        for (auto alg : algs)
            for (const char *tag : {"axb", "aBx16b"})
                check_fwd(wide[1], alg, dnnl_forward_training, dt, dt, tag);
}

TEST_F(pooling, backward_every_alg_layout_and_impl) {
    std::vector<std::string> impls;
    for (const auto &p : cases())
        for (auto alg : algs)
            for (const char *tag : {"abx", "axb", "aBx16b"})
                check_bwd(p, alg, dnnl_f32, tag, &impls);
    const auto all = cases();
    for (auto dt : {dnnl_bf16, dnnl_f16})
        for (auto alg : algs)
            for (const char *tag : {"abx", "aBx16b"})
                check_bwd(all[1], alg, dt, tag);
    EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:pooling:ref"), impls.end());
}

TEST_F(pooling, zero_size_minibatch_is_a_no_op) {
    pool_case_t p {{0, 16, 6, 6}, {3, 3}, {2, 2}, {0, 0}, {1, 1}, {1, 1}};
    for (auto alg : algs) {
        check_fwd(p, alg, dnnl_forward_training, dnnl_f32, dnnl_f32, "aBx16b");
        check_bwd(p, alg, dnnl_f32, "axb");
    }
}

TEST_F(pooling, dst_any_takes_src_layout_and_workspace_is_u8_index) {
    pool_case_t p = cases()[1];
    dnnl_primitive_desc_t pd = fwd_pd(p, dnnl_pooling_max, dnnl_forward_training, dnnl_f32,
            dnnl_f32, dnnl_aBcd16b, dnnl_format_tag_any);
    ASSERT_NE(pd, nullptr);
    layout_t dst(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
    EXPECT_EQ(dst.nblks, 1);
    EXPECT_EQ(dst.blks[0], 16);
    layout_t ws(dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0));
    EXPECT_EQ(ws.dt, dnnl_u8);
    EXPECT_EQ(ws.nblks, 1);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_outputs_s32, 0), 2);
    dnnl_alg_kind_t alg;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_alg_kind, 0, &alg), dnnl_success);
    EXPECT_EQ(alg, dnnl_pooling_max);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(pooling, post_ops_run_on_the_reference) {
    pool_case_t p = cases()[1];
    dnnl_primitive_attr_t attr;
    dnnl_post_ops_t po;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_linear, 2.f, 1.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = fwd_pd(p, dnnl_pooling_avg_exclude_padding, dnnl_forward_inference,
            dnnl_f32, dnnl_f32, dnnl_acdb, dnnl_format_tag_any, attr);
    ASSERT_NE(pd, nullptr);
    EXPECT_EQ(impl_name(pd), "cpu:pooling:ref");
    tensor_t src(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0));
    tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
    src.fill_random(3);
    ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}}), dnnl_success);
    int64_t pos[DNNL_MAX_NDIMS] = {}, sp[DNNL_MAX_NDIMS] = {};
    const dims_t dd = dst_dims(p);
    do {
        const window_t w = window(p, pos);
        sp[0] = pos[0];
        sp[1] = pos[1];
        double acc = 0;
        for (const auto &t : w.taps) {
            sp[2] = t[0];
            sp[3] = t[1];
            acc += src.get(sp);
        }
        const float exp = float(2 * acc / double(w.taps.size()) + 1);
        ASSERT_TRUE(close(dnnl_f32, exp, dst.get(pos))) << exp << " vs " << dst.get(pos);
    } while (next_pos(pos, dd.data(), 4));
    dnnl_primitive_desc_destroy(pd);
    dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
}

TEST_F(pooling, bad_arguments_are_rejected_with_a_status) {
    dnnl_memory_desc_t s = make_md(spec_t({2, 16, 8, 8}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t d = make_md(spec_t({2, 16, 4, 4}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t bad = make_md(spec_t({2, 16, 5, 4}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t d55 = make_md(spec_t({2, 16, 5, 5}, dnnl_f32, dnnl_nchw));
    dnnl_dims_t k = {2, 2}, st = {2, 2}, z = {0, 0}, big = {2, 2};
    dnnl_primitive_desc_t pd = nullptr;
    // The previous stub answered unimplemented: a valid problem is now created.
    ASSERT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(nullptr, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, bad, st, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_eltwise_relu, s, d, st, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_backward_data,
                      dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, d, nullptr, k, z, z, z, nullptr),
            dnnl_invalid_arguments);
    // Padding as large as the kernel leaves windows that see no src element: accepted as
    // oneDNN does (pooling_padding_test checks the values).
    dnnl_primitive_desc_t padded = nullptr;
    EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&padded, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, d55, st, k, z, big, z, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(padded);
    dnnl_primitive_desc_t hint = nullptr, inf = nullptr;
    ASSERT_EQ(dnnl_pooling_forward_primitive_desc_create(&hint, engine, dnnl_forward_training,
                      dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_pooling_forward_primitive_desc_create(&inf, engine, dnnl_forward_inference,
                      dnnl_pooling_max, s, d, st, k, z, z, z, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_pooling_backward_primitive_desc_create(&pd, engine, dnnl_pooling_max, s, d,
                      st, k, z, z, z, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_pooling_backward_primitive_desc_create(&pd, engine, dnnl_pooling_max, s, d,
                      st, k, z, z, z, inf, nullptr),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_pooling_backward_primitive_desc_create(&bpd, engine, dnnl_pooling_max, s, d,
                      st, k, z, z, z, hint, nullptr),
            dnnl_success);
    // s8 backward is not a thing.
    dnnl_memory_desc_t s8 = make_md(spec_t({2, 16, 8, 8}, dnnl_s8, dnnl_nchw));
    dnnl_memory_desc_t d8 = make_md(spec_t({2, 16, 4, 4}, dnnl_s8, dnnl_nchw));
    EXPECT_EQ(dnnl_pooling_backward_primitive_desc_create(&pd, engine, dnnl_pooling_avg_include_padding,
                      s8, d8, st, k, z, z, z, hint, nullptr),
            dnnl_unimplemented);
    dnnl_primitive_desc_destroy(bpd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_primitive_desc_destroy(inf);
    for (auto m : {s, d, bad, d55, s8, d8})
        dnnl_memory_desc_destroy(m);
}

} // namespace
