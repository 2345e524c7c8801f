// LRN across and within channels, forward and backward (no workspace needed), against a
// double-precision test-side reference; every implementation, plain/channels-last/blocked
// layouts, f32/bf16/f16, 1 to 3 spatial dims, even and odd local sizes, bad arguments.
#include "c_tensor.hpp"
#include "lrn_ref.hpp"

using namespace c_tensor;

namespace {

struct lrn_test : public engine_fixture {
    using params_t = lrn_ref::params_t;

    void run(dims_t d, params_t p, dnnl_data_type_t dt, dnnl_format_tag_t tag,
            int *impls_seen = nullptr) {
        SCOPED_TRACE(::testing::Message() << (p.alg == dnnl_lrn_across_channels ? "across" : "within")
                                          << " ls " << p.ls << " dt " << dnnl_dt2str(dt)
                                          << " tag " << dnnl_fmt_tag2str(tag));
        dnnl_memory_desc_t s = make_md({d, dt, tag});
        dnnl_memory_desc_t any = make_md({d, dt, dnnl_format_tag_any});
        dnnl_primitive_desc_t fpd = nullptr, bpd = nullptr;
        ASSERT_EQ(dnnl_lrn_forward_primitive_desc_create(&fpd, engine, dnnl_forward_training,
                          p.alg, s, any, p.ls, float(p.alpha), float(p.beta), float(p.k), nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_lrn_backward_primitive_desc_create(&bpd, engine, p.alg, any, any, s, p.ls,
                          float(p.alpha), float(p.beta), float(p.k), fpd, nullptr),
                dnnl_success);
        int count = 0;
        do {
            ++count;
            SCOPED_TRACE(impl_name(fpd));
            auto q = [&](int arg) { return dnnl_primitive_desc_query_md(fpd, dnnl_query_exec_arg_md, arg); };
            tensor_t x(engine, q(DNNL_ARG_SRC)), y(engine, q(DNNL_ARG_DST), 0x44);
            x.fill_random(11);
            ASSERT_EQ(execute(fpd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_DST, y.mem}}), dnnl_success);
            ASSERT_NO_FATAL_FAILURE(lrn_ref::expect_forward(x, y, d, p, dt));
        } while (dnnl_primitive_desc_next_impl(fpd) == dnnl_success);
        do {
            ++count;
            SCOPED_TRACE(impl_name(bpd));
            auto q = [&](int arg) { return dnnl_primitive_desc_query_md(bpd, dnnl_query_exec_arg_md, arg); };
            tensor_t x(engine, q(DNNL_ARG_SRC)), dy(engine, q(DNNL_ARG_DIFF_DST)),
                    dx(engine, q(DNNL_ARG_DIFF_SRC), 0x44);
            x.fill_random(12);
            dy.fill_random(13);
            ASSERT_EQ(execute(bpd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_DIFF_DST, dy.mem},
                              {DNNL_ARG_DIFF_SRC, dx.mem}}),
                    dnnl_success);
            ASSERT_NO_FATAL_FAILURE(lrn_ref::expect_backward(x, dy, dx, d, p, dt));
        } while (dnnl_primitive_desc_next_impl(bpd) == dnnl_success);
        if (impls_seen) *impls_seen = std::max(*impls_seen, count);
        dnnl_primitive_desc_destroy(fpd);
        dnnl_primitive_desc_destroy(bpd);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(any);
    }
};

TEST_F(lrn_test, across_channels_layouts_and_sizes) {
    int impls = 0;
    const params_t p5 {dnnl_lrn_across_channels, 5, 1e-1, 0.75, 1.0};
    run({2, 7, 3, 4}, p5, dnnl_f32, dnnl_nchw, &impls);
    EXPECT_GE(impls, 4); // plain and ref, forward and backward
    run({2, 7, 3, 4}, p5, dnnl_f32, dnnl_nhwc);
    run({2, 19, 2, 3}, p5, dnnl_f32, dnnl_nChw16c);
    run({2, 6, 3, 4}, {dnnl_lrn_across_channels, 4, 2e-1, 0.5, 2.0}, dnnl_f32, dnnl_nchw);
    run({1, 3, 5}, {dnnl_lrn_across_channels, 7, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_ncw);
    run({3, 5}, {dnnl_lrn_across_channels, 3, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_nc);
    run({1, 1, 1, 1}, {dnnl_lrn_across_channels, 1, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_nchw);
}

TEST_F(lrn_test, within_channel_1d_2d_3d) {
    const params_t p3 {dnnl_lrn_within_channel, 3, 1e-1, 0.75, 1.0};
    run({2, 3, 5, 6}, p3, dnnl_f32, dnnl_nchw);
    run({2, 3, 5, 6}, p3, dnnl_f32, dnnl_nhwc);
    run({2, 17, 3, 4}, p3, dnnl_f32, dnnl_nChw16c);
    run({1, 2, 7}, {dnnl_lrn_within_channel, 5, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_ncw);
    run({1, 2, 3, 4, 5}, p3, dnnl_f32, dnnl_ncdhw);
    run({1, 2, 4, 5}, {dnnl_lrn_within_channel, 2, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_nchw);
}

TEST_F(lrn_test, low_precision) {
    const params_t p5 {dnnl_lrn_across_channels, 5, 1e-1, 0.75, 1.0};
    run({2, 8, 3, 3}, p5, dnnl_bf16, dnnl_nchw);
    run({2, 8, 3, 3}, p5, dnnl_f16, dnnl_nhwc);
    run({2, 4, 3, 3}, {dnnl_lrn_within_channel, 3, 1e-1, 0.75, 1.0}, dnnl_bf16, dnnl_nchw);
}

TEST_F(lrn_test, zero_size) {
    run({0, 8, 3, 3}, {dnnl_lrn_across_channels, 5, 1e-1, 0.75, 1.0}, dnnl_f32, dnnl_nchw);
}

TEST_F(lrn_test, bad_arguments) {
    dnnl_memory_desc_t s = make_md({{2, 4, 3, 3}, dnnl_f32, dnnl_nchw});
    dnnl_memory_desc_t s2 = make_md({{2, 4}, dnnl_f32, dnnl_nc});
    dnnl_memory_desc_t o = make_md({{2, 4, 3, 4}, dnnl_f32, dnnl_nchw});
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_eltwise_relu, s, s, 5, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_lrn_across_channels, s, s, 0, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_lrn_across_channels, s, o, 5, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_forward_training,
                      dnnl_lrn_within_channel, s2, s2, 5, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_backward_data,
                      dnnl_lrn_across_channels, s, s, 5, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_lrn_backward_primitive_desc_create(&pd, engine, dnnl_lrn_across_channels, s,
                      s, s, 5, 1e-4f, 0.75f, 1.f, nullptr, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_lrn_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                      dnnl_lrn_across_channels, s, s, 5, 1e-4f, 0.75f, 1.f, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {s, s2, o})
        dnnl_memory_desc_destroy(m);
}

} // namespace
