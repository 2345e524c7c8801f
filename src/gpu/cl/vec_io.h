// Four (eight) consecutive elements loaded into a float4 (float8) / stored from one, for the
// bandwidth-bound kernels: one 16-byte (f32) or 8-byte (bf16, f16) access instead of four, and
// eight 2-byte elements in one 16-byte access. The element index must be a multiple of the
// group's width and the buffer's base suitably aligned (the host takes these kernels only
// where every offset0 is such a multiple).
#ifndef ANYDNN_GPU_CL_VEC_IO_H
#define ANYDNN_GPU_CL_VEC_IO_H

#include "cl/common.h"

static float4 load_f32x4(const global float *p, long i) {
    return *(const global float4 *)(p + i);
}
static float4 load_bf16x4(const global ushort *p, long i) {
    return as_float4(convert_uint4(*(const global ushort4 *)(p + i)) << 16);
}
static float4 load_f16x4(const global half *p, long i) { return vload_half4(0, p + i); }
static float4 load_s8x4(const global char *p, long i) {
    return convert_float4(*(const global char4 *)(p + i));
}
static float4 load_u8x4(const global uchar *p, long i) {
    return convert_float4(*(const global uchar4 *)(p + i));
}
static float4 load_s32x4(const global int *p, long i) {
    return convert_float4(*(const global int4 *)(p + i));
}

static void store_f32x4(global float *p, long i, float4 v) { *(global float4 *)(p + i) = v; }
static void store_bf16x4(global ushort *p, long i, float4 v) {
    const uint4 u = as_uint4(v);
    const int4 nan = (u & 0x7fffffffu) > 0x7f800000u; // NaN stays a (quiet) NaN
    const uint4 rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; // nearest even
    *(global ushort4 *)(p + i) = convert_ushort4(select(rounded, (u >> 16) | 0x40u, nan));
}
static void store_f16x4(global half *p, long i, float4 v) { vstore_half4_rte(v, 0, p + i); }
static void store_s8x4(global char *p, long i, float4 v) {
    *(global char4 *)(p + i) = convert_char4_sat_rte(v);
}
static void store_u8x4(global uchar *p, long i, float4 v) {
    *(global uchar4 *)(p + i) = convert_uchar4_sat_rte(v);
}
static void store_s32x4(global int *p, long i, float4 v) {
    *(global int4 *)(p + i) = convert_int4_sat_rte(v);
}

// Eight elements: 2-byte (and 1-byte) types in one access, 4-byte ones in two.
static float8 load_f32x8(const global float *p, long i) {
    return *(const global float8 *)(p + i);
}
// bf16 eight at a time through uint4: clang's nvptx backend splits a ushort8 access into two
// 8-byte ones; four 32-bit lanes stay one 16-byte access. Element 2k is lane k's low half
// (little-endian), 2k + 1 its high half.
static float8 load_bf16x8(const global ushort *p, long i) {
    const uint4 u = *(const global uint4 *)(p + i);
    const float4 lo = as_float4(u << 16), hi = as_float4(u & 0xffff0000u);
    return (float8)(lo.s0, hi.s0, lo.s1, hi.s1, lo.s2, hi.s2, lo.s3, hi.s3);
}
static float8 load_f16x8(const global half *p, long i) { return vload_half8(0, p + i); }
static float8 load_s8x8(const global char *p, long i) {
    return convert_float8(*(const global char8 *)(p + i));
}
static float8 load_u8x8(const global uchar *p, long i) {
    return convert_float8(*(const global uchar8 *)(p + i));
}
static float8 load_s32x8(const global int *p, long i) {
    return convert_float8(*(const global int8 *)(p + i));
}

static void store_f32x8(global float *p, long i, float8 v) { *(global float8 *)(p + i) = v; }
static void store_bf16x8(global ushort *p, long i, float8 v) {
    const uint8 u = as_uint8(v);
    const int8 nan = (u & 0x7fffffffu) > 0x7f800000u;
    const uint8 rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    const uint8 b = select(rounded, (u >> 16) | 0x40u, nan);
    *(global uint4 *)(p + i) = b.even | (b.odd << 16);
}
static void store_f16x8(global half *p, long i, float8 v) { vstore_half8_rte(v, 0, p + i); }
static void store_s8x8(global char *p, long i, float8 v) {
    *(global char8 *)(p + i) = convert_char8_sat_rte(v);
}
static void store_u8x8(global uchar *p, long i, float8 v) {
    *(global uchar8 *)(p + i) = convert_uchar8_sat_rte(v);
}
static void store_s32x8(global int *p, long i, float8 v) {
    *(global int8 *)(p + i) = convert_int8_sat_rte(v);
}

// X4(LOAD_SRC) names the four-element form of the loader a build option picked.
#define X4_(f) f##x4
#define X4(f) X4_(f)
#define X8_(f) f##x8
#define X8(f) X8_(f)

// VEC (1, 4 or 8, a build option): the kernels' element group, `vf` its f32 type,
// LOADV/STOREV its accesses.
#if VEC == 8
typedef float8 vf;
#define LOADV(f, p, i) X8(f)(p, i)
#define STOREV(f, p, i, v) X8(f)(p, i, v)
#elif VEC == 4
typedef float4 vf;
#define LOADV(f, p, i) X4(f)(p, i)
#define STOREV(f, p, i, v) X4(f)(p, i, v)
#else
typedef float vf;
#define LOADV(f, p, i) f(p, i)
#define STOREV(f, p, i, v) f(p, i, v)
#endif

// The grid-stride loop of the dense kernels: the work-item's GROUPS (a build option) element
// groups, a global size apart so that every step of the loop is one coalesced access across
// the work-items; `j`, the group's number, runs only where it is below `count` (the body runs
// at most once per g, and `continue` moves on to the next g).
#define FOR_ITEM_GROUPS(g, j, count) \
    for (int g = 0; g < GROUPS; ++g) \
        for (long j = (long)get_global_id(0) + g * (long)get_global_size(0); j < (count); \
                j = (count))

#endif
