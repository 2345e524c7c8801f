#include "gpu/tuning/conv_sgemm_tuning.hpp"

#include <string>

#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

namespace {

// A candidate: its name, blocks resident per SM, and its throughput per SM relative to
// 128 x 256 (fewer shared reads per FMA in bigger per-thread tiles; not yet measured on a GPU
// for the convolution entries: the device script run_conv2.sh sweeps them).
struct candidate_t {
    const char *name;
    int per_sm;
    double rate;
};

int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

} // namespace

const char *conv_sgemm_tiles(int64_t compute_units, int ptx_sm, int64_t batch, int64_t m, int64_t n,
        int64_t k, int64_t gather_ic) {
    const std::string spec = tuning_override("conv_sgemm");
    if (spec == "tiles=size") return nullptr;
    if (spec.rfind("tiles=", 0) == 0) {
        const int c = sgemm_config_index(spec.substr(6));
        return c >= 0 ? sgemm_config[c].name : nullptr;
    }
    if (ptx_sm < 90 || compute_units <= 0 || m <= 0 || n <= 0) return nullptr;
    // Wider blocks would compute columns past N for nothing: 64 or fewer output channels take
    // 256 x 64 blocks (8 x 8 per thread, 2 CTAs per SM) where they fill two rounds of the
    // units, 128 x 64 where they fill one. H200, mb64 (ratio to cuDNN): 1x1 256->64@56 (the
    // GEMM on src) 256 x 64 0.70, 128 x 64 0.67, 512 x 64 0.59; 7x7 conv1 (IC 3, gathered)
    // 256 x 64 1.05 against 0.97 for the sm_80 128 x 64. Gathered with whole slices per tap
    // (IC a multiple of 16), 3x3 64@56: 128 x 64 0.79, 256 x 64 0.76 (8 gathered rows per
    // thread, some registers spilled, against 4), 512 x 64 0.71: 128 x 64 there.
    if (n <= 64) {
        const bool fills_two = batch * ceil_div(m, 256) >= 2 * compute_units;
        const bool fills_one = batch * ceil_div(m, 128) >= compute_units;
        if (gather_ic > 0 && gather_ic % 16 == 0 && fills_one) return "128x64k16_sm90";
        if (fills_two) return "256x64k16_sm90";
        if (fills_one) return "128x64k16_sm90";
        return nullptr;
    }
    // Otherwise the fewest rounds of the units, each round weighed by its blocks' area over
    // their rate: 3x3 256@14 mb64 (12544 x 256) is one round of 132 blocks of 192 x 128 on
    // the H100, where 128 x 256 leaves 34 units idle (H200: 0.67 of cuDNN against 0.49, 128 x
    // 128 0.51, the sm_80 128 x 128 0.45). A K of a few slices (1x1 64->256: 4 of
    // 16) leaves one block's pipeline mostly filling and draining: two blocks per SM overlap
    // one's copies with the other's FMAs (H200, mb64 1x1 64->256@56: 128 x 128 0.68 of
    // cuDNN, 128 x 256 0.53).
    if (k <= 128) {
        const bool fill = batch * ceil_div(m, 128) * ceil_div(n, 128) >= 2 * compute_units;
        return fill ? "128x128k16_sm90" : nullptr;
    }
    static const candidate_t candidates[] = {{"128x256k16_sm90", 1, 1.0},
            {"192x128k16_sm90", 1, 0.95}, {"128x128k16_sm90", 2, 0.85}};
    const char *best = nullptr;
    double best_cost = 0;
    for (const candidate_t &c : candidates) {
        const sgemm_config_t &s = sgemm_config[sgemm_config_index(c.name)];
        const int64_t blocks = batch * ceil_div(m, s.bm) * ceil_div(n, s.bn);
        const int64_t rounds = ceil_div(blocks, compute_units * c.per_sm);
        const double cost = double(rounds) * c.per_sm * s.bm * s.bn / c.rate;
        if (!best || cost < best_cost) best = c.name, best_cost = cost;
    }
    return best;
}

} // namespace gpu
} // namespace anydnn
