// Reference softmax, forward and backward: any blocked layouts (tensors may differ), any axis,
// every supported data type, scales and post-ops. Each row along the axis is gathered into
// f32 through logical offsets, computed by the scalar row code, and scattered back.
#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/scales.hpp"
#include "core/ops/softmax/common.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/softmax/rows.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace softmax;

// Logical position of element c of row r (rows numbered outer-major, then inner).
struct row_walker_t {
    const memory_desc_t *md;
    int axis;
    geom_t g;
    void start(dim_t r, dim_t *pos) const {
        dim_t o = r / g.inner, i = r % g.inner;
        for (int d = md->ndims - 1; d > axis; --d) {
            pos[d] = i % md->dims[d];
            i /= md->dims[d];
        }
        for (int d = axis - 1; d >= 0; --d) {
            pos[d] = o % md->dims[d];
            o /= md->dims[d];
        }
        pos[axis] = 0;
    }
};

template <typename F>
void for_rows(dim_t nrows, int max_nthr, F f) {
    parallel_split(nrows, max_nthr, 1, f);
}

struct ref_fwd_t;

struct ref_fwd_pd_t : public primitive_desc_impl_t<ref_fwd_pd_t, ref_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:softmax:ref"; }

    post_ops_chain_t post_ops;
    int nthr = 1;

    static status_t init(ref_fwd_pd_t &pd) {
        const auto &d = desc_of(pd);
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve_fwd(pd, src, dst, true));
        ANYDNN_CHECK(init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        pd.nthr = max_threads();
        pd.scratchpad_size = size_t(pd.nthr) * size_t(2 * src.dims[d.axis] + 16) * sizeof(float);
        return dnnl_success;
    }
};

struct ref_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_fwd_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        if (nelems(src_md) == 0) return dnnl_success;
        float src_scale, dst_scale;
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC, src_scale));
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_DST, dst_scale));
        const geom_t g = geom_of(src_md, d.axis);
        const row_walker_t w {&src_md, d.axis, g};
        const bool log_alg = d.alg_kind == dnnl_softmax_log;
        const void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        float *scratch = static_cast<float *>(ctx.scratchpad);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const size_t dsz = data_type_size(dst_md.data_type);
        const float inv = 1.f / dst_scale;
        for_rows(g.outer * g.inner, pd.nthr, [&](int ithr, dim_t start, dim_t end) {
            float *x = scratch + size_t(ithr) * size_t(2 * g.C + 16);
            float *y = x + g.C;
            dim_t pos[max_ndims];
            for (dim_t r = start; r < end; ++r) {
                w.start(r, pos);
                for (dim_t c = 0; c < g.C; ++c) {
                    pos[d.axis] = c;
                    x[c] = load_as_f32(src_md.data_type, src, off_logical(src_md, pos));
                }
                fwd_row_scalar(x, y, g.C, log_alg, src_scale);
                pos[d.axis] = 0;
                if (!po.empty()) {
                    const dim_t stride = run_stride(dst_md, d.axis, 0, g.C);
                    if (stride >= 0) {
                        po.apply(po_args, y, g.C, pos, d.axis,
                                static_cast<const char *>(dst)
                                        + off_logical(dst_md, pos) * dsz,
                                stride);
                    } else {
                        for (dim_t c = 0; c < g.C; ++c) {
                            pos[d.axis] = c;
                            po.apply(po_args, y + c, 1, pos, d.axis,
                                    static_cast<const char *>(dst)
                                            + off_logical(dst_md, pos) * dsz,
                                    1);
                        }
                    }
                }
                for (dim_t c = 0; c < g.C; ++c) {
                    pos[d.axis] = c;
                    store_from_f32(dst_md.data_type, dst, off_logical(dst_md, pos), y[c] * inv);
                }
            }
        });
        zero_padding(dst_md, dst);
        return dnnl_success;
    }
};

struct ref_bwd_t;

struct ref_bwd_pd_t : public primitive_desc_impl_t<ref_bwd_pd_t, ref_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:softmax:ref"; }

    int nthr = 1;

    static status_t init(ref_bwd_pd_t &pd) {
        const auto &d = desc_of(pd);
        memory_desc_t dst, diff_dst, diff_src;
        ANYDNN_CHECK(resolve_bwd(pd, dst, diff_dst, diff_src));
        set_bwd_args(pd, d.axis, dst, diff_dst, diff_src);
        return dnnl_success;
    }
};

struct ref_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_bwd_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &y_md = pd.arg_md(DNNL_ARG_DST);
        const memory_desc_t &g_md = pd.arg_md(DNNL_ARG_DIFF_DST);
        const memory_desc_t &o_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
        if (nelems(y_md) == 0) return dnnl_success;
        const geom_t g = geom_of(y_md, d.axis);
        const row_walker_t w {&y_md, d.axis, g};
        const bool log_alg = d.alg_kind == dnnl_softmax_log;
        const void *y = ctx.host_ptr(DNNL_ARG_DST);
        const void *gd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        void *o = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        float *scratch = static_cast<float *>(ctx.scratchpad);
        for_rows(g.outer * g.inner, pd.nthr, [&](int ithr, dim_t start, dim_t end) {
            float *yb = scratch + size_t(ithr) * size_t(3 * g.C + 16);
            float *gb = yb + g.C, *ob = gb + g.C;
            dim_t pos[max_ndims];
            for (dim_t r = start; r < end; ++r) {
                w.start(r, pos);
                for (dim_t c = 0; c < g.C; ++c) {
                    pos[d.axis] = c;
                    yb[c] = load_as_f32(y_md.data_type, y, off_logical(y_md, pos));
                    gb[c] = load_as_f32(g_md.data_type, gd, off_logical(g_md, pos));
                }
                bwd_row_scalar(yb, gb, ob, g.C, log_alg);
                for (dim_t c = 0; c < g.C; ++c) {
                    pos[d.axis] = c;
                    store_from_f32(o_md.data_type, o, off_logical(o_md, pos), ob[c]);
                }
            }
        });
        zero_padding(o_md, o);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t softmax_ref_fwd_entry() {
    return make_impl_entry<ref_fwd_pd_t>("cpu:softmax:ref");
}
impl_entry_t softmax_ref_bwd_entry() {
    return make_impl_entry<ref_bwd_pd_t>("cpu:softmax:ref");
}

} // namespace cpu
} // namespace anydnn
