// AVX-512 batch normalization for tensors that share one layout: channels innermost
// (nCx16c blocks or channels-last: 16 channels per vector, threads split minibatch x spatial)
// or planar ncx (16 spatial points per vector, threads split minibatch x channels).
// Forward on channels-innermost layouts runs the streams of avx512_stream.hpp (statistics in
// one read); planar forward and backward walk vector by vector, planar statistics in two
// passes (mean, then centred squares), per-thread partial sums in f32.
#include <immintrin.h>

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/data_types.hpp"
#include "core/ops/bnorm/common.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/reorder/common.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/bnorm/avx512_stream.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/simd16.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace bnorm;

bool make_lay(const memory_desc_t &md, lay_t &l) {
    const auto &b = md.blocking;
    const int nd = md.ndims;
    // Spatial dims must fold into one with a constant stride.
    for (int i = 2; i + 1 < nd; ++i)
        if (md.dims[i] > 1 && b.strides[i] != b.strides[i + 1] * md.dims[i + 1]) return false;
    l.sn = b.strides[0];
    l.sc = b.strides[1];
    l.ss = nd > 2 ? b.strides[nd - 1] : 0;
    dim_t sp = 1;
    for (int i = 2; i < nd; ++i)
        sp *= md.dims[i];
    if (b.inner_nblks == 1 && b.inner_idxs[0] == 1 && b.inner_blks[0] == 16) {
        l.blk = 16;
        return nd == 2 || l.ss >= 16 || sp == 1;
    }
    if (b.inner_nblks != 0) return false;
    if (md.dims[1] == 1 || b.strides[1] == 1) { // channels-last (or a single channel)
        l.blk = 1;
        l.sc = 1;
        return sp == 1 || l.ss >= md.dims[1];
    }
    if (nd > 2 && l.ss == 1 && b.strides[1] >= sp) {
        l.plane = true;
        return true;
    }
    return false;
}

struct bn_t;

struct bn_pd_t : public primitive_desc_impl_t<bn_pd_t, bn_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:bnorm:avx512"; }
    lay_t lay;
    dim_t cp = 0; // channels rounded up to 16
    int nthr = 1;
    bool po_relu = false; // a relu post-op (slope 0): the fused relu without its workspace

    static status_t init(bn_pd_t &pd) {
        ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
                "needs avx512_core");
        ANYDNN_CHECK(resolve(pd));
        float alpha = 0.f;
        pd.po_relu = relu_post_op(pd.attr, alpha);
        ANYDNN_REQUIRE(!pd.po_relu || alpha == 0.f, dnnl_unimplemented,
                "relu post-op with a negative slope (cpu:bnorm:ref applies it)");
        const memory_desc_t &src = pd.args[DNNL_ARG_SRC];
        ANYDNN_REQUIRE(make_lay(src, pd.lay), dnnl_unimplemented,
                "src layout is neither nCx16c, channels-last nor planar with dense spatial");
        for (const auto &a : pd.args) {
            if (a.first == DNNL_ARG_MEAN || a.first == DNNL_ARG_VARIANCE
                    || a.first == DNNL_ARG_SCALE || a.first == DNNL_ARG_SHIFT
                    || a.first == DNNL_ARG_DIFF_SCALE || a.first == DNNL_ARG_DIFF_SHIFT)
                continue;
            ANYDNN_REQUIRE(same_layout(a.second, src) && a.second.offset0 == 0
                            && src.offset0 == 0,
                    dnnl_unimplemented, "every tensor must share src's layout");
        }
        const conf_t c = make_conf(desc_of(pd));
        pd.cp = (c.c + 15) / 16 * 16;
        pd.nthr = max_threads();
        // [nthr][2][cp] doubles (one-pass sums), then [nthr][2][cp] + 4 * cp floats
        pd.scratchpad_size
                = sizeof(double) * pd.cp * 2 * pd.nthr + sizeof(float) * pd.cp * (2 * pd.nthr + 4);
        return dnnl_success;
    }
};

struct bn_t : public primitive_t {
    using primitive_t::primitive_t;

    template <bool plane, dnnl_data_type_t sdt>
    void run(const exec_ctx_t &ctx) const;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const bn_pd_t &>(this->pd());
        const dnnl_data_type_t sdt = pd.arg_md(DNNL_ARG_SRC).data_type;
        auto go = [&](auto plane) {
            switch (sdt) {
                case dnnl_bf16: run<plane.value, dnnl_bf16>(ctx); break;
                case dnnl_f16: run<plane.value, dnnl_f16>(ctx); break;
                case dnnl_s8: run<plane.value, dnnl_s8>(ctx); break;
                default: run<plane.value, dnnl_f32>(ctx); break;
            }
        };
        if (pd.lay.plane)
            go(std::true_type());
        else
            go(std::false_type());
        return dnnl_success;
    }
};

// Everything below runs only once init has seen avx512_core.
ANYDNN_AVX512_SECTION_BEGIN

// Where one vector sits and how it reaches per-channel arrays and accumulators.
struct vpos_t {
    dim_t off; // element offset into every tensor
    dim_t c; // first channel (channels-innermost) or the channel (planar)
    __mmask16 m; // lanes that hold data
    __mmask16 ms; // lanes to store (the whole block for nCx16c)
};

template <bool plane>
ANYDNN_AVX512_INLINE __m512 param(const float *arr, const vpos_t &p) {
    if constexpr (plane)
        return _mm512_set1_ps(arr[p.c]);
    else
        return _mm512_loadu_ps(arr + p.c);
}

// Walks this thread's share: f(p, acc0, acc1) where acc* are per-thread sums (channel order)
// that f adds to through `add`.
template <bool plane, typename F>
ANYDNN_AVX512 void walk(const lay_t &l, const conf_t &c, int ithr, int nthr, float *acc0,
        float *acc1, F f) {
    dim_t start, end;
    if constexpr (plane) {
        balance211(c.mb * c.c, nthr, ithr, start, end);
        for (dim_t i = start; i < end; ++i) {
            const dim_t n = i / c.c, ch = i % c.c;
            __m512 r0 = _mm512_setzero_ps(), r1 = _mm512_setzero_ps();
            const dim_t base = n * l.sn + ch * l.sc;
            for (dim_t s = 0; s < c.sp; s += 16) {
                const dim_t left = std::min<dim_t>(16, c.sp - s);
                const __mmask16 m = __mmask16((1u << left) - 1);
                f(vpos_t {base + s, ch, m, m}, r0, r1);
            }
            if (acc0) acc0[ch] += _mm512_reduce_add_ps(r0);
            if (acc1) acc1[ch] += _mm512_reduce_add_ps(r1);
        }
    } else {
        balance211(c.mb * c.sp, nthr, ithr, start, end);
        const dim_t nch = (c.c + 15) / 16;
        auto one = [&](dim_t n, dim_t s, dim_t k) {
            const dim_t c0 = k * 16;
            const dim_t left = std::min<dim_t>(16, c.c - c0);
            const __mmask16 m = __mmask16((1u << left) - 1);
            const __mmask16 ms = l.blk == 16 ? __mmask16(0xffff) : m;
            __m512 r0 = _mm512_setzero_ps(), r1 = _mm512_setzero_ps();
            f(vpos_t {n * l.sn + (c0 / l.blk) * l.sc + s * l.ss, c0, m, ms}, r0, r1);
            if (acc0) _mm512_storeu_ps(acc0 + c0, _mm512_add_ps(_mm512_loadu_ps(acc0 + c0), r0));
            if (acc1) _mm512_storeu_ps(acc1 + c0, _mm512_add_ps(_mm512_loadu_ps(acc1 + c0), r1));
        };
        // (n, s) of point i advance by counting: a division per vector costs more than the
        // vector's memory traffic.
        if (l.blk == 16) { // one block's channels are contiguous along spatial
            for (dim_t k = 0; k < nch; ++k)
                for (dim_t i = start, n = start / c.sp, s = start % c.sp; i < end; ++i) {
                    one(n, s, k);
                    if (++s == c.sp) s = 0, ++n;
                }
        } else {
            for (dim_t i = start, n = start / c.sp, s = start % c.sp; i < end; ++i) {
                for (dim_t k = 0; k < nch; ++k)
                    one(n, s, k);
                if (++s == c.sp) s = 0, ++n;
            }
        }
    }
}

// Sums the per-thread partials of `k` arrays into the first thread's.
void reduce_parts(float *part, dim_t cp, int nthr) {
    for (int t = 1; t < nthr; ++t)
        for (dim_t i = 0; i < 2 * cp; ++i)
            part[i] += part[t * 2 * cp + i];
}

// Mean and variance of a channels-innermost src in one read (see stream::sums). The shift k is
// the mean of a few points spread over the tensor; a channel whose mean still lies far from it
// (relative to its spread, where sum(d*d)/n - mean(d)^2 would cancel) gets a second read
// shifted by the mean just found. dpart holds the [nthr][2][cp] per-thread sums.
template <dnnl_data_type_t sdt>
void one_pass_stats(const char *src, const lay_t &l, const conf_t &c, dim_t cp, int nthr,
        float *mean, float *var, float *k, double *dpart) {
    const dim_t points = c.mb * c.sp, samples = std::min<dim_t>(points, 32);
    for (dim_t c0 = 0; c0 < c.c; c0 += 16) {
        __m512 sum = _mm512_setzero_ps();
        for (dim_t i = 0; i < samples; ++i) {
            const dim_t pt = i * points / samples, n = pt / c.sp, s = pt % c.sp;
            const char *p = src + (n * l.sn + (c0 / l.blk) * l.sc + s * l.ss) * stream::size_of<sdt>;
            sum = _mm512_add_ps(sum, simd16::load<sdt>(p, stream::lanes(c.c - c0)));
        }
        _mm512_storeu_ps(k + c0, _mm512_div_ps(sum, _mm512_set1_ps(float(samples))));
    }
    const double count = double(points);
    for (int pass = 0; pass < 2; ++pass) {
        std::memset(dpart, 0, sizeof(double) * 2 * cp * nthr);
        parallel(nthr, [&](int ithr, int nt) {
            double *s = dpart + ithr * 2 * cp;
            stream::stats<sdt>(src, l, c, k, s, s + cp, ithr, nt);
        });
        bool far = false;
        for (dim_t ch = 0; ch < c.c; ++ch) {
            double s1 = 0, s2 = 0;
            for (int t = 0; t < nthr; ++t) {
                s1 += dpart[t * 2 * cp + ch];
                s2 += dpart[t * 2 * cp + cp + ch];
            }
            const double d = s1 / count, v = std::max(0.0, s2 / count - d * d);
            mean[ch] = float(k[ch] + d);
            var[ch] = float(v);
            far = far || d * d > 16 * v;
        }
        if (!far) break;
        std::memcpy(k, mean, sizeof(float) * c.c);
    }
}

// The forward fma pass over a channels-innermost tensor, compiled per destination type and
// with the add/relu fusions out of the plain loop.
template <dnnl_data_type_t sdt>
void apply_cl(const stream::apply_args_t &g, dnnl_data_type_t ddt, const lay_t &l,
        const conf_t &c, int nthr) {
    const bool fused = g.src1 || g.relu;
    auto go = [&](auto dt) {
        constexpr dnnl_data_type_t d = decltype(dt)::value;
        parallel(nthr, [&](int ithr, int nt) {
            if (fused)
                stream::apply<sdt, d, true>(g, l, c, ithr, nt);
            else
                stream::apply<sdt, d, false>(g, l, c, ithr, nt);
            if (g.nt) _mm_sfence(); // this thread's streamed lines before what follows
        });
    };
    using dt_t = dnnl_data_type_t;
    switch (ddt) {
        case dnnl_bf16: go(std::integral_constant<dt_t, dnnl_bf16>()); break;
        case dnnl_f16: go(std::integral_constant<dt_t, dnnl_f16>()); break;
        case dnnl_s8: go(std::integral_constant<dt_t, dnnl_s8>()); break;
        default: go(std::integral_constant<dt_t, dnnl_f32>()); break;
    }
}

template <bool plane, dnnl_data_type_t sdt>
void bn_t::run(const exec_ctx_t &ctx) const {
    const auto &pd = static_cast<const bn_pd_t &>(this->pd());
    const conf_t c = make_conf(desc_of(pd));
    const lay_t l = pd.lay;
    const dim_t cp = pd.cp;
    const int nthr = pd.nthr;
    double *dpart = static_cast<double *>(ctx.scratchpad); // [nthr][2][cp]
    float *part = reinterpret_cast<float *>(dpart + 2 * cp * nthr); // [nthr][2][cp]
    float *mean_a = part + 2 * cp * nthr, *alpha_a = mean_a + cp, *beta_a = alpha_a + cp,
          *gam_a = beta_a + cp;
    std::memset(mean_a, 0, sizeof(float) * 4 * cp);
    const char *src = ctx.host_ptr<const char>(DNNL_ARG_SRC);
    const float *scale = c.scale ? ctx.host_ptr<const float>(DNNL_ARG_SCALE) : nullptr;
    const float *shift = c.fwd && c.shift ? ctx.host_ptr<const float>(DNNL_ARG_SHIFT) : nullptr;
    float *mean = ctx.host_ptr<float>(DNNL_ARG_MEAN);
    float *var = ctx.host_ptr<float>(DNNL_ARG_VARIANCE);
    const size_t ss = data_type_size(sdt);
    const dim_t count = c.mb * c.sp;
    auto clear_parts = [&] { std::memset(part, 0, sizeof(float) * 2 * cp * nthr); };

    if (c.fwd) {
        float *var_a = alpha_a; // holds variances until alpha replaces them
        if (c.global_stats) {
            std::memcpy(mean_a, mean, sizeof(float) * c.c);
            std::memcpy(var_a, var, sizeof(float) * c.c);
        } else if (count > 0 && !plane) {
            one_pass_stats<sdt>(src, l, c, cp, nthr, mean_a, var_a, gam_a, dpart);
        } else if (count > 0) {
            clear_parts();
            parallel(nthr, [&](int ithr, int nt) {
                walk<plane>(l, c, ithr, nt, part + ithr * 2 * cp, nullptr,
                        [&](const vpos_t &p, __m512 &r0, __m512 &) {
                            r0 = _mm512_add_ps(r0, simd16::load<sdt>(src + p.off * ss, p.m));
                        });
            });
            reduce_parts(part, cp, nthr);
            for (dim_t ch = 0; ch < c.c; ++ch)
                mean_a[ch] = part[ch] / float(count);
            clear_parts();
            parallel(nthr, [&](int ithr, int nt) {
                walk<plane>(l, c, ithr, nt, part + ithr * 2 * cp, nullptr,
                        [&](const vpos_t &p, __m512 &r0, __m512 &) {
                            const __m512 d = _mm512_maskz_sub_ps(p.m,
                                    simd16::load<sdt>(src + p.off * ss, p.m),
                                    param<plane>(mean_a, p));
                            r0 = _mm512_fmadd_ps(d, d, r0);
                        });
            });
            reduce_parts(part, cp, nthr);
            for (dim_t ch = 0; ch < c.c; ++ch)
                var_a[ch] = part[ch] / float(count);
        }
        if (c.stats_out) {
            std::memcpy(mean, mean_a, sizeof(float) * c.c);
            std::memcpy(var, var_a, sizeof(float) * c.c);
        }
        for (dim_t ch = 0; ch < c.c; ++ch) {
            const float inv = 1.f / std::sqrt(var_a[ch] + c.eps);
            const float a = (scale ? scale[ch] : 1.f) * inv;
            alpha_a[ch] = a;
            beta_a[ch] = (shift ? shift[ch] : 0.f) - mean_a[ch] * a;
        }
        if (count == 0) return;
        char *dst = ctx.host_ptr<char>(DNNL_ARG_DST);
        const char *src1 = c.add_relu ? ctx.host_ptr<const char>(DNNL_ARG_SRC_1) : nullptr;
        char *ws = c.relu && c.training ? ctx.host_ptr<char>(DNNL_ARG_WORKSPACE) : nullptr;
        const dnnl_data_type_t ddt = pd.arg_md(DNNL_ARG_DST).data_type;
        const size_t ds = data_type_size(ddt);
        const bool relu = c.relu || pd.po_relu;
        if constexpr (!plane) {
            // Past half the last-level cache src and dst no longer both stay there: skip
            // reading dst's lines before overwriting them.
            const size_t dst_bytes = size_t(c.mb) * l.sn * ds;
            const bool aligned = reinterpret_cast<uintptr_t>(dst) % 64 == 0 && l.sn % 16 == 0
                    && (l.blk == 1 || l.sc % 16 == 0) && l.ss % 16 == 0;
            const bool nt = ddt == dnnl_f32 && aligned
                    && dst_bytes >= reorder::streaming_threshold();
            const stream::apply_args_t g {src, src1, dst, ws, alpha_a, beta_a, relu, nt};
            apply_cl<sdt>(g, ddt, l, c, nthr);
            return;
        }
        parallel(nthr, [&](int ithr, int nt) {
            walk<plane>(l, c, ithr, nt, nullptr, nullptr,
                    [&](const vpos_t &p, __m512 &, __m512 &) {
                        __m512 y = _mm512_fmadd_ps(simd16::load<sdt>(src + p.off * ss, p.m),
                                param<plane>(alpha_a, p), param<plane>(beta_a, p));
                        if (src1) y = _mm512_add_ps(y, simd16::load_dt(ddt, src1 + p.off * ds, p.m));
                        if (relu) {
                            const __mmask16 pos
                                    = _mm512_mask_cmp_ps_mask(p.m, y, _mm512_setzero_ps(), _CMP_GT_OQ);
                            y = _mm512_maskz_mov_ps(pos, y);
                            if (ws)
                                _mm_mask_storeu_epi8(ws + p.off, p.ms,
                                        _mm_maskz_mov_epi8(pos, _mm_set1_epi8(1)));
                        } else {
                            y = _mm512_maskz_mov_ps(p.m, y);
                        }
                        simd16::store_dt(ddt, dst + p.off * ds, y, p.ms);
                    });
        });
        return;
    }

    // Backward: g = diff_dst masked by the forward relu; sums of g and g * (x - mean).
    const char *dd = ctx.host_ptr<const char>(DNNL_ARG_DIFF_DST);
    char *dsrc = ctx.host_ptr<char>(DNNL_ARG_DIFF_SRC);
    char *dsrc1 = c.add_relu ? ctx.host_ptr<char>(DNNL_ARG_DIFF_SRC_1) : nullptr;
    const char *ws = c.relu ? ctx.host_ptr<const char>(DNNL_ARG_WORKSPACE) : nullptr;
    float *dscale = c.diff_ss && c.scale ? ctx.host_ptr<float>(DNNL_ARG_DIFF_SCALE) : nullptr;
    float *dshift = c.diff_ss && c.shift ? ctx.host_ptr<float>(DNNL_ARG_DIFF_SHIFT) : nullptr;
    const dnnl_data_type_t gdt = pd.arg_md(DNNL_ARG_DIFF_DST).data_type;
    const dnnl_data_type_t odt = pd.arg_md(DNNL_ARG_DIFF_SRC).data_type;
    const size_t gs = data_type_size(gdt), os = data_type_size(odt);
    std::memcpy(mean_a, mean, sizeof(float) * c.c);
    auto grad = [&](const vpos_t &p) {
        __m512 g = simd16::load_dt(gdt, dd + p.off * gs, p.m);
        if (ws) {
            const __mmask16 on = _mm_mask_cmpneq_epi8_mask(
                    p.m, _mm_maskz_loadu_epi8(p.m, ws + p.off), _mm_setzero_si128());
            g = _mm512_maskz_mov_ps(on, g);
        }
        return g;
    };
    clear_parts();
    if (count > 0)
        parallel(nthr, [&](int ithr, int nt) {
            float *pa = part + ithr * 2 * cp;
            walk<plane>(l, c, ithr, nt, pa, pa + cp,
                    [&](const vpos_t &p, __m512 &r0, __m512 &r1) {
                        const __m512 g = grad(p);
                        const __m512 d = _mm512_maskz_sub_ps(p.m,
                                simd16::load<sdt>(src + p.off * ss, p.m),
                                param<plane>(mean_a, p));
                        r0 = _mm512_add_ps(r0, g);
                        r1 = _mm512_fmadd_ps(g, d, r1);
                    });
        });
    reduce_parts(part, cp, nthr);
    for (dim_t ch = 0; ch < c.c; ++ch) {
        const float inv = 1.f / std::sqrt(var[ch] + c.eps);
        const float d_shift = part[ch], d_scale = part[cp + ch] * inv;
        if (dscale) dscale[ch] = d_scale;
        if (dshift) dshift[ch] = d_shift;
        alpha_a[ch] = (scale ? scale[ch] : 1.f) * inv; // k
        beta_a[ch] = count > 0 && !c.global_stats ? d_shift / float(count) : 0.f; // mean of g
        gam_a[ch] = count > 0 && !c.global_stats ? d_scale * inv / float(count) : 0.f;
    }
    if (count == 0) return;
    parallel(nthr, [&](int ithr, int nt) {
        walk<plane>(l, c, ithr, nt, nullptr, nullptr,
                [&](const vpos_t &p, __m512 &, __m512 &) {
                    const __m512 g = grad(p);
                    if (dsrc1) simd16::store_dt(odt, dsrc1 + p.off * os, g, p.ms);
                    const __m512 d = _mm512_sub_ps(
                            simd16::load<sdt>(src + p.off * ss, p.m), param<plane>(mean_a, p));
                    __m512 v = _mm512_sub_ps(g, param<plane>(beta_a, p));
                    v = _mm512_fnmadd_ps(d, param<plane>(gam_a, p), v);
                    v = _mm512_maskz_mul_ps(p.m, v, param<plane>(alpha_a, p));
                    simd16::store_dt(odt, dsrc + p.off * os, v, p.ms);
                });
    });
}

ANYDNN_AVX512_SECTION_END

} // namespace

impl_entry_t bnorm_avx512_entry() {
    return make_impl_entry<bn_pd_t>("cpu:bnorm:avx512");
}

} // namespace cpu
} // namespace anydnn
