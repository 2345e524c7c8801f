// Shared by every kernel: element types as storage (f16 and bf16 compute in f32, so no
// device extension is needed) and the offset of a logical index in a blocked layout.
#ifndef ANYDNN_GPU_CL_COMMON_H
#define ANYDNN_GPU_CL_COMMON_H

// Helpers of these headers are static: a program then keeps only the code its kernels reach
// (not every eltwise algorithm and the math library behind them), which keeps binaries small
// and quick to load from the disk cache (PoCL parses a program's whole module on loading).

static float load_f32(const global float *p, long i) { return p[i]; }
static float load_bf16(const global ushort *p, long i) { return as_float(((uint)p[i]) << 16); }
static float load_f16(const global half *p, long i) { return vload_half(i, p); }
static float load_s8(const global char *p, long i) { return (float)p[i]; }
static float load_u8(const global uchar *p, long i) { return (float)p[i]; }
static float load_s32(const global int *p, long i) { return (float)p[i]; }

static void store_f32(global float *p, long i, float v) { p[i] = v; }
static void store_bf16(global ushort *p, long i, float v) {
    uint u = as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) { // NaN stays a (quiet) NaN
        p[i] = (ushort)((u >> 16) | 0x40u);
        return;
    }
    u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even
    p[i] = (ushort)(u >> 16);
}
static void store_f16(global half *p, long i, float v) { vstore_half_rte(v, i, p); }
static void store_s8(global char *p, long i, float v) { p[i] = convert_char_sat_rte(v); }
static void store_u8(global uchar *p, long i, float v) { p[i] = convert_uchar_sat_rte(v); }
static void store_s32(global int *p, long i, float v) { p[i] = convert_int_sat_rte(v); }

// 8-bit floats, converted by the reorder kernels only: f8_e4m3 (bias 7, 3 mantissa bits, no
// infinity, 0x7f NaN) and f8_e5m2 (bias 15, 2 mantissa bits, IEEE-like). Rounding to nearest
// even; overflow as IEEE does (e5m2: infinity, e4m3: NaN). Mirrors core/data_types.hpp.
static float f8_to_float(uint v, int mb, int bias, int has_inf) {
    const int eb = 7 - mb;
    const int e = (v >> mb) & ((1 << eb) - 1), m = v & ((1 << mb) - 1);
    const float sign = (v & 0x80u) ? -1.f : 1.f;
    if (has_inf && e == (1 << eb) - 1) return m ? NAN : sign * INFINITY;
    if (!has_inf && (v & 0x7fu) == 0x7fu) return NAN;
    if (e == 0) return sign * ldexp((float)m, 1 - bias - mb);
    return sign * ldexp((float)((1 << mb) | m), e - bias - mb);
}
static uchar float_to_f8(float f, int mb, int bias, int has_inf) {
    const uint sign = signbit(f) ? 0x80u : 0u;
    const uint nan = has_inf ? 0x7eu : 0x7fu;
    if (isnan(f)) return (uchar)(sign | nan);
    const int emin = 1 - bias;
    const int top = has_inf ? (1 << (7 - mb)) - 2 : (1 << (7 - mb)) - 1;
    const float maxv = ldexp((float)((2 << mb) - (has_inf ? 1 : 2)), top - bias - mb);
    const float a = fabs(f);
    if (isinf(a)) return (uchar)(sign | (has_inf ? 0x7cu : nan));
    int e2 = 0;
    frexp(a, &e2);
    const float quantum = ldexp(1.f, max(e2 - 1, emin) - mb);
    const float r = rint(a / quantum) * quantum;
    if (r > maxv) return (uchar)(sign | (has_inf ? 0x7cu : nan));
    if (r < ldexp(1.f, emin)) return (uchar)(sign | (uint)(r / ldexp(1.f, emin - mb)));
    frexp(r, &e2);
    const int m = (int)(r / ldexp(1.f, e2 - 1 - mb)) - (1 << mb);
    return (uchar)(sign | (uint)(((e2 - 1 + bias) << mb) | m));
}
static float load_f8_e4m3(const global uchar *p, long i) { return f8_to_float(p[i], 3, 7, 0); }
static float load_f8_e5m2(const global uchar *p, long i) { return f8_to_float(p[i], 2, 15, 1); }
static void store_f8_e4m3(global uchar *p, long i, float v) { p[i] = float_to_f8(v, 3, 7, 0); }
static void store_f8_e5m2(global uchar *p, long i, float v) { p[i] = float_to_f8(v, 2, 15, 1); }

// Mirrors gpu::tensor_layout_t (src/gpu/kernel_layout.hpp) field for field.
#define MAX_NDIMS 6
#define MAX_BLKS 3
typedef struct {
    long offset0;
    long dims[MAX_NDIMS]; // padded dimensions
    long strides[MAX_NDIMS]; // outer strides
    long blk_stride[MAX_BLKS]; // stride of each inner block's index
    int ndims, nblks;
    int outer_div[MAX_NDIMS]; // product of the inner blocks of each dimension
    int blk_dim[MAX_BLKS], blk_size[MAX_BLKS], blk_div[MAX_BLKS];
    int pad;
} tensor_layout_t;

// Element offset of logical index idx[0..ndims).
static long layout_offset(const tensor_layout_t *l, const long *idx) {
    long off = l->offset0;
    for (int d = 0; d < l->ndims; ++d) off += idx[d] / l->outer_div[d] * l->strides[d];
    for (int b = 0; b < l->nblks; ++b)
        off += idx[l->blk_dim[b]] / l->blk_div[b] % l->blk_size[b] * l->blk_stride[b];
    return off;
}

// Logical index of the linear position `i` over dims (row-major over dims[0..ndims)).
static void layout_index(const tensor_layout_t *l, long i, long *idx) {
    for (int d = l->ndims - 1; d >= 0; --d) {
        idx[d] = i % l->dims[d];
        i /= l->dims[d];
    }
}

#endif
