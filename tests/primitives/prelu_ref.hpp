// PReLU's reference in double precision, shared by the CPU engine's tests (tests/primitives)
// and the GPU engine's (tests/gpu). wd are the weights' dims: 1 where they broadcast.
#pragma once

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace prelu_ref {

// The weights position that applies at src position pos.
inline void weights_pos(const int64_t *pos, const c_tensor::dims_t &wd, int64_t *wp) {
    for (size_t k = 0; k < wd.size(); ++k)
        wp[k] = wd[k] == 1 ? 0 : pos[k];
}

// y = x > 0 ? x : x * w, rounded to dt; y's padding zero. Stops at the first miss (fatal).
inline void expect_forward(const c_tensor::tensor_t &x, const c_tensor::tensor_t &wt,
        const c_tensor::tensor_t &y, const c_tensor::dims_t &wd, dnnl_data_type_t dt) {
    using namespace c_tensor;
    int64_t pos[DNNL_MAX_NDIMS] = {}, wp[DNNL_MAX_NDIMS];
    if (x.lay.nelems() > 0) do {
            weights_pos(pos, wd, wp);
            const double v = x.get(pos), a = wt.get(wp);
            const float e = round_to(dt, static_cast<float>(v > 0 ? v : v * a));
            ASSERT_TRUE(close(dt, e, y.get(pos))) << e << " vs " << y.get(pos);
        } while (next_pos(pos, x.lay.dims, x.lay.ndims));
    EXPECT_TRUE(y.padding_is_zero());
}

// dx = x > 0 ? dy : dy * w (rounded to dt); dw = the sum of dy * x where x <= 0 over the
// dims the weights broadcast, within a tolerance for the accumulation order. Stops at the
// first miss (fatal).
inline void expect_backward(const c_tensor::tensor_t &x, const c_tensor::tensor_t &wt,
        const c_tensor::tensor_t &dy, const c_tensor::tensor_t &dx, const c_tensor::tensor_t &dw,
        const c_tensor::dims_t &wd, dnnl_data_type_t dt) {
    using namespace c_tensor;
    const int nd = x.lay.ndims;
    std::vector<double> ref_dw(static_cast<size_t>(wt.lay.nelems()), 0.0);
    auto widx = [&](const int64_t *p) {
        int64_t i = 0;
        for (int k = 0; k < nd; ++k)
            i = i * wd[k] + p[k];
        return i;
    };
    int64_t pos[DNNL_MAX_NDIMS] = {}, wp[DNNL_MAX_NDIMS];
    if (x.lay.nelems() > 0) do {
            weights_pos(pos, wd, wp);
            const double v = x.get(pos), a = wt.get(wp), g = dy.get(pos);
            const float e = round_to(dt, static_cast<float>(v > 0 ? g : g * a));
            ASSERT_TRUE(close(dt, e, dx.get(pos)));
            if (!(v > 0)) ref_dw[widx(wp)] += g * v;
        } while (next_pos(pos, x.lay.dims, nd));
    int64_t p2[DNNL_MAX_NDIMS] = {};
    if (wt.lay.nelems() > 0) do {
            const double e = ref_dw[widx(p2)];
            // Sums of many products: allow the accumulation order to differ.
            const double tol = (dt == dnnl_f32 ? 1e-4 : 2e-2) * (std::fabs(e) + 1);
            ASSERT_NEAR(dw.get(p2), e, tol);
        } while (next_pos(p2, wt.lay.dims, nd));
}

} // namespace prelu_ref
