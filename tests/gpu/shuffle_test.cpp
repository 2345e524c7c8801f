// GPU shuffle against the reference of tests/primitives (shuffle_ref.hpp): forward and
// backward, axes, group sizes, blocked layouts with tails (their padding stays zero), data
// types copied bit for bit.
#include "gpu/device_copy.hpp"
#include "primitives/shuffle_ref.hpp"

namespace {

using c_tensor::tensor_t;

void check(bool fwd, std::vector<int64_t> dims, int axis, int64_t group, dnnl_data_type_t dt,
        dnnl_format_tag_t tag) {
    SCOPED_TRACE(::testing::Message()
                 << (fwd ? "forward" : "backward") << " axis " << axis << " group " << group << " "
                 << dnnl_dt2str(dt) << " " << dnnl_fmt_tag2str(tag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    dnnl_memory_desc_t m = c_tensor::make_md({dims, dt, tag});
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    if (!fwd) {
        EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                          &hint, gpu, dnnl_forward_training, m, m, axis, group, nullptr),
                dnnl_success);
    }
    EXPECT_EQ(fwd ? dnnl_shuffle_forward_primitive_desc_create(
                      &pd, gpu, dnnl_forward_training, m, m, axis, group, nullptr)
                  : dnnl_shuffle_backward_primitive_desc_create(
                          &pd, gpu, m, m, axis, group, hint, nullptr),
            dnnl_success);
    const int ia = fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST;
    const int oa = fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC;
    int impls = 0;
    if (pd) do {
            ++impls;
            const char *name = nullptr;
            dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
            SCOPED_TRACE(name ? name : "");
            const_dnnl_memory_desc_t in_md =
                    dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, ia);
            const_dnnl_memory_desc_t out_md =
                    dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, oa);
            tensor_t x(cpu, in_md), y(cpu, out_md);
            x.fill_random(7);
            gpu_test::device_memory_t dx(gpu, in_md), dy(gpu, out_md);
            ASSERT_NO_FATAL_FAILURE(dx.upload(x));
            ASSERT_NO_FATAL_FAILURE(dy.fill(0x5a));
            dnnl_primitive_t prim = nullptr;
            ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
            const dnnl_exec_arg_t args[] = {{ia, dx.mem}, {oa, dy.mem}};
            EXPECT_EQ(dnnl_primitive_execute(prim, stream, 2, args), dnnl_success);
            EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
            dnnl_primitive_destroy(prim);
            ASSERT_NO_FATAL_FAILURE(dy.download(y));
            ASSERT_NO_FATAL_FAILURE(shuffle_ref::expect_shuffled(x, y, axis, group, fwd));
            EXPECT_TRUE(y.padding_is_zero());
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    EXPECT_EQ(impls, 1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_memory_desc_destroy(m);
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuShuffle, ForwardAndBackwardOverAxesGroupsTypesAndLayouts) {
    SKIP_WITHOUT_GPU();
    for (bool fwd : {true, false}) {
        check(fwd, {2, 18, 3, 3}, 1, 3, dnnl_f32, dnnl_nchw);
        check(fwd, {2, 18, 3, 3}, 1, 6, dnnl_f32, dnnl_nChw16c);
        check(fwd, {4, 6, 5, 2}, 2, 5, dnnl_s8, dnnl_nhwc);
        check(fwd, {1, 1, 1, 1}, 0, 1, dnnl_bf16, dnnl_nchw);
    }
    check(true, {12, 3}, 0, 4, dnnl_s32, dnnl_ab);
}

} // namespace
