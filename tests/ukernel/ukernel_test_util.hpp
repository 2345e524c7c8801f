// Shared pieces of the ukernel tests: typed buffers filled with small integers (exact in every
// type, so products and sums compare exactly), element access by data type, and the B of a
// brgemm laid out as the brgemm asks (packed with the library's transform when it must be).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_debug.h"
#include "oneapi/dnnl/dnnl_ukernel.h"

namespace ukernel_test {

inline size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_bf16:
        case dnnl_f16: return 2;
        default: return 1;
    }
}

inline float bf16_to_float(uint16_t v) {
    uint32_t u = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint16_t float_to_bf16(float f) { // round to nearest even (test values are exact)
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return uint16_t(u >> 16);
}
// Half precision for the small integers and simple fractions the tests use.
inline float f16_to_float(uint16_t h) {
    const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? std::ldexp(float(m), -24) : std::ldexp(float(m | 1024), e - 25);
    return s ? -v : v;
}
inline uint16_t float_to_f16(float f) {
    uint16_t s = f < 0 ? 0x8000 : 0;
    float a = std::fabs(f);
    if (a == 0.f) return s;
    int e = 0;
    float fr = std::frexp(a, &e); // a = fr * 2^e, fr in [0.5, 1)
    const int m = int(std::lround(fr * 2048.f)) - 1024; // 11 significant bits
    return uint16_t(s | ((e + 14) << 10) | (m & 1023));
}

// 8-bit floats, for the small integers the tests use. e5m2 is the top byte of an f16; e4m3
// (bias 7, 3 mantissa bits) is decoded from its fields and encoded by finding its code.
inline float f8_e4m3_to_float(uint8_t v) {
    const int e = (v >> 3) & 15, m = v & 7;
    const float a = e == 0 ? std::ldexp(float(m), -9) : std::ldexp(float(8 + m), e - 10);
    return v & 0x80 ? -a : a;
}
inline uint8_t float_to_f8_e4m3(float f) {
    for (int c = 0; c < 256; ++c)
        if (c != 0x7f && c != 0xff && f8_e4m3_to_float(uint8_t(c)) == f) return uint8_t(c);
    return 0x7f; // not representable: NaN
}

inline double get(dnnl_data_type_t dt, const void *p, size_t i) {
    switch (dt) {
        case dnnl_f32: return static_cast<const float *>(p)[i];
        case dnnl_s32: return static_cast<const int32_t *>(p)[i];
        case dnnl_bf16: return bf16_to_float(static_cast<const uint16_t *>(p)[i]);
        case dnnl_f16: return f16_to_float(static_cast<const uint16_t *>(p)[i]);
        case dnnl_s8: return static_cast<const int8_t *>(p)[i];
        case dnnl_u8: return static_cast<const uint8_t *>(p)[i];
        case dnnl_f8_e5m2: return f16_to_float(uint16_t(static_cast<const uint8_t *>(p)[i] << 8));
        case dnnl_f8_e4m3: return f8_e4m3_to_float(static_cast<const uint8_t *>(p)[i]);
        default: return 0;
    }
}
inline void set(dnnl_data_type_t dt, void *p, size_t i, double v) {
    switch (dt) {
        case dnnl_f32: static_cast<float *>(p)[i] = float(v); break;
        case dnnl_s32: static_cast<int32_t *>(p)[i] = int32_t(v); break;
        case dnnl_bf16: static_cast<uint16_t *>(p)[i] = float_to_bf16(float(v)); break;
        case dnnl_f16: static_cast<uint16_t *>(p)[i] = float_to_f16(float(v)); break;
        case dnnl_s8: static_cast<int8_t *>(p)[i] = int8_t(v); break;
        case dnnl_u8: static_cast<uint8_t *>(p)[i] = uint8_t(v); break;
        case dnnl_f8_e5m2: static_cast<uint8_t *>(p)[i] = uint8_t(float_to_f16(float(v)) >> 8); break;
        case dnnl_f8_e4m3: static_cast<uint8_t *>(p)[i] = float_to_f8_e4m3(float(v)); break;
        default: break;
    }
}

// n elements of dt (plus slack after them, never read by a correct kernel).
struct buffer_t {
    dnnl_data_type_t dt;
    size_t n;
    std::vector<uint8_t> bytes;
    buffer_t(dnnl_data_type_t dt, size_t n) : dt(dt), n(n), bytes(n * dt_size(dt) + 1) {}
    void *ptr() { return bytes.data(); }
    const void *ptr() const { return bytes.data(); }
    double at(size_t i) const { return get(dt, ptr(), i); }
    void put(size_t i, double v) { set(dt, ptr(), i, v); }
    // Small random integers: u8 0..6, others -4..4.
    void fill(std::mt19937 &gen) {
        std::uniform_int_distribution<int> d(dt == dnnl_u8 ? 0 : -4, dt == dnnl_u8 ? 6 : 4);
        for (size_t i = 0; i < n; ++i)
            put(i, d(gen));
    }
};

} // namespace ukernel_test
