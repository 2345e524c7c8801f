#include "gpu/tuning/conv_wgmma_tuning.hpp"

#include <algorithm>
#include <cstdio>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

std::string conv_wgmma_config(const conv_wgmma_tuning_t &t) {
    return std::to_string(t.tile_n) + "x64s4p1";
}

const std::vector<std::string> &conv_wgmma_halo_configs() {
    static const std::vector<std::string> names{
            "m1s1", "m1s2", "m1s3", "m2s2", "m2s3", "m1s1p", "m1s2p", "m2s1p", "m1s1t", "m1s2t",
            "m2s1t"};
    return names;
}

status_t conv_wgmma_tuning(
        const device_caps_t &caps, int64_t m, int64_t n, int64_t k, conv_wgmma_tuning_t &out) {
    out = conv_wgmma_tuning_t();
    // The widest tile that does not run mostly past N, narrowed only while its tiles would
    // leave more than half of the compute units idle. Measured on the H200 (mb64 ResNet
    // layers, bf16, ms at 64 / 128 / 256 wide): 3x3 64@56 0.093 / 0.142 / 0.207; 1x1
    // 256->64@56 0.061 / 0.095 / 0.132; 3x3 256@14 (98 tiles of 256 on 132 units) 0.086 /
    // 0.082 / 0.070; conv1 (channels padded from 3 to 8) 0.414 / 0.518 (3 stages) / 0.806.
    // Padding conv1 beats its im2col on the GEMM core (gemm_nhwc, 1.99 ms).
    const int64_t units = std::max<int64_t>(caps.compute_units, 1);
    auto tiles = [&](int64_t bn) { return ((m + 127) / 128) * ((n + bn - 1) / bn); };
    int bn = n <= 64 ? 64 : n <= 128 ? 128 : 256;
    while (bn > 64 && 2 * tiles(bn) < units)
        bn /= 2;
    out.tile_n = bn;
    out.why = "default row: " + std::to_string(bn) + " channels a tile for N " + std::to_string(n)
              + ", " + std::to_string(tiles(bn)) + " tiles on " + std::to_string(units)
              + " compute units";
    // Three stages (2 CTAs of 128 wide, 3 of 64 wide per SM) and a weights-resident
    // persistent kernel gathering im2col rows (N <= 64, K <= 576) were built and timed against
    // this row on the H100/H200 (run_conv.sh): slower on the ResNet-50 layers, no longer built.
    // Up to 64 output channels, the halo kernel where the convolution fits it (64 input
    // channels, stride 1, K <= 576; the convolution checks): H200, mb64 3x3 64@56 bf16
    // (run_cbf.sh, ms): tile kernel 0.092-0.095; halo m1s1 0.071, m2s3 0.077, m1s2p 0.079,
    // m2s2 0.079, m1s1p 0.081, m1s2 and m1s3 0.084 (cuDNN 0.060).
    if (n <= 64) {
        out.halo = "m1s1";
        out.why += "; halo m1s1 where it fits";
    }
    const std::string spec = tuning_override("conv_wgmma");
    if (spec.empty()) return dnnl_success;
    // "tile_n=N", "pad=0|1" and "halo=<config>|off", comma-separated.
    size_t at = 0;
    while (at <= spec.size()) {
        const size_t end = std::min(spec.find(',', at), spec.size());
        const std::string item = spec.substr(at, end - at);
        int v = 0, used = 0;
        if (std::sscanf(item.c_str(), "tile_n=%d%n", &v, &used) == 1 && used == int(item.size())
                && (v == 64 || v == 128 || v == 256)) {
            out.tile_n = v;
        } else if (item == "pad=0" || item == "pad=1") {
            out.pad_channels = item == "pad=1";
        } else if (item == "halo=off") {
            out.halo.clear();
        } else if (item.compare(0, 5, "halo=") == 0) {
            const std::string name = item.substr(5);
            const auto &names = conv_wgmma_halo_configs();
            ANYDNN_REQUIRE(std::find(names.begin(), names.end(), name) != names.end(),
                    dnnl_unimplemented,
                    "ANYDNN_GPU_TUNING conv_wgmma: halo=%s is neither off nor a configuration "
                    "of conv_wgmma_halo_configs (m1s1, m1s2, m1s3, m2s2, m2s3, m1s1p, m1s2p, "
                    "m2s1p, m1s1t, m1s2t, m2s1t)",
                    name.c_str());
            out.halo = name;
        } else {
            ANYDNN_REQUIRE(false, dnnl_unimplemented,
                    "ANYDNN_GPU_TUNING conv_wgmma section '%s' is not tile_n=64|128|256, "
                    "pad=0|1 and halo=<config>|off",
                    spec.c_str());
        }
        at = end + 1;
    }
    out.why = "ANYDNN_GPU_TUNING: " + spec;
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
