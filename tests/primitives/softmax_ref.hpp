// Softmax's reference over one slice along the axis, in double precision, shared by the CPU
// engine's tests (tests/primitives) and the GPU engine's (tests/gpu): accurate is
// exp(x - max) / sum, log is x - max - log(sum), sum of exp(x - max) over the slice; and the
// backward of each.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace softmax_ref {

inline std::vector<double> slice(dnnl_alg_kind_t alg, const std::vector<double> &x) {
    double mx = -INFINITY;
    for (double v : x)
        mx = std::max(mx, v);
    double s = 0;
    for (double v : x)
        s += std::exp(v - mx);
    std::vector<double> y;
    for (double v : x)
        y.push_back(alg == dnnl_softmax_log ? v - mx - std::log(s) : std::exp(v - mx) / s);
    return y;
}

// diff_src of one slice from dst y and diff_dst dy: accurate y * (dy - sum of dy * y), log
// dy - exp(y) * sum of dy.
inline std::vector<double> backward_slice(
        dnnl_alg_kind_t alg, const std::vector<double> &y, const std::vector<double> &dy) {
    double s = 0;
    for (size_t k = 0; k < y.size(); ++k)
        s += alg == dnnl_softmax_log ? dy[k] : dy[k] * y[k];
    std::vector<double> dx;
    for (size_t k = 0; k < y.size(); ++k)
        dx.push_back(alg == dnnl_softmax_log ? dy[k] - std::exp(y[k]) * s : y[k] * (dy[k] - s));
    return dx;
}

} // namespace softmax_ref
