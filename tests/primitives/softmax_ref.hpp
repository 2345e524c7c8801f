// Softmax's reference over one slice along the axis, in double precision, shared by the CPU
// engine's tests (tests/primitives) and the GPU engine's (tests/gpu): accurate is
// exp(x - max) / sum, log is x - max - log(sum), sum of exp(x - max) over the slice.
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

} // namespace softmax_ref
