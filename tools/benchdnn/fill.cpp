#include "fill.hpp"

#include <algorithm>
#include <cmath>

#include "data_types.hpp"
#include "parallel.hpp"

namespace benchdnn {

namespace {

uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Uniform in [0, 1).
double unit(uint64_t seed, int64_t i, uint64_t stream) {
    return (mix(seed * 0x100000001b3ull + static_cast<uint64_t>(i) * 4 + stream) >> 11)
            * (1.0 / 9007199254740992.0);
}

} // namespace

fill_range_t clamp_range(fill_range_t r, dnnl_data_type_t dt) {
    if (!dt_is_int(dt)) return r;
    // An unsigned type cannot take the negative half: it would saturate to 0 (a divisor of 0).
    if (r.random_sign && dt_lowest(dt) >= 0) r.random_sign = false;
    r.lo = std::max(r.lo, dt_lowest(dt));
    r.hi = std::min(r.hi, dt_max(dt));
    if (r.lo > r.hi) r.lo = r.hi;
    return r;
}

std::vector<double> fill_values(
        int64_t n, const fill_range_t &r, dnnl_data_type_t dt, uint64_t seed) {
    std::vector<double> v(static_cast<size_t>(std::max<int64_t>(n, 0)));
    const bool ints = r.integers || dt_is_int(dt);
    const bool zeros = !r.random_sign && r.lo <= 0 && r.hi >= 0 && r.zero_share > 0;
    parallel_chunks(n, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            double x;
            if (zeros && unit(seed, i, 0) < r.zero_share)
                x = 0;
            else {
                x = r.lo + (r.hi - r.lo) * unit(seed, i, 1);
                if (r.step > 0) x = std::floor(x / r.step + 0.5) * r.step;
                if (ints) x = std::floor(x + 0.5);
                if (r.random_sign && unit(seed, i, 2) < 0.5) x = -x;
            }
            v[i] = round_to_dt(x, dt);
        }
    });
    return v;
}

} // namespace benchdnn
