// AVX-512 softmax rows: 16 lanes, masked tails, non-temporal stores for large outputs.
// GCC 12 reports the undefined pass-through operand inside _mm512_max_ps and friends.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <cstdint>

#include "cpu/eltwise/avx512_math.hpp"
#include "cpu/softmax/rows.hpp"

namespace anydnn {
namespace cpu {
namespace softmax {

namespace {

// Lambdas do not inherit their enclosing function's target: give them the ISA explicitly.
#define ANYDNN_AVX512_LAMBDA __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline))

using avx512::splat;
using avx512::vf;

// Horizontal sum and max through memory (GCC's reduce intrinsics warn about undefined lanes).
ANYDNN_AVX512_INLINE float hsum(vf v) {
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    float s = 0.f;
    for (int i = 0; i < 16; ++i)
        s += t[i];
    return s;
}
ANYDNN_AVX512_INLINE float hmax(vf v) {
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    float m = t[0];
    for (int i = 1; i < 16; ++i)
        m = t[i] > m ? t[i] : m;
    return m;
}

ANYDNN_AVX512_INLINE __mmask16 tail_mask(dim_t n) {
    return static_cast<__mmask16>((1u << n) - 1u);
}

// Writes y[0, C) from f(c) (a vector for lanes c..c+15): masked stores up to a 64-byte
// boundary, then non-temporal full vectors, then a masked tail.
template <typename F>
ANYDNN_AVX512_INLINE void store_row(float *y, dim_t C, bool stream, F f) {
    dim_t c = 0;
    if (stream) {
        const dim_t mis = static_cast<dim_t>((reinterpret_cast<uintptr_t>(y) & 63) / 4);
        if ((reinterpret_cast<uintptr_t>(y) & 3) == 0) {
            const dim_t head = mis ? 16 - mis : 0;
            if (head > 0) {
                const dim_t h = head < C ? head : C;
                _mm512_mask_storeu_ps(y, tail_mask(h), f(0, tail_mask(h)));
                c = h;
            }
            for (; c + 16 <= C; c += 16)
                _mm512_stream_ps(y + c, f(c, static_cast<__mmask16>(0xffff)));
        }
    }
    for (; c + 16 <= C; c += 16)
        _mm512_storeu_ps(y + c, f(c, static_cast<__mmask16>(0xffff)));
    if (c < C) {
        const __mmask16 m = tail_mask(C - c);
        _mm512_mask_storeu_ps(y + c, m, f(c, m));
    }
}

ANYDNN_AVX512_INLINE void prefetch2(const float *a, const float *b, dim_t i) {
    if (a) _mm_prefetch(reinterpret_cast<const char *>(a + i), _MM_HINT_T0);
    if (b) _mm_prefetch(reinterpret_cast<const char *>(b + i), _MM_HINT_T0);
}

ANYDNN_AVX512_INLINE vf load(const float *p, dim_t c, __mmask16 m) {
    return _mm512_maskz_loadu_ps(m, p + c);
}

} // namespace

ANYDNN_AVX512 void fwd_row_avx512(const float *x, float *y, dim_t C, bool log_alg, float scale,
        bool stream, float *tmp, const float *pf) {
    const float ninf = -std::numeric_limits<float>::infinity();
    // Four accumulators hide the latency of max and add.
    vf m0 = splat(ninf), m1 = m0, m2 = m0, m3 = m0;
    dim_t c = 0;
    for (; c + 64 <= C; c += 64) {
        m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + c));
        m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + c + 16));
        m2 = _mm512_max_ps(m2, _mm512_loadu_ps(x + c + 32));
        m3 = _mm512_max_ps(m3, _mm512_loadu_ps(x + c + 48));
    }
    for (; c + 16 <= C; c += 16)
        m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + c));
    if (c < C) m1 = _mm512_mask_max_ps(m1, tail_mask(C - c), m1, _mm512_maskz_loadu_ps(tail_mask(C - c), x + c));
    const float mx = hmax(
            _mm512_max_ps(_mm512_max_ps(m0, m1), _mm512_max_ps(m2, m3)));
    const vf vmx = splat(mx);

    vf s0 = _mm512_setzero_ps(), s1 = s0;
    // Accurate keeps e^(x - max) in tmp (in cache) so that dst is written once.
    float *e = log_alg ? nullptr : (stream ? tmp : y);
    c = 0;
    for (; c + 32 <= C; c += 32) {
        if (pf) {
            _mm_prefetch(reinterpret_cast<const char *>(pf + c), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char *>(pf + c + 16), _MM_HINT_T0);
        }
        const vf a = avx512::exp(_mm512_sub_ps(_mm512_loadu_ps(x + c), vmx));
        const vf b = avx512::exp(_mm512_sub_ps(_mm512_loadu_ps(x + c + 16), vmx));
        s0 = _mm512_add_ps(s0, a);
        s1 = _mm512_add_ps(s1, b);
        if (e) {
            _mm512_storeu_ps(e + c, a);
            _mm512_storeu_ps(e + c + 16, b);
        }
    }
    for (; c < C; c += 16) {
        const __mmask16 m = C - c >= 16 ? static_cast<__mmask16>(0xffff) : tail_mask(C - c);
        const vf a = avx512::exp(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + c), vmx));
        s0 = _mm512_mask_add_ps(s0, m, s0, a);
        if (e) _mm512_mask_storeu_ps(e + c, m, a);
    }
    const float sum = hsum(_mm512_add_ps(s0, s1));

    if (log_alg) {
        const vf lse = _mm512_add_ps(vmx, avx512::log(splat(sum)));
        const vf k = splat(scale);
        store_row(y, C, stream, [&](dim_t i, __mmask16 m) ANYDNN_AVX512_LAMBDA {
            return _mm512_mul_ps(_mm512_sub_ps(load(x, i, m), lse), k);
        });
        return;
    }
    const vf k = splat(scale / sum);
    store_row(y, C, stream, [&](dim_t i, __mmask16 m) ANYDNN_AVX512_LAMBDA {
        return _mm512_mul_ps(load(e, i, m), k);
    });
}

ANYDNN_AVX512 void bwd_row_avx512(const float *y, const float *g, float *ds, dim_t C,
        bool log_alg, bool stream, const float *pf, const float *pf2) {
    vf s0 = _mm512_setzero_ps(), s1 = s0;
    dim_t c = 0;
    for (; c + 32 <= C; c += 32) {
        vf a = _mm512_loadu_ps(g + c), b = _mm512_loadu_ps(g + c + 16);
        if (!log_alg) {
            a = _mm512_mul_ps(a, _mm512_loadu_ps(y + c));
            b = _mm512_mul_ps(b, _mm512_loadu_ps(y + c + 16));
        }
        s0 = _mm512_add_ps(s0, a);
        s1 = _mm512_add_ps(s1, b);
    }
    for (; c < C; c += 16) {
        const __mmask16 m = C - c >= 16 ? static_cast<__mmask16>(0xffff) : tail_mask(C - c);
        vf a = _mm512_maskz_loadu_ps(m, g + c);
        if (!log_alg) a = _mm512_mul_ps(a, _mm512_maskz_loadu_ps(m, y + c));
        s0 = _mm512_add_ps(s0, a);
    }
    const vf sum = splat(hsum(_mm512_add_ps(s0, s1)));
    if (log_alg) {
        store_row(ds, C, stream, [&](dim_t i, __mmask16 m) ANYDNN_AVX512_LAMBDA {
            prefetch2(pf, pf2, i);
            return _mm512_fnmadd_ps(avx512::exp(load(y, i, m)), sum, load(g, i, m));
        });
        return;
    }
    store_row(ds, C, stream, [&](dim_t i, __mmask16 m) ANYDNN_AVX512_LAMBDA {
        prefetch2(pf, pf2, i);
        return _mm512_mul_ps(load(y, i, m), _mm512_sub_ps(load(g, i, m), sum));
    });
}

ANYDNN_AVX512 void stream_fence() {
    _mm_sfence();
}

} // namespace softmax
} // namespace cpu
} // namespace anydnn
