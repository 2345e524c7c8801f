// f32 forward 1x1 convolution (stride 1, no padding) on plain channels-first tensors as one
// GEMM per image and group on the shared ukernel: dst[oc][p] = W[oc][ic] * src[ic][p], the
// spatial positions p of a channel being contiguous. Bias and post-ops (no sum) run on each
// finished block of dst. Channels-first 1x1 is where the direct kernel's one-channel steps
// walk too many planes at once.
#include <algorithm>
#include <atomic>

#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/layout.hpp"
#include "cpu/post_ops.hpp"
#include "cpu/ukernels/gemm.hpp"

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

    bool grouped = false, with_bias = false;
    dim_t mb = 0, g = 1, ic = 0, oc = 0, spatial = 1;
    post_ops_chain_t post_ops;

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
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (pd.with_bias) pd.args[DNNL_ARG_BIAS] = bia;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
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

        auto one = [&](dim_t n, dim_t gi, int nthr) {
            ukernels::gemm_problem_t p;
            p.M = pd.oc;
            p.N = pd.spatial;
            p.K = pd.ic;
            p.a = {wei + (pd.grouped ? gi * ws[0] : 0), dnnl_f32, ws[w0], ws[w0 + 1]};
            p.b = {src + n * ss[0] + gi * pd.ic * ss[1], dnnl_f32, ss[1], 1};
            float *c = dst + n * ds[0] + gi * pd.oc * ds[1];
            p.c = c;
            p.ldc = ds[1];
            p.nthr = nthr;
            if (bias || !pd.post_ops.empty())
                p.epilogue = [&, c, n, gi](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
                    for (dim_t m = m0; m < m0 + mb; ++m) {
                        const dim_t ch = gi * pd.oc + m;
                        float *row = c + m * ds[1];
                        if (bias) {
                            const float b = bias[ch * bstride];
                            for (dim_t x = n0; x < n0 + nb; ++x)
                                row[x] += b;
                        }
                        if (pd.post_ops.empty()) continue;
                        // Runs along w: the post-op chain walks one logical axis.
                        for (dim_t x = n0; x < n0 + nb;) {
                            const dim_t len = std::min(n0 + nb - x, W - x % W);
                            dim_t pos[max_ndims] = {n, ch};
                            dim_t rem = x;
                            for (int dd = nd - 1; dd >= 2; --dd) {
                                pos[dd] = rem % dmd.dims[dd];
                                rem /= dmd.dims[dd];
                            }
                            pd.post_ops.apply(po_args, row + x, len, pos, nd - 1, row + x, 1);
                            x += len;
                        }
                    }
                };
            ukernels::gemm(p);
        };
        const dim_t items = pd.mb * pd.g;
        const int nthr = max_threads();
        // Whole images per thread when they split evenly; else every thread on each GEMM.
        if (nthr > 1 && (items % nthr == 0 || items >= 4 * nthr)) {
            // Images handed out one at a time (a thread that loses its core holds up none).
            std::atomic<dim_t> next {0};
            parallel(nthr, [&](int, int) {
                for (dim_t i = next++; i < items; i = next++)
                    one(i / pd.g, i % pd.g, 1);
            });
        } else {
            for (dim_t i = 0; i < items; ++i)
                one(i / pd.g, i % pd.g, 0);
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t convolution_gemm_1x1_entry() {
    return make_impl_entry<gemm_1x1_pd_t>("cpu:convolution:gemm_1x1");
}

} // namespace cpu
} // namespace anydnn
