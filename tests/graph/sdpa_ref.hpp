// Scaled dot-product attention's reference in double precision, shared by the graph tests
// (tests/graph) and the OpenCL graph tests (tests/gpu): for every query head, scores Q K^T
// times scale (plus a causal mask: -inf above the diagonal), softmax over each row, times V.
// K and V have kv_heads heads shared by groups of query heads (GQA when kv_heads < heads).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace sdpa_ref {

// A problem: B batches of Hkv K/V heads, each shared by G query heads; Sq queries, Sk keys,
// head sizes D (Q, K) and Dv (V). Q is {B, Hkv, G, Sq, D}, K {B, Hkv, Sk, D} (or {.., D, Sk}
// when not k_transposed), V {B, Hkv, Sk, Dv}, dst {B, Hkv, G, Sq, Dv}, all row-major. mask
// gives the additive mask at (b, hkv, g, i, j) (null: none).
struct problem_t {
    int64_t B = 1, Hkv = 1, G = 1, Sq = 1, Sk = 1, D = 1, Dv = 1;
    bool k_transposed = true;
    double scale = 1; // the scores' factor
    std::function<double(int64_t, int64_t, int64_t, int64_t, int64_t)> mask;
};

inline std::vector<float> forward(const problem_t &p, const std::vector<float> &q,
        const std::vector<float> &k, const std::vector<float> &v) {
    std::vector<float> out(size_t(p.B * p.Hkv * p.G * p.Sq * p.Dv));
    for (int64_t b = 0; b < p.B; ++b)
        for (int64_t h = 0; h < p.Hkv; ++h)
            for (int64_t g = 0; g < p.G; ++g) {
                const int64_t qh = (b * p.Hkv + h) * p.G + g, kh = b * p.Hkv + h;
                for (int64_t i = 0; i < p.Sq; ++i) {
                    std::vector<double> s(size_t(p.Sk));
                    double mx = -INFINITY;
                    for (int64_t j = 0; j < p.Sk; ++j) {
                        double acc = 0;
                        for (int64_t d = 0; d < p.D; ++d) {
                            const size_t ki = size_t(p.k_transposed ? (kh * p.Sk + j) * p.D + d
                                                                    : (kh * p.D + d) * p.Sk + j);
                            acc += double(q[size_t((qh * p.Sq + i) * p.D + d)]) * k[ki];
                        }
                        s[size_t(j)] = acc * p.scale + (p.mask ? p.mask(b, h, g, i, j) : 0.0);
                        mx = std::max(mx, s[size_t(j)]);
                    }
                    double sum = 0;
                    for (auto &x : s)
                        sum += (x = std::exp(x - mx));
                    for (int64_t d = 0; d < p.Dv; ++d) {
                        double acc = 0;
                        for (int64_t j = 0; j < p.Sk; ++j)
                            acc += s[size_t(j)] / sum * v[size_t((kh * p.Sk + j) * p.Dv + d)];
                        out[size_t((qh * p.Sq + i) * p.Dv + d)] = float(acc);
                    }
                }
            }
    return out;
}

// Q, K, V of `heads` query heads and kv_heads K/V heads, {heads, S, D}, an optional causal
// mask (-inf above the diagonal).
inline std::vector<float> forward(const std::vector<float> &q, const std::vector<float> &k,
        const std::vector<float> &v, int64_t heads, int64_t kv_heads, int64_t S, int64_t D,
        bool causal, double scale) {
    problem_t p;
    p.Hkv = kv_heads;
    p.G = heads / kv_heads;
    p.Sq = p.Sk = S;
    p.D = p.Dv = D;
    p.scale = scale;
    if (causal)
        p.mask = [](int64_t, int64_t, int64_t, int64_t i, int64_t j) {
            return j > i ? -INFINITY : 0.0;
        };
    return forward(p, q, k, v);
}

} // namespace sdpa_ref
