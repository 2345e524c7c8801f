// Group normalization forward (training, inference, global stats, scale/shift, post-ops, s8/u8
// dst) and backward (data; scale/shift gradients) against the double-precision reference of
// group_normalization_ref.hpp; every implementation, plain/channels-last/blocked layouts, bad arguments.
#include "c_tensor.hpp"
#include "group_normalization_ref.hpp"

using namespace c_tensor;

namespace {

struct gnorm_test : public engine_fixture {
    static void set_values(tensor_t &t, const std::vector<double> &v) {
        int64_t pos[DNNL_MAX_NDIMS] = {};
        size_t i = 0;
        if (t.lay.nelems() == 0) return;
        do
            t.set(pos, static_cast<float>(v[i++]));
        while (next_pos(pos, t.lay.dims, t.lay.ndims));
    }

    struct case_t {
        dims_t dims;
        int64_t G;
        unsigned flags;
        dnnl_data_type_t dt = dnnl_f32, ddt = dnnl_f32;
        dnnl_format_tag_t tag = dnnl_format_tag_undef;
        bool relu = false;
    };

    void run(const case_t &c, dnnl_prop_kind_t prop, int *impls_seen = nullptr) {
        SCOPED_TRACE(::testing::Message() << "G " << c.G << " flags " << c.flags << " dt "
                                          << dnnl_dt2str(c.dt) << "->" << dnnl_dt2str(c.ddt)
                                          << " tag " << dnnl_fmt_tag2str(c.tag) << " prop "
                                          << dnnl_prop_kind2str(prop));
        const int64_t N = c.dims[0], C = c.dims[1], G = c.G, Cg = C / G;
        int64_t SP = 1;
        for (size_t k = 2; k < c.dims.size(); ++k)
            SP *= c.dims[k];
        const double eps = 1e-3;
        const group_normalization_ref::shape_t shape(c.dims, G);
        dnnl_memory_desc_t s = make_md({c.dims, c.dt, c.tag});
        dnnl_memory_desc_t dm = make_md({c.dims, c.ddt, c.tag});
        dnnl_primitive_attr_t attr = nullptr;
        if (c.relu) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_primitive_attr_create(&attr);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        const bool fwd = prop == dnnl_forward_training || prop == dnnl_forward_inference;
        dnnl_primitive_desc_t fpd = nullptr, pd = nullptr;
        ASSERT_EQ(dnnl_group_normalization_forward_primitive_desc_create(&fpd, engine,
                          fwd ? prop : dnnl_forward_training, s, dm, G, float(eps), c.flags, attr),
                dnnl_success);
        if (fwd) {
            pd = fpd;
        } else {
            ASSERT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, engine, prop,
                              s, s, s, G, float(eps), c.flags, fpd, nullptr),
                    dnnl_success);
        }
        const bool global = c.flags & dnnl_use_global_stats;
        const bool use_scale = c.flags & dnnl_use_scale, use_shift = c.flags & dnnl_use_shift;
        int count = 0;
        do {
            ++count;
            SCOPED_TRACE(impl_name(pd));
            auto q = [&](int a) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, a); };
            dnnl_memory_desc_t stat_md = make_md({{N, G}, dnnl_f32, dnnl_ab});
            dnnl_memory_desc_t ss_md = make_md({{C}, dnnl_f32, dnnl_a});
            tensor_t x(engine, q(DNNL_ARG_SRC)), mean(engine, stat_md), var(engine, stat_md),
                    scale(engine, ss_md), shift(engine, ss_md), dscale(engine, ss_md, 0x11),
                    dshift(engine, ss_md, 0x11);
            x.fill_random(21);
            scale.fill_random(22);
            shift.fill_random(23);
            const auto xv = values(x), gam = values(scale), bet = values(shift);
            // Statistics: computed here, or given to the library (global stats / backward).
            std::vector<double> mu, va;
            group_normalization_ref::statistics(xv, shape, mu, va);
            if (global || !fwd) {
                if (global) // arbitrary given statistics
                    for (size_t w = 0; w < mu.size(); ++w) {
                        mu[w] = 0.25 * (w % 3);
                        va[w] = 0.5 + 0.25 * (w % 4);
                    }
                // Round through f32, as the library reads them.
                for (size_t w = 0; w < mu.size(); ++w) {
                    mu[w] = float(mu[w]);
                    va[w] = float(va[w]);
                }
                set_values(mean, mu);
                set_values(var, va);
            }
            std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, x.mem}};
            if (use_scale) args.push_back({DNNL_ARG_SCALE, scale.mem});
            if (fwd) {
                tensor_t y(engine, q(DNNL_ARG_DST), 0x22);
                args.push_back({DNNL_ARG_DST, y.mem});
                if (use_shift) args.push_back({DNNL_ARG_SHIFT, shift.mem});
                if (global || prop == dnnl_forward_training) {
                    args.push_back({DNNL_ARG_MEAN, mean.mem});
                    args.push_back({DNNL_ARG_VARIANCE, var.mem});
                }
                ASSERT_EQ(execute(pd, args), dnnl_success);
                const auto yv = values(y);
                for (int64_t n = 0; n < N; ++n)
                    for (int64_t ch = 0; ch < C; ++ch)
                        for (int64_t i = 0; i < SP; ++i) {
                            const int64_t w = n * G + ch / Cg, e_i = (n * C + ch) * SP + i;
                            double e = group_normalization_ref::forward(xv[e_i], mu[w], va[w],
                                    eps, use_scale ? gam[ch] : 1.0, use_shift ? bet[ch] : 0.0);
                            if (c.relu) e = std::max(e, 0.0);
                            const double tol = c.ddt == dnnl_f32 ? 1e-4 * (std::fabs(e) + 1)
                                    : (c.ddt == dnnl_s8 || c.ddt == dnnl_u8)
                                    ? 1.0
                                    : tolerance(c.ddt, float(e)) + 2e-3;
                            const double er = (c.ddt == dnnl_s8 || c.ddt == dnnl_u8)
                                    ? round_to(c.ddt, float(e))
                                    : e;
                            ASSERT_NEAR(yv[e_i], er, tol) << "at " << e_i;
                        }
                if (prop == dnnl_forward_training && !global) {
                    const auto mv = values(mean), vv = values(var);
                    for (size_t w = 0; w < mu.size(); ++w) {
                        ASSERT_NEAR(mv[w], mu[w], 1e-4 * (std::fabs(mu[w]) + 1));
                        ASSERT_NEAR(vv[w], va[w], 1e-4 * (std::fabs(va[w]) + 1));
                    }
                }
                EXPECT_TRUE(y.padding_is_zero());
            } else {
                tensor_t dy(engine, q(DNNL_ARG_DIFF_DST)), dx(engine, q(DNNL_ARG_DIFF_SRC), 0x22);
                dy.fill_random(24);
                args.push_back({DNNL_ARG_DIFF_DST, dy.mem});
                args.push_back({DNNL_ARG_DIFF_SRC, dx.mem});
                args.push_back({DNNL_ARG_MEAN, mean.mem});
                args.push_back({DNNL_ARG_VARIANCE, var.mem});
                const bool grads = prop == dnnl_backward;
                if (grads && use_scale) args.push_back({DNNL_ARG_DIFF_SCALE, dscale.mem});
                if (grads && use_shift) args.push_back({DNNL_ARG_DIFF_SHIFT, dshift.mem});
                ASSERT_EQ(execute(pd, args), dnnl_success);
                const auto gv = values(dy), ov = values(dx);
                const group_normalization_ref::backward_t want = group_normalization_ref::backward(
                        xv, gv, mu, va, use_scale ? gam : std::vector<double>(), shape, eps, global);
                const double tol_base = c.dt == dnnl_f32 ? 1e-4 : 3e-2;
                for (size_t e_i = 0; e_i < ov.size(); ++e_i) {
                    const double e = want.diff_src[e_i];
                    ASSERT_NEAR(ov[e_i], e, tol_base * (std::fabs(e) + 1)) << e_i;
                }
                const auto dsv = values(dscale), dbv = values(dshift);
                for (int64_t ch = 0; grads && ch < C; ++ch) {
                    const double es = want.diff_scale[ch], eb = want.diff_shift[ch];
                    if (use_scale) {
                        ASSERT_NEAR(dsv[ch], es, tol_base * (std::fabs(es) + 1));
                    }
                    if (use_shift) {
                        ASSERT_NEAR(dbv[ch], eb, tol_base * (std::fabs(eb) + 1));
                    }
                }
                EXPECT_TRUE(dx.padding_is_zero());
            }
            dnnl_memory_desc_destroy(stat_md);
            dnnl_memory_desc_destroy(ss_md);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        if (impls_seen) *impls_seen = std::max(*impls_seen, count);
        if (pd != fpd) dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_desc_destroy(fpd);
        if (attr) dnnl_primitive_attr_destroy(attr);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(dm);
    }
};

const unsigned SS = dnnl_use_scale | dnnl_use_shift;

TEST_F(gnorm_test, forward_every_flag_combination) {
    int impls = 0;
    for (unsigned flags = 0; flags < 8; ++flags)
        for (auto prop : {dnnl_forward_training, dnnl_forward_inference})
            run({{2, 8, 3, 5}, 4, flags, dnnl_f32, dnnl_f32, dnnl_nchw}, prop, &impls);
    EXPECT_GE(impls, 2);
}

TEST_F(gnorm_test, backward_every_flag_combination) {
    for (unsigned flags = 0; flags < 8; ++flags)
        for (auto prop : {dnnl_backward, dnnl_backward_data})
            run({{2, 6, 3, 4}, 3, flags, dnnl_f32, dnnl_f32, dnnl_nchw}, prop);
}

TEST_F(gnorm_test, layouts_and_shapes) {
    for (auto prop : {dnnl_forward_training, dnnl_backward}) {
        run({{2, 8, 3, 5}, 2, SS, dnnl_f32, dnnl_f32, dnnl_nhwc}, prop);
        run({{2, 20, 2, 3}, 5, SS, dnnl_f32, dnnl_f32, dnnl_nChw16c}, prop);
        run({{3, 6}, 3, SS, dnnl_f32, dnnl_f32, dnnl_nc}, prop);
        run({{1, 4, 7}, 1, SS, dnnl_f32, dnnl_f32, dnnl_ncw}, prop);
        run({{1, 4, 2, 3, 2}, 4, SS, dnnl_f32, dnnl_f32, dnnl_ncdhw}, prop);
        run({{1, 1, 1, 1}, 1, SS, dnnl_f32, dnnl_f32, dnnl_nchw}, prop);
    }
}

TEST_F(gnorm_test, data_types_and_post_ops) {
    for (auto dt : {dnnl_bf16, dnnl_f16}) {
        run({{2, 8, 3, 3}, 4, SS, dt, dt, dnnl_nchw}, dnnl_forward_training);
        run({{2, 8, 3, 3}, 4, SS, dt, dt, dnnl_nhwc}, dnnl_backward);
    }
    run({{2, 8, 3, 3}, 4, SS, dnnl_f32, dnnl_s8, dnnl_nchw}, dnnl_forward_inference);
    run({{2, 8, 3, 3}, 2, SS, dnnl_bf16, dnnl_u8, dnnl_nhwc}, dnnl_forward_inference);
    // s8/u8 sources (oneDNN's forward takes them), into float or integer destinations.
    run({{2, 8, 3, 3}, 4, SS, dnnl_s8, dnnl_bf16, dnnl_nchw}, dnnl_forward_inference);
    run({{3, 6, 5}, 3, SS, dnnl_u8, dnnl_f32, dnnl_nwc}, dnnl_forward_training);
    run({{2, 5, 7}, 5, 0u, dnnl_s8, dnnl_s8, dnnl_ncw}, dnnl_forward_training);
    run({{1, 4, 3, 3}, 2, SS, dnnl_u8, dnnl_u8, dnnl_nhwc}, dnnl_forward_inference);
    case_t relu {{2, 8, 3, 3}, 4, SS, dnnl_f32, dnnl_f32, dnnl_nchw, true};
    run(relu, dnnl_forward_inference);
}

TEST_F(gnorm_test, zero_size) {
    run({{0, 8, 3}, 4, SS, dnnl_f32, dnnl_f32, dnnl_ncw}, dnnl_forward_inference);
    run({{2, 8, 0}, 4, SS, dnnl_f32, dnnl_f32, dnnl_ncw}, dnnl_forward_inference);
}

TEST_F(gnorm_test, bad_arguments) {
    dnnl_memory_desc_t s = make_md({{2, 6, 3}, dnnl_f32, dnnl_ncw});
    dnnl_memory_desc_t o = make_md({{2, 6, 4}, dnnl_f32, dnnl_ncw});
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, s, 4, 1e-3f, 0, nullptr),
            dnnl_invalid_arguments); // 6 % 4
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, s, 0, 1e-3f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, o, 3, 1e-3f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, s, 3, -1.f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, s, 3, 1e-3f, dnnl_rms_norm, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_backward, s, s, 3, 1e-3f, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&pd, engine,
                      dnnl_backward, s, s, s, 3, 1e-3f, 0, nullptr, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, s, 3, 1e-3f, SS, nullptr),
            dnnl_success);
    // Statistics and scale/shift through the normalization queries.
    const_dnnl_memory_desc_t mean = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 1);
    ASSERT_NE(mean, nullptr);
    layout_t ml(mean);
    EXPECT_EQ(ml.ndims, 2);
    EXPECT_EQ(ml.dims[0], 2);
    EXPECT_EQ(ml.dims[1], 3);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_group_normalization_backward_primitive_desc_create(&bpd, engine,
                      dnnl_forward_training, s, s, s, 3, 1e-3f, 0, pd, nullptr),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(o);
}

} // namespace
