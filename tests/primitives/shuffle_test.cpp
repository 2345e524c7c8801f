// Shuffle forward and backward against a test-side permutation, every implementation,
// plain/channels-last/blocked layouts, several data types, bad arguments.
#include "c_tensor.hpp"
#include "shuffle_ref.hpp"

using namespace c_tensor;

namespace {

struct shuffle_test : public engine_fixture {
    void run(dims_t dims, int axis, int64_t G, dnnl_data_type_t dt, dnnl_format_tag_t tag,
            dnnl_format_tag_t out_tag, int *impls_seen = nullptr) {
        SCOPED_TRACE(::testing::Message() << "axis " << axis << " G " << G << " dt "
                                          << dnnl_dt2str(dt) << " tag " << dnnl_fmt_tag2str(tag));
        dnnl_memory_desc_t in = make_md({dims, dt, tag});
        dnnl_memory_desc_t out = make_md({dims, dt, out_tag});
        dnnl_primitive_desc_t fpd = nullptr, bpd = nullptr;
        ASSERT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                          &fpd, engine, dnnl_forward_training, in, out, axis, G, nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_shuffle_backward_primitive_desc_create(
                          &bpd, engine, in, out, axis, G, fpd, nullptr),
                dnnl_success);
        for (dnnl_primitive_desc_t pd : {fpd, bpd}) {
            const bool fwd = pd == fpd;
            int count = 0;
            do {
                ++count;
                SCOPED_TRACE(impl_name(pd));
                const int ia = fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST;
                const int oa = fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC;
                tensor_t x(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, ia));
                tensor_t y(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, oa),
                        0x5a);
                x.fill_random(7);
                ASSERT_EQ(execute(pd, {{ia, x.mem}, {oa, y.mem}}), dnnl_success);
                if (x.lay.nelems() == 0) continue;
                ASSERT_NO_FATAL_FAILURE(shuffle_ref::expect_shuffled(x, y, axis, G, fwd));
                EXPECT_TRUE(y.padding_is_zero());
            } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
            if (impls_seen) *impls_seen = std::max(*impls_seen, count);
        }
        dnnl_primitive_desc_destroy(fpd);
        dnnl_primitive_desc_destroy(bpd);
        dnnl_memory_desc_destroy(in);
        dnnl_memory_desc_destroy(out);
    }
};

TEST_F(shuffle_test, channels_plain_and_channels_last_every_type) {
    int impls = 0;
    for (dnnl_data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32}) {
        run({2, 12, 3, 5}, 1, 4, dt, dnnl_nchw, dnnl_nchw, &impls);
        run({2, 12, 3, 5}, 1, 3, dt, dnnl_nhwc, dnnl_nhwc);
    }
    EXPECT_GE(impls, 2); // dense and reference
}

TEST_F(shuffle_test, other_axes_group_extremes_and_odd_shapes) {
    run({3, 6, 4}, 2, 2, dnnl_f32, dnnl_abc, dnnl_abc);
    run({3, 6, 4}, 0, 3, dnnl_f32, dnnl_abc, dnnl_abc);
    run({2, 8, 3}, 1, 1, dnnl_f32, dnnl_abc, dnnl_abc);
    run({2, 8, 3}, 1, 8, dnnl_bf16, dnnl_abc, dnnl_abc);
    run({1, 15, 1, 1}, 1, 5, dnnl_f32, dnnl_nchw, dnnl_nchw);
    run({2, 10}, 1, 5, dnnl_u8, dnnl_ab, dnnl_ab);
}

TEST_F(shuffle_test, blocked_layouts_with_tails_and_mixed_layouts) {
    run({2, 20, 3, 3}, 1, 4, dnnl_f32, dnnl_nChw16c, dnnl_nChw16c);
    run({2, 20, 3, 3}, 1, 5, dnnl_f32, dnnl_nchw, dnnl_nChw16c);
    run({2, 16, 2, 3}, 3, 3, dnnl_bf16, dnnl_nChw16c, dnnl_nhwc);
    run({2, 12, 3, 5}, 1, 4, dnnl_f32, dnnl_nchw, dnnl_format_tag_any);
}

TEST_F(shuffle_test, zero_size_is_a_no_op) {
    run({0, 12, 3}, 1, 4, dnnl_f32, dnnl_abc, dnnl_abc);
    run({2, 12, 0}, 1, 3, dnnl_f32, dnnl_abc, dnnl_abc);
}

TEST_F(shuffle_test, bad_arguments) {
    dnnl_memory_desc_t a = make_md({{2, 12, 3}, dnnl_f32, dnnl_abc});
    dnnl_memory_desc_t b = make_md({{2, 12, 4}, dnnl_f32, dnnl_abc});
    dnnl_memory_desc_t c = make_md({{2, 12, 3}, dnnl_bf16, dnnl_abc});
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, 1, 5, nullptr),
            dnnl_invalid_arguments); // 12 % 5
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, 3, 1, nullptr),
            dnnl_invalid_arguments); // axis out of range
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, a, 1, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, b, 1, 4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, a, c, 1, 4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_backward_data, a, a, 1, 4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      nullptr, engine, dnnl_forward_training, a, a, 1, 4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_shuffle_backward_primitive_desc_create(&pd, engine, a, a, 1, 4, nullptr, nullptr),
            dnnl_invalid_arguments); // no hint
    // The entry points are real now (no longer the unimplemented stub).
    ASSERT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_inference, a, a, 1, 4, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
    dnnl_memory_desc_destroy(c);
}

} // namespace
