// PReLU forward and backward against a double-precision test-side reference: every weights
// broadcast kind, every implementation, layouts, data types, zero-size, bad arguments.
#include "c_tensor.hpp"
#include "prelu_ref.hpp"

using namespace c_tensor;

namespace {

struct prelu_test : public engine_fixture {
    void run(dims_t sd, dims_t wd, dnnl_data_type_t dt, dnnl_format_tag_t tag,
            dnnl_format_tag_t wtag, bool bwd = true, dnnl_data_type_t wdt = dnnl_data_type_undef,
            int *impls_seen = nullptr) {
        if (wdt == dnnl_data_type_undef) wdt = dt;
        SCOPED_TRACE(::testing::Message() << "dt " << dnnl_dt2str(dt) << " tag "
                                          << dnnl_fmt_tag2str(tag) << " wtag "
                                          << dnnl_fmt_tag2str(wtag));
        dnnl_memory_desc_t s = make_md({sd, dt, tag});
        dnnl_memory_desc_t w = make_md({wd, wdt, wtag});
        dnnl_primitive_desc_t fpd = nullptr, bpd = nullptr;
        ASSERT_EQ(dnnl_prelu_forward_primitive_desc_create(
                          &fpd, engine, dnnl_forward_training, s, w, s, nullptr),
                dnnl_success);
        int count = 0;
        do {
            ++count;
            SCOPED_TRACE(impl_name(fpd));
            auto q = [&](int a) { return dnnl_primitive_desc_query_md(fpd, dnnl_query_exec_arg_md, a); };
            tensor_t x(engine, q(DNNL_ARG_SRC)), wt(engine, q(DNNL_ARG_WEIGHTS)),
                    y(engine, q(DNNL_ARG_DST), 0x33);
            x.fill_random(1);
            wt.fill_random(2);
            ASSERT_EQ(execute(fpd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_WEIGHTS, wt.mem},
                              {DNNL_ARG_DST, y.mem}}),
                    dnnl_success);
            ASSERT_NO_FATAL_FAILURE(prelu_ref::expect_forward(x, wt, y, wd, dt));
        } while (dnnl_primitive_desc_next_impl(fpd) == dnnl_success);
        if (impls_seen) *impls_seen = std::max(*impls_seen, count);
        if (bwd) {
            ASSERT_EQ(dnnl_prelu_backward_primitive_desc_create(
                              &bpd, engine, s, w, s, w, s, fpd, nullptr),
                    dnnl_success);
            do {
                SCOPED_TRACE(impl_name(bpd));
                auto q = [&](int a) {
                    return dnnl_primitive_desc_query_md(bpd, dnnl_query_exec_arg_md, a);
                };
                tensor_t x(engine, q(DNNL_ARG_SRC)), wt(engine, q(DNNL_ARG_WEIGHTS)),
                        dy(engine, q(DNNL_ARG_DIFF_DST)), dx(engine, q(DNNL_ARG_DIFF_SRC), 0x33),
                        dw(engine, q(DNNL_ARG_DIFF_WEIGHTS), 0x33);
                x.fill_random(3);
                wt.fill_random(4);
                dy.fill_random(5);
                ASSERT_EQ(execute(bpd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_WEIGHTS, wt.mem},
                                  {DNNL_ARG_DIFF_DST, dy.mem}, {DNNL_ARG_DIFF_SRC, dx.mem},
                                  {DNNL_ARG_DIFF_WEIGHTS, dw.mem}}),
                        dnnl_success);
                ASSERT_NO_FATAL_FAILURE(
                        prelu_ref::expect_backward(x, wt, dy, dx, dw, wd, dt));
            } while (dnnl_primitive_desc_next_impl(bpd) == dnnl_success);
            dnnl_primitive_desc_destroy(bpd);
        }
        dnnl_primitive_desc_destroy(fpd);
        dnnl_memory_desc_destroy(s);
        dnnl_memory_desc_destroy(w);
    }
};

TEST_F(prelu_test, every_broadcast_kind_plain_f32) {
    int impls = 0;
    const dims_t sd = {2, 5, 3, 7};
    run(sd, {1, 1, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_abcd, true, dnnl_f32, &impls); // scalar
    run(sd, {1, 5, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_abcd); // per channel
    run(sd, {1, 5, 3, 7}, dnnl_f32, dnnl_nchw, dnnl_abcd); // channel + spatial
    run(sd, {2, 5, 3, 7}, dnnl_f32, dnnl_nchw, dnnl_abcd); // full
    run(sd, {2, 1, 1, 7}, dnnl_f32, dnnl_nchw, dnnl_abcd); // any other shape
    run(sd, {1, 1, 3, 1}, dnnl_f32, dnnl_nchw, dnnl_abcd);
    EXPECT_GE(impls, 2);
}

TEST_F(prelu_test, channels_last_and_blocked) {
    const dims_t sd = {2, 19, 2, 3};
    run(sd, {1, 19, 1, 1}, dnnl_f32, dnnl_nhwc, dnnl_abcd);
    run(sd, {1, 19, 1, 1}, dnnl_f32, dnnl_nChw16c, dnnl_abcd);
    run(sd, {1, 19, 2, 3}, dnnl_f32, dnnl_nhwc, dnnl_acdb);
    run(sd, {2, 19, 2, 3}, dnnl_f32, dnnl_nChw16c, dnnl_nChw16c);
    run(sd, {1, 19, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_format_tag_any);
    run({3, 37}, {1, 37}, dnnl_f32, dnnl_ab, dnnl_ab); // vector tail
    run({1, 1}, {1, 1}, dnnl_f32, dnnl_ab, dnnl_ab);
}

TEST_F(prelu_test, data_types) {
    const dims_t sd = {2, 8, 5};
    for (dnnl_data_type_t dt : {dnnl_bf16, dnnl_f16}) {
        run(sd, {1, 8, 1}, dt, dnnl_abc, dnnl_abc);
        run(sd, {1, 1, 1}, dt, dnnl_acb, dnnl_abc);
    }
    run(sd, {1, 8, 1}, dnnl_s8, dnnl_abc, dnnl_abc, false, dnnl_f32);
    run(sd, {1, 8, 1}, dnnl_u8, dnnl_abc, dnnl_abc, false, dnnl_s8);
    run(sd, {1, 8, 1}, dnnl_bf16, dnnl_abc, dnnl_abc, true, dnnl_f32);
}

// An empty batch: diff_weights are sums of nothing, zero (backward checks it).
TEST_F(prelu_test, zero_size) {
    run({0, 4, 3}, {1, 4, 1}, dnnl_f32, dnnl_abc, dnnl_abc, true);
}

TEST_F(prelu_test, bad_arguments) {
    dnnl_memory_desc_t s = make_md({{2, 4, 3}, dnnl_f32, dnnl_abc});
    dnnl_memory_desc_t w_bad = make_md({{1, 3, 1}, dnnl_f32, dnnl_abc});
    dnnl_memory_desc_t w_rank = make_md({{4}, dnnl_f32, dnnl_a});
    dnnl_memory_desc_t w = make_md({{1, 4, 1}, dnnl_f32, dnnl_abc});
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, w_bad, s, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, w_rank, s, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, engine, dnnl_backward, s, w, s, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, s, nullptr, s, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, engine, s, w, s, w, s, nullptr, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_inference, s, w, s, nullptr),
            dnnl_success);
    dnnl_primitive_desc_t bpd = nullptr;
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(
                      &bpd, engine, s, w, s, w_bad, s, pd, nullptr),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {s, w_bad, w_rank, w})
        dnnl_memory_desc_destroy(m);
}

} // namespace
