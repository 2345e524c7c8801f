// GPU reorder (dense, blocked, rows and generic kernels) against the reference of
// tests/primitives (reorder_ref.hpp): blocked layouts with tails (padding zero), data types,
// scales / zero points / sum; cross-engine CPU <-> GPU copies run on either engine's stream;
// bad input.
#include <algorithm>

#include "gpu/device_copy.hpp"
#include "primitives/reorder_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct reorder_case_t {
    std::vector<int64_t> dims;
    dnnl_data_type_t sdt, ddt;
    dnnl_format_tag_t stag, dtag;
    bool quant = false; // src scales per dim 1, dst scale and zero point, sum 0.5
};

// Runs every implementation on the case; returns how many ran.
int check(const reorder_case_t &t) {
    SCOPED_TRACE(::testing::Message()
            << dnnl_dt2str(t.sdt) << " " << dnnl_fmt_tag2str(t.stag) << " -> "
            << dnnl_dt2str(t.ddt) << " " << dnnl_fmt_tag2str(t.dtag) << (t.quant ? " quant" : ""));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    EXPECT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md(t.dims, t.sdt, t.stag), d = md(t.dims, t.ddt, t.dtag);
    dnnl_primitive_attr_t attr = nullptr;
    std::vector<int> ins = {DNNL_ARG_FROM};
    const int src_scale = DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
              dst_scale = DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
              dst_zp = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST;
    if (t.quant) {
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 2), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
        dnnl_post_ops_t po = nullptr;
        EXPECT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        EXPECT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        dnnl_post_ops_destroy(po);
        ins.insert(ins.end(), {src_scale, dst_scale, dst_zp, DNNL_ARG_TO}); // the sum reads dst
    }
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, s, gpu, d, gpu, attr), dnnl_success);
    int impls = 0;
    if (pd)
        impls = run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_TO},
                [&](const std::vector<tensor_t *> &x) {
                    const lookup_t in {ins, x};
                    const tensor_t &src = *x[0], &dst = *x.back();
                    const int64_t zero = 0;
                    std::vector<float> want;
                    int64_t pos[DNNL_MAX_NDIMS] = {};
                    if (dst.lay.nelems() > 0) do {
                            reorder_ref::quant_t q;
                            float old = 0.f;
                            if (t.quant) {
                                const int64_t c = reorder_ref::quant_index(2, t.dims, pos);
                                q.src_scale = in(src_scale)->get(&c);
                                q.dst_scale = in(dst_scale)->get(&zero);
                                q.dst_zp = static_cast<int32_t>(in(dst_zp)->get(&zero));
                                q.sum = true;
                                q.sum_scale = 0.5f;
                                old = in(DNNL_ARG_TO)->get(pos);
                            }
                            want.push_back(c_tensor::round_to(
                                    t.ddt, reorder_ref::value(src.get(pos), q, old)));
                        } while (c_tensor::next_pos(pos, dst.lay.dims, dst.lay.ndims));
                    c_tensor::expect_values(want, dst);
                });
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(d);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
    return impls;
}

TEST(GpuReorder, SameLayoutTakesDenseThenGeneric) {
    SKIP_WITHOUT_GPU();
    EXPECT_EQ(check({{2, 3, 5, 7}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nchw}), 2);
    EXPECT_EQ(check({{1}, dnnl_f32, dnnl_bf16, dnnl_a, dnnl_a}), 2);
    EXPECT_EQ(check({{0, 3}, dnnl_f32, dnnl_f32, dnnl_ab, dnnl_ab}), 2);
    EXPECT_EQ(check({{33, 17}, dnnl_s8, dnnl_f32, dnnl_ab, dnnl_ab}), 2);
}

TEST(GpuReorder, BlockedLayoutsWithTails) {
    SKIP_WITHOUT_GPU();
    check({{2, 17, 5, 3}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nChw16c});
    check({{2, 17, 5, 3}, dnnl_f32, dnnl_f32, dnnl_nChw16c, dnnl_nhwc});
    check({{3, 9, 4, 1}, dnnl_f32, dnnl_bf16, dnnl_nchw, dnnl_nChw8c});
    check({{19, 35}, dnnl_f32, dnnl_f32, dnnl_ab, dnnl_AB16b16a});
    check({{19, 35}, dnnl_f32, dnnl_s32, dnnl_AB16b16a, dnnl_ba});
    check({{1, 1, 1, 1}, dnnl_u8, dnnl_f32, dnnl_nhwc, dnnl_nChw16c});
}

// The implementation the GPU engine picks first for a plain reorder from `s` to `d`.
std::string first_impl(const reorder_case_t &t) {
    dnnl_engine_t gpu = nullptr;
    EXPECT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t s = md(t.dims, t.sdt, t.stag), d = md(t.dims, t.ddt, t.dtag);
    dnnl_primitive_desc_t pd = nullptr;
    std::string name;
    if (dnnl_reorder_primitive_desc_create(&pd, s, gpu, d, gpu, nullptr) == dnnl_success) {
        const char *impl = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
        name = impl ? impl : "";
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(s);
    dnnl_memory_desc_destroy(d);
    dnnl_engine_destroy(gpu);
    return name;
}

// Plain <-> channel-blocked takes the transposing kernel: tails of channels (padding written
// as zero) and of spatial points, ranks 3 to 5, blocks of 8 and 16, f32 (the register kernel
// on CPU devices) and other types (the local-memory kernel everywhere).
TEST(GpuReorder, PlainToChannelBlockedTransposes) {
    SKIP_WITHOUT_GPU();
    const reorder_case_t cases[] = {
            {{2, 17, 5, 3}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nChw16c},
            {{1, 32, 41, 43}, dnnl_f32, dnnl_f32, dnnl_nChw16c, dnnl_nchw},
            {{3, 16, 1, 1}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nChw16c},
            {{2, 9, 19}, dnnl_f32, dnnl_f32, dnnl_ncw, dnnl_nCw8c},
            {{2, 20, 3, 4, 5}, dnnl_f32, dnnl_f32, dnnl_nCdhw16c, dnnl_ncdhw},
            {{2, 24, 7, 9}, dnnl_s8, dnnl_s8, dnnl_nChw8c, dnnl_nchw},
            {{2, 33, 9, 20}, dnnl_bf16, dnnl_f32, dnnl_nchw, dnnl_nChw16c},
    };
    for (const reorder_case_t &t : cases) {
        SCOPED_TRACE(testing::Message() << "case with " << t.dims.size() << " dims, C "
                                        << t.dims[1] << ", src tag " << t.stag);
        EXPECT_EQ(first_impl(t), "ocl:reorder:blocked");
        EXPECT_EQ(check(t), 1);
    }
}

// Large enough (src + dst beyond a 32 MiB device cache) that CPU devices write dst's rows
// with non-temporal stores where the compiler has them: full channel blocks, the padded last
// block (48 of 40 channels) and a spatial tail in each work-item's tile take the other paths;
// plain rows are aligned only where the spatial size is a multiple of the block.
TEST(GpuReorder, LargeChannelBlockingBypassesTheCache) {
    SKIP_WITHOUT_GPU();
    const reorder_case_t cases[] = {
            {{2, 40, 230, 231}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nChw16c},
            {{2, 40, 224, 240}, dnnl_f32, dnnl_f32, dnnl_nChw16c, dnnl_nchw},
    };
    for (const reorder_case_t &t : cases) {
        SCOPED_TRACE(testing::Message() << "src tag " << t.stag);
        EXPECT_EQ(first_impl(t), "ocl:reorder:blocked");
        EXPECT_GE(check(t), 1);
    }
}

TEST(GpuReorder, ScalesZeroPointsAndSum) {
    SKIP_WITHOUT_GPU();
    check({{2, 17, 5, 3}, dnnl_f32, dnnl_s8, dnnl_nchw, dnnl_nChw16c, true});
    check({{2, 17, 5, 3}, dnnl_f32, dnnl_f32, dnnl_nchw, dnnl_nchw, true});
    check({{4, 6}, dnnl_s8, dnnl_u8, dnnl_ab, dnnl_ba, true});
}

// Fills host memory, reorders it to the GPU and back (each on `stream_engine`'s stream), and
// compares with the CPU engine's reorder of the same values.
void round_trip(dnnl_format_tag_t host_tag, dnnl_format_tag_t dev_tag, dnnl_data_type_t dev_dt,
        bool on_cpu_stream) {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const std::vector<int64_t> dims = {2, 19, 3, 5};
    dnnl_memory_desc_t hmd = md(dims, dnnl_f32, host_tag), dmd = md(dims, dev_dt, dev_tag);
    dnnl_memory_t host = nullptr, back = nullptr, dev = nullptr;
    ASSERT_EQ(dnnl_memory_create(&host, hmd, cpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&back, hmd, cpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dev, dmd, gpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    const size_t n = dnnl_memory_desc_get_size(hmd) / sizeof(float);
    float *h = nullptr, *b = nullptr;
    dnnl_memory_get_data_handle(host, reinterpret_cast<void **>(&h));
    dnnl_memory_get_data_handle(back, reinterpret_cast<void **>(&b));
    for (size_t i = 0; i < n; ++i) {
        h[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5) * 0.25f; // exact in bf16
        b[i] = -100.f;
    }
    dnnl_primitive_desc_t up = nullptr, down = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&up, hmd, cpu, dmd, gpu, nullptr), dnnl_success);
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&down, dmd, gpu, hmd, cpu, nullptr),
            dnnl_success);
    dnnl_primitive_t pu = nullptr, pdn = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&pu, up), dnnl_success);
    ASSERT_EQ(dnnl_primitive_create(&pdn, down), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, on_cpu_stream ? cpu : gpu, dnnl_stream_default_flags),
            dnnl_success);
    dnnl_exec_arg_t a1[] = {{DNNL_ARG_FROM, host}, {DNNL_ARG_TO, dev}};
    dnnl_exec_arg_t a2[] = {{DNNL_ARG_FROM, dev}, {DNNL_ARG_TO, back}};
    EXPECT_EQ(dnnl_primitive_execute(pu, s, 2, a1), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(pdn, s, 2, a2), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    // Every value survives (bf16 holds these quarter values exactly).
    int bad = 0;
    for (size_t i = 0; i < n && bad < 5; ++i)
        if (b[i] != h[i]) {
            ADD_FAILURE() << "element " << i << ": " << b[i] << " != " << h[i];
            ++bad;
        }
    // Memory of the wrong engine on a side: an error, not a crash.
    dnnl_exec_arg_t wrong[] = {{DNNL_ARG_FROM, dev}, {DNNL_ARG_TO, dev}};
    EXPECT_EQ(dnnl_primitive_execute(pu, s, 2, wrong), dnnl_invalid_arguments);
    dnnl_stream_destroy(s);
    dnnl_primitive_destroy(pu);
    dnnl_primitive_destroy(pdn);
    dnnl_primitive_desc_destroy(up);
    dnnl_primitive_desc_destroy(down);
    for (dnnl_memory_t m : {host, back, dev}) dnnl_memory_destroy(m);
    dnnl_memory_desc_destroy(hmd);
    dnnl_memory_desc_destroy(dmd);
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
}

TEST(GpuReorder, CrossEngineCopyOnEitherStream) {
    SKIP_WITHOUT_GPU();
    round_trip(dnnl_nchw, dnnl_nchw, dnnl_f32, false);
    round_trip(dnnl_nchw, dnnl_nchw, dnnl_f32, true);
}

TEST(GpuReorder, CrossEngineConvertsOnTheDevice) {
    SKIP_WITHOUT_GPU();
    round_trip(dnnl_nchw, dnnl_nChw16c, dnnl_f32, false);
    round_trip(dnnl_nhwc, dnnl_nChw8c, dnnl_bf16, true);
}

TEST(GpuReorder, CrossEngineNamesItsImplementation) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 16}, dnnl_f32, dnnl_ab), b = md({4, 16}, dnnl_f32, dnnl_ba);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, a, cpu, a, gpu, nullptr), dnnl_success);
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    EXPECT_STREQ(name, "ocl:reorder:cross_engine_copy");
    dnnl_primitive_desc_destroy(pd);
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, b, gpu, a, cpu, nullptr), dnnl_success);
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    EXPECT_STREQ(name, "ocl:reorder:cross_engine");
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
}

TEST(GpuReorder, UnsupportedAttributesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 16}, dnnl_f32, dnnl_ab);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, a, gpu, a, gpu, attr), dnnl_unimplemented);
    dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(a);
    dnnl_engine_destroy(gpu);
}

} // namespace
