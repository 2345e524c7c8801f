// GPU inner product (tiled and generic GEMM kernels) against the reference of tests/primitives
// (inner_product_ref.hpp): forward with bias (2D and 4D src, plain and channels-last), int8
// forward, backward data, backward weights with diff bias. Tolerances: one rounding of the
// output's type plus the f32 accumulation's bound.
#include "gpu/device_copy.hpp"
#include "primitives/inner_product_ref.hpp"
#include "primitives/post_ops_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct ip_shape_t {
    std::vector<int64_t> src, wei, dst;
    dnnl_format_tag_t act_tag, wei_tag;
};

// An output's expected values (row-major) from value(index, &magnitude of its terms), with
// the accumulation's error bound (`terms` roundings of that magnitude) as slack.
template <typename F>
void expect_sums(const tensor_t &out, int64_t terms, F value) {
    std::vector<float> want;
    std::vector<double> slack;
    for (int64_t i = 0; i < out.lay.nelems(); ++i) {
        double mag = 0;
        want.push_back(c_tensor::round_to(out.lay.dt, static_cast<float>(value(i, &mag))));
        // Integer sources accumulate exactly (s32).
        slack.push_back(c_tensor::is_integer(out.lay.dt) ? 0.0
                                                        : double(terms) * post_ops_ref::f32_eps * mag);
    }
    c_tensor::expect_values(want, out, slack);
}

inner_product_ref::flat_t row_major(const std::vector<double> &v) {
    return [&v](int64_t i) { return v[static_cast<size_t>(i)]; };
}

void check(dnnl_prop_kind_t prop, const ip_shape_t &s, dnnl_data_type_t sdt = dnnl_f32,
        dnnl_data_type_t wdt = dnnl_f32, dnnl_data_type_t ddt = dnnl_f32) {
    SCOPED_TRACE(::testing::Message() << dnnl_prop_kind2str(prop) << " src "
                                      << dnnl_fmt_tag2str(s.act_tag) << " " << dnnl_dt2str(sdt));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t src = md(s.src, sdt, s.act_tag), wei = md(s.wei, wdt, s.wei_tag),
                       dst = md(s.dst, ddt, dnnl_ab), bias = md({s.dst[1]}, dnnl_f32, dnnl_a);
    const int64_t MB = s.dst[0], OC = s.dst[1];
    int64_t K = 1;
    for (size_t i = 1; i < s.src.size(); ++i)
        K *= s.src[i];
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    if (prop == dnnl_forward_inference) {
        EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                          &pd, gpu, prop, src, wei, bias, dst, nullptr),
                dnnl_success);
    } else {
        EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                          &hint, gpu, dnnl_forward_training, src, wei, bias, dst, nullptr),
                dnnl_success);
        EXPECT_EQ(prop == dnnl_backward_data
                        ? dnnl_inner_product_backward_data_primitive_desc_create(
                                &pd, gpu, src, wei, dst, hint, nullptr)
                        : dnnl_inner_product_backward_weights_primitive_desc_create(
                                &pd, gpu, src, wei, bias, dst, hint, nullptr),
                dnnl_success);
    }
    int impls = 0;
    if (pd && prop == dnnl_forward_inference) {
        impls = run_each_impl(cpu, gpu, pd, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS},
                {DNNL_ARG_DST}, [&](const std::vector<tensor_t *> &t) {
                    const auto x = c_tensor::values(*t[0]), w = c_tensor::values(*t[1]),
                               b = c_tensor::values(*t[2]);
                    expect_sums(*t[3], K, [&](int64_t i, double *mag) {
                        return b[size_t(i % OC)]
                                + inner_product_ref::forward(
                                        row_major(x), row_major(w), i / OC, i % OC, K, mag);
                    });
                });
    } else if (pd && prop == dnnl_backward_data) {
        impls = run_each_impl(cpu, gpu, pd, {DNNL_ARG_DIFF_DST, DNNL_ARG_WEIGHTS},
                {DNNL_ARG_DIFF_SRC}, [&](const std::vector<tensor_t *> &t) {
                    const auto dy = c_tensor::values(*t[0]), w = c_tensor::values(*t[1]);
                    expect_sums(*t[2], OC, [&](int64_t i, double *mag) {
                        return inner_product_ref::backward_data(
                                row_major(dy), row_major(w), i / K, i % K, OC, K, mag);
                    });
                });
    } else if (pd) {
        impls = run_each_impl(cpu, gpu, pd, {DNNL_ARG_DIFF_DST, DNNL_ARG_SRC},
                {DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_BIAS},
                [&](const std::vector<tensor_t *> &t) {
                    const auto dy = c_tensor::values(*t[0]), x = c_tensor::values(*t[1]);
                    expect_sums(*t[2], MB, [&](int64_t i, double *mag) {
                        return inner_product_ref::backward_weights(
                                row_major(dy), row_major(x), i / K, i % K, MB, OC, K, mag);
                    });
                    expect_sums(*t[3], MB, [&](int64_t i, double *mag) {
                        return inner_product_ref::backward_bias(row_major(dy), i, MB, OC, mag);
                    });
                });
    }
    EXPECT_GE(impls, 1); // the tiled form only where the device can run it
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(hint);
    for (dnnl_memory_desc_t m : {src, wei, dst, bias})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

const ip_shape_t flat = {{3, 37}, {19, 37}, {3, 19}, dnnl_ab, dnnl_ab};
const ip_shape_t nchw = {{2, 5, 3, 4}, {7, 5, 3, 4}, {2, 7}, dnnl_abcd, dnnl_abcd};
const ip_shape_t nhwc = {{2, 5, 3, 4}, {7, 5, 3, 4}, {2, 7}, dnnl_acdb, dnnl_acdb};
// More rows than the bias gradient's row lanes (8, a tail of 5) and more columns than one of
// its work-groups (32, a tail of 6).
const ip_shape_t tall = {{37, 45}, {70, 45}, {37, 70}, dnnl_ab, dnnl_ab};

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

TEST(GpuInnerProduct, BackwardWeightsBiasOverRowLanesAndColumnGroups) {
    SKIP_WITHOUT_GPU();
    check(dnnl_backward_weights, tall);
    check(dnnl_backward_weights, tall, dnnl_bf16, dnnl_bf16, dnnl_bf16);
}

} // namespace
