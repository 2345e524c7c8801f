// Scalar conversions between the storage data types and the f32 that kernels compute in.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "oneapi/dnnl/dnnl.h"

namespace anydnn {

inline float bf16_to_f32(uint16_t v) {
    uint32_t bits = static_cast<uint32_t>(v) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

// Round to nearest even; NaN stays NaN.
inline uint16_t f32_to_bf16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

inline float f16_to_f32(uint16_t h) {
    uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else { // subnormal: normalise
            int e = -1;
            do {
                ++e;
                man <<= 1;
            } while ((man & 0x400u) == 0);
            bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (man & 0x3ffu) << 13;
        }
    } else {
        bits = sign | (exp + 127 - 15) << 23 | man << 13;
    }
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

// Round to nearest even, with overflow to infinity and subnormal results.
inline uint16_t f32_to_f16(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    uint32_t abs = bits & 0x7fffffffu;
    if (abs > 0x7f800000u) return sign | 0x7e00u; // NaN
    if (abs >= 0x477ff000u) return sign | 0x7c00u; // rounds to infinity
    if (abs < 0x38800000u) { // result is subnormal or zero
        float a;
        std::memcpy(&a, &abs, sizeof(a));
        // Scale so that one f16 subnormal ulp is 1, then round to nearest even.
        float scaled = a * 16777216.0f; // 2^24
        return sign | static_cast<uint16_t>(std::nearbyint(scaled));
    }
    uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
    return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

// 8-bit floats: f8_e4m3 (bias 7, 3 mantissa bits, no infinity, 0x7f NaN, largest 448) and
// f8_e5m2 (bias 15, 2 mantissa bits, IEEE-like with infinities). f32 rounds to nearest even;
// beyond the largest finite value it overflows as IEEE does (e5m2: infinity, e4m3: NaN).
inline float f8_to_f32(uint8_t v, int man_bits, int bias, bool has_inf) {
    const int exp_bits = 7 - man_bits;
    const int e = (v >> man_bits) & ((1 << exp_bits) - 1), m = v & ((1 << man_bits) - 1);
    const float sign = (v & 0x80) ? -1.f : 1.f;
    if (has_inf && e == (1 << exp_bits) - 1)
        return m ? std::numeric_limits<float>::quiet_NaN() : sign * INFINITY;
    if (!has_inf && (v & 0x7f) == 0x7f) return std::numeric_limits<float>::quiet_NaN();
    if (e == 0) return sign * std::ldexp(static_cast<float>(m), 1 - bias - man_bits);
    return sign * std::ldexp(static_cast<float>((1 << man_bits) | m), e - bias - man_bits);
}

inline uint8_t f32_to_f8(float f, int man_bits, int bias, bool has_inf) {
    const uint8_t sign = std::signbit(f) ? 0x80 : 0;
    const uint8_t nan = has_inf ? 0x7e : 0x7f;
    if (std::isnan(f)) return sign | nan;
    const int emin = 1 - bias;
    const int top = has_inf ? (1 << (7 - man_bits)) - 2 : (1 << (7 - man_bits)) - 1;
    // The largest finite magnitude (e4m3 keeps its top exponent, less the NaN code).
    const float max = std::ldexp(static_cast<float>((2 << man_bits) - (has_inf ? 1 : 2)),
            top - bias - man_bits);
    const float a = std::fabs(f);
    if (std::isinf(a)) return sign | (has_inf ? 0x7c : nan);
    int e2 = 0;
    std::frexp(a, &e2); // a = [0.5, 1) * 2^e2
    const int exp = std::max(e2 - 1, emin);
    const float quantum = std::ldexp(1.f, exp - man_bits);
    const float r = std::nearbyint(a / quantum) * quantum;
    if (r > max) return sign | (has_inf ? 0x7c : nan);
    if (r < std::ldexp(1.f, emin)) // subnormal or zero
        return sign | static_cast<uint8_t>(r / std::ldexp(1.f, emin - man_bits));
    std::frexp(r, &e2);
    const int re = e2 - 1;
    const int m = static_cast<int>(r / std::ldexp(1.f, re - man_bits)) - (1 << man_bits);
    return sign | static_cast<uint8_t>(((re + bias) << man_bits) | m);
}

// Saturating conversion of an f32 to an integer type, rounding to nearest even.
template <typename T>
inline T saturate_round(float f) {
    // float(max) rounds up for s32 (2^31): `r >= hi` still catches every overflow.
    const float lo = static_cast<float>(std::numeric_limits<T>::lowest());
    const float hi = static_cast<float>(std::numeric_limits<T>::max());
    if (std::isnan(f)) return 0;
    float r = std::nearbyint(f);
    if (r <= lo) return std::numeric_limits<T>::lowest();
    if (r >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
}

// The lowest finite value of `dt` as f32 (max pooling's result over a window of padding only).
inline float lowest_finite(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_bf16: return -0x1.fep127f;
        case dnnl_f16: return -65504.f;
        case dnnl_s32: return static_cast<float>(std::numeric_limits<int32_t>::lowest());
        case dnnl_s8: return -128.f;
        case dnnl_u8: return 0.f;
        default: return std::numeric_limits<float>::lowest();
    }
}

// Reads element `i` of a buffer of type `dt` as f32.
inline float load_as_f32(dnnl_data_type_t dt, const void *base, int64_t i) {
    switch (dt) {
        case dnnl_f32: return static_cast<const float *>(base)[i];
        case dnnl_bf16: return bf16_to_f32(static_cast<const uint16_t *>(base)[i]);
        case dnnl_f16: return f16_to_f32(static_cast<const uint16_t *>(base)[i]);
        case dnnl_s32: return static_cast<float>(static_cast<const int32_t *>(base)[i]);
        case dnnl_s8: return static_cast<const int8_t *>(base)[i];
        case dnnl_u8: return static_cast<const uint8_t *>(base)[i];
        case dnnl_f64: return static_cast<float>(static_cast<const double *>(base)[i]);
        case dnnl_boolean: return static_cast<const uint8_t *>(base)[i] ? 1.f : 0.f;
        case dnnl_f8_e4m3: return f8_to_f32(static_cast<const uint8_t *>(base)[i], 3, 7, false);
        case dnnl_f8_e5m2: return f8_to_f32(static_cast<const uint8_t *>(base)[i], 2, 15, true);
        default: return 0.f;
    }
}

// Writes f32 `v` as element `i` of a buffer of type `dt` (rounding, saturating).
inline void store_from_f32(dnnl_data_type_t dt, void *base, int64_t i, float v) {
    switch (dt) {
        case dnnl_f32: static_cast<float *>(base)[i] = v; break;
        case dnnl_bf16: static_cast<uint16_t *>(base)[i] = f32_to_bf16(v); break;
        case dnnl_f16: static_cast<uint16_t *>(base)[i] = f32_to_f16(v); break;
        case dnnl_s32: static_cast<int32_t *>(base)[i] = saturate_round<int32_t>(v); break;
        case dnnl_s8: static_cast<int8_t *>(base)[i] = saturate_round<int8_t>(v); break;
        case dnnl_u8: static_cast<uint8_t *>(base)[i] = saturate_round<uint8_t>(v); break;
        case dnnl_f64: static_cast<double *>(base)[i] = v; break;
        case dnnl_boolean: static_cast<uint8_t *>(base)[i] = v != 0.f; break;
        case dnnl_f8_e4m3: static_cast<uint8_t *>(base)[i] = f32_to_f8(v, 3, 7, false); break;
        case dnnl_f8_e5m2: static_cast<uint8_t *>(base)[i] = f32_to_f8(v, 2, 15, true); break;
        default: break;
    }
}

} // namespace anydnn
