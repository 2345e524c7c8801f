// Softmax of one contiguous f32 row, forward and backward: a portable scalar version and an
// AVX-512 one (max, then exp and sum with the row held in cache, then scale). The AVX-512
// versions may write the output with non-temporal stores (`stream`) when it is too big to
// stay in cache; `tmp` holds C floats of scratch.
#pragma once

#include <cmath>
#include <limits>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace softmax {

// y = softmax(x) * scale (accurate) or (x - max - ln sum e^(x - max)) * scale (log).
inline void fwd_row_scalar(const float *x, float *y, dim_t C, bool log_alg, float scale) {
    float mx = -std::numeric_limits<float>::infinity();
    for (dim_t c = 0; c < C; ++c)
        mx = std::fmax(mx, x[c]);
    float sum = 0.f;
    if (log_alg) {
        for (dim_t c = 0; c < C; ++c)
            sum += std::exp(x[c] - mx);
        const float lse = mx + std::log(sum);
        for (dim_t c = 0; c < C; ++c)
            y[c] = (x[c] - lse) * scale;
        return;
    }
    for (dim_t c = 0; c < C; ++c) {
        y[c] = std::exp(x[c] - mx);
        sum += y[c];
    }
    const float k = scale / sum;
    for (dim_t c = 0; c < C; ++c)
        y[c] *= k;
}

// diff_src from dst y and diff_dst g along one row.
inline void bwd_row_scalar(const float *y, const float *g, float *ds, dim_t C, bool log_alg) {
    float sum = 0.f;
    if (log_alg) {
        for (dim_t c = 0; c < C; ++c)
            sum += g[c];
        for (dim_t c = 0; c < C; ++c)
            ds[c] = g[c] - std::exp(y[c]) * sum;
        return;
    }
    for (dim_t c = 0; c < C; ++c)
        sum += g[c] * y[c];
    for (dim_t c = 0; c < C; ++c)
        ds[c] = y[c] * (g[c] - sum);
}

// `pf`, `pf2` (may be null): the next row's inputs, prefetched while this row computes so
// that memory stays busy.
void fwd_row_avx512(const float *x, float *y, dim_t C, bool log_alg, float scale, bool stream,
        float *tmp, const float *pf = nullptr);
void bwd_row_avx512(const float *y, const float *g, float *ds, dim_t C, bool log_alg,
        bool stream, const float *pf = nullptr, const float *pf2 = nullptr);
// Orders this thread's non-temporal stores before what follows.
void stream_fence();

} // namespace softmax
} // namespace cpu
} // namespace anydnn
