// Inner product's reference, shared by the CPU engine's tests (tests/primitives) and the GPU
// engine's (tests/gpu). Tensors are read by row-major logical index: src {MB, K...} flattened
// to MB x K, weights {OC, K...} to OC x K, dst MB x OC. Each sum returns, in `mag`, the sum of
// its terms' magnitudes (an f32 accumulation's error grows with it).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>

namespace inner_product_ref {

// The value at a row-major logical index.
using flat_t = std::function<double(int64_t)>;

// dst[m][o] before bias and the output stage: sum over k of src[m][k] * wei[o][k].
inline double forward(const flat_t &src, const flat_t &wei, int64_t m, int64_t o, int64_t K,
        double *mag = nullptr) {
    double acc = 0, a = 0;
    for (int64_t k = 0; k < K; ++k) {
        const double t = src(m * K + k) * wei(o * K + k);
        acc += t;
        a += std::fabs(t);
    }
    if (mag) *mag = a;
    return acc;
}

// diff_src[m][k] = sum over o of diff_dst[m][o] * wei[o][k].
inline double backward_data(const flat_t &diff_dst, const flat_t &wei, int64_t m, int64_t k,
        int64_t OC, int64_t K, double *mag = nullptr) {
    double acc = 0, a = 0;
    for (int64_t o = 0; o < OC; ++o) {
        const double t = diff_dst(m * OC + o) * wei(o * K + k);
        acc += t;
        a += std::fabs(t);
    }
    if (mag) *mag = a;
    return acc;
}

// diff_weights[o][k] = sum over m of diff_dst[m][o] * src[m][k].
inline double backward_weights(const flat_t &diff_dst, const flat_t &src, int64_t o, int64_t k,
        int64_t MB, int64_t OC, int64_t K, double *mag = nullptr) {
    double acc = 0, a = 0;
    for (int64_t m = 0; m < MB; ++m) {
        const double t = diff_dst(m * OC + o) * src(m * K + k);
        acc += t;
        a += std::fabs(t);
    }
    if (mag) *mag = a;
    return acc;
}

// diff_bias[o] = sum over m of diff_dst[m][o].
inline double backward_bias(const flat_t &diff_dst, int64_t o, int64_t MB, int64_t OC,
        double *mag = nullptr) {
    double acc = 0, a = 0;
    for (int64_t m = 0; m < MB; ++m) {
        acc += diff_dst(m * OC + o);
        a += std::fabs(diff_dst(m * OC + o));
    }
    if (mag) *mag = a;
    return acc;
}

} // namespace inner_product_ref
