// Group normalization's reference in double precision, shared by the CPU engine's tests
// (tests/primitives) and the GPU engine's (tests/gpu). Tensors are read in row-major logical
// order {N, C, spatial...}: statistics per (n, group), normalization per channel. Layer
// normalization is its {rows, C, 1} case with one group, batch normalization its {1, C, N x
// spatial} case (channel-major values) with a group per channel.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace group_normalization_ref {

struct shape_t {
    int64_t N, C, G, SP; // batch, channels, groups, spatial size
    shape_t(const std::vector<int64_t> &dims, int64_t groups) : N(dims[0]), C(dims[1]), G(groups) {
        SP = 1;
        for (size_t k = 2; k < dims.size(); ++k)
            SP *= dims[k];
    }
    int64_t group_size() const { return C / G * SP; } // the reduction length
    int64_t index(int64_t n, int64_t c, int64_t i) const { return (n * C + c) * SP + i; }
    int64_t stat(int64_t n, int64_t c) const { return n * G + c / (C / G); } // (n, group)
};

// Mean and variance (biased) of every (n, group), in mean[n * G + g], var[n * G + g]; rms:
// mean 0 and the mean square as variance (layer normalization's rms_norm).
inline void statistics(const std::vector<double> &x, const shape_t &s, std::vector<double> &mean,
        std::vector<double> &var, bool rms = false) {
    const int64_t Cg = s.C / s.G;
    mean.assign(size_t(s.N * s.G), 0.0);
    var.assign(size_t(s.N * s.G), 0.0);
    for (int64_t n = 0; n < s.N; ++n)
        for (int64_t g = 0; g < s.G; ++g) {
            double sum = 0, sq = 0;
            for (int64_t c = g * Cg; c < (g + 1) * Cg; ++c)
                for (int64_t i = 0; i < s.SP; ++i)
                    sum += x[size_t(s.index(n, c, i))];
            const double m = rms ? 0.0 : sum / double(s.group_size());
            for (int64_t c = g * Cg; c < (g + 1) * Cg; ++c)
                for (int64_t i = 0; i < s.SP; ++i) {
                    const double d = x[size_t(s.index(n, c, i))] - m;
                    sq += d * d;
                }
            mean[size_t(n * s.G + g)] = m;
            var[size_t(n * s.G + g)] = sq / double(s.group_size());
        }
}

// dst before post-ops: (x - mean) / sqrt(var + eps) * scale + shift.
inline double forward(double x, double mean, double var, double eps, double scale = 1,
        double shift = 0) {
    return (x - mean) / std::sqrt(var + eps) * scale + shift;
}

// Backward's outputs; scale empty: none (1). With global statistics the mean and variance are
// constants and diff_src is diff_dst * scale / sqrt(var + eps); rms: the mean is 0, not a
// function of x (no mean-of-gradient term).
struct backward_t {
    std::vector<double> diff_src, diff_scale, diff_shift;
};
inline backward_t backward(const std::vector<double> &x, const std::vector<double> &dy,
        const std::vector<double> &mean, const std::vector<double> &var,
        const std::vector<double> &scale, const shape_t &s, double eps, bool global,
        bool rms = false) {
    backward_t r;
    r.diff_src.assign(x.size(), 0.0);
    r.diff_scale.assign(size_t(s.C), 0.0);
    r.diff_shift.assign(size_t(s.C), 0.0);
    const double L = double(s.group_size());
    std::vector<double> m1(mean.size(), 0.0), m2(mean.size(), 0.0);
    auto rstd = [&](int64_t w) { return 1.0 / std::sqrt(var[size_t(w)] + eps); };
    for (int64_t n = 0; n < s.N; ++n)
        for (int64_t c = 0; c < s.C; ++c)
            for (int64_t i = 0; i < s.SP; ++i) {
                const int64_t w = s.stat(n, c), e = s.index(n, c, i);
                const double xh = (x[size_t(e)] - mean[size_t(w)]) * rstd(w);
                const double d = dy[size_t(e)] * (scale.empty() ? 1.0 : scale[size_t(c)]);
                m1[size_t(w)] += d / L;
                m2[size_t(w)] += d * xh / L;
                r.diff_scale[size_t(c)] += dy[size_t(e)] * xh;
                r.diff_shift[size_t(c)] += dy[size_t(e)];
            }
    for (int64_t n = 0; n < s.N; ++n)
        for (int64_t c = 0; c < s.C; ++c)
            for (int64_t i = 0; i < s.SP; ++i) {
                const int64_t w = s.stat(n, c), e = s.index(n, c, i);
                const double xh = (x[size_t(e)] - mean[size_t(w)]) * rstd(w);
                const double d = dy[size_t(e)] * (scale.empty() ? 1.0 : scale[size_t(c)]);
                r.diff_src[size_t(e)] = global ? d * rstd(w)
                                               : (d - (rms ? 0.0 : m1[size_t(w)]) - xh * m2[size_t(w)])
                                * rstd(w);
            }
    return r;
}

} // namespace group_normalization_ref
