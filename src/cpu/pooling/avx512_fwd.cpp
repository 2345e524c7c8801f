// AVX-512 pooling forward over 16 channels at a time, for nCx16c-style blocks (aBx16b) or
// channels-last (axb): max (workspace of tap indices in training) and avg, any supported type.
// A step keeps up to four accumulators in registers, either several output pixels along x or
// several channel chunks of one pixel, so their max/sum chains run side by side; windows
// wholly inside src (the interior of a row) go in steps of several pixels.
#include <immintrin.h>

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/pooling/common.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/pooling/channel_vectors.hpp"
#include "cpu/simd16.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace pooling;

struct fwd_t;

struct fwd_pd_t : public primitive_desc_impl_t<fwd_pd_t, fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:pooling:avx512"; }
    cv_layout_t src_l, dst_l, ws_l;

    static status_t init(fwd_pd_t &pd) {
        ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
                "needs avx512_core");
        ANYDNN_REQUIRE(is_fwd(desc_of(pd)), dnnl_unimplemented, "not a forward pooling");
        ANYDNN_CHECK(check_attr(pd.attr, false));
        ANYDNN_CHECK(resolve(pd));
        ANYDNN_REQUIRE(cv_layout(pd.args[DNNL_ARG_SRC], pd.src_l)
                        && cv_layout(pd.args[DNNL_ARG_DST], pd.dst_l),
                dnnl_unimplemented, "src and dst must be nCx16c or channels-last");
        ANYDNN_REQUIRE(pd.src_l.blk == pd.dst_l.blk, dnnl_unimplemented,
                "src and dst must both be blocked or both channels-last");
        auto it = pd.args.find(DNNL_ARG_WORKSPACE);
        if (it != pd.args.end())
            ANYDNN_REQUIRE(cv_layout(it->second, pd.ws_l) && pd.ws_l.blk == pd.dst_l.blk,
                    dnnl_unimplemented, "workspace layout");
        return dnnl_success;
    }
};

// Accumulators one step keeps in registers (pixels along x times channel chunks).
constexpr int max_acc = 4;

// What every step of one execution shares; sizes in bytes where they step addresses.
struct plan_t {
    const fwd_pd_t *pd = nullptr;
    geom_t g;
    dnnl_data_type_t ddt = dnnl_f32, wdt = dnnl_u8;
    dim_t ss = 0, dsz = 0, wsz = 0; // element sizes of src, dst, workspace
    bool blocked = false;
    int per_group = 1; // channel chunks one row job takes
    dim_t ox_lo = 0, ox_hi = 0; // outputs along x whose whole window lies in src
};

// One step: accumulators that share a window range; j reads src at a tap plus src_off[j] and
// writes dst (workspace) at the step's position plus dst_off[j] (ws_off[j]), lanes m[j].
struct step_t {
    dim_t src_off[max_acc], dst_off[max_acc], ws_off[max_acc];
    __mmask16 m[max_acc];
};

// The step of `nu` pixels along x times `nv` chunks (nu * nv <= max_acc).
step_t make_step(const plan_t &p, int nu, int nv, const __mmask16 *chunk_mask) {
    const auto &sl = p.pd->src_l, &dl = p.pd->dst_l, &wl = p.pd->ws_l;
    step_t st;
    for (int u = 0; u < nu; ++u)
        for (int v = 0; v < nv; ++v) {
            const int j = u * nv + v;
            st.src_off[j] = (u * p.g.s[2] * sl.sx + v * sl.chunk_step()) * p.ss;
            st.dst_off[j] = (u * dl.sx + v * dl.chunk_step()) * p.dsz;
            st.ws_off[j] = (u * wl.sx + v * wl.chunk_step()) * p.wsz;
            st.m[j] = chunk_mask[v];
        }
    return st;
}

// Window taps of one step: [lo, hi) per dim, and the src position of tap 0 per dim.
struct window_t {
    dim_t lz, hz, ly, hy, lx, hx;
    dim_t iz0, iy0, ix0;
};

// Pools one step: `src` is the chunk origin of image n, dst/ws point at the step's first
// output. All accumulators see the same taps, so one divisor and one count serve them.
template <dnnl_data_type_t sdt, int na, bool is_max, bool with_ws>
ANYDNN_AVX512_INLINE void pool_step(const plan_t &p, const step_t &st, const window_t &w,
        const char *src, char *dst, char *ws) {
    const geom_t &g = p.g;
    const auto &sl = p.pd->src_l;
    const dim_t zx = g.dl[0] + 1, yx = g.dl[1] + 1, xx = g.dl[2] + 1;
    __m512 acc[na];
    __m512i arg[na];
    for (int j = 0; j < na; ++j) {
        acc[j] = is_max ? _mm512_set1_ps(-INFINITY) : _mm512_setzero_ps();
        arg[j] = _mm512_setzero_si512();
    }
    const dim_t x_step = xx * sl.sx * p.ss;
    dim_t off[na];
    for (int j = 0; j < na; ++j)
        off[j] = st.src_off[j];
    for (dim_t kz = w.lz; kz < w.hz; ++kz)
        for (dim_t ky = w.ly; ky < w.hy; ++ky) {
            const char *row = src + ((w.iz0 + kz * zx) * sl.sz + (w.iy0 + ky * yx) * sl.sy) * p.ss;
            const int kbase = int((kz * g.k[1] + ky) * g.k[2]);
            const char *px = row + (w.ix0 + w.lx * xx) * sl.sx * p.ss;
            for (dim_t kx = w.lx; kx < w.hx; ++kx, px += x_step) {
                const __m512i k = _mm512_set1_epi32(kbase + int(kx));
                for (int j = 0; j < na; ++j) {
                    const __m512 x = simd16::load<sdt>(px + off[j], st.m[j]);
                    if (!is_max) {
                        acc[j] = _mm512_add_ps(acc[j], x);
                    } else if (with_ws) {
                        // Strictly greater: the first of equal maxima wins, NaN never does.
                        const __mmask16 gt = _mm512_cmp_ps_mask(x, acc[j], _CMP_GT_OQ);
                        acc[j] = _mm512_mask_mov_ps(acc[j], gt, x);
                        arg[j] = _mm512_mask_mov_epi32(arg[j], gt, k);
                    } else {
                        // max_ps returns its second operand on NaN or equality, like above.
                        acc[j] = _mm512_max_ps(x, acc[j]);
                    }
                }
            }
        }
    const dim_t count = (w.hz - w.lz) * (w.hy - w.ly) * (w.hx - w.lx);
    const dim_t div = g.alg == dnnl_pooling_avg_include_padding ? g.ksize() : count;
    for (int j = 0; j < na; ++j) {
        __m512 r = acc[j];
        if (is_max && count == 0) r = _mm512_set1_ps(lowest_finite(sdt)); // padding only
        if (!is_max && div > 0) r = _mm512_div_ps(r, _mm512_set1_ps(float(div)));
        r = _mm512_maskz_mov_ps(st.m[j], r); // padded channels of a block stay zero
        const __mmask16 mstore = p.blocked ? __mmask16(0xffff) : st.m[j];
        simd16::store_dt(p.ddt, dst + st.dst_off[j], r, mstore);
        if (with_ws) {
            // Lanes whose every tap was -inf keep index 0 like the first tap.
            const __m512i a = _mm512_maskz_mov_epi32(st.m[j], arg[j]);
            char *wp = ws + st.ws_off[j];
            if (p.wdt == dnnl_u8)
                _mm_mask_storeu_epi8(wp, mstore, _mm512_cvtepi32_epi8(a));
            else
                _mm512_mask_storeu_epi32(wp, mstore, a);
        }
    }
}

// One output row (n, oz, oy) of `nv` chunks from c0, in steps along x.
template <dnnl_data_type_t sdt, bool is_max, bool with_ws>
ANYDNN_AVX512 void pool_row(const plan_t &p, const char *src, char *dst, char *ws, dim_t n,
        dim_t c0, int nv, dim_t oz, dim_t oy) {
    const geom_t &g = p.g;
    const fwd_pd_t &pd = *p.pd;
    __mmask16 chunk_mask[max_acc];
    for (int v = 0; v < nv; ++v) {
        const dim_t left = std::min<dim_t>(16, g.c - c0 - 16 * v);
        chunk_mask[v] = __mmask16((1u << left) - 1);
    }
    window_t w;
    g.taps(0, oz, w.lz, w.hz);
    g.taps(1, oy, w.ly, w.hy);
    w.iz0 = oz * g.s[0] - g.pl[0];
    w.iy0 = oy * g.s[1] - g.pl[1];
    const char *src_c = src + pd.src_l.at(n, c0, 0, 0, 0) * p.ss;
    const int nu_full = max_acc / nv;
    const step_t single = make_step(p, 1, nv, chunk_mask);
    const step_t full = make_step(p, nu_full, nv, chunk_mask);
    step_t partial; // the interior's last, shorter step
    // The src rows the next output row adds to its window: fetched into L2 while this row
    // computes (their pixels follow the steps), so the next row finds them there.
    const auto &sl = pd.src_l;
    const dim_t next_iy = w.iy0 + (g.k[1] - 1) * (g.dl[1] + 1) + 1;
    const dim_t pf_lo = std::max<dim_t>(next_iy, 0), pf_hi = std::min(next_iy + g.s[1], g.in[1]);
    const dim_t pf_bytes = (p.blocked ? 16 : 16 * nv) * p.ss; // a pixel's bytes of this job
    const bool prefetch = g.out[1] > 1 && (!p.blocked || nv == 1) && w.lz < w.hz;
    const char *pf_base = src_c + (w.iz0 + w.lz * (g.dl[0] + 1)) * sl.sz * p.ss;
    for (dim_t ox = 0; ox < g.out[2];) {
        const bool inside = ox >= p.ox_lo && ox < p.ox_hi;
        const int nu = inside ? int(std::min<dim_t>(nu_full, p.ox_hi - ox)) : 1;
        if (inside) {
            w.lx = 0;
            w.hx = g.k[2];
        } else {
            g.taps(2, ox, w.lx, w.hx);
        }
        w.ix0 = ox * g.s[2] - g.pl[2];
        if (prefetch && inside)
            for (dim_t iy = pf_lo; iy < pf_hi; ++iy)
                for (dim_t ix = w.ix0; ix < w.ix0 + nu * g.s[2]; ++ix) {
                    const char *px = pf_base + (iy * sl.sy + ix * sl.sx) * p.ss;
                    for (dim_t b = 0; b < pf_bytes; b += 64)
                        _mm_prefetch(px + b, _MM_HINT_T1);
                }
        char *d = dst + pd.dst_l.at(n, c0, oz, oy, ox) * p.dsz;
        char *wsp = with_ws ? ws + pd.ws_l.at(n, c0, oz, oy, ox) * p.wsz : nullptr;
        const step_t *st = nu == 1 ? &single : &full;
        if (nu != 1 && nu != nu_full) {
            partial = make_step(p, nu, nv, chunk_mask);
            st = &partial;
        }
        switch (nu * nv) {
            case 1: pool_step<sdt, 1, is_max, with_ws>(p, *st, w, src_c, d, wsp); break;
            case 2: pool_step<sdt, 2, is_max, with_ws>(p, *st, w, src_c, d, wsp); break;
            case 3: pool_step<sdt, 3, is_max, with_ws>(p, *st, w, src_c, d, wsp); break;
            default: pool_step<sdt, 4, is_max, with_ws>(p, *st, w, src_c, d, wsp); break;
        }
        ox += nu;
    }
}

struct fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    plan_t make_plan() const {
        plan_t p;
        p.pd = &static_cast<const fwd_pd_t &>(this->pd());
        p.g = make_geom(desc_of(*p.pd));
        p.ddt = p.pd->arg_md(DNNL_ARG_DST).data_type;
        p.ss = dim_t(data_type_size(p.pd->arg_md(DNNL_ARG_SRC).data_type));
        p.dsz = dim_t(data_type_size(p.ddt));
        if (p.pd->args.count(DNNL_ARG_WORKSPACE)) {
            p.wdt = p.pd->arg_md(DNNL_ARG_WORKSPACE).data_type;
            p.wsz = dim_t(data_type_size(p.wdt));
        }
        p.blocked = p.pd->dst_l.blk == 16;
        const geom_t &g = p.g;
        p.ox_lo = p.ox_hi = 0;
        for (dim_t ox = 0; ox < g.out[2]; ++ox) {
            dim_t lo, hi;
            g.taps(2, ox, lo, hi);
            if (lo != 0 || hi != g.k[2]) continue;
            if (p.ox_hi == 0) p.ox_lo = ox;
            p.ox_hi = ox + 1;
        }
        // Blocked chunks are separate planes: with room for several pixels per step a row
        // job takes one chunk (rows stream through the plane); otherwise (a global pool,
        // narrow images) it takes several chunks, and so do channels-last pixels.
        p.per_group = p.blocked && p.ox_hi - p.ox_lo >= max_acc ? 1 : max_acc;
        return p;
    }

    template <dnnl_data_type_t sdt, bool is_max, bool with_ws>
    void run(const exec_ctx_t &ctx, const plan_t &p) const {
        const geom_t &g = p.g;
        const char *src = ctx.host_ptr<const char>(DNNL_ARG_SRC);
        char *dst = ctx.host_ptr<char>(DNNL_ARG_DST);
        char *ws = with_ws ? ctx.host_ptr<char>(DNNL_ARG_WORKSPACE) : nullptr;
        // Blocked: rows of one chunk group run fastest (each streams its planes).
        // Channels-last: chunk groups of one row run fastest (a pixel's channels are adjacent).
        const dim_t nchunks = (g.c + 15) / 16;
        const dim_t ngroups = (nchunks + p.per_group - 1) / p.per_group;
        const dim_t work = g.mb * ngroups * g.out[0] * g.out[1];
        parallel_range(work, [&](dim_t start, dim_t end) {
            for (dim_t i = start; i < end; ++i) {
                dim_t r = i, grp = 0;
                if (!p.blocked) {
                    grp = r % ngroups;
                    r /= ngroups;
                }
                const dim_t oy = r % g.out[1];
                r /= g.out[1];
                const dim_t oz = r % g.out[0];
                r /= g.out[0];
                if (p.blocked) {
                    grp = r % ngroups;
                    r /= ngroups;
                }
                const dim_t c0 = grp * p.per_group * 16;
                const int nv = int(std::min<dim_t>(p.per_group, nchunks - grp * p.per_group));
                pool_row<sdt, is_max, with_ws>(p, src, dst, ws, r, c0, nv, oz, oy);
            }
        }, 1);
    }

    template <dnnl_data_type_t sdt>
    void run_alg(const exec_ctx_t &ctx, const plan_t &p) const {
        if (p.g.alg != dnnl_pooling_max)
            run<sdt, false, false>(ctx, p);
        else if (p.wsz)
            run<sdt, true, true>(ctx, p);
        else
            run<sdt, true, false>(ctx, p);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        if (nelems(pd.arg_md(DNNL_ARG_DST)) == 0) return dnnl_success;
        const plan_t p = make_plan();
        switch (pd.arg_md(DNNL_ARG_SRC).data_type) {
            case dnnl_f32: run_alg<dnnl_f32>(ctx, p); break;
            case dnnl_bf16: run_alg<dnnl_bf16>(ctx, p); break;
            case dnnl_f16: run_alg<dnnl_f16>(ctx, p); break;
            case dnnl_s8: run_alg<dnnl_s8>(ctx, p); break;
            case dnnl_u8: run_alg<dnnl_u8>(ctx, p); break;
            default: run_alg<dnnl_s32>(ctx, p); break;
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t pooling_avx512_fwd_entry() {
    return make_impl_entry<fwd_pd_t>("cpu:pooling:avx512");
}

} // namespace cpu
} // namespace anydnn
