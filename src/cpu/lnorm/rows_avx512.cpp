// AVX-512 layer normalization rows: 16 lanes, masked tails, non-temporal stores.
// GCC 12 reports the undefined pass-through operand inside _mm512_max_ps and friends.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <algorithm>
#include <cstdint>

#include "cpu/eltwise/avx512_math.hpp"
#include "cpu/lnorm/rows.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

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

ANYDNN_AVX512_INLINE __mmask16 mask_of(dim_t left) {
    return left >= 16 ? static_cast<__mmask16>(0xffff)
                      : static_cast<__mmask16>((1u << left) - 1u);
}

ANYDNN_AVX512_INLINE void prefetch2(const float *a, const float *b, dim_t i) {
    if (a) _mm_prefetch(reinterpret_cast<const char *>(a + i), _MM_HINT_T0);
    if (b) _mm_prefetch(reinterpret_cast<const char *>(b + i), _MM_HINT_T0);
}

ANYDNN_AVX512_INLINE vf ld(const float *p, dim_t c, __mmask16 m) {
    return _mm512_maskz_loadu_ps(m, p + c);
}

// Writes y[0, C) from f(c, mask): non-temporal full vectors from the first 64-byte boundary.
template <typename F>
ANYDNN_AVX512_INLINE void store_row(float *y, dim_t C, bool stream, F f) {
    dim_t c = 0;
    if (stream && (reinterpret_cast<uintptr_t>(y) & 3) == 0) {
        const dim_t mis = static_cast<dim_t>((reinterpret_cast<uintptr_t>(y) & 63) / 4);
        if (mis) {
            const dim_t h = std::min<dim_t>(16 - mis, C);
            _mm512_mask_storeu_ps(y, mask_of(h), f(0, mask_of(h)));
            c = h;
        }
        for (; c + 16 <= C; c += 16)
            _mm512_stream_ps(y + c, f(c, mask_of(16)));
    }
    for (; c < C; c += 16) {
        const __mmask16 m = mask_of(C - c);
        _mm512_mask_storeu_ps(y + c, m, f(c, m));
    }
}

} // namespace

ANYDNN_AVX512 void stats_row_avx512(const float *x, dim_t C, bool rms, float &mean, float &var) {
    vf a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    dim_t c = 0;
    if (rms) {
        for (; c + 32 <= C; c += 32) {
            const vf u = _mm512_loadu_ps(x + c), v = _mm512_loadu_ps(x + c + 16);
            a0 = _mm512_fmadd_ps(u, u, a0);
            a1 = _mm512_fmadd_ps(v, v, a1);
        }
        for (; c < C; c += 16) {
            const vf u = ld(x, c, mask_of(C - c));
            a2 = _mm512_fmadd_ps(u, u, a2);
        }
        mean = 0.f;
        var = hsum(_mm512_add_ps(_mm512_add_ps(a0, a1), a2)) / C;
        return;
    }
    for (; c + 64 <= C; c += 64) {
        a0 = _mm512_add_ps(a0, _mm512_loadu_ps(x + c));
        a1 = _mm512_add_ps(a1, _mm512_loadu_ps(x + c + 16));
        a2 = _mm512_add_ps(a2, _mm512_loadu_ps(x + c + 32));
        a3 = _mm512_add_ps(a3, _mm512_loadu_ps(x + c + 48));
    }
    for (; c < C; c += 16)
        a0 = _mm512_add_ps(a0, ld(x, c, mask_of(C - c)));
    const float m = hsum(
                            _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)))
            / C;
    const vf vm = splat(m);
    a0 = a1 = a2 = a3 = _mm512_setzero_ps();
    c = 0;
    for (; c + 64 <= C; c += 64) {
        const vf d0 = _mm512_sub_ps(_mm512_loadu_ps(x + c), vm);
        const vf d1 = _mm512_sub_ps(_mm512_loadu_ps(x + c + 16), vm);
        const vf d2 = _mm512_sub_ps(_mm512_loadu_ps(x + c + 32), vm);
        const vf d3 = _mm512_sub_ps(_mm512_loadu_ps(x + c + 48), vm);
        a0 = _mm512_fmadd_ps(d0, d0, a0);
        a1 = _mm512_fmadd_ps(d1, d1, a1);
        a2 = _mm512_fmadd_ps(d2, d2, a2);
        a3 = _mm512_fmadd_ps(d3, d3, a3);
    }
    for (; c < C; c += 16) {
        const __mmask16 k = mask_of(C - c);
        const vf d0 = _mm512_maskz_sub_ps(k, ld(x, c, k), vm);
        a0 = _mm512_fmadd_ps(d0, d0, a0);
    }
    mean = m;
    var = hsum(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3))) / C;
}

ANYDNN_AVX512 void fwd_row_avx512(const float *x, float *y, dim_t C, const row_args_t &a,
        float mean, float var, bool stream, const float *pf) {
    const float rstd = 1.f / std::sqrt(var + a.eps);
    const vf vm = splat(mean), vr = splat(rstd * a.out_scale), vs = splat(a.out_scale);
    const float *gm = a.gamma, *bt = a.beta;
    if (!gm && !bt) {
        store_row(y, C, stream, [&](dim_t c, __mmask16 m) ANYDNN_AVX512_LAMBDA {
            prefetch2(pf, nullptr, c);
            return _mm512_mul_ps(_mm512_sub_ps(ld(x, c, m), vm), vr);
        });
    } else if (gm && bt) {
        store_row(y, C, stream, [&](dim_t c, __mmask16 m) ANYDNN_AVX512_LAMBDA {
            prefetch2(pf, nullptr, c);
            const vf n = _mm512_mul_ps(_mm512_sub_ps(ld(x, c, m), vm), vr);
            return _mm512_fmadd_ps(n, ld(gm, c, m), _mm512_mul_ps(ld(bt, c, m), vs));
        });
    } else {
        store_row(y, C, stream, [&](dim_t c, __mmask16 m) ANYDNN_AVX512_LAMBDA {
            prefetch2(pf, nullptr, c);
            vf n = _mm512_mul_ps(_mm512_sub_ps(ld(x, c, m), vm), vr);
            if (gm) n = _mm512_mul_ps(n, ld(gm, c, m));
            if (bt) n = _mm512_fmadd_ps(ld(bt, c, m), vs, n);
            return n;
        });
    }
}

ANYDNN_AVX512 void bwd_row_avx512(const float *x, const float *g, float *ds, dim_t C,
        const row_args_t &a, float mean, float var, bool global, float *dgamma, float *dbeta,
        bool stream, const float *pf, const float *pf2) {
    const float rstd = 1.f / std::sqrt(var + a.eps);
    const vf vm = splat(mean), vr = splat(rstd);
    vf s1 = _mm512_setzero_ps(), s2 = s1;
    for (dim_t c = 0; c < C; c += 16) {
        const __mmask16 m = mask_of(C - c);
        const vf xhat = _mm512_mul_ps(_mm512_sub_ps(ld(x, c, m), vm), vr);
        const vf gg = ld(g, c, m);
        const vf dg = a.gamma ? _mm512_mul_ps(gg, ld(a.gamma, c, m)) : gg;
        s1 = _mm512_add_ps(s1, dg);
        s2 = _mm512_fmadd_ps(dg, xhat, s2);
        if (dgamma)
            _mm512_mask_storeu_ps(dgamma + c, m, _mm512_fmadd_ps(gg, xhat, ld(dgamma, c, m)));
        if (dbeta) _mm512_mask_storeu_ps(dbeta + c, m, _mm512_add_ps(gg, ld(dbeta, c, m)));
    }
    const float m1 = global || a.rms ? 0.f : hsum(s1) / C;
    const float m2 = global ? 0.f : hsum(s2) / C;
    const vf vm1 = splat(m1), vm2 = splat(m2);
    store_row(ds, C, stream, [&](dim_t c, __mmask16 m) ANYDNN_AVX512_LAMBDA {
        prefetch2(pf, pf2, c);
        const vf xhat = _mm512_mul_ps(_mm512_sub_ps(ld(x, c, m), vm), vr);
        const vf gg = ld(g, c, m);
        const vf dg = a.gamma ? _mm512_mul_ps(gg, ld(a.gamma, c, m)) : gg;
        return _mm512_mul_ps(vr, _mm512_fnmadd_ps(xhat, vm2, _mm512_sub_ps(dg, vm1)));
    });
}

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
