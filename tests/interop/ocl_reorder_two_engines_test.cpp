// Reorder between two GPU engines, as oneDNN takes it (the source's engine runs it): engines
// over one OpenCL context share memory and reorder on the device; engines of two contexts
// move the data through host memory, converted (layout, type, scale, sum) on the source's
// device into a staging buffer laid out as dst. Values against reorder_ref; bytes of dst's
// buffer outside the tensor stay; the pd answers both engines. Skipped without a device.
#include <cstring>
#include <vector>

#include "gpu/device_copy.hpp"
#include "interop/ocl_fixture.hpp"
#include "primitives/reorder_ref.hpp"

namespace {

using c_tensor::tensor_t;
using gpu_test::device_memory_t;

class ocl_reorder_two_engines : public interop_test::ocl_app_t {
protected:
    void SetUp() override {
        ocl_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_ocl_interop_engine_create(&a, device, context), dnnl_success);
        ASSERT_EQ(dnnl_ocl_interop_engine_create(&b, device, context), dnnl_success);
        ASSERT_EQ(dnnl_engine_create(&own, dnnl_gpu, 0), dnnl_success); // a context of its own
    }
    void TearDown() override {
        for (dnnl_engine_t e : {own, b, a, cpu})
            if (e) dnnl_engine_destroy(e);
        ocl_app_t::TearDown();
    }

    struct case_t {
        std::vector<int64_t> dims;
        dnnl_data_type_t sdt, ddt;
        dnnl_format_tag_t stag, dtag;
        float src_scale = 0.f; // 0: none
        float sum_scale = 0.f; // 0: no sum post-op
    };

    // Reorders a random src of engine `from` into dst of engine `to` (dst pre-filled with
    // other values), on a stream of `stream_engine`; checks every element and dst's padding.
    void run(dnnl_engine_t from, dnnl_engine_t to, dnnl_engine_t stream_engine, const case_t &c,
            const char *want_impl) {
        const dnnl_memory_desc_t smd = gpu_test::md(c.dims, c.sdt, c.stag);
        const dnnl_memory_desc_t dmd = gpu_test::md(c.dims, c.ddt, c.dtag);
        dnnl_primitive_attr_t attr = nullptr;
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        if (c.src_scale) ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        if (c.sum_scale) {
            dnnl_post_ops_t po = nullptr;
            ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
            ASSERT_EQ(dnnl_post_ops_append_sum(po, c.sum_scale, 0, dnnl_data_type_undef), dnnl_success);
            ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
            dnnl_post_ops_destroy(po);
        }
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, smd, from, dmd, to, attr), dnnl_success);
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        EXPECT_STREQ(name, want_impl);
        dnnl_engine_t qs = nullptr, qd = nullptr;
        EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_src_engine, 0, &qs), dnnl_success);
        EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_dst_engine, 0, &qd), dnnl_success);
        EXPECT_EQ(qs, from);
        EXPECT_EQ(qd, to);

        tensor_t hs(cpu, smd), hd(cpu, dmd), out(cpu, dmd), scale(cpu, gpu_test::md({1}, dnnl_f32, dnnl_a));
        hs.fill_random(5);
        hd.fill_random(6);
        const int64_t zero = 0;
        scale.set(&zero, c.src_scale ? c.src_scale : 1.f);
        device_memory_t ds(from, smd), dd(to, dmd), dscale(from, scale.md);
        ds.upload(hs);
        dd.upload(hd);
        dscale.upload(scale);
        dnnl_stream_t s = nullptr;
        ASSERT_EQ(dnnl_stream_create(&s, stream_engine, dnnl_stream_in_order), dnnl_success);
        dnnl_primitive_t prim = nullptr;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_FROM, ds.mem}, {DNNL_ARG_TO, dd.mem}};
        if (c.src_scale) args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, dscale.mem});
        EXPECT_EQ(dnnl_primitive_execute(prim, s, int(args.size()), args.data()), dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
        dd.download(out);
        reorder_ref::quant_t q;
        q.src_scale = c.src_scale ? c.src_scale : 1.f;
        q.sum = c.sum_scale != 0.f;
        q.sum_scale = c.sum_scale;
        std::vector<float> want;
        int64_t pos[DNNL_MAX_NDIMS] = {};
        do
            want.push_back(c_tensor::round_to(c.ddt, reorder_ref::value(hs.get(pos), q, hd.get(pos))));
        while (c_tensor::next_pos(pos, hs.lay.dims, hs.lay.ndims));
        c_tensor::expect_values(want, out);
        dnnl_primitive_destroy(prim);
        dnnl_stream_destroy(s);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
    }

    dnnl_engine_t cpu = nullptr, a = nullptr, b = nullptr, own = nullptr;
};

const char *const copy = "ocl:reorder:cross_engine_copy", *convert = "ocl:reorder:cross_engine";

TEST_F(ocl_reorder_two_engines, same_layout_and_type_copies_between_contexts) {
    const case_t c {{2, 19, 3, 3}, dnnl_f32, dnnl_f32, dnnl_abcd, dnnl_abcd};
    run(a, own, a, c, copy);
    run(own, a, own, c, copy);
    run(a, own, own, c, copy); // the destination's stream
    run(a, own, cpu, c, copy); // neither: streams of their own
    const case_t one {{1}, dnnl_s8, dnnl_s8, dnnl_a, dnnl_a};
    run(own, a, own, one, copy);
}

TEST_F(ocl_reorder_two_engines, conversion_with_scale_and_sum_between_contexts) {
    case_t c {{2, 19, 3, 3}, dnnl_f32, dnnl_bf16, dnnl_abcd, dnnl_aBcd16b};
    c.src_scale = 0.5f;
    c.sum_scale = 2.f;
    run(a, own, a, c, convert);
    run(own, a, a, c, convert);
    case_t t {{3, 5, 7}, dnnl_bf16, dnnl_f32, dnnl_acb, dnnl_abc};
    run(own, a, own, t, convert);
}

TEST_F(ocl_reorder_two_engines, engines_over_one_context_reorder_on_the_device) {
    case_t c {{2, 19, 3, 3}, dnnl_f32, dnnl_f32, dnnl_abcd, dnnl_aBcd16b};
    run(a, b, a, c, convert);
    c.sum_scale = 1.f;
    run(b, a, b, c, convert);
    run(a, b, a, {{4, 9}, dnnl_f32, dnnl_f32, dnnl_ab, dnnl_ab}, copy);
}

// A destination window of a larger buffer (a submemory): the rows around it keep their bytes.
TEST_F(ocl_reorder_two_engines, bytes_around_a_destination_window_stay) {
    const int64_t parent_dims[2] = {4, 8}, win_dims[2] = {2, 8}, offs[2] = {1, 0};
    dnnl_memory_desc_t parent = nullptr, win = nullptr, smd = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&parent, 2, parent_dims, dnnl_f32, dnnl_ab), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_submemory(&win, parent, win_dims, offs), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&smd, 2, win_dims, dnnl_f32, dnnl_ab), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, smd, a, win, own, attr), dnnl_success);
    device_memory_t src(a, smd), dst(own, parent), sc(a, gpu_test::md({1}, dnnl_f32, dnnl_a));
    float *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(src.mem, reinterpret_cast<void **>(&p)), dnnl_success);
    for (int i = 0; i < 16; ++i)
        p[i] = float(i);
    ASSERT_EQ(dnnl_memory_unmap_data(src.mem, p), dnnl_success);
    ASSERT_EQ(dnnl_memory_map_data(dst.mem, reinterpret_cast<void **>(&p)), dnnl_success);
    for (int i = 0; i < 32; ++i)
        p[i] = -1.f - float(i);
    ASSERT_EQ(dnnl_memory_unmap_data(dst.mem, p), dnnl_success);
    ASSERT_EQ(dnnl_memory_map_data(sc.mem, reinterpret_cast<void **>(&p)), dnnl_success);
    p[0] = 3.f;
    ASSERT_EQ(dnnl_memory_unmap_data(sc.mem, p), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, a, dnnl_stream_in_order), dnnl_success);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    const dnnl_exec_arg_t args[3] = {{DNNL_ARG_FROM, src.mem}, {DNNL_ARG_TO, dst.mem},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, sc.mem}};
    EXPECT_EQ(dnnl_primitive_execute(prim, s, 3, args), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    ASSERT_EQ(dnnl_memory_map_data(dst.mem, reinterpret_cast<void **>(&p)), dnnl_success);
    for (int i = 0; i < 32; ++i) {
        const bool in = i >= 8 && i < 24;
        EXPECT_EQ(p[i], in ? 3.f * float(i - 8) : -1.f - float(i)) << i;
    }
    ASSERT_EQ(dnnl_memory_unmap_data(dst.mem, p), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    for (auto m : {parent, win, smd})
        dnnl_memory_desc_destroy(m);
}

// Between the CPU and a device the pd answers each side's engine too.
TEST_F(ocl_reorder_two_engines, cpu_to_gpu_answers_both_engines) {
    const dnnl_memory_desc_t m = gpu_test::md({3, 4}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, m, cpu, m, a, nullptr), dnnl_success);
    dnnl_engine_t qs = nullptr, qd = nullptr, qe = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_src_engine, 0, &qs), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_dst_engine, 0, &qd), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_engine, 0, &qe), dnnl_success);
    EXPECT_EQ(qs, cpu);
    EXPECT_EQ(qd, a);
    EXPECT_EQ(qe, a);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(m);
}

} // namespace
