// The one definition of every binary algorithm as a scalar f32 function: the binary
// primitive's reference path and binary post-ops use it, vector kernels match it.
#pragma once

#include "oneapi/dnnl/dnnl.h"

namespace anydnn {
namespace cpu {

inline bool is_binary_alg(dnnl_alg_kind_t alg) {
    return alg >= dnnl_binary_add && alg <= dnnl_binary_select;
}

// dst = a op b; comparisons give 1 or 0. select reads the condition `c`: c != 0 ? a : b.
// max/min return b when either operand is NaN, as the x86 max/min instructions do.
inline float binary_scalar(dnnl_alg_kind_t alg, float a, float b, float c = 0.f) {
    switch (alg) {
        case dnnl_binary_add: return a + b;
        case dnnl_binary_mul: return a * b;
        case dnnl_binary_max: return a > b ? a : b;
        case dnnl_binary_min: return a < b ? a : b;
        case dnnl_binary_div: return a / b;
        case dnnl_binary_sub: return a - b;
        case dnnl_binary_ge: return a >= b ? 1.f : 0.f;
        case dnnl_binary_gt: return a > b ? 1.f : 0.f;
        case dnnl_binary_le: return a <= b ? 1.f : 0.f;
        case dnnl_binary_lt: return a < b ? 1.f : 0.f;
        case dnnl_binary_eq: return a == b ? 1.f : 0.f;
        case dnnl_binary_ne: return a != b ? 1.f : 0.f;
        case dnnl_binary_select: return c != 0.f ? a : b;
        default: return 0.f;
    }
}

// a[k] = a[k] op b[k] for k < n (c: select's conditions, may be null otherwise). The
// algorithm is chosen once, outside the loop, so the common ones vectorize.
inline void binary_apply_n(
        dnnl_alg_kind_t alg, float *a, const float *b, const float *c, long n) {
    switch (alg) {
        case dnnl_binary_add:
            for (long k = 0; k < n; ++k)
                a[k] += b[k];
            break;
        case dnnl_binary_mul:
            for (long k = 0; k < n; ++k)
                a[k] *= b[k];
            break;
        case dnnl_binary_sub:
            for (long k = 0; k < n; ++k)
                a[k] -= b[k];
            break;
        case dnnl_binary_div:
            for (long k = 0; k < n; ++k)
                a[k] /= b[k];
            break;
        case dnnl_binary_max:
            for (long k = 0; k < n; ++k)
                a[k] = a[k] > b[k] ? a[k] : b[k];
            break;
        case dnnl_binary_min:
            for (long k = 0; k < n; ++k)
                a[k] = a[k] < b[k] ? a[k] : b[k];
            break;
        default:
            for (long k = 0; k < n; ++k)
                a[k] = binary_scalar(alg, a[k], b[k], c ? c[k] : 0.f);
    }
}

} // namespace cpu
} // namespace anydnn
