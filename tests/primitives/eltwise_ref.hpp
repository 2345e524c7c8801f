// Eltwise's formulas in double precision (forward, and backward as d/dx times diff_dst),
// shared by the CPU engine's tests (tests/primitives), the post-op reference (post_ops_ref.hpp)
// and the GPU engine's tests (tests/gpu).
#pragma once

#include <algorithm>
#include <cmath>

#include "oneapi/dnnl/dnnl.h"

namespace eltwise_ref {

inline double sigm(double z) { return 1.0 / (1.0 + std::exp(-z)); }
inline double splus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }
constexpr double pi = 3.14159265358979323846;

inline dnnl_alg_kind_t fwd_alg_of(dnnl_alg_kind_t alg) {
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

inline bool uses_dst(dnnl_alg_kind_t alg) { return fwd_alg_of(alg) != alg; }

inline double forward(dnnl_alg_kind_t alg, double x, double a, double b) {
    switch (fwd_alg_of(alg)) {
        case dnnl_eltwise_relu: return x > 0 ? x : a * x;
        case dnnl_eltwise_tanh: return std::tanh(x);
        case dnnl_eltwise_elu: return x > 0 ? x : a * (std::exp(x) - 1);
        case dnnl_eltwise_square: return x * x;
        case dnnl_eltwise_abs: return x < 0 ? -x : x;
        case dnnl_eltwise_sqrt: return std::sqrt(x);
        case dnnl_eltwise_linear: return a * x + b;
        case dnnl_eltwise_soft_relu: return splus(a * x) / a;
        case dnnl_eltwise_hardsigmoid: return std::max(0.0, std::min(1.0, a * x + b));
        case dnnl_eltwise_logistic: return sigm(x);
        case dnnl_eltwise_exp: return std::exp(x);
        case dnnl_eltwise_gelu_tanh:
            return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
        case dnnl_eltwise_swish: return x * sigm(a * x);
        case dnnl_eltwise_log: return std::log(x);
        case dnnl_eltwise_clip:
        case dnnl_eltwise_clip_v2: return x < a ? a : (x > b ? b : x);
        case dnnl_eltwise_pow: return a * std::pow(x, b);
        case dnnl_eltwise_gelu_erf: return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
        case dnnl_eltwise_round: return std::nearbyint(x);
        case dnnl_eltwise_mish: return x * std::tanh(splus(x));
        case dnnl_eltwise_hardswish: return x * std::max(0.0, std::min(1.0, a * x + b));
        default: return NAN;
    }
}

// d(alg)/dx at src x, times diff_dst g; `y` is the forward result, for the dst variants.
inline double backward(dnnl_alg_kind_t alg, double g, double x, double y, double a, double b) {
    switch (alg) {
        case dnnl_eltwise_relu_use_dst_for_bwd: return y > 0 ? g : a * g;
        case dnnl_eltwise_tanh_use_dst_for_bwd: return g * (1 - y * y);
        case dnnl_eltwise_elu_use_dst_for_bwd: return y > 0 ? g : g * (y + a);
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return g / (2 * y);
        case dnnl_eltwise_logistic_use_dst_for_bwd: return g * y * (1 - y);
        case dnnl_eltwise_exp_use_dst_for_bwd: return g * y;
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return (y > a && y < b) ? g : 0;
        case dnnl_eltwise_relu: return x > 0 ? g : a * g;
        case dnnl_eltwise_tanh: return g * (1 - std::tanh(x) * std::tanh(x));
        case dnnl_eltwise_elu: return x > 0 ? g : g * a * std::exp(x);
        case dnnl_eltwise_square: return 2 * x * g;
        case dnnl_eltwise_abs: return x > 0 ? g : (x < 0 ? -g : 0);
        case dnnl_eltwise_sqrt: return g / (2 * std::sqrt(x));
        case dnnl_eltwise_linear: return a * g;
        case dnnl_eltwise_soft_relu: return g * sigm(a * x);
        case dnnl_eltwise_hardsigmoid: {
            double v = a * x + b;
            return (v > 0 && v < 1) ? a * g : 0;
        }
        case dnnl_eltwise_logistic: return g * sigm(x) * (1 - sigm(x));
        case dnnl_eltwise_exp: return g * std::exp(x);
        case dnnl_eltwise_gelu_tanh: {
            const double k = std::sqrt(2 / pi), c = 0.044715;
            double t = std::tanh(k * (x + c * x * x * x));
            return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * c * x * x));
        }
        case dnnl_eltwise_swish: {
            double s = sigm(a * x);
            return g * (s + a * x * s * (1 - s));
        }
        case dnnl_eltwise_log: return g / x;
        case dnnl_eltwise_clip: return (x > a && x <= b) ? g : 0;
        case dnnl_eltwise_clip_v2: return (x > a && x < b) ? g : 0;
        case dnnl_eltwise_pow: return b == 0 ? 0 : g * a * b * std::pow(x, b - 1);
        case dnnl_eltwise_gelu_erf: {
            double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
            double pdf = std::exp(-0.5 * x * x) / std::sqrt(2 * pi);
            return g * (cdf + x * pdf);
        }
        case dnnl_eltwise_mish: {
            double sp = splus(x), t = std::tanh(sp);
            return g * (t + x * (1 - t * t) * sigm(x));
        }
        case dnnl_eltwise_hardswish: {
            double v = a * x + b;
            if (v <= 0) return 0;
            if (v >= 1) return g;
            return g * (2 * a * x + b);
        }
        default: return NAN;
    }
}

} // namespace eltwise_ref
