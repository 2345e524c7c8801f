// AVX-512 pooling over 16 channels at a time, for layouts whose channels are innermost:
// nChw16c-style blocks (aBx16b) or channels-last (axb). Forward max/avg (any supported type,
// workspace in training), backward f32/bf16/f16 threaded over (minibatch, channel chunk).
#include <immintrin.h>

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <cstring>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/layout.hpp"
#include "cpu/pooling/common.hpp"
#include "cpu/simd16.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace pooling;

// Element offsets in a channels-innermost layout: (n, chunk of 16 channels from c0, z, y, x).
struct cv_layout_t {
    dim_t off0 = 0, sn = 0, sc = 0, sz = 0, sy = 0, sx = 0;
    dim_t blk = 1; // 16: aBx16b (sc steps a block), 1: axb (sc is 1)
    dim_t at(dim_t n, dim_t c0, dim_t z, dim_t y, dim_t x) const {
        return off0 + n * sn + (c0 / blk) * sc + z * sz + y * sy + x * sx;
    }
};

// Whether md keeps 16 channels contiguous at every chunk start, and its strides.
bool cv_layout(const memory_desc_t &md, cv_layout_t &l) {
    if (md.format_kind != dnnl_blocked || has_runtime_dims_or_strides(md)) return false;
    const auto &b = md.blocking;
    const int nd = md.ndims;
    if (b.inner_nblks == 1 && b.inner_idxs[0] == 1 && b.inner_blks[0] == 16) {
        l.blk = 16;
    } else if (b.inner_nblks == 0 && b.strides[1] == 1) {
        l.blk = 1;
    } else {
        return false;
    }
    // Only the channel block is inner: no other dim may have stride 1 inside it.
    for (int d = 0; d < nd; ++d)
        if (d != 1 && md.dims[d] > 1 && b.strides[d] < (l.blk == 16 ? 16 : md.dims[1]))
            return false;
    l.off0 = md.offset0;
    l.sn = b.strides[0];
    l.sc = b.strides[1];
    const dim_t sp[3] = {nd >= 5 ? b.strides[nd - 3] : 0, nd >= 4 ? b.strides[nd - 2] : 0,
            b.strides[nd - 1]};
    l.sz = sp[0];
    l.sy = sp[1];
    l.sx = sp[2];
    return true;
}

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

// Channel vectors one call keeps in registers: independent max/sum chains hide the load
// latency, and channels-last rows are read a whole pixel (up to 64 channels) at a time.
constexpr int max_vecs = 4;

// One output row (fixed n, z, y) of `nv` vectors of 16 channels from c0 (nv is 1 for a
// blocked layout, whose chunks are separate planes); m[v]: the lanes of vector v holding data.
template <dnnl_data_type_t sdt>
ANYDNN_AVX512 void fwd_row(const fwd_pd_t &pd, const geom_t &g, const char *src, char *dst,
        char *ws, dim_t n, dim_t c0, dim_t oz, dim_t oy, int nv, const __mmask16 *m) {
    const dnnl_data_type_t ddt = pd.arg_md(DNNL_ARG_DST).data_type;
    const dnnl_data_type_t wdt = ws ? pd.arg_md(DNNL_ARG_WORKSPACE).data_type : dnnl_u8;
    const size_t ss = data_type_size(sdt), dsz = data_type_size(ddt);
    const size_t wsz = data_type_size(wdt);
    const bool blocked = pd.dst_l.blk == 16;
    dim_t lz, hz, ly, hy;
    g.taps(0, oz, lz, hz);
    g.taps(1, oy, ly, hy);
    const auto &sl = pd.src_l;
    const dim_t zx = g.dl[0] + 1, yx = g.dl[1] + 1, xx = g.dl[2] + 1;
    const dim_t iz0 = oz * g.s[0] - g.pl[0], iy0 = oy * g.s[1] - g.pl[1];
    const char *base = src + sl.at(n, c0, 0, 0, 0) * ss;
    const bool is_max = g.alg == dnnl_pooling_max;
    for (dim_t ox = 0; ox < g.out[2]; ++ox) {
        dim_t lx, hx;
        g.taps(2, ox, lx, hx);
        const dim_t ix0 = ox * g.s[2] - g.pl[2];
        __m512 acc[max_vecs];
        __m512i arg[max_vecs];
        for (int v = 0; v < max_vecs; ++v) {
            acc[v] = is_max ? _mm512_set1_ps(-INFINITY) : _mm512_setzero_ps();
            arg[v] = _mm512_setzero_si512();
        }
        const dim_t count = (hz - lz) * (hy - ly) * (hx - lx);
        for (dim_t kz = lz; kz < hz; ++kz)
            for (dim_t ky = ly; ky < hy; ++ky) {
                const char *row
                        = base + ((iz0 + kz * zx) * sl.sz + (iy0 + ky * yx) * sl.sy) * ss;
                const int kbase = int((kz * g.k[1] + ky) * g.k[2]);
                for (dim_t kx = lx; kx < hx; ++kx) {
                    const char *px = row + (ix0 + kx * xx) * sl.sx * ss;
                    for (int v = 0; v < nv; ++v) {
                        const __m512 x = simd16::load<sdt>(px + v * 16 * ss, m[v]);
                        if (is_max) {
                            const __mmask16 gt = _mm512_cmp_ps_mask(x, acc[v], _CMP_GT_OQ);
                            acc[v] = _mm512_mask_mov_ps(acc[v], gt, x);
                            if (ws)
                                arg[v] = _mm512_mask_mov_epi32(
                                        arg[v], gt, _mm512_set1_epi32(kbase + int(kx)));
                        } else {
                            acc[v] = _mm512_add_ps(acc[v], x);
                        }
                    }
                }
            }
        // Lanes whose every tap was -inf keep arg 0 like the first tap.
        const dim_t div = g.alg == dnnl_pooling_avg_include_padding ? g.ksize() : count;
        for (int v = 0; v < nv; ++v) {
            __m512 r = acc[v];
            if (is_max && count == 0) r = _mm512_setzero_ps();
            if (!is_max && div > 0) r = _mm512_div_ps(r, _mm512_set1_ps(float(div)));
            r = _mm512_maskz_mov_ps(m[v], r); // padded channels of a block stay zero
            const __mmask16 mstore = blocked ? __mmask16(0xffff) : m[v];
            const dim_t c = c0 + 16 * v;
            simd16::store_dt(ddt, dst + pd.dst_l.at(n, c, oz, oy, ox) * dsz, r, mstore);
            if (ws) {
                char *w = ws + pd.ws_l.at(n, c, oz, oy, ox) * wsz;
                const __m512i a = _mm512_maskz_mov_epi32(m[v], arg[v]);
                if (wdt == dnnl_u8)
                    _mm512_mask_cvtepi32_storeu_epi8(w, mstore, a);
                else
                    _mm512_mask_storeu_epi32(w, mstore, a);
            }
        }
    }
}

struct fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    template <dnnl_data_type_t sdt>
    void run(const exec_ctx_t &ctx, const geom_t &g) const {
        const auto &pd = static_cast<const fwd_pd_t &>(this->pd());
        const char *src = ctx.host_ptr<const char>(DNNL_ARG_SRC);
        char *dst = ctx.host_ptr<char>(DNNL_ARG_DST);
        char *ws = pd.args.count(DNNL_ARG_WORKSPACE) ? ctx.host_ptr<char>(DNNL_ARG_WORKSPACE)
                                                      : nullptr;
        // Blocked: a chunk's image is contiguous, so one chunk per call and rows run fastest.
        // Channels-last: a call takes up to max_vecs chunks of one pixel, groups fastest.
        const bool channels_last = pd.src_l.blk == 1;
        const dim_t nchunks = (g.c + 15) / 16;
        const int per_group = channels_last ? max_vecs : 1;
        const dim_t ngroups = (nchunks + per_group - 1) / per_group;
        const dim_t work = g.mb * ngroups * g.out[0] * g.out[1];
        parallel_range(work, [&](dim_t start, dim_t end) {
            for (dim_t i = start; i < end; ++i) {
                dim_t r = i, grp = 0;
                if (channels_last) {
                    grp = r % ngroups;
                    r /= ngroups;
                }
                const dim_t oy = r % g.out[1];
                r /= g.out[1];
                const dim_t oz = r % g.out[0];
                r /= g.out[0];
                if (!channels_last) {
                    grp = r % ngroups;
                    r /= ngroups;
                }
                const dim_t n = r, c0 = grp * per_group * 16;
                const int nv = int(std::min<dim_t>(per_group, nchunks - grp * per_group));
                __mmask16 m[max_vecs];
                for (int v = 0; v < nv; ++v) {
                    const dim_t left = std::min<dim_t>(16, g.c - c0 - 16 * v);
                    m[v] = __mmask16((1u << left) - 1);
                }
                fwd_row<sdt>(pd, g, src, dst, ws, n, c0, oz, oy, nv, m);
            }
        }, 1);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        const geom_t g = make_geom(desc_of(pd));
        if (nelems(pd.arg_md(DNNL_ARG_DST)) == 0) return dnnl_success;
        switch (pd.arg_md(DNNL_ARG_SRC).data_type) {
            case dnnl_f32: run<dnnl_f32>(ctx, g); break;
            case dnnl_bf16: run<dnnl_bf16>(ctx, g); break;
            case dnnl_f16: run<dnnl_f16>(ctx, g); break;
            case dnnl_s8: run<dnnl_s8>(ctx, g); break;
            case dnnl_u8: run<dnnl_u8>(ctx, g); break;
            default: run<dnnl_s32>(ctx, g); break;
        }
        return dnnl_success;
    }
};

struct bwd_t;

struct bwd_pd_t : public primitive_desc_impl_t<bwd_pd_t, bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:pooling:avx512"; }
    cv_layout_t ds_l, dd_l, ws_l;
    dim_t plane = 0; // f32 accumulator elements per thread (16 channels of one src image)

    static status_t init(bwd_pd_t &pd) {
        ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
                "needs avx512_core");
        ANYDNN_REQUIRE(!is_fwd(desc_of(pd)), dnnl_unimplemented, "not a backward pooling");
        ANYDNN_CHECK(check_attr(pd.attr, false));
        ANYDNN_CHECK(resolve(pd));
        ANYDNN_REQUIRE(cv_layout(pd.args[DNNL_ARG_DIFF_SRC], pd.ds_l)
                        && cv_layout(pd.args[DNNL_ARG_DIFF_DST], pd.dd_l),
                dnnl_unimplemented, "diff_src and diff_dst must be nCx16c or channels-last");
        ANYDNN_REQUIRE(pd.ds_l.blk == pd.dd_l.blk, dnnl_unimplemented,
                "diff_src and diff_dst must both be blocked or both channels-last");
        auto it = pd.args.find(DNNL_ARG_WORKSPACE);
        if (it != pd.args.end())
            ANYDNN_REQUIRE(cv_layout(it->second, pd.ws_l) && pd.ws_l.blk == pd.dd_l.blk,
                    dnnl_unimplemented, "workspace layout");
        const geom_t g = make_geom(desc_of(pd));
        pd.plane = g.in[0] * g.in[1] * g.in[2] * 16;
        pd.scratchpad_size = sizeof(float) * pd.plane * max_threads();
        return dnnl_success;
    }
};

template <dnnl_data_type_t gdt>
ANYDNN_AVX512 void bwd_image(const bwd_pd_t &pd, const geom_t &g, const char *dd,
        const char *ws, char *ds, float *acc, dim_t n, dim_t c0, __mmask16 m) {
    const dnnl_data_type_t odt = pd.arg_md(DNNL_ARG_DIFF_SRC).data_type;
    const dnnl_data_type_t wdt = ws ? pd.arg_md(DNNL_ARG_WORKSPACE).data_type : dnnl_u8;
    const size_t gs = data_type_size(gdt), os = data_type_size(odt), wsz = data_type_size(wdt);
    const bool blocked = pd.ds_l.blk == 16;
    std::memset(acc, 0, sizeof(float) * pd.plane);
    const dim_t zx = g.dl[0] + 1, yx = g.dl[1] + 1, xx = g.dl[2] + 1;
    for (dim_t oz = 0; oz < g.out[0]; ++oz) {
        dim_t lz, hz;
        g.taps(0, oz, lz, hz);
        for (dim_t oy = 0; oy < g.out[1]; ++oy) {
            dim_t ly, hy;
            g.taps(1, oy, ly, hy);
            for (dim_t ox = 0; ox < g.out[2]; ++ox) {
                dim_t lx, hx;
                g.taps(2, ox, lx, hx);
                const dim_t count = (hz - lz) * (hy - ly) * (hx - lx);
                if (count == 0) continue;
                __m512 gv = simd16::load<gdt>(dd + pd.dd_l.at(n, c0, oz, oy, ox) * gs, m);
                __m512i arg = _mm512_setzero_si512();
                if (g.alg == dnnl_pooling_max) {
                    const char *w = ws + pd.ws_l.at(n, c0, oz, oy, ox) * wsz;
                    arg = wdt == dnnl_u8 ? _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, w))
                                         : _mm512_maskz_loadu_epi32(m, w);
                } else {
                    const dim_t div
                            = g.alg == dnnl_pooling_avg_include_padding ? g.ksize() : count;
                    gv = _mm512_div_ps(gv, _mm512_set1_ps(float(div)));
                }
                for (dim_t kz = lz; kz < hz; ++kz)
                    for (dim_t ky = ly; ky < hy; ++ky)
                        for (dim_t kx = lx; kx < hx; ++kx) {
                            const dim_t iz = oz * g.s[0] - g.pl[0] + kz * zx;
                            const dim_t iy = oy * g.s[1] - g.pl[1] + ky * yx;
                            const dim_t ix = ox * g.s[2] - g.pl[2] + kx * xx;
                            float *a = acc + ((iz * g.in[1] + iy) * g.in[2] + ix) * 16;
                            __m512 add = gv;
                            if (g.alg == dnnl_pooling_max) {
                                const int k = int((kz * g.k[1] + ky) * g.k[2] + kx);
                                add = _mm512_maskz_mov_ps(
                                        _mm512_cmpeq_epi32_mask(arg, _mm512_set1_epi32(k)),
                                        gv);
                            }
                            _mm512_storeu_ps(a, _mm512_add_ps(_mm512_loadu_ps(a), add));
                        }
            }
        }
    }
    const __mmask16 mstore = blocked ? __mmask16(0xffff) : m;
    for (dim_t iz = 0; iz < g.in[0]; ++iz)
        for (dim_t iy = 0; iy < g.in[1]; ++iy)
            for (dim_t ix = 0; ix < g.in[2]; ++ix) {
                const __m512 v = _mm512_maskz_loadu_ps(
                        m, acc + ((iz * g.in[1] + iy) * g.in[2] + ix) * 16);
                simd16::store_dt(odt, ds + pd.ds_l.at(n, c0, iz, iy, ix) * os, v, mstore);
            }
}

struct bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    template <dnnl_data_type_t gdt>
    void run(const exec_ctx_t &ctx, const geom_t &g) const {
        const auto &pd = static_cast<const bwd_pd_t &>(this->pd());
        const char *dd = ctx.host_ptr<const char>(DNNL_ARG_DIFF_DST);
        char *ds = ctx.host_ptr<char>(DNNL_ARG_DIFF_SRC);
        const char *ws = pd.args.count(DNNL_ARG_WORKSPACE)
                ? ctx.host_ptr<const char>(DNNL_ARG_WORKSPACE)
                : nullptr;
        float *scratch = static_cast<float *>(ctx.scratchpad);
        const dim_t nchunks = (g.c + 15) / 16;
        parallel(max_threads(), [&](int ithr, int nthr) {
            dim_t start, end;
            balance211(g.mb * nchunks, nthr, ithr, start, end);
            for (dim_t i = start; i < end; ++i) {
                const dim_t ch = i % nchunks, n = i / nchunks;
                const dim_t c0 = ch * 16, left = std::min<dim_t>(16, g.c - c0);
                bwd_image<gdt>(pd, g, dd, ws, ds, scratch + ithr * pd.plane, n, c0,
                        __mmask16((1u << left) - 1));
            }
        });
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        const geom_t g = make_geom(desc_of(pd));
        if (nelems(pd.arg_md(DNNL_ARG_DIFF_SRC)) == 0) return dnnl_success;
        switch (pd.arg_md(DNNL_ARG_DIFF_DST).data_type) {
            case dnnl_bf16: run<dnnl_bf16>(ctx, g); break;
            case dnnl_f16: run<dnnl_f16>(ctx, g); break;
            default: run<dnnl_f32>(ctx, g); break;
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t pooling_avx512_fwd_entry() {
    return make_impl_entry<fwd_pd_t>("cpu:pooling:avx512");
}
impl_entry_t pooling_avx512_bwd_entry() {
    return make_impl_entry<bwd_pd_t>("cpu:pooling:avx512");
}

} // namespace cpu
} // namespace anydnn
