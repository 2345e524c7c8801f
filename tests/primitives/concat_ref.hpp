// Concat's reference, shared by the CPU engine's tests (tests/primitives) and the GPU
// engine's (tests/gpu): dst along the axis is each source in turn, scaled, rounded to dst's
// type (s32 to s32 unscaled compared bit for bit).
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace concat_ref {

// scales[i] is source i's scale, 0 (or absent) for none. Checks every element of dst
// (reporting the first five misses) and that its padding is zero.
inline void expect_concat(const std::vector<const c_tensor::tensor_t *> &srcs, int axis,
        const std::vector<float> &scales, const c_tensor::tensor_t &dst) {
    using namespace c_tensor;
    int64_t pos[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS];
    size_t bad = 0;
    if (dst.lay.nelems() > 0) {
        do {
            int i = 0;
            int64_t start = 0;
            while (pos[axis] >= start + srcs[i]->lay.dims[axis])
                start += srcs[i++]->lay.dims[axis];
            for (int d = 0; d < dst.lay.ndims; ++d)
                p[d] = pos[d];
            p[axis] -= start;
            const float s =
                    i < static_cast<int>(scales.size()) && scales[i] != 0.f ? scales[i] : 1.f;
            bool ok;
            if (dst.lay.dt == dnnl_s32 && srcs[i]->lay.dt == dnnl_s32 && s == 1.f)
                ok = dst.get_s32(pos) == srcs[i]->get_s32(p);
            else
                ok = close(dst.lay.dt, round_to(dst.lay.dt, s * srcs[i]->get(p)), dst.get(pos));
            if (!ok && bad++ < 5) {
                std::string where;
                for (int d = 0; d < dst.lay.ndims; ++d)
                    where += std::to_string(pos[d]) + " ";
                ADD_FAILURE() << "wrong value at [" << where << "]";
            }
        } while (next_pos(pos, dst.lay.dims, dst.lay.ndims));
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_TRUE(dst.padding_is_zero());
}

} // namespace concat_ref
