// GPU concat against the CPU engine: axes, several sources in mixed layouts, blocked tails on
// the concat axis, data type conversion, per-source scales.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

void check(int axis, const std::vector<std::vector<int64_t>> &src_dims,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t sdt,
        dnnl_data_type_t ddt, dnnl_format_tag_t dtag, bool scales = false) {
    std::vector<dnnl_memory_desc_t> srcs;
    std::vector<int> args = {DNNL_ARG_DST};
    std::vector<int64_t> ddims = src_dims[0];
    ddims[axis] = 0;
    dnnl_primitive_attr_t attr = nullptr;
    if (scales) EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    for (size_t i = 0; i < src_dims.size(); ++i) {
        srcs.push_back(md(src_dims[i], sdt, tags[i]));
        ddims[axis] += src_dims[i][axis];
        args.push_back(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i));
        if (scales) {
            const int arg = DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i);
            EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, arg, 0), dnnl_success);
            args.push_back(DNNL_ARG_ATTR_SCALES | arg);
        }
    }
    dnnl_memory_desc_t d = md(ddims, ddt, dtag);
    EXPECT_EQ(expect_gpu_matches_cpu(
                      [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                          return dnnl_concat_primitive_desc_create(pd, e, d,
                                  static_cast<int>(srcs.size()), axis, srcs.data(), attr);
                      },
                      args, DNNL_ARG_DST),
            1);
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : srcs) dnnl_memory_desc_destroy(m);
    dnnl_memory_desc_destroy(d);
}

TEST(GpuConcat, AxesLayoutsTypesScales) {
    SKIP_WITHOUT_GPU();
    check(1, {{2, 5, 3, 3}, {2, 7, 3, 3}}, {dnnl_nchw, dnnl_nhwc}, dnnl_f32, dnnl_f32,
            dnnl_nChw16c);
    check(0, {{1, 5, 3, 3}, {2, 5, 3, 3}, {1, 5, 3, 3}}, {dnnl_nchw, dnnl_nchw, dnnl_nChw8c},
            dnnl_f32, dnnl_f32, dnnl_nchw);
    check(3, {{2, 3, 2, 1}, {2, 3, 2, 4}}, {dnnl_nchw, dnnl_nchw}, dnnl_s8, dnnl_s8, dnnl_nhwc);
    check(1, {{2, 3}, {2, 0}, {2, 6}}, {dnnl_ab, dnnl_ab, dnnl_ba}, dnnl_f32, dnnl_f32, dnnl_ab,
            true);
}

} // namespace
