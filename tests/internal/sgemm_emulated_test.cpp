// The strict f32 PTX GEMM's CUDA source (gpu/gemm/sgemm/sgemm_f32.cu) run on the host
// (cuda_host_shim.hpp: a thread per CUDA thread, barriers for __syncthreads, cp.async copies
// landing at the latest wait that covers them), against a double-precision reference: every
// tile configuration and layout of A and B, tails in M, N and K (K = 0 too), operands whose
// unit-stride rows are 4-float aligned (16-byte copies, partial quads at the row tail) and
// not, batch broadcast over two dimensions, offsets and padded strides, bias with strides,
// per-column weights scales, sum + relu and the other eltwise kinds, accumulation into C,
// strided C, more block rows than one band of the launch order; and nothing written outside
// C's elements. The GPU itself runs the same code as PTX (tools/gpu_bench/run_sgemm.sh checks
// it there). The implicit-GEMM convolution entries (A gathered from channels-last src)
// against a plain convolution: strides, padding, dilation, IC not a multiple of the K slice,
// groups, padded pixels and rows, bias and post-ops.
#include "cuda_host_shim.hpp"
#include "../sanitizer_budget.hpp"

#include "gpu/gemm/sgemm/sgemm_f32.cu"

#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace {

using kernel_fn = decltype(&anydnn_sgemm_kn_128x128);

// By configuration (128x128, 128x64, 64x64, then 16-deep K slices 128x128k16, 128x64k16, then
// 8 x 16 per thread 256x128, 128x256, then three stages 128x128s3, then the sm_90a module's
// pipelined 16-deep ones 128x256k16, 128x256k16s4, 256x128k16, 128x128k16, then the sm_80
// pipelined 128x256p, then the sm_90a convolution shapes 256x64k16, 512x64k16, 128x64k16,
// 192x128k16, 128x64k16m3, then A kept as rows 256x64r, 256x64rk32, 128x128r, 128x64r) and
// layout (2 * A K-major + B N-major), as sgemm_kernel_name names them; 512 and 192 rows and
// A's rows have K-major A only (null M-major entries).
const int configs = 22;
const kernel_fn kernels[configs][4] = {
        {anydnn_sgemm_mk_128x128, anydnn_sgemm_mn_128x128, anydnn_sgemm_kk_128x128,
                anydnn_sgemm_kn_128x128},
        {anydnn_sgemm_mk_128x64, anydnn_sgemm_mn_128x64, anydnn_sgemm_kk_128x64,
                anydnn_sgemm_kn_128x64},
        {anydnn_sgemm_mk_64x64, anydnn_sgemm_mn_64x64, anydnn_sgemm_kk_64x64,
                anydnn_sgemm_kn_64x64},
        {anydnn_sgemm_mk_128x128k16, anydnn_sgemm_mn_128x128k16, anydnn_sgemm_kk_128x128k16,
                anydnn_sgemm_kn_128x128k16},
        {anydnn_sgemm_mk_128x64k16, anydnn_sgemm_mn_128x64k16, anydnn_sgemm_kk_128x64k16,
                anydnn_sgemm_kn_128x64k16},
        {anydnn_sgemm_mk_256x128, anydnn_sgemm_mn_256x128, anydnn_sgemm_kk_256x128,
                anydnn_sgemm_kn_256x128},
        {anydnn_sgemm_mk_128x256, anydnn_sgemm_mn_128x256, anydnn_sgemm_kk_128x256,
                anydnn_sgemm_kn_128x256},
        {anydnn_sgemm_mk_128x128s3, anydnn_sgemm_mn_128x128s3, anydnn_sgemm_kk_128x128s3,
                anydnn_sgemm_kn_128x128s3},
        {anydnn_sgemm_mk_128x256k16_sm90, anydnn_sgemm_mn_128x256k16_sm90,
                anydnn_sgemm_kk_128x256k16_sm90, anydnn_sgemm_kn_128x256k16_sm90},
        {anydnn_sgemm_mk_128x256k16s4_sm90, anydnn_sgemm_mn_128x256k16s4_sm90,
                anydnn_sgemm_kk_128x256k16s4_sm90, anydnn_sgemm_kn_128x256k16s4_sm90},
        {anydnn_sgemm_mk_256x128k16_sm90, anydnn_sgemm_mn_256x128k16_sm90,
                anydnn_sgemm_kk_256x128k16_sm90, anydnn_sgemm_kn_256x128k16_sm90},
        {anydnn_sgemm_mk_128x128k16_sm90, anydnn_sgemm_mn_128x128k16_sm90,
                anydnn_sgemm_kk_128x128k16_sm90, anydnn_sgemm_kn_128x128k16_sm90},
        {anydnn_sgemm_mk_128x256p, anydnn_sgemm_mn_128x256p, anydnn_sgemm_kk_128x256p,
                anydnn_sgemm_kn_128x256p},
        {anydnn_sgemm_mk_256x64k16_sm90, anydnn_sgemm_mn_256x64k16_sm90,
                anydnn_sgemm_kk_256x64k16_sm90, anydnn_sgemm_kn_256x64k16_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_512x64k16_sm90, anydnn_sgemm_kn_512x64k16_sm90},
        {anydnn_sgemm_mk_128x64k16_sm90, anydnn_sgemm_mn_128x64k16_sm90,
                anydnn_sgemm_kk_128x64k16_sm90, anydnn_sgemm_kn_128x64k16_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_192x128k16_sm90, anydnn_sgemm_kn_192x128k16_sm90},
        {anydnn_sgemm_mk_128x64k16m3_sm90, anydnn_sgemm_mn_128x64k16m3_sm90,
                anydnn_sgemm_kk_128x64k16m3_sm90, anydnn_sgemm_kn_128x64k16m3_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_256x64r_sm90, anydnn_sgemm_kn_256x64r_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_256x64rk32_sm90, anydnn_sgemm_kn_256x64rk32_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_128x128r_sm90, anydnn_sgemm_kn_128x128r_sm90},
        {nullptr, nullptr, anydnn_sgemm_kk_128x64r_sm90, anydnn_sgemm_kn_128x64r_sm90},
};
const int block_m[configs] = {128, 128, 64, 128, 128, 256, 128, 128, 128, 128, 256, 128, 128, 256,
                  512, 128, 192, 128, 256, 256, 128, 128},
          block_n[configs] = {128, 64, 64, 128, 64, 128, 256, 128, 256, 256, 128, 128, 256, 64,
                  64, 64, 128, 64, 64, 64, 128, 64};
const int first_pipelined = 8; // the sm_90a entries, then 128x256p

// The eltwise post-ops in double (gemm_eltwise's codes).
double eltwise_ref(int alg, double x, double alpha) {
    switch (alg) {
        case 1: return x > 0 ? x : alpha * x;
        case 2: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
        case 3: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
        case 4: return x / (1 + std::exp(-alpha * x));
        default: return x;
    }
}

struct case_t {
    int b0, b1; // batch dims: A varies over b0 only, B over b1 only (broadcast)
    int m, n, k;
    bool a_k_major, b_n_major;
    bool bias = false, sum_relu = false, accumulate = false, per_n = false, c_strided = false;
    bool aligned = false; // leading dimensions, offsets and batch strides multiples of 4 floats
    int elt = 1; // the eltwise with sum_relu (gemm_eltwise's code)
};

void check(const case_t &t, int config) {
    SCOPED_TRACE("config " + std::to_string(config) + " M " + std::to_string(t.m) + " N "
                 + std::to_string(t.n) + " K " + std::to_string(t.k) + " A "
                 + (t.a_k_major ? "K" : "M") + "-major B " + (t.b_n_major ? "N" : "K") + "-major");
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    // Padded leading dimensions, offsets before each matrix (multiples of 4 floats with
    // `aligned`: the 16-byte copies of rows dense in memory).
    auto pad = [&](int64_t x, int64_t by) { return t.aligned ? (x + by + 3) / 4 * 4 : x + by; };
    const int64_t lda = t.a_k_major ? pad(t.k, 3) : pad(t.m, 5);
    const int64_t ldb = t.b_n_major ? pad(t.n, 1) : pad(t.k, 2);
    const int64_t a_sm = t.a_k_major ? lda : 1, a_sk = t.a_k_major ? 1 : lda;
    const int64_t b_sk = t.b_n_major ? ldb : 1, b_sn = t.b_n_major ? 1 : ldb;
    const int64_t a_mat = pad(lda * (t.a_k_major ? t.m : t.k), 1);
    const int64_t b_mat = pad(ldb * (t.b_n_major ? t.k : t.n), 2);
    const int64_t c_sn = t.c_strided ? 2 : 1, c_sm = t.n * c_sn + 4, c_mat = c_sm * t.m;
    const int64_t a_off = t.aligned ? 8 : 7, b_off = t.aligned ? 12 : 9, c_off = 3, bias_off = 1,
                  bias_sn = 3;
    // The device's buffers start 16-byte aligned (OpenCL allocations): so do these.
    std::vector<float> a(a_off + a_mat * t.b0 + 4), b(b_off + b_mat * t.b1 + 4),
            c(c_off + c_mat * t.b0 * t.b1 + 5), bias(bias_off + t.n * bias_sn), wei_scale(t.n);
    for (std::vector<float> *v : {&a, &b, &c, &bias, &wei_scale})
        for (float &x : *v)
            x = dist(rng);
    const std::vector<float> c_before = c;
    const float scale_a = 0.5f, scale_b = 2.f, scale_c = 4.f, relu_slope = 0.1f, sum_scale = 0.5f;

    const kernel_fn kernel = kernels[config][(t.a_k_major ? 2 : 0) + (t.b_n_major ? 1 : 0)];
    if (!kernel) return; // no M-major A entry for 192 or 512 rows
    const cuda_dim3_t grid = {unsigned((t.n + block_n[config] - 1) / block_n[config]),
            unsigned((t.m + block_m[config] - 1) / block_m[config]), unsigned(t.b0 * t.b1)};
    host_launch(grid, 256, [&] {
        kernel(a.data(), b.data(), c.data(), t.bias ? bias.data() : nullptr, nullptr,
                t.per_n ? wei_scale.data() : nullptr, nullptr, a_off, a_sm, a_sk, b_off, b_sk, b_sn,
                c_off, c_sm, c_sn, bias_off, 0, bias_sn, 1, 1, t.b0, t.b1, 0, 0, a_mat, 0, 0, 0, 0,
                b_mat, 0, 0, c_mat * t.b1, c_mat, 0, 0, 0, 0, t.m, t.n, t.k, scale_a, scale_b,
                scale_c, t.accumulate ? 1 : 0, t.per_n ? 1 : 0, t.sum_relu ? 1 : 0, sum_scale, 0.f,
                t.sum_relu ? t.elt : 0, relu_slope, 0.f);
    });

    std::vector<bool> inside(c.size(), false);
    int bad = 0;
    for (int i0 = 0; i0 < t.b0; ++i0)
        for (int i1 = 0; i1 < t.b1; ++i1)
            for (int m = 0; m < t.m; ++m)
                for (int n = 0; n < t.n; ++n) {
                    double acc = 0, mag = 0;
                    for (int k = 0; k < t.k; ++k) {
                        const double x = double(a[a_off + i0 * a_mat + m * a_sm + k * a_sk])
                                         * b[b_off + i1 * b_mat + k * b_sk + n * b_sn];
                        acc += x;
                        mag += std::fabs(x);
                    }
                    const int64_t o = c_off + (i0 * t.b1 + i1) * c_mat + m * c_sm + n * c_sn;
                    inside[o] = true;
                    double v = acc * scale_a * (t.per_n ? wei_scale[n] : scale_b);
                    if (t.bias) v += bias[bias_off + n * bias_sn];
                    if (t.sum_relu) {
                        v += sum_scale * c_before[o];
                        v = eltwise_ref(t.elt, v, relu_slope);
                    }
                    v /= scale_c;
                    if (t.accumulate) v += c_before[o];
                    // f32 sums in any order: K roundings of the magnitudes, scaled.
                    const double tol = 2e-7 * (t.k + 4) * (mag + 1) * 2;
                    if (std::fabs(c[o] - v) > tol && bad++ < 5)
                        ADD_FAILURE() << "batch " << i0 << "," << i1 << " C(" << m << ", " << n
                                      << ") = " << c[o] << ", want " << v;
                }
    for (size_t i = 0; i < c.size(); ++i)
        if (!inside[i] && c[i] != c_before[i] && bad++ < 5)
            ADD_FAILURE() << "C's memory at " << i << " (outside its elements) changed";
}

// Layouts of A and B per configuration: all four, or under sanitizers (each emulated CUDA
// thread there is ten times slower) M-major A with K-major B and the reverse, which still
// take every copy path of both operands.
const int layout_step = int(test_budget::pick(1, 3));

} // namespace

TEST(sgemm_emulated, every_configuration_and_layout_with_tails) {
    for (int config = 0; config < configs; ++config)
        for (int layout = 0; layout < 4; layout += layout_step) {
            const bool ak = layout / 2 != 0, bn = layout % 2 != 0;
            check({1, 1, 130, 70, 37, ak, bn}, config);
            check({1, 1, 1, 1, 1, ak, bn, false, false, true, false, true}, config);
        }
}

TEST(sgemm_emulated, batch_broadcast_bias_scales_and_post_ops) {
    for (int layout = 0; layout < 4; ++layout) {
        const bool ak = layout / 2 != 0, bn = layout % 2 != 0;
        check({2, 3, 67, 131, 9, ak, bn, true, true, false, true}, layout % 3);
    }
    check({1, 1, 200, 129, 100, false, false, true, true, true, true, true}, 1);
}

TEST(sgemm_emulated, aligned_dense_rows_take_16_byte_copies_with_quad_tails) {
    for (int config = 0; config < configs; ++config)
        for (int layout = 0; layout < 4; layout += layout_step) {
            const bool ak = layout / 2 != 0, bn = layout % 2 != 0;
            case_t t{1, 1, 131, 67, 41, ak, bn};
            t.aligned = true;
            check(t, config);
        }
    // Batches with aligned strides, broadcast B; K past several stages.
    for (int layout = 0; layout < 4; ++layout) {
        case_t t{2, 2, 70, 133, 150, layout / 2 != 0, layout % 2 != 0, true};
        t.aligned = true;
        check(t, layout + 3);
    }
}

TEST(sgemm_emulated, pipelined_slices_wrap_the_stages_several_times) {
    // 16-deep slices, 3 or 4 stages: K = 149 is 10 slices (the last 5 deep; 19 of 8), each stage
    // refilled while the next k's pieces come from the following one; aligned and not.
    for (int config = first_pipelined; config < configs; ++config)
        for (int layout = 0; layout < 4; layout += layout_step) {
            case_t t{1, 1, 133, 261, 149, layout / 2 != 0, layout % 2 != 0};
            t.aligned = layout == (test_budget::sanitized ? 3 : 1);
            check(t, config);
        }
    check({1, 1, 129, 65, 0, true, true, true}, first_pipelined); // K = 0
    check({1, 1, 5, 7, 16, true, false}, first_pipelined + 1); // one whole slice
}

TEST(sgemm_emulated, eltwise_kinds_and_more_block_rows_than_a_band) {
    // gelu_erf, gelu_tanh, swish after the sum; 17 x 2 blocks of 64 x 64 (two bands of 16).
    for (int elt = 2; elt <= 4; ++elt) {
        case_t t{1, 1, 1090, 100, 12, true, true, false, true};
        t.elt = elt;
        check(t, 2);
    }
}

TEST(sgemm_emulated, empty_k_leaves_the_output_stage) {
    check({1, 1, 129, 65, 0, true, true, true}, 0);
    check({1, 1, 129, 65, 0, false, false, false, false, true}, 2);
}

namespace {

using conv_fn = decltype(&anydnn_sgemm_conv_128x128);
const conv_fn conv_kernels[configs] = {anydnn_sgemm_conv_128x128, anydnn_sgemm_conv_128x64,
        anydnn_sgemm_conv_64x64, anydnn_sgemm_conv_128x128k16, anydnn_sgemm_conv_128x64k16,
        anydnn_sgemm_conv_256x128, anydnn_sgemm_conv_128x256, anydnn_sgemm_conv_128x128s3,
        anydnn_sgemm_conv_128x256k16_sm90, anydnn_sgemm_conv_128x256k16s4_sm90,
        anydnn_sgemm_conv_256x128k16_sm90, anydnn_sgemm_conv_128x128k16_sm90,
        anydnn_sgemm_conv_128x256p, anydnn_sgemm_conv_256x64k16_sm90,
        anydnn_sgemm_conv_512x64k16_sm90, anydnn_sgemm_conv_128x64k16_sm90,
        anydnn_sgemm_conv_192x128k16_sm90, anydnn_sgemm_conv_128x64k16m3_sm90,
        anydnn_sgemm_conv_256x64r_sm90, anydnn_sgemm_conv_256x64rk32_sm90,
        anydnn_sgemm_conv_128x128r_sm90, anydnn_sgemm_conv_128x64r_sm90};

struct conv_case_t {
    int g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw; // dh, dw: taps apart (1 dense)
    bool bias = false, sum_relu = false;
    bool aligned = false; // pixels, rows, images and src's start 4-float aligned
};

void check_conv(const conv_case_t &t, int config) {
    SCOPED_TRACE("config " + std::to_string(config) + " g " + std::to_string(t.g) + " mb "
                 + std::to_string(t.mb) + " ic " + std::to_string(t.ic) + " oc "
                 + std::to_string(t.oc) + " " + std::to_string(t.ih) + "x" + std::to_string(t.iw)
                 + " k " + std::to_string(t.kh) + "x" + std::to_string(t.kw));
    const int oh = (t.ih + 2 * t.ph - (t.kh - 1) * t.dh - 1) / t.sh + 1;
    const int ow = (t.iw + 2 * t.pw - (t.kw - 1) * t.dw - 1) / t.sw + 1;
    const int K = t.kh * t.kw * t.ic, M = t.mb * oh * ow;
    // Pixels of g * ic channels padded by 2 (by 4 with `aligned`), rows by one pixel; weights
    // rows padded by 1.
    const int src_sw = t.g * t.ic + (t.aligned ? 4 : 2), src_sh = (t.iw + 1) * src_sw,
              src_sn = t.ih * src_sh;
    const int src_off = t.aligned ? 8 : 5, wei_so = K + 1, wei_sg = t.oc * wei_so, wei_off = 3;
    const int ldc = t.g * t.oc + 3, dst_off = 2, bias_off = 1;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> src(src_off + t.mb * src_sn), wei(wei_off + t.g * wei_sg),
            dst(dst_off + M * ldc + 4), bias(bias_off + t.g * t.oc);
    for (std::vector<float> *v : {&src, &wei, &dst, &bias})
        for (float &x : *v)
            x = dist(rng);
    const std::vector<float> dst_before = dst;
    const float scale_a = 0.5f, scale_b = 2.f, scale_c = 4.f, relu_slope = 0.1f, sum_scale = 0.5f;

    const cuda_dim3_t grid = {unsigned((t.oc + block_n[config] - 1) / block_n[config]),
            unsigned((M + block_m[config] - 1) / block_m[config]), unsigned(t.g)};
    host_launch(grid, 256, [&] {
        conv_kernels[config](src.data(), wei.data(), dst.data(), t.bias ? bias.data() : nullptr,
                nullptr, nullptr, nullptr, src_off, 0, 1, wei_off, 1, wei_so, dst_off, ldc, 1,
                bias_off, 0, 1, 1, 1, 1, t.g, 0, 0, 0, t.ic, 0, 0, 0, wei_sg, 0, 0, 0, t.oc, 0,
                0, 0, t.oc, M, t.oc, K, scale_a, scale_b, scale_c, 0, 0, t.sum_relu ? 1 : 0,
                sum_scale, 0.f, t.sum_relu ? 1 : 0, relu_slope, 0.f, t.ic, t.ih, t.iw, oh, ow,
                t.kw, t.sh, t.sw, t.ph, t.pw, t.dh, t.dw, src_sn, src_sh, src_sw);
    });

    std::vector<bool> inside(dst.size(), false);
    int bad = 0;
    for (int g = 0; g < t.g; ++g)
        for (int n = 0; n < t.mb; ++n)
            for (int y = 0; y < oh; ++y)
                for (int x = 0; x < ow; ++x)
                    for (int o = 0; o < t.oc; ++o) {
                        double acc = 0, mag = 0;
                        for (int i = 0; i < t.kh; ++i)
                            for (int j = 0; j < t.kw; ++j) {
                                const int sy = y * t.sh - t.ph + i * t.dh;
                                const int sx = x * t.sw - t.pw + j * t.dw;
                                if (sy < 0 || sy >= t.ih || sx < 0 || sx >= t.iw) continue;
                                for (int c = 0; c < t.ic; ++c) {
                                    const double v = double(src[src_off + n * src_sn
                                                             + sy * src_sh + sx * src_sw
                                                             + g * t.ic + c])
                                                     * wei[wei_off + g * wei_sg + o * wei_so
                                                             + (i * t.kw + j) * t.ic + c];
                                    acc += v;
                                    mag += std::fabs(v);
                                }
                            }
                        const int64_t at = dst_off + ((n * oh + y) * ow + x) * int64_t(ldc)
                                           + g * t.oc + o;
                        inside[at] = true;
                        double v = acc * scale_a * scale_b;
                        if (t.bias) v += bias[bias_off + g * t.oc + o];
                        if (t.sum_relu) {
                            v += sum_scale * dst_before[at];
                            v = v > 0 ? v : relu_slope * v;
                        }
                        v /= scale_c;
                        const double tol = 2e-7 * (K + 4) * (mag + 1) * 2;
                        if (std::fabs(dst[at] - v) > tol && bad++ < 5)
                            ADD_FAILURE() << "dst(g " << g << ", n " << n << ", " << y << ", "
                                          << x << ", oc " << o << ") = " << dst[at] << ", want "
                                          << v;
                    }
    for (size_t i = 0; i < dst.size(); ++i)
        if (!inside[i] && dst[i] != dst_before[i] && bad++ < 5)
            ADD_FAILURE() << "dst's memory at " << i << " (outside its elements) changed";
}

} // namespace

TEST(sgemm_emulated, implicit_conv_strides_padding_dilation_channel_tails) {
    // g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw
    check_conv({1, 2, 3, 5, 11, 9, 7, 7, 2, 2, 3, 3, 1, 1}, 1); // conv1-like, IC 3
    check_conv({1, 1, 13, 70, 7, 8, 3, 2, 1, 2, 1, 0, 2, 1}, 0); // dilated rows, IC 13
    check_conv({1, 3, 9, 64, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, true}, 2); // 3 x 64 rows, 64 columns
    check_conv({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1}, 2); // one element
    check_conv({1, 1, 2, 3, 4, 4, 3, 3, 1, 1, 4, 4, 1, 1}, 2); // padding wider than the kernel
    check_conv({1, 2, 3, 5, 11, 9, 7, 7, 2, 2, 3, 3, 1, 1}, 4); // 16-deep slices
    check_conv({1, 1, 13, 70, 7, 8, 3, 2, 1, 2, 1, 0, 2, 1, true, true}, 3);
    check_conv({1, 2, 7, 300, 12, 11, 3, 3, 1, 1, 1, 1, 1, 1}, 5); // 8 x 16 per thread
    check_conv({2, 1, 6, 130, 9, 13, 3, 3, 2, 1, 1, 1, 1, 1, true, true}, 6);
    check_conv({1, 2, 5, 40, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1, true}, 7); // three stages
    // The pipelined sm_90a entries: K = 9 * 19 = 171 (11 slices of 16).
    check_conv({1, 2, 19, 70, 9, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true}, 8);
    check_conv({1, 1, 19, 260, 7, 9, 3, 3, 2, 1, 1, 1, 1, 1}, 9);
    check_conv({2, 2, 19, 33, 12, 11, 3, 3, 1, 1, 1, 1, 1, 1, true}, 10);
    check_conv({1, 2, 13, 70, 7, 8, 3, 2, 1, 2, 1, 0, 2, 1, true, true}, 11);
    check_conv({1, 2, 19, 70, 9, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true}, 12);
}

TEST(sgemm_emulated, implicit_conv_groups_bias_post_ops) {
    check_conv({2, 2, 5, 9, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, true, true}, 2);
    check_conv({3, 1, 4, 7, 5, 7, 1, 3, 2, 1, 0, 1, 1, 2, true, true}, 1);
}

TEST(sgemm_emulated, implicit_conv_whole_slices_walk_the_taps) {
    // IC a multiple of the K slice (8 or 16): each slice lies within one tap, whose place
    // advances slice by slice (no division). Padding, strides, dilation, groups, rows past M,
    // several taps per stage round; every configuration, then the convolution tiles on more.
    // (Under sanitizers every third configuration.)
    for (int config = 0; config < configs; config += int(test_budget::pick(1, 3)))
        check_conv({1, 2, 16, 70, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, true, true}, config);
    // g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw
    for (int config : {13, 14, 15, 16, 17, 18, 19, 20, 21}) {
        check_conv({1, 3, 32, 64, 9, 10, 3, 3, 1, 1, 1, 1, 1, 1}, config); // 2 slices per tap
        check_conv({2, 1, 16, 40, 11, 9, 3, 2, 2, 1, 2, 0, 2, 2, true}, config);
        check_conv({1, 2, 48, 130, 5, 5, 1, 1, 2, 2, 0, 0, 1, 1, false, true}, config); // 1x1 s2
    }
    check_conv({1, 2, 8, 33, 9, 8, 3, 3, 1, 1, 1, 1, 1, 1, true}, 1); // IC 8 in 8-deep slices
    check_conv({1, 2, 8, 33, 9, 8, 3, 3, 1, 1, 1, 1, 1, 1, true}, 13); // IC 8: divisions
}

TEST(sgemm_emulated, a_rows_entries_take_whole_quads_and_their_tails) {
    // A kept as rows (256x64r, 256x64rk32, 128x128r, 128x64r): interior blocks whose slices lie inside
    // K take the unchecked 16-byte copies (M past two blocks, K a multiple of 32), quads cut
    // by K's tail (K = 35), rows not 4-float aligned (4-byte copies); N of 24, 72 and 130.
    for (int config = 18; config < configs; ++config)
        for (bool bn : {false, true}) {
            case_t t{1, 1, 520, 72, 64, true, bn, true};
            t.aligned = true;
            check(t, config);
            case_t tail{1, 1, 257, 24, 35, true, bn};
            tail.aligned = true;
            check(tail, config);
            check({1, 1, 131, 130, 33, true, bn, false, true}, config);
        }
}

TEST(sgemm_emulated, implicit_conv_rows_gather_whole_pixel_quads) {
    // The convolution entries keeping A's rows: whole slices (IC a multiple of 16 or 32) from
    // 4-float aligned pixels take 16-byte copies, padded taps zero-filled; groups (each
    // group's channels start aligned), strides, dilation, rows past M, bias and post-ops.
    // g, mb, ic, oc, ih, iw, kh, kw, sh, sw, ph, pw, dh, dw
    for (int config : {18, 19, 20, 21}) {
        conv_case_t a{1, 2, 32, 70, 9, 10, 3, 3, 1, 1, 1, 1, 1, 1, true, true};
        a.aligned = true;
        check_conv(a, config);
        conv_case_t b{2, 1, 64, 24, 11, 9, 3, 2, 2, 1, 2, 0, 2, 2};
        b.aligned = true;
        check_conv(b, config);
        conv_case_t c{1, 3, 32, 64, 7, 7, 1, 1, 2, 2, 0, 0, 1, 1, true};
        c.aligned = true;
        check_conv(c, config);
    }
}
