// Descriptor queries oneDNN programs size their memory with: a normalization with only a shift
// reports the shift's descriptor as weights_desc() (index 0 of oneDNN's one scale-and-shift
// descriptor) and the program's shift memory made from it works; group normalization's
// get_group_size() is its number of groups; resampling's get_factors() is dst / src whatever
// factors were passed. On the CPU engine and the first GPU engine when one is present.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;
using flags = normalization_flags;

TEST(descriptor_queries, normalization_weights_desc_is_the_shift_when_only_a_shift) {
    const memory::dim C = 5;
    const memory::desc act({2, C, 3, 4}, dt::f32, tag::nchw), rows({6, C}, dt::f32, tag::ab);
    const memory::desc per_c({C}, dt::f32, tag::x);
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        for (flags f : {flags::use_shift, flags::use_scale, flags::use_scale | flags::use_shift}) {
            batch_normalization_forward::primitive_desc bn(
                    eng, prop_kind::forward_training, act, act, 1e-3f, f);
            layer_normalization_forward::primitive_desc ln(
                    eng, prop_kind::forward_training, rows, rows, 1e-3f, f);
            group_normalization_forward::primitive_desc gn(
                    eng, prop_kind::forward_training, act, act, 1, 1e-3f, f);
            EXPECT_EQ(bn.weights_desc(), per_c);
            EXPECT_EQ(ln.weights_desc(), per_c);
            EXPECT_EQ(gn.weights_desc(), per_c);
            batch_normalization_backward::primitive_desc bnb(eng, prop_kind::backward, act, act,
                    act, 1e-3f, f, bn);
            EXPECT_EQ(bnb.diff_weights_desc(), per_c);
            EXPECT_EQ(bnb.weights_desc(), per_c);
        }
        batch_normalization_forward::primitive_desc none(
                eng, prop_kind::forward_training, act, act, 1e-3f, flags::none);
        EXPECT_EQ(none.weights_desc().get_size(), 0u);
    }
}

// The tutorial pattern: the shift memory comes from weights_desc(); y = (x - mean) / sigma + b.
TEST(descriptor_queries, batch_normalization_with_a_shift_from_weights_desc_computes) {
    const memory::dim N = 3, C = 4, H = 2, W = 5, S = H * W;
    const memory::desc act({N, C, H, W}, dt::f32, tag::nchw);
    std::vector<float> x(N * C * S), shift(C);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = static_cast<float>(int(i * 11 % 23) - 11) * 0.125f;
    for (memory::dim c = 0; c < C; ++c)
        shift[c] = 0.5f * static_cast<float>(c) - 1.f;
    const float eps = 1e-3f;
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        batch_normalization_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, act, act, eps, flags::use_shift);
        memory src = filled(act, eng, x), dst(act, eng);
        memory b = filled(pd.weights_desc(), eng, shift);
        batch_normalization_forward(pd).execute(
                strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SHIFT, b}});
        strm.wait();
        const float *y = dst.map_data<float>();
        for (memory::dim c = 0; c < C; ++c) {
            double mean = 0, var = 0;
            for (memory::dim n = 0; n < N; ++n)
                for (memory::dim s = 0; s < S; ++s)
                    mean += x[(n * C + c) * S + s];
            mean /= double(N * S);
            for (memory::dim n = 0; n < N; ++n)
                for (memory::dim s = 0; s < S; ++s) {
                    const double d = x[(n * C + c) * S + s] - mean;
                    var += d * d;
                }
            var /= double(N * S);
            for (memory::dim n = 0; n < N; ++n)
                for (memory::dim s = 0; s < S; ++s) {
                    const size_t i = (n * C + c) * S + s;
                    const double want = (x[i] - mean) / std::sqrt(var + eps) + shift[c];
                    EXPECT_NEAR(y[i], want, 1e-4) << c << "," << n << "," << s;
                }
        }
        dst.unmap_data(const_cast<float *>(y));
    }
}

TEST(descriptor_queries, group_normalization_group_size_is_its_groups) {
    const memory::desc act({2, 12, 3, 3}, dt::f32, tag::nchw);
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        for (memory::dim g : {1, 3, 12}) {
            group_normalization_forward::primitive_desc pd(
                    eng, prop_kind::forward_training, act, act, g, 1e-5f, flags::none);
            EXPECT_EQ(pd.get_group_size(), g);
        }
    }
}

TEST(descriptor_queries, resampling_factors_are_dst_over_src) {
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        const memory::desc src({1, 3, 5, 4}, dt::f32, tag::nchw);
        // Factors 2.5 and 0.6 give dst 12 x 2 (floors): reported 12/5 and 2/4.
        resampling_forward::primitive_desc from_factors(eng, prop_kind::forward_inference,
                algorithm::resampling_linear, {2.5f, 0.6f}, src);
        EXPECT_EQ(from_factors.dst_desc().get_dims(), (memory::dims {1, 3, 12, 2}));
        const std::vector<float> f = from_factors.get_factors();
        ASSERT_EQ(f.size(), 2u);
        EXPECT_FLOAT_EQ(f[0], 12.f / 5.f);
        EXPECT_FLOAT_EQ(f[1], 2.f / 4.f);
        // With both shapes and factors that disagree with them, the shapes decide.
        const memory::desc dst({1, 3, 7, 9}, dt::f32, tag::nchw);
        resampling_forward::primitive_desc both(eng, prop_kind::forward_inference,
                algorithm::resampling_nearest, {3.f, 3.f}, src, dst);
        const std::vector<float> g = both.get_factors();
        ASSERT_EQ(g.size(), 2u);
        EXPECT_FLOAT_EQ(g[0], 7.f / 5.f);
        EXPECT_FLOAT_EQ(g[1], 9.f / 4.f);
    }
}

} // namespace
