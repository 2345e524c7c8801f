// Reference eltwise, forward and backward: any blocked layouts (src and dst may differ), every
// data type CPU eltwise takes, post-ops. Dense tensors of one layout are walked as flat
// arrays (f32 ones with the algorithm fixed at compile time, fast enough to be the portable
// path where AVX-512 is missing); others element by element through their logical positions.
#include <algorithm>
#include <type_traits>

#include "core/data_types.hpp"
#include "core/ops/eltwise/common.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using eltwise::dense_span;
using eltwise::has_padding;
using namespace eltwise;

constexpr dim_t chunk = 256; // elements converted to f32 at a time

const eltwise_desc_t &eltwise_of(const primitive_desc_t &pd) {
    return std::get<eltwise_desc_t>(pd.desc);
}

// Logical row-major index -> position.
void unravel(const memory_desc_t &md, dim_t i, dim_t *pos) {
    for (int d = md.ndims - 1; d >= 0; --d) {
        pos[d] = i % md.dims[d];
        i /= md.dims[d];
    }
}

char *at(void *base, const memory_desc_t &md) {
    return static_cast<char *>(base) + md.offset0 * data_type_size(md.data_type);
}

// Calls f(std::integral_constant<alg>) so that loops over f32 arrays see the algorithm as a
// constant: the per-element switch folds away and simple algorithms vectorize.
template <typename F>
bool with_constant_alg(dnnl_alg_kind_t alg, F f) {
    switch (alg) {
#define ANYDNN_CASE(a) \
    case a: f(std::integral_constant<dnnl_alg_kind_t, a>()); return true;
        ANYDNN_CASE(dnnl_eltwise_relu)
        ANYDNN_CASE(dnnl_eltwise_tanh)
        ANYDNN_CASE(dnnl_eltwise_elu)
        ANYDNN_CASE(dnnl_eltwise_square)
        ANYDNN_CASE(dnnl_eltwise_abs)
        ANYDNN_CASE(dnnl_eltwise_sqrt)
        ANYDNN_CASE(dnnl_eltwise_linear)
        ANYDNN_CASE(dnnl_eltwise_soft_relu)
        ANYDNN_CASE(dnnl_eltwise_hardsigmoid)
        ANYDNN_CASE(dnnl_eltwise_logistic)
        ANYDNN_CASE(dnnl_eltwise_exp)
        ANYDNN_CASE(dnnl_eltwise_gelu_tanh)
        ANYDNN_CASE(dnnl_eltwise_swish)
        ANYDNN_CASE(dnnl_eltwise_log)
        ANYDNN_CASE(dnnl_eltwise_clip)
        ANYDNN_CASE(dnnl_eltwise_clip_v2)
        ANYDNN_CASE(dnnl_eltwise_pow)
        ANYDNN_CASE(dnnl_eltwise_gelu_erf)
        ANYDNN_CASE(dnnl_eltwise_round)
        ANYDNN_CASE(dnnl_eltwise_mish)
        ANYDNN_CASE(dnnl_eltwise_hardswish)
        ANYDNN_CASE(dnnl_eltwise_relu_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_tanh_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_elu_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_sqrt_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_logistic_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_exp_use_dst_for_bwd)
        ANYDNN_CASE(dnnl_eltwise_clip_v2_use_dst_for_bwd)
#undef ANYDNN_CASE
        default: return false;
    }
}

struct ref_fwd_t;

struct ref_fwd_pd_t : public primitive_desc_impl_t<ref_fwd_pd_t, ref_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:eltwise:ref"; }

    post_ops_chain_t post_ops;

    static status_t init(ref_fwd_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve_fwd(eltwise_of(pd), src, dst));
        ANYDNN_CHECK(check_attr(pd.attr, true));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        return dnnl_success;
    }
};

struct ref_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_fwd_pd_t &>(this->pd());
        const auto &d = eltwise_of(pd);
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        if (nelems(src_md) == 0) return dnnl_success;
        void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const dnnl_data_type_t sdt = src_md.data_type, ddt = dst_md.data_type;
        const size_t dsize = data_type_size(ddt);

        const dim_t span = dense_span(src_md);
        const bool flat = span >= 0 && same_layout(src_md, dst_md)
                && (po.empty() || (po.flat_ok() && !has_padding(dst_md)));
        if (flat && po.empty() && sdt == dnnl_f32 && ddt == dnnl_f32) {
            const float *s = reinterpret_cast<const float *>(at(src, src_md));
            float *t = reinterpret_cast<float *>(at(dst, dst_md));
            const float alpha = d.alpha, beta = d.beta; // locals: stores to t cannot alias them
            with_constant_alg(d.alg_kind, [&](auto alg) {
                parallel_range(span, [&](dim_t start, dim_t end) {
                    for (dim_t i = start; i < end; ++i)
                        t[i] = eltwise_fwd_scalar(alg.value, s[i], alpha, beta);
                });
            });
        } else if (flat) {
            const char *s = at(src, src_md);
            char *t = at(dst, dst_md);
            parallel_range(span, [&](dim_t start, dim_t end) {
                float v[chunk];
                for (dim_t c = start; c < end; c += chunk) {
                    const dim_t n = std::min(chunk, end - c);
                    for (dim_t k = 0; k < n; ++k)
                        v[k] = eltwise_fwd_scalar(
                                d.alg_kind, load_as_f32(sdt, s, c + k), d.alpha, d.beta);
                    if (!po.empty()) po.apply_flat(po_args, v, n, c, t + c * dsize);
                    for (dim_t k = 0; k < n; ++k)
                        store_from_f32(ddt, t, c + k, v[k]);
                }
            });
        } else {
            const int last = src_md.ndims - 1;
            parallel_range(nelems(src_md), [&](dim_t start, dim_t end) {
                dim_t pos[max_ndims];
                for (dim_t i = start; i < end; ++i) {
                    unravel(src_md, i, pos);
                    const dim_t so = off_logical(src_md, pos);
                    const dim_t to = off_logical(dst_md, pos);
                    float v = eltwise_fwd_scalar(
                            d.alg_kind, load_as_f32(sdt, src, so), d.alpha, d.beta);
                    if (!po.empty())
                        po.apply(po_args, &v, 1, pos, last,
                                static_cast<char *>(dst) + to * dsize, 1);
                    store_from_f32(ddt, dst, to, v);
                }
            });
        }
        zero_padding(dst_md, dst);
        return dnnl_success;
    }
};

struct ref_bwd_t;

struct ref_bwd_pd_t : public primitive_desc_impl_t<ref_bwd_pd_t, ref_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:eltwise:ref"; }

    static status_t init(ref_bwd_pd_t &pd) {
        const auto &d = eltwise_of(pd);
        memory_desc_t data, diff_dst, diff_src;
        ANYDNN_CHECK(resolve_bwd(d, data, diff_dst, diff_src));
        ANYDNN_CHECK(check_attr(pd.attr, false));
        pd.args[bwd_data_arg(d)] = data;
        pd.args[DNNL_ARG_DIFF_DST] = diff_dst;
        pd.args[DNNL_ARG_DIFF_SRC] = diff_src;
        return dnnl_success;
    }
};

struct ref_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        const auto &d = eltwise_of(pd);
        const int data_arg = bwd_data_arg(d);
        const memory_desc_t &data_md = pd.arg_md(data_arg);
        const memory_desc_t &dd_md = pd.arg_md(DNNL_ARG_DIFF_DST);
        const memory_desc_t &ds_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
        if (nelems(data_md) == 0) return dnnl_success;
        void *data = ctx.host_ptr(data_arg);
        void *dd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        const dnnl_data_type_t xdt = data_md.data_type, gdt = dd_md.data_type,
                               odt = ds_md.data_type;

        const dim_t span = dense_span(data_md);
        const bool flat = span >= 0 && same_layout(data_md, dd_md) && same_layout(data_md, ds_md);
        if (flat && xdt == dnnl_f32 && gdt == dnnl_f32 && odt == dnnl_f32) {
            const float *x = reinterpret_cast<const float *>(at(data, data_md));
            const float *g = reinterpret_cast<const float *>(at(dd, dd_md));
            float *o = reinterpret_cast<float *>(at(ds, ds_md));
            const float alpha = d.alpha, beta = d.beta;
            with_constant_alg(d.alg_kind, [&](auto alg) {
                parallel_range(span, [&](dim_t start, dim_t end) {
                    for (dim_t i = start; i < end; ++i)
                        o[i] = eltwise_bwd_scalar(alg.value, g[i], x[i], alpha, beta);
                });
            });
        } else if (flat) {
            const char *x = at(data, data_md);
            const char *g = at(dd, dd_md);
            char *o = at(ds, ds_md);
            parallel_range(span, [&](dim_t start, dim_t end) {
                for (dim_t i = start; i < end; ++i)
                    store_from_f32(odt, o, i,
                            eltwise_bwd_scalar(d.alg_kind, load_as_f32(gdt, g, i),
                                    load_as_f32(xdt, x, i), d.alpha, d.beta));
            });
        } else {
            parallel_range(nelems(data_md), [&](dim_t start, dim_t end) {
                dim_t pos[max_ndims];
                for (dim_t i = start; i < end; ++i) {
                    unravel(data_md, i, pos);
                    const float x = load_as_f32(xdt, data, off_logical(data_md, pos));
                    const float g = load_as_f32(gdt, dd, off_logical(dd_md, pos));
                    store_from_f32(odt, ds, off_logical(ds_md, pos),
                            eltwise_bwd_scalar(d.alg_kind, g, x, d.alpha, d.beta));
                }
            });
        }
        zero_padding(ds_md, ds);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t eltwise_ref_fwd_entry() {
    return make_impl_entry<ref_fwd_pd_t>("cpu:eltwise:ref");
}
impl_entry_t eltwise_ref_bwd_entry() {
    return make_impl_entry<ref_bwd_pd_t>("cpu:eltwise:ref");
}

} // namespace cpu
} // namespace anydnn
