// GPU inner product (tiled and generic GEMM kernels) against the CPU engine: forward with bias
// (2D and 4D src, plain and channels-last), int8 forward, backward data, backward weights
// with diff bias.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

struct ip_shape_t {
    std::vector<int64_t> src, wei, dst;
    dnnl_format_tag_t act_tag, wei_tag;
};

void check(dnnl_prop_kind_t prop, const ip_shape_t &s, dnnl_data_type_t sdt = dnnl_f32,
        dnnl_data_type_t wdt = dnnl_f32, dnnl_data_type_t ddt = dnnl_f32) {
    dnnl_memory_desc_t src = md(s.src, sdt, s.act_tag), wei = md(s.wei, wdt, s.wei_tag),
                       dst = md(s.dst, ddt, dnnl_ab), bias = md({s.dst[1]}, dnnl_f32, dnnl_a);
    std::vector<int> args;
    int out = 0;
    make_pd_t make;
    if (prop == dnnl_forward_inference) {
        args = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST};
        out = DNNL_ARG_DST;
        make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
            return dnnl_inner_product_forward_primitive_desc_create(
                    pd, e, prop, src, wei, bias, dst, nullptr);
        };
        const int impls = expect_gpu_matches_cpu(make, args, out);
        EXPECT_GE(impls, 1); // the tiled form only where the device can run it
    } else if (prop == dnnl_backward_data) {
        args = {DNNL_ARG_DIFF_DST, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_SRC};
        make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
            dnnl_primitive_desc_t hint = nullptr;
            dnnl_status_t st = dnnl_inner_product_forward_primitive_desc_create(
                    &hint, e, dnnl_forward_training, src, wei, bias, dst, nullptr);
            if (st != dnnl_success) return st;
            st = dnnl_inner_product_backward_data_primitive_desc_create(
                    pd, e, src, wei, dst, hint, nullptr);
            dnnl_primitive_desc_destroy(hint);
            return st;
        };
        EXPECT_GE(expect_gpu_matches_cpu(make, args, DNNL_ARG_DIFF_SRC), 1);
    } else {
        args = {DNNL_ARG_DIFF_DST, DNNL_ARG_SRC, DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_BIAS};
        make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
            dnnl_primitive_desc_t hint = nullptr;
            dnnl_status_t st = dnnl_inner_product_forward_primitive_desc_create(
                    &hint, e, dnnl_forward_training, src, wei, bias, dst, nullptr);
            if (st != dnnl_success) return st;
            st = dnnl_inner_product_backward_weights_primitive_desc_create(
                    pd, e, src, wei, bias, dst, hint, nullptr);
            dnnl_primitive_desc_destroy(hint);
            return st;
        };
        EXPECT_GE(expect_gpu_matches_cpu(make, args, DNNL_ARG_DIFF_WEIGHTS), 1);
        EXPECT_GE(expect_gpu_matches_cpu(make, args, DNNL_ARG_DIFF_BIAS), 1);
    }
    for (dnnl_memory_desc_t m : {src, wei, dst, bias})
        dnnl_memory_desc_destroy(m);
}

const ip_shape_t flat = {{3, 37}, {19, 37}, {3, 19}, dnnl_ab, dnnl_ab};
const ip_shape_t nchw = {{2, 5, 3, 4}, {7, 5, 3, 4}, {2, 7}, dnnl_abcd, dnnl_abcd};
const ip_shape_t nhwc = {{2, 5, 3, 4}, {7, 5, 3, 4}, {2, 7}, dnnl_acdb, dnnl_acdb};

TEST(GpuInnerProduct, ForwardInferenceFlatNchwNhwcAndU8) {
    SKIP_WITHOUT_GPU();
    check(dnnl_forward_inference, flat);
    check(dnnl_forward_inference, nchw);
    check(dnnl_forward_inference, nhwc);
    check(dnnl_forward_inference, flat, dnnl_u8, dnnl_s8, dnnl_s32);
}

TEST(GpuInnerProduct, BackwardDataFlatAndNhwc) {
    SKIP_WITHOUT_GPU();
    check(dnnl_backward_data, flat);
    check(dnnl_backward_data, nhwc);
}

TEST(GpuInnerProduct, BackwardWeightsFlatAndNchw) {
    SKIP_WITHOUT_GPU();
    check(dnnl_backward_weights, flat);
    check(dnnl_backward_weights, nchw);
}

} // namespace
