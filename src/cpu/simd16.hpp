// 16-lane AVX-512 loads and stores of any storage type as f32 (masked lanes read as zero),
// for kernels that vectorize over 16 channels. Include only from functions that carry
// ANYDNN_AVX512 (the library runs on any x86-64).
#pragma once

#include <cstdint>

#include <immintrin.h>

#include "oneapi/dnnl/dnnl.h"

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define ANYDNN_AVX512_INLINE \
    inline __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline))

// A section of a file whose every function, lambdas included (they do not inherit a
// function's target attribute), may use AVX-512. GCC and clang spell it differently.
#if defined(__clang__)
#define ANYDNN_AVX512_SECTION_BEGIN \
    _Pragma("clang attribute push(__attribute__((target(\"avx512f,avx512bw,avx512vl,avx512dq\"))), apply_to = function)")
#define ANYDNN_AVX512_SECTION_END _Pragma("clang attribute pop")
#else
#define ANYDNN_AVX512_SECTION_BEGIN \
    _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f,avx512bw,avx512vl,avx512dq\")")
#define ANYDNN_AVX512_SECTION_END _Pragma("GCC pop_options")
#endif

namespace anydnn {
namespace cpu {
namespace simd16 {

template <dnnl_data_type_t dt>
ANYDNN_AVX512_INLINE __m512 load(const void *p, __mmask16 m) {
    if constexpr (dt == dnnl_f32) {
        return _mm512_maskz_loadu_ps(m, p);
    } else if constexpr (dt == dnnl_bf16) {
        const __m256i h = _mm256_maskz_loadu_epi16(m, p);
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    } else if constexpr (dt == dnnl_f16) {
        return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
    } else if constexpr (dt == dnnl_s8) {
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)));
    } else if constexpr (dt == dnnl_u8) {
        return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
    } else {
        static_assert(dt == dnnl_s32, "unsupported type");
        return _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, p));
    }
}

// Any type chosen at run time (a switch per call: for outer loops).
ANYDNN_AVX512_INLINE __m512 load_dt(dnnl_data_type_t dt, const void *p, __mmask16 m) {
    switch (dt) {
        case dnnl_bf16: return load<dnnl_bf16>(p, m);
        case dnnl_f16: return load<dnnl_f16>(p, m);
        case dnnl_s8: return load<dnnl_s8>(p, m);
        case dnnl_u8: return load<dnnl_u8>(p, m);
        case dnnl_s32: return load<dnnl_s32>(p, m);
        default: return load<dnnl_f32>(p, m);
    }
}

// Round to nearest even like f32_to_bf16; NaN stays a quiet NaN.
ANYDNN_AVX512_INLINE __m256i to_bf16(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i hi = _mm512_srli_epi32(bits, 16);
    const __m512i lsb = _mm512_and_si512(hi, _mm512_set1_epi32(1));
    __m512i r = _mm512_srli_epi32(
            _mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(hi, _mm512_set1_epi32(0x40)));
    return _mm512_cvtepi32_epi16(r);
}

// Integers: round to nearest even, saturate; NaN becomes 0 like saturate_round.
ANYDNN_AVX512_INLINE __m512i to_int(__m512 v, float lo, float hi) {
    const __mmask16 ok = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
    v = _mm512_maskz_mov_ps(ok, v);
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
    return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

ANYDNN_AVX512_INLINE void store_dt(dnnl_data_type_t dt, void *p, __m512 v, __mmask16 m) {
    switch (dt) {
        case dnnl_bf16: _mm256_mask_storeu_epi16(p, m, to_bf16(v)); break;
        case dnnl_f16:
            _mm256_mask_storeu_epi16(
                    p, m, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
            break;
        case dnnl_s8: _mm512_mask_cvtsepi32_storeu_epi8(p, m, to_int(v, -128.f, 127.f)); break;
        case dnnl_u8: _mm512_mask_cvtusepi32_storeu_epi8(p, m, to_int(v, 0.f, 255.f)); break;
        case dnnl_s32:
            _mm512_mask_storeu_epi32(p, m, to_int(v, -2147483648.f, 2147483520.f));
            break;
        default: _mm512_mask_storeu_ps(p, m, v); break;
    }
}

} // namespace simd16
} // namespace cpu
} // namespace anydnn
