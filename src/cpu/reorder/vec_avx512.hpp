// AVX-512 pieces of the reorder kernels: 16-lane loads and stores of every vector data type
// (converting to and from f32 lanes, or moving raw bits), the 16x16 transpose, and the
// quantization arithmetic of quant.hpp on 16 lanes. Only code compiled for AVX-512 includes it.
#pragma once

// GCC 12 flags the deliberately undefined registers inside its own AVX-512 intrinsics.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <immintrin.h>

#include "oneapi/dnnl/dnnl.h"

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

namespace anydnn {
namespace cpu {
namespace reorder {
namespace avx512 {

constexpr int dt_bytes(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_s32 ? 4 : dt == dnnl_bf16 || dt == dnnl_f16 ? 2 : 1;
}

// Up to 16 elements of type dt at p, as f32 lanes (masked-off lanes are 0).
template <dnnl_data_type_t dt> ANYDNN_AVX512 inline __m512 load_as(const void *p, __mmask16 m) {
    if constexpr (dt == dnnl_f32) {
        return _mm512_maskz_loadu_ps(m, p);
    } else if constexpr (dt == dnnl_bf16) {
        __m512i w = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p));
        return _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
    } else if constexpr (dt == dnnl_f16) {
        return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
    } else if constexpr (dt == dnnl_s32) {
        return _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, p));
    } else if constexpr (dt == dnnl_s8) {
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)));
    } else {
        static_assert(dt == dnnl_u8, "not a vector type");
        return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
    }
}

// Up to 16 elements of `bytes` bytes at p, their bits zero-extended into 32-bit lanes.
template <int bytes> ANYDNN_AVX512 inline __m512 load_bits(const void *p, __mmask16 m) {
    if constexpr (bytes == 4) {
        return _mm512_maskz_loadu_ps(m, p);
    } else if constexpr (bytes == 2) {
        return _mm512_castsi512_ps(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p)));
    } else {
        return _mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
    }
}

// f32 to bf16 bits in 32-bit lanes: round to nearest even, NaN kept quiet (as data_types.hpp).
ANYDNN_AVX512 inline __m512i f32_to_bf16_bits(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded =
            _mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    const __m512i nan = _mm512_or_si512(bits, _mm512_set1_epi32(0x400000));
    const __mmask16 is_nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_srli_epi32(_mm512_mask_blend_epi32(is_nan, rounded, nan), 16);
}

// Saturating round-to-nearest-even of f32 lanes into [lo, hi]; NaN becomes 0.
ANYDNN_AVX512 inline __m512i round_saturate(__m512 v, float lo, float hi) {
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
    return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

// Stores up to 16 f32 lanes as type dt at p (rounding and saturating as data_types.hpp).
template <dnnl_data_type_t dt> ANYDNN_AVX512 inline void store_as(void *p, __m512 v, __mmask16 m) {
    if constexpr (dt == dnnl_f32) {
        _mm512_mask_storeu_ps(p, m, v);
    } else if constexpr (dt == dnnl_bf16) {
        _mm512_mask_cvtepi32_storeu_epi16(p, m, f32_to_bf16_bits(v));
    } else if constexpr (dt == dnnl_f16) {
        _mm256_mask_storeu_epi16(
                p, m, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    } else if constexpr (dt == dnnl_s32) {
        // 2^31 is the first float past INT32_MAX: those lanes saturate to INT32_MAX.
        const __mmask16 over = _mm512_cmp_ps_mask(v, _mm512_set1_ps(2147483648.f), _CMP_GE_OQ);
        __m512i r = round_saturate(v, -2147483648.f, 2147483520.f);
        r = _mm512_mask_blend_epi32(over, r, _mm512_set1_epi32(0x7fffffff));
        _mm512_mask_storeu_epi32(p, m, r);
    } else if constexpr (dt == dnnl_s8) {
        _mm512_mask_cvtepi32_storeu_epi8(p, m, round_saturate(v, -128.f, 127.f));
    } else {
        static_assert(dt == dnnl_u8, "not a vector type");
        _mm512_mask_cvtepi32_storeu_epi8(p, m, round_saturate(v, 0.f, 255.f));
    }
}

// Stores the low `bytes` bytes of up to 16 32-bit lanes.
template <int bytes> ANYDNN_AVX512 inline void store_bits(void *p, __m512 v, __mmask16 m) {
    if constexpr (bytes == 4) {
        _mm512_mask_storeu_ps(p, m, v);
    } else if constexpr (bytes == 2) {
        _mm512_mask_cvtepi32_storeu_epi16(p, m, _mm512_castps_si512(v));
    } else {
        _mm512_mask_cvtepi32_storeu_epi8(p, m, _mm512_castps_si512(v));
    }
}

// The same with the type known only at run time (quantization arrays, the sum's old dst).
ANYDNN_AVX512 inline __m512 load_f32(dnnl_data_type_t dt, const void *p, __mmask16 m) {
    switch (dt) {
    case dnnl_f32: return load_as<dnnl_f32>(p, m);
    case dnnl_bf16: return load_as<dnnl_bf16>(p, m);
    case dnnl_f16: return load_as<dnnl_f16>(p, m);
    case dnnl_s32: return load_as<dnnl_s32>(p, m);
    case dnnl_s8: return load_as<dnnl_s8>(p, m);
    case dnnl_u8: return load_as<dnnl_u8>(p, m);
    default: return _mm512_setzero_ps();
    }
}

ANYDNN_AVX512 inline void store_f32(dnnl_data_type_t dt, void *p, __m512 v, __mmask16 m) {
    switch (dt) {
    case dnnl_f32: store_as<dnnl_f32>(p, v, m); break;
    case dnnl_bf16: store_as<dnnl_bf16>(p, v, m); break;
    case dnnl_f16: store_as<dnnl_f16>(p, v, m); break;
    case dnnl_s32: store_as<dnnl_s32>(p, v, m); break;
    case dnnl_s8: store_as<dnnl_s8>(p, v, m); break;
    case dnnl_u8: store_as<dnnl_u8>(p, v, m); break;
    default: break;
    }
}

// In-place transpose of a 16x16 matrix of 32-bit lanes: r[i] lane j becomes r[j] lane i.
ANYDNN_AVX512 __attribute__((always_inline)) inline void transpose16(__m512 r[16]) {
    __m512 t[16];
    // Interleave row pairs: lane group L of t[2k] holds rows 2k,2k+1 at columns 4L, 4L+1.
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    // Per group of four rows g, v[g][m] holds in lane group L rows 4g..4g+3 at column 4L+m.
    __m512 v[4][4];
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        const __m512 lo01 = t[4 * g], hi01 = t[4 * g + 1];
        const __m512 lo23 = t[4 * g + 2], hi23 = t[4 * g + 3];
        v[g][0] = _mm512_shuffle_ps(lo01, lo23, 0x44);
        v[g][1] = _mm512_shuffle_ps(lo01, lo23, 0xee);
        v[g][2] = _mm512_shuffle_ps(hi01, hi23, 0x44);
        v[g][3] = _mm512_shuffle_ps(hi01, hi23, 0xee);
    }
    // Transpose the 4x4 grid of 128-bit lane groups for each column offset m.
#pragma GCC unroll 4
    for (int m = 0; m < 4; ++m) {
        const __m512 x0 = _mm512_shuffle_f32x4(v[0][m], v[1][m], 0x88);
        const __m512 x1 = _mm512_shuffle_f32x4(v[0][m], v[1][m], 0xdd);
        const __m512 x2 = _mm512_shuffle_f32x4(v[2][m], v[3][m], 0x88);
        const __m512 x3 = _mm512_shuffle_f32x4(v[2][m], v[3][m], 0xdd);
        r[m] = _mm512_shuffle_f32x4(x0, x2, 0x88);
        r[4 + m] = _mm512_shuffle_f32x4(x1, x3, 0x88);
        r[8 + m] = _mm512_shuffle_f32x4(x0, x2, 0xdd);
        r[12 + m] = _mm512_shuffle_f32x4(x1, x3, 0xdd);
    }
}

// The quantization arithmetic of quant.hpp on 16 lanes; unset terms are skipped.
struct qvec_t {
    bool ss = false, szp = false, sum = false, ds = false, dzp = false;
    __m512 ss_v, szp_v, ds_v, dzp_v, sum_scale_v, sum_zp_v;
};

ANYDNN_AVX512 inline __m512 quantize(const qvec_t &q, __m512 x, __m512 old) {
    if (q.szp) x = _mm512_sub_ps(x, q.szp_v);
    if (q.ss) x = _mm512_mul_ps(x, q.ss_v);
    if (q.sum) x = _mm512_add_ps(x, _mm512_mul_ps(q.sum_scale_v, _mm512_sub_ps(old, q.sum_zp_v)));
    if (q.ds) x = _mm512_div_ps(x, q.ds_v);
    if (q.dzp) x = _mm512_add_ps(x, q.dzp_v);
    return x;
}

} // namespace avx512
} // namespace reorder
} // namespace cpu
} // namespace anydnn
