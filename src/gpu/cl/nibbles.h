// Elements of the 4-bit types (f4_e2m1, f4_e3m0, s4, u4) for OpenCL C kernels: loads and
// element stores by element index, two elements a byte. Used by the reorder (reorder.cl) and
// the per-element GEMM (gemm/gemm_woq.cl).
#ifndef ANYDNN_CL_NIBBLES_H
#define ANYDNN_CL_NIBBLES_H

// The 4-bit floats, two a byte (the even element in the low half): a sign over a 3-bit code
// of increasing magnitude; f4_e2m1 (bias 1, one mantissa bit, 6 largest) and f4_e3m0 (bias
// 3, powers of two to 16). Rounding to the nearest code (a tie to the even one), saturating;
// NaN to the largest magnitude. Mirrors core/data_types_narrow.hpp.
static float f4_magnitude(uint code, int e3m0) {
    if (e3m0) return code == 0 ? 0.f : ldexp(1.f, (int)code - 3);
    const uint e = code >> 1, m = code & 1u;
    return e == 0 ? 0.5f * (float)m : ldexp(1.f + 0.5f * (float)m, (int)e - 1);
}
static float f4_to_float(uint nibble, int e3m0) {
    const float m = f4_magnitude(nibble & 7u, e3m0);
    return (nibble & 8u) ? -m : m;
}
static uint float_to_f4(float f, int e3m0) {
    const uint sign = signbit(f) ? 8u : 0u;
    const float a = fabs(f);
    if (isnan(a) || a >= f4_magnitude(7u, e3m0)) return sign | 7u;
    uint c = 0;
    while (c < 6 && f4_magnitude(c + 1, e3m0) <= a) ++c;
    // Both differences are exact (neighbouring magnitudes at most a factor two apart).
    const float lo = a - f4_magnitude(c, e3m0), hi = f4_magnitude(c + 1, e3m0) - a;
    const uint code = lo < hi ? c : hi < lo ? c + 1 : (c % 2 == 0 ? c : c + 1);
    return sign | code;
}
static uint load_nibble(const global uchar *p, long i) {
    const uint b = p[i >> 1];
    return (i & 1) ? b >> 4 : b & 0xfu;
}
static float load_f4_e2m1(const global uchar *p, long i) { return f4_to_float(load_nibble(p, i), 0); }
static float load_f4_e3m0(const global uchar *p, long i) { return f4_to_float(load_nibble(p, i), 1); }
// The 4-bit integers: s4 two's complement in [-8, 7], u4 in [0, 15]; stores round to the
// nearest (a tie to even, as the CPU's) and saturate, NaN to 0.
static float load_s4(const global uchar *p, long i) {
    const int v = (int)load_nibble(p, i);
    return (float)(v >= 8 ? v - 16 : v);
}
static float load_u4(const global uchar *p, long i) { return (float)load_nibble(p, i); }
static uint int_nibble(float f, float lo, float hi) {
    if (isnan(f)) return 0u;
    return (uint)(int)clamp(rint(f), lo, hi) & 0xfu;
}
static uint nibble_s4(float f) { return int_nibble(f, -8.f, 7.f); }
static uint nibble_u4(float f) { return int_nibble(f, 0.f, 15.f); }
static uint nibble_f4_e2m1(float f) { return float_to_f4(f, 0); }
static uint nibble_f4_e3m0(float f) { return float_to_f4(f, 1); }
// Element stores of 4-bit types are read-modify-writes of a byte: a kernel writing a 4-bit
// dst gives each byte to one work-item (reorder_nibbles, gemm_woq with C_F4).
static void store_nibble(global uchar *p, long i, uint v) {
    const uint b = p[i >> 1];
    p[i >> 1] = (uchar)((i & 1) ? (b & 0x0fu) | (v << 4) : (b & 0xf0u) | v);
}
static void store_f4_e2m1(global uchar *p, long i, float v) { store_nibble(p, i, float_to_f4(v, 0)); }
static void store_f4_e3m0(global uchar *p, long i, float v) { store_nibble(p, i, float_to_f4(v, 1)); }
static void store_s4(global uchar *p, long i, float v) { store_nibble(p, i, nibble_s4(v)); }
static void store_u4(global uchar *p, long i, float v) { store_nibble(p, i, nibble_u4(v)); }

#endif
