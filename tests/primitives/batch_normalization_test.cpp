// Batch normalization through the C API: forward training (statistics out) and inference
// (global statistics in, or computed), backward and backward_data, every flag (scale, shift,
// fused relu with the workspace, fused add+relu with src_1/diff_src_1), plain, channels-last
// and nCx16c layouts, f32/bf16/f16 and s8 inference, every implementation, against
// double-precision formulas written here.
#include <algorithm>
#include <cmath>
#include <vector>

#include "primitives/c_tensor.hpp"

using namespace c_tensor;

namespace {

dnnl_format_tag_t tag_for(const std::string &t, size_t nd) {
    if (nd == 2) return dnnl_ab;
    if (t == "abx") return nd == 3 ? dnnl_abc : nd == 4 ? dnnl_abcd : dnnl_abcde;
    if (t == "axb") return nd == 3 ? dnnl_acb : nd == 4 ? dnnl_acdb : dnnl_acdeb;
    return nd == 3 ? dnnl_aBc16b : nd == 4 ? dnnl_aBcd16b : dnnl_aBcde16b;
}

// Per-channel vector tensors of the problem.
struct vec_t {
    std::vector<float> v;
    dnnl_memory_t mem = nullptr;
    vec_t(dnnl_engine_t e, int64_t c) : v(static_cast<size_t>(std::max<int64_t>(c, 1))) {
        dnnl_memory_desc_t md = make_md(spec_t({c}, dnnl_f32, dnnl_a));
        EXPECT_EQ(dnnl_memory_create(&mem, md, e, v.data()), dnnl_success);
        dnnl_memory_desc_destroy(md);
    }
    ~vec_t() { dnnl_memory_destroy(mem); }
};

// Iterates over logical positions of channel c.
template <typename F>
void each(const dims_t &d, int64_t c, F f) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (d[0] == 0) return;
    dims_t rest = d;
    rest[1] = 1;
    do {
        pos[1] = c;
        f(pos);
        pos[1] = 0;
    } while (next_pos(pos, rest.data(), static_cast<int>(rest.size())));
}

float tol(dnnl_data_type_t dt, double e) {
    const double m = std::fabs(e);
    switch (dt) {
        case dnnl_bf16: return float(1.6e-2 * m + 2e-2);
        case dnnl_f16: return float(2e-3 * m + 2e-3);
        case dnnl_s8: return 1.f;
        default: return float(2e-5 * m + 5e-5);
    }
}

struct bnorm : public engine_fixture {
    struct prb_t {
        dims_t dims;
        std::string tag;
        dnnl_data_type_t dt;
        unsigned flags;
        float offset = 0; // when set: added to src, with spikes (see add_offset)
    };

    dnnl_primitive_desc_t fwd_pd(const prb_t &p, dnnl_prop_kind_t prop, dnnl_data_type_t ddt) {
        dnnl_memory_desc_t s = make_md(spec_t(p.dims, p.dt, tag_for(p.tag, p.dims.size())));
        dnnl_memory_desc_t d = make_md(spec_t(p.dims, ddt, dnnl_format_tag_any));
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(
                          &pd, engine, prop, s, d, 1e-3f, p.flags, nullptr),
                dnnl_success);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(d);
        return pd;
    }

    // Adds p.offset to src, and 300 more at 32 points i * points / 32 of every channel (the
    // sample the avx512 implementation shifts its one-pass sums by: its worst case).
    void add_offset(tensor_t &src, const prb_t &p) {
        int64_t points = 1;
        for (size_t i = 0; i < p.dims.size(); ++i)
            if (i != 1) points *= p.dims[i];
        std::vector<bool> spike(static_cast<size_t>(points));
        for (int64_t i = 0; i < std::min<int64_t>(points, 32); ++i)
            spike[static_cast<size_t>(i * points / std::min<int64_t>(points, 32))] = true;
        for (int64_t c = 0; c < p.dims[1]; ++c) {
            size_t at = 0;
            each(p.dims, c, [&](const int64_t *q) {
                src.set(q, src.get(q) + p.offset + (spike[at++] ? 300.f : 0.f));
            });
        }
    }

    // Forward on every implementation: dst, and mean/variance when training.
    void check_fwd(const prb_t &p, dnnl_prop_kind_t prop, dnnl_data_type_t ddt,
            std::vector<std::string> *impls = nullptr) {
        const bool gs = p.flags & dnnl_use_global_stats;
        const bool relu = p.flags & (dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu);
        const bool add = p.flags & dnnl_fuse_norm_add_relu;
        const int64_t C = p.dims[1];
        dnnl_primitive_desc_t pd = fwd_pd(p, prop, ddt);
        ASSERT_NE(pd, nullptr);
        do {
            SCOPED_TRACE(impl_name(pd) + " " + p.tag + " " + dnnl_dt2str(p.dt) + " flags "
                    + std::to_string(p.flags) + (prop == dnnl_forward_training ? " train" : " inf"));
            if (impls) impls->push_back(impl_name(pd));
            tensor_t src(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0));
            tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x5a);
            tensor_t src1(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, DNNL_ARG_SRC_1));
            tensor_t ws(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0));
            src.fill_random(5);
            if (p.offset != 0) add_offset(src, p);
            if (add) src1.fill_random(9);
            vec_t mean(engine, C), var(engine, C), sc(engine, C), sh(engine, C);
            for (int64_t c = 0; c < C; ++c) {
                sc.v[c] = 0.5f + 0.125f * float(c % 7);
                sh.v[c] = -0.25f * float(c % 5);
                mean.v[c] = gs ? 0.25f * float(c % 3) - 0.5f : 99.f;
                var.v[c] = gs ? 0.5f + 0.25f * float(c % 4) : 99.f;
            }
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem},
                    {DNNL_ARG_SCALE, sc.mem}, {DNNL_ARG_SHIFT, sh.mem}};
            if (gs || prop == dnnl_forward_training) {
                args.push_back({DNNL_ARG_MEAN, mean.mem});
                args.push_back({DNNL_ARG_VARIANCE, var.mem});
            }
            if (add) args.push_back({DNNL_ARG_SRC_1, src1.mem});
            if (relu && prop == dnnl_forward_training) args.push_back({DNNL_ARG_WORKSPACE, ws.mem});
            ASSERT_EQ(execute(pd, args), dnnl_success);
            int bad = 0;
            for (int64_t c = 0; c < C; ++c) {
                double mu = 0, s2 = 0, cnt = 0;
                if (gs) {
                    mu = mean.v[c];
                    s2 = var.v[c];
                } else {
                    each(p.dims, c, [&](const int64_t *q) { mu += src.get(q); cnt += 1; });
                    mu = cnt ? mu / cnt : 0;
                    each(p.dims, c, [&](const int64_t *q) { s2 += (src.get(q) - mu) * (src.get(q) - mu); });
                    s2 = cnt ? s2 / cnt : 0;
                    if (prop == dnnl_forward_training && cnt) {
                        if (std::fabs(mean.v[c] - mu) > 1e-5 * (1 + std::fabs(mu)) && bad++ < 5)
                            ADD_FAILURE() << "mean[" << c << "] " << mean.v[c] << " expected " << mu;
                        if (std::fabs(var.v[c] - s2) > 1e-5 * (1 + s2) && bad++ < 5)
                            ADD_FAILURE() << "variance[" << c << "] " << var.v[c] << " expected " << s2;
                    }
                }
                const double g = (p.flags & dnnl_use_scale) ? sc.v[c] : 1.0;
                const double b = (p.flags & dnnl_use_shift) ? sh.v[c] : 0.0;
                each(p.dims, c, [&](const int64_t *q) {
                    double y = g * (src.get(q) - mu) / std::sqrt(s2 + 1e-3) + b;
                    if (add) y += src1.get(q);
                    if (relu) y = std::max(y, 0.0);
                    const float got = dst.get(q);
                    if (std::fabs(got - y) > tol(ddt, y) && bad++ < 5)
                        ADD_FAILURE() << "dst expected " << y << " got " << got;
                });
            }
            EXPECT_TRUE(dst.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }

    // Forward training on the first implementation, then every backward implementation.
    void check_bwd(const prb_t &p, dnnl_prop_kind_t prop, std::vector<std::string> *impls = nullptr) {
        const bool gs = p.flags & dnnl_use_global_stats;
        const bool relu = p.flags & (dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu);
        const bool add = p.flags & dnnl_fuse_norm_add_relu;
        const int64_t C = p.dims[1];
        dnnl_primitive_desc_t hint = fwd_pd(p, dnnl_forward_training, p.dt);
        ASSERT_NE(hint, nullptr);
        tensor_t src(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_src_md, 0));
        tensor_t dst(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_dst_md, 0));
        tensor_t src1(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_exec_arg_md, DNNL_ARG_SRC_1));
        tensor_t ws(engine, dnnl_primitive_desc_query_md(hint, dnnl_query_workspace_md, 0));
        src.fill_random(21);
        if (add) src1.fill_random(22);
        vec_t mean(engine, C), var(engine, C), sc(engine, C), sh(engine, C);
        for (int64_t c = 0; c < C; ++c) {
            sc.v[c] = 0.75f + 0.125f * float(c % 3);
            sh.v[c] = 0.25f * float(c % 2) - 0.125f;
            mean.v[c] = 0.25f * float(c % 3) - 0.25f;
            var.v[c] = 1.f + 0.5f * float(c % 2);
        }
        std::vector<dnnl_exec_arg_t> fargs = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem},
                {DNNL_ARG_SCALE, sc.mem}, {DNNL_ARG_SHIFT, sh.mem}, {DNNL_ARG_MEAN, mean.mem},
                {DNNL_ARG_VARIANCE, var.mem}};
        if (add) fargs.push_back({DNNL_ARG_SRC_1, src1.mem});
        if (relu) fargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        ASSERT_EQ(execute(hint, fargs), dnnl_success);

        dnnl_memory_desc_t dsm = make_md(spec_t(p.dims, p.dt, dnnl_format_tag_any));
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, prop, dsm,
                          dsm, dnnl_primitive_desc_query_md(hint, dnnl_query_src_md, 0), 1e-3f,
                          p.flags, hint, nullptr),
                dnnl_success);
        dnnl_memory_desc_destroy(dsm);
        do {
            SCOPED_TRACE(impl_name(pd) + " " + p.tag + " " + dnnl_dt2str(p.dt) + " flags "
                    + std::to_string(p.flags) + (prop == dnnl_backward ? " bwd" : " bwd_d"));
            if (impls) impls->push_back(impl_name(pd));
            tensor_t dd(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_dst_md, 0));
            tensor_t ds(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_src_md, 0), 0x77);
            tensor_t ds1(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, DNNL_ARG_DIFF_SRC_1));
            dd.fill_random(23);
            vec_t dsc(engine, C), dsh(engine, C);
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DIFF_DST, dd.mem},
                    {DNNL_ARG_DIFF_SRC, ds.mem}, {DNNL_ARG_MEAN, mean.mem},
                    {DNNL_ARG_VARIANCE, var.mem}, {DNNL_ARG_SCALE, sc.mem}};
            if (relu) args.push_back({DNNL_ARG_WORKSPACE, ws.mem});
            if (add) args.push_back({DNNL_ARG_DIFF_SRC_1, ds1.mem});
            if (prop == dnnl_backward) {
                args.push_back({DNNL_ARG_DIFF_SCALE, dsc.mem});
                args.push_back({DNNL_ARG_DIFF_SHIFT, dsh.mem});
            }
            ASSERT_EQ(execute(pd, args), dnnl_success);
            int bad = 0;
            for (int64_t c = 0; c < C; ++c) {
                const double mu = mean.v[c], inv = 1.0 / std::sqrt(double(var.v[c]) + 1e-3);
                const double gam = (p.flags & dnnl_use_scale) ? sc.v[c] : 1.0;
                // The relu mask: where the forward dst is positive.
                auto grad = [&](const int64_t *q) {
                    double g = dd.get(q);
                    if (relu && !(dst.get(q) > 0)) g = 0;
                    return g;
                };
                double sg = 0, sgx = 0, cnt = 0;
                each(p.dims, c, [&](const int64_t *q) {
                    const double g = grad(q);
                    sg += g;
                    sgx += g * (src.get(q) - mu);
                    cnt += 1;
                });
                const double d_scale = sgx * inv, d_shift = sg;
                if (prop == dnnl_backward) {
                    if ((p.flags & dnnl_use_scale) && std::fabs(dsc.v[c] - d_scale) > 1e-4 * (1 + std::fabs(d_scale)) && bad++ < 5)
                        ADD_FAILURE() << "diff_scale[" << c << "] " << dsc.v[c] << " expected " << d_scale;
                    if ((p.flags & dnnl_use_shift) && std::fabs(dsh.v[c] - d_shift) > 1e-4 * (1 + std::fabs(d_shift)) && bad++ < 5)
                        ADD_FAILURE() << "diff_shift[" << c << "] " << dsh.v[c] << " expected " << d_shift;
                }
                each(p.dims, c, [&](const int64_t *q) {
                    const double g = grad(q);
                    double v = g;
                    if (!gs) v -= sg / cnt + (src.get(q) - mu) * inv * d_scale / cnt;
                    v *= gam * inv;
                    const float got = ds.get(q);
                    if (std::fabs(got - v) > tol(p.dt, v) && bad++ < 5)
                        ADD_FAILURE() << "diff_src expected " << v << " got " << got;
                    if (add && std::fabs(ds1.get(q) - g) > tol(p.dt, g) && bad++ < 5)
                        ADD_FAILURE() << "diff_src_1 expected " << g << " got " << ds1.get(q);
                });
            }
            EXPECT_TRUE(ds.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_desc_destroy(hint);
    }
};

const std::vector<dims_t> shapes = {{2, 19, 3, 5}, {3, 32, 4, 4}, {2, 17, 2, 3, 3}, {4, 21}, {1, 1, 1, 1}, {2, 5, 7}};

const unsigned flag_sets[] = {0, dnnl_use_scale | dnnl_use_shift, dnnl_use_scale,
        dnnl_use_shift | dnnl_fuse_norm_relu, dnnl_use_scale | dnnl_use_shift | dnnl_fuse_norm_add_relu};

TEST_F(bnorm, forward_training_and_inference_every_flag_layout_and_impl) {
    std::vector<std::string> impls;
    for (const auto &d : shapes)
        for (const char *tag : {"abx", "axb", "aBx16b"})
            for (unsigned f : flag_sets) {
                check_fwd({d, tag, dnnl_f32, f}, dnnl_forward_training, dnnl_f32, &impls);
                check_fwd({d, tag, dnnl_f32, f | dnnl_use_global_stats}, dnnl_forward_inference, dnnl_f32, &impls);
            }
    check_fwd({shapes[0], "axb", dnnl_f32, dnnl_use_scale}, dnnl_forward_inference, dnnl_f32, &impls);
    check_fwd({shapes[1], "abx", dnnl_f32, dnnl_use_global_stats | dnnl_fuse_norm_relu}, dnnl_forward_training, dnnl_f32, &impls);
    EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:bnorm:ref"), impls.end());
    dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    if ((isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core) {
        EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:bnorm:avx512"), impls.end());
    }
}

// Runs longer than one flush of the short f32 chains, split between threads mid-row, channel
// tails, and statistics of values far from zero with outliers (on 625 points the outliers
// pull a one-pass shift far enough from the mean to need a second read).
TEST_F(bnorm, forward_training_statistics_of_long_offset_channels) {
    for (const char *tag : {"axb", "aBx16b"}) {
        const unsigned ch = dnnl_use_scale | dnnl_use_shift;
        check_fwd({{3, 35, 9, 9}, tag, dnnl_f32, ch}, dnnl_forward_training, dnnl_f32);
        check_fwd({{3, 35, 9, 9}, tag, dnnl_f32, ch | dnnl_fuse_norm_add_relu, 1000.f},
                dnnl_forward_training, dnnl_f32);
        check_fwd({{1, 19, 25, 25}, tag, dnnl_f32, dnnl_use_scale, 1000.f}, dnnl_forward_training,
                dnnl_f32);
    }
    check_fwd({{2, 64, 9, 9}, "axb", dnnl_bf16, dnnl_use_shift, 100.f}, dnnl_forward_training,
            dnnl_bf16);
}

TEST_F(bnorm, forward_low_precision_and_s8_inference) {
    for (auto dt : {dnnl_bf16, dnnl_f16})
        for (const char *tag : {"abx", "axb", "aBx16b"}) {
            check_fwd({shapes[0], tag, dt, dnnl_use_scale | dnnl_use_shift | dnnl_fuse_norm_relu}, dnnl_forward_training, dt);
            check_fwd({shapes[2], tag, dt, dnnl_use_global_stats | dnnl_use_scale}, dnnl_forward_inference, dt);
        }
    for (const char *tag : {"abx", "axb", "aBx16b"})
        check_fwd({shapes[1], tag, dnnl_s8, dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift}, dnnl_forward_inference, dnnl_s8);
}

TEST_F(bnorm, backward_every_flag_layout_and_impl) {
    std::vector<std::string> impls;
    for (const auto &d : shapes)
        for (const char *tag : {"abx", "axb", "aBx16b"})
            for (unsigned f : flag_sets) {
                check_bwd({d, tag, dnnl_f32, f}, dnnl_backward, &impls);
                check_bwd({d, tag, dnnl_f32, f}, dnnl_backward_data, &impls);
            }
    check_bwd({shapes[1], "aBx16b", dnnl_f32, dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift}, dnnl_backward, &impls);
    for (auto dt : {dnnl_bf16, dnnl_f16})
        for (const char *tag : {"abx", "aBx16b"})
            check_bwd({shapes[0], tag, dt, dnnl_use_scale | dnnl_use_shift | dnnl_fuse_norm_relu}, dnnl_backward);
    EXPECT_NE(std::find(impls.begin(), impls.end(), "cpu:bnorm:ref"), impls.end());
}

TEST_F(bnorm, zero_size_minibatch_is_a_no_op) {
    for (const char *tag : {"abx", "aBx16b"}) {
        check_fwd({{0, 16, 3, 3}, tag, dnnl_f32, dnnl_use_scale}, dnnl_forward_training, dnnl_f32);
        check_fwd({{0, 16, 3, 3}, tag, dnnl_f32, dnnl_use_global_stats}, dnnl_forward_inference, dnnl_f32);
    }
}

TEST_F(bnorm, queries_map_statistics_and_scale_shift) {
    prb_t p {{2, 16, 4, 4}, "aBx16b", dnnl_f32, dnnl_use_scale | dnnl_use_shift | dnnl_fuse_norm_relu};
    dnnl_primitive_desc_t pd = fwd_pd(p, dnnl_forward_training, dnnl_f32);
    ASSERT_NE(pd, nullptr);
    layout_t mean(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 1));
    EXPECT_EQ(mean.ndims, 1);
    EXPECT_EQ(mean.dims[0], 16);
    layout_t scale(dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0));
    EXPECT_EQ(scale.dims[0], 16);
    layout_t ws(dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0));
    EXPECT_EQ(ws.dt, dnnl_u8);
    layout_t dst(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
    EXPECT_EQ(dst.nblks, 1);
    unsigned flags = 0;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_flags, 0, &flags), dnnl_success);
    EXPECT_EQ(flags, p.flags);
    float eps = 0;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_epsilon_f32, 0, &eps), dnnl_success);
    EXPECT_FLOAT_EQ(eps, 1e-3f);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(bnorm, bad_arguments_are_rejected_with_a_status) {
    dnnl_memory_desc_t s = make_md(spec_t({2, 16, 4, 4}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t other = make_md(spec_t({2, 16, 4, 5}, dnnl_f32, dnnl_nchw));
    dnnl_memory_desc_t s8 = make_md(spec_t({2, 16, 4, 4}, dnnl_s8, dnnl_nchw));
    dnnl_primitive_desc_t pd = nullptr;
    // The previous stub answered unimplemented.
    ASSERT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, s, 1e-5f, 0, nullptr), dnnl_success);
    dnnl_primitive_desc_t hint = pd, inf = nullptr;
    ASSERT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&inf, engine, dnnl_forward_inference, s, s, 1e-5f, 0, nullptr), dnnl_success);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, other, 1e-5f, 0, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_backward, s, s, 1e-5f, 0, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, s, -1.f, 0, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, s, 1e-5f, 0x400, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, s, 1e-5f, dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(nullptr, engine, dnnl_forward_training, s, s, 1e-5f, 0, nullptr), dnnl_invalid_arguments);
    // s8 needs inference with global statistics.
    EXPECT_EQ(dnnl_batch_normalization_forward_primitive_desc_create(&pd, engine, dnnl_forward_training, s8, s8, 1e-5f, 0, nullptr), dnnl_unimplemented);
    EXPECT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, dnnl_backward, s, s, s, 1e-5f, 0, nullptr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, dnnl_forward_training, s, s, s, 1e-5f, 0, hint, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, dnnl_backward, s, s, s, 1e-5f, dnnl_fuse_norm_relu, inf, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&pd, engine, dnnl_backward, s, other, s, 1e-5f, 0, hint, nullptr), dnnl_invalid_arguments);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_batch_normalization_backward_primitive_desc_create(&bpd, engine, dnnl_backward, s, s, s, 1e-5f, 0, hint, nullptr), dnnl_success);
    dnnl_primitive_desc_destroy(bpd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_primitive_desc_destroy(inf);
    for (auto m : {s, other, s8})
        dnnl_memory_desc_destroy(m);
}

} // namespace
