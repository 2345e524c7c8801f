// LRN's reference in double precision, shared by the CPU engine's tests (tests/primitives)
// and the GPU engine's (tests/gpu).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace lrn_ref {

struct params_t {
    dnnl_alg_kind_t alg;
    int64_t ls;
    double alpha, beta, k;
};

// Calls f(j) for every element j (row-major) in the window of element i.
template <typename F> void window(const c_tensor::dims_t &d, const params_t &p, int64_t i, F f) {
    const int nd = static_cast<int>(d.size());
    int64_t pos[DNNL_MAX_NDIMS];
    int64_t r = i;
    for (int k = nd - 1; k >= 0; --k) {
        pos[k] = r % d[k];
        r /= d[k];
    }
    const int64_t h = (p.ls - 1) / 2;
    int64_t lo[DNNL_MAX_NDIMS], hi[DNNL_MAX_NDIMS];
    for (int k = 0; k < nd; ++k) {
        const bool win = p.alg == dnnl_lrn_across_channels ? k == 1 : k >= 2;
        lo[k] = win ? std::max<int64_t>(0, pos[k] - h) : pos[k];
        hi[k] = win ? std::min<int64_t>(d[k] - 1, pos[k] + h) : pos[k];
    }
    int64_t q[DNNL_MAX_NDIMS];
    std::memcpy(q, lo, sizeof(q));
    while (true) {
        int64_t j = 0;
        for (int k = 0; k < nd; ++k)
            j = j * d[k] + q[k];
        f(j);
        int k = nd - 1;
        for (; k >= 0; --k) {
            if (++q[k] <= hi[k]) break;
            q[k] = lo[k];
        }
        if (k < 0) break;
    }
}

inline double summands(const c_tensor::dims_t &d, const params_t &p) {
    if (p.alg == dnnl_lrn_across_channels) return static_cast<double>(p.ls);
    return std::pow(static_cast<double>(p.ls), static_cast<double>(d.size() - 2));
}

// The tolerance for an expected value e in type dt.
inline double tolerance(dnnl_data_type_t dt, double e) {
    return dt == dnnl_f32 ? 1e-5f * (std::fabs(e) + 1) : c_tensor::tolerance(dt, float(e)) + 1e-3f;
}

// y = x * (k + alpha / summands * sum of x^2 over the window)^-beta; y's padding zero. Stops
// at the first miss (fatal).
inline void expect_forward(const c_tensor::tensor_t &x, const c_tensor::tensor_t &y,
        const c_tensor::dims_t &d, const params_t &p, dnnl_data_type_t dt) {
    const double a = p.alpha / summands(d, p);
    const auto xv = c_tensor::values(x), yv = c_tensor::values(y);
    for (size_t i = 0; i < xv.size(); ++i) {
        double sum = 0;
        window(d, p, int64_t(i), [&](int64_t j) { sum += xv[j] * xv[j]; });
        const double e = xv[i] * std::pow(p.k + a * sum, -p.beta);
        ASSERT_NEAR(yv[i], e, tolerance(dt, e)) << "at " << i;
    }
    EXPECT_TRUE(y.padding_is_zero());
}

// dx, the derivative of the forward through every window x takes part in; dx's padding zero.
// Stops at the first miss (fatal).
inline void expect_backward(const c_tensor::tensor_t &x, const c_tensor::tensor_t &dy,
        const c_tensor::tensor_t &dx, const c_tensor::dims_t &d, const params_t &p,
        dnnl_data_type_t dt) {
    const double a = p.alpha / summands(d, p);
    const auto xv = c_tensor::values(x), gv = c_tensor::values(dy), ov = c_tensor::values(dx);
    std::vector<double> S(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
        double sum = 0;
        window(d, p, int64_t(i), [&](int64_t j) { sum += xv[j] * xv[j]; });
        S[i] = p.k + a * sum;
    }
    for (size_t i = 0; i < xv.size(); ++i) {
        double t = 0;
        window(d, p, int64_t(i),
                [&](int64_t j) { t += gv[j] * xv[j] * std::pow(S[j], -p.beta - 1); });
        const double e = gv[i] * std::pow(S[i], -p.beta) - 2 * a * p.beta * xv[i] * t;
        ASSERT_NEAR(ov[i], e, tolerance(dt, e)) << "at " << i;
    }
    EXPECT_TRUE(dx.padding_is_zero());
}

} // namespace lrn_ref
