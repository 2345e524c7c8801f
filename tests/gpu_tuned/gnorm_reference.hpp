// The group norm forward's reference of the tuned-kernel tests: dense NCHW [N][C][SP], G groups
// of C / G channels; each group's mean and variance in double, dst scaled and shifted per channel.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace host_values {

struct gnorm_want_t {
    std::vector<double> dst, mean, variance; // dst as x; the statistics [N][G]
};

inline gnorm_want_t gnorm_reference(const std::vector<float> &x, int64_t N, int64_t C,
        int64_t SP, int64_t G, const std::vector<float> &gamma, const std::vector<float> &beta,
        double eps) {
    const int64_t Cg = C / G;
    gnorm_want_t w {std::vector<double>(x.size()), std::vector<double>(size_t(N * G)),
            std::vector<double>(size_t(N * G))};
    for (int64_t n = 0; n < N; ++n)
        for (int64_t g = 0; g < G; ++g) {
            const size_t first = size_t((n * C + g * Cg) * SP), M = size_t(Cg * SP);
            double m = 0, v = 0;
            for (size_t i = 0; i < M; ++i)
                m += x[first + i];
            m /= double(M);
            for (size_t i = 0; i < M; ++i)
                v += (x[first + i] - m) * (x[first + i] - m);
            v /= double(M);
            w.mean[size_t(n * G + g)] = m;
            w.variance[size_t(n * G + g)] = v;
            for (size_t i = 0; i < M; ++i) {
                const size_t ci = size_t(g * Cg) + i / size_t(SP);
                w.dst[first + i] = gamma[ci] * (x[first + i] - m) / std::sqrt(v + eps) + beta[ci];
            }
        }
    return w;
}

} // namespace host_values
