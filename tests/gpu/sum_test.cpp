// GPU sum against the reference of tests/primitives (sum_ref.hpp), every implementation that
// takes a case: one to several sources with scales, mixed data types and layouts, blocked
// tails (padding stays zero), zero-size tensors; ocl:sum:dense for up to 8 sources of one
// dense layout, the generic kernel for the rest.
#include <memory>
#include <string>

#include "gpu/device_copy.hpp"
#include "primitives/sum_ref.hpp"

namespace {

using c_tensor::tensor_t;

// Runs every implementation of the sum on the case; `impls` gets their names, space-separated.
void check(std::string &impls, const std::vector<int64_t> &dims, const std::vector<dnnl_data_type_t> &dts,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t ddt, dnnl_format_tag_t dtag) {
    SCOPED_TRACE(::testing::Message() << dts.size() << " sources to " << dnnl_dt2str(ddt) << " "
                                      << dnnl_fmt_tag2str(dtag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    std::vector<dnnl_memory_desc_t> srcs;
    std::vector<float> scales;
    for (size_t i = 0; i < dts.size(); ++i) {
        srcs.push_back(c_tensor::make_md({dims, dts[i], tags[i]}));
        scales.push_back(0.5f + static_cast<float>(i));
    }
    dnnl_memory_desc_t d = c_tensor::make_md({dims, ddt, dtag});
    std::vector<const_dnnl_memory_desc_t> csrcs(srcs.begin(), srcs.end());
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, gpu, d, static_cast<int>(srcs.size()),
                      scales.data(), csrcs.data(), nullptr),
            dnnl_success);
    impls.clear();
    if (pd) do {
            const char *name = nullptr;
            dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
            impls += std::string(name ? name : "?") + " ";
            SCOPED_TRACE(name ? name : "");
            std::vector<std::unique_ptr<tensor_t>> host_srcs;
            std::vector<std::unique_ptr<gpu_test::device_memory_t>> dev_srcs;
            std::vector<dnnl_exec_arg_t> args;
            for (int i = 0; i < static_cast<int>(srcs.size()); ++i) {
                const_dnnl_memory_desc_t m = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, i);
                host_srcs.emplace_back(new tensor_t(cpu, m));
                host_srcs.back()->fill_random(5 + i);
                dev_srcs.emplace_back(new gpu_test::device_memory_t(gpu, m));
                ASSERT_NO_FATAL_FAILURE(dev_srcs.back()->upload(*host_srcs.back()));
                args.push_back({DNNL_ARG_MULTIPLE_SRC + i, dev_srcs.back()->mem});
            }
            const_dnnl_memory_desc_t dm = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
            tensor_t dst(cpu, dm);
            gpu_test::device_memory_t dev_dst(gpu, dm);
            ASSERT_NO_FATAL_FAILURE(dev_dst.fill(0x55));
            args.push_back({DNNL_ARG_DST, dev_dst.mem});
            dnnl_primitive_t prim = nullptr;
            ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
            EXPECT_EQ(dnnl_primitive_execute(
                              prim, stream, static_cast<int>(args.size()), args.data()),
                    dnnl_success);
            EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
            dnnl_primitive_destroy(prim);
            ASSERT_NO_FATAL_FAILURE(dev_dst.download(dst));
            std::vector<const tensor_t *> src_list;
            for (const auto &s : host_srcs)
                src_list.push_back(s.get());
            sum_ref::expect_sum(src_list, scales, dst);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_desc_t m : srcs)
        dnnl_memory_desc_destroy(m);
    dnnl_memory_desc_destroy(d);
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

std::string check(const std::vector<int64_t> &dims, const std::vector<dnnl_data_type_t> &dts,
        const std::vector<dnnl_format_tag_t> &tags, dnnl_data_type_t ddt, dnnl_format_tag_t dtag) {
    std::string impls;
    check(impls, dims, dts, tags, ddt, dtag);
    return impls;
}

TEST(GpuSum, SourcesScalesTypesLayouts) {
    SKIP_WITHOUT_GPU();
    EXPECT_EQ(check({2, 17, 3, 3}, {dnnl_f32}, {dnnl_nchw}, dnnl_f32, dnnl_nchw),
            "ocl:sum:dense ocl:sum:generic ");
    EXPECT_EQ(check({2, 17, 3, 3}, {dnnl_f32, dnnl_f32, dnnl_f32},
                      {dnnl_nchw, dnnl_nhwc, dnnl_nChw16c}, dnnl_f32, dnnl_nChw16c),
            "ocl:sum:generic ");
    EXPECT_EQ(check({3, 5}, {dnnl_s8, dnnl_u8}, {dnnl_ab, dnnl_ba}, dnnl_bf16, dnnl_ab),
            "ocl:sum:generic ");
    check({0, 5}, {dnnl_f32, dnnl_f32}, {dnnl_ab, dnnl_ab}, dnnl_f32, dnnl_ab);
}

TEST(GpuSum, DenseSourcesInOneLaunch) {
    SKIP_WITHOUT_GPU();
    // Mixed types, odd sizes (tails of four-element groups), 1 element, 8 sources (the
    // kernel's most) and 9 (generic only), channels-last.
    EXPECT_EQ(check({3, 7, 5}, {dnnl_f32, dnnl_bf16, dnnl_s8}, {dnnl_abc, dnnl_abc, dnnl_abc},
                      dnnl_f32, dnnl_abc),
            "ocl:sum:dense ocl:sum:generic ");
    EXPECT_EQ(check({1, 1}, {dnnl_f16, dnnl_f32}, {dnnl_ab, dnnl_ab}, dnnl_f16, dnnl_ab),
            "ocl:sum:dense ocl:sum:generic ");
    const std::vector<dnnl_data_type_t> eight(8, dnnl_bf16), nine(9, dnnl_f32);
    EXPECT_EQ(check({2, 1031}, eight, std::vector<dnnl_format_tag_t>(8, dnnl_ab), dnnl_bf16,
                      dnnl_ab),
            "ocl:sum:dense ocl:sum:generic ");
    EXPECT_EQ(check({2, 1031}, nine, std::vector<dnnl_format_tag_t>(9, dnnl_ab), dnnl_f32,
                      dnnl_ab),
            "ocl:sum:generic ");
    EXPECT_EQ(check({2, 6, 3, 5}, {dnnl_u8, dnnl_s32}, {dnnl_nhwc, dnnl_nhwc}, dnnl_s8,
                      dnnl_nhwc),
            "ocl:sum:dense ocl:sum:generic ");
}

} // namespace
