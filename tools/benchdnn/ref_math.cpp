#include "ref_math.hpp"

#include <cmath>

namespace benchdnn {

namespace {

const double sqrt_2_over_pi = 0.79788456080286535588; // sqrt(2 / pi)
const double gelu_tanh_k = 0.044715;

double logistic(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// log(1 + e^x) without overflow for large x.
double softplus(double x) {
    return x > 30 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

} // namespace

bool eltwise_uses_dst(dnnl_alg_kind_t alg) {
    switch (alg) {
        case dnnl_eltwise_relu_use_dst_for_bwd:
        case dnnl_eltwise_tanh_use_dst_for_bwd:
        case dnnl_eltwise_elu_use_dst_for_bwd:
        case dnnl_eltwise_sqrt_use_dst_for_bwd:
        case dnnl_eltwise_logistic_use_dst_for_bwd:
        case dnnl_eltwise_exp_use_dst_for_bwd:
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return true;
        default: return false;
    }
}

bool eltwise_is_transcendental(dnnl_alg_kind_t alg) {
    switch (alg) {
        case dnnl_eltwise_tanh:
        case dnnl_eltwise_elu:
        case dnnl_eltwise_sqrt:
        case dnnl_eltwise_soft_relu:
        case dnnl_eltwise_logistic:
        case dnnl_eltwise_exp:
        case dnnl_eltwise_gelu_tanh:
        case dnnl_eltwise_swish:
        case dnnl_eltwise_log:
        case dnnl_eltwise_pow:
        case dnnl_eltwise_gelu_erf:
        case dnnl_eltwise_mish:
        case dnnl_eltwise_tanh_use_dst_for_bwd:
        case dnnl_eltwise_elu_use_dst_for_bwd:
        case dnnl_eltwise_sqrt_use_dst_for_bwd:
        case dnnl_eltwise_logistic_use_dst_for_bwd:
        case dnnl_eltwise_exp_use_dst_for_bwd: return true;
        default: return false;
    }
}

double eltwise_fwd(dnnl_alg_kind_t alg, double x, double a, double b) {
    switch (alg) {
        case dnnl_eltwise_relu:
        case dnnl_eltwise_relu_use_dst_for_bwd: return x > 0 ? x : a * x;
        case dnnl_eltwise_tanh:
        case dnnl_eltwise_tanh_use_dst_for_bwd: return std::tanh(x);
        case dnnl_eltwise_elu:
        case dnnl_eltwise_elu_use_dst_for_bwd: return x > 0 ? x : a * std::expm1(x);
        case dnnl_eltwise_square: return x * x;
        case dnnl_eltwise_abs: return std::fabs(x);
        case dnnl_eltwise_sqrt:
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return std::sqrt(x);
        case dnnl_eltwise_linear: return a * x + b;
        case dnnl_eltwise_soft_relu: return softplus(a * x) / a;
        case dnnl_eltwise_hardsigmoid: return std::fmax(0.0, std::fmin(1.0, a * x + b));
        case dnnl_eltwise_logistic:
        case dnnl_eltwise_logistic_use_dst_for_bwd: return logistic(x);
        case dnnl_eltwise_exp:
        case dnnl_eltwise_exp_use_dst_for_bwd: return std::exp(x);
        case dnnl_eltwise_gelu_tanh:
            return 0.5 * x * (1 + std::tanh(sqrt_2_over_pi * x * (1 + gelu_tanh_k * x * x)));
        case dnnl_eltwise_swish: return x * logistic(a * x);
        case dnnl_eltwise_log: return std::log(x);
        case dnnl_eltwise_clip:
        case dnnl_eltwise_clip_v2:
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return x > b ? b : (x > a ? x : a);
        case dnnl_eltwise_pow: return a * std::pow(x, b);
        case dnnl_eltwise_gelu_erf: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
        case dnnl_eltwise_round: return std::nearbyint(x);
        case dnnl_eltwise_mish: return x * std::tanh(softplus(x));
        case dnnl_eltwise_hardswish: return x * std::fmax(0.0, std::fmin(1.0, a * x + b));
        default: return std::nan("");
    }
}

double eltwise_bwd(dnnl_alg_kind_t alg, double dd, double s, double a, double b) {
    switch (alg) {
        case dnnl_eltwise_relu:
        case dnnl_eltwise_relu_use_dst_for_bwd: return s > 0 ? dd : a * dd;
        case dnnl_eltwise_tanh: {
            double t = std::tanh(s);
            return dd * (1 - t * t);
        }
        case dnnl_eltwise_tanh_use_dst_for_bwd: return dd * (1 - s * s);
        case dnnl_eltwise_elu: return s > 0 ? dd : dd * a * std::exp(s);
        case dnnl_eltwise_elu_use_dst_for_bwd: return s > 0 ? dd : dd * (s + a);
        case dnnl_eltwise_square: return dd * 2 * s;
        case dnnl_eltwise_abs: return s > 0 ? dd : (s < 0 ? -dd : 0);
        case dnnl_eltwise_sqrt: return dd / (2 * std::sqrt(s));
        case dnnl_eltwise_sqrt_use_dst_for_bwd: return dd / (2 * s);
        case dnnl_eltwise_linear: return dd * a;
        case dnnl_eltwise_soft_relu: return dd * logistic(a * s);
        case dnnl_eltwise_hardsigmoid: {
            double v = a * s + b;
            return v > 0 && v < 1 ? dd * a : 0;
        }
        case dnnl_eltwise_logistic: {
            double y = logistic(s);
            return dd * y * (1 - y);
        }
        case dnnl_eltwise_logistic_use_dst_for_bwd: return dd * s * (1 - s);
        case dnnl_eltwise_exp: return dd * std::exp(s);
        case dnnl_eltwise_exp_use_dst_for_bwd: return dd * s;
        case dnnl_eltwise_gelu_tanh: {
            double u = sqrt_2_over_pi * s * (1 + gelu_tanh_k * s * s);
            double t = std::tanh(u);
            double du = sqrt_2_over_pi * (1 + 3 * gelu_tanh_k * s * s);
            return dd * 0.5 * (1 + t + s * (1 - t * t) * du);
        }
        case dnnl_eltwise_swish: {
            double y = logistic(a * s);
            return dd * (y + a * s * y * (1 - y));
        }
        case dnnl_eltwise_log: return dd / s;
        case dnnl_eltwise_clip: return s > a && s <= b ? dd : 0;
        case dnnl_eltwise_clip_v2:
        case dnnl_eltwise_clip_v2_use_dst_for_bwd: return s > a && s < b ? dd : 0;
        case dnnl_eltwise_pow: return b == 0 ? 0 : dd * a * b * std::pow(s, b - 1);
        case dnnl_eltwise_gelu_erf: {
            double cdf = 0.5 * (1 + std::erf(s / std::sqrt(2.0)));
            double pdf = std::exp(-0.5 * s * s) / std::sqrt(2 * M_PI);
            return dd * (cdf + s * pdf);
        }
        case dnnl_eltwise_round: return 0;
        case dnnl_eltwise_mish: {
            double sp = softplus(s), t = std::tanh(sp);
            return dd * (t + s * (1 - t * t) * logistic(s));
        }
        case dnnl_eltwise_hardswish: {
            double v = a * s + b;
            if (v <= 0) return 0;
            if (v >= 1) return dd;
            return dd * (v + a * s);
        }
        default: return std::nan("");
    }
}

bool binary_is_compare(dnnl_alg_kind_t alg) {
    switch (alg) {
        case dnnl_binary_ge:
        case dnnl_binary_gt:
        case dnnl_binary_le:
        case dnnl_binary_lt:
        case dnnl_binary_eq:
        case dnnl_binary_ne: return true;
        default: return false;
    }
}

double binary_op(dnnl_alg_kind_t alg, double x, double y, double c) {
    switch (alg) {
        case dnnl_binary_add: return x + y;
        case dnnl_binary_mul: return x * y;
        case dnnl_binary_max: return std::fmax(x, y);
        case dnnl_binary_min: return std::fmin(x, y);
        case dnnl_binary_div: return x / y;
        case dnnl_binary_sub: return x - y;
        case dnnl_binary_ge: return x >= y;
        case dnnl_binary_gt: return x > y;
        case dnnl_binary_le: return x <= y;
        case dnnl_binary_lt: return x < y;
        case dnnl_binary_eq: return x == y;
        case dnnl_binary_ne: return x != y;
        case dnnl_binary_select: return c != 0 ? x : y;
        default: return std::nan("");
    }
}

} // namespace benchdnn
