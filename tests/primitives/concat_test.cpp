// Concat primitive through the C API against a reference written here: every axis, mixed
// layouts, blocked tails, data types (s32 bit-exact), scales, derived dst, empty inputs and
// argument errors.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/c_tensor.hpp"
#include "primitives/concat_ref.hpp"

using namespace c_tensor;

namespace {

struct concat_case_t {
    std::vector<spec_t> srcs;
    int axis = 0;
    bool dst_given = true;
    spec_t dst;
    std::vector<float> scales; // empty: no scales attribute; 0 entries: no scale for that src
    std::string impl;
};

struct concat_test : public engine_fixture {
    dnnl_status_t create_pd(dnnl_primitive_desc_t *pd, const concat_case_t &c) {
        std::vector<dnnl_memory_desc_t> mds;
        for (const auto &s : c.srcs)
            mds.push_back(make_md(s));
        dnnl_memory_desc_t dst = c.dst_given ? make_md(c.dst) : nullptr;
        dnnl_primitive_attr_t attr = nullptr;
        if (!c.scales.empty()) {
            EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
            for (size_t i = 0; i < c.scales.size(); ++i)
                if (c.scales[i] != 0.f) {
                    EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(
                                      attr, DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), 0),
                            dnnl_success);
                }
        }
        std::vector<const_dnnl_memory_desc_t> cmds(mds.begin(), mds.end());
        dnnl_status_t st = dnnl_concat_primitive_desc_create(
                pd, engine, dst, static_cast<int>(mds.size()), c.axis, cmds.data(), attr);
        for (auto m : mds)
            dnnl_memory_desc_destroy(m);
        dnnl_memory_desc_destroy(dst);
        dnnl_primitive_attr_destroy(attr);
        return st;
    }

    void run(const concat_case_t &c, uint32_t seed = 9) {
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(create_pd(&pd, c), dnnl_success);
        if (!c.impl.empty()) {
            EXPECT_EQ(impl_name(pd), c.impl);
        }
        const int n = static_cast<int>(c.srcs.size());
        std::vector<std::unique_ptr<tensor_t>> srcs, scales;
        std::vector<dnnl_exec_arg_t> args;
        for (int i = 0; i < n; ++i) {
            srcs.emplace_back(new tensor_t(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, i)));
            srcs.back()->fill_random(seed + i);
            if (srcs.back()->lay.dt == dnnl_s32) {
                // Values beyond f32's 24-bit mantissa must survive.
                int64_t pos[DNNL_MAX_NDIMS] = {};
                auto &t = *srcs.back();
                if (t.lay.nelems() > 0) {
                    int32_t v = 16777217;
                    do
                        reinterpret_cast<int32_t *>(t.data())[t.lay.offset(pos)] = v += 7;
                    while (next_pos(pos, t.lay.dims, t.lay.ndims));
                }
            }
            args.push_back({DNNL_ARG_MULTIPLE_SRC + i, srcs.back()->mem});
            if (i < static_cast<int>(c.scales.size()) && c.scales[i] != 0.f) {
                scales.emplace_back(new tensor_t(engine, spec_t({1}, dnnl_f32, dnnl_a)));
                int64_t z = 0;
                scales.back()->set(&z, c.scales[i]);
                args.push_back({DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + i),
                        scales.back()->mem});
            }
        }
        tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x33);
        args.push_back({DNNL_ARG_DST, dst.mem});
        ASSERT_EQ(execute(pd, args), dnnl_success);

        std::vector<const tensor_t *> src_list;
        for (const auto &t : srcs)
            src_list.push_back(t.get());
        {
            SCOPED_TRACE(impl_name(pd));
            concat_ref::expect_concat(src_list, c.axis, c.scales, dst);
        }
        dnnl_primitive_desc_destroy(pd);
    }
};

spec_t tagged(dims_t d, dnnl_format_tag_t tag, dnnl_data_type_t dt = dnnl_f32) {
    return {d, dt, tag};
}

dims_t with(dims_t d, int axis, int64_t v) {
    d[axis] = v;
    return d;
}

} // namespace

TEST_F(concat_test, every_axis_plain_is_a_memcpy) {
    const dims_t base = {2, 6, 5, 7};
    for (int axis = 0; axis < 4; ++axis) {
        SCOPED_TRACE(axis);
        concat_case_t c;
        c.axis = axis;
        c.srcs = {tagged(with(base, axis, 3), dnnl_nchw), tagged(with(base, axis, 1), dnnl_nchw),
                tagged(with(base, axis, 4), dnnl_nchw)};
        c.dst = tagged(with(base, axis, 8), dnnl_nchw);
        c.impl = "cpu:concat:memcpy";
        run(c);
        c.srcs = {tagged(with(base, axis, 3), dnnl_nhwc), tagged(with(base, axis, 2), dnnl_nhwc)};
        c.dst = tagged(with(base, axis, 5), dnnl_nhwc);
        run(c);
    }
}

TEST_F(concat_test, every_axis_mixed_layouts) {
    const dims_t base = {2, 19, 3, 5};
    for (int axis = 0; axis < 4; ++axis) {
        SCOPED_TRACE(axis);
        concat_case_t c;
        c.axis = axis;
        c.srcs = {tagged(with(base, axis, 2), dnnl_nchw), tagged(with(base, axis, 3), dnnl_nhwc),
                tagged(with(base, axis, 1), dnnl_nChw16c)};
        c.dst = tagged(with(base, axis, 6), dnnl_nChw8c);
        c.impl = "cpu:concat:ref";
        run(c);
    }
}

TEST_F(concat_test, blocked_channels) {
    // Whole blocks: still contiguous chunks.
    concat_case_t c;
    c.axis = 1;
    c.srcs = {tagged({2, 16, 3, 3}, dnnl_nChw16c), tagged({2, 32, 3, 3}, dnnl_nChw16c)};
    c.dst = tagged({2, 48, 3, 3}, dnnl_nChw16c);
    c.impl = "cpu:concat:memcpy";
    run(c);
    // Tails: 3 + 5 channels in one padded block.
    c.srcs = {tagged({2, 3, 3, 3}, dnnl_nChw16c), tagged({2, 5, 3, 3}, dnnl_nChw16c)};
    c.dst = tagged({2, 8, 3, 3}, dnnl_nChw16c);
    c.impl = "cpu:concat:ref";
    run(c);
    // Spatial axis of a blocked layout.
    c.axis = 2;
    c.srcs = {tagged({2, 32, 3, 3}, dnnl_nChw16c), tagged({2, 32, 4, 3}, dnnl_nChw16c)};
    c.dst = tagged({2, 32, 7, 3}, dnnl_nChw16c);
    c.impl = "cpu:concat:memcpy";
    run(c);
}

TEST_F(concat_test, data_types) {
    for (auto dt : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32}) {
        SCOPED_TRACE(dnnl_dt2str(dt));
        concat_case_t c;
        c.axis = 1;
        c.srcs = {tagged({3, 5, 4}, dnnl_abc, dt), tagged({3, 2, 4}, dnnl_acb, dt)};
        c.dst = tagged({3, 7, 4}, dnnl_abc, dt);
        run(c);
        c.srcs[1] = tagged({3, 2, 4}, dnnl_abc, dt);
        c.impl = "cpu:concat:memcpy";
        run(c);
    }
}

TEST_F(concat_test, zero_size_inputs_are_skipped) {
    concat_case_t c;
    c.axis = 1;
    c.srcs = {tagged({2, 0, 3}, dnnl_abc), tagged({2, 4, 3}, dnnl_abc), tagged({2, 0, 3}, dnnl_abc),
            tagged({2, 1, 3}, dnnl_abc)};
    c.dst = tagged({2, 5, 3}, dnnl_abc);
    c.impl = "cpu:concat:memcpy";
    run(c);
    c.srcs[1] = tagged({2, 4, 3}, dnnl_acb);
    c.impl = "cpu:concat:ref";
    run(c);
    // Everything empty: nothing to do.
    c.srcs = {tagged({0, 2, 3}, dnnl_abc), tagged({0, 1, 3}, dnnl_abc)};
    c.dst = tagged({0, 3, 3}, dnnl_abc);
    c.impl = "";
    run(c);
}

TEST_F(concat_test, dst_derived_from_src0) {
    concat_case_t c;
    c.axis = 2;
    c.srcs = {tagged({2, 20, 3, 3}, dnnl_nChw16c), tagged({2, 20, 4, 3}, dnnl_nchw)};
    c.dst_given = false;
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(create_pd(&pd, c), dnnl_success);
    dnnl_memory_desc_t want = make_md(tagged({2, 20, 7, 3}, dnnl_nChw16c));
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), want), 1);
    dnnl_memory_desc_destroy(want);
    dnnl_primitive_desc_destroy(pd);
    run(c);
    c.dst_given = true;
    c.dst = tagged({2, 20, 7, 3}, dnnl_format_tag_any);
    run(c);
}

TEST_F(concat_test, scales_per_source) {
    concat_case_t c;
    c.axis = 0;
    c.srcs = {tagged({2, 5}, dnnl_ab, dnnl_s8), tagged({3, 5}, dnnl_ab, dnnl_s8)};
    c.dst = tagged({5, 5}, dnnl_ab, dnnl_s8);
    c.scales = {0.5f, 0.f};
    c.impl = "cpu:concat:ref";
    run(c);
    c.scales = {2.f, 0.25f};
    run(c);
}

TEST_F(concat_test, large_tensor_uses_threads) {
    concat_case_t c;
    c.axis = 1;
    c.srcs = {tagged({1, 300, 64, 64}, dnnl_nchw), tagged({1, 200, 64, 64}, dnnl_nchw)};
    c.dst = tagged({1, 500, 64, 64}, dnnl_nchw);
    c.impl = "cpu:concat:memcpy";
    run(c);
}

TEST_F(concat_test, bad_arguments_are_reported) {
    dnnl_memory_desc_t a = make_md(tagged({2, 3}, dnnl_ab)), b = make_md(tagged({4, 5}, dnnl_ab)),
                       s8 = make_md(tagged({2, 3}, dnnl_ab, dnnl_s8)),
                       c3 = make_md(tagged({2, 3, 1}, dnnl_abc)),
                       anyd = make_md(tagged({2, 3}, dnnl_format_tag_any)),
                       good_dst = make_md(tagged({4, 3}, dnnl_ab)),
                       bad_dst = make_md(tagged({5, 3}, dnnl_ab));
    dnnl_primitive_desc_t pd = nullptr;
    const_dnnl_memory_desc_t aa[] = {a, a}, ab[] = {a, b}, as8[] = {a, s8}, ac[] = {a, c3},
                             an[] = {a, nullptr}, anya[] = {anyd, a};
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, ab, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, as8, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, ac, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, an, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, anya, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 2, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, -1, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 0, 0, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, nullptr, 2, 0, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, bad_dst, 2, 0, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(nullptr, engine, good_dst, 2, 0, aa, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, nullptr, good_dst, 2, 0, aa, nullptr),
            dnnl_invalid_arguments);
    // Concat takes scales but no post-ops.
    dnnl_primitive_attr_t attr;
    dnnl_post_ops_t ops;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_create(&ops), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(ops, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, ops), dnnl_success);
    EXPECT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, good_dst, 2, 0, aa, attr),
            dnnl_unimplemented);
    dnnl_post_ops_destroy(ops);
    dnnl_primitive_attr_destroy(attr);

    ASSERT_EQ(dnnl_concat_primitive_desc_create(&pd, engine, good_dst, 2, 0, aa, nullptr),
            dnnl_success);
    // A destination smaller than the primitive's is refused.
    tensor_t x(engine, a), d(engine, good_dst), wrong(engine, a);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, x.mem}, {DNNL_ARG_MULTIPLE_SRC + 1, x.mem},
                                  {DNNL_ARG_DST, d.mem}}),
            dnnl_success);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, x.mem}, {DNNL_ARG_MULTIPLE_SRC + 1, x.mem},
                                  {DNNL_ARG_DST, wrong.mem}}),
            dnnl_invalid_arguments);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_MULTIPLE_SRC, x.mem}, {DNNL_ARG_DST, d.mem}}),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {a, b, s8, c3, anyd, good_dst, bad_dst})
        dnnl_memory_desc_destroy(m);
}
