// Resampling index maps (shared by the CPU engine and the OpenCL dense kernel's host-side tap
// table): dst position o of a spatial dimension reads src coordinate
// (o + 0.5) * in / out - 0.5; nearest rounds it, linear interpolates its two neighbours
// (clamped at the edges). Backward inverts the maps into per-src lists.
#pragma once

#include <cmath>
#include <vector>

#include "core/op_desc.hpp"

namespace anydnn {
namespace cpu {
namespace resampling {

struct tap_t {
    dim_t i0, i1;
    float w0, w1;
};

inline tap_t make_tap(bool linear, dim_t o, dim_t in, dim_t out) {
    const float s = (static_cast<float>(o) + 0.5f) * static_cast<float>(in)
                    / static_cast<float>(out)
            - 0.5f;
    auto clamp = [&](dim_t i) { return i < 0 ? dim_t(0) : i > in - 1 ? in - 1 : i; };
    if (!linear) return {clamp(static_cast<dim_t>(std::round(s))), 0, 1.f, 0.f};
    const float f = std::floor(s);
    const dim_t l = static_cast<dim_t>(f);
    const float w1 = s - f;
    return {clamp(l), clamp(l + 1), 1.f - w1, w1};
}

// The three spatial dims (D, H, W) of a 3 to 5 dimensional tensor; missing ones have extent 1.
struct geometry_t {
    int ndims = 0;
    dim_t mb = 0, c = 0;
    dim_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    bool linear = false;
    std::vector<tap_t> fwd[3]; // per dst position
    // backward: per src position i, the dst positions reading it and their weights
    std::vector<dim_t> bwd_off[3];
    std::vector<std::pair<dim_t, float>> bwd[3];

    geometry_t(const memory_desc_t &src, const memory_desc_t &dst, dnnl_alg_kind_t alg,
            bool with_bwd) {
        ndims = src.ndims;
        mb = src.dims[0];
        c = src.dims[1];
        linear = alg == dnnl_resampling_linear;
        const int nsp = ndims - 2;
        for (int k = 0; k < nsp; ++k) {
            in[3 - nsp + k] = src.dims[2 + k];
            out[3 - nsp + k] = dst.dims[2 + k];
        }
        for (int k = 0; k < 3; ++k) {
            if (in[k] == 0) continue;
            fwd[k].resize(out[k]);
            for (dim_t o = 0; o < out[k]; ++o)
                fwd[k][o] = make_tap(linear, o, in[k], out[k]);
            if (!with_bwd) continue;
            std::vector<std::vector<std::pair<dim_t, float>>> lists(in[k]);
            for (dim_t o = 0; o < out[k]; ++o) {
                const tap_t &t = fwd[k][o];
                if (t.w0 != 0.f) lists[t.i0].push_back({o, t.w0});
                if (t.w1 != 0.f) lists[t.i1].push_back({o, t.w1});
            }
            bwd_off[k].assign(1, 0);
            for (dim_t i = 0; i < in[k]; ++i) {
                for (const auto &e : lists[i])
                    bwd[k].push_back(e);
                bwd_off[k].push_back(static_cast<dim_t>(bwd[k].size()));
            }
        }
    }

    // Logical position of (n, c, d, h, w) in a tensor of this rank.
    void position(dim_t n, dim_t ch, const dim_t *sp, dim_t *pos) const {
        pos[0] = n;
        pos[1] = ch;
        const int nsp = ndims - 2;
        for (int k = 0; k < nsp; ++k)
            pos[2 + k] = sp[3 - nsp + k];
    }
};

} // namespace resampling
} // namespace cpu
} // namespace anydnn
