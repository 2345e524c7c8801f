#include "data_types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace benchdnn {

namespace {

uint32_t f2bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    return u;
}

float bits2f(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof(f));
    return f;
}

uint16_t f32_to_bf16(float f) {
    uint32_t u = f2bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
}

float bf16_to_f32(uint16_t h) {
    return bits2f(static_cast<uint32_t>(h) << 16);
}

uint16_t f32_to_f16(float f) {
    uint32_t x = f2bits(f);
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return sign | 0x7e00u; // NaN
    if (a >= 0x477ff000u) return sign | 0x7c00u; // rounds to (or is) infinity
    if (a < 0x38800000u) // below the smallest normal half: count units of 2^-24
        return sign | static_cast<uint16_t>(std::nearbyint(bits2f(a) * 16777216.0f));
    a += 0xfffu + ((a >> 13) & 1u);
    a -= 0x38000000u; // exponent bias 127 -> 15
    return sign | static_cast<uint16_t>(a >> 13);
}

float f16_to_f32(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) {
        float v = std::ldexp(static_cast<float>(m), -24);
        return sign ? -v : v;
    }
    if (e == 31) return bits2f(sign | 0x7f800000u | (m << 13));
    return bits2f(sign | ((e + 112u) << 23) | (m << 13));
}

// The two 8-bit float formats: f8_e5m2 is IEEE-like (infinities, 1.75 * 2^15 largest),
// f8_e4m3 has no infinity and keeps its top exponent for numbers (1.75 * 2^8 largest; S.1111.111
// is NaN). Stored values round to nearest even; beyond the largest finite value e5m2 gives
// infinity and e4m3 NaN (IEEE overflow for a format without infinity).
struct f8_format_t {
    int man_bits, bias;
    bool has_inf;
    double largest() const {
        const int top_exp = (1 << (7 - man_bits)) - (has_inf ? 2 : 1);
        const double top_mant = has_inf ? 2.0 - std::ldexp(1.0, -man_bits)
                                        : 2.0 - std::ldexp(2.0, -man_bits);
        return std::ldexp(top_mant, top_exp - bias);
    }
};
f8_format_t f8_format(dnnl_data_type_t dt) {
    return dt == dnnl_f8_e5m2 ? f8_format_t {2, 15, true} : f8_format_t {3, 7, false};
}

// v rounded to the format's grid (the spacing of v's binade, or of the subnormals).
double f8_round(double v, const f8_format_t &f) {
    if (std::isnan(v) || std::isinf(v)) return f.has_inf || std::isnan(v) ? v : std::nan("");
    const double a = std::fabs(v);
    if (a == 0) return v;
    const int e = std::max(std::ilogb(a), 1 - f.bias);
    const double step = std::ldexp(1.0, e - f.man_bits);
    const double r = std::nearbyint(a / step) * step;
    if (r > f.largest()) return f.has_inf ? std::copysign(INFINITY, v) : std::nan("");
    return std::copysign(r, v);
}

uint8_t f8_encode(double v, const f8_format_t &f) {
    const double r = f8_round(v, f);
    const uint8_t sign = std::signbit(r) ? 0x80 : 0;
    const int exp_mask = (1 << (7 - f.man_bits)) - 1;
    if (std::isnan(r)) return static_cast<uint8_t>(0x7f);
    if (std::isinf(r)) return static_cast<uint8_t>(sign | (exp_mask << f.man_bits));
    const double a = std::fabs(r);
    const int emin = 1 - f.bias;
    if (a < std::ldexp(1.0, emin)) // subnormal or zero: a count of the smallest step
        return static_cast<uint8_t>(sign | static_cast<int>(a / std::ldexp(1.0, emin - f.man_bits)));
    const int e = std::ilogb(a);
    const int m = static_cast<int>(std::ldexp(a, f.man_bits - e)) - (1 << f.man_bits);
    return static_cast<uint8_t>(sign | ((e + f.bias) << f.man_bits) | m);
}

double f8_decode(uint8_t b, const f8_format_t &f) {
    const int exp_mask = (1 << (7 - f.man_bits)) - 1;
    const int e = (b >> f.man_bits) & exp_mask, m = b & ((1 << f.man_bits) - 1);
    const double sign = (b & 0x80) ? -1.0 : 1.0;
    if (f.has_inf && e == exp_mask) return m ? std::nan("") : sign * INFINITY;
    if (!f.has_inf && (b & 0x7f) == 0x7f) return std::nan("");
    if (e == 0) return sign * std::ldexp(static_cast<double>(m), 1 - f.bias - f.man_bits);
    return sign * std::ldexp(static_cast<double>((1 << f.man_bits) | m), e - f.bias - f.man_bits);
}

// The 4-bit floats: a sign bit over a 3-bit code of exponent and mantissa bits, no infinity
// or NaN. f4_e2m1: 2 exponent bits (bias 1), 1 mantissa bit, 6 largest; f4_e3m0: 3 exponent
// bits (bias 3), no mantissa, 16 largest. Stored values take the nearest code (a tie goes to
// the even code) and saturate at the largest.
double f4_decode(unsigned nibble, dnnl_data_type_t dt) {
    const unsigned c = nibble & 7u;
    const double sign = (nibble & 8u) ? -1.0 : 1.0;
    if (dt == dnnl_f4_e3m0) return c == 0 ? 0.0 * sign : sign * std::ldexp(1.0, int(c) - 3);
    const unsigned e = c >> 1, m = c & 1u;
    if (e == 0) return sign * 0.5 * m; // subnormal: m * 2^(1 - bias - 1)
    return sign * std::ldexp(1.0 + 0.5 * m, int(e) - 1);
}

unsigned f4_encode(double v, dnnl_data_type_t dt) {
    const unsigned sign = std::signbit(v) ? 8u : 0u;
    const double a = std::fabs(v);
    unsigned best = 0;
    for (unsigned c = 1; c < 8; ++c) {
        const double dc = std::fabs(f4_decode(c, dt) - a), db = std::fabs(f4_decode(best, dt) - a);
        if (dc < db || (dc == db && c % 2 == 0)) best = c;
    }
    if (std::isnan(v) || a >= f4_decode(7, dt)) best = 7;
    return sign | best;
}

double saturate_round(double v, dnnl_data_type_t dt) {
    if (std::isnan(v)) return 0;
    double lo = dt_lowest(dt), hi = dt_max(dt);
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return std::nearbyint(v);
}

} // namespace

bool dt_supported(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_f64:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return true;
        default: return false;
    }
}

bool dt_is_4bit(dnnl_data_type_t dt) {
    return dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0 || dt == dnnl_s4 || dt == dnnl_u4;
}

bool dt_is_int(dnnl_data_type_t dt) {
    return dt == dnnl_s32 || dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_s4 || dt == dnnl_u4;
}

size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f64: return 8;
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_bf16:
        case dnnl_f16: return 2;
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return 1;
        default: return 0;
    }
}

double dt_lowest(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_s8: return -128;
        case dnnl_u8: return 0;
        case dnnl_s4: return -8;
        case dnnl_u4: return 0;
        case dnnl_s32: return -2147483648.0;
        case dnnl_f16: return -65504;
        case dnnl_bf16: return -3.38953139e38;
        case dnnl_f32: return -std::numeric_limits<float>::max();
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return -f8_format(dt).largest();
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return -f4_decode(7, dt);
        default: return -std::numeric_limits<double>::max();
    }
}

double dt_max(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_s8: return 127;
        case dnnl_u8: return 255;
        case dnnl_s4: return 7;
        case dnnl_u4: return 15;
        // The largest float not above INT32_MAX: what a float->s32 conversion saturates to.
        case dnnl_s32: return 2147483520.0;
        case dnnl_f16: return 65504;
        case dnnl_bf16: return 3.38953139e38;
        case dnnl_f32: return std::numeric_limits<float>::max();
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return f8_format(dt).largest();
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return f4_decode(7, dt);
        default: return std::numeric_limits<double>::max();
    }
}

double dt_epsilon(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32: return 1.0 / (1 << 23);
        case dnnl_bf16: return 1.0 / (1 << 7);
        case dnnl_f16: return 1.0 / (1 << 10);
        case dnnl_f64: return 1.0 / (1ll << 52);
        case dnnl_f8_e5m2: return 1.0 / 4;
        case dnnl_f8_e4m3: return 1.0 / 8;
        case dnnl_f4_e2m1: return 1.0 / 2;
        case dnnl_f4_e3m0: return 1.0;
        default: return 0;
    }
}

double round_to_dt(double v, dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f64: return v;
        case dnnl_f32: return static_cast<float>(v);
        case dnnl_bf16: return bf16_to_f32(f32_to_bf16(static_cast<float>(v)));
        case dnnl_f16: return f16_to_f32(f32_to_f16(static_cast<float>(v)));
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s4:
        case dnnl_u4: return saturate_round(v, dt);
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return f8_round(v, f8_format(dt));
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return f4_decode(f4_encode(v, dt), dt);
        default: return v;
    }
}

double load_elem(const void *base, size_t i, dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f64: return static_cast<const double *>(base)[i];
        case dnnl_f32: return static_cast<const float *>(base)[i];
        case dnnl_bf16: return bf16_to_f32(static_cast<const uint16_t *>(base)[i]);
        case dnnl_f16: return f16_to_f32(static_cast<const uint16_t *>(base)[i]);
        case dnnl_s32: return static_cast<const int32_t *>(base)[i];
        case dnnl_s8: return static_cast<const int8_t *>(base)[i];
        case dnnl_u8: return static_cast<const uint8_t *>(base)[i];
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: return f8_decode(static_cast<const uint8_t *>(base)[i], f8_format(dt));
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: {
            // Two elements a byte, the even one in the low half.
            const uint8_t byte = static_cast<const uint8_t *>(base)[i / 2];
            return f4_decode(i % 2 ? byte >> 4 : byte & 0xfu, dt);
        }
        case dnnl_s4:
        case dnnl_u4: {
            const uint8_t byte = static_cast<const uint8_t *>(base)[i / 2];
            const int v = i % 2 ? byte >> 4 : byte & 0xf;
            return dt == dnnl_s4 && v > 7 ? v - 16 : v;
        }
        default: return std::nan("");
    }
}

void store_elem(void *base, size_t i, dnnl_data_type_t dt, double v) {
    switch (dt) {
        case dnnl_f64: static_cast<double *>(base)[i] = v; break;
        case dnnl_f32: static_cast<float *>(base)[i] = static_cast<float>(v); break;
        case dnnl_bf16:
            static_cast<uint16_t *>(base)[i] = f32_to_bf16(static_cast<float>(v));
            break;
        case dnnl_f16:
            static_cast<uint16_t *>(base)[i] = f32_to_f16(static_cast<float>(v));
            break;
        case dnnl_s32:
            static_cast<int32_t *>(base)[i] = static_cast<int32_t>(saturate_round(v, dt));
            break;
        case dnnl_s8:
            static_cast<int8_t *>(base)[i] = static_cast<int8_t>(saturate_round(v, dt));
            break;
        case dnnl_u8:
            static_cast<uint8_t *>(base)[i] = static_cast<uint8_t>(saturate_round(v, dt));
            break;
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: static_cast<uint8_t *>(base)[i] = f8_encode(v, f8_format(dt)); break;
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: {
            uint8_t &byte = static_cast<uint8_t *>(base)[i / 2];
            const unsigned code = f4_encode(v, dt);
            byte = static_cast<uint8_t>(i % 2 ? (byte & 0x0fu) | (code << 4) : (byte & 0xf0u) | code);
            break;
        }
        case dnnl_s4:
        case dnnl_u4: {
            uint8_t &byte = static_cast<uint8_t *>(base)[i / 2];
            const int q = static_cast<int>(saturate_round(v, dt));
            const unsigned code = static_cast<unsigned>(q) & 0xfu;
            byte = static_cast<uint8_t>(i % 2 ? (byte & 0x0fu) | (code << 4) : (byte & 0xf0u) | code);
            break;
        }
        default: break;
    }
}

} // namespace benchdnn
