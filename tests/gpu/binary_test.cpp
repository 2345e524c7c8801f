// GPU binary (dense and generic kernels) against the CPU engine: every algorithm incl. select,
// broadcast kinds, blocked layouts with tails, data types, src scales, post-ops.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

struct binary_case_t {
    dnnl_alg_kind_t alg;
    std::vector<int64_t> d0, d1, dd;
    dnnl_data_type_t dt0 = dnnl_f32, dt1 = dnnl_f32, dtd = dnnl_f32;
    dnnl_format_tag_t tag = dnnl_nchw;
    bool scales = false;
    dnnl_post_ops_t po = nullptr;
};

void check(const binary_case_t &t) {
    dnnl_memory_desc_t a = md(t.d0, t.dt0, t.tag), b = md(t.d1, t.dt1, t.tag),
                       d = md(t.dd, t.dtd, t.tag);
    dnnl_memory_desc_t c = t.alg == dnnl_binary_select ? md(t.d1, dnnl_s8, t.tag) : nullptr;
    dnnl_primitive_attr_t attr = nullptr;
    std::vector<int> args = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_DST};
    if (c) args.push_back(DNNL_ARG_SRC_2);
    if (t.scales || t.po) {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        if (t.scales) {
            for (int arg : {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1}) {
                ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, arg, 0), dnnl_success);
                args.push_back(DNNL_ARG_ATTR_SCALES | arg);
            }
        }
        if (t.po) {
            ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, t.po), dnnl_success);
            for (int i = 0; i < dnnl_post_ops_len(t.po); ++i)
                if (dnnl_post_ops_get_kind(t.po, i) == dnnl_binary)
                    args.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
        }
    }
    expect_gpu_matches_cpu(
            [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                return c ? dnnl_binary_primitive_desc_create_v2(pd, e, t.alg, a, b, c, d, attr)
                         : dnnl_binary_primitive_desc_create(pd, e, t.alg, a, b, d, attr);
            },
            args, DNNL_ARG_DST);
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : {a, b, c, d})
        if (m) dnnl_memory_desc_destroy(m);
}

TEST(GpuBinary, EveryAlgorithmFullAndBroadcast) {
    SKIP_WITHOUT_GPU();
    // div is left out: the test values include zero divisors (inf on both engines).
    const dnnl_alg_kind_t algs[] = {dnnl_binary_add, dnnl_binary_mul, dnnl_binary_max,
            dnnl_binary_min, dnnl_binary_sub, dnnl_binary_ge, dnnl_binary_gt,
            dnnl_binary_le, dnnl_binary_lt, dnnl_binary_eq, dnnl_binary_ne, dnnl_binary_select};
    for (dnnl_alg_kind_t alg : algs) {
        SCOPED_TRACE(alg);
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
