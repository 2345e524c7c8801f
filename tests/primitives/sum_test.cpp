// Sum primitive through the C API against a reference written here: 1 to 5 inputs, scales,
// data types, layouts (shared and mixed), derived dst, empty tensors and argument errors.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/c_tensor.hpp"
#include "primitives/sum_ref.hpp"

using namespace c_tensor;

namespace {

struct sum_case_t {
    std::vector<spec_t> srcs;
    std::vector<float> scales;
    bool dst_given = true;
    spec_t dst;
    std::string impl;
};

struct sum_test : public engine_fixture {
    dnnl_status_t create_pd(dnnl_primitive_desc_t *pd, const sum_case_t &c) {
        std::vector<dnnl_memory_desc_t> mds;
        for (const auto &s : c.srcs)
            mds.push_back(make_md(s));
        dnnl_memory_desc_t dst = c.dst_given ? make_md(c.dst) : nullptr;
        std::vector<const_dnnl_memory_desc_t> cmds(mds.begin(), mds.end());
        dnnl_status_t st = dnnl_sum_primitive_desc_create(pd, engine, dst,
                static_cast<int>(mds.size()), c.scales.data(), cmds.data(), nullptr);
        for (auto m : mds)
            dnnl_memory_desc_destroy(m);
        dnnl_memory_desc_destroy(dst);
        return st;
    }

    void run(const sum_case_t &c, uint32_t seed = 5) {
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(create_pd(&pd, c), dnnl_success);
        if (!c.impl.empty()) {
            EXPECT_EQ(impl_name(pd), c.impl);
        }
        const int n = static_cast<int>(c.srcs.size());
        std::vector<std::unique_ptr<tensor_t>> srcs;
        std::vector<dnnl_exec_arg_t> args;
        for (int i = 0; i < n; ++i) {
            srcs.emplace_back(new tensor_t(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, i)));
            srcs.back()->fill_random(seed + i);
            args.push_back({DNNL_ARG_MULTIPLE_SRC + i, srcs.back()->mem});
        }
        tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x55);
        args.push_back({DNNL_ARG_DST, dst.mem});
        ASSERT_EQ(execute(pd, args), dnnl_success);

        std::vector<const tensor_t *> src_list;
        for (const auto &s : srcs)
            src_list.push_back(s.get());
        sum_ref::expect_sum(src_list, c.scales, dst);
        dnnl_primitive_desc_destroy(pd);
    }
};

spec_t tagged(dims_t d, dnnl_format_tag_t tag, dnnl_data_type_t dt = dnnl_f32) {
    return {d, dt, tag};
}

} // namespace

TEST_F(sum_test, one_to_five_inputs_with_scales) {
    const float all_scales[] = {1.f, -0.5f, 2.f, 0.25f, 3.f};
    for (int n = 1; n <= 5; ++n) {
        SCOPED_TRACE(n);
        sum_case_t c;
        for (int i = 0; i < n; ++i) {
            c.srcs.push_back(tagged({3, 17, 5, 4}, dnnl_nchw));
            c.scales.push_back(all_scales[i]);
        }
        c.dst = tagged({3, 17, 5, 4}, dnnl_nchw);
        c.impl = "cpu:sum:simple";
        run(c);
    }
}

TEST_F(sum_test, mixed_data_types) {
    const dnnl_data_type_t dts[] = {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32};
    for (auto a : dts)
        for (auto b : dts)
            for (auto d : dts) {
                SCOPED_TRACE(testing::Message() << dnnl_dt2str(a) << "+" << dnnl_dt2str(b)
                                                << "->" << dnnl_dt2str(d));
                sum_case_t c;
                c.srcs = {tagged({4, 33}, dnnl_ab, a), tagged({4, 33}, dnnl_ab, b)};
                c.scales = {1.f, 2.f};
                c.dst = tagged({4, 33}, dnnl_ab, d);
                c.impl = "cpu:sum:simple";
                run(c);
            }
}

TEST_F(sum_test, blocked_layouts_with_padding) {
    sum_case_t c;
    c.srcs = {tagged({2, 19, 3, 3}, dnnl_nChw16c), tagged({2, 19, 3, 3}, dnnl_nChw16c)};
    c.scales = {0.5f, 1.5f};
    c.dst = tagged({2, 19, 3, 3}, dnnl_nChw16c);
    c.impl = "cpu:sum:simple";
    run(c);
}

TEST_F(sum_test, mixed_layouts_use_the_reference) {
    sum_case_t c;
    c.srcs = {tagged({2, 19, 3, 5}, dnnl_nchw), tagged({2, 19, 3, 5}, dnnl_nhwc),
            tagged({2, 19, 3, 5}, dnnl_nChw8c, dnnl_bf16)};
    c.scales = {1.f, -1.f, 0.5f};
    c.dst = tagged({2, 19, 3, 5}, dnnl_nChw16c);
    c.impl = "cpu:sum:ref";
    run(c);
    c.srcs[0] = spec_t({2, 19, 3, 5}, dnnl_f32, dnnl_format_tag_undef, {2000, 100, 30, 3});
    c.dst = tagged({2, 19, 3, 5}, dnnl_cdba);
    run(c);
}

TEST_F(sum_test, dst_derived_from_src0) {
    sum_case_t c;
    c.srcs = {tagged({2, 20, 3, 3}, dnnl_nChw16c, dnnl_bf16), tagged({2, 20, 3, 3}, dnnl_nchw)};
    c.scales = {1.f, 1.f};
    c.dst_given = false;
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(create_pd(&pd, c), dnnl_success);
    dnnl_memory_desc_t want = make_md(tagged({2, 20, 3, 3}, dnnl_nChw16c, dnnl_bf16));
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), want), 1);
    dnnl_memory_desc_destroy(want);
    dnnl_primitive_desc_destroy(pd);
    run(c);
    // format any is resolved the same way.
    c.dst_given = true;
    c.dst = tagged({2, 20, 3, 3}, dnnl_format_tag_any);
    run(c);
}

TEST_F(sum_test, shapes_one_large_and_empty) {
    for (const dims_t &d : std::vector<dims_t> {{1}, {7, 1, 3}, {8, 64, 33, 33}, {0, 4}, {3, 0}}) {
        sum_case_t c;
        c.srcs = {spec_t(d, dnnl_f32, dnnl_format_tag_undef), spec_t(d, dnnl_f32, dnnl_format_tag_undef)};
        c.scales = {1.f, 0.5f};
        c.dst = spec_t(d, dnnl_f32, dnnl_format_tag_undef);
        run(c);
    }
}

TEST_F(sum_test, in_place_on_src0) {
    dnnl_memory_desc_t md = make_md(tagged({5, 40}, dnnl_ab));
    const_dnnl_memory_desc_t srcs[] = {md, md};
    const float scales[] = {2.f, 1.f};
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, md, 2, scales, srcs, nullptr), dnnl_success);
    tensor_t a(engine, md), b(engine, md);
    a.fill_random(1);
    b.fill_random(2);
    std::vector<float> want;
    int64_t pos[2] = {};
    do
        want.push_back(2.f * a.get(pos) + b.get(pos));
    while (next_pos(pos, a.lay.dims, 2));
    ASSERT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, a.mem}, {DNNL_ARG_MULTIPLE_SRC + 1, b.mem},
                                  {DNNL_ARG_DST, a.mem}}),
            dnnl_success);
    size_t k = 0;
    do
        EXPECT_EQ(a.get(pos), want[k++]);
    while (next_pos(pos, a.lay.dims, 2));
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(md);
}

TEST_F(sum_test, bad_arguments_are_reported) {
    dnnl_memory_desc_t a = make_md(tagged({2, 3}, dnnl_ab)), b = make_md(tagged({2, 4}, dnnl_ab)),
                       c3 = make_md(tagged({2, 3, 1}, dnnl_abc)),
                       anyd = make_md(tagged({2, 3}, dnnl_format_tag_any));
    const float scales[] = {1.f, 1.f};
    dnnl_primitive_desc_t pd = nullptr;
    const_dnnl_memory_desc_t ab[] = {a, b}, aa[] = {a, a}, ac[] = {a, c3}, an[] = {a, nullptr},
                             anya[] = {anyd, a};
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, scales, ab, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, scales, ac, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, scales, an, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, scales, anya, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 0, scales, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, nullptr, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, nullptr, 2, scales, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, b, 2, scales, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(nullptr, engine, a, 2, scales, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, nullptr, a, 2, scales, aa, nullptr),
            dnnl_invalid_arguments);
    // Sum takes no post-ops.
    dnnl_primitive_attr_t attr;
    dnnl_post_ops_t ops;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_create(&ops), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(ops, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, ops), dnnl_success);
    EXPECT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, a, 2, scales, aa, attr),
            dnnl_unimplemented);
    dnnl_post_ops_destroy(ops);
    dnnl_primitive_attr_destroy(attr);

    ASSERT_EQ(dnnl_sum_primitive_desc_create(&pd, engine, a, 2, scales, aa, nullptr), dnnl_success);
    // A source smaller than the primitive's is refused.
    dnnl_memory_desc_t half = make_md(tagged({2, 2}, dnnl_ab));
    tensor_t x(engine, a), y(engine, half);
    dnnl_memory_desc_destroy(half);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, x.mem}, {DNNL_ARG_DST, x.mem}}),
            dnnl_invalid_arguments);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, x.mem}, {DNNL_ARG_MULTIPLE_SRC + 1, y.mem},
                                  {DNNL_ARG_DST, x.mem}}),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {a, b, c3, anyd})
        dnnl_memory_desc_destroy(m);
}
