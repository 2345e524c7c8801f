// GPU sum against the CPU engine: one to several sources with scales, mixed data types and
// layouts, blocked tails, zero-size tensors.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

void check(const std::vector<int64_t> &dims, const std::vector<dnnl_data_type_t> &dts,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t ddt,
        dnnl_format_tag_t dtag) {
    std::vector<dnnl_memory_desc_t> srcs;
    std::vector<float> scales;
    std::vector<int> args = {DNNL_ARG_DST};
    for (size_t i = 0; i < dts.size(); ++i) {
        srcs.push_back(md(dims, dts[i], tags[i]));
        scales.push_back(0.5f + static_cast<float>(i));
        args.push_back(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i));
    }
    dnnl_memory_desc_t d = md(dims, ddt, dtag);
    EXPECT_EQ(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_sum_primitive_desc_create(pd, e, d,
                                  static_cast<int>(srcs.size()), scales.data(), srcs.data(),
                                  nullptr);
                      },
                      args, DNNL_ARG_DST),
            1);
    for (dnnl_memory_desc_t m : srcs) dnnl_memory_desc_destroy(m);
    dnnl_memory_desc_destroy(d);
}

TEST(GpuSum, SourcesScalesTypesLayouts) {
    SKIP_WITHOUT_GPU();
    check({2, 17, 3, 3}, {dnnl_f32}, {dnnl_nchw}, dnnl_f32, dnnl_nchw);
    check({2, 17, 3, 3}, {dnnl_f32, dnnl_f32, dnnl_f32}, {dnnl_nchw, dnnl_nhwc, dnnl_nChw16c},
            dnnl_f32, dnnl_nChw16c);
    check({3, 5}, {dnnl_s8, dnnl_u8}, {dnnl_ab, dnnl_ba}, dnnl_bf16, dnnl_ab);
    check({0, 5}, {dnnl_f32, dnnl_f32}, {dnnl_ab, dnnl_ab}, dnnl_f32, dnnl_ab);
}

} // namespace
