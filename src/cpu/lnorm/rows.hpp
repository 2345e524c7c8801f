// Layer normalization of one contiguous f32 row: statistics in two passes over the row while
// it sits in cache (mean, then the mean of squared deviations: no cancellation), then the
// normalized, scaled and shifted output; and the backward row. Scalar and AVX-512 versions;
// the AVX-512 ones may write the output with non-temporal stores (`stream`).
#pragma once

#include <cmath>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

struct row_args_t {
    const float *gamma = nullptr, *beta = nullptr; // f32 copies, null when not used
    bool rms = false; // statistics: mean taken as 0, variance = mean of squares
    float eps = 0.f;
    float out_scale = 1.f; // src scale / dst scale
};

// Computes mean and var of x[0, C) (mean stays 0 for rms).
inline void stats_row_scalar(const float *x, dim_t C, bool rms, float &mean, float &var) {
    double s = 0;
    if (rms) {
        for (dim_t c = 0; c < C; ++c)
            s += double(x[c]) * x[c];
        mean = 0.f;
        var = static_cast<float>(s / C);
        return;
    }
    for (dim_t c = 0; c < C; ++c)
        s += x[c];
    const float m = static_cast<float>(s / C);
    double q = 0;
    for (dim_t c = 0; c < C; ++c)
        q += double(x[c] - m) * (x[c] - m);
    mean = m;
    var = static_cast<float>(q / C);
}

inline void fwd_row_scalar(
        const float *x, float *y, dim_t C, const row_args_t &a, float mean, float var) {
    const float rstd = 1.f / std::sqrt(var + a.eps);
    for (dim_t c = 0; c < C; ++c) {
        float v = (x[c] - mean) * rstd;
        if (a.gamma) v *= a.gamma[c];
        if (a.beta) v += a.beta[c];
        y[c] = v * a.out_scale;
    }
}

// diff_src from src x, diff_dst g; adds dd * xhat to dgamma and dd to dbeta when not null.
// `global`: the statistics are constants (use_global_stats).
inline void bwd_row_scalar(const float *x, const float *g, float *ds, dim_t C,
        const row_args_t &a, float mean, float var, bool global, float *dgamma, float *dbeta) {
    const float rstd = 1.f / std::sqrt(var + a.eps);
    float s1 = 0.f, s2 = 0.f;
    for (dim_t c = 0; c < C; ++c) {
        const float xhat = (x[c] - mean) * rstd;
        const float dg = a.gamma ? g[c] * a.gamma[c] : g[c];
        s1 += dg;
        s2 += dg * xhat;
        if (dgamma) dgamma[c] += g[c] * xhat;
        if (dbeta) dbeta[c] += g[c];
    }
    const float m1 = global || a.rms ? 0.f : s1 / C, m2 = global ? 0.f : s2 / C;
    for (dim_t c = 0; c < C; ++c) {
        const float xhat = (x[c] - mean) * rstd;
        const float dg = a.gamma ? g[c] * a.gamma[c] : g[c];
        ds[c] = rstd * (dg - m1 - xhat * m2);
    }
}

void stats_row_avx512(const float *x, dim_t C, bool rms, float &mean, float &var);
// `pf`, `pf2` (may be null): the next row's inputs, prefetched while this row is written.
void fwd_row_avx512(const float *x, float *y, dim_t C, const row_args_t &a, float mean,
        float var, bool stream, const float *pf = nullptr);
void bwd_row_avx512(const float *x, const float *g, float *ds, dim_t C, const row_args_t &a,
        float mean, float var, bool global, float *dgamma, float *dbeta, bool stream,
        const float *pf = nullptr, const float *pf2 = nullptr);

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
