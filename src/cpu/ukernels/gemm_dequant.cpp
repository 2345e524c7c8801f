// Packing of integer B (s8/u8/s4/u4) for the shared f32 GEMM with decompression on the way:
// each element becomes (w - zp) * scale in the f32 panel the tile kernels read, so weights
// stay compressed in memory and the product is the GEMM's own. Rows with N contiguous are
// widened 32 at a time with AVX-512; other layouts element by element.
#include <algorithm>

// GCC 12 intrinsics leave __Y = __Y (an undefined vector) in the header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "core/data_types_narrow.hpp"
#include "cpu/simd16.hpp"
#include "cpu/tensor_run.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace detail {

namespace {

constexpr int NR = panel_cols;

using param_t = gemm_dequant_t::param_t;

float param_at(const param_t &p, dim_t k, dim_t n, float none) {
    if (!p.ptr) return none;
    return load_any_as_f32(p.dt, p.ptr, p.off + k / p.group_k * p.sk + n / p.group_n * p.sn);
}

// out[j] = the parameter at (k, n0 + j) for j < cols, `none` without one.
void param_row(const param_t &p, dim_t k, dim_t n0, int cols, float none, float *out) {
    if (!p.ptr) {
        std::fill(out, out + cols, none);
    } else if (p.group_n == 1 && p.dt != dnnl_s4 && p.dt != dnnl_u4) { // one typed run
        load_f32(p.dt, p.ptr, p.off + k / p.group_k * p.sk + n0 * p.sn, p.sn, cols, out);
    } else {
        for (int j = 0; j < cols; ++j)
            out[j] = param_at(p, k, n0 + j, none);
    }
}

// Scale and zero point of columns [n0, n0 + cols) at row k, zero past cols (so padded
// columns come out 0).
void column_params(const gemm_dequant_t &dq, dim_t k, dim_t n0, int cols, float *sc, float *zp) {
    param_row(dq.scale, k, n0, cols, 1.f, sc);
    param_row(dq.zp, k, n0, cols, 0.f, zp);
    std::fill(sc + cols, sc + NR, 0.f);
    std::fill(zp + cols, zp + NR, 0.f);
}

// The end (exclusive) of the run of rows from k that share their parameters.
dim_t group_end(const gemm_dequant_t &dq, dim_t k, dim_t k_end) {
    for (const param_t *p : {&dq.scale, &dq.zp})
        if (p->ptr && p->sk != 0) k_end = std::min(k_end, (k / p->group_k + 1) * p->group_k);
    return k_end;
}

// Element by element: any strides and types.
void panel_generic(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, int cols, float *bp) {
    const gemm_dequant_t &dq = *b.dq;
    float sc[NR], zp[NR];
    for (dim_t k = 0; k < kc;) {
        const dim_t kend = group_end(dq, k0 + k, k0 + kc) - k0;
        column_params(dq, k0 + k, n0, cols, sc, zp);
        for (; k < kend; ++k) {
            float *dst = bp + k * NR;
            const dim_t row = dq.b_off + (k0 + k) * b.rs + n0 * b.cs;
            for (int j = 0; j < cols; ++j)
                dst[j] = (load_any_as_f32(b.dt, b.ptr, row + j * b.cs) - zp[j]) * sc[j];
            for (int j = cols; j < NR; ++j)
                dst[j] = 0.f;
        }
    }
}

// 32 (or cols) integers of one row as two vectors of f32.
template <dnnl_data_type_t DT>
ANYDNN_AVX512 inline void widen_row(const uint8_t *row, int cols, __m512 &lo, __m512 &hi) {
    if (DT == dnnl_s8 || DT == dnnl_u8) {
        const __m256i x = cols == NR ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(row))
                                     : _mm256_maskz_loadu_epi8((1u << cols) - 1, row);
        const __m128i a = _mm256_castsi256_si128(x), c = _mm256_extracti128_si256(x, 1);
        if (DT == dnnl_s8) {
            lo = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(a));
            hi = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(c));
        } else {
            lo = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(a));
            hi = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(c));
        }
        return;
    }
    // Two elements a byte, the even one in the low half: split the halves, interleave them.
    const int bytes = (cols + 1) / 2;
    const __m128i x = bytes == 16 ? _mm_loadu_si128(reinterpret_cast<const __m128i *>(row))
                                  : _mm_maskz_loadu_epi8((1u << bytes) - 1, row);
    const __m128i nib = _mm_set1_epi8(0x0f);
    const __m128i l = _mm_and_si128(x, nib), h = _mm_and_si128(_mm_srli_epi16(x, 4), nib);
    __m512i a = _mm512_cvtepu8_epi32(_mm_unpacklo_epi8(l, h));
    __m512i c = _mm512_cvtepu8_epi32(_mm_unpackhi_epi8(l, h));
    if (DT == dnnl_s4) { // sign-extend 4 bits: (v ^ 8) - 8
        const __m512i eight = _mm512_set1_epi32(8);
        a = _mm512_sub_epi32(_mm512_xor_si512(a, eight), eight);
        c = _mm512_sub_epi32(_mm512_xor_si512(c, eight), eight);
    }
    lo = _mm512_cvtepi32_ps(a);
    hi = _mm512_cvtepi32_ps(c);
}

// Rows with N contiguous (cs == 1), each 4-bit row starting on a whole byte.
template <dnnl_data_type_t DT>
ANYDNN_AVX512 void panel_rows_avx512(
        const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, int cols, float *bp) {
    const gemm_dequant_t &dq = *b.dq;
    constexpr bool nibbles = DT == dnnl_s4 || DT == dnnl_u4;
    const uint8_t *base = static_cast<const uint8_t *>(b.ptr);
    alignas(64) float sc[NR], zp[NR];
    for (dim_t k = 0; k < kc;) {
        const dim_t kend = group_end(dq, k0 + k, k0 + kc) - k0;
        column_params(dq, k0 + k, n0, cols, sc, zp);
        const __m512 s0 = _mm512_load_ps(sc), s1 = _mm512_load_ps(sc + 16);
        const __m512 z0 = _mm512_load_ps(zp), z1 = _mm512_load_ps(zp + 16);
        for (; k < kend; ++k) {
            const dim_t e = dq.b_off + (k0 + k) * b.rs + n0;
            const uint8_t *row = base + (nibbles ? e / 2 : e);
            if (k + 4 < kend) _mm_prefetch(reinterpret_cast<const char *>(
                                                   row + 4 * (nibbles ? b.rs / 2 : b.rs)),
                    _MM_HINT_T0);
            __m512 lo, hi;
            widen_row<DT>(row, cols, lo, hi);
            _mm512_store_ps(bp + k * NR, _mm512_mul_ps(_mm512_sub_ps(lo, z0), s0));
            _mm512_store_ps(bp + k * NR + 16, _mm512_mul_ps(_mm512_sub_ps(hi, z1), s1));
        }
    }
}

bool rows_fit_avx512(const gemm_operand_t &b, dim_t n0) {
    if (b.cs != 1 || !isa_enabled(dnnl_cpu_isa_avx512_core)) return false;
    if (b.dt == dnnl_s4 || b.dt == dnnl_u4)
        return (b.dq->b_off + n0) % 2 == 0 && b.rs % 2 == 0;
    return b.dt == dnnl_s8 || b.dt == dnnl_u8;
}

} // namespace

void pack_b_dequant(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, dim_t nc, float *bp) {
    for (dim_t j = 0; j < nc; j += NR) {
        const int cols = static_cast<int>(std::min<dim_t>(NR, nc - j));
        float *dst = bp + j * kc;
        if (!rows_fit_avx512(b, n0 + j)) {
            panel_generic(b, k0, n0 + j, kc, cols, dst);
            continue;
        }
        switch (b.dt) {
            case dnnl_s8: panel_rows_avx512<dnnl_s8>(b, k0, n0 + j, kc, cols, dst); break;
            case dnnl_u8: panel_rows_avx512<dnnl_u8>(b, k0, n0 + j, kc, cols, dst); break;
            case dnnl_s4: panel_rows_avx512<dnnl_s4>(b, k0, n0 + j, kc, cols, dst); break;
            default: panel_rows_avx512<dnnl_u4>(b, k0, n0 + j, kc, cols, dst); break;
        }
    }
}

} // namespace detail
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
