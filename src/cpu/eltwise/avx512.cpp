// AVX-512 eltwise, forward and backward, for tensors whose arguments share one dense layout
// (any blocking, padding included) and one data type (f32, bf16 or f16): the tensor is one
// flat array split between threads; large out-of-place results go out with streaming stores.
// GCC 12's AVX-512 intrinsics pass an undefined vector as the unused merge source, which
// -Wmaybe-uninitialized reports at every use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/ops/eltwise/common.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/eltwise/avx512_math.hpp"
#include "cpu/impl_entries.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace avx512;
using eltwise::dense_span;

// ---- loads and stores of 16 elements as f32 ----

template <dnnl_data_type_t dt>
struct io;

template <>
struct io<dnnl_f32> {
    using T = float;
    static ANYDNN_AVX512_INLINE vf load(const T *p) { return _mm512_loadu_ps(p); }
    static ANYDNN_AVX512_INLINE vf load(const T *p, __mmask16 m) {
        return _mm512_maskz_loadu_ps(m, p);
    }
    static ANYDNN_AVX512_INLINE void store(T *p, vf v) { _mm512_storeu_ps(p, v); }
    static ANYDNN_AVX512_INLINE void store(T *p, vf v, __mmask16 m) {
        _mm512_mask_storeu_ps(p, m, v);
    }
    static ANYDNN_AVX512_INLINE void stream(T *p, vf v) { _mm512_stream_ps(p, v); }
};

// 16-bit types: the conversion to and from 16 f32 lanes is all that differs.
template <typename cvt>
struct io16 {
    using T = uint16_t;
    static ANYDNN_AVX512_INLINE vf load(const T *p) {
        return cvt::to_f32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
    }
    static ANYDNN_AVX512_INLINE vf load(const T *p, __mmask16 m) {
        return cvt::to_f32(_mm256_maskz_loadu_epi16(m, p));
    }
    static ANYDNN_AVX512_INLINE void store(T *p, vf v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), cvt::from_f32(v));
    }
    static ANYDNN_AVX512_INLINE void store(T *p, vf v, __mmask16 m) {
        _mm256_mask_storeu_epi16(p, m, cvt::from_f32(v));
    }
    static ANYDNN_AVX512_INLINE void stream(T *p, vf v) {
        _mm256_stream_si256(reinterpret_cast<__m256i *>(p), cvt::from_f32(v));
    }
};

struct bf16_cvt {
    static ANYDNN_AVX512_INLINE vf to_f32(__m256i h) {
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    // Round to nearest even; NaN stays a (quiet) NaN.
    static ANYDNN_AVX512_INLINE __m256i from_f32(vf v) {
        const __m512i b = _mm512_castps_si512(v);
        const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(b, 16), _mm512_set1_epi32(1));
        __m512i r = _mm512_add_epi32(b, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
        r = _mm512_srli_epi32(r, 16);
        const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        r = _mm512_mask_or_epi32(r, nan, _mm512_srli_epi32(b, 16), _mm512_set1_epi32(0x40));
        return _mm512_cvtepi32_epi16(r);
    }
};

struct f16_cvt {
    static ANYDNN_AVX512_INLINE vf to_f32(__m256i h) { return _mm512_cvtph_ps(h); }
    static ANYDNN_AVX512_INLINE __m256i from_f32(vf v) {
        return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
};

template <>
struct io<dnnl_bf16> : io16<bf16_cvt> {};
template <>
struct io<dnnl_f16> : io16<f16_cvt> {};

// ---- the algorithms on 16 lanes ----

constexpr float sqrt_2_over_pi = 0.79788456080286535588f;
constexpr float gelu_tanh_c = 0.044715f;
constexpr float inv_sqrt_2pi = 0.39894228040143267794f;

ANYDNN_AVX512_INLINE __mmask16 gt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
ANYDNN_AVX512_INLINE __mmask16 lt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
ANYDNN_AVX512_INLINE __mmask16 le(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
ANYDNN_AVX512_INLINE __mmask16 ngt(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_NGT_UQ);
}
ANYDNN_AVX512_INLINE vf zero() { return _mm512_setzero_ps(); }
ANYDNN_AVX512_INLINE vf one() { return splat(1.f); }

template <int alg>
ANYDNN_AVX512_INLINE vf fwd_vec(vf x, vf a, vf b, float alpha, float beta) {
    if constexpr (alg == dnnl_eltwise_relu) {
        return _mm512_mask_mul_ps(x, ngt(x, zero()), x, a);
    } else if constexpr (alg == dnnl_eltwise_tanh) {
        return avx512::tanh(x);
    } else if constexpr (alg == dnnl_eltwise_elu) {
        return _mm512_mask_mul_ps(x, ngt(x, zero()), avx512::expm1(x), a);
    } else if constexpr (alg == dnnl_eltwise_square) {
        return _mm512_mul_ps(x, x);
    } else if constexpr (alg == dnnl_eltwise_abs) {
        return avx512::abs(x);
    } else if constexpr (alg == dnnl_eltwise_sqrt) {
        return _mm512_sqrt_ps(x);
    } else if constexpr (alg == dnnl_eltwise_linear) {
        return _mm512_fmadd_ps(a, x, b);
    } else if constexpr (alg == dnnl_eltwise_soft_relu) {
        return _mm512_div_ps(softplus(_mm512_mul_ps(a, x)), a);
    } else if constexpr (alg == dnnl_eltwise_hardsigmoid) {
        return _mm512_min_ps(one(), _mm512_max_ps(zero(), _mm512_fmadd_ps(a, x, b)));
    } else if constexpr (alg == dnnl_eltwise_logistic) {
        return sigmoid(x);
    } else if constexpr (alg == dnnl_eltwise_exp) {
        return avx512::exp(x);
    } else if constexpr (alg == dnnl_eltwise_gelu_tanh) {
        // 0.5 x (1 + tanh g) = x sigmoid(2g)
        const vf g2 = _mm512_mul_ps(_mm512_mul_ps(x, splat(2.f * sqrt_2_over_pi)),
                _mm512_fmadd_ps(_mm512_mul_ps(x, x), splat(gelu_tanh_c), one()));
        return _mm512_mul_ps(x, sigmoid(g2));
    } else if constexpr (alg == dnnl_eltwise_swish) {
        return _mm512_mul_ps(x, sigmoid(_mm512_mul_ps(a, x)));
    } else if constexpr (alg == dnnl_eltwise_log) {
        return avx512::log(x);
    } else if constexpr (alg == dnnl_eltwise_clip || alg == dnnl_eltwise_clip_v2) {
        vf r = _mm512_mask_mov_ps(x, lt(x, a), a);
        return _mm512_mask_mov_ps(r, gt(x, b), b);
    } else if constexpr (alg == dnnl_eltwise_pow) {
        return _mm512_mul_ps(a, per_lane(x, [beta](float v) { return std::pow(v, beta); }));
    } else if constexpr (alg == dnnl_eltwise_gelu_erf) {
        vf gauss;
        return _mm512_mul_ps(x, normal_cdf(x, gauss));
    } else if constexpr (alg == dnnl_eltwise_round) {
        return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    } else if constexpr (alg == dnnl_eltwise_mish) {
        // tanh(ln(1 + n)) = n (n + 2) / (n (n + 2) + 2), n = e^x; 1 beyond x = 20.
        const vf n = avx512::exp(_mm512_min_ps(splat(20.f), x));
        const vf num = _mm512_mul_ps(n, _mm512_add_ps(n, splat(2.f)));
        return _mm512_mul_ps(x, _mm512_div_ps(num, _mm512_add_ps(num, splat(2.f))));
    } else if constexpr (alg == dnnl_eltwise_hardswish) {
        return _mm512_mul_ps(x,
                _mm512_min_ps(one(), _mm512_max_ps(zero(), _mm512_fmadd_ps(a, x, b))));
    } else {
        static_assert(alg < 0, "not a forward eltwise algorithm");
        return x;
    }
}

// diff_src from diff_dst `g` and `s` (src, or dst for the *_use_dst_for_bwd algorithms).
template <int alg>
ANYDNN_AVX512_INLINE vf bwd_vec(vf g, vf s, vf a, vf b, float alpha, float beta) {
    if constexpr (alg == dnnl_eltwise_relu || alg == dnnl_eltwise_relu_use_dst_for_bwd) {
        return _mm512_mask_mul_ps(g, ngt(s, zero()), g, a);
    } else if constexpr (alg == dnnl_eltwise_tanh || alg == dnnl_eltwise_tanh_use_dst_for_bwd) {
        const vf t = alg == dnnl_eltwise_tanh ? avx512::tanh(s) : s;
        return _mm512_mul_ps(g, _mm512_mul_ps(_mm512_sub_ps(one(), t), _mm512_add_ps(one(), t)));
    } else if constexpr (alg == dnnl_eltwise_elu) {
        return _mm512_mask_mul_ps(g, ngt(s, zero()), g, _mm512_mul_ps(a, avx512::exp(s)));
    } else if constexpr (alg == dnnl_eltwise_elu_use_dst_for_bwd) {
        return _mm512_mask_mul_ps(g, ngt(s, zero()), g, _mm512_add_ps(s, a));
    } else if constexpr (alg == dnnl_eltwise_square) {
        return _mm512_mul_ps(g, _mm512_add_ps(s, s));
    } else if constexpr (alg == dnnl_eltwise_abs) {
        vf r = _mm512_mask_mov_ps(zero(), gt(s, zero()), g);
        return _mm512_mask_sub_ps(r, lt(s, zero()), zero(), g);
    } else if constexpr (alg == dnnl_eltwise_sqrt) {
        const vf r = _mm512_sqrt_ps(s);
        return _mm512_div_ps(g, _mm512_add_ps(r, r));
    } else if constexpr (alg == dnnl_eltwise_sqrt_use_dst_for_bwd) {
        return _mm512_div_ps(g, _mm512_add_ps(s, s));
    } else if constexpr (alg == dnnl_eltwise_linear) {
        return _mm512_mul_ps(g, a);
    } else if constexpr (alg == dnnl_eltwise_soft_relu) {
        return _mm512_mul_ps(g, sigmoid(_mm512_mul_ps(a, s)));
    } else if constexpr (alg == dnnl_eltwise_hardsigmoid) {
        const vf v = _mm512_fmadd_ps(a, s, b);
        const __mmask16 in = gt(v, zero()) & lt(v, one());
        return _mm512_maskz_mul_ps(in, g, a);
    } else if constexpr (alg == dnnl_eltwise_logistic
            || alg == dnnl_eltwise_logistic_use_dst_for_bwd) {
        const vf y = alg == dnnl_eltwise_logistic ? sigmoid(s) : s;
        return _mm512_mul_ps(g, _mm512_mul_ps(y, _mm512_sub_ps(one(), y)));
    } else if constexpr (alg == dnnl_eltwise_exp) {
        return _mm512_mul_ps(g, avx512::exp(s));
    } else if constexpr (alg == dnnl_eltwise_exp_use_dst_for_bwd) {
        return _mm512_mul_ps(g, s);
    } else if constexpr (alg == dnnl_eltwise_gelu_tanh) {
        // y = sigmoid(2g(x)): d/dx = y (1 + 2x (1 - y) g'(x)); saturated beyond |x| = 20.
        const vf x = clamp(s, -20.f, 20.f);
        const vf x2 = _mm512_mul_ps(x, x);
        const vf y = sigmoid(_mm512_mul_ps(_mm512_mul_ps(x, splat(2.f * sqrt_2_over_pi)),
                _mm512_fmadd_ps(x2, splat(gelu_tanh_c), one())));
        const vf dg = _mm512_fmadd_ps(
                x2, splat(3.f * gelu_tanh_c * sqrt_2_over_pi), splat(sqrt_2_over_pi));
        const vf inner = _mm512_mul_ps(_mm512_add_ps(x, x), _mm512_sub_ps(one(), y));
        return _mm512_mul_ps(g, _mm512_mul_ps(y, _mm512_fmadd_ps(inner, dg, one())));
    } else if constexpr (alg == dnnl_eltwise_swish) {
        const vf z = _mm512_mul_ps(a, s);
        const vf y = sigmoid(z);
        const vf d = _mm512_fmadd_ps(z, _mm512_sub_ps(one(), y), one());
        return _mm512_mul_ps(g, _mm512_mul_ps(y, d));
    } else if constexpr (alg == dnnl_eltwise_log) {
        return _mm512_div_ps(g, s);
    } else if constexpr (alg == dnnl_eltwise_clip) {
        return _mm512_maskz_mov_ps(gt(s, a) & le(s, b), g);
    } else if constexpr (alg == dnnl_eltwise_clip_v2
            || alg == dnnl_eltwise_clip_v2_use_dst_for_bwd) {
        return _mm512_maskz_mov_ps(gt(s, a) & lt(s, b), g);
    } else if constexpr (alg == dnnl_eltwise_pow) {
        const vf d = per_lane(s, [alpha, beta](float v) {
            return eltwise_bwd_scalar(dnnl_eltwise_pow, 1.f, v, alpha, beta);
        });
        return _mm512_mul_ps(g, d);
    } else if constexpr (alg == dnnl_eltwise_gelu_erf) {
        vf gauss;
        const vf cdf = normal_cdf(s, gauss);
        const vf pdf = _mm512_mul_ps(gauss, splat(inv_sqrt_2pi));
        return _mm512_mul_ps(g, _mm512_fmadd_ps(s, pdf, cdf));
    } else if constexpr (alg == dnnl_eltwise_mish) {
        // From n = e^x: t = n(n+2)/(n(n+2)+2), 1 - t = 2/(n(n+2)+2), sigmoid = n/(1+n).
        const vf x = _mm512_min_ps(splat(20.f), s);
        const vf n = avx512::exp(x);
        const vf num = _mm512_mul_ps(n, _mm512_add_ps(n, splat(2.f)));
        const vf den = _mm512_add_ps(num, splat(2.f));
        const vf t = _mm512_div_ps(num, den);
        const vf sech2 = _mm512_mul_ps(_mm512_div_ps(splat(2.f), den), _mm512_add_ps(one(), t));
        const vf sig = _mm512_div_ps(n, _mm512_add_ps(one(), n));
        return _mm512_mul_ps(g, _mm512_fmadd_ps(_mm512_mul_ps(x, sech2), sig, t));
    } else if constexpr (alg == dnnl_eltwise_hardswish) {
        const vf v = _mm512_fmadd_ps(a, s, b);
        const vf mid = _mm512_mul_ps(g, _mm512_fmadd_ps(_mm512_add_ps(a, a), s, b));
        vf r = _mm512_mask_mov_ps(zero(), gt(v, zero()), mid);
        return _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(v, one(), _CMP_GE_OQ), g);
    } else {
        static_assert(alg < 0, "not a backward eltwise algorithm");
        return g;
    }
}

// ---- the loops over one thread's range ----

// Elements to handle before dst reaches a 64-byte boundary (streaming stores need it).
template <typename T>
dim_t head_to_align(const T *p, dim_t n) {
    const uintptr_t mis = reinterpret_cast<uintptr_t>(p) % 64;
    return std::min<dim_t>(n, mis ? dim_t((64 - mis) / sizeof(T)) : 0);
}

ANYDNN_AVX512_INLINE __mmask16 tail_mask(dim_t n) {
    return static_cast<__mmask16>((1u << n) - 1u);
}

template <int alg, dnnl_data_type_t dt>
ANYDNN_AVX512 void fwd_kernel(const void *src_, void *dst_, dim_t n, float alpha, float beta,
        bool nt) {
    using T = typename io<dt>::T;
    const T *src = static_cast<const T *>(src_);
    T *dst = static_cast<T *>(dst_);
    const vf a = splat(alpha), b = splat(beta);
#define op(x) fwd_vec<alg>(x, a, b, alpha, beta)
    dim_t i = 0;
    if (nt) {
        for (dim_t head = head_to_align(dst, n), len; i < head; i += len) {
            len = std::min<dim_t>(16, head - i);
            const __mmask16 m = tail_mask(len);
            io<dt>::store(dst + i, op(io<dt>::load(src + i, m)), m);
        }
        for (; i + 16 <= n; i += 16)
            io<dt>::stream(dst + i, op(io<dt>::load(src + i)));
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) {
            const vf x0 = io<dt>::load(src + i), x1 = io<dt>::load(src + i + 16);
            io<dt>::store(dst + i, op(x0));
            io<dt>::store(dst + i + 16, op(x1));
        }
        for (; i + 16 <= n; i += 16)
            io<dt>::store(dst + i, op(io<dt>::load(src + i)));
    }
    if (i < n) {
        const __mmask16 m = tail_mask(n - i);
        io<dt>::store(dst + i, op(io<dt>::load(src + i, m)), m);
    }
#undef op
}

template <int alg, dnnl_data_type_t dt>
ANYDNN_AVX512 void bwd_kernel(const void *dd_, const void *s_, void *ds_, dim_t n,
        float alpha, float beta, bool nt) {
    using T = typename io<dt>::T;
    const T *dd = static_cast<const T *>(dd_);
    const T *s = static_cast<const T *>(s_);
    T *ds = static_cast<T *>(ds_);
    const vf a = splat(alpha), b = splat(beta);
#define op(g, x) bwd_vec<alg>(g, x, a, b, alpha, beta)
    dim_t i = 0;
    if (nt) {
        for (dim_t head = head_to_align(ds, n), len; i < head; i += len) {
            len = std::min<dim_t>(16, head - i);
            const __mmask16 m = tail_mask(len);
            io<dt>::store(ds + i, op(io<dt>::load(dd + i, m), io<dt>::load(s + i, m)), m);
        }
        for (; i + 16 <= n; i += 16)
            io<dt>::stream(ds + i, op(io<dt>::load(dd + i), io<dt>::load(s + i)));
        _mm_sfence();
    } else {
        for (; i + 16 <= n; i += 16)
            io<dt>::store(ds + i, op(io<dt>::load(dd + i), io<dt>::load(s + i)));
    }
    if (i < n) {
        const __mmask16 m = tail_mask(n - i);
        io<dt>::store(ds + i, op(io<dt>::load(dd + i, m), io<dt>::load(s + i, m)), m);
    }
#undef op
}

using fwd_fn_t = void (*)(const void *, void *, dim_t, float, float, bool);
using bwd_fn_t = void (*)(const void *, const void *, void *, dim_t, float, float, bool);

// Algorithms with a backward pass, then round (forward only), then the dst-reading variants.
#define ANYDNN_ELTWISE_BWD_ALGS(X) \
    X(relu) X(tanh) X(elu) X(square) X(abs) X(sqrt) X(linear) X(soft_relu) X(hardsigmoid) \
    X(logistic) X(exp) X(gelu_tanh) X(swish) X(log) X(clip) X(clip_v2) X(pow) X(gelu_erf) \
    X(mish) X(hardswish)
#define ANYDNN_ELTWISE_DST_ALGS(X) \
    X(relu_use_dst_for_bwd) X(tanh_use_dst_for_bwd) X(elu_use_dst_for_bwd) \
    X(sqrt_use_dst_for_bwd) X(logistic_use_dst_for_bwd) X(exp_use_dst_for_bwd) \
    X(clip_v2_use_dst_for_bwd)

template <dnnl_data_type_t dt>
fwd_fn_t fwd_kernel_for(dnnl_alg_kind_t alg) {
    switch (eltwise_base_alg(alg)) {
#define CASE(name) \
    case dnnl_eltwise_##name: return fwd_kernel<dnnl_eltwise_##name, dt>;
        ANYDNN_ELTWISE_BWD_ALGS(CASE)
        CASE(round)
#undef CASE
        default: return nullptr;
    }
}

template <dnnl_data_type_t dt>
bwd_fn_t bwd_kernel_for(dnnl_alg_kind_t alg) {
    switch (alg) {
#define CASE(name) \
    case dnnl_eltwise_##name: return bwd_kernel<dnnl_eltwise_##name, dt>;
        ANYDNN_ELTWISE_BWD_ALGS(CASE)
        ANYDNN_ELTWISE_DST_ALGS(CASE)
#undef CASE
        default: return nullptr;
    }
}

template <typename fn_t>
fn_t kernel_for(dnnl_data_type_t dt, dnnl_alg_kind_t alg, bool fwd) {
    if constexpr (std::is_same<fn_t, fwd_fn_t>::value) {
        switch (dt) {
            case dnnl_f32: return fwd_kernel_for<dnnl_f32>(alg);
            case dnnl_bf16: return fwd_kernel_for<dnnl_bf16>(alg);
            case dnnl_f16: return fwd_kernel_for<dnnl_f16>(alg);
            default: return nullptr;
        }
    } else {
        switch (dt) {
            case dnnl_f32: return bwd_kernel_for<dnnl_f32>(alg);
            case dnnl_bf16: return bwd_kernel_for<dnnl_bf16>(alg);
            case dnnl_f16: return bwd_kernel_for<dnnl_f16>(alg);
            default: return nullptr;
        }
    }
}

// Threads split the flat array in whole cache lines. Streaming stores pay off once the
// tensors no longer fit in the last-level cache and the output is a separate buffer.
constexpr dim_t grain = 64;
constexpr dim_t min_elems_per_thread = 16384;
constexpr size_t nt_min_bytes = size_t(32) << 20;

template <typename F>
void split_flat(dim_t span, F f) {
    const dim_t nblocks = (span + grain - 1) / grain;
    const int nthr = static_cast<int>(std::max<dim_t>(1,
            std::min<dim_t>(max_threads(), span / min_elems_per_thread)));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t b0, b1;
        balance211(nblocks, nt, ithr, b0, b1);
        const dim_t start = b0 * grain, end = std::min(span, b1 * grain);
        if (start < end) f(start, end - start);
    });
}

const eltwise_desc_t &eltwise_of(const primitive_desc_t &pd) {
    return std::get<eltwise_desc_t>(pd.desc);
}

char *at(void *base, const memory_desc_t &md) {
    return static_cast<char *>(base) + md.offset0 * data_type_size(md.data_type);
}

status_t check_isa() {
    ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
            "needs avx512_core (not available or capped by ONEDNN_MAX_CPU_ISA)");
    return dnnl_success;
}

status_t check_flat(const memory_desc_t &ref, const memory_desc_t &other, const char *name) {
    ANYDNN_REQUIRE(eltwise::is_float_type(ref.data_type), dnnl_unimplemented,
            "data type %s is not f32, bf16 or f16", dnnl_dt2str(ref.data_type));
    ANYDNN_REQUIRE(other.data_type == ref.data_type, dnnl_unimplemented,
            "%s has another data type", name);
    ANYDNN_REQUIRE(dense_span(ref) >= 0, dnnl_unimplemented, "layout is not dense");
    ANYDNN_REQUIRE(same_layout(ref, other), dnnl_unimplemented,
            "%s has another layout", name);
    return dnnl_success;
}

struct avx512_fwd_t;

struct avx512_fwd_pd_t : public primitive_desc_impl_t<avx512_fwd_pd_t, avx512_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:eltwise:avx512"; }

    static status_t init(avx512_fwd_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(eltwise::resolve_fwd(eltwise_of(pd), src, dst));
        ANYDNN_CHECK(check_isa());
        ANYDNN_CHECK(eltwise::check_attr(pd.attr, false));
        ANYDNN_CHECK(check_flat(src, dst, "dst"));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

struct avx512_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &d = eltwise_of(pd());
        const memory_desc_t &src_md = pd().arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd().arg_md(DNNL_ARG_DST);
        if (nelems(src_md) == 0) return dnnl_success;
        const fwd_fn_t kernel = kernel_for<fwd_fn_t>(src_md.data_type, d.alg_kind, true);
        ANYDNN_REQUIRE(kernel, dnnl_runtime_error, "no kernel for this algorithm");
        void *dst_base = ctx.host_ptr(DNNL_ARG_DST);
        const char *src = at(ctx.host_ptr(DNNL_ARG_SRC), src_md);
        char *dst = at(dst_base, dst_md);
        const dim_t span = dense_span(src_md);
        const size_t esize = data_type_size(src_md.data_type);
        const bool nt = src != dst && 2 * span * esize >= nt_min_bytes;
        split_flat(span, [&](dim_t start, dim_t n) {
            kernel(src + start * esize, dst + start * esize, n, d.alpha, d.beta, nt);
        });
        zero_padding(dst_md, dst_base);
        return dnnl_success;
    }
};

struct avx512_bwd_t;

struct avx512_bwd_pd_t : public primitive_desc_impl_t<avx512_bwd_pd_t, avx512_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:eltwise:avx512"; }

    static status_t init(avx512_bwd_pd_t &pd) {
        const auto &d = eltwise_of(pd);
        memory_desc_t data, diff_dst, diff_src;
        ANYDNN_CHECK(eltwise::resolve_bwd(d, data, diff_dst, diff_src));
        ANYDNN_CHECK(check_isa());
        ANYDNN_CHECK(eltwise::check_attr(pd.attr, false));
        ANYDNN_CHECK(check_flat(data, diff_dst, "diff_dst"));
        ANYDNN_CHECK(check_flat(data, diff_src, "diff_src"));
        pd.args[eltwise::bwd_data_arg(d)] = data;
        pd.args[DNNL_ARG_DIFF_DST] = diff_dst;
        pd.args[DNNL_ARG_DIFF_SRC] = diff_src;
        return dnnl_success;
    }
};

struct avx512_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &d = eltwise_of(pd());
        const int data_arg = eltwise::bwd_data_arg(d);
        const memory_desc_t &data_md = pd().arg_md(data_arg);
        const memory_desc_t &dd_md = pd().arg_md(DNNL_ARG_DIFF_DST);
        const memory_desc_t &ds_md = pd().arg_md(DNNL_ARG_DIFF_SRC);
        if (nelems(data_md) == 0) return dnnl_success;
        const bwd_fn_t kernel = kernel_for<bwd_fn_t>(data_md.data_type, d.alg_kind, false);
        ANYDNN_REQUIRE(kernel, dnnl_runtime_error, "no kernel for this algorithm");
        void *ds_base = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        const char *x = at(ctx.host_ptr(data_arg), data_md);
        const char *g = at(ctx.host_ptr(DNNL_ARG_DIFF_DST), dd_md);
        char *o = at(ds_base, ds_md);
        const dim_t span = dense_span(data_md);
        const size_t esize = data_type_size(data_md.data_type);
        const bool nt = o != g && o != x && 3 * span * esize >= nt_min_bytes;
        split_flat(span, [&](dim_t start, dim_t n) {
            const size_t off = start * esize;
            kernel(g + off, x + off, o + off, n, d.alpha, d.beta, nt);
        });
        zero_padding(ds_md, ds_base);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t eltwise_avx512_fwd_entry() {
    return make_impl_entry<avx512_fwd_pd_t>("cpu:eltwise:avx512");
}
impl_entry_t eltwise_avx512_bwd_entry() {
    return make_impl_entry<avx512_bwd_pd_t>("cpu:eltwise:avx512");
}

} // namespace cpu
} // namespace anydnn
