// The one definition of every eltwise algorithm, as scalar f32 functions: the eltwise
// primitive's reference path and every post-op chain use these, vector kernels match them.
#pragma once

#include <algorithm>
#include <cmath>

#include "oneapi/dnnl/dnnl.h"

namespace anydnn {
namespace cpu {

inline bool is_eltwise_alg(dnnl_alg_kind_t alg) {
    return (alg >= dnnl_eltwise_relu && alg <= dnnl_eltwise_hardswish)
            || (alg >= dnnl_eltwise_relu_use_dst_for_bwd
                    && alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd);
}

// The *_use_dst_for_bwd variants: backward reads dst instead of src.
inline bool eltwise_uses_dst_for_bwd(dnnl_alg_kind_t alg) {
    return alg >= dnnl_eltwise_relu_use_dst_for_bwd
            && alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd;
}

// The algorithm a *_use_dst_for_bwd variant computes forward; other algs map to themselves.
inline dnnl_alg_kind_t eltwise_base_alg(dnnl_alg_kind_t alg) {
    switch (alg) {
        case dnnl_eltwise_relu_use_dst_for_bwd: return dnnl_eltwise_relu;
        case dnnl_eltwise_tanh_use_dst_for_bwd: return dnnl_eltwise_tanh;
        case dnnl_eltwise_elu_use_dst_for_bwd: return dnnl_eltwise_elu;
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return dnnl_eltwise_sqrt;
        case dnnl_eltwise_logistic_use_dst_for_bwd: return dnnl_eltwise_logistic;
        case dnnl_eltwise_exp_use_dst_for_bwd: return dnnl_eltwise_exp;
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return dnnl_eltwise_clip_v2;
        default: return alg;
    }
}

// Whether the algorithm has a backward pass (round is forward only).
inline bool eltwise_has_bwd(dnnl_alg_kind_t alg) {
    return is_eltwise_alg(alg) && alg != dnnl_eltwise_round;
}

namespace eltwise_detail {

constexpr float sqrt_2_over_pi = 0.79788456080286535588f; // sqrt(2/pi), gelu_tanh
constexpr float gelu_tanh_c = 0.044715f;
constexpr float inv_sqrt_2 = 0.70710678118654752440f;
constexpr float inv_sqrt_2pi = 0.39894228040143267794f;

// 1 / (1 + e^-x) without overflow: e^x is only taken of a non-positive number.
inline float sigmoid(float x) {
    if (x >= 0.f) return 1.f / (1.f + std::exp(-x));
    float e = std::exp(x);
    return e / (1.f + e);
}

// ln(1 + e^x) without overflow for large x and without losing small results for x << 0.
inline float softplus(float x) { return std::fmax(x, 0.f) + std::log1p(std::exp(-std::fabs(x))); }

// tanh(softplus(x)) = (n^2 + 2n) / (n^2 + 2n + 2), n = e^x; 1 beyond x = 20 (f32 rounding).
inline float mish_tanh(float x, float *one_minus_t = nullptr) {
    if (x > 20.f) {
        if (one_minus_t) *one_minus_t = 0.f;
        return 1.f;
    }
    float n = std::exp(x);
    float num = n * (n + 2.f);
    float den = num + 2.f;
    if (one_minus_t) *one_minus_t = 2.f / den;
    return num / den;
}

} // namespace eltwise_detail

// Always inlined: loops that fix `alg` at compile time lose the switch and vectorize.
#define ANYDNN_ELTWISE_SCALAR inline __attribute__((always_inline))

// dst = f(x) for algorithm `alg` (a *_use_dst_for_bwd variant computes its base alg).
ANYDNN_ELTWISE_SCALAR float eltwise_fwd_scalar(dnnl_alg_kind_t alg, float x, float alpha, float beta) {
    using namespace eltwise_detail;
    switch (eltwise_base_alg(alg)) {
        // max/min rather than a branch on x > 0: the same value (NaN included), and loops
        // vectorize it without speculating the multiply.
        case dnnl_eltwise_relu: return std::max(x, 0.f) + alpha * std::min(x, 0.f);
        case dnnl_eltwise_tanh: return std::tanh(x);
        case dnnl_eltwise_elu: return x > 0.f ? x : alpha * std::expm1(x);
        case dnnl_eltwise_square: return x * x;
        case dnnl_eltwise_abs: return std::fabs(x);
        case dnnl_eltwise_sqrt: return std::sqrt(x);
        case dnnl_eltwise_linear: return alpha * x + beta;
        case dnnl_eltwise_soft_relu: return softplus(alpha * x) / alpha;
        case dnnl_eltwise_hardsigmoid: return std::fmin(1.f, std::fmax(0.f, alpha * x + beta));
        case dnnl_eltwise_logistic: return sigmoid(x);
        case dnnl_eltwise_exp: return std::exp(x);
        case dnnl_eltwise_gelu_tanh: {
            // 0.5 * (1 + tanh(g)) = sigmoid(2g): no cancellation for x << 0.
            float g = sqrt_2_over_pi * x * (1.f + gelu_tanh_c * x * x);
            return x * sigmoid(2.f * g);
        }
        case dnnl_eltwise_swish: return x * sigmoid(alpha * x);
        case dnnl_eltwise_log: return std::log(x);
        case dnnl_eltwise_clip:
        case dnnl_eltwise_clip_v2: return x > beta ? beta : (x < alpha ? alpha : x);
        case dnnl_eltwise_pow: return alpha * std::pow(x, beta);
        // 0.5 * (1 + erf(z)) = 0.5 * erfc(-z): no cancellation for x << 0.
        case dnnl_eltwise_gelu_erf: return 0.5f * x * std::erfc(-x * inv_sqrt_2);
        case dnnl_eltwise_round: return std::nearbyint(x); // default mode: nearest even
        case dnnl_eltwise_mish: return x * mish_tanh(x);
        case dnnl_eltwise_hardswish:
            return x * std::fmin(1.f, std::fmax(0.f, alpha * x + beta));
        default: return NAN;
    }
}

// diff_src for algorithm `alg` from diff_dst and `s`: the forward's src, or its dst for the
// *_use_dst_for_bwd variants.
ANYDNN_ELTWISE_SCALAR float eltwise_bwd_scalar(
        dnnl_alg_kind_t alg, float dd, float s, float alpha, float beta) {
    using namespace eltwise_detail;
    switch (alg) {
        // Variants that read dst (s = f(x)).
        case dnnl_eltwise_relu_use_dst_for_bwd: return s > 0.f ? dd : dd * alpha;
        case dnnl_eltwise_tanh_use_dst_for_bwd: return dd * (1.f - s) * (1.f + s);
        case dnnl_eltwise_elu_use_dst_for_bwd: return s > 0.f ? dd : dd * (s + alpha);
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return dd / (2.f * s);
        case dnnl_eltwise_logistic_use_dst_for_bwd: return dd * s * (1.f - s);
        case dnnl_eltwise_exp_use_dst_for_bwd: return dd * s;
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return (s > alpha && s < beta) ? dd : 0.f;

        // Variants that read src (s = x).
        case dnnl_eltwise_relu: return s > 0.f ? dd : dd * alpha;
        case dnnl_eltwise_tanh: {
            float t = std::tanh(s);
            return dd * (1.f - t) * (1.f + t);
        }
        case dnnl_eltwise_elu: return s > 0.f ? dd : dd * alpha * std::exp(s);
        case dnnl_eltwise_square: return dd * 2.f * s;
        case dnnl_eltwise_abs: return s > 0.f ? dd : (s < 0.f ? -dd : 0.f);
        case dnnl_eltwise_sqrt: return dd / (2.f * std::sqrt(s));
        case dnnl_eltwise_linear: return dd * alpha;
        case dnnl_eltwise_soft_relu: return dd * sigmoid(alpha * s);
        case dnnl_eltwise_hardsigmoid: {
            float v = alpha * s + beta;
            return (v > 0.f && v < 1.f) ? dd * alpha : 0.f;
        }
        case dnnl_eltwise_logistic: {
            float y = sigmoid(s);
            return dd * y * (1.f - y);
        }
        case dnnl_eltwise_exp: return dd * std::exp(s);
        case dnnl_eltwise_gelu_tanh: {
            // With y = sigmoid(2g): d/dx = y * (1 + 2x * (1 - y) * g'). Beyond |x| = 20 the
            // derivative is 0 or 1 to f32 precision; the clamp keeps x^3 finite.
            float x = std::fmin(20.f, std::fmax(-20.f, s));
            float x2 = x * x;
            float y = sigmoid(2.f * sqrt_2_over_pi * x * (1.f + gelu_tanh_c * x2));
            float dg = sqrt_2_over_pi * (1.f + 3.f * gelu_tanh_c * x2);
            return dd * y * (1.f + 2.f * x * (1.f - y) * dg);
        }
        case dnnl_eltwise_swish: {
            float y = sigmoid(alpha * s);
            return dd * y * (1.f + alpha * s * (1.f - y));
        }
        case dnnl_eltwise_log: return dd / s;
        case dnnl_eltwise_clip: return (s > alpha && s <= beta) ? dd : 0.f;
        case dnnl_eltwise_clip_v2: return (s > alpha && s < beta) ? dd : 0.f;
        case dnnl_eltwise_pow:
            return beta == 0.f ? 0.f : dd * alpha * beta * std::pow(s, beta - 1.f);
        case dnnl_eltwise_gelu_erf: {
            float cdf = 0.5f * std::erfc(-s * inv_sqrt_2);
            float pdf = inv_sqrt_2pi * std::exp(-0.5f * s * s);
            return dd * (cdf + s * pdf);
        }
        case dnnl_eltwise_mish: {
            // d/dx = t + x * (1 - t^2) * sigmoid(x), t = tanh(softplus(x)); the second term
            // vanishes beyond x = 20.
            float one_minus_t;
            float t = mish_tanh(s, &one_minus_t);
            float sech2 = one_minus_t * (1.f + t);
            return dd * (t + (s > 20.f ? 0.f : s * sech2 * sigmoid(s)));
        }
        case dnnl_eltwise_hardswish: {
            float v = alpha * s + beta;
            if (v <= 0.f) return 0.f;
            if (v >= 1.f) return dd;
            return dd * (2.f * alpha * s + beta);
        }
        default: return NAN; // round has no backward
    }
}

} // namespace cpu
} // namespace anydnn
