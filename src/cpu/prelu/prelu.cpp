// PReLU, forward and backward: dst = src > 0 ? src : w * src with w broadcast to src.
// `flat` walks dense unpadded src/dst in memory order when the weights map onto that order
// by a simple period (scalar, per-channel, per-channel+spatial, full...), AVX-512 for f32;
// backward reduces diff_weights into per-thread partials. `ref` handles any blocked layouts
// through logical positions.
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/prelu/common.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

const prelu_desc_t &prelu_of(const primitive_desc_t &pd) {
    return prelu::desc_of(pd);
}
using prelu::init_common;
using prelu::is_fwd;

// An empty src leaves each diff_weights element a sum of nothing: zero.
void zero_diff_weights(const primitive_desc_t &pd, const exec_ctx_t &ctx) {
    const size_t bytes = size_in_bytes(pd.arg_md(DNNL_ARG_DIFF_WEIGHTS));
    if (bytes > 0) std::memset(ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS), 0, bytes);
}

char *base_of(void *p, const memory_desc_t &md) {
    return static_cast<char *>(p) + md.offset0 * data_type_size(md.data_type);
}

// ---------------------------------------------------------------------------------------
// Flat path.

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void fwd_seg_avx512(
        const float *s, const float *w, int step, float *t, dim_t n) {
    const __m512 zero = _mm512_setzero_ps();
    dim_t i = 0;
    if (step == 0) {
        const __m512 wv = _mm512_set1_ps(w[0]);
        for (; i + 16 <= n; i += 16) {
            const __m512 x = _mm512_loadu_ps(s + i);
            const __mmask16 neg = _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ);
            _mm512_storeu_ps(t + i, _mm512_mask_mul_ps(x, neg, x, wv));
        }
        if (i < n) {
            const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
            const __m512 x = _mm512_maskz_loadu_ps(m, s + i);
            const __mmask16 neg = _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ);
            _mm512_mask_storeu_ps(t + i, m, _mm512_mask_mul_ps(x, neg, x, wv));
        }
        return;
    }
    for (; i + 16 <= n; i += 16) {
        const __m512 x = _mm512_loadu_ps(s + i);
        const __mmask16 neg = _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ);
        _mm512_storeu_ps(t + i, _mm512_mask_mul_ps(x, neg, x, _mm512_loadu_ps(w + i)));
    }
    if (i < n) {
        const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512 x = _mm512_maskz_loadu_ps(m, s + i);
        const __mmask16 neg = _mm512_cmp_ps_mask(x, zero, _CMP_LE_OQ);
        _mm512_mask_storeu_ps(
                t + i, m, _mm512_mask_mul_ps(x, neg, x, _mm512_maskz_loadu_ps(m, w + i)));
    }
}

// Backward over one segment, f32: o = x > 0 ? dy : dy * w; step 0 returns the sum of
// dy * x over x <= 0 (one weight), step 1 adds it per element into acc.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) float bwd_seg_avx512(
        const float *x, const float *g, const float *w, int step, float *o, float *acc,
        dim_t n) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 sum = zero;
    const __m512 w0 = _mm512_set1_ps(w[0]);
    for (dim_t i = 0; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? __mmask16(0xffff)
                                        : static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512 xv = _mm512_maskz_loadu_ps(m, x + i);
        const __m512 gv = _mm512_maskz_loadu_ps(m, g + i);
        const __m512 wv = step == 0 ? w0 : _mm512_maskz_loadu_ps(m, w + i);
        const __mmask16 neg = _mm512_mask_cmp_ps_mask(m, xv, zero, _CMP_LE_OQ);
        _mm512_mask_storeu_ps(o + i, m, _mm512_mask_mul_ps(gv, neg, gv, wv));
        const __m512 t = _mm512_maskz_mul_ps(neg, gv, xv);
        if (step == 0) {
            sum = _mm512_add_ps(sum, t);
        } else {
            _mm512_mask_storeu_ps(
                    acc + i, m, _mm512_add_ps(_mm512_maskz_loadu_ps(m, acc + i), t));
        }
    }
    return _mm512_reduce_add_ps(sum);
}

void fwd_seg_scalar(const float *s, const float *w, int step, float *t, dim_t n) {
    for (dim_t i = 0; i < n; ++i) {
        const float x = s[i];
        t[i] = x > 0.f ? x : x * w[step * i];
    }
}

struct flat_t;

struct flat_pd_t : public primitive_desc_impl_t<flat_pd_t, flat_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:prelu:flat"; }

    flat_bcast_t map;
    int nthr = 1;

    static status_t init(flat_pd_t &pd) {
        ANYDNN_CHECK(init_common(pd));
        const auto &d = prelu_of(pd);
        const memory_desc_t &src = pd.args[DNNL_ARG_SRC];
        const memory_desc_t &wei = pd.args[DNNL_ARG_WEIGHTS];
        ANYDNN_REQUIRE(is_dense_unpadded(src), dnnl_unimplemented, "src is not dense");
        ANYDNN_REQUIRE(is_dense_unpadded(wei), dnnl_unimplemented, "weights are not dense");
        const int other = is_fwd(d) ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        ANYDNN_REQUIRE(same_layout(src, pd.args[other]), dnnl_unimplemented,
                "src and dst layouts differ");
        if (!is_fwd(d)) {
            ANYDNN_REQUIRE(same_layout(src, pd.args[DNNL_ARG_DIFF_SRC]), dnnl_unimplemented,
                    "src and diff_src layouts differ");
            ANYDNN_REQUIRE(same_layout(wei, pd.args[DNNL_ARG_DIFF_WEIGHTS]),
                    dnnl_unimplemented, "weights and diff_weights layouts differ");
        }
        pd.map = analyze_flat_bcast(src, wei);
        ANYDNN_REQUIRE(pd.map.ok, dnnl_unimplemented,
                "weights do not map onto src's memory order by a period");
        if (!is_fwd(d)) {
            pd.nthr = max_threads();
            const dim_t nw = nelems(wei);
            const size_t bytes = size_t(pd.nthr) * nw * sizeof(float);
            ANYDNN_REQUIRE(bytes <= (size_t(64) << 20), dnnl_unimplemented,
                    "diff_weights partials would need %zu bytes", bytes);
            pd.scratchpad_size = bytes;
        }
        return dnnl_success;
    }
};

constexpr dim_t chunk = 512;

struct flat_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const flat_pd_t &>(this->pd());
        return is_fwd(prelu_of(pd)) ? fwd(pd, ctx) : bwd(pd, ctx);
    }

    static status_t fwd(const flat_pd_t &pd, const exec_ctx_t &ctx) {
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &wmd = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &dmd = pd.arg_md(DNNL_ARG_DST);
        const dim_t n = nelems(smd);
        if (n == 0) return dnnl_success;
        const char *s = base_of(ctx.host_ptr(DNNL_ARG_SRC), smd);
        const char *w = base_of(ctx.host_ptr(DNNL_ARG_WEIGHTS), wmd);
        char *t = base_of(ctx.host_ptr(DNNL_ARG_DST), dmd);
        const auto sdt = smd.data_type, wdt = wmd.data_type, ddt = dmd.data_type;
        const bool all_f32 = sdt == dnnl_f32 && wdt == dnnl_f32 && ddt == dnnl_f32;
        const bool avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
        const flat_bcast_t &map = pd.map;
        parallel_range(n, [&](dim_t start, dim_t end) {
            float sv[chunk], wv[chunk], tv[chunk];
            for (dim_t i = start; i < end;) {
                int step;
                dim_t len = map.segment(i, std::min(chunk, end - i), step);
                const dim_t wi = map.index(i);
                if (all_f32) {
                    const float *sp = reinterpret_cast<const float *>(s) + i;
                    const float *wp = reinterpret_cast<const float *>(w) + wi;
                    float *tp = reinterpret_cast<float *>(t) + i;
                    if (avx512) fwd_seg_avx512(sp, wp, step, tp, len);
                    else fwd_seg_scalar(sp, wp, step, tp, len);
                } else {
                    for (dim_t k = 0; k < len; ++k) {
                        sv[k] = load_as_f32(sdt, s, i + k);
                        wv[k] = load_as_f32(wdt, w, wi + step * k);
                    }
                    fwd_seg_scalar(sv, wv, 1, tv, len);
                    for (dim_t k = 0; k < len; ++k)
                        store_from_f32(ddt, t, i + k, tv[k]);
                }
                i += len;
            }
        });
        return dnnl_success;
    }

    static status_t bwd(const flat_pd_t &pd, const exec_ctx_t &ctx) {
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &wmd = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &ddmd = pd.arg_md(DNNL_ARG_DIFF_DST),
                            &dsmd = pd.arg_md(DNNL_ARG_DIFF_SRC),
                            &dwmd = pd.arg_md(DNNL_ARG_DIFF_WEIGHTS);
        const dim_t n = nelems(smd), nw = nelems(wmd);
        if (n == 0) {
            zero_diff_weights(pd, ctx);
            return dnnl_success;
        }
        const char *s = base_of(ctx.host_ptr(DNNL_ARG_SRC), smd);
        const char *w = base_of(ctx.host_ptr(DNNL_ARG_WEIGHTS), wmd);
        const char *g = base_of(ctx.host_ptr(DNNL_ARG_DIFF_DST), ddmd);
        char *ds = base_of(ctx.host_ptr(DNNL_ARG_DIFF_SRC), dsmd);
        char *dw = base_of(ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS), dwmd);
        float *part = static_cast<float *>(ctx.scratchpad);
        const auto sdt = smd.data_type, wdt = wmd.data_type, gdt = ddmd.data_type,
                   odt = dsmd.data_type, dwdt = dwmd.data_type;
        const flat_bcast_t &map = pd.map;
        const bool all_f32 = sdt == dnnl_f32 && wdt == dnnl_f32 && gdt == dnnl_f32
                && odt == dnnl_f32;
        const bool avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
        const int nthr = std::max(1,
                static_cast<int>(std::min<dim_t>(pd.nthr, std::max<dim_t>(1, n / 4096))));
        // Zeroed up front: the runtime may start fewer threads than asked for.
        std::fill(part, part + size_t(nthr) * nw, 0.f);
        parallel(nthr, [&](int ithr, int nt) {
            float *acc = part + size_t(ithr) * nw;
            dim_t start, end;
            balance211(n, nt, ithr, start, end);
            for (dim_t i = start; i < end;) {
                int step;
                const dim_t len = map.segment(i, end - i, step);
                const dim_t wi = map.index(i);
                if (all_f32 && avx512) {
                    const float *x = reinterpret_cast<const float *>(s) + i;
                    const float *dy = reinterpret_cast<const float *>(g) + i;
                    float *o = reinterpret_cast<float *>(ds) + i;
                    const float *wv = reinterpret_cast<const float *>(w) + wi;
                    // Blocks of 1024 keep the f32 partial sums short.
                    double a = 0;
                    for (dim_t k0 = 0; k0 < len; k0 += 1024) {
                        const dim_t kn = std::min<dim_t>(1024, len - k0);
                        a += bwd_seg_avx512(x + k0, dy + k0, wv + step * k0, step, o + k0,
                                acc + wi + step * k0, kn);
                    }
                    if (step == 0) acc[wi] += static_cast<float>(a);
                } else if (all_f32 && step == 0) {
                    // One weight for the run: a blocked sum keeps the f32 error small.
                    const float *x = reinterpret_cast<const float *>(s) + i;
                    const float *dy = reinterpret_cast<const float *>(g) + i;
                    float *o = reinterpret_cast<float *>(ds) + i;
                    const float wv = reinterpret_cast<const float *>(w)[wi];
                    double a = 0;
                    for (dim_t k0 = 0; k0 < len; k0 += 256) {
                        const dim_t kn = std::min(len, k0 + 256);
                        float p = 0.f;
                        for (dim_t k = k0; k < kn; ++k) {
                            const bool pos = x[k] > 0.f;
                            o[k] = pos ? dy[k] : dy[k] * wv;
                            p += pos ? 0.f : dy[k] * x[k];
                        }
                        a += p;
                    }
                    acc[wi] += static_cast<float>(a);
                } else if (all_f32) {
                    const float *x = reinterpret_cast<const float *>(s) + i;
                    const float *dy = reinterpret_cast<const float *>(g) + i;
                    float *o = reinterpret_cast<float *>(ds) + i;
                    const float *wv = reinterpret_cast<const float *>(w) + wi;
                    float *ac = acc + wi;
                    for (dim_t k = 0; k < len; ++k) {
                        const bool pos = x[k] > 0.f;
                        o[k] = pos ? dy[k] : dy[k] * wv[k];
                        ac[k] += pos ? 0.f : dy[k] * x[k];
                    }
                } else {
                    for (dim_t k = 0; k < len; ++k) {
                        const float x = load_as_f32(sdt, s, i + k);
                        const float dy = load_as_f32(gdt, g, i + k);
                        const float wv = load_as_f32(wdt, w, wi + step * k);
                        store_from_f32(odt, ds, i + k, x > 0.f ? dy : dy * wv);
                        if (!(x > 0.f)) acc[wi + step * k] += dy * x;
                    }
                }
                i += len;
            }
        });
        parallel_range(nw, [&](dim_t a, dim_t b) {
            for (dim_t j = a; j < b; ++j) {
                float v = 0.f;
                for (int t = 0; t < nthr; ++t)
                    v += part[size_t(t) * nw + j];
                store_from_f32(dwdt, dw, j, v);
            }
        }, 1024);
        return dnnl_success;
    }
};

// ---------------------------------------------------------------------------------------
// Reference.

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:prelu:ref"; }
    static status_t init(ref_pd_t &pd) { return init_common(pd); }
};

void unravel(const dim_t *dims, int nd, dim_t i, dim_t *pos) {
    for (int d = nd - 1; d >= 0; --d) {
        pos[d] = i % dims[d];
        i /= dims[d];
    }
}

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        const auto &d = prelu_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &wmd = pd.arg_md(DNNL_ARG_WEIGHTS);
        const int nd = smd.ndims;
        const dim_t n = nelems(smd);
        if (n == 0) {
            if (!is_fwd(d)) zero_diff_weights(pd, ctx);
            return dnnl_success;
        }
        const void *s = ctx.host_ptr(DNNL_ARG_SRC);
        const void *w = ctx.host_ptr(DNNL_ARG_WEIGHTS);
        auto wpos = [&](const dim_t *pos, dim_t *wp) {
            for (int k = 0; k < nd; ++k)
                wp[k] = wmd.dims[k] == 1 ? 0 : pos[k];
        };
        if (is_fwd(d)) {
            const memory_desc_t &dmd = pd.arg_md(DNNL_ARG_DST);
            void *t = ctx.host_ptr(DNNL_ARG_DST);
            parallel_range(n, [&](dim_t a, dim_t b) {
                dim_t pos[max_ndims], wp[max_ndims];
                for (dim_t i = a; i < b; ++i) {
                    unravel(smd.dims, nd, i, pos);
                    wpos(pos, wp);
                    const float x = load_as_f32(smd.data_type, s, off_logical(smd, pos));
                    const float wv = load_as_f32(wmd.data_type, w, off_logical(wmd, wp));
                    store_from_f32(dmd.data_type, t, off_logical(dmd, pos), x > 0.f ? x : x * wv);
                }
            });
            zero_padding(dmd, t);
            return dnnl_success;
        }
        const memory_desc_t &gmd = pd.arg_md(DNNL_ARG_DIFF_DST),
                            &dsmd = pd.arg_md(DNNL_ARG_DIFF_SRC),
                            &dwmd = pd.arg_md(DNNL_ARG_DIFF_WEIGHTS);
        const void *g = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        void *dw = ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS);
        parallel_range(n, [&](dim_t a, dim_t b) {
            dim_t pos[max_ndims], wp[max_ndims];
            for (dim_t i = a; i < b; ++i) {
                unravel(smd.dims, nd, i, pos);
                wpos(pos, wp);
                const float x = load_as_f32(smd.data_type, s, off_logical(smd, pos));
                const float dy = load_as_f32(gmd.data_type, g, off_logical(gmd, pos));
                const float wv = load_as_f32(wmd.data_type, w, off_logical(wmd, wp));
                store_from_f32(dsmd.data_type, ds, off_logical(dsmd, pos), x > 0.f ? dy : dy * wv);
            }
        });
        // diff_weights: each weight element sums over the dims it is broadcast along.
        dim_t rdims[max_ndims];
        int ridx[max_ndims], nr = 0;
        dim_t nred = 1;
        for (int k = 0; k < nd; ++k)
            if (wmd.dims[k] == 1 && smd.dims[k] > 1) {
                ridx[nr] = k;
                rdims[nr++] = smd.dims[k];
                nred *= smd.dims[k];
            }
        const dim_t nw = nelems(wmd);
        parallel_range(nw, [&](dim_t a, dim_t b) {
            dim_t pos[max_ndims], rp[max_ndims];
            for (dim_t j = a; j < b; ++j) {
                unravel(wmd.dims, nd, j, pos);
                const dim_t wo = off_logical(dwmd, pos);
                double acc = 0;
                for (dim_t r = 0; r < nred; ++r) {
                    unravel(rdims, nr, r, rp);
                    for (int q = 0; q < nr; ++q)
                        pos[ridx[q]] = rp[q];
                    const float x = load_as_f32(smd.data_type, s, off_logical(smd, pos));
                    if (x > 0.f) continue;
                    acc += double(x) * load_as_f32(gmd.data_type, g, off_logical(gmd, pos));
                }
                store_from_f32(dwmd.data_type, dw, wo, static_cast<float>(acc));
            }
        }, 1);
        zero_padding(dsmd, ds);
        zero_padding(dwmd, dw);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t prelu_flat_entry() {
    return make_impl_entry<flat_pd_t>("cpu:prelu:flat");
}
impl_entry_t prelu_ref_entry() {
    return make_impl_entry<ref_pd_t>("cpu:prelu:ref");
}

} // namespace cpu
} // namespace anydnn
