// Input data that makes errors visible: varied values in a range that suits the operation.
#pragma once

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace benchdnn {

struct fill_range_t {
    double lo = -10, hi = 10;
    bool integers = false; // whole numbers only (exact comparisons, ties in max/min/eq)
    double step = 0; // > 0: multiples of step only (0.25 puts ties in roundings)
    bool random_sign = false; // magnitude from [lo, hi], then a random sign
    double zero_share = 0.0625; // share of exact zeros, where zero lies in the range
};

// n values for a tensor of data type dt, the same for the same seed. Every value is
// representable in dt, so the reference sees exactly what the library reads.
std::vector<double> fill_values(
        int64_t n, const fill_range_t &r, dnnl_data_type_t dt, uint64_t seed);

// The range a data type can hold without saturating, narrowed to r.
fill_range_t clamp_range(fill_range_t r, dnnl_data_type_t dt);

} // namespace benchdnn
