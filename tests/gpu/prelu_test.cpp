// GPU PReLU forward against the CPU engine: every weights broadcast kind, blocked layouts with
// tails, data types; backward is dnnl_unimplemented on the GPU.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

void check(const std::vector<int64_t> &dims, const std::vector<int64_t> &wdims,
        dnnl_data_type_t dt, dnnl_format_tag_t tag, dnnl_format_tag_t wtag) {
    dnnl_memory_desc_t s = md(dims, dt, tag), w = md(wdims, dnnl_f32, wtag);
    EXPECT_EQ(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_prelu_forward_primitive_desc_create(
                                  pd, e, dnnl_forward_inference, s, w, s, nullptr);
                      },
                      {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST}, DNNL_ARG_DST),
            1);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
}

TEST(GpuPrelu, ForwardBroadcastKinds) {
    SKIP_WITHOUT_GPU();
    check({2, 17, 3, 3}, {1, 1, 1, 1}, dnnl_f32, dnnl_nchw, dnnl_nchw);
    check({2, 17, 3, 3}, {1, 17, 1, 1}, dnnl_f32, dnnl_nChw16c, dnnl_nchw);
    check({2, 17, 3, 3}, {2, 1, 3, 1}, dnnl_bf16, dnnl_nhwc, dnnl_nchw);
    check({2, 17, 3, 3}, {2, 17, 3, 3}, dnnl_f32, dnnl_nchw, dnnl_nhwc);
}

TEST(GpuPrelu, BackwardIsUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md({2, 3}, dnnl_f32, dnnl_ab), w = md({1, 3}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    ASSERT_EQ(dnnl_prelu_forward_primitive_desc_create(
                      &hint, gpu, dnnl_forward_training, s, w, s, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_prelu_backward_primitive_desc_create(&pd, gpu, s, w, s, w, s, hint, nullptr),
            dnnl_unimplemented);
    dnnl_primitive_desc_destroy(hint);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(w);
    dnnl_engine_destroy(gpu);
}

} // namespace
