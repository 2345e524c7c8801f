// Forward batch normalization kernels for channels-innermost layouts (nCx16c and channels-last):
// one-pass statistics and the per-channel fma, each a straight stream over the thread's share.
// Include only from avx512.cpp (the kernels run only once init has seen avx512_core).
#pragma once

#include <immintrin.h>

#include <algorithm>

#include "core/ops/bnorm/common.hpp"
#include "core/parallel.hpp"
#include "cpu/simd16.hpp"

namespace anydnn {
namespace cpu {
namespace bnorm {

// Offsets in elements: channels-innermost (plane false) n*sn + (c0/blk)*sc + s*ss, or planar
// n*sn + c*sc + s.
struct lay_t {
    bool plane = false;
    dim_t sn = 0, sc = 0, ss = 0, blk = 1;
};

// Lambdas do not inherit a function's target attribute: the whole section carries it.
ANYDNN_AVX512_SECTION_BEGIN

namespace stream {

// Lanes [0, left) of a 16-channel vector, left capped at 16.
inline __mmask16 lanes(dim_t left) {
    return left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
}

// Full-vector load/store of a storage type: unmasked instructions where the type allows
// (masked stores are slow on some cores even with an all-ones mask).
template <dnnl_data_type_t dt>
ANYDNN_AVX512_INLINE __m512 load_full(const char *p) {
    if constexpr (dt == dnnl_f32) return _mm512_loadu_ps(p);
    else return simd16::load<dt>(p, 0xffff);
}

template <dnnl_data_type_t dt>
ANYDNN_AVX512_INLINE void store_full(char *p, __m512 v) {
    if constexpr (dt == dnnl_f32)
        _mm512_storeu_ps(p, v);
    else if constexpr (dt == dnnl_bf16)
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), simd16::to_bf16(v));
    else
        simd16::store_dt(dt, p, v, 0xffff);
}

// Splits the thread's share of `rows` x `len` items (row-major) into runs within one row:
// f(row, first, count).
template <typename F>
ANYDNN_AVX512_INLINE void for_runs(dim_t rows, dim_t len, int ithr, int nthr, F f) {
    dim_t start, end;
    balance211(rows * len, nthr, ithr, start, end);
    if (start >= end) return;
    dim_t row = start / len, first = start % len;
    for (dim_t i = start; i < end;) {
        const dim_t count = std::min(len - first, end - i);
        f(row, first, count);
        i += count;
        first = 0;
        ++row;
    }
}

// Adds a 16-lane f32 partial into 16 double accumulators.
ANYDNN_AVX512_INLINE void flush(double *acc, __m512 v) {
    const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
    const __m512d hi = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_shuffle_f32x4(v, v, 0xee)));
    _mm512_storeu_pd(acc, _mm512_add_pd(_mm512_loadu_pd(acc), lo));
    _mm512_storeu_pd(acc + 8, _mm512_add_pd(_mm512_loadu_pd(acc + 8), hi));
}

// Sums of d = x - k and d * d over `count` vectors `bytes` apart, added to s1/s2 (doubles, 16
// channels). f32 chains stay short (16 terms) before they reach the doubles, and k (close to
// each channel's mean) keeps sum(d*d)/n - mean(d)^2 from cancelling: one read of src is as
// accurate as a mean pass followed by a centred pass. Lanes outside m count as zero.
template <dnnl_data_type_t sdt>
ANYDNN_AVX512_INLINE void sums(const char *p, dim_t count, dim_t bytes, __m512 k, __mmask16 m,
        bool full, double *s1, double *s2) {
    constexpr dim_t chunk = 64; // vectors per flush: 4 chains x 16 terms
    auto diff = [&](const char *q) {
        const __m512 x = full ? load_full<sdt>(q) : simd16::load<sdt>(q, m);
        return _mm512_maskz_sub_ps(m, x, k);
    };
    for (dim_t j0 = 0; j0 < count; j0 += chunk) {
        const dim_t n = std::min(chunk, count - j0);
        const char *q = p + j0 * bytes;
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        __m512 q0 = a0, q1 = a0, q2 = a0, q3 = a0;
        dim_t j = 0;
        for (; j + 4 <= n; j += 4) {
            const __m512 d0 = diff(q + j * bytes), d1 = diff(q + (j + 1) * bytes),
                         d2 = diff(q + (j + 2) * bytes), d3 = diff(q + (j + 3) * bytes);
            a0 = _mm512_add_ps(a0, d0);
            q0 = _mm512_fmadd_ps(d0, d0, q0);
            a1 = _mm512_add_ps(a1, d1);
            q1 = _mm512_fmadd_ps(d1, d1, q1);
            a2 = _mm512_add_ps(a2, d2);
            q2 = _mm512_fmadd_ps(d2, d2, q2);
            a3 = _mm512_add_ps(a3, d3);
            q3 = _mm512_fmadd_ps(d3, d3, q3);
        }
        for (; j < n; ++j) {
            const __m512 d = diff(q + j * bytes);
            a0 = _mm512_add_ps(a0, d);
            q0 = _mm512_fmadd_ps(d, d, q0);
        }
        flush(s1, _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
        flush(s2, _mm512_add_ps(_mm512_add_ps(q0, q1), _mm512_add_ps(q2, q3)));
    }
}

template <dnnl_data_type_t dt>
constexpr dim_t size_of = dt == dnnl_f32 ? 4 : dt == dnnl_bf16 || dt == dnnl_f16 ? 2 : 1;

// Points (channels-last) per tile: one tile of every channel block stays in L1 while the
// blocks are walked one after the other.
inline dim_t cl_tile(const lay_t &l, dim_t elem_size) {
    return std::clamp<dim_t>(16384 / std::max<dim_t>(1, l.ss * elem_size), 4, 64);
}

// This thread's one-pass sums for a channels-innermost src: s1/s2 get sum(x - k) and
// sum((x - k)^2) per channel, k holding a shift per channel (padded to 16).
template <dnnl_data_type_t sdt>
ANYDNN_AVX512 void stats(const char *src, const lay_t &lay, const conf_t &conf, const float *k,
        double *s1, double *s2, int ithr, int nthr) {
    const lay_t l = lay; // register copies (the double sums may alias anything)
    const conf_t c = conf;
    constexpr dim_t ts = size_of<sdt>;
    const dim_t nch = (c.c + 15) / 16;
    if (l.blk == 16) { // for each (n, block) the points are one stream of 16-channel vectors
        for_runs(c.mb * nch, c.sp, ithr, nthr, [&](dim_t row, dim_t s0, dim_t cnt) {
            const dim_t n = row / nch, cb = row % nch;
            sums<sdt>(src + (n * l.sn + cb * l.sc + s0 * l.ss) * ts, cnt, l.ss * ts,
                    _mm512_loadu_ps(k + cb * 16), lanes(c.c - cb * 16), true, s1 + cb * 16,
                    s2 + cb * 16);
        });
        return;
    }
    const dim_t tile = cl_tile(l, ts);
    for_runs(c.mb, c.sp, ithr, nthr, [&](dim_t n, dim_t s0, dim_t cnt) {
        for (dim_t t = 0; t < cnt; t += tile) {
            const char *p = src + (n * l.sn + (s0 + t) * l.ss) * ts;
            for (dim_t cb = 0; cb < nch; ++cb) {
                const __mmask16 m = lanes(c.c - cb * 16);
                sums<sdt>(p + cb * 16 * ts, std::min(tile, cnt - t), l.ss * ts,
                        _mm512_loadu_ps(k + cb * 16), m, m == 0xffff, s1 + cb * 16,
                        s2 + cb * 16);
            }
        }
    });
}

// What the forward fma pass reads and writes; src1 (add before relu) and ws may be null.
struct apply_args_t {
    const char *src, *src1;
    char *dst, *ws;
    const float *alpha, *beta; // per channel, padded to 16 with zeros
    bool relu;
    bool nt; // full f32 dst vectors go out with non-temporal stores (64-byte aligned)
};

// y = x * a + b (+ x1, then relu) over `count` vectors `stride` elements apart. full: the
// vectors may be read and written whole (m still zeroes the padded channels of nCx16c).
template <dnnl_data_type_t sdt, dnnl_data_type_t ddt, bool fused>
ANYDNN_AVX512_INLINE void fma_run(const apply_args_t &g, dim_t off, dim_t count, dim_t stride,
        __m512 a, __m512 b, __mmask16 m, bool full) {
    constexpr dim_t ts = size_of<sdt>, ds = size_of<ddt>;
    const char *x = g.src + off * ts;
    char *y = g.dst + off * ds;
#pragma GCC unroll 4
    for (dim_t j = 0; j < count; ++j) {
        const dim_t o = j * stride;
        const __m512 xv = full ? load_full<sdt>(x + o * ts) : simd16::load<sdt>(x + o * ts, m);
        __m512 v = _mm512_fmadd_ps(xv, a, b);
        if constexpr (fused) {
            if (g.src1) {
                const char *x1 = g.src1 + (off + o) * ds;
                v = _mm512_add_ps(
                        v, full ? load_full<ddt>(x1) : simd16::load<ddt>(x1, m));
            }
            if (g.relu) {
                const __mmask16 pos
                        = _mm512_mask_cmp_ps_mask(m, v, _mm512_setzero_ps(), _CMP_GT_OQ);
                v = _mm512_maskz_mov_ps(pos, v);
                if (g.ws) {
                    const __m128i bits = _mm_maskz_mov_epi8(pos, _mm_set1_epi8(1));
                    if (full)
                        _mm_storeu_si128(reinterpret_cast<__m128i *>(g.ws + off + o), bits);
                    else
                        _mm_mask_storeu_epi8(g.ws + off + o, m, bits);
                }
            }
        }
        v = _mm512_maskz_mov_ps(m, v);
        if constexpr (ddt == dnnl_f32)
            if (full && g.nt) {
                _mm512_stream_ps(reinterpret_cast<float *>(y + o * ds), v);
                continue;
            }
        if (full)
            store_full<ddt>(y + o * ds, v);
        else
            simd16::store_dt(ddt, y + o * ds, v, m);
    }
}

// This thread's share of the forward fma pass over a channels-innermost tensor.
template <dnnl_data_type_t sdt, dnnl_data_type_t ddt, bool fused>
ANYDNN_AVX512 void apply(const apply_args_t &args, const lay_t &lay, const conf_t &conf,
        int ithr, int nthr) {
    // Copies the compiler can keep in registers: dst stores may alias anything behind a
    // reference.
    const apply_args_t g = args;
    const lay_t l = lay;
    const conf_t c = conf;
    const dim_t nch = (c.c + 15) / 16;
    if (l.blk == 16) {
        for_runs(c.mb * nch, c.sp, ithr, nthr, [&](dim_t row, dim_t s0, dim_t cnt) {
            const dim_t n = row / nch, cb = row % nch;
            fma_run<sdt, ddt, fused>(g, n * l.sn + cb * l.sc + s0 * l.ss, cnt, l.ss,
                    _mm512_loadu_ps(g.alpha + cb * 16), _mm512_loadu_ps(g.beta + cb * 16),
                    lanes(c.c - cb * 16), true);
        });
        return;
    }
    // Point by point, so that each point's channels are written in one go (whole lines for
    // the non-temporal stores).
    for_runs(c.mb, c.sp, ithr, nthr, [&](dim_t n, dim_t s0, dim_t cnt) {
        for (dim_t s = s0; s < s0 + cnt; ++s)
            for (dim_t cb = 0; cb < nch; ++cb) {
                const __mmask16 m = lanes(c.c - cb * 16);
                fma_run<sdt, ddt, fused>(g, n * l.sn + s * l.ss + cb * 16, 1, 0,
                        _mm512_loadu_ps(g.alpha + cb * 16), _mm512_loadu_ps(g.beta + cb * 16),
                        m, m == 0xffff);
            }
    });
}

} // namespace stream

ANYDNN_AVX512_SECTION_END
} // namespace bnorm
} // namespace cpu
} // namespace anydnn
