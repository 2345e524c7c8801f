// Resampling's taps (nearest: one source position; linear: two, with their weights), shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace resampling_ref {

// Per spatial dim: for dst position o, the src positions and weights it reads.
struct taps_t {
    std::vector<std::vector<std::pair<int64_t, double>>> at;
};

inline taps_t make_taps(bool linear, int64_t in, int64_t out) {
    taps_t t;
    t.at.resize(out);
    for (int64_t o = 0; o < out; ++o) {
        const float s = (static_cast<float>(o) + 0.5f) * static_cast<float>(in)
                        / static_cast<float>(out)
                - 0.5f;
        auto clamp = [&](int64_t i) { return std::min<int64_t>(std::max<int64_t>(i, 0), in - 1); };
        if (!linear) {
            t.at[o].push_back({clamp(static_cast<int64_t>(std::round(s))), 1.0});
        } else {
            const double f = std::floor(static_cast<double>(s));
            const double w = static_cast<double>(s) - f;
            t.at[o].push_back({clamp(static_cast<int64_t>(f)), 1.0 - w});
            t.at[o].push_back({clamp(static_cast<int64_t>(f) + 1), w});
        }
    }
    return t;
}

} // namespace resampling_ref
