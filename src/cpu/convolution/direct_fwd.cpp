// f32 convolution on the direct microkernel (direct_kernel.hpp): forward, backward data at
// stride 1, deconvolution forward at stride 1 and backward data; 1D/2D/3D, groups whose output
// channels come in 16s, strides, dilation, padding, bias, post-ops.
//
// src: nChw16c (16 channels a step), any plain layout (channels-last with 16-channel steps, else
// one channel a step: nchw is read in place, no staging). dst: nChw16c written by the kernel in
// place, or any plain layout through a per-thread row buffer. Weights live in Oi..16o-style
// blocks ([oc/16][ic/16][taps][16i][16o], or [oc/16][ic][taps][16o] for one-channel steps);
// `any` resolves to that, other layouts are packed into the scratchpad per execution.
// Each output row is cut into tiles of UR pixels; pixels whose kernel window leaves the
// image run one at a time over their valid taps only.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/convolution/direct_kernel.hpp"
#include "cpu/convolution/tap_range.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using conv::direct_geom_t;
using conv::direct_kernel_fn;
using conv::direct_tile_t;

dnnl_format_tag_t blocked_act_tag(int nd) {
    return nd == 3 ? dnnl_aBc16b : nd == 4 ? dnnl_aBcd16b : dnnl_aBcde16b;
}

// Internal weights layout for 16-channel steps (OI..16i16o) or one-channel steps (Oi..16o).
dnnl_format_tag_t wei_tag(int wnd, bool grouped, int vec_ic) {
    if (grouped) {
        if (vec_ic == 16)
            return wnd == 4 ? dnnl_aBCd16c16b : wnd == 5 ? dnnl_aBCde16c16b : dnnl_aBCdef16c16b;
        return wnd == 4 ? dnnl_aBcd16b : wnd == 5 ? dnnl_aBcde16b : dnnl_aBcdef16b;
    }
    if (vec_ic == 16)
        return wnd == 3 ? dnnl_ABc16b16a : wnd == 4 ? dnnl_ABcd16b16a : dnnl_ABcde16b16a;
    return wnd == 3 ? dnnl_Abc16a : wnd == 4 ? dnnl_Abcd16a : dnnl_Abcde16a;
}

// Channels blocked by 16 innermost, pixels dense along w: the kernel's row layout.
bool is_blocked16_act(const memory_desc_t &md) {
    const auto &b = md.blocking;
    return md.format_kind == dnnl_blocked && b.inner_nblks == 1 && b.inner_idxs[0] == 1
            && b.inner_blks[0] == 16 && b.strides[md.ndims - 1] == 16;
}

struct direct_fwd_t;

struct direct_fwd_pd_t : public primitive_desc_impl_t<direct_fwd_pd_t, direct_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return deconv ? "cpu:deconvolution:direct:avx512" : "cpu:convolution:direct:avx512";
    }

    // The forward view: `in` is read as src, `out` written as dst. Convolution backward data
    // and deconvolution forward (stride 1) are forward convolutions with the weights'
    // channel dims swapped and/or the taps flipped, the left padding mirrored.
    bool deconv = false, transpose = false, flip = false;
    int in_arg = DNNL_ARG_SRC, out_arg = DNNL_ARG_DST;
    int nd = 4;
    bool grouped = false, with_bias = false, dst_blocked = false, pack_wei = false;
    dim_t mb = 0, g = 1, ic = 0, oc = 0;
    dim_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          dl[3] = {1, 1, 1}, p[3] = {0, 0, 0}; // d, h, w; dl: dense step (dil + 1)
    int vec_ic = 16;
    memory_desc_t wei_int; // internal weights layout
    post_ops_chain_t post_ops;
    size_t wei_bytes = 0, rowbuf_floats = 0;
    int nthr = 1;

    static status_t init(direct_fwd_pd_t &pd) {
        pd.deconv = std::holds_alternative<deconvolution_desc_t>(pd.desc);
        const convolution_desc_t &d = pd.deconv
                ? static_cast<const convolution_desc_t &>(std::get<deconvolution_desc_t>(pd.desc))
                : std::get<convolution_desc_t>(pd.desc);
        const bool fwd = d.prop_kind == dnnl_forward_training
                || d.prop_kind == dnnl_forward_inference;
        ANYDNN_REQUIRE(fwd || d.prop_kind == dnnl_backward_data, dnnl_unimplemented,
                "backward weights is not handled here");
        // Forward view of each case: conv fwd and deconv bwd_d read the big side with the
        // real strides; conv bwd_d and deconv fwd scatter, which is a forward pass only at
        // stride 1.
        const bool big_to_small = fwd != pd.deconv;
        pd.transpose = !fwd;
        pd.flip = !big_to_small;
        pd.in_arg = fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST;
        pd.out_arg = fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC;
        ANYDNN_REQUIRE(conv::direct_kernels_enabled(), dnnl_unimplemented, "needs AVX-512");
        ANYDNN_REQUIRE(pd.attr.has_default_values((fwd ? attr_skip::post_ops : 0u)
                               | attr_skip::scratchpad | attr_skip::fpmath
                               | attr_skip::deterministic),
                dnnl_unimplemented, "attributes other than post-ops are not supported");
        memory_desc_t src = fwd ? d.src_md : d.diff_dst_md, wei = d.weights_md,
                      bia = fwd ? d.bias_md : zero_md(),
                      dst = fwd ? d.dst_md : d.diff_src_md;
        ANYDNN_REQUIRE(src.data_type == dnnl_f32 && wei.data_type == dnnl_f32
                        && dst.data_type == dnnl_f32
                        && (is_zero_md(bia) || bia.data_type == dnnl_f32),
                dnnl_unimplemented, "f32 only");
        pd.nd = src.ndims;
        pd.grouped = wei.ndims == pd.nd + 1;
        pd.with_bias = !is_zero_md(bia);
        const int w0 = pd.grouped ? 1 : 0, ns = pd.nd - 2;
        pd.mb = src.dims[0];
        pd.g = pd.grouped ? wei.dims[0] : 1;
        pd.oc = wei.dims[w0 + (pd.transpose ? 1 : 0)];
        pd.ic = wei.dims[w0 + (pd.transpose ? 0 : 1)];
        ANYDNN_REQUIRE(pd.oc % 16 == 0, dnnl_unimplemented,
                "output channels per group (%lld) not a multiple of 16", (long long)pd.oc);
        for (int i = 0; i < ns; ++i) {
            const int c = 3 - ns + i;
            pd.in[c] = src.dims[2 + i];
            pd.out[c] = dst.dims[2 + i];
            pd.k[c] = wei.dims[w0 + 2 + i];
            pd.s[c] = d.strides.v[i];
            pd.dl[c] = d.dilates.v[i] + 1;
            pd.p[c] = d.padding_l.v[i];
            if (pd.flip) {
                ANYDNN_REQUIRE(pd.s[c] == 1, dnnl_unimplemented,
                        "backward data of a strided convolution is not handled here");
                pd.p[c] = (pd.k[c] - 1) * pd.dl[c] - pd.p[c];
            }
        }

        // Layouts: 16-channel blocks where the channels allow, else plain src.
        if (src.format_kind == dnnl_format_kind_any)
            ANYDNN_CHECK(md_init_with_tag(src, pd.nd, src.dims, dnnl_f32,
                    pd.ic % 16 == 0 ? blocked_act_tag(pd.nd) : plain_act_tag(pd.nd)));
        if (dst.format_kind == dnnl_format_kind_any)
            ANYDNN_CHECK(md_init_with_tag(dst, pd.nd, dst.dims, dnnl_f32,
                    blocked_act_tag(pd.nd)));
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(src) && !has_runtime_dims_or_strides(dst)
                        && !has_runtime_dims_or_strides(wei),
                dnnl_unimplemented, "runtime dimensions or strides");
        if (is_blocked16_act(src)) {
            ANYDNN_REQUIRE(pd.ic % 16 == 0, dnnl_unimplemented,
                    "blocked src needs input channels per group in 16s");
            pd.vec_ic = 16;
        } else {
            ANYDNN_REQUIRE(is_plain(src), dnnl_unimplemented, "src layout not supported");
            pd.vec_ic = src.blocking.strides[1] == 1 && pd.ic % 16 == 0 ? 16 : 1;
        }
        pd.dst_blocked = is_blocked16_act(dst);
        ANYDNN_REQUIRE(pd.dst_blocked || is_plain(dst), dnnl_unimplemented,
                "dst layout not supported");
        // The internal layout is in forward-view dims; a user layout only where it is the
        // same tensor (no swap, no flip).
        dnnl_dims_t wdims;
        for (int x = 0; x < wei.ndims; ++x)
            wdims[x] = wei.dims[x];
        wdims[w0] = pd.oc;
        wdims[w0 + 1] = pd.ic;
        ANYDNN_CHECK(md_init_with_tag(pd.wei_int, wei.ndims, wdims, dnnl_f32,
                wei_tag(wei.ndims, pd.grouped, pd.vec_ic)));
        if (wei.format_kind == dnnl_format_kind_any) {
            if (pd.transpose || pd.flip)
                ANYDNN_CHECK(md_init_with_tag(wei, wei.ndims, wei.dims, dnnl_f32,
                        pd.grouped ? plain_wei_tag(wei.ndims) : plain_act_tag(wei.ndims)));
            else
                wei = pd.wei_int;
        }
        ANYDNN_REQUIRE(wei.format_kind == dnnl_blocked, dnnl_unimplemented,
                "weights layout not supported");
        pd.pack_wei = pd.transpose || pd.flip || !same_layout(wei, pd.wei_int)
                || wei.offset0 != 0;
        if (pd.with_bias) {
            if (bia.format_kind == dnnl_format_kind_any)
                ANYDNN_CHECK(md_init_with_tag(bia, 1, bia.dims, dnnl_f32, dnnl_a));
            ANYDNN_REQUIRE(is_plain(bia) && bia.blocking.strides[0] == 1, dnnl_unimplemented,
                    "bias must be dense");
        }

        if (fwd) {
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
            pd.post_ops.add_args(pd.args);
        }
        pd.args[pd.in_arg] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (pd.with_bias) pd.args[DNNL_ARG_BIAS] = bia;
        pd.args[pd.out_arg] = dst;

        pd.nthr = max_threads();
        pd.wei_bytes = pd.pack_wei ? size_in_bytes(pd.wei_int) : 0;
        const bool rows_buffered = !pd.dst_blocked || !pd.post_ops.empty();
        pd.rowbuf_floats = rows_buffered ? size_t(4 * 16 * pd.out[2]) : 0;
        pd.scratchpad_size = (pd.wei_bytes + 63) / 64 * 64
                + pd.nthr * (pd.rowbuf_floats * sizeof(float) + 64) + 64;
        return dnnl_success;
    }

    static dnnl_format_tag_t plain_wei_tag(int wnd) {
        return wnd == 4 ? dnnl_abcd : wnd == 5 ? dnnl_abcde : dnnl_abcdef;
    }
    static dnnl_format_tag_t plain_act_tag(int nd) {
        return nd == 3 ? dnnl_abc : nd == 4 ? dnnl_abcd : dnnl_abcde;
    }
};

// Copies user weights of any blocked layout into the internal layout.
void pack_weights(const direct_fwd_pd_t &pd, const memory_desc_t &md, const float *src,
        float *dst) {
    const memory_desc_t &wi = pd.wei_int;
    const int w0 = pd.grouped ? 1 : 0, wnd = md.ndims;
    const dim_t kd = pd.k[0], kh = pd.k[1], kw = pd.k[2];
    const dim_t ntaps = kd * kh * kw;
    const bool plain = is_plain(md);
    parallel_range(pd.g * pd.oc, [&](dim_t start, dim_t end) {
        for (dim_t go = start; go < end; ++go) {
            const dim_t gi = go / pd.oc, o = go % pd.oc;
            for (dim_t i = 0; i < pd.ic; ++i)
                for (dim_t t = 0; t < ntaps; ++t) {
                    const dim_t tk[3] = {t / (kh * kw), t / kw % kh, t % kw};
                    // User position of forward-view element (gi, o, i, taps).
                    dim_t pos[max_ndims] = {};
                    if (pd.grouped) pos[0] = gi;
                    pos[w0 + (pd.transpose ? 1 : 0)] = o;
                    pos[w0 + (pd.transpose ? 0 : 1)] = i;
                    for (int x = 0; x < wnd - w0 - 2; ++x) {
                        const int c = 3 - (wnd - w0 - 2) + x;
                        pos[w0 + 2 + x] = pd.flip ? pd.k[c] - 1 - tk[c] : tk[c];
                    }
                    dim_t from = md.offset0;
                    if (plain)
                        for (int x = 0; x < wnd; ++x)
                            from += pos[x] * md.blocking.strides[x];
                    else
                        from = off_logical(md, pos);
                    // Internal layout: outer strides per dim, then [16i][16o] or [16o].
                    const dim_t *st = wi.blocking.strides;
                    dim_t to = (pd.grouped ? gi * st[0] : 0) + o / 16 * st[w0]
                            + i / pd.vec_ic * st[w0 + 1] + (i % pd.vec_ic) * 16 + o % 16;
                    for (int x = 0; x < wnd - w0 - 2; ++x)
                        to += tk[3 - (wnd - w0 - 2) + x] * st[w0 + 2 + x];
                    dst[to] = src[from];
                }
        }
    }, 16);
}

struct direct_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const direct_fwd_pd_t &>(this->pd());
        const memory_desc_t &src_md = pd.arg_md(pd.in_arg),
                            &wei_md = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &dst_md = pd.arg_md(pd.out_arg);
        if (nelems(dst_md) == 0) return dnnl_success;
        float *dst = ctx.host_ptr<float>(pd.out_arg);
        if (nelems(src_md) == 0 || pd.ic == 0) {
            // Nothing to accumulate: every output is its bias (then post-ops) or zero.
            return zero_input(pd, ctx, dst_md, dst);
        }
        const float *src = ctx.host_ptr<const float>(pd.in_arg);
        const float *wei = ctx.host_ptr<const float>(DNNL_ARG_WEIGHTS);
        const float *bias = pd.with_bias ? ctx.host_ptr<const float>(DNNL_ARG_BIAS) : nullptr;
        char *scratch = static_cast<char *>(ctx.scratchpad);
        if (bias) bias += pd.arg_md(DNNL_ARG_BIAS).offset0;
        if (pd.pack_wei) {
            float *w = reinterpret_cast<float *>(scratch);
            pack_weights(pd, wei_md, wei, w);
            wei = w;
        }
        float *rowbufs = reinterpret_cast<float *>(scratch + (pd.wei_bytes + 63) / 64 * 64);
        const auto po_args = pd.post_ops.bind(ctx);
        run(pd, ctx, src_md, dst_md, src, wei, bias, dst, rowbufs, po_args);
        return dnnl_success;
    }

    // Degenerate input (zero channels or spatial size): dst = bias, through the post-ops.
    static status_t zero_input(const direct_fwd_pd_t &pd, const exec_ctx_t &ctx,
            const memory_desc_t &md, float *dst) {
        const float *bias = pd.with_bias ? ctx.host_ptr<const float>(DNNL_ARG_BIAS) : nullptr;
        const auto po_args = pd.post_ops.bind(ctx);
        const dim_t n = nelems(md);
        dim_t pos[max_ndims];
        for (dim_t li = 0; li < n; ++li) {
            dim_t rem = li;
            for (int x = md.ndims - 1; x >= 0; --x) {
                pos[x] = rem % md.dims[x];
                rem /= md.dims[x];
            }
            float v = bias ? bias[pd.arg_md(DNNL_ARG_BIAS).offset0 + pos[1]] : 0.f;
            float *d = dst + off_logical(md, pos);
            pd.post_ops.apply(po_args, &v, 1, pos, 1, d, 1);
            *d = v;
        }
        if (pd.dst_blocked) zero_padding(md, dst);
        return dnnl_success;
    }

    struct plan_t {
        direct_geom_t geom;
        dim_t src_sn, src_sd, src_sh, src_sw; // src strides (floats) of n, d, h, w
        dim_t n_ocg; // output-channel groups of up to 4 blocks per conv group
        dim_t nocb;
        dim_t ow_lo, ow_hi; // pixels whose whole kernel window is inside the image
        // > 0: a 1x1 unpadded stride-1 convolution on dense planes written in place, whose
        // planes are read as one long row (no short tile at every row's end), cut into runs
        // of this many pixels.
        dim_t flat_run = 0;
    };

    static plan_t make_plan(const direct_fwd_pd_t &pd, const memory_desc_t &src_md,
            const memory_desc_t &dst_md) {
        plan_t pl;
        const dim_t *ss = src_md.blocking.strides;
        const int nd = pd.nd;
        pl.src_sn = ss[0];
        pl.src_sd = nd == 5 ? ss[2] : 0;
        pl.src_sh = nd >= 4 ? ss[nd - 2] : 0;
        pl.src_sw = ss[nd - 1];
        const dim_t *ws = pd.wei_int.blocking.strides;
        const int w0 = pd.grouped ? 1 : 0, wnd = pd.wei_int.ndims;
        direct_geom_t &q = pl.geom;
        q.vec_ic = pd.vec_ic;
        q.n_steps = pd.ic / pd.vec_ic;
        q.src_step = is_blocked16_act(src_md) ? ss[1] : pd.vec_ic * ss[1];
        q.wei_step = ws[w0 + 1];
        q.src_kd = pd.dl[0] * pl.src_sd;
        q.src_kh = pd.dl[1] * pl.src_sh;
        q.src_kw = pd.dl[2] * pl.src_sw;
        q.wei_kd = nd == 5 ? ws[wnd - 3] : 0;
        q.wei_kh = nd >= 4 ? ws[wnd - 2] : 0;
        q.wei_kw = ws[wnd - 1];
        q.src_pix = pd.s[2] * pl.src_sw;
        q.wei_ocb = ws[w0];
        q.dst_ocb = pd.dst_blocked && pd.post_ops.empty() ? dst_md.blocking.strides[1]
                                                          : 16 * pd.out[2];
        pl.nocb = pd.oc / 16;
        pl.n_ocg = (pl.nocb + 3) / 4;
        // Interior: ow * s - p >= 0 and ow * s - p + (k - 1) * dl <= in - 1.
        const dim_t sw = pd.s[2], pw = pd.p[2], reach = (pd.k[2] - 1) * pd.dl[2];
        pl.ow_lo = pw <= 0 ? 0 : std::min(pd.out[2], (pw + sw - 1) / sw);
        const dim_t lim = pd.in[2] - 1 + pw - reach;
        pl.ow_hi = lim < 0 ? 0 : std::min(pd.out[2], lim / sw + 1);
        if (pl.ow_hi < pl.ow_lo) pl.ow_hi = pl.ow_lo;
        bool flat = pd.dst_blocked && pd.post_ops.empty();
        const dim_t *ds = dst_md.blocking.strides;
        for (int c = 0; c < 3; ++c)
            flat = flat && pd.k[c] == 1 && pd.s[c] == 1 && pd.p[c] == 0 && pd.in[c] == pd.out[c];
        if (nd >= 4)
            flat = flat && pl.src_sh == pd.in[2] * pl.src_sw && ds[nd - 2] == pd.out[2] * 16;
        if (nd == 5)
            flat = flat && pl.src_sd == pd.in[1] * pl.src_sh && ds[2] == pd.out[1] * ds[3];
        // A multiple of every tile width (12, 8, 6), short enough that threads taking runs
        // in turn end within a run of each other.
        if (flat) pl.flat_run = 48;
        return pl;
    }

    // Blocks [ocb0, ocb0 + nb) of group gi, from the ocg-th split of nocb blocks.
    static void ocg_range(const plan_t &pl, dim_t ocg, dim_t &ocb0, int &nb) {
        const dim_t base = pl.nocb / pl.n_ocg, extra = pl.nocb % pl.n_ocg;
        ocb0 = ocg * base + std::min(ocg, extra);
        nb = static_cast<int>(base + (ocg < extra ? 1 : 0));
    }

    static void run(const direct_fwd_pd_t &pd, const exec_ctx_t &ctx,
            const memory_desc_t &src_md, const memory_desc_t &dst_md, const float *src,
            const float *wei, const float *bias, float *dst, float *rowbufs,
            const post_ops_chain_t::exec_args_t &po_args) {
        (void)ctx;
        const plan_t pl = make_plan(pd, src_md, dst_md);
        const direct_geom_t &q = pl.geom;
        const dim_t plane = pd.out[0] * pd.out[1] * pd.out[2];
        const bool flat = pl.flat_run > 0;
        // Flat: one "row" is a run of pixels of the image's planes.
        const dim_t OD = flat ? 1 : pd.out[0],
                    OH = flat ? (plane + pl.flat_run - 1) / pl.flat_run : pd.out[1],
                    OW = flat ? pl.flat_run : pd.out[2];
        const dim_t nrows = pd.mb * pd.g * pl.n_ocg * OD * OH;
        const bool buffered = pd.rowbuf_floats > 0;
        const int w0 = pd.grouped ? 1 : 0;
        const dim_t *ws = pd.wei_int.blocking.strides;
        // Rows are handed out in shrinking runs of consecutive rows (a fraction of what is
        // left): consecutive rows are contiguous memory, which the hardware prefetchers
        // stream; on a shared machine a thread that loses its core leaves the rest to others.
        std::atomic<dim_t> next_row {0};
        const dim_t nthr = pd.nthr;
        auto claim = [&](dim_t &end) {
            dim_t cur = next_row.load(std::memory_order_relaxed);
            for (;;) {
                if (cur >= nrows) return nrows;
                const dim_t take = std::max<dim_t>(1, (nrows - cur) / (2 * nthr));
                if (next_row.compare_exchange_weak(cur, cur + take)) {
                    end = cur + take;
                    return cur;
                }
            }
        };
        parallel(pd.nthr, [&](int ithr, int) {
            float *rb = rowbufs + ithr * (pd.rowbuf_floats + 16);
            dim_t run_end = 0;
            for (dim_t r = claim(run_end); r < nrows;
                    r = r + 1 < run_end ? r + 1 : claim(run_end)) {
                dim_t rem = r;
                const dim_t oh = rem % OH;
                rem /= OH;
                const dim_t od = rem % OD;
                rem /= OD;
                const dim_t ocg = rem % pl.n_ocg;
                rem /= pl.n_ocg;
                const dim_t gi = rem % pd.g, n = rem / pd.g;
                dim_t ocb0;
                int nb;
                ocg_range(pl, ocg, ocb0, nb);
                const dim_t oc0 = gi * pd.oc + ocb0 * 16; // first output channel

                // Flat: pixels [f0, f0 + row_end) of the planes; else row oh, its interior
                // tiles ending at row_end.
                const dim_t f0 = flat ? oh * pl.flat_run : 0;
                const dim_t row_end = flat ? std::min(pl.flat_run, plane - f0) : pl.ow_hi;
                const dim_t row_w = flat ? row_end : OW;
                dim_t kd_lo, kd_hi, kh_lo, kh_hi;
                const dim_t id0 = od * pd.s[0] - pd.p[0],
                            ih0 = flat ? 0 : oh * pd.s[1] - pd.p[1];
                conv::tap_range(id0, pd.dl[0], pd.k[0], pd.in[0], kd_lo, kd_hi);
                conv::tap_range(ih0, pd.dl[1], pd.k[1], pd.in[1], kh_lo, kh_hi);

                dim_t cpos[max_ndims] = {0, gi * pd.ic};
                const dim_t src_c = off_logical(src_md, cpos) - src_md.offset0;
                const bool taps = kd_hi > kd_lo && kh_hi > kh_lo;
                const float *srow = src + src_md.offset0 + n * pl.src_sn + src_c
                        + f0 * pl.src_sw
                        + (taps ? (id0 + kd_lo * pd.dl[0]) * pl.src_sd
                                        + (ih0 + kh_lo * pd.dl[1]) * pl.src_sh
                                : 0);
                const float *wrow = wei + (pd.grouped ? gi * ws[0] : 0) + ocb0 * ws[w0]
                        + kd_lo * q.wei_kd + kh_lo * q.wei_kh;
                float *drow;
                if (buffered)
                    drow = rb;
                else {
                    dim_t pos[max_ndims] = {n, oc0};
                    if (pd.nd == 5) pos[2] = od;
                    if (pd.nd >= 4) pos[pd.nd - 2] = flat ? 0 : oh;
                    drow = dst + off_logical(dst_md, pos) + f0 * 16;
                }
                direct_tile_t t;
                t.nkd = kd_hi - kd_lo;
                t.nkh = kh_hi - kh_lo;
                t.bias = bias ? bias + oc0 : nullptr;
                auto edge_pixel = [&](dim_t ow) {
                    dim_t kw_lo, kw_hi;
                    const dim_t iw0 = ow * pd.s[2] - pd.p[2];
                    conv::tap_range(iw0, pd.dl[2], pd.k[2], pd.in[2], kw_lo, kw_hi);
                    t.nkw = kw_hi - kw_lo;
                    t.src = srow + (kw_hi > kw_lo ? (iw0 + kw_lo * pd.dl[2]) * pl.src_sw : 0);
                    t.wei = wrow + kw_lo * q.wei_kw;
                    t.dst = drow + ow * 16;
                    conv::direct_kernel(1, nb, pd.vec_ic, q.src_pix)(q, t);
                };
                for (dim_t ow = 0; ow < pl.ow_lo; ++ow)
                    edge_pixel(ow);
                const int ur_max = conv::direct_max_ur(nb);
                const direct_kernel_fn full
                        = conv::direct_kernel(ur_max, nb, pd.vec_ic, q.src_pix);
                t.nkw = pd.k[2];
                t.wei = wrow;
                for (dim_t ow = pl.ow_lo; ow < row_end; ow += ur_max) {
                    const int ur = static_cast<int>(std::min<dim_t>(ur_max, row_end - ow));
                    t.src = srow + (ow * pd.s[2] - pd.p[2]) * pl.src_sw;
                    t.dst = drow + ow * 16;
                    (ur == ur_max ? full : conv::direct_kernel(ur, nb, pd.vec_ic, q.src_pix))(
                            q, t);
                }
                for (dim_t ow = row_end; ow < row_w; ++ow)
                    edge_pixel(ow);
                if (buffered)
                    write_row(pd, dst_md, dst, rb, n, oc0, nb, od, oh, po_args);
            }
        });
    }

    // Row buffer [nb][OW][16] -> dst (blocked or plain) through the post-op chain.
    static void write_row(const direct_fwd_pd_t &pd, const memory_desc_t &md, float *dst,
            float *rb, dim_t n, dim_t oc0, int nb, dim_t od, dim_t oh,
            const post_ops_chain_t::exec_args_t &po_args) {
        const dim_t OW = pd.out[2];
        const int nd = pd.nd;
        dim_t pos[max_ndims] = {n, oc0};
        if (nd == 5) pos[2] = od;
        if (nd >= 4) pos[nd - 2] = oh;
        const auto &po = pd.post_ops;
        if (pd.dst_blocked) {
            for (int j = 0; j < nb; ++j)
                for (dim_t ow = 0; ow < OW; ++ow) {
                    pos[1] = oc0 + 16 * j;
                    pos[nd - 1] = ow;
                    float *d = dst + off_logical(md, pos);
                    float *v = rb + (j * OW + ow) * 16;
                    po.apply(po_args, v, 16, pos, 1, d, 1);
                    std::memcpy(d, v, 16 * sizeof(float));
                }
            return;
        }
        const dim_t sw = md.blocking.strides[nd - 1];
        float vals[1024];
        for (int c = 0; c < nb * 16; ++c) {
            pos[1] = oc0 + c;
            pos[nd - 1] = 0;
            float *d = dst + off_logical(md, pos);
            const float *col = rb + (c / 16) * OW * 16 + c % 16;
            for (dim_t w0 = 0; w0 < OW; w0 += 1024) {
                const dim_t len = std::min<dim_t>(1024, OW - w0);
                for (dim_t x = 0; x < len; ++x)
                    vals[x] = col[(w0 + x) * 16];
                pos[nd - 1] = w0;
                if (!po.empty()) po.apply(po_args, vals, len, pos, nd - 1, d + w0 * sw, sw);
                if (sw == 1)
                    std::memcpy(d + w0, vals, len * sizeof(float));
                else
                    for (dim_t x = 0; x < len; ++x)
                        d[(w0 + x) * sw] = vals[x];
            }
        }
    }
};

} // namespace

impl_entry_t convolution_direct_entry() {
    return make_impl_entry<direct_fwd_pd_t>("cpu:convolution:direct:avx512");
}
impl_entry_t deconvolution_direct_entry() {
    return make_impl_entry<direct_fwd_pd_t>("cpu:deconvolution:direct:avx512");
}

} // namespace cpu
} // namespace anydnn
