// The source positions and weights each destination position of one spatial dimension reads
// in oneDNN's resampling (half-pixel centers; nearest rounds, linear blends two neighbours,
// both clamped to the source): shared by --resampling and the graph's Interpolate reference.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace benchdnn {

std::vector<std::vector<std::pair<int64_t, double>>> resampling_taps(
        bool linear, int64_t in, int64_t out);

} // namespace benchdnn
