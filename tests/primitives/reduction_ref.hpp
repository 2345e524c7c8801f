// Reduction's value over one reduced set, every algorithm, with the magnitude its f32
// computation's error scales with, shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace reduction_ref {

struct ref_t {
    double value, magnitude; // magnitude: sum of |terms|, for the tolerance
};

inline ref_t reduce(dnnl_alg_kind_t alg, const std::vector<double> &x, double p, double eps) {
    double acc = 0, mag = 0;
    switch (alg) {
        case dnnl_reduction_max:
            acc = -INFINITY;
            for (double v : x) acc = std::max(acc, v);
            return {acc, std::fabs(acc)};
        case dnnl_reduction_min:
            acc = INFINITY;
            for (double v : x) acc = std::min(acc, v);
            return {acc, std::fabs(acc)};
        case dnnl_reduction_mul:
            acc = 1;
            for (double v : x) acc *= v;
            return {acc, std::fabs(acc) * x.size()};
        case dnnl_reduction_sum:
        case dnnl_reduction_mean:
            for (double v : x) acc += v, mag += std::fabs(v);
            if (alg == dnnl_reduction_mean && !x.empty()) acc /= x.size(), mag /= x.size();
            return {acc, mag};
        default: break;
    }
    for (double v : x) acc += std::pow(std::fabs(v), p);
    mag = acc;
    switch (alg) {
        case dnnl_reduction_norm_lp_max: return {std::pow(std::max(acc, eps), 1 / p), std::pow(mag + eps, 1 / p)};
        case dnnl_reduction_norm_lp_sum: return {std::pow(acc + eps, 1 / p), std::pow(mag + eps, 1 / p)};
        case dnnl_reduction_norm_lp_power_p_max: return {std::max(acc, eps), mag + std::fabs(eps)};
        default: return {acc + eps, mag + std::fabs(eps)};
    }
}

} // namespace reduction_ref
