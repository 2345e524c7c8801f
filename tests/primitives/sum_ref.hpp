// Sum's reference, shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu): dst = sum of scale_i * src_i, rounded to dst's type, within its tolerance.
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace sum_ref {

// Checks every element of dst (reporting the first five misses) and that its padding is zero.
inline void expect_sum(const std::vector<const c_tensor::tensor_t *> &srcs,
        const std::vector<float> &scales, const c_tensor::tensor_t &dst) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    size_t bad = 0;
    if (dst.lay.nelems() > 0) {
        do {
            float acc = 0.f;
            for (size_t i = 0; i < srcs.size(); ++i)
                acc += scales[i] * srcs[i]->get(pos);
            const float want = c_tensor::round_to(dst.lay.dt, acc), got = dst.get(pos);
            if (!c_tensor::close(dst.lay.dt, want, got) && bad++ < 5)
                ADD_FAILURE() << "expected " << want << " got " << got;
        } while (c_tensor::next_pos(pos, dst.lay.dims, dst.lay.ndims));
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_TRUE(dst.padding_is_zero());
}

} // namespace sum_ref
