// Shuffle's reference, shared by the CPU engine's tests (tests/primitives) and the GPU
// engine's (tests/gpu): where each output element comes from, checked element by element.
#pragma once

#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace shuffle_ref {

// Input index along the axis that lands at output index i (forward: [C/G][G] -> [G][C/G]).
inline int64_t src_index(int64_t i, int64_t C, int64_t G, bool fwd) {
    const int64_t n = C / G;
    return fwd ? (i % n) * G + i / n : (i % G) * n + i / G;
}

// Every element of y is x's element at the shuffled position along axis (values copied bit
// for bit, so compared exactly). Stops at the first mismatch (a fatal failure).
inline void expect_shuffled(
        const c_tensor::tensor_t &x, const c_tensor::tensor_t &y, int axis, int64_t G, bool fwd) {
    if (x.lay.nelems() == 0) return;
    int64_t pos[DNNL_MAX_NDIMS] = {}, sp[DNNL_MAX_NDIMS];
    do {
        std::memcpy(sp, pos, sizeof(sp));
        sp[axis] = src_index(pos[axis], y.lay.dims[axis], G, fwd);
        ASSERT_EQ(y.get(pos), x.get(sp));
    } while (c_tensor::next_pos(pos, y.lay.dims, y.lay.ndims));
}

} // namespace shuffle_ref
