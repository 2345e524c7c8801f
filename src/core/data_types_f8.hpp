// The OCP 8-bit floating-point types (f8_e5m2: IEEE-like with infinities; f8_e4m3: no
// infinities, NaN only at S.1111.111, largest 448) to and from f32, beside data_types.hpp.
// f32 to f8 rounds to nearest even; a value beyond the largest finite becomes infinity (e5m2)
// or NaN (e4m3, which has no infinity).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/data_types.hpp"

namespace anydnn {

inline bool is_f8(dnnl_data_type_t dt) {
    return dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

// f8 with `man` mantissa bits and exponent bias `bias` (e5m2: 2, 15; e4m3: 3, 7).
inline float f8_to_f32(uint8_t v, int man, int bias, bool has_inf) {
    const int sign = v >> 7, exp = (v >> man) & ((1 << (7 - man)) - 1), m = v & ((1 << man) - 1);
    const int exp_max = (1 << (7 - man)) - 1;
    float r;
    if (has_inf && exp == exp_max) r = m ? NAN : INFINITY;
    else if (!has_inf && exp == exp_max && m == (1 << man) - 1) r = NAN;
    else if (exp == 0) r = std::ldexp(static_cast<float>(m), 1 - bias - man);
    else r = std::ldexp(static_cast<float>(m + (1 << man)), exp - bias - man);
    return sign ? -r : r;
}

inline uint8_t f32_to_f8(float f, int man, int bias, bool has_inf) {
    const uint8_t sign = std::signbit(f) ? 0x80 : 0;
    const int exp_max = (1 << (7 - man)) - 1;
    const uint8_t nan = has_inf ? static_cast<uint8_t>(exp_max << man | 1)
                                : static_cast<uint8_t>(exp_max << man | ((1 << man) - 1));
    if (std::isnan(f)) return sign | nan;
    const uint8_t overflow = static_cast<uint8_t>(sign | (has_inf ? exp_max << man : nan));
    if (std::isinf(f)) return overflow;
    const float a = std::fabs(f);
    // Largest finite: e5m2 exponent exp_max - 1 with all mantissa bits, e4m3 all but one.
    const int top_exp = has_inf ? exp_max - 1 : exp_max;
    const int top_man = has_inf ? (1 << man) - 1 : (1 << man) - 2;
    // The value in units of the smallest subnormal, rounded to nearest even, then split.
    int e;
    std::frexp(a, &e); // a = x * 2^e, x in [0.5, 1)
    const int unit_exp = std::max(e - 1 - man, 1 - bias - man); // ulp's exponent at a
    const float q = std::nearbyint(std::ldexp(a, -unit_exp)); // a in ulps, rounded
    int biased = unit_exp + man + bias; // exponent field if q has man + 1 bits
    long mant = static_cast<long>(q);
    if (mant >= (2L << man)) { // rounding carried into the next binade
        mant >>= 1;
        ++biased;
    }
    if (mant < (1L << man)) biased = 0; // subnormal (or zero)
    if (biased > top_exp || (biased == top_exp && (mant & ((1 << man) - 1)) > top_man))
        return overflow;
    return static_cast<uint8_t>(sign | biased << man | (mant & ((1 << man) - 1)));
}

inline float f8_e5m2_to_f32(uint8_t v) {
    return f8_to_f32(v, 2, 15, true);
}
inline float f8_e4m3_to_f32(uint8_t v) {
    return f8_to_f32(v, 3, 7, false);
}
inline uint8_t f32_to_f8_e5m2(float f) {
    return f32_to_f8(f, 2, 15, true);
}
inline uint8_t f32_to_f8_e4m3(float f) {
    return f32_to_f8(f, 3, 7, false);
}

// Element i of an f8 buffer as f32.
inline float load_f8(dnnl_data_type_t dt, const void *base, int64_t i) {
    const uint8_t v = static_cast<const uint8_t *>(base)[i];
    return dt == dnnl_f8_e5m2 ? f8_e5m2_to_f32(v) : f8_e4m3_to_f32(v);
}

inline void store_f8(dnnl_data_type_t dt, void *base, int64_t i, float f) {
    static_cast<uint8_t *>(base)[i] = dt == dnnl_f8_e5m2 ? f32_to_f8_e5m2(f) : f32_to_f8_e4m3(f);
}

} // namespace anydnn
