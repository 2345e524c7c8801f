// GPU concat against the reference of tests/primitives (concat_ref.hpp), every implementation
// that takes a case: axes, several sources in mixed layouts, blocked tails on the concat axis
// (padding stays zero), data type conversion, per-source scales; ocl:concat:rows where every
// tensor is rows around the axis (four-element groups under the tuned run too).
#include <functional>
#include <memory>
#include <string>

#include "gpu/device_copy.hpp"
#include "primitives/concat_ref.hpp"

namespace {

using c_tensor::tensor_t;

// Runs every implementation of the concat on the case; `impls` gets their names,
// space-separated.
void run_impls(std::string &impls, int axis, const std::vector<std::vector<int64_t>> &src_dims,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t sdt, dnnl_data_type_t ddt,
        dnnl_format_tag_t dtag, bool with_scales) {
    SCOPED_TRACE(::testing::Message()
                 << "axis " << axis << ", " << src_dims.size() << " sources, " << dnnl_dt2str(sdt)
                 << " to " << dnnl_dt2str(ddt) << " " << dnnl_fmt_tag2str(dtag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    std::vector<dnnl_memory_desc_t> srcs;
    std::vector<float> scales; // 0: no scale
    std::vector<int64_t> ddims = src_dims[0];
    ddims[axis] = 0;
    dnnl_primitive_attr_t attr = nullptr;
    if (with_scales) {
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    }
    for (size_t i = 0; i < src_dims.size(); ++i) {
        srcs.push_back(c_tensor::make_md({src_dims[i], sdt, tags[i]}));
        ddims[axis] += src_dims[i][axis];
        if (with_scales) {
            scales.push_back(0.5f + static_cast<float>(i));
            EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(
                              attr, DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), 0),
                    dnnl_success);
        }
    }
    dnnl_memory_desc_t d = c_tensor::make_md({ddims, ddt, dtag});
    std::vector<const_dnnl_memory_desc_t> csrcs(srcs.begin(), srcs.end());
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_concat_primitive_desc_create(
                      &pd, gpu, d, static_cast<int>(srcs.size()), axis, csrcs.data(), attr),
            dnnl_success);
    impls.clear();
    if (pd) do {
            const char *name = nullptr;
            dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
            impls += std::string(name ? name : "?") + " ";
            SCOPED_TRACE(name ? name : "");
            std::vector<std::unique_ptr<tensor_t>> host;
            std::vector<std::unique_ptr<gpu_test::device_memory_t>> dev;
            std::vector<dnnl_exec_arg_t> args;
            // Host tensor of descriptor m (filled by fill), uploaded to the device as arg.
            const auto add = [&](int arg, const_dnnl_memory_desc_t m,
                                     const std::function<void(tensor_t &)> &fill) {
                host.emplace_back(new tensor_t(cpu, m));
                fill(*host.back());
                dev.emplace_back(new gpu_test::device_memory_t(gpu, m));
                dev.back()->upload(*host.back());
                args.push_back({arg, dev.back()->mem});
            };
            std::vector<const tensor_t *> src_list;
            for (int i = 0; i < static_cast<int>(srcs.size()); ++i) {
                const int arg = DNNL_ARG_MULTIPLE_SRC + i;
                add(arg, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, i),
                        [&](tensor_t &t) { t.fill_random(9 + i); });
                src_list.push_back(host.back().get());
                if (with_scales) {
                    dnnl_memory_desc_t sm = c_tensor::make_md({{1}, dnnl_f32, dnnl_a});
                    add(DNNL_ARG_ATTR_SCALES | arg, sm, [&](tensor_t &t) {
                        int64_t z = 0;
                        t.set(&z, scales[i]);
                    });
                    dnnl_memory_desc_destroy(sm);
                }
            }
            const_dnnl_memory_desc_t dm = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
            tensor_t dst(cpu, dm);
            gpu_test::device_memory_t dev_dst(gpu, dm);
            ASSERT_NO_FATAL_FAILURE(dev_dst.fill(0x33));
            args.push_back({DNNL_ARG_DST, dev_dst.mem});
            dnnl_primitive_t prim = nullptr;
            ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
            EXPECT_EQ(dnnl_primitive_execute(
                              prim, stream, static_cast<int>(args.size()), args.data()),
                    dnnl_success);
            EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
            dnnl_primitive_destroy(prim);
            ASSERT_NO_FATAL_FAILURE(dev_dst.download(dst));
            concat_ref::expect_concat(src_list, axis, scales, dst);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : srcs)
        dnnl_memory_desc_destroy(m);
    dnnl_memory_desc_destroy(d);
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

std::string check(int axis, const std::vector<std::vector<int64_t>> &src_dims,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t sdt, dnnl_data_type_t ddt,
        dnnl_format_tag_t dtag, bool with_scales = false) {
    std::string impls;
    run_impls(impls, axis, src_dims, tags, sdt, ddt, dtag, with_scales);
    return impls;
}

const char *const generic = "ocl:concat:generic ";
const char *const both = "ocl:concat:rows ocl:concat:generic ";

TEST(GpuConcat, AxesLayoutsTypesScales) {
    SKIP_WITHOUT_GPU();
    EXPECT_EQ(check(1, {{2, 5, 3, 3}, {2, 7, 3, 3}}, {dnnl_nchw, dnnl_nhwc}, dnnl_f32, dnnl_f32,
                      dnnl_nChw16c),
            generic);
    EXPECT_EQ(check(0, {{1, 5, 3, 3}, {2, 5, 3, 3}, {1, 5, 3, 3}},
                      {dnnl_nchw, dnnl_nchw, dnnl_nChw8c}, dnnl_f32, dnnl_f32, dnnl_nchw),
            generic);
    EXPECT_EQ(check(3, {{2, 3, 2, 1}, {2, 3, 2, 4}}, {dnnl_nchw, dnnl_nchw}, dnnl_s8, dnnl_s8,
                      dnnl_nhwc),
            generic);
    EXPECT_EQ(check(1, {{2, 3}, {2, 0}, {2, 6}}, {dnnl_ab, dnnl_ab, dnnl_ba}, dnnl_f32, dnnl_f32,
                      dnnl_ab, true),
            generic);
}

TEST(GpuConcat, RowsOfEveryPlainLayout) {
    SKIP_WITHOUT_GPU();
    // Channels of NCHW and of NHWC, the outermost axis, the innermost axis (rows of the
    // whole width), widths that are and are not multiples of 4, a zero-size source,
    // conversions, scales, a size-1 dimension, s32 bits that f32 would round.
    EXPECT_EQ(check(1, {{2, 5, 3, 3}, {2, 7, 3, 3}}, {dnnl_nchw, dnnl_nchw}, dnnl_f32, dnnl_f32,
                      dnnl_nchw),
            both);
    EXPECT_EQ(check(1, {{2, 4, 3, 5}, {2, 8, 3, 5}, {2, 4, 3, 5}},
                      {dnnl_nhwc, dnnl_nhwc, dnnl_nhwc}, dnnl_bf16, dnnl_bf16, dnnl_nhwc),
            both);
    EXPECT_EQ(check(0, {{1, 5, 3, 3}, {2, 5, 3, 3}}, {dnnl_nchw, dnnl_nchw}, dnnl_f16, dnnl_f32,
                      dnnl_nchw),
            both);
    EXPECT_EQ(check(1, {{3, 4}, {3, 0}, {3, 8}}, {dnnl_ab, dnnl_ab, dnnl_ab}, dnnl_f32,
                      dnnl_bf16, dnnl_ab, true),
            both);
    EXPECT_EQ(check(1, {{1, 3, 1, 1}, {1, 9, 1, 1}}, {dnnl_nchw, dnnl_nhwc}, dnnl_s32, dnnl_s32,
                      dnnl_nchw),
            both);
    EXPECT_EQ(check(2, {{2, 3, 8}, {2, 3, 4}}, {dnnl_abc, dnnl_abc}, dnnl_u8, dnnl_s8, dnnl_abc),
            both);
    // Outer dimensions in another order than dst's: generic only.
    EXPECT_EQ(check(1, {{2, 4, 3, 5}, {2, 4, 3, 5}}, {dnnl_nchw, dnnl_nhwc}, dnnl_f32, dnnl_f32,
                      dnnl_nchw),
            generic);
}

} // namespace
