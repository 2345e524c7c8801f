// AVX-512 pooling backward over 16 channels at a time, for layouts whose channels are
// innermost: nChw16c-style blocks (aBx16b) or channels-last (axb); f32/bf16/f16, threaded
// over (minibatch, channel chunk), each image accumulated in f32 scratch.
#include <immintrin.h>

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <cstring>

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

impl_entry_t pooling_avx512_bwd_entry() {
    return make_impl_entry<bwd_pd_t>("cpu:pooling:avx512");
}

} // namespace cpu
} // namespace anydnn
