// The strict f32 PTX GEMM's CUDA source (gpu/gemm/sgemm/sgemm_f32.cu) run on the host
// (cuda_host_shim.hpp: a thread per CUDA thread, barriers for __syncthreads), against a
// double-precision reference: every tile configuration and layout of A and B, tails in M, N
// and K (K = 0 too), batch broadcast over two dimensions, offsets and padded strides, bias
// with strides, per-column weights scales, sum + relu, accumulation into C, strided C; and
// nothing written outside C's elements. The GPU itself runs the same code as PTX
// (tools/gpu_bench/gemm_variants.sh sgemm checks it there).
#include "cuda_host_shim.hpp"

#include "gpu/gemm/sgemm/sgemm_f32.cu"

#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace {

using kernel_fn = decltype(&anydnn_sgemm_kn_128x128);

// By configuration (128x128, 128x64, 64x64) and layout (2 * A K-major + B N-major), as
// sgemm_kernel_name names them.
const kernel_fn kernels[3][4] = {
        {anydnn_sgemm_mk_128x128, anydnn_sgemm_mn_128x128, anydnn_sgemm_kk_128x128,
                anydnn_sgemm_kn_128x128},
        {anydnn_sgemm_mk_128x64, anydnn_sgemm_mn_128x64, anydnn_sgemm_kk_128x64,
                anydnn_sgemm_kn_128x64},
        {anydnn_sgemm_mk_64x64, anydnn_sgemm_mn_64x64, anydnn_sgemm_kk_64x64,
                anydnn_sgemm_kn_64x64},
};
const int block_m[3] = {128, 128, 64}, block_n[3] = {128, 64, 64};

struct case_t {
    int b0, b1; // batch dims: A varies over b0 only, B over b1 only (broadcast)
    int m, n, k;
    bool a_k_major, b_n_major;
    bool bias = false, sum_relu = false, accumulate = false, per_n = false, c_strided = false;
};

void check(const case_t &t, int config) {
    SCOPED_TRACE("config " + std::to_string(config) + " M " + std::to_string(t.m) + " N "
                 + std::to_string(t.n) + " K " + std::to_string(t.k) + " A "
                 + (t.a_k_major ? "K" : "M") + "-major B " + (t.b_n_major ? "N" : "K") + "-major");
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    // Padded leading dimensions, offsets before each matrix.
    const int64_t lda = t.a_k_major ? t.k + 3 : t.m + 5, ldb = t.b_n_major ? t.n + 1 : t.k + 2;
    const int64_t a_sm = t.a_k_major ? lda : 1, a_sk = t.a_k_major ? 1 : lda;
    const int64_t b_sk = t.b_n_major ? ldb : 1, b_sn = t.b_n_major ? 1 : ldb;
    const int64_t a_mat = lda * (t.a_k_major ? t.m : t.k) + 1;
    const int64_t b_mat = ldb * (t.b_n_major ? t.k : t.n) + 2;
    const int64_t c_sn = t.c_strided ? 2 : 1, c_sm = t.n * c_sn + 4, c_mat = c_sm * t.m;
    const int64_t a_off = 7, b_off = 9, c_off = 3, bias_off = 1, bias_sn = 3;
    std::vector<float> a(a_off + a_mat * t.b0), b(b_off + b_mat * t.b1),
            c(c_off + c_mat * t.b0 * t.b1 + 5), bias(bias_off + t.n * bias_sn), wei_scale(t.n);
    for (std::vector<float> *v : {&a, &b, &c, &bias, &wei_scale})
        for (float &x : *v)
            x = dist(rng);
    const std::vector<float> c_before = c;
    const float scale_a = 0.5f, scale_b = 2.f, scale_c = 4.f, relu_slope = 0.1f, sum_scale = 0.5f;

    const kernel_fn kernel = kernels[config][(t.a_k_major ? 2 : 0) + (t.b_n_major ? 1 : 0)];
    const cuda_dim3_t grid = {unsigned((t.n + block_n[config] - 1) / block_n[config]),
            unsigned((t.m + block_m[config] - 1) / block_m[config]), unsigned(t.b0 * t.b1)};
    host_launch(grid, 256, [&] {
        kernel(a.data(), b.data(), c.data(), t.bias ? bias.data() : nullptr, nullptr,
                t.per_n ? wei_scale.data() : nullptr, nullptr, a_off, a_sm, a_sk, b_off, b_sk, b_sn,
                c_off, c_sm, c_sn, bias_off, 0, bias_sn, 1, 1, t.b0, t.b1, 0, 0, a_mat, 0, 0, 0, 0,
                b_mat, 0, 0, c_mat * t.b1, c_mat, 0, 0, 0, 0, t.m, t.n, t.k, scale_a, scale_b,
                scale_c, t.accumulate ? 1 : 0, t.per_n ? 1 : 0, t.sum_relu ? 1 : 0, sum_scale, 0.f,
                t.sum_relu ? 1 : 0, relu_slope, 0.f);
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
                        v = v > 0 ? v : relu_slope * v;
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

} // namespace

TEST(sgemm_emulated, every_configuration_and_layout_with_tails) {
    for (int config = 0; config < 3; ++config)
        for (int layout = 0; layout < 4; ++layout) {
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

TEST(sgemm_emulated, empty_k_leaves_the_output_stage) {
    check({1, 1, 129, 65, 0, true, true, true}, 0);
    check({1, 1, 129, 65, 0, false, false, false, false, true}, 2);
}
