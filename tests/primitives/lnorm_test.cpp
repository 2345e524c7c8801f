// Layer normalization forward and backward through the C API (both entry point versions),
// every flag combination and implementation, against double-precision formulas written here:
// statistics computed or given, rms_norm, scale/shift in f32/bf16, f32/bf16/f16 data (s8/u8
// dst in training and inference, with scales), plain, transposed and blocked layouts, one-element and
// zero-size tensors, streaming-size problems, and bad arguments.
#include <cmath>
#include <string>
#include <vector>

#include "primitives/c_tensor.hpp"

namespace {

using namespace c_tensor;

struct ln_case_t {
    dims_t dims;
    dnnl_prop_kind_t prop;
    unsigned flags;
    dnnl_data_type_t dt = dnnl_f32, ddt = dnnl_f32, ss_dt = dnnl_f32;
    dnnl_format_tag_t tag = dnnl_format_tag_undef; // undef: row-major
    float dst_scale = 0.f;
    bool give_stat_desc = false;
};

dnnl_format_tag_t plain_tag(size_t nd) {
    switch (nd) {
        case 2: return dnnl_ab;
        case 3: return dnnl_abc;
        case 4: return dnnl_abcd;
        default: return dnnl_abcde;
    }
}

struct lnorm_test : public engine_fixture {
    const float eps = 1e-3f;

    int run(const ln_case_t &c) {
        const dims_t &dims = c.dims;
        const size_t nd = dims.size();
        const dnnl_format_tag_t tag = c.tag == dnnl_format_tag_undef ? plain_tag(nd) : c.tag;
        dims_t sdims(dims.begin(), dims.end() - 1);
        const int64_t C = dims.back();
        dnnl_memory_desc_t smd = make_md(spec_t(dims, c.dt, tag));
        dnnl_memory_desc_t dmd = make_md(spec_t(dims, c.ddt, tag));
        dnnl_memory_desc_t stmd = make_md(spec_t(sdims, dnnl_f32, dnnl_format_tag_undef));
        const bool fwd = c.prop == dnnl_forward_training || c.prop == dnnl_forward_inference;
        const bool global = c.flags & dnnl_use_global_stats, rms = c.flags & dnnl_rms_norm;
        dnnl_primitive_attr_t attr = nullptr;
        dnnl_primitive_attr_create(&attr);
        if (c.dst_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0);
        dnnl_primitive_desc_t fpd = nullptr, pd = nullptr;
        const_dnnl_memory_desc_t st_arg = c.give_stat_desc ? stmd : nullptr;
        EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create_v2(&fpd, engine,
                          fwd ? c.prop : dnnl_forward_training, smd, fwd ? dmd : smd, st_arg,
                          c.ss_dt, eps, c.flags, fwd ? attr : nullptr),
                dnnl_success);
        if (fwd) {
            pd = fpd;
            fpd = nullptr;
        } else {
            EXPECT_EQ(dnnl_layer_normalization_backward_primitive_desc_create_v2(&pd, engine,
                              c.prop, smd, smd, smd, st_arg, c.ss_dt, c.ss_dt, eps, c.flags, fpd,
                              nullptr),
                    dnnl_success);
        }
        int ran = 0;
        if (pd) {
            tensor_t src(engine, smd), dd(engine, smd), mean(engine, stmd), var(engine, stmd);
            dims_t cd = {C};
            tensor_t gamma(engine, spec_t(cd, c.ss_dt, dnnl_a)),
                    beta(engine, spec_t(cd, c.ss_dt, dnnl_a));
            tensor_t scale_mem(engine, spec_t({1}, dnnl_f32, dnnl_a));
            int64_t z[1] = {0};
            scale_mem.set(z, c.dst_scale);
            src.fill_random(3);
            dd.fill_random(4);
            gamma.fill_random(5);
            beta.fill_random(6);
            const int64_t rows = C == 0 ? 0 : src.lay.nelems() / C;
            // Given statistics: plausible values (positive variance).
            int64_t sp[DNNL_MAX_NDIMS] = {};
            if (rows > 0 && (global || !fwd)) {
                int64_t k = 0;
                do {
                    mean.set(sp, 0.25f * (k % 5) - 0.5f);
                    var.set(sp, 0.5f + 0.25f * (k % 7));
                    ++k;
                } while (next_pos(sp, mean.lay.dims, mean.lay.ndims));
            }
            if (rms && rows > 0) { // mean is not an argument: keep 0 for the reference
                std::fill(sp, sp + DNNL_MAX_NDIMS, 0);
                do
                    mean.set(sp, 0.f);
                while (next_pos(sp, mean.lay.dims, mean.lay.ndims));
            }
            // Reference per row (row-major over all dims but the last).
            std::vector<double> rm(rows), rv(rows);
            std::vector<double> exp_out(src.lay.nelems()), dgam(C, 0.0), dbet(C, 0.0), dgam_abs(C, 0.0),
                    dbet_abs(C, 0.0);
            int64_t pos[DNNL_MAX_NDIMS] = {};
            for (int64_t r = 0; r < rows; ++r) {
                int64_t rr = r;
                for (int d = static_cast<int>(nd) - 2; d >= 0; --d) {
                    pos[d] = rr % dims[d];
                    rr /= dims[d];
                }
                std::vector<double> x(C), g(C);
                for (int64_t k = 0; k < C; ++k) {
                    pos[nd - 1] = k;
                    x[k] = src.get(pos);
                    g[k] = dd.get(pos);
                }
                double m = 0, v = 0;
                if (global || !fwd) {
                    m = mean.get(pos);
                    v = var.get(pos);
                } else {
                    if (!rms) {
                        for (double t : x)
                            m += t;
                        m /= C;
                    }
                    for (double t : x)
                        v += (t - m) * (t - m);
                    v /= C;
                }
                rm[r] = m;
                rv[r] = v;
                const double rstd = 1.0 / std::sqrt(v + eps);
                double s1 = 0, s2 = 0;
                for (int64_t k = 0; k < C; ++k) {
                    const double gm = (c.flags & dnnl_use_scale) ? gamma.get(&k) : 1.0;
                    const double bt = (c.flags & dnnl_use_shift) ? beta.get(&k) : 0.0;
                    const double xh = (x[k] - m) * rstd;
                    if (fwd) {
                        double y = xh * gm + bt;
                        if (c.dst_scale) y /= c.dst_scale;
                        exp_out[r * C + k] = y;
                    } else {
                        s1 += g[k] * gm;
                        s2 += g[k] * gm * xh;
                        dgam[k] += g[k] * xh;
                        dbet[k] += g[k];
                        dgam_abs[k] += std::fabs(g[k] * xh);
                        dbet_abs[k] += std::fabs(g[k]);
                    }
                }
                if (!fwd)
                    for (int64_t k = 0; k < C; ++k) {
                        const double gm = (c.flags & dnnl_use_scale) ? gamma.get(&k) : 1.0;
                        const double xh = (x[k] - m) * rstd;
                        const double m1 = global || rms ? 0 : s1 / C, m2 = global ? 0 : s2 / C;
                        exp_out[r * C + k] = rstd * (g[k] * gm - m1 - xh * m2);
                    }
            }
            do {
                SCOPED_TRACE(impl_name(pd));
                tensor_t out(engine,
                        dnnl_primitive_desc_query_md(
                                pd, fwd ? dnnl_query_dst_md : dnnl_query_diff_src_md, 0),
                        0x55);
                tensor_t mo(engine, stmd, 0x55), vo(engine, stmd, 0x55);
                tensor_t dg(engine, spec_t(cd, c.ss_dt, dnnl_a), 0x55),
                        db(engine, spec_t(cd, c.ss_dt, dnnl_a), 0x55);
                std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}};
                const bool stats_out = c.prop == dnnl_forward_training && !global;
                const bool stats_in = !fwd || global;
                if (stats_in || stats_out) {
                    if (!rms) args.push_back({DNNL_ARG_MEAN, stats_out ? mo.mem : mean.mem});
                    args.push_back({DNNL_ARG_VARIANCE, stats_out ? vo.mem : var.mem});
                }
                if (c.flags & dnnl_use_scale) args.push_back({DNNL_ARG_SCALE, gamma.mem});
                if (fwd) {
                    args.push_back({DNNL_ARG_DST, out.mem});
                    if (c.flags & dnnl_use_shift) args.push_back({DNNL_ARG_SHIFT, beta.mem});
                    if (c.dst_scale)
                        args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, scale_mem.mem});
                } else {
                    args.push_back({DNNL_ARG_DIFF_DST, dd.mem});
                    args.push_back({DNNL_ARG_DIFF_SRC, out.mem});
                    if (c.prop == dnnl_backward && (c.flags & dnnl_use_scale))
                        args.push_back({DNNL_ARG_DIFF_SCALE, dg.mem});
                    if (c.prop == dnnl_backward && (c.flags & dnnl_use_shift))
                        args.push_back({DNNL_ARG_DIFF_SHIFT, db.mem});
                }
                if (execute(pd, args) != dnnl_success) {
                    ADD_FAILURE() << "execute failed";
                    break;
                }
                ++ran;
                const dnnl_data_type_t odt = fwd ? c.ddt : c.dt;
                const bool is_int = odt == dnnl_s8 || odt == dnnl_u8;
                int64_t bad = 0;
                for (int64_t r = 0; r < rows; ++r) {
                    int64_t rr = r;
                    for (int d = static_cast<int>(nd) - 2; d >= 0; --d) {
                        pos[d] = rr % dims[d];
                        rr /= dims[d];
                    }
                    if (stats_out) {
                        if (!rms && std::fabs(mo.get(pos) - rm[r]) > 1e-5 && bad++ < 5)
                            ADD_FAILURE() << "mean of row " << r;
                        if (std::fabs(vo.get(pos) - rv[r]) > 1e-5 * (1 + rv[r]) && bad++ < 5)
                            ADD_FAILURE() << "variance of row " << r;
                    }
                    for (int64_t k = 0; k < C; ++k) {
                        pos[nd - 1] = k;
                        const float e = static_cast<float>(exp_out[r * C + k]);
                        const float want = is_int ? round_to(odt, e) : e;
                        const float tol = is_int ? 1.f
                                                 : tolerance(odt, e)
                                        + (odt == dnnl_f32 ? 2e-5f : 3e-2f);
                        const float got = out.get(pos);
                        if (!(std::fabs(got - want) <= tol) && bad++ < 5)
                            ADD_FAILURE() << "row " << r << " c " << k << ": expected " << want
                                          << " got " << got;
                    }
                }
                if (c.prop == dnnl_backward)
                    for (int64_t k = 0; k < C; ++k) {
                        const float t = c.ss_dt == dnnl_f32 ? 1e-4f : 2e-2f;
                        if ((c.flags & dnnl_use_scale)
                                && std::fabs(dg.get(&k) - dgam[k]) > t * (1 + dgam_abs[k])
                                && bad++ < 5)
                            ADD_FAILURE() << "diff_scale " << k << ": " << dgam[k] << " vs "
                                          << dg.get(&k);
                        if ((c.flags & dnnl_use_shift)
                                && std::fabs(db.get(&k) - dbet[k]) > t * (1 + dbet_abs[k])
                                && bad++ < 5)
                            ADD_FAILURE() << "diff_shift " << k;
                    }
                EXPECT_EQ(bad, 0);
                EXPECT_TRUE(out.padding_is_zero());
            } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
            dnnl_primitive_desc_destroy(pd);
        }
        if (fpd) dnnl_primitive_desc_destroy(fpd);
        dnnl_primitive_attr_destroy(attr);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
        dnnl_memory_desc_destroy(stmd);
        return ran;
    }
};

const unsigned flag_sets[] = {0u, dnnl_use_scale, dnnl_use_shift, dnnl_use_scale | dnnl_use_shift,
        dnnl_use_global_stats, dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift,
        dnnl_rms_norm, dnnl_rms_norm | dnnl_use_scale | dnnl_use_shift,
        dnnl_rms_norm | dnnl_use_global_stats | dnnl_use_scale};

TEST_F(lnorm_test, forward_every_flag_set) {
    for (auto prop : {dnnl_forward_training, dnnl_forward_inference})
        for (unsigned f : flag_sets) {
            SCOPED_TRACE(f);
            EXPECT_EQ(run({{3, 5, 37}, prop, f}), 2);
            EXPECT_EQ(run({{1, 1}, prop, f}), 2);
        }
}

TEST_F(lnorm_test, backward_every_flag_set) {
    for (auto prop : {dnnl_backward, dnnl_backward_data})
        for (unsigned f : flag_sets) {
            SCOPED_TRACE(f);
            EXPECT_EQ(run({{4, 3, 45}, prop, f}), 2);
            EXPECT_EQ(run({{2, 1}, prop, f}), 2);
        }
}

TEST_F(lnorm_test, data_types) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    for (auto dt : {dnnl_bf16, dnnl_f16}) {
        ln_case_t c {{6, 70}, dnnl_forward_training, ss, dt, dt};
        EXPECT_EQ(run(c), 2);
        c.ss_dt = dnnl_bf16;
        EXPECT_EQ(run(c), 2);
        c.prop = dnnl_backward;
        EXPECT_EQ(run(c), 2);
    }
    for (auto prop : {dnnl_forward_inference, dnnl_forward_training}) {
        SCOPED_TRACE(dnnl_prop_kind2str(prop));
        ln_case_t q {{5, 64}, prop, ss, dnnl_f32, dnnl_s8};
        q.dst_scale = 1.f / 32;
        EXPECT_EQ(run(q), 2);
        q.ddt = dnnl_u8;
        EXPECT_EQ(run(q), 2);
        q.ddt = dnnl_f32;
        q.give_stat_desc = true;
        EXPECT_EQ(run(q), 2);
    }
    // s8/u8 sources (forward only), into float and integer destinations, with src/dst scales.
    for (auto prop : {dnnl_forward_inference, dnnl_forward_training}) {
        SCOPED_TRACE(dnnl_prop_kind2str(prop));
        ln_case_t i8 {{4, 33}, prop, ss, dnnl_s8, dnnl_f32};
        EXPECT_GE(run(i8), 1);
        i8.dt = dnnl_u8;
        i8.ddt = dnnl_bf16;
        EXPECT_GE(run(i8), 1);
        i8.ddt = dnnl_s8;
        i8.dst_scale = 1.f / 32;
        EXPECT_GE(run(i8), 1);
    }
    // Training with s8 dst and a row of odd length: statistics (checked) stay f32.
    ln_case_t t {{3, 2, 37}, dnnl_forward_training, 0u, dnnl_bf16, dnnl_s8};
    t.dst_scale = 1.f / 40;
    EXPECT_EQ(run(t), 2);
}

TEST_F(lnorm_test, layouts_other_than_dense_rows_use_the_reference) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    for (auto prop : {dnnl_forward_training, dnnl_backward}) {
        EXPECT_EQ(run({{3, 4, 19}, prop, ss, dnnl_f32, dnnl_f32, dnnl_f32, dnnl_acb}), 1);
        EXPECT_EQ(run({{2, 19, 5}, prop, ss, dnnl_f32, dnnl_f32, dnnl_f32, dnnl_aBc16b}), 1);
    }
}

// Outputs of 16 MiB and more take the non-temporal path, here with rows that start off a
// 64-byte boundary. Filled and read through pointers (dense row-major f32) to stay quick;
// every 17th row of dst and diff_src is checked in double, diff scale/shift in full.
TEST_F(lnorm_test, streaming_size_rows_unaligned) {
    const int64_t R = 4096, C = 1030;
    const unsigned fl = dnnl_use_scale | dnnl_use_shift;
    dnnl_memory_desc_t m = make_md(spec_t({R, C}, dnnl_f32, dnnl_ab));
    dnnl_memory_desc_t sm = make_md(spec_t({R}, dnnl_f32, dnnl_a));
    dnnl_memory_desc_t cm = make_md(spec_t({C}, dnnl_f32, dnnl_a));
    dnnl_primitive_desc_t fwd = nullptr, bwd = nullptr;
    ASSERT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &fwd, engine, dnnl_forward_training, m, m, nullptr, eps, fl, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_layer_normalization_backward_primitive_desc_create(&bwd, engine,
                      dnnl_backward, m, m, m, nullptr, eps, fl, fwd, nullptr),
            dnnl_success);
    EXPECT_NE(impl_name(fwd).find("cpu:lnorm:dense"), std::string::npos);
    tensor_t x(engine, m), y(engine, m, 0x55), g(engine, m), ds(engine, m, 0x55);
    tensor_t mean(engine, sm), var(engine, sm), gam(engine, cm), bet(engine, cm);
    tensor_t dgam(engine, cm, 0x55), dbet(engine, cm, 0x55);
    float *xp = static_cast<float *>(x.data()), *yp = static_cast<float *>(y.data());
    float *gp = static_cast<float *>(g.data()), *dp = static_cast<float *>(ds.data());
    float *gm = static_cast<float *>(gam.data()), *bt = static_cast<float *>(bet.data());
    for (int64_t i = 0; i < R * C; ++i) {
        xp[i] = static_cast<float>((uint64_t(i) * 2654435761u) % 4096) / 512.f - 3.f;
        gp[i] = static_cast<float>((uint64_t(i) * 40503u) % 1000) / 250.f - 2.f;
    }
    for (int64_t c = 0; c < C; ++c) {
        gm[c] = 0.5f + 0.25f * (c % 5);
        bt[c] = -1.f + 0.125f * (c % 9);
    }
    ASSERT_EQ(execute(fwd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_DST, y.mem},
                                   {DNNL_ARG_MEAN, mean.mem}, {DNNL_ARG_VARIANCE, var.mem},
                                   {DNNL_ARG_SCALE, gam.mem}, {DNNL_ARG_SHIFT, bet.mem}}),
            dnnl_success);
    ASSERT_EQ(execute(bwd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_MEAN, mean.mem},
                                   {DNNL_ARG_VARIANCE, var.mem}, {DNNL_ARG_DIFF_DST, g.mem},
                                   {DNNL_ARG_SCALE, gam.mem}, {DNNL_ARG_DIFF_SRC, ds.mem},
                                   {DNNL_ARG_DIFF_SCALE, dgam.mem},
                                   {DNNL_ARG_DIFF_SHIFT, dbet.mem}}),
            dnnl_success);
    const float *mp = static_cast<const float *>(mean.data());
    const float *vp = static_cast<const float *>(var.data());
    std::vector<double> rg(C, 0), rb(C, 0), ag(C, 0);
    int bad = 0;
    for (int64_t r = 0; r < R; ++r) {
        const float *xr = xp + r * C, *gr = gp + r * C;
        double mu = 0, v = 0;
        for (int64_t c = 0; c < C; ++c)
            mu += xr[c];
        mu /= C;
        for (int64_t c = 0; c < C; ++c)
            v += (xr[c] - mu) * (xr[c] - mu);
        v /= C;
        if ((std::fabs(mp[r] - mu) > 1e-5 || std::fabs(vp[r] - v) > 1e-5 * (1 + v)) && bad++ < 5)
            ADD_FAILURE() << "statistics of row " << r;
        const double rstd = 1 / std::sqrt(v + eps);
        double s1 = 0, s2 = 0;
        for (int64_t c = 0; c < C; ++c) {
            const double xh = (xr[c] - mu) * rstd;
            rg[c] += gr[c] * xh;
            rb[c] += gr[c];
            ag[c] += std::fabs(gr[c] * xh);
            s1 += gr[c] * gm[c];
            s2 += gr[c] * gm[c] * xh;
        }
        if (r % 17) continue;
        for (int64_t c = 0; c < C; ++c) {
            const double xh = (xr[c] - mu) * rstd;
            const double e = xh * gm[c] + bt[c];
            const double d = rstd * (gr[c] * gm[c] - s1 / C - xh * s2 / C);
            if (std::fabs(yp[r * C + c] - e) > 2e-5 * (1 + std::fabs(e)) && bad++ < 5)
                ADD_FAILURE() << "dst row " << r << " c " << c;
            if (std::fabs(dp[r * C + c] - d) > 1e-4 * (1 + std::fabs(d)) && bad++ < 5)
                ADD_FAILURE() << "diff_src row " << r << " c " << c;
        }
    }
    const float *dg = static_cast<const float *>(dgam.data());
    const float *db = static_cast<const float *>(dbet.data());
    for (int64_t c = 0; c < C; ++c) {
        if (std::fabs(dg[c] - rg[c]) > 1e-4 * (1 + ag[c]) && bad++ < 5)
            ADD_FAILURE() << "diff_scale " << c;
        if (std::fabs(db[c] - rb[c]) > 1e-4 * (1 + 2.0 * R) && bad++ < 5)
            ADD_FAILURE() << "diff_shift " << c;
    }
    EXPECT_EQ(bad, 0);
    dnnl_primitive_desc_destroy(bwd);
    dnnl_primitive_desc_destroy(fwd);
    dnnl_memory_desc_destroy(m);
    dnnl_memory_desc_destroy(sm);
    dnnl_memory_desc_destroy(cm);
}

TEST_F(lnorm_test, zero_size_is_a_no_op) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    EXPECT_EQ(run({{0, 8}, dnnl_forward_training, ss}), 2);
    EXPECT_EQ(run({{3, 0}, dnnl_forward_inference, ss}), 2);
    EXPECT_EQ(run({{0, 8}, dnnl_backward, ss}), 2);
}

TEST_F(lnorm_test, bad_arguments) {
    dnnl_memory_desc_t a = make_md(spec_t({2, 3}, dnnl_f32, dnnl_ab));
    dnnl_memory_desc_t one = make_md(spec_t({3}, dnnl_f32, dnnl_a));
    dnnl_memory_desc_t st_bad = make_md(spec_t({3}, dnnl_f32, dnnl_a));
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, one, one, nullptr, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, nullptr, -1.f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, nullptr, 1e-5f, 0x100u, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_backward, a, a, nullptr, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, st_bad, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create_v2(&pd, engine,
                      dnnl_forward_training, a, a, nullptr, dnnl_s8, 1e-5f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_layer_normalization_backward_primitive_desc_create(&pd, engine,
                      dnnl_backward, a, a, a, nullptr, 1e-5f, 0, nullptr, nullptr),
            dnnl_invalid_arguments);
    // The former stub answered unimplemented for everything; the queries map the tensors.
    ASSERT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(&pd, engine,
                      dnnl_forward_training, a, a, nullptr, 1e-5f,
                      dnnl_use_scale | dnnl_use_shift, nullptr),
            dnnl_success);
    const_dnnl_memory_desc_t mean_md = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 1);
    const_dnnl_memory_desc_t shift_md = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 1);
    ASSERT_NE(mean_md, nullptr);
    ASSERT_NE(shift_md, nullptr);
    int nd = 0;
    dnnl_memory_desc_query(mean_md, dnnl_query_ndims_s32, &nd);
    EXPECT_EQ(nd, 1);
    EXPECT_EQ(dnnl_memory_desc_get_size(shift_md), 3 * sizeof(float));
    // Forward training writes dst, mean and variance; reads src, scale and shift.
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_outputs_s32, 0), 3);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_inputs_s32, 0), 3);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(one);
    dnnl_memory_desc_destroy(st_bad);
}

} // namespace
