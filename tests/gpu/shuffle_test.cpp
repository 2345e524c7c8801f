// GPU shuffle against the CPU engine: forward and backward, axes, group sizes, blocked layouts
// with tails, data types copied bit for bit.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

void check(bool fwd, std::vector<int64_t> dims, int axis, int64_t group, dnnl_data_type_t dt,
        dnnl_format_tag_t tag) {
    dnnl_memory_desc_t m = md(dims, dt, tag);
    dnnl_primitive_desc_t hint = nullptr;
    dnnl_engine_t cpu = nullptr;
    EXPECT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    if (!fwd)
        EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(
                          &hint, cpu, dnnl_forward_training, m, m, axis, group, nullptr),
                dnnl_success);
    EXPECT_EQ(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return fwd ? dnnl_shuffle_forward_primitive_desc_create(pd, e,
                                               dnnl_forward_training, m, m, axis, group, nullptr)
                                     : dnnl_shuffle_backward_primitive_desc_create(
                                               pd, e, m, m, axis, group, hint, nullptr);
                      },
                      fwd ? std::vector<int> {DNNL_ARG_SRC, DNNL_ARG_DST}
                          : std::vector<int> {DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC},
                      fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC, 0.f),
            1);
    dnnl_primitive_desc_destroy(hint);
    dnnl_engine_destroy(cpu);
    dnnl_memory_desc_destroy(m);
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
