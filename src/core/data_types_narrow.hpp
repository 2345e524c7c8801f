// The narrow types beside data_types.hpp read as f32: packed 4-bit integers and floats
// (s4/u4, f4_e2m1/f4_e3m0: two a byte, the even element in the low half) and the 8-bit
// floats (data_types_f8.hpp).
#pragma once

#include <algorithm>
#include <cmath>

#include "core/data_types.hpp"
#include "core/data_types_f8.hpp"

namespace anydnn {

inline float load_int4(dnnl_data_type_t dt, const void *base, int64_t i) {
    const uint8_t byte = static_cast<const uint8_t *>(base)[i >> 1];
    const int v = (i & 1) ? byte >> 4 : byte & 0xf;
    return static_cast<float>(dt == dnnl_s4 ? (v ^ 8) - 8 : v);
}

inline bool is_4bit(dnnl_data_type_t dt) {
    return dt == dnnl_s4 || dt == dnnl_u4 || dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0;
}

inline bool is_f4(dnnl_data_type_t dt) {
    return dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0;
}

// The 4-bit floats (OCP microscaling): a sign bit over 3 bits of magnitude code. f4_e2m1
// (bias 1, one mantissa bit) and f4_e3m0 (bias 3, powers of two) have no infinity or NaN.
// The magnitude of each code, in increasing order:
inline const float *f4_magnitudes(dnnl_data_type_t dt) {
    static const float e2m1[8] = {0.f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 4.f, 6.f};
    static const float e3m0[8] = {0.f, 0.25f, 0.5f, 1.f, 2.f, 4.f, 8.f, 16.f};
    return dt == dnnl_f4_e2m1 ? e2m1 : e3m0;
}

inline float f4_to_f32(dnnl_data_type_t dt, unsigned nibble) {
    const float m = f4_magnitudes(dt)[nibble & 7u];
    return (nibble & 8u) ? -m : m;
}

// f32 to a 4-bit float: the nearest magnitude (a tie to the even code), saturating at the
// largest; infinities saturate, NaN becomes the largest magnitude of its sign.
inline unsigned f32_to_f4(dnnl_data_type_t dt, float f) {
    const unsigned sign = std::signbit(f) ? 8u : 0u;
    const float *m = f4_magnitudes(dt);
    const float a = std::fabs(f);
    if (std::isnan(a) || a >= m[7]) return sign | 7u;
    unsigned c = 0;
    while (c < 6 && m[c + 1] <= a) ++c; // m[c] <= a < m[c + 1]
    const float lo = a - m[c], hi = m[c + 1] - a;
    const unsigned code = lo < hi ? c : hi < lo ? c + 1 : (c % 2 == 0 ? c : c + 1);
    return sign | code;
}

// Elements of 4-bit types: two a byte, the even element in the low half.
inline unsigned load_nibble(const void *base, int64_t i) {
    const uint8_t byte = static_cast<const uint8_t *>(base)[i >> 1];
    return (i & 1) ? byte >> 4 : byte & 0xfu;
}
inline void store_nibble(void *base, int64_t i, unsigned v) {
    uint8_t &byte = static_cast<uint8_t *>(base)[i >> 1];
    byte = (i & 1) ? uint8_t((byte & 0x0fu) | (v << 4)) : uint8_t((byte & 0xf0u) | (v & 0xfu));
}

// load_as_f32 with s4/u4, f4 and f8 as well (`i` counts elements, not bytes).
inline float load_any_as_f32(dnnl_data_type_t dt, const void *base, int64_t i) {
    if (dt == dnnl_s4 || dt == dnnl_u4) return load_int4(dt, base, i);
    if (dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0) return f4_to_f32(dt, load_nibble(base, i));
    if (is_f8(dt)) return load_f8(dt, base, i);
    return load_as_f32(dt, base, i);
}

// store_from_f32 with s4/u4 (rounded, saturated), f4 and f8 as well.
inline void store_any_from_f32(dnnl_data_type_t dt, void *base, int64_t i, float f) {
    if (dt == dnnl_s4 || dt == dnnl_u4) {
        const float lo = dt == dnnl_s4 ? -8.f : 0.f, hi = dt == dnnl_s4 ? 7.f : 15.f;
        const float r = std::isnan(f) ? 0.f : std::nearbyint(std::min(hi, std::max(lo, f)));
        return store_nibble(base, i, unsigned(int(r)) & 0xfu);
    }
    if (dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0) return store_nibble(base, i, f32_to_f4(dt, f));
    if (is_f8(dt)) return store_f8(dt, base, i, f);
    store_from_f32(dt, base, i, f);
}

} // namespace anydnn
