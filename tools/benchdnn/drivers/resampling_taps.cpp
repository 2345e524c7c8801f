#include "resampling_taps.hpp"

#include <cmath>

namespace benchdnn {

std::vector<std::vector<std::pair<int64_t, double>>> resampling_taps(
        bool linear, int64_t in, int64_t out) {
    std::vector<std::vector<std::pair<int64_t, double>>> t(out);
    for (int64_t o = 0; o < out; ++o) {
        const float s = (static_cast<float>(o) + 0.5f) * static_cast<float>(in) / static_cast<float>(out) - 0.5f;
        auto clamp = [&](int64_t x) { return x < 0 ? 0 : x > in - 1 ? in - 1 : x; };
        if (!linear) {
            t[o].push_back({clamp(static_cast<int64_t>(std::round(s))), 1.0});
            continue;
        }
        const double f = std::floor(static_cast<double>(s)), w = s - f;
        t[o].push_back({clamp(static_cast<int64_t>(f)), 1 - w});
        t[o].push_back({clamp(static_cast<int64_t>(f) + 1), w});
    }
    return t;
}

} // namespace benchdnn
