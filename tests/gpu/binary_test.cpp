// GPU binary (dense and generic kernels) against the reference of tests/primitives
// (binary_ref.hpp): every algorithm incl. select and div, broadcast kinds, blocked layouts with
// tails (padding zero), data types, src scales, post-ops.
#include <algorithm>

#include "gpu/device_copy.hpp"
#include "primitives/binary_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct binary_case_t {
    dnnl_alg_kind_t alg;
    std::vector<int64_t> d0, d1, dd;
    dnnl_data_type_t dt0 = dnnl_f32, dt1 = dnnl_f32, dtd = dnnl_f32;
    dnnl_format_tag_t tag = dnnl_nchw;
    bool scales = false;
    dnnl_post_ops_t po = nullptr;
};

void check(const binary_case_t &t) {
    SCOPED_TRACE(::testing::Message() << dnnl_alg_kind2str(t.alg) << " " << dnnl_dt2str(t.dt0)
                                      << " " << dnnl_fmt_tag2str(t.tag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md(t.d0, t.dt0, t.tag), b = md(t.d1, t.dt1, t.tag),
                       d = md(t.dd, t.dtd, t.tag);
    const bool select = t.alg == dnnl_binary_select;
    dnnl_memory_desc_t c = select ? md(t.d1, dnnl_s8, t.tag) : nullptr;
    dnnl_primitive_attr_t attr = nullptr;
    std::vector<int> ins = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1};
    if (c) ins.push_back(DNNL_ARG_SRC_2);
    if (t.scales || t.po) {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        if (t.scales) {
            for (int arg : {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1}) {
                ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, arg, 0), dnnl_success);
                ins.push_back(DNNL_ARG_ATTR_SCALES | arg);
            }
        }
        if (t.po) {
            ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, t.po), dnnl_success);
            for (int i = 0; i < dnnl_post_ops_len(t.po); ++i) {
                const dnnl_primitive_kind_t k = dnnl_post_ops_get_kind(t.po, i);
                if (k == dnnl_binary) ins.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
                if (k == dnnl_sum) ins.push_back(DNNL_ARG_DST); // read before it is written
            }
        }
    }
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(select ? dnnl_binary_primitive_desc_create_v2(&pd, gpu, t.alg, a, b, c, d, attr)
                     : dnnl_binary_primitive_desc_create(&pd, gpu, t.alg, a, b, d, attr),
            dnnl_success);
    // Divisors are never zero.
    auto fill = [&](int arg, tensor_t &x, uint32_t seed) {
        default_fill(arg, x, seed);
        if (arg == DNNL_ARG_SRC_1 && t.alg == dnnl_binary_div) x.fill_random(seed, true);
    };
    if (pd) {
        EXPECT_GE(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &x) {
                              const lookup_t in {ins, x};
                              binary_ref::inputs_t r;
                              r.alg = t.alg;
                              r.src0 = in(DNNL_ARG_SRC_0);
                              r.src1 = in(DNNL_ARG_SRC_1);
                              r.src2 = in(DNNL_ARG_SRC_2);
                              const int64_t zero = 0;
                              if (t.scales) {
                                  r.scale0 = in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0)->get(&zero);
                                  r.scale1 = in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1)->get(&zero);
                              }
                              r.po = post_ops_ref::of(pd);
                              r.po_ops = post_ops_ref::operands_of(r.po, ins, x);
                              if (in(DNNL_ARG_DST)) r.old_dst = c_tensor::values(*in(DNNL_ARG_DST));
                              const tensor_t &dst = *x.back();
                              c_tensor::expect_values(binary_ref::expected(r, dst.lay), dst);
                          },
                          fill),
                1);
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : {a, b, c, d})
        if (m) dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuBinary, EveryAlgorithmFullAndBroadcast) {
    SKIP_WITHOUT_GPU();
    const dnnl_alg_kind_t algs[] = {dnnl_binary_add, dnnl_binary_mul, dnnl_binary_max,
            dnnl_binary_min, dnnl_binary_div, dnnl_binary_sub, dnnl_binary_ge, dnnl_binary_gt,
            dnnl_binary_le, dnnl_binary_lt, dnnl_binary_eq, dnnl_binary_ne, dnnl_binary_select};
    for (dnnl_alg_kind_t alg : algs) {
        check({alg, {2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}});
        check({alg, {2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5}});
    }
}

TEST(GpuBinary, BroadcastKindsLayoutsAndTypes) {
    SKIP_WITHOUT_GPU();
    check({dnnl_binary_add, {2, 3, 4, 5}, {1, 1, 1, 1}, {2, 3, 4, 5}});
    check({dnnl_binary_mul, {2, 3, 4, 5}, {2, 1, 4, 1}, {2, 3, 4, 5}});
    check({dnnl_binary_sub, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}});
    check({dnnl_binary_add, {2, 17, 3, 3}, {1, 17, 1, 1}, {2, 17, 3, 3}, dnnl_f32, dnnl_f32,
            dnnl_f32, dnnl_nChw16c});
    check({dnnl_binary_max, {2, 5, 3, 3}, {2, 5, 3, 3}, {2, 5, 3, 3}, dnnl_s8, dnnl_u8,
            dnnl_bf16, dnnl_nhwc});
    check({dnnl_binary_add, {0, 5, 3, 3}, {0, 5, 3, 3}, {0, 5, 3, 3}});
}

TEST(GpuBinary, ScalesAndPostOps) {
    SKIP_WITHOUT_GPU();
    check({dnnl_binary_add, {2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}, dnnl_f32, dnnl_f32,
            dnnl_f32, dnnl_nchw, true});
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    dnnl_memory_desc_t src1 = md({1, 17, 1, 1}, dnnl_f32, dnnl_nchw);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_mul, src1), dnnl_success);
    check({dnnl_binary_add, {2, 17, 3, 3}, {2, 17, 3, 3}, {2, 17, 3, 3}, dnnl_f32, dnnl_f32,
            dnnl_f32, dnnl_nChw16c, true, po});
    dnnl_memory_desc_destroy(src1);
    dnnl_post_ops_destroy(po);
}

} // namespace
