// Binary primitive through the C API against the reference of binary_ref.hpp: every algorithm,
// broadcasts, data types, layouts, shapes, scales, post-op chains and argument errors.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/binary_ref.hpp"
#include "primitives/c_tensor.hpp"

using namespace c_tensor;

namespace {

const dnnl_alg_kind_t all_two_input_algs[] = {dnnl_binary_add, dnnl_binary_mul,
        dnnl_binary_max, dnnl_binary_min, dnnl_binary_div, dnnl_binary_sub, dnnl_binary_ge,
        dnnl_binary_gt, dnnl_binary_le, dnnl_binary_lt, dnnl_binary_eq, dnnl_binary_ne};

// One post-op of a chain under test.
struct po_t {
    dnnl_primitive_kind_t kind = dnnl_undefined_primitive;
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    float alpha = 0.f, beta = 0.f; // eltwise
    float scale = 1.f; // sum
    int32_t zero_point = 0;
    spec_t src1, src2; // binary operands (src2: select's condition)
    int mask = 0; // prelu
};

po_t po_sum(float scale, int32_t zp = 0) {
    po_t p;
    p.kind = dnnl_sum;
    p.scale = scale;
    p.zero_point = zp;
    return p;
}
po_t po_eltwise(dnnl_alg_kind_t alg, float alpha = 0.f, float beta = 0.f) {
    po_t p;
    p.kind = dnnl_eltwise;
    p.alg = alg;
    p.alpha = alpha;
    p.beta = beta;
    return p;
}
po_t po_binary(dnnl_alg_kind_t alg, spec_t src1) {
    po_t p;
    p.kind = dnnl_binary;
    p.alg = alg;
    p.src1 = std::move(src1);
    return p;
}
po_t po_select(spec_t src1, spec_t cond) {
    po_t p = po_binary(dnnl_binary_select, std::move(src1));
    p.src2 = std::move(cond);
    return p;
}
po_t po_prelu(int mask) {
    po_t p;
    p.kind = dnnl_prelu;
    p.mask = mask;
    return p;
}

struct bin_case_t {
    dnnl_alg_kind_t alg = dnnl_binary_add;
    spec_t src0, src1, dst, src2;
    float scale0 = 0.f, scale1 = 0.f; // 0: no scale attribute
    std::vector<po_t> po;
    std::string impl; // expected implementation name; empty: any
    bool inplace = false; // dst is src0's memory
};

struct binary_test : public engine_fixture {
    dnnl_primitive_attr_t make_attr(const bin_case_t &c) {
        dnnl_primitive_attr_t attr = nullptr;
        if (c.scale0 == 0.f && c.scale1 == 0.f && c.po.empty()) return nullptr;
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        if (c.scale0 != 0.f) {
            EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC_0, 0), dnnl_success);
        }
        if (c.scale1 != 0.f) {
            EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC_1, 0), dnnl_success);
        }
        if (!c.po.empty()) {
            dnnl_post_ops_t ops;
            EXPECT_EQ(dnnl_post_ops_create(&ops), dnnl_success);
            for (const po_t &p : c.po) {
                switch (p.kind) {
                    case dnnl_sum:
                        EXPECT_EQ(dnnl_post_ops_append_sum(ops, p.scale, p.zero_point,
                                          dnnl_data_type_undef),
                                dnnl_success);
                        break;
                    case dnnl_eltwise:
                        EXPECT_EQ(dnnl_post_ops_append_eltwise(ops, p.alg, p.alpha, p.beta),
                                dnnl_success);
                        break;
                    case dnnl_binary: {
                        dnnl_memory_desc_t md = make_md(p.src1);
                        dnnl_memory_desc_t md2
                                = p.alg == dnnl_binary_select ? make_md(p.src2) : nullptr;
                        EXPECT_EQ(dnnl_post_ops_append_binary_v2(ops, p.alg, md, md2),
                                dnnl_success);
                        dnnl_memory_desc_destroy(md);
                        dnnl_memory_desc_destroy(md2);
                        break;
                    }
                    case dnnl_prelu:
                        EXPECT_EQ(dnnl_post_ops_append_prelu(ops, p.mask), dnnl_success);
                        break;
                    default: ADD_FAILURE();
                }
            }
            EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, ops), dnnl_success);
            dnnl_post_ops_destroy(ops);
        }
        return attr;
    }

    dnnl_status_t create_pd(dnnl_primitive_desc_t *pd, const bin_case_t &c) {
        dnnl_memory_desc_t m0 = make_md(c.src0), m1 = make_md(c.src1), md = make_md(c.dst);
        dnnl_memory_desc_t m2 = c.alg == dnnl_binary_select ? make_md(c.src2) : nullptr;
        dnnl_primitive_attr_t attr = make_attr(c);
        dnnl_status_t st = c.alg == dnnl_binary_select
                ? dnnl_binary_primitive_desc_create_v2(pd, engine, c.alg, m0, m1, m2, md, attr)
                : dnnl_binary_primitive_desc_create(pd, engine, c.alg, m0, m1, md, attr);
        dnnl_primitive_attr_destroy(attr);
        dnnl_memory_desc_destroy(m0);
        dnnl_memory_desc_destroy(m1);
        dnnl_memory_desc_destroy(m2);
        dnnl_memory_desc_destroy(md);
        return st;
    }

    void run(const bin_case_t &c, uint32_t seed = 1) {
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(create_pd(&pd, c), dnnl_success);
        if (!c.impl.empty()) {
            EXPECT_EQ(impl_name(pd), c.impl);
        }
        const bool select = c.alg == dnnl_binary_select;

        tensor_t src0(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0));
        tensor_t src1(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 1));
        std::unique_ptr<tensor_t> src2;
        if (select)
            src2.reset(new tensor_t(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 2)));
        const_dnnl_memory_desc_t dst_md = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
        // Garbage in dst, so that unwritten elements and padding show.
        std::unique_ptr<tensor_t> own_dst;
        if (!c.inplace) own_dst.reset(new tensor_t(engine, dst_md, 0x7f));
        tensor_t &dst = c.inplace ? src0 : *own_dst;
        src0.fill_random(seed);
        src1.fill_random(seed + 1, c.alg == dnnl_binary_div);
        if (select) src2->fill_random(seed + 2);

        bool has_sum = false;
        for (const po_t &p : c.po)
            has_sum = has_sum || p.kind == dnnl_sum;
        if (has_sum && !c.inplace) dst.fill_random(seed + 3);
        // The old dst, read as dst's type, for sum and the in-place case.
        const std::vector<double> old = values(dst);

        std::vector<std::unique_ptr<tensor_t>> po_src(c.po.size()), po_cond(c.po.size());
        std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC_0, src0.mem},
                {DNNL_ARG_SRC_1, src1.mem}, {DNNL_ARG_DST, dst.mem}};
        if (select) args.push_back({DNNL_ARG_SRC_2, src2->mem});
        for (size_t i = 0; i < c.po.size(); ++i) {
            const po_t &p = c.po[i];
            if (p.kind != dnnl_binary && p.kind != dnnl_prelu) continue;
            const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i))
                    | (p.kind == dnnl_binary ? DNNL_ARG_SRC_1 : DNNL_ARG_WEIGHTS);
            const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
            po_src[i].reset(new tensor_t(engine, md));
            po_src[i]->fill_random(seed + 10 + static_cast<uint32_t>(i));
            args.push_back({arg, po_src[i]->mem});
            if (p.alg == dnnl_binary_select) {
                const int arg2 = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i)) | DNNL_ARG_SRC_2;
                po_cond[i].reset(new tensor_t(engine,
                        dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg2)));
                po_cond[i]->fill_random(seed + 30 + static_cast<uint32_t>(i));
                args.push_back({arg2, po_cond[i]->mem});
            }
        }
        std::unique_ptr<tensor_t> sc0, sc1;
        const spec_t scale_spec {{1}, dnnl_f32, dnnl_a};
        if (c.scale0 != 0.f) {
            sc0.reset(new tensor_t(engine, scale_spec));
            int64_t z = 0;
            sc0->set(&z, c.scale0);
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0, sc0->mem});
        }
        if (c.scale1 != 0.f) {
            sc1.reset(new tensor_t(engine, scale_spec));
            int64_t z = 0;
            sc1->set(&z, c.scale1);
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1, sc1->mem});
        }

        // Reference inputs are read before the primitive can overwrite them (in place).
        binary_ref::inputs_t in;
        in.alg = c.alg;
        in.src0 = &src0;
        in.src1 = &src1;
        in.src2 = src2.get();
        in.scale0 = c.scale0 != 0.f ? c.scale0 : 1.f;
        in.scale1 = c.scale1 != 0.f ? c.scale1 : 1.f;
        in.po = post_ops_ref::of(pd);
        for (size_t i = 0; i < c.po.size(); ++i) {
            in.po_ops.src1.push_back(po_src[i].get());
            in.po_ops.src2.push_back(po_cond[i].get());
        }
        in.old_dst = old;
        const std::vector<float> expect = binary_ref::expected(in, dst.lay);

        ASSERT_EQ(execute(pd, args), dnnl_success);

        SCOPED_TRACE(impl_name(pd));
        expect_values(expect, dst);
        dnnl_primitive_desc_destroy(pd);
    }

    bool avx512() { return dnnl_get_effective_cpu_isa() >= dnnl_cpu_isa_avx512_core; }
};

spec_t plain(dims_t d, dnnl_data_type_t dt = dnnl_f32) {
    const dnnl_format_tag_t tags[] = {dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd, dnnl_abcde};
    return {d, dt, tags[d.size() - 1]};
}
spec_t tagged(dims_t d, dnnl_format_tag_t tag, dnnl_data_type_t dt = dnnl_f32) {
    return {d, dt, tag};
}
spec_t any(dims_t d, dnnl_data_type_t dt = dnnl_f32) {
    return {d, dt, dnnl_format_tag_any};
}

} // namespace

TEST_F(binary_test, every_algorithm_f32_same_shape) {
    for (auto alg : all_two_input_algs) {
        SCOPED_TRACE(dnnl_alg_kind2str(alg));
        bin_case_t c;
        c.alg = alg;
        c.src0 = c.src1 = plain({2, 3, 4, 5});
        c.dst = any({2, 3, 4, 5});
        if (avx512()) c.impl = "cpu:binary:avx512";
        run(c);
    }
}

TEST_F(binary_test, every_algorithm_through_the_reference) {
    // Blocked with a channel tail: no vector path applies.
    for (auto alg : all_two_input_algs) {
        SCOPED_TRACE(dnnl_alg_kind2str(alg));
        bin_case_t c;
        c.alg = alg;
        c.src0 = c.dst = tagged({2, 19, 3, 3}, dnnl_nChw16c);
        c.src1 = plain({1, 19, 1, 1});
        c.impl = "cpu:binary:ref";
        run(c);
    }
}

TEST_F(binary_test, select_picks_src0_where_condition_is_set) {
    bin_case_t c;
    c.alg = dnnl_binary_select;
    c.src0 = plain({2, 3, 4, 5});
    c.src1 = plain({1, 3, 1, 1});
    c.src2 = plain({2, 1, 4, 5}, dnnl_s8);
    c.dst = any({2, 3, 4, 5});
    run(c);
    c.src1 = c.src0;
    c.src2 = plain({2, 3, 4, 5}, dnnl_s8);
    c.dst = tagged({2, 3, 4, 5}, dnnl_nhwc, dnnl_bf16);
    run(c, 7);
}

TEST_F(binary_test, broadcasts_scalar_channel_and_general) {
    const std::vector<dims_t> src1_dims = {{1, 1, 1, 1}, {1, 8, 1, 1}, {2, 8, 1, 1},
            {1, 1, 5, 6}, {2, 1, 1, 6}, {1, 8, 5, 1}, {2, 8, 5, 6}};
    const dnnl_format_tag_t tags[] = {dnnl_nchw, dnnl_nhwc};
    for (auto tag : tags)
        for (const auto &d1 : src1_dims)
            for (auto alg : {dnnl_binary_add, dnnl_binary_div, dnnl_binary_lt}) {
                bin_case_t c;
                c.alg = alg;
                c.src0 = tagged({2, 8, 5, 6}, tag);
                c.src1 = plain(d1);
                c.dst = any({2, 8, 5, 6});
                SCOPED_TRACE(testing::Message() << "tag " << tag << " src1 " << d1[0] << "x"
                                                << d1[1] << "x" << d1[2] << "x" << d1[3]);
                run(c);
            }
}

TEST_F(binary_test, vector_path_takes_channel_broadcast_in_both_layouts) {
    if (!avx512()) GTEST_SKIP() << "no avx512_core";
    for (auto tag : {dnnl_nchw, dnnl_nhwc}) {
        bin_case_t c;
        c.alg = dnnl_binary_mul;
        c.src0 = tagged({3, 21, 7, 5}, tag);
        c.src1 = plain({1, 21, 1, 1});
        c.dst = any({3, 21, 7, 5});
        c.impl = "cpu:binary:avx512";
        run(c);
    }
    // Blocked dst without a channel tail; one block of channels is the edge case.
    for (int64_t ch : {16, 48}) {
        bin_case_t c;
        c.alg = dnnl_binary_sub;
        c.src0 = tagged({3, ch, 7, 5}, dnnl_nChw16c);
        c.src1 = plain({1, ch, 1, 1}, dnnl_bf16);
        c.dst = any({3, ch, 7, 5});
        c.scale1 = 2.f;
        c.impl = "cpu:binary:avx512";
        run(c);
    }
}

TEST_F(binary_test, src0_may_broadcast_too) {
    bin_case_t c;
    c.alg = dnnl_binary_sub;
    c.src0 = plain({1, 4, 1, 3});
    c.src1 = plain({2, 4, 5, 3});
    c.dst = plain({2, 4, 5, 3});
    c.impl = "cpu:binary:ref";
    run(c);
}

TEST_F(binary_test, mixed_data_types) {
    const dnnl_data_type_t dts[] = {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32};
    for (auto t0 : dts)
        for (auto t1 : dts)
            for (auto td : dts) {
                SCOPED_TRACE(testing::Message() << dnnl_dt2str(t0) << " " << dnnl_dt2str(t1)
                                                << " -> " << dnnl_dt2str(td));
                bin_case_t c;
                c.alg = dnnl_binary_mul;
                c.src0 = plain({3, 5, 7}, t0);
                c.src1 = plain({3, 1, 7}, t1);
                c.dst = plain({3, 5, 7}, td);
                run(c);
            }
}

TEST_F(binary_test, vector_path_converts_bf16_and_f16) {
    const dnnl_data_type_t dts[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    for (auto t0 : dts)
        for (auto t1 : dts)
            for (auto td : dts) {
                bin_case_t c;
                c.alg = dnnl_binary_add;
                c.src0 = plain({4, 37}, t0);
                c.src1 = plain({4, 37}, t1);
                c.dst = plain({4, 37}, td);
                if (avx512()) c.impl = "cpu:binary:avx512";
                run(c);
            }
}

TEST_F(binary_test, layouts_plain_blocked_strided) {
    struct layouts_t {
        spec_t s0, s1, d;
    };
    const dims_t d = {2, 19, 3, 5};
    const std::vector<layouts_t> cases = {
            {tagged(d, dnnl_nhwc), tagged(d, dnnl_nchw), any(d)},
            {tagged(d, dnnl_nChw16c), tagged(d, dnnl_nChw8c), tagged(d, dnnl_nhwc)},
            {tagged(d, dnnl_nchw), tagged(d, dnnl_nChw16c), tagged(d, dnnl_nChw16c)},
            {tagged(d, dnnl_nChw8c), plain({1, 19, 1, 1}), any(d)},
            // Strided with gaps: every stride doubled.
            {spec_t(d, dnnl_f32, dnnl_format_tag_undef, {19 * 15 * 2 * 2, 15 * 2 * 2, 5 * 2 * 2, 2}),
                    tagged(d, dnnl_nchw),
                    spec_t(d, dnnl_f32, dnnl_format_tag_undef, {19 * 15 * 3, 1, 19 * 5 * 3, 19 * 3})},
            {tagged(d, dnnl_cdba), tagged(d, dnnl_bcda), any(d)},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(i);
        bin_case_t c;
        c.alg = dnnl_binary_max;
        c.src0 = cases[i].s0;
        c.src1 = cases[i].s1;
        c.dst = cases[i].d;
        run(c);
    }
}

TEST_F(binary_test, dst_any_follows_src0) {
    bin_case_t c;
    c.src0 = tagged({2, 19, 3, 3}, dnnl_nChw16c);
    c.src1 = plain({2, 19, 3, 3});
    c.dst = any({2, 19, 3, 3}, dnnl_bf16);
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(create_pd(&pd, c), dnnl_success);
    dnnl_memory_desc_t want = make_md(tagged({2, 19, 3, 3}, dnnl_nChw16c, dnnl_bf16));
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), want), 1);
    dnnl_memory_desc_destroy(want);
    dnnl_primitive_desc_destroy(pd);
    run(c);
}

TEST_F(binary_test, shapes_one_odd_large_and_empty) {
    const std::vector<dims_t> shapes = {{1}, {1, 1, 1}, {3, 5, 7}, {17}, {4, 64, 56, 57}, {0, 3},
            {2, 0, 4}};
    for (const auto &d : shapes) {
        bin_case_t c;
        c.alg = dnnl_binary_add;
        c.src0 = c.src1 = plain(d);
        c.dst = plain(d);
        run(c);
        dims_t d1(d.size(), 1);
        c.src1 = plain(d1);
        c.src0 = plain(d, dnnl_bf16);
        run(c, 3);
    }
}

TEST_F(binary_test, in_place_on_src0) {
    bin_case_t c;
    c.alg = dnnl_binary_sub;
    c.src0 = c.dst = tagged({2, 16, 4, 4}, dnnl_nhwc);
    c.src1 = plain({1, 16, 1, 1});
    c.inplace = true;
    run(c);
    c.src0 = c.dst = tagged({2, 20, 4, 4}, dnnl_nChw16c);
    c.src1 = plain({1, 20, 1, 1});
    run(c);
}

TEST_F(binary_test, scales_on_both_sources) {
    bin_case_t c;
    c.alg = dnnl_binary_add;
    c.src0 = plain({2, 6, 5}, dnnl_s8);
    c.src1 = plain({2, 6, 5}, dnnl_u8);
    c.dst = plain({2, 6, 5}, dnnl_s8);
    c.scale0 = 0.5f;
    c.scale1 = 0.25f;
    run(c);
    c.src0 = plain({2, 6, 5});
    c.src1 = plain({1, 6, 1});
    c.dst = plain({2, 6, 5});
    if (avx512()) c.impl = "cpu:binary:avx512";
    run(c);
    c.scale0 = 0.f;
    c.impl = "";
    c.src0 = tagged({2, 6, 5}, dnnl_acb);
    run(c);
}

TEST_F(binary_test, post_op_chain_sum_eltwise_binary_prelu) {
    const dims_t d = {2, 16, 5, 3};
    bin_case_t c;
    c.alg = dnnl_binary_mul;
    c.src0 = c.src1 = plain(d);
    c.dst = plain(d);
    c.po = {po_sum(0.5f), po_eltwise(dnnl_eltwise_relu, 0.1f),
            po_binary(dnnl_binary_add, plain({1, 16, 1, 1})), po_prelu(2),
            po_binary(dnnl_binary_min, plain(d)), po_eltwise(dnnl_eltwise_tanh)};
    if (avx512()) c.impl = "cpu:binary:avx512";
    run(c);
    // The same chain where dst's layout sends everything through the reference.
    c.src0 = tagged(d, dnnl_nChw16c);
    c.dst = any(d);
    c.impl = "cpu:binary:ref";
    run(c);
    // Blocked dst whose post-op operands follow its memory order.
    c.src0 = c.src1 = tagged(d, dnnl_nChw16c);
    c.dst = any(d);
    c.po = {po_binary(dnnl_binary_add, plain({1, 16, 1, 1})), po_prelu(2), po_sum(1.f),
            po_binary(dnnl_binary_mul, plain({1, 1, 1, 1}))};
    if (avx512()) c.impl = "cpu:binary:avx512";
    run(c);
    c.impl = "";
    // A post-op operand that does not follow dst's memory order.
    c.src0 = plain(d);
    c.dst = plain(d);
    c.po = {po_binary(dnnl_binary_sub, tagged(d, dnnl_nhwc)), po_prelu(1 | 8)};
    run(c);
}

TEST_F(binary_test, post_op_select_reads_its_condition) {
    const dims_t d = {3, 8, 5};
    bin_case_t c;
    c.alg = dnnl_binary_add;
    c.src0 = c.src1 = plain(d);
    c.dst = plain(d);
    c.po = {po_select(plain({1, 8, 1}), plain(d, dnnl_s8)), po_eltwise(dnnl_eltwise_abs)};
    run(c);
    c.src0 = tagged(d, dnnl_acb);
    c.po = {po_select(plain(d), plain({3, 1, 5}, dnnl_u8))};
    run(c);
}

TEST_F(binary_test, post_ops_with_integer_dst) {
    bin_case_t c;
    c.alg = dnnl_binary_add;
    c.src0 = plain({3, 4, 5}, dnnl_s8);
    c.src1 = plain({1, 4, 1}, dnnl_s8);
    c.dst = plain({3, 4, 5}, dnnl_u8);
    c.po = {po_sum(2.f, 3), po_eltwise(dnnl_eltwise_linear, 1.5f, -2.f),
            po_binary(dnnl_binary_max, plain({3, 1, 5}, dnnl_s32))};
    run(c);
}

TEST_F(binary_test, bad_arguments_are_reported) {
    dnnl_memory_desc_t a = make_md(plain({2, 3, 4})), b = make_md(plain({2, 5, 4})),
                       one = make_md(plain({1, 3, 1})), two_d = make_md(plain({2, 3})),
                       anyd = make_md(any({2, 3, 4})), s8 = make_md(plain({2, 3, 4}, dnnl_s8)),
                       src0_bc = make_md(plain({1, 3, 4}));
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, b, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, two_d, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, a, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, nullptr, a, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(nullptr, engine, dnnl_binary_add, a, a, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, nullptr, dnnl_binary_add, a, a, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_eltwise_relu, a, a, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, anyd, a, a, nullptr),
            dnnl_invalid_arguments);
    // dst's extent must come from one of the sources.
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, src0_bc, src0_bc, a,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, one, one, nullptr),
            dnnl_invalid_arguments);
    // select: needs the v2 entry point and an s8 condition.
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_select, a, a, a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create_v2(&pd, engine, dnnl_binary_select, a, a, nullptr,
                      a, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_binary_primitive_desc_create_v2(&pd, engine, dnnl_binary_select, a, a, a, a,
                      nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_binary_primitive_desc_create_v2(&pd, engine, dnnl_binary_select, a, a, s8, a,
                      nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);

    // Unsupported attributes: per-dimension scales, scales on dst.
    dnnl_primitive_attr_t attr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC_1, 2), dnnl_success);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, a, a, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, a, a, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);

    // A binary post-op whose source does not broadcast to dst.
    dnnl_post_ops_t ops;
    ASSERT_EQ(dnnl_post_ops_create(&ops), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary(ops, dnnl_binary_add, b), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, ops), dnnl_success);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, engine, dnnl_binary_add, a, a, a, attr),
            dnnl_invalid_arguments);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(ops);

    for (auto m : {a, b, one, two_d, anyd, s8, src0_bc})
        dnnl_memory_desc_destroy(m);
}

TEST_F(binary_test, wrong_memory_at_execution_is_rejected) {
    bin_case_t c;
    c.src0 = c.src1 = plain({2, 3, 4});
    c.dst = plain({2, 3, 4});
    c.po = {po_binary(dnnl_binary_add, plain({1, 3, 1}))};
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(create_pd(&pd, c), dnnl_success);
    tensor_t s0(engine, plain({2, 3, 4})), s1(engine, plain({2, 3, 4})), d(engine, plain({2, 3, 4}));
    // Too small a memory is refused; one of the same size in another layout is taken as the
    // primitive's layout, as oneDNN does (it checks only that arguments are there).
    tensor_t wrong(engine, plain({2, 3, 3})), nhwc(engine, tagged({2, 3, 4}, dnnl_acb));
    tensor_t po1(engine, plain({1, 3, 1}));
    const int po_arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
    EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC_0, s0.mem}, {DNNL_ARG_SRC_1, s1.mem},
                                  {DNNL_ARG_DST, d.mem}, {po_arg, po1.mem}}),
            dnnl_success);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC_0, s0.mem}, {DNNL_ARG_SRC_1, wrong.mem},
                                  {DNNL_ARG_DST, d.mem}, {po_arg, po1.mem}}),
            dnnl_invalid_arguments);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC_0, s0.mem}, {DNNL_ARG_SRC_1, s1.mem},
                                  {DNNL_ARG_DST, nhwc.mem}, {po_arg, po1.mem}}),
            dnnl_success);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC_0, s0.mem}, {DNNL_ARG_SRC_1, s1.mem},
                                  {DNNL_ARG_DST, d.mem}}),
            dnnl_invalid_arguments);
    EXPECT_EQ(execute(pd, {{DNNL_ARG_SRC_0, s0.mem}, {DNNL_ARG_DST, d.mem}, {po_arg, po1.mem}}),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(binary_test, queries_report_inputs_and_algorithm) {
    bin_case_t c;
    c.alg = dnnl_binary_select;
    c.src0 = c.src1 = plain({2, 3});
    c.src2 = plain({2, 3}, dnnl_s8);
    c.dst = plain({2, 3});
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(create_pd(&pd, c), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_inputs_s32, 0), 3);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_outputs_s32, 0), 1);
    dnnl_alg_kind_t alg;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_alg_kind, 0, &alg), dnnl_success);
    EXPECT_EQ(alg, dnnl_binary_select);
    dnnl_data_type_t dt;
    ASSERT_EQ(dnnl_memory_desc_query(dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 2),
                      dnnl_query_data_type, &dt),
            dnnl_success);
    EXPECT_EQ(dt, dnnl_s8);
    dnnl_primitive_desc_destroy(pd);
}
