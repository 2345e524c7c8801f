// Reference of the matmuls whose operands are dequantized element by element, shared by the
// CPU engine's tests (tests/primitives) and the GPU engine's (tests/gpu): int8 src with scales
// along K (oneDNN's dynamic quantization of activations) and weights scales and zero points
// grouped along K, and 4-bit float (f4_e2m1, f4_e3m0) src, weights and dst. Each product is
// (src - src_zp) * src_scale * (wei - wei_zp) * wei_scale, summed in double.
#pragma once

#include <cmath>
#include <cstdint>

#include "primitives/c_tensor.hpp"
#include "primitives/matmul_woq_ref.hpp"
#include "primitives/reorder_f4_ref.hpp"

namespace matmul_dq_ref {

using matmul_ref::wei_param_t;

// An element of any type these tests use (4-bit floats decoded from their bit fields).
inline double read(const c_tensor::tensor_t &t, const int64_t *pos) {
    if (reorder_f4_ref::is_f4(t.lay.dt))
        return reorder_f4_ref::decode(t.lay.dt, reorder_f4_ref::get_nibble(t, pos));
    return t.get(pos);
}

// src parameters are a wei_param_t over src's dims: its first group (gk) runs along M (1),
// its second (gn) along K.
struct quant_t {
    wei_param_t src_scale, wei_scale, wei_zp;
    double src_zp = 0;
};

// dst at pos (batch dims broadcast): the sum over K and the sum of the terms' magnitudes.
inline void dot(const c_tensor::tensor_t &s, const c_tensor::tensor_t &w, const quant_t &q,
        const int64_t *pos, double &acc, double &mag) {
    const int nd = s.lay.ndims;
    int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
    c_tensor::bcast_pos(s.lay, pos, sp);
    c_tensor::bcast_pos(w.lay, pos, wp);
    acc = mag = 0;
    for (int64_t k = 0; k < s.lay.dims[nd - 1]; ++k) {
        sp[nd - 1] = k;
        wp[nd - 2] = k;
        const double a = (read(s, sp) - q.src_zp) * q.src_scale.at(sp, s.lay.dims, nd, 1.f);
        const double b = matmul_ref::dequant(
                float(read(w, wp)), q.wei_scale, q.wei_zp, wp, w.lay.dims, nd);
        acc += a * b;
        mag += std::fabs(a * b);
    }
}

// The value v becomes once stored as dt (4-bit floats included).
inline float round_to(dnnl_data_type_t dt, double v) {
    if (reorder_f4_ref::is_f4(dt)) return float(reorder_f4_ref::round_to(dt, v));
    return c_tensor::round_to(dt, float(v));
}

// An element of dst checked against want, beyond one rounding of its type allowing
// `rel` of the terms' magnitudes (the library sums in f32). For a 4-bit float dst, either
// code next to the exact value passes when that value lies within the slack of their midpoint.
inline bool close(dnnl_data_type_t dt, double exact, float got, double mag, double rel) {
    const double slack = rel * mag + 1e-6;
    if (reorder_f4_ref::is_f4(dt))
        return got == round_to(dt, exact - slack) || got == round_to(dt, exact + slack);
    const float want = round_to(dt, exact);
    return std::fabs(double(got) - want) <= c_tensor::tolerance(dt, want) + slack;
}

} // namespace matmul_dq_ref
