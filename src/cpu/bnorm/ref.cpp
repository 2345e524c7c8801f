// Reference batch normalization, forward and backward, every flag and the relu post-op (any
// slope): any blocked layouts (all tensors may differ), threaded over channels, each channel
// walked through logical positions with statistics accumulated in double.
#include <cmath>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/bnorm/common.hpp"
#include "core/ops/layout.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace bnorm;

// Calls f(n, s, pos) for every element of channel c (pos: its logical position).
template <typename F>
void for_channel(const memory_desc_t &md, dim_t c, F f) {
    const int nd = md.ndims;
    dim_t pos[max_ndims] = {};
    pos[1] = c;
    dim_t sp = 1;
    for (int i = 2; i < nd; ++i)
        sp *= md.dims[i];
    for (dim_t n = 0; n < md.dims[0]; ++n) {
        pos[0] = n;
        for (dim_t s = 0; s < sp; ++s) {
            dim_t r = s;
            for (int i = nd - 1; i >= 2; --i) {
                pos[i] = r % md.dims[i];
                r /= md.dims[i];
            }
            f(pos);
        }
    }
}

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:bnorm:ref"; }
    static status_t init(ref_pd_t &pd) { return resolve(pd); }
};

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;

    const memory_desc_t &md(int arg) const { return pd().arg_md(arg); }

    float ld(const exec_ctx_t &ctx, int arg, const dim_t *pos) const {
        const memory_desc_t &m = md(arg);
        return load_as_f32(m.data_type, ctx.host_ptr(arg), off_logical(m, pos));
    }
    void st(const exec_ctx_t &ctx, int arg, const dim_t *pos, float v) const {
        const memory_desc_t &m = md(arg);
        store_from_f32(m.data_type, ctx.host_ptr(arg), off_logical(m, pos), v);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const conf_t c = make_conf(desc_of(pd()));
        float po_alpha = 0.f;
        const bool po_relu = c.fwd && relu_post_op(pd().attr, po_alpha);
        const float *scale = c.scale ? ctx.host_ptr<const float>(DNNL_ARG_SCALE) : nullptr;
        const float *shift = c.fwd && c.shift ? ctx.host_ptr<const float>(DNNL_ARG_SHIFT) : nullptr;
        float *mean = ctx.host_ptr<float>(DNNL_ARG_MEAN);
        float *var = ctx.host_ptr<float>(DNNL_ARG_VARIANCE);
        float *dscale = c.diff_ss && c.scale ? ctx.host_ptr<float>(DNNL_ARG_DIFF_SCALE) : nullptr;
        float *dshift = c.diff_ss && c.shift ? ctx.host_ptr<float>(DNNL_ARG_DIFF_SHIFT) : nullptr;
        const memory_desc_t &src_md = md(DNNL_ARG_SRC);
        const double m_count = double(c.mb * c.sp);
        parallel_range(c.c, [&](dim_t start, dim_t end) {
            for (dim_t ch = start; ch < end; ++ch) {
                double mu = 0, sigma2 = 0;
                if (c.fwd && !c.global_stats) {
                    if (m_count > 0) {
                        for_channel(src_md, ch, [&](const dim_t *p) { mu += ld(ctx, DNNL_ARG_SRC, p); });
                        mu /= m_count;
                        for_channel(src_md, ch, [&](const dim_t *p) {
                            const double x = ld(ctx, DNNL_ARG_SRC, p) - mu;
                            sigma2 += x * x;
                        });
                        sigma2 /= m_count;
                    }
                    if (c.stats_out) {
                        mean[ch] = float(mu);
                        var[ch] = float(sigma2);
                    }
                } else {
                    mu = mean[ch];
                    sigma2 = var[ch];
                }
                const float fmu = float(mu);
                const float inv = 1.f / std::sqrt(float(sigma2) + c.eps);
                const float gamma = scale ? scale[ch] : 1.f;
                if (c.fwd) {
                    const float beta = shift ? shift[ch] : 0.f;
                    for_channel(src_md, ch, [&](const dim_t *p) {
                        float y = gamma * (ld(ctx, DNNL_ARG_SRC, p) - fmu) * inv + beta;
                        if (c.add_relu) y += ld(ctx, DNNL_ARG_SRC_1, p);
                        if (c.relu) {
                            if (c.training) st(ctx, DNNL_ARG_WORKSPACE, p, y > 0.f ? 1.f : 0.f);
                            y = y > 0.f ? y : 0.f;
                        }
                        if (po_relu) y = y > 0.f ? y : y * po_alpha;
                        st(ctx, DNNL_ARG_DST, p, y);
                    });
                    continue;
                }
                auto grad = [&](const dim_t *p) {
                    const float g = ld(ctx, DNNL_ARG_DIFF_DST, p);
                    return c.relu && ld(ctx, DNNL_ARG_WORKSPACE, p) == 0.f ? 0.f : g;
                };
                double sum_g = 0, sum_gx = 0;
                for_channel(src_md, ch, [&](const dim_t *p) {
                    const double g = grad(p);
                    sum_g += g;
                    sum_gx += g * (ld(ctx, DNNL_ARG_SRC, p) - fmu);
                });
                const float d_shift = float(sum_g), d_scale = float(sum_gx) * inv;
                if (dscale) dscale[ch] = d_scale;
                if (dshift) dshift[ch] = d_shift;
                const float k = gamma * inv;
                const float mg = m_count > 0 ? float(sum_g / m_count) : 0.f;
                const float mgx = m_count > 0 ? d_scale * inv / float(m_count) : 0.f;
                for_channel(src_md, ch, [&](const dim_t *p) {
                    const float g = grad(p);
                    if (c.add_relu) st(ctx, DNNL_ARG_DIFF_SRC_1, p, g);
                    float v = g;
                    if (!c.global_stats) v -= mg + (ld(ctx, DNNL_ARG_SRC, p) - fmu) * mgx;
                    st(ctx, DNNL_ARG_DIFF_SRC, p, k * v);
                });
            }
        }, 1);
        const int outs[] = {DNNL_ARG_DST, c.fwd ? DNNL_ARG_WORKSPACE : DNNL_ARG_DIFF_SRC_1,
                DNNL_ARG_DIFF_SRC};
        for (int arg : outs)
            if (!is_zero_md(md(arg)) && ctx.host_ptr(arg)) zero_padding(md(arg), ctx.host_ptr(arg));
        return dnnl_success;
    }
};

} // namespace

impl_entry_t bnorm_ref_entry() {
    return make_impl_entry<ref_pd_t>("cpu:bnorm:ref");
}

} // namespace cpu
} // namespace anydnn
