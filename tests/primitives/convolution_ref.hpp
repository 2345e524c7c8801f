// Convolution's and deconvolution's reference, shared by the CPU engine's tests
// (tests/primitives) and the GPU engine's (tests/gpu): one loop nest over every (n, g, oc, ic,
// small position, kernel position) whose big-side position is small * stride - pad_l + k *
// (dil + 1); conv has src on the big side, deconv dst. Each direction is a sum over it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace convolution_ref {

using dims = std::vector<int64_t>;

struct problem_t {
    std::string name;
    int ns = 2; // spatial dims
    int64_t mb = 2, g = 1, ic = 3, oc = 4; // channels per group
    int64_t i[3] = {5, 6, 7}; // big side (conv src, deconv dst)
    int64_t k[3] = {3, 3, 3}, s[3] = {1, 1, 1}, d[3] = {0, 0, 0}, pl[3] = {1, 1, 1},
            pr[3] = {1, 1, 1};
    bool groups_dim = false; // weights carry the g dimension

    int64_t o(int x) const { // small side
        const int64_t ext = (k[x] - 1) * (d[x] + 1) + 1;
        return (i[x] + pl[x] + pr[x] - ext) / s[x] + 1;
    }
    dims sp(const int64_t *v) const { return dims(v, v + ns); }
    dims big_dims(int64_t c) const {
        dims r = {mb, g * c};
        for (int x = 0; x < ns; ++x)
            r.push_back(i[x]);
        return r;
    }
    dims small_dims(int64_t c) const {
        dims r = {mb, g * c};
        for (int x = 0; x < ns; ++x)
            r.push_back(o(x));
        return r;
    }
    dims wei_dims() const {
        dims r;
        if (groups_dim) r.push_back(g);
        r.push_back(oc);
        r.push_back(ic);
        for (int x = 0; x < ns; ++x)
            r.push_back(k[x]);
        return r;
    }
    dims src_dims(bool deconv) const { return deconv ? small_dims(ic) : big_dims(ic); }
    dims dst_dims(bool deconv) const { return deconv ? big_dims(oc) : small_dims(oc); }
};

inline int64_t volume(const dims &v) {
    int64_t n = 1;
    for (auto x : v)
        n *= x;
    return n;
}

// Walks the relation: f(src_index, wei_index, dst_index) in dense nchw / goihw order.
inline void relation(const problem_t &p, bool deconv,
        const std::function<void(int64_t, int64_t, int64_t)> &f) {
    int64_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, K[3] = {1, 1, 1}, S[3] = {1, 1, 1},
            D[3] = {1, 1, 1}, P[3] = {0, 0, 0};
    for (int x = 0; x < p.ns; ++x) {
        const int c = 3 - p.ns + x;
        I[c] = p.i[x];
        O[c] = p.o(x);
        K[c] = p.k[x];
        S[c] = p.s[x];
        D[c] = p.d[x] + 1;
        P[c] = p.pl[x];
    }
    const int64_t ispat = I[0] * I[1] * I[2], ospat = O[0] * O[1] * O[2], ksz = K[0] * K[1] * K[2];
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t g = 0; g < p.g; ++g)
            for (int64_t oc = 0; oc < p.oc; ++oc)
                for (int64_t ic = 0; ic < p.ic; ++ic)
                    for (int64_t os = 0; os < ospat; ++os)
                        for (int64_t ks = 0; ks < ksz; ++ks) {
                            const int64_t o3[3] = {os / (O[1] * O[2]), os / O[2] % O[1], os % O[2]};
                            const int64_t k3[3] = {ks / (K[1] * K[2]), ks / K[2] % K[1], ks % K[2]};
                            int64_t is = 0;
                            bool in = true;
                            for (int c = 0; c < 3; ++c) {
                                const int64_t b = o3[c] * S[c] - P[c] + k3[c] * D[c];
                                in = in && b >= 0 && b < I[c];
                                is = is * I[c] + b;
                            }
                            if (!in) continue;
                            const int64_t w = ((g * p.oc + oc) * p.ic + ic) * ksz + ks;
                            const int64_t big_c = deconv ? g * p.oc + oc : g * p.ic + ic;
                            const int64_t small_c = deconv ? g * p.ic + ic : g * p.oc + oc;
                            const int64_t big = (n * p.g * (deconv ? p.oc : p.ic) + big_c) * ispat + is;
                            const int64_t small
                                    = (n * p.g * (deconv ? p.ic : p.oc) + small_c) * ospat + os;
                            if (deconv)
                                f(small, w, big);
                            else
                                f(big, w, small);
                        }
}

} // namespace convolution_ref
