#include "gpu/tuning/conv_wgmma_tuning.hpp"

#include <algorithm>
#include <cstdio>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

status_t conv_wgmma_tuning(
        const device_caps_t &caps, int64_t m, int64_t n, conv_wgmma_tuning_t &out) {
    // The widest tile that does not run mostly past N, narrowed only while its tiles would
    // leave more than half of the compute units idle. Measured on the H200 (mb64 ResNet
    // layers, bf16): 3x3 64@56 0.095 ms at 64 wide, 0.142 at 128; 3x3 256@14 (98 tiles of
    // 256) 0.072 ms at 256, 0.082 at 128, 0.091 at 64.
    const int64_t units = std::max<int64_t>(caps.compute_units, 1);
    auto tiles = [&](int64_t bn) { return ((m + 127) / 128) * ((n + bn - 1) / bn); };
    int bn = n <= 64 ? 64 : n <= 128 ? 128 : 256;
    while (bn > 64 && 2 * tiles(bn) < units)
        bn /= 2;
    out.tile_n = bn;
    out.why = "default row: " + std::to_string(bn) + " channels a tile for N " + std::to_string(n)
            + ", " + std::to_string(tiles(bn)) + " tiles on " + std::to_string(units)
            + " compute units";
    const std::string spec = tuning_override("conv_wgmma");
    if (spec.empty()) return dnnl_success;
    // "tile_n=N" and "pad=0|1", comma-separated.
    size_t at = 0;
    while (at <= spec.size()) {
        const size_t end = std::min(spec.find(',', at), spec.size());
        const std::string item = spec.substr(at, end - at);
        int v = 0, used = 0;
        if (std::sscanf(item.c_str(), "tile_n=%d%n", &v, &used) == 1 && used == int(item.size())
                && (v == 64 || v == 128 || v == 256)) {
            out.tile_n = v;
        } else if (std::sscanf(item.c_str(), "stages=%d%n", &v, &used) == 1
                && used == int(item.size()) && (v == 3 || v == 4 || v == 6)) {
            out.stages = v;
        } else if (item == "pad=0" || item == "pad=1") {
            out.pad_channels = item == "pad=1";
        } else {
            ANYDNN_REQUIRE(false, dnnl_unimplemented,
                    "ANYDNN_GPU_TUNING conv_wgmma section '%s' is not tile_n=64|128|256, "
                    "stages=3|4|6 and pad=0|1",
                    spec.c_str());
        }
        at = end + 1;
    }
    ANYDNN_REQUIRE(out.stages == 4 || out.tile_n < 256, dnnl_unimplemented,
            "ANYDNN_GPU_TUNING conv_wgmma: 256-wide tiles have 4 stages");
    out.why = "ANYDNN_GPU_TUNING: " + spec;
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
