// GPU eltwise forward with post-ops (the shared OpenCL post-op applier) against the references
// of tests/primitives (eltwise_ref.hpp, post_ops_ref.hpp): sum, eltwise, binary with
// broadcast (in a blocked layout of its own), prelu; plain and blocked dst (padding zero).
#include <algorithm>

#include "gpu/device_copy.hpp"
#include "primitives/eltwise_ref.hpp"
#include "primitives/post_ops_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

void check(dnnl_format_tag_t tag, dnnl_post_ops_t po, const std::vector<int> &po_args) {
    SCOPED_TRACE(dnnl_fmt_tag2str(tag));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const std::vector<int64_t> dims = {2, 17, 3, 5};
    dnnl_memory_desc_t s = md(dims, dnnl_f32, tag);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    // dst is read by the sum before it is written.
    std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_DST};
    ins.insert(ins.end(), po_args.begin(), po_args.end());
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, gpu, dnnl_forward_inference,
                      dnnl_eltwise_tanh, s, s, 0.f, 0.f, attr),
            dnnl_success);
    if (pd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &t) {
                              const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
                              const auto ops = post_ops_ref::operands_of(chain, ins, t);
                              const std::vector<double> x = c_tensor::values(*t[0]),
                                                        old = c_tensor::values(*t[1]);
                              std::vector<float> want;
                              std::vector<double> slack;
                              int64_t pos[DNNL_MAX_NDIMS] = {};
                              size_t k = 0;
                              do {
                                  const double y = eltwise_ref::forward(
                                          dnnl_eltwise_tanh, x[k], 0, 0);
                                  // tanh to a few ulps, then the chain's own roundings.
                                  double err = 4 * post_ops_ref::f32_eps;
                                  want.push_back(static_cast<float>(post_ops_ref::apply(
                                          chain, y, old[k], pos, ops, &err)));
                                  slack.push_back(2 * err);
                                  ++k;
                              } while (c_tensor::next_pos(pos, dims.data(), 4));
                              c_tensor::expect_values(want, *t.back(), slack);
                          }),
                1);
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(s);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuEltwisePostOps, SumEltwiseBinaryPrelu) {
    SKIP_WITHOUT_GPU();
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_linear, 2.f, 1.f), dnnl_success);
    dnnl_memory_desc_t per_c = md({1, 17, 1, 1}, dnnl_f32, dnnl_nChw16c);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_sub, per_c), dnnl_success);
    dnnl_memory_desc_t full = md({2, 17, 3, 5}, dnnl_s8, dnnl_nhwc);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_mul, full), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_prelu(po, 1 << 1), dnnl_success);
    const std::vector<int> args = {DNNL_ARG_ATTR_MULTIPLE_POST_OP(2) | DNNL_ARG_SRC_1,
            DNNL_ARG_ATTR_MULTIPLE_POST_OP(3) | DNNL_ARG_SRC_1,
            DNNL_ARG_ATTR_MULTIPLE_POST_OP(4) | DNNL_ARG_WEIGHTS};
    check(dnnl_nchw, po, args);
    check(dnnl_nChw16c, po, args);
    dnnl_memory_desc_destroy(per_c);
    dnnl_memory_desc_destroy(full);
    dnnl_post_ops_destroy(po);
}

TEST(GpuEltwisePostOps, SevenPostOpsAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    for (int i = 0; i < 7; ++i)
        ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_memory_desc_t s = md({4, 4}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, gpu, dnnl_forward_inference,
                      dnnl_eltwise_relu, s, s, 0.f, 0.f, attr),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(s);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    dnnl_engine_destroy(gpu);
}

} // namespace
