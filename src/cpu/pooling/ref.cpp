// Reference pooling, forward (with post-ops and the max workspace) and backward: any blocked
// layouts, every data type CPU pooling takes, element by element through logical positions.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/pooling/common.hpp"
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace pooling;

// Logical position of (n, c, D, H, W) in a tensor of g.ndims dims.
void make_pos(const geom_t &g, dim_t n, dim_t c, dim_t z, dim_t y, dim_t x, dim_t *pos) {
    pos[0] = n;
    pos[1] = c;
    const dim_t sp[3] = {z, y, x};
    const int ns = g.ndims - 2;
    for (int i = 0; i < ns; ++i)
        pos[2 + i] = sp[3 - ns + i];
}

struct ref_fwd_t;

struct ref_fwd_pd_t : public primitive_desc_impl_t<ref_fwd_pd_t, ref_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:pooling:ref"; }
    post_ops_chain_t post_ops;

    static status_t init(ref_fwd_pd_t &pd) {
        ANYDNN_REQUIRE(is_fwd(desc_of(pd)), dnnl_unimplemented, "not a forward pooling");
        ANYDNN_CHECK(check_attr(pd.attr, true));
        ANYDNN_CHECK(resolve(pd));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.args[DNNL_ARG_DST]));
        pd.post_ops.add_args(pd.args);
        return dnnl_success;
    }
};

struct ref_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_fwd_pd_t &>(this->pd());
        const geom_t g = make_geom(desc_of(pd));
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        const memory_desc_t &ws_md = pd.arg_md(DNNL_ARG_WORKSPACE);
        if (nelems(dst_md) == 0) return dnnl_success;
        const void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        void *ws = is_zero_md(ws_md) ? nullptr : ctx.host_ptr(DNNL_ARG_WORKSPACE);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const size_t dsize = data_type_size(dst_md.data_type);
        const dim_t work = g.mb * g.c * g.out[0] * g.out[1] * g.out[2];
        parallel_range(work, [&](dim_t start, dim_t end) {
            dim_t pos[max_ndims], spos[max_ndims];
            for (dim_t i = start; i < end; ++i) {
                dim_t r = i;
                const dim_t ox = r % g.out[2];
                r /= g.out[2];
                const dim_t oy = r % g.out[1];
                r /= g.out[1];
                const dim_t oz = r % g.out[0];
                r /= g.out[0];
                const dim_t c = r % g.c, n = r / g.c;
                dim_t lo[3], hi[3];
                for (int k = 0; k < 3; ++k)
                    g.taps(k, k == 0 ? oz : k == 1 ? oy : ox, lo[k], hi[k]);
                float acc = g.alg == dnnl_pooling_max ? -INFINITY : 0.f;
                dim_t arg = 0, count = 0;
                for (dim_t kz = lo[0]; kz < hi[0]; ++kz)
                    for (dim_t ky = lo[1]; ky < hi[1]; ++ky)
                        for (dim_t kx = lo[2]; kx < hi[2]; ++kx) {
                            make_pos(g, n, c, g.src_pos(0, oz, kz), g.src_pos(1, oy, ky),
                                    g.src_pos(2, ox, kx), spos);
                            const float v = load_as_f32(
                                    src_md.data_type, src, off_logical(src_md, spos));
                            ++count;
                            if (g.alg == dnnl_pooling_max) {
                                if (v > acc || (count == 1 && !(v <= acc))) {
                                    acc = v;
                                    arg = (kz * g.k[1] + ky) * g.k[2] + kx;
                                }
                            } else {
                                acc += v;
                            }
                        }
                if (count == 0) { // a dilated window may see padding only
                    acc = g.alg == dnnl_pooling_max ? lowest_finite(src_md.data_type) : 0.f;
                } else if (g.alg == dnnl_pooling_avg_include_padding) {
                    acc /= static_cast<float>(g.ksize());
                } else if (g.alg == dnnl_pooling_avg_exclude_padding) {
                    acc /= static_cast<float>(count);
                }
                make_pos(g, n, c, oz, oy, ox, pos);
                const dim_t to = off_logical(dst_md, pos);
                if (ws) store_from_f32(ws_md.data_type, ws, off_logical(ws_md, pos), float(arg));
                if (!po.empty())
                    po.apply(po_args, &acc, 1, pos, g.ndims - 1,
                            static_cast<char *>(dst) + to * dsize, 1);
                store_from_f32(dst_md.data_type, dst, to, acc);
            }
        }, 64);
        zero_padding(dst_md, dst);
        if (ws) zero_padding(ws_md, ws);
        return dnnl_success;
    }
};

struct ref_bwd_t;

struct ref_bwd_pd_t : public primitive_desc_impl_t<ref_bwd_pd_t, ref_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:pooling:ref"; }

    static status_t init(ref_bwd_pd_t &pd) {
        ANYDNN_REQUIRE(!is_fwd(desc_of(pd)), dnnl_unimplemented, "not a backward pooling");
        ANYDNN_CHECK(check_attr(pd.attr, false));
        ANYDNN_CHECK(resolve(pd));
        const geom_t g = make_geom(desc_of(pd));
        pd.scratchpad_size = sizeof(float) * g.in[0] * g.in[1] * g.in[2] * max_threads();
        return dnnl_success;
    }
};

struct ref_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = this->pd();
        const geom_t g = make_geom(desc_of(pd));
        const memory_desc_t &ds_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
        const memory_desc_t &dd_md = pd.arg_md(DNNL_ARG_DIFF_DST);
        const memory_desc_t &ws_md = pd.arg_md(DNNL_ARG_WORKSPACE);
        if (nelems(ds_md) == 0) return dnnl_success;
        void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        const void *dd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        const void *ws = is_zero_md(ws_md) ? nullptr : ctx.host_ptr(DNNL_ARG_WORKSPACE);
        const dim_t plane = g.in[0] * g.in[1] * g.in[2];
        float *scratch = static_cast<float *>(ctx.scratchpad);
        // One (n, c) plane per task: its gradient accumulates in f32, then is stored once.
        parallel(max_threads(), [&](int ithr, int nthr) {
            dim_t start, end;
            balance211(g.mb * g.c, nthr, ithr, start, end);
            float *acc = scratch + ithr * plane;
            dim_t pos[max_ndims];
            for (dim_t nc = start; nc < end; ++nc) {
                const dim_t n = nc / g.c, c = nc % g.c;
                std::fill(acc, acc + plane, 0.f);
                for (dim_t oz = 0; oz < g.out[0]; ++oz)
                    for (dim_t oy = 0; oy < g.out[1]; ++oy)
                        for (dim_t ox = 0; ox < g.out[2]; ++ox) {
                            make_pos(g, n, c, oz, oy, ox, pos);
                            const float gv
                                    = load_as_f32(dd_md.data_type, dd, off_logical(dd_md, pos));
                            dim_t lo[3], hi[3];
                            g.taps(0, oz, lo[0], hi[0]);
                            g.taps(1, oy, lo[1], hi[1]);
                            g.taps(2, ox, lo[2], hi[2]);
                            const dim_t count
                                    = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
                            if (count == 0) continue;
                            dim_t arg = -1;
                            float w = 0.f;
                            if (g.alg == dnnl_pooling_max)
                                arg = static_cast<dim_t>(load_as_f32(
                                        ws_md.data_type, ws, off_logical(ws_md, pos)));
                            else
                                w = gv
                                        / static_cast<float>(
                                                g.alg == dnnl_pooling_avg_include_padding
                                                        ? g.ksize()
                                                        : count);
                            for (dim_t kz = lo[0]; kz < hi[0]; ++kz)
                                for (dim_t ky = lo[1]; ky < hi[1]; ++ky)
                                    for (dim_t kx = lo[2]; kx < hi[2]; ++kx) {
                                        const dim_t at = (g.src_pos(0, oz, kz) * g.in[1]
                                                                 + g.src_pos(1, oy, ky))
                                                        * g.in[2]
                                                + g.src_pos(2, ox, kx);
                                        if (g.alg != dnnl_pooling_max)
                                            acc[at] += w;
                                        else if ((kz * g.k[1] + ky) * g.k[2] + kx == arg)
                                            acc[at] += gv;
                                    }
                        }
                for (dim_t z = 0; z < g.in[0]; ++z)
                    for (dim_t y = 0; y < g.in[1]; ++y)
                        for (dim_t x = 0; x < g.in[2]; ++x) {
                            make_pos(g, n, c, z, y, x, pos);
                            store_from_f32(ds_md.data_type, ds, off_logical(ds_md, pos),
                                    acc[(z * g.in[1] + y) * g.in[2] + x]);
                        }
            }
        });
        zero_padding(ds_md, ds);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t pooling_ref_fwd_entry() {
    return make_impl_entry<ref_fwd_pd_t>("cpu:pooling:ref");
}
impl_entry_t pooling_ref_bwd_entry() {
    return make_impl_entry<ref_bwd_pd_t>("cpu:pooling:ref");
}

} // namespace cpu
} // namespace anydnn
