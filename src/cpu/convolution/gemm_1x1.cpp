// f32 forward 1x1 convolution (stride 1, no padding) on plain channels-first tensors as one
// GEMM per image and group on the shared GEMM's tile kernels: dst[oc][p] = W[oc][ic] *
// src[ic][p], the spatial positions p of a channel being contiguous, so src is read in place
// as the GEMM's B (no packing pass over the largest tensor). Bias and post-ops (no sum) run on
// each finished panel of dst. Channels-first 1x1 is where the direct kernel's one-channel
// steps walk too many planes at once.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

// Plain, channels-first, spatial dims dense and in order (one contiguous plane per channel).
bool is_ncx_dense_spatial(const memory_desc_t &md) {
    if (!is_plain(md)) return false;
    dim_t expect = 1;
    for (int d = md.ndims - 1; d >= 2; --d) {
        if (md.dims[d] != 1 && md.blocking.strides[d] != expect) return false;
        expect *= md.dims[d];
    }
    return md.blocking.strides[1] >= expect || md.dims[1] == 1;
}

struct gemm_1x1_t;

struct gemm_1x1_pd_t : public primitive_desc_impl_t<gemm_1x1_pd_t, gemm_1x1_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:convolution:gemm_1x1"; }

    bool grouped = false, with_bias = false, pack_wei = false;
    dim_t mb = 0, g = 1, ic = 0, oc = 0, spatial = 1;
    post_ops_chain_t post_ops;
    // Asked once here: the ISA query takes a lock.
    const ukernels::detail::tile_kernels_t *tiles = nullptr;

    static status_t init(gemm_1x1_pd_t &pd) {
        ANYDNN_REQUIRE(std::holds_alternative<convolution_desc_t>(pd.desc), dnnl_unimplemented,
                "deconvolution is not handled here");
        const convolution_desc_t &d = std::get<convolution_desc_t>(pd.desc);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_forward_training
                        || d.prop_kind == dnnl_forward_inference,
                dnnl_unimplemented, "forward only");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::post_ops | attr_skip::scratchpad
                               | attr_skip::fpmath | attr_skip::deterministic),
                dnnl_unimplemented, "attributes other than post-ops are not supported");
        memory_desc_t src = d.src_md, wei = d.weights_md, bia = d.bias_md, dst = d.dst_md;
        ANYDNN_REQUIRE(src.data_type == dnnl_f32 && wei.data_type == dnnl_f32
                        && dst.data_type == dnnl_f32
                        && (is_zero_md(bia) || bia.data_type == dnnl_f32),
                dnnl_unimplemented, "f32 only");
        const int nd = src.ndims;
        pd.grouped = wei.ndims == nd + 1;
        const int w0 = pd.grouped ? 1 : 0;
        for (int i = 0; i < nd - 2; ++i)
            ANYDNN_REQUIRE(wei.dims[w0 + 2 + i] == 1 && d.strides.v[i] == 1
                            && d.padding_l.v[i] == 0 && d.padding_r.v[i] == 0,
                    dnnl_unimplemented, "1x1, stride 1, no padding only");
        // Only plain channels-first activations take this path; `any` goes to the direct
        // kernel's blocked layouts.
        ANYDNN_REQUIRE(src.format_kind == dnnl_blocked && is_ncx_dense_spatial(src)
                        && !has_runtime_dims_or_strides(src),
                dnnl_unimplemented, "src is not plain channels-first");
        if (dst.format_kind == dnnl_format_kind_any) dst = md_like(src, nd, dst.dims, dnnl_f32);
        ANYDNN_REQUIRE(is_ncx_dense_spatial(dst) && !has_runtime_dims_or_strides(dst),
                dnnl_unimplemented, "dst is not plain channels-first");
        if (wei.format_kind == dnnl_format_kind_any)
            ANYDNN_CHECK(md_init_with_tag(wei, wei.ndims, wei.dims, dnnl_f32,
                    wei.ndims == 3 ? dnnl_abc : wei.ndims == 4 ? dnnl_abcd
                            : wei.ndims == 5 ? dnnl_abcde : dnnl_abcdef));
        ANYDNN_REQUIRE(is_plain(wei) && !has_runtime_dims_or_strides(wei), dnnl_unimplemented,
                "weights are not plain");
        pd.with_bias = !is_zero_md(bia);
        if (pd.with_bias) {
            if (bia.format_kind == dnnl_format_kind_any)
                ANYDNN_CHECK(md_init_with_tag(bia, 1, bia.dims, dnnl_f32, dnnl_a));
            ANYDNN_REQUIRE(is_plain(bia), dnnl_unimplemented, "bias is not plain");
        }
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        ANYDNN_REQUIRE(!pd.post_ops.has_sum(), dnnl_unimplemented,
                "a sum post-op would need dst before the GEMM overwrites it");
        pd.post_ops.add_args(pd.args);
        pd.mb = src.dims[0];
        pd.g = pd.grouped ? wei.dims[0] : 1;
        pd.oc = wei.dims[w0];
        pd.ic = wei.dims[w0 + 1];
        for (int i = 2; i < nd; ++i)
            pd.spatial *= src.dims[i];
        pd.pack_wei = wei.blocking.strides[w0 + 1] != 1 && pd.ic > 1;
        if (pd.pack_wei) pd.scratchpad_size = size_t(pd.g * pd.oc * pd.ic) * sizeof(float);
        pd.tiles = isa_enabled(dnnl_cpu_isa_avx512_core) ? &ukernels::detail::avx512_tiles()
                                                         : &ukernels::detail::generic_tiles();
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (pd.with_bias) pd.args[DNNL_ARG_BIAS] = bia;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

// One image and group as dst[oc][p] = W[oc][ic] * src[ic][p] on the GEMM's tile kernels, src
// read in place: a 32-position panel of src (every channel) is fetched once and every tile of
// output channels reuses it from L1/L2; depth is cut in blocks of 256 (measured best over 64
// and 128 on res2 1x1: the partial sums of C are re-read once per block).
struct plane_gemm_t {
    const ukernels::detail::tile_kernels_t *tk;
    dim_t M, K, N; // oc, ic, spatial positions
    const float *w; // row m at w + m * ldw, contiguous over ic
    dim_t ldw;
    const float *s; // channel k at s + k * lds, contiguous over positions
    dim_t lds;
    float *d; // channel m at d + m * ldd
    dim_t ldd;

    static constexpr int cols = ukernels::detail::panel_cols;
    static constexpr dim_t kc_max = 256; // 256 x 32 floats of src: 32 KiB

    // Positions [p0, p1); done(p, n) after each finished panel (bias, post-ops).
    template <typename F> void run(dim_t p0, dim_t p1, F done) const {
        const dim_t tiles = (M + tk->mr - 1) / tk->mr;
        const dim_t nkb = (K + kc_max - 1) / kc_max;
        ukernels::detail::fbuf_t tail; // the last, narrower panel copied and zero-padded
        for (dim_t p = p0; p < p1; p += cols) {
            const int n = static_cast<int>(std::min<dim_t>(cols, N - p));
            if (K == 0) { // no channels to sum: zeros
                for (dim_t m = 0; m < M; ++m)
                    std::fill(d + m * ldd + p, d + m * ldd + p + n, 0.f);
                done(p, n);
                continue;
            }
            const float *b = s + p;
            dim_t ldb = lds;
            if (n < cols) {
                tail = ukernels::detail::alloc_floats(K * cols);
                for (dim_t k = 0; k < K; ++k) {
                    float *row = tail.get() + k * cols;
                    std::memcpy(row, s + k * lds + p, n * sizeof(float));
                    std::fill(row + n, row + cols, 0.f);
                }
                b = tail.get();
                ldb = cols;
            }
            // The next panel's rows are asked for a slice per tile call: their DRAM reads
            // overlap this panel's arithmetic.
            const bool ahead = p + 2 * cols <= N;
            dim_t call = 0;
            for (dim_t kb = 0; kb < K; kb += kc_max) {
                const dim_t kc = std::min(kc_max, K - kb);
                for (dim_t t = 0; t < tiles; ++t, ++call) {
                    const dim_t m0 = M * t / tiles;
                    const int rows = static_cast<int>(M * (t + 1) / tiles - m0);
                    if (ahead) prefetch_rows(p + cols, K * call / (nkb * tiles),
                            K * (call + 1) / (nkb * tiles));
                    tk->fn[rows](kc, w + m0 * ldw + kb, ldw, b + kb * ldb, ldb,
                            d + m0 * ldd + p, ldd, n, 1.f, 1.f, kb > 0);
                }
            }
            done(p, n);
        }
    }

    void prefetch_rows(dim_t p, dim_t k0, dim_t k1) const {
        for (dim_t k = k0; k < k1; ++k) {
            const float *row = s + k * lds + p;
            __builtin_prefetch(row, 0, 2);
            __builtin_prefetch(row + cols - 1, 0, 2);
        }
    }
};

struct gemm_1x1_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const gemm_1x1_pd_t &>(this->pd());
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &wmd = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &dmd = pd.arg_md(DNNL_ARG_DST), &bmd = pd.arg_md(DNNL_ARG_BIAS);
        if (nelems(dmd) == 0) return dnnl_success;
        const float *src = ctx.host_ptr<const float>(DNNL_ARG_SRC) + smd.offset0;
        const float *wei = ctx.host_ptr<const float>(DNNL_ARG_WEIGHTS) + wmd.offset0;
        const float *bias = pd.with_bias
                ? ctx.host_ptr<const float>(DNNL_ARG_BIAS) + bmd.offset0
                : nullptr;
        float *dst = ctx.host_ptr<float>(DNNL_ARG_DST) + dmd.offset0;
        const auto po_args = pd.post_ops.bind(ctx);
        const int nd = dmd.ndims, w0 = pd.grouped ? 1 : 0;
        const dim_t *ws = wmd.blocking.strides, *ss = smd.blocking.strides,
                    *ds = dmd.blocking.strides;
        const dim_t bstride = pd.with_bias ? bmd.blocking.strides[0] : 0;
        const dim_t W = dmd.dims[nd - 1];

        // The tile kernels read W rows contiguous over ic: other layouts are copied once.
        dim_t ldw = ws[w0], gstride = pd.grouped ? ws[0] : 0;
        if (pd.pack_wei) {
            float *packed = static_cast<float *>(ctx.scratchpad);
            for (dim_t gi = 0; gi < pd.g; ++gi)
                for (dim_t o = 0; o < pd.oc; ++o)
                    for (dim_t i = 0; i < pd.ic; ++i)
                        packed[(gi * pd.oc + o) * pd.ic + i]
                                = wei[gi * gstride + o * ws[w0] + i * ws[w0 + 1]];
            wei = packed;
            ldw = pd.ic;
            gstride = pd.oc * pd.ic;
        }

        // Bias and post-ops on dst rows [0, oc) x positions [p, p + n) of image n, group gi.
        auto finish = [&](float *c, dim_t n, dim_t gi, dim_t p, dim_t len) {
            for (dim_t m = 0; m < pd.oc; ++m) {
                const dim_t ch = gi * pd.oc + m;
                float *row = c + m * ds[1];
                if (bias) {
                    const float b = bias[ch * bstride];
                    for (dim_t x = p; x < p + len; ++x)
                        row[x] += b;
                }
                if (pd.post_ops.empty()) continue;
                // Runs along w: the post-op chain walks one logical axis.
                for (dim_t x = p; x < p + len;) {
                    const dim_t run = std::min(p + len - x, W - x % W);
                    dim_t pos[max_ndims] = {n, ch};
                    dim_t rem = x;
                    for (int dd = nd - 1; dd >= 2; --dd) {
                        pos[dd] = rem % dmd.dims[dd];
                        rem /= dmd.dims[dd];
                    }
                    pd.post_ops.apply(po_args, row + x, run, pos, nd - 1, row + x, 1);
                    x += run;
                }
            }
        };

        // Work: (image, group, run of panels), enough runs that every thread has a few and
        // a thread that loses its core leaves its runs to the other.
        const dim_t items = pd.mb * pd.g;
        const int nthr = max_threads();
        const dim_t panels = (pd.spatial + plane_gemm_t::cols - 1) / plane_gemm_t::cols;
        const dim_t runs = std::min(panels, (4 * nthr + items - 1) / items);
        std::atomic<dim_t> next {0};
        parallel(static_cast<int>(std::min<dim_t>(nthr, items * runs)), [&](int, int) {
            for (dim_t u = next++; u < items * runs; u = next++) {
                const dim_t item = u / runs, n = item / pd.g, gi = item % pd.g;
                dim_t first, last;
                balance211(panels, static_cast<int>(runs), static_cast<int>(u % runs), first,
                        last);
                float *c = dst + n * ds[0] + gi * pd.oc * ds[1];
                const plane_gemm_t pg {pd.tiles, pd.oc, pd.ic, pd.spatial,
                        wei + gi * gstride, ldw, src + n * ss[0] + gi * pd.ic * ss[1], ss[1], c,
                        ds[1]};
                pg.run(first * plane_gemm_t::cols,
                        std::min(pd.spatial, last * plane_gemm_t::cols),
                        [&](dim_t p, dim_t len) {
                            if (bias || !pd.post_ops.empty()) finish(c, n, gi, p, len);
                        });
            }
        });
        return dnnl_success;
    }
};

} // namespace

impl_entry_t convolution_gemm_1x1_entry() {
    return make_impl_entry<gemm_1x1_pd_t>("cpu:convolution:gemm_1x1");
}

} // namespace cpu
} // namespace anydnn
