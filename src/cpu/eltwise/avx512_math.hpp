// AVX-512 versions of the eltwise algorithms of eltwise_math.hpp, 16 f32 lanes at a time,
// with exp/expm1/log/tanh/Gaussian-tail approximations accurate to a few ulp.
// Include only from files whose callers carry ANYDNN_AVX512 (the library runs on any x86-64).
#pragma once

#include <cmath>

#include <immintrin.h>

#include "core/ops/eltwise/eltwise_math.hpp"

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define ANYDNN_AVX512_INLINE inline __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"), always_inline))

namespace anydnn {
namespace cpu {
namespace avx512 {

using vf = __m512;

ANYDNN_AVX512_INLINE vf splat(float v) { return _mm512_set1_ps(v); }

// Clamp keeping NaN: min/max return their second operand when one input is NaN.
ANYDNN_AVX512_INLINE vf clamp(vf x, float lo, float hi) {
    return _mm512_max_ps(splat(lo), _mm512_min_ps(splat(hi), x));
}

// e^x. x = n ln2 + r, |r| <= ln2/2; e^r by a degree-6 fit (2.6e-9 relative); 2^n by scalef,
// which also gives inf on overflow and correctly rounded subnormals/0 on underflow.
ANYDNN_AVX512_INLINE vf exp(vf x) {
    x = clamp(x, -110.f, 110.f);
    const vf n = _mm512_roundscale_ps(
            _mm512_mul_ps(x, splat(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT);
    vf r = _mm512_fnmadd_ps(n, splat(0.693145751953125f), x); // ln2 high part, exact n*hi
    r = _mm512_fnmadd_ps(n, splat(1.42860682030941723e-06f), r);
    vf p = splat(0.00139412131f);
    p = _mm512_fmadd_ps(p, r, splat(0.008375210201f));
    p = _mm512_fmadd_ps(p, r, splat(0.04166635164f));
    p = _mm512_fmadd_ps(p, r, splat(0.1666641451f));
    p = _mm512_fmadd_ps(p, r, splat(0.5000000047f));
    p = _mm512_fmadd_ps(p, r, splat(1.000000038f));
    p = _mm512_fmadd_ps(p, r, splat(1.f));
    return _mm512_scalef_ps(p, n);
}

// e^x - 1 without cancellation near 0: 2^n (e^r - 1) + (2^n - 1), e^r - 1 = r q(r) with a
// degree-5 fit of q (1.3e-8 relative).
ANYDNN_AVX512_INLINE vf expm1(vf x) {
    x = clamp(x, -110.f, 110.f);
    const vf n = _mm512_roundscale_ps(
            _mm512_mul_ps(x, splat(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT);
    vf r = _mm512_fnmadd_ps(n, splat(0.693145751953125f), x);
    r = _mm512_fnmadd_ps(n, splat(1.42860682030941723e-06f), r);
    vf q = splat(0.001393373072f);
    q = _mm512_fmadd_ps(q, r, splat(0.008369220292f));
    q = _mm512_fmadd_ps(q, r, splat(0.0416664642f));
    q = _mm512_fmadd_ps(q, r, splat(0.1666650461f));
    q = _mm512_fmadd_ps(q, r, splat(0.5000000014f));
    q = _mm512_fmadd_ps(q, r, splat(1.000000011f));
    const vf em1_r = _mm512_mul_ps(q, r);
    const vf two_n = _mm512_scalef_ps(splat(1.f), n);
    return _mm512_add_ps(_mm512_scalef_ps(em1_r, n), _mm512_sub_ps(two_n, splat(1.f)));
}

// ln x: x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s = (m-1)/(m+1),
// |s| < 0.172, by its series to s^9. getexp/getmant see subnormals as normal numbers;
// x < 0 gives NaN, +-0 gives -inf, inf gives inf.
ANYDNN_AVX512_INLINE vf log(vf x) {
    vf m = _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
    vf e = _mm512_getexp_ps(x);
    const __mmask16 big = _mm512_cmp_ps_mask(m, splat(1.41421356f), _CMP_GT_OQ);
    m = _mm512_mask_mul_ps(m, big, m, splat(0.5f));
    e = _mm512_mask_add_ps(e, big, e, splat(1.f));
    const vf s = _mm512_div_ps(_mm512_sub_ps(m, splat(1.f)), _mm512_add_ps(m, splat(1.f)));
    const vf s2 = _mm512_mul_ps(s, s);
    vf p = splat(1.f / 9.f);
    p = _mm512_fmadd_ps(p, s2, splat(1.f / 7.f));
    p = _mm512_fmadd_ps(p, s2, splat(1.f / 5.f));
    p = _mm512_fmadd_ps(p, s2, splat(1.f / 3.f));
    p = _mm512_mul_ps(p, s2);
    const vf two_s = _mm512_add_ps(s, s);
    const vf ln_m = _mm512_fmadd_ps(two_s, p, two_s);
    vf r = _mm512_fmadd_ps(e, splat(1.42860682030941723e-06f), ln_m);
    r = _mm512_fmadd_ps(e, splat(0.693145751953125f), r);
    // +-0 gives e = -inf (and m = 0): r is -inf already. Below zero: NaN.
    const __mmask16 neg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_mask_mov_ps(r, neg, splat(NAN));
}

// 1 / (1 + e^-x): e^-x overflows to inf for x << 0, giving the right limit 0.
ANYDNN_AVX512_INLINE vf sigmoid(vf x) {
    const vf e = exp(_mm512_sub_ps(_mm512_setzero_ps(), x));
    return _mm512_div_ps(splat(1.f), _mm512_add_ps(splat(1.f), e));
}

ANYDNN_AVX512_INLINE vf abs(vf x) {
    return _mm512_castsi512_ps(
            _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff)));
}

ANYDNN_AVX512_INLINE vf copysign(vf mag, vf sign_of) {
    const __m512i s = _mm512_and_si512(
            _mm512_castps_si512(sign_of), _mm512_set1_epi32(int(0x80000000u)));
    return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(mag), s));
}

// tanh x = sign(x) u / (u + 2), u = e^{2|x|} - 1; |x| > 9 rounds to +-1.
ANYDNN_AVX512_INLINE vf tanh(vf x) {
    const vf a = _mm512_min_ps(splat(9.f), abs(x));
    const vf u = expm1(_mm512_add_ps(a, a));
    return copysign(_mm512_div_ps(u, _mm512_add_ps(u, splat(2.f))), x);
}

// ln(1 + e^z) for all z: max(z, 0) + log1p(e^-|z|), log1p(y) = ln(u) + (y - (u - 1)) / u
// with u = 1 + y rounded.
ANYDNN_AVX512_INLINE vf softplus(vf z) {
    const vf y = exp(_mm512_sub_ps(_mm512_setzero_ps(), abs(z)));
    const vf u = _mm512_add_ps(splat(1.f), y);
    const vf corr = _mm512_div_ps(_mm512_sub_ps(y, _mm512_sub_ps(u, splat(1.f))), u);
    const vf l1p = _mm512_add_ps(log(u), corr);
    return _mm512_add_ps(_mm512_max_ps(z, _mm512_setzero_ps()), l1p);
}

// The Gaussian tail Q(|a|) = P(N(0,1) > |a|) as e^{-a^2/2} S(a), with S fitted as u T(u),
// u = 1 / (1 + 0.27 |a|), T of degree 8 (2.9e-8 relative over |a| in [0, 14]; beyond 14 the
// tail is below the smallest f32 and |a| is clamped there). Also returns e^{-a^2/2} (the
// density's shape) through `gauss`.
// On cores whose FMA pipes are the limit, the exponential is arranged to need few of them:
// with s = a^2 rounded and l its exact remainder, e^{-(s + l)/2} = 2^n e^{r}, where
// 2r = -s - 2n ln2 - l is formed directly (the 1/2 lives in the polynomial's coefficients,
// a degree-5 fit of e^r, 1.1e-7 relative) and l enters by one addition.
ANYDNN_AVX512_INLINE vf gaussian_tail(vf a, vf &gauss) {
    // vrangeps 0xa: the smaller magnitude, sign cleared: min(|a|, 14) in one operation.
    const vf ac = _mm512_range_ps(a, splat(14.f), 0xa);
    const vf u = _mm512_div_ps(splat(1.f), _mm512_fmadd_ps(ac, splat(0.27f), splat(1.f)));
    vf t = splat(0.02910702821f);
    t = _mm512_fmadd_ps(t, u, splat(-0.1272421198f));
    t = _mm512_fmadd_ps(t, u, splat(0.1714446873f));
    t = _mm512_fmadd_ps(t, u, splat(-0.0712139169f));
    t = _mm512_fmadd_ps(t, u, splat(0.1092772064f));
    t = _mm512_fmadd_ps(t, u, splat(0.07140606258f));
    t = _mm512_fmadd_ps(t, u, splat(0.101980367f));
    t = _mm512_fmadd_ps(t, u, splat(0.1075186033f));
    t = _mm512_fmadd_ps(t, u, splat(0.1077220931f));
    const vf sq = _mm512_mul_ps(ac, ac);
    const vf lo = _mm512_fmsub_ps(ac, ac, sq); // a^2 = sq + lo exactly
    const vf n = _mm512_roundscale_ps(_mm512_mul_ps(sq, splat(-0.721347520444481703f)),
            _MM_FROUND_TO_NEAREST_INT);
    vf r2 = _mm512_fnmsub_ps(n, splat(1.38629150390625f), sq); // -sq - n 2ln2 (high part)
    r2 = _mm512_fnmadd_ps(n, splat(2.85721364061883446e-06f), r2);
    r2 = _mm512_sub_ps(r2, lo);
    vf p = splat(0.008369220292f / 32);
    p = _mm512_fmadd_ps(p, r2, splat(0.0419180104f / 16));
    p = _mm512_fmadd_ps(p, r2, splat(0.1666650461f / 8));
    p = _mm512_fmadd_ps(p, r2, splat(0.4999886484f / 4));
    p = _mm512_fmadd_ps(p, r2, splat(1.000000011f / 2));
    p = _mm512_fmadd_ps(p, r2, splat(1.000000076f));
    gauss = _mm512_scalef_ps(p, n);
    return _mm512_mul_ps(gauss, _mm512_mul_ps(t, u));
}

// Phi(x) = P(N(0,1) <= x) from the tail of |x|; `gauss` as above.
ANYDNN_AVX512_INLINE vf normal_cdf(vf x, vf &gauss) {
    const vf q = gaussian_tail(x, gauss); // takes |x|
    const __mmask16 pos = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
    return _mm512_mask_sub_ps(q, pos, splat(1.f), q);
}

// Lanes of x through a scalar function: algorithms no vector form pays for (pow).
template <typename F>
ANYDNN_AVX512_INLINE vf per_lane(vf x, F f) {
    alignas(64) float v[16];
    _mm512_store_ps(v, x);
    for (int i = 0; i < 16; ++i)
        v[i] = f(v[i]);
    return _mm512_load_ps(v);
}

} // namespace avx512
} // namespace cpu
} // namespace anydnn
