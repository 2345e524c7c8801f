#include "gpu/tuning/conv_wgmma_tuning.hpp"

#include <algorithm>
#include <cstdio>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

status_t conv_wgmma_tuning(
        const device_caps_t &caps, int64_t m, int64_t n, conv_wgmma_tuning_t &out) {
    // The widest tile that does not run mostly past N, narrowed while the tiles leave
    // compute units idle: a 128 x 64 tile re-reads A from shared memory four times as often
    // as a 128 x 256 one, but a ResNet layer with 64 channels wastes three quarters of that.
    const int64_t units = std::max<int64_t>(caps.compute_units, 1);
    auto tiles = [&](int64_t bn) { return ((m + 127) / 128) * ((n + bn - 1) / bn); };
    int bn = n <= 64 ? 64 : n <= 128 ? 128 : 256;
    while (bn > 64 && tiles(bn) < units)
        bn /= 2;
    out.tile_n = bn;
    out.why = "default row: " + std::to_string(bn) + " channels a tile for N " + std::to_string(n)
            + ", " + std::to_string(tiles(bn)) + " tiles on " + std::to_string(units)
            + " compute units";
    const std::string spec = tuning_override("conv_wgmma");
    if (spec.empty()) return dnnl_success;
    int v = 0, used = 0;
    ANYDNN_REQUIRE(std::sscanf(spec.c_str(), "tile_n=%d%n", &v, &used) == 1
                    && used == int(spec.size()) && (v == 64 || v == 128 || v == 256),
            dnnl_unimplemented,
            "ANYDNN_GPU_TUNING conv_wgmma section '%s' is not tile_n=64, 128 or 256",
            spec.c_str());
    out.tile_n = v;
    out.why = "ANYDNN_GPU_TUNING: tile_n=" + spec.substr(7);
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
