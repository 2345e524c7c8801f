// Which kernel taps of one output position land inside the input: shared by the convolution
// implementations.
#pragma once

#include <algorithm>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace conv {

// Taps [lo, hi) of a kernel of k taps, dense step dl, starting at input index i0, with
// 0 <= i0 + tap * dl < n; lo == hi when none is.
inline void tap_range(dim_t i0, dim_t dl, dim_t k, dim_t n, dim_t &lo, dim_t &hi) {
    lo = i0 >= 0 ? 0 : (-i0 + dl - 1) / dl;
    hi = i0 > n - 1 ? 0 : std::min(k, (n - 1 - i0) / dl + 1);
    lo = std::min(lo, k);
    if (hi < lo) hi = lo;
}

} // namespace conv
} // namespace cpu
} // namespace anydnn
