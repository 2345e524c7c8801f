// GPU LRN against the reference of tests/primitives (lrn_ref.hpp): across and within
// channels, forward and backward, odd and even window sizes, sizes 1, odd channels, 1D/2D/3D
// spatial, blocked tails (padding zeroed), channels last, bf16, an empty batch; attributes are
// unimplemented.
#include "gpu/device_copy.hpp"
#include "primitives/lrn_ref.hpp"

namespace {

using namespace gpu_test;

struct case_t {
    std::vector<int64_t> dims;
    dnnl_format_tag_t tag;
    dnnl_data_type_t dt;
    int64_t ls;
};

const case_t cases[] = {
        {{1, 1, 1, 1}, dnnl_abcd, dnnl_f32, 5},
        {{2, 7, 3, 4}, dnnl_abcd, dnnl_f32, 5},
        {{2, 7, 3, 4}, dnnl_acdb, dnnl_f32, 3},
        {{2, 19, 2, 3}, dnnl_aBcd16b, dnnl_f32, 5},
        {{1, 3, 9}, dnnl_abc, dnnl_f32, 4},
        {{1, 3, 3, 2, 3}, dnnl_abcde, dnnl_f32, 3},
        {{2, 8, 3, 3}, dnnl_abcd, dnnl_bf16, 5},
        {{0, 4, 3, 3}, dnnl_abcd, dnnl_f32, 3},
};

dnnl_status_t make_fwd(dnnl_primitive_desc_t *pd, dnnl_engine_t e, const case_t &c,
        dnnl_alg_kind_t alg, const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_memory_desc_t m = md(c.dims, c.dt, c.tag);
    const dnnl_status_t st = dnnl_lrn_forward_primitive_desc_create(
            pd, e, dnnl_forward_training, alg, m, m, c.ls, 0.3f, 0.75f, 1.5f, attr);
    dnnl_memory_desc_destroy(m);
    return st;
}

// The problem's parameters for the reference (those make_fwd passes).
lrn_ref::params_t params_of(const case_t &c, dnnl_alg_kind_t alg) {
    return {alg, c.ls, 0.3, 0.75, 1.5};
}

// Every GPU implementation of the forward (fwd) or backward LRN of c against the reference.
void check(const case_t &c, dnnl_alg_kind_t alg, bool fwd) {
    SCOPED_TRACE("ndims " + std::to_string(c.dims.size()) + " c " + std::to_string(c.dims[1])
            + " alg " + std::to_string(int(alg)) + (fwd ? " forward" : " backward"));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    EXPECT_EQ(make_fwd(&hint, gpu, c, alg), dnnl_success);
    if (fwd) {
        pd = hint;
        hint = nullptr;
    } else {
        dnnl_memory_desc_t m = md(c.dims, c.dt, c.tag);
        EXPECT_EQ(dnnl_lrn_backward_primitive_desc_create(
                          &pd, gpu, alg, m, m, m, c.ls, 0.3f, 0.75f, 1.5f, hint, nullptr),
                dnnl_success);
        dnnl_memory_desc_destroy(m);
    }
    const lrn_ref::params_t p = params_of(c, alg);
    if (pd && fwd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC}, {DNNL_ARG_DST},
                          [&](const std::vector<c_tensor::tensor_t *> &t) {
                              lrn_ref::expect_forward(*t[0], *t[1], c.dims, p, c.dt);
                          }),
                1);
    }
    if (pd && !fwd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST},
                          {DNNL_ARG_DIFF_SRC},
                          [&](const std::vector<c_tensor::tensor_t *> &t) {
                              lrn_ref::expect_backward(*t[0], *t[1], *t[2], c.dims, p, c.dt);
                          }),
                1);
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuLrn, ForwardEveryAlgorithmAndShape) {
    SKIP_WITHOUT_GPU();
    for (const auto &c : cases)
        for (auto alg : {dnnl_lrn_across_channels, dnnl_lrn_within_channel})
            check(c, alg, true);
}

TEST(GpuLrn, BackwardEveryAlgorithmAndShape) {
    SKIP_WITHOUT_GPU();
    for (const auto &c : cases)
        for (auto alg : {dnnl_lrn_across_channels, dnnl_lrn_within_channel})
            check(c, alg, false);
}

TEST(GpuLrn, AttributesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(make_fwd(&pd, gpu, cases[1], dnnl_lrn_across_channels, attr), dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    dnnl_engine_destroy(gpu);
}

} // namespace
