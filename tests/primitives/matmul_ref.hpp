// Matmul's reference, shared by the CPU engine's tests (tests/primitives) and the GPU engine's
// (tests/gpu): dst[b.., m, n] = sum over k of (src[b.., m, k] - src_zp) * (wei[b.., k, n] -
// wei_zp), batch dims broadcast where an operand has 1, then the output stage
// (output_stage_ref.hpp).
#pragma once

#include <cmath>
#include <functional>

#include "c_tensor.hpp"

namespace matmul_ref {

// Reads an operand at a logical position (its own broadcast applied by the caller's reader).
using reader_t = std::function<double(const int64_t *pos)>;

// The dot product at dst position pos (nd dims, reduction length K); abs_sum, when given,
// receives the sum of the terms' magnitudes (an f32 accumulation's error grows with it).
inline double dot(const reader_t &src, const reader_t &wei, int nd, const int64_t *pos,
        int64_t K, double src_zp = 0, double wei_zp = 0, double *abs_sum = nullptr) {
    int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
    for (int d = 0; d < nd; ++d)
        sp[d] = wp[d] = pos[d];
    double acc = 0, mag = 0;
    for (int64_t k = 0; k < K; ++k) {
        sp[nd - 1] = k;
        wp[nd - 2] = k;
        const double t = (src(sp) - src_zp) * (wei(wp) - wei_zp);
        acc += t;
        mag += std::fabs(t);
    }
    if (abs_sum) *abs_sum = mag;
    return acc;
}

// A reader of a c_tensor operand that broadcasts over the dims where it has 1.
inline reader_t broadcasting(const c_tensor::tensor_t &t) {
    return [&t](const int64_t *pos) {
        int64_t p[DNNL_MAX_NDIMS];
        c_tensor::bcast_pos(t.lay, pos, p);
        return static_cast<double>(t.get(p));
    };
}

} // namespace matmul_ref
