// Pooling's window geometry: the problem, dst's dims, and the src positions each output point
// reads (padding left out), shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu).
#pragma once

#include <cstdint>
#include <vector>

#include "c_tensor.hpp"

namespace pooling_ref {

using c_tensor::dims_t;

struct pool_case_t {
    dims_t src; // N, C, spatial...
    dims_t k, s, dl, pl, pr;
};

inline dims_t dst_dims(const pool_case_t &p) {
    dims_t d = {p.src[0], p.src[1]};
    for (size_t i = 0; i < p.k.size(); ++i) {
        const int64_t ext = (p.k[i] - 1) * (p.dl[i] + 1) + 1;
        d.push_back((p.src[2 + i] + p.pl[i] + p.pr[i] - ext) / p.s[i] + 1);
    }
    return d;
}

// Window geometry of one output point: the src positions (or -1 for padding) in tap order.
struct window_t {
    std::vector<std::vector<int64_t>> taps; // spatial positions, one per tap inside src
    std::vector<int> tap_index;
    int ksize = 1;
};

inline window_t window(const pool_case_t &p, const int64_t *opos) {
    window_t w;
    const size_t ns = p.k.size();
    for (size_t i = 0; i < ns; ++i)
        w.ksize *= static_cast<int>(p.k[i]);
    for (int t = 0; t < w.ksize; ++t) {
        int r = t;
        std::vector<int64_t> sp(ns);
        bool in = true;
        for (int i = static_cast<int>(ns) - 1; i >= 0; --i) {
            const int64_t kk = r % p.k[i];
            r /= static_cast<int>(p.k[i]);
            sp[i] = opos[2 + i] * p.s[i] - p.pl[i] + kk * (p.dl[i] + 1);
            in = in && sp[i] >= 0 && sp[i] < p.src[2 + i];
        }
        if (in) {
            w.taps.push_back(sp);
            w.tap_index.push_back(t);
        }
    }
    return w;
}

} // namespace pooling_ref
