// GPU convolution and deconvolution against the CPU engine: every direction, 1D/2D/3D,
// groups, strides, dilation, padding, bias, plain / channels-last / blocked layouts, int8.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

struct conv_case_t {
    std::vector<int64_t> src, wei, dst, strides, dil, pad_l, pad_r;
    dnnl_format_tag_t act_tag = dnnl_format_tag_any;
    bool deconv = false;
};

dnnl_format_tag_t plain(size_t nd) {
    static const dnnl_format_tag_t t[] = {dnnl_a, dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd,
            dnnl_abcde, dnnl_abcdef};
    return t[nd];
}

void check(const conv_case_t &c, dnnl_prop_kind_t prop, dnnl_data_type_t sdt = dnnl_f32,
        dnnl_data_type_t ddt = dnnl_f32) {
    const dnnl_data_type_t wdt = sdt == dnnl_u8 ? dnnl_s8 : sdt;
    const dnnl_format_tag_t tag = c.act_tag == dnnl_format_tag_any ? plain(c.src.size()) : c.act_tag;
    dnnl_memory_desc_t src = md(c.src, sdt, tag), wei = md(c.wei, wdt, plain(c.wei.size())),
                       dst = md(c.dst, ddt, tag);
    const int64_t oc = c.deconv ? c.dst[1] : c.dst[1];
    dnnl_memory_desc_t bias = md({oc}, dnnl_f32, dnnl_a);
    const dnnl_alg_kind_t alg = c.deconv ? dnnl_deconvolution_direct : dnnl_convolution_direct;
    auto fwd = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e, dnnl_prop_kind_t p) {
        if (c.deconv)
            return dnnl_deconvolution_forward_primitive_desc_create(pd, e, p, alg, src, wei, bias,
                    dst, c.strides.data(), c.dil.data(), c.pad_l.data(), c.pad_r.data(), nullptr);
        return dnnl_convolution_forward_primitive_desc_create(pd, e, p, alg, src, wei, bias, dst,
                c.strides.data(), c.dil.data(), c.pad_l.data(), c.pad_r.data(), nullptr);
    };
    if (prop == dnnl_forward_inference) {
        expect_gpu_matches_cpu(
                [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                    return fwd(pd, e, dnnl_forward_inference);
                },
                {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST}, DNNL_ARG_DST);
    } else if (prop == dnnl_backward_data) {
        expect_gpu_matches_cpu(
                [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                    dnnl_primitive_desc_t hint = nullptr;
                    dnnl_status_t st = fwd(&hint, e, dnnl_forward_training);
                    if (st != dnnl_success) return st;
                    st = c.deconv ? dnnl_deconvolution_backward_data_primitive_desc_create(pd, e,
                                 alg, src, wei, dst, c.strides.data(), c.dil.data(),
                                 c.pad_l.data(), c.pad_r.data(), hint, nullptr)
                                  : dnnl_convolution_backward_data_primitive_desc_create(pd, e,
                                          alg, src, wei, dst, c.strides.data(), c.dil.data(),
                                          c.pad_l.data(), c.pad_r.data(), hint, nullptr);
                    dnnl_primitive_desc_destroy(hint);
                    return st;
                },
                {DNNL_ARG_DIFF_DST, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_SRC}, DNNL_ARG_DIFF_SRC);
    } else {
        auto make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
            dnnl_primitive_desc_t hint = nullptr;
            dnnl_status_t st = fwd(&hint, e, dnnl_forward_training);
            if (st != dnnl_success) return st;
            st = c.deconv ? dnnl_deconvolution_backward_weights_primitive_desc_create(pd, e, alg,
                         src, wei, bias, dst, c.strides.data(), c.dil.data(), c.pad_l.data(),
                         c.pad_r.data(), hint, nullptr)
                          : dnnl_convolution_backward_weights_primitive_desc_create(pd, e, alg,
                                  src, wei, bias, dst, c.strides.data(), c.dil.data(),
                                  c.pad_l.data(), c.pad_r.data(), hint, nullptr);
            dnnl_primitive_desc_destroy(hint);
            return st;
        };
        const std::vector<int> args
                = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS, DNNL_ARG_DIFF_BIAS};
        expect_gpu_matches_cpu(make, args, DNNL_ARG_DIFF_WEIGHTS);
        expect_gpu_matches_cpu(make, args, DNNL_ARG_DIFF_BIAS);
    }
    for (dnnl_memory_desc_t m : {src, wei, dst, bias})
        dnnl_memory_desc_destroy(m);
}

// 2D, groups 2, stride 2, dilation 1, asymmetric padding: ih 9 -> oh (9+1+2-5)/2+1 = 4.
const conv_case_t conv2d = {{2, 4, 9, 7}, {2, 3, 2, 3, 3}, {2, 6, 4, 4}, {2, 2}, {1, 0},
        {1, 1}, {2, 1}};
const conv_case_t conv1d = {{1, 3, 11}, {5, 3, 3}, {1, 5, 11}, {1}, {0}, {1}, {1}};
const conv_case_t conv3d = {{1, 2, 4, 5, 3}, {3, 2, 2, 3, 1}, {1, 3, 3, 3, 3}, {1, 1, 1},
        {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
// Deconvolution 2x upsampling: oh = (ih - 1) * 2 - 2 + 4 = 2 * ih.
const conv_case_t deconv2d = {{2, 3, 4, 5}, {5, 3, 4, 4}, {2, 5, 8, 10}, {2, 2}, {0, 0},
        {1, 1}, {1, 1}, dnnl_format_tag_any, true};

TEST(GpuConvolution, ForwardInference1d2d3dNhwcAndU8) {
    SKIP_WITHOUT_GPU();
    for (const conv_case_t &c : {conv2d, conv1d, conv3d})
        check(c, dnnl_forward_inference);
    conv_case_t nhwc = conv2d;
    nhwc.act_tag = dnnl_acdb;
    check(nhwc, dnnl_forward_inference);
    conv_case_t int8 = conv1d;
    int8.act_tag = dnnl_acb;
    check(int8, dnnl_forward_inference, dnnl_u8, dnnl_s32);
}

// Blocked activations with channel tails (3 and 5 of 16): the outputs' padding, filled before
// the run, must come back zero as on the CPU.
TEST(GpuConvolution, BlockedTailsKeepPaddingZero) {
    SKIP_WITHOUT_GPU();
    conv_case_t blocked = conv1d;
    blocked.act_tag = dnnl_aBc16b;
    check(blocked, dnnl_forward_inference);
    check(blocked, dnnl_backward_data);
}

TEST(GpuConvolution, BackwardDataAndWeights1d2d3d) {
    SKIP_WITHOUT_GPU();
    for (const conv_case_t &c : {conv2d, conv1d, conv3d}) {
        check(c, dnnl_backward_data);
        check(c, dnnl_backward_weights);
    }
}

TEST(GpuDeconvolution, Stride2UpsamplingForwardAndBackwardDataAndWeights) {
    SKIP_WITHOUT_GPU();
    for (dnnl_prop_kind_t p : {dnnl_forward_inference, dnnl_backward_data, dnnl_backward_weights})
        check(deconv2d, p);
}

} // namespace
