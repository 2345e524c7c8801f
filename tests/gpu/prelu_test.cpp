// GPU PReLU forward and backward against the reference of tests/primitives (prelu_ref.hpp):
// every weights broadcast kind, blocked layouts with tails, data types, one element, an empty
// batch; attributes unimplemented. Each implementation that takes a case runs it: plain dense
// ones with the weights' dims in src's order take ocl:prelu:dense as well as the generic kernel.
#include "gpu/device_copy.hpp"
#include "primitives/prelu_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

void check(const std::vector<int64_t> &dims, const std::vector<int64_t> &wdims, dnnl_data_type_t dt,
        dnnl_format_tag_t tag, dnnl_format_tag_t wtag, int impls) {
    SCOPED_TRACE(
            ::testing::Message() << "forward " << dnnl_dt2str(dt) << " " << dnnl_fmt_tag2str(tag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md(dims, dt, tag), w = md(wdims, dnnl_f32, wtag);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, gpu, dnnl_forward_inference, s, w, s, nullptr),
            dnnl_success);
    if (pd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS}, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &t) {
                              prelu_ref::expect_forward(*t[0], *t[1], *t[2], wdims, dt);
                          }),
                impls);
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuPrelu, ForwardBroadcastKinds) {
    SKIP_WITHOUT_GPU();
    check({2, 17, 3, 3}, {1, 1, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_nchw, 2);
    check({2, 17, 3, 3}, {1, 17, 1, 1}, dnnl_f32, dnnl_nChw16c, dnnl_nchw, 1);
    check({2, 17, 3, 3}, {2, 1, 3, 1}, dnnl_bf16, dnnl_nhwc, dnnl_nchw, 2);
    check({2, 17, 3, 3}, {2, 17, 3, 3}, dnnl_f32, dnnl_nchw, dnnl_nhwc, 1); // orders differ
}

// Backward: diff_src and diff_weights (the reduction over the broadcast dims).
void check_bwd(const std::vector<int64_t> &dims, const std::vector<int64_t> &wdims,
        dnnl_data_type_t dt, dnnl_format_tag_t tag, dnnl_format_tag_t wtag, int impls) {
    SCOPED_TRACE(
            ::testing::Message() << "backward " << dnnl_dt2str(dt) << " " << dnnl_fmt_tag2str(tag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md(dims, dt, tag), w = md(wdims, dt, wtag);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &hint, gpu, dnnl_forward_training, s, w, s, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, gpu, s, w, s, w, s, hint, nullptr),
            dnnl_success);
    if (pd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST},
                          {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_WEIGHTS},
                          [&](const std::vector<tensor_t *> &t) {
                              prelu_ref::expect_backward(
                                      *t[0], *t[1], *t[2], *t[3], *t[4], wdims, dt);
                          }),
                impls);
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuPrelu, BackwardBroadcastKinds) {
    SKIP_WITHOUT_GPU();
    check_bwd({2, 17, 3, 3}, {1, 1, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_nchw, 2);        // scalar
    check_bwd({2, 17, 3, 3}, {1, 17, 1, 1}, dnnl_f32, dnnl_nChw16c, dnnl_nchw, 1);    // blocked tail
    check_bwd({2, 17, 3, 3}, {2, 1, 3, 1}, dnnl_f32, dnnl_nhwc, dnnl_nchw, 2);        // a subset
    check_bwd({2, 17, 3, 3}, {2, 17, 3, 3}, dnnl_f32, dnnl_nchw, dnnl_nhwc, 1);       // full
    check_bwd({2, 20, 3, 3}, {1, 20, 1, 1}, dnnl_f32, dnnl_nChw16c, dnnl_aBcd16b, 1); // padded dw
    check_bwd({1, 1}, {1, 1}, dnnl_f32, dnnl_ab, dnnl_ab, 2);                         // one element
    check_bwd({3, 7, 5}, {1, 7, 1}, dnnl_bf16, dnnl_abc, dnnl_abc, 2);
}

// An empty batch: diff_weights are sums over nothing, zero (written: the outputs start as
// 0x33 bytes).
TEST(GpuPrelu, BackwardEmptyBatchGivesZeroDiffWeights) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md({0, 4, 3}, dnnl_f32, dnnl_abc), w = md({1, 4, 1}, dnnl_f32, dnnl_abc);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    ASSERT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &hint, gpu, dnnl_forward_training, s, w, s, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, gpu, s, w, s, w, s, hint, nullptr),
            dnnl_success);
    EXPECT_EQ(run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST},
                      {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_WEIGHTS},
                      [&](const std::vector<tensor_t *> &t) {
                          EXPECT_EQ(c_tensor::values(*t[4]), std::vector<double>(4, 0.0));
                      }),
            1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuPrelu, AttributesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md({2, 3}, dnnl_f32, dnnl_ab), w = md({1, 3}, dnnl_f32, dnnl_ab);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &pd, gpu, dnnl_forward_training, s, w, s, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
    dnnl_engine_destroy(gpu);
}

} // namespace
