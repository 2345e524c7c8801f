// The CPU layer normalization row loop both implementations run (dense rows straight from
// memory with AVX-512, or any blocked layout gathered through logical offsets).
#include "cpu/lnorm/execute.hpp"

#include <algorithm>
#include <cstring>

#include <immintrin.h>

#include "core/data_types.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"
#include "cpu/lnorm/rows.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

namespace {

// Outputs at least this big bypass the cache (half the last-level cache here).
constexpr size_t stream_bytes = size_t(16) << 20;

} // namespace

namespace {

// Offsets of row r's elements and statistics: direct for dense rows, else through logical
// positions (rows numbered row-major over all dims but the last).
struct rows_t {
    bool dense;
    int last;
    const memory_desc_t *stat;
    dim_t C;
    void pos_of(dim_t r, dim_t *pos, const memory_desc_t &md) const {
        for (int k = last - 1; k >= 0; --k) {
            pos[k] = r % md.dims[k];
            r /= md.dims[k];
        }
    }
    // Logical position of row r's first element: dense rows are numbered in memory order
    // (one plain layout for every data tensor), the others row-major.
    void row_pos(dim_t r, dim_t *pos, const memory_desc_t &md) const {
        if (!dense) return pos_of(r, pos, md);
        int order[max_ndims], n = 0;
        for (int k = 0; k < last; ++k) {
            pos[k] = 0;
            if (md.dims[k] > 1) order[n++] = k;
        }
        // Dims of a plain dense layout, outermost (largest stride) first.
        std::sort(order, order + n, [&](int a, int b) {
            return md.blocking.strides[a] > md.blocking.strides[b];
        });
        dim_t off = r * C;
        for (int i = 0; i < n; ++i) {
            const dim_t st = md.blocking.strides[order[i]];
            pos[order[i]] = off / st;
            off %= st;
        }
        pos[last] = 0;
    }
    dim_t stat_off(dim_t r, const memory_desc_t &src) const {
        if (dense) return stat->offset0 + r;
        dim_t pos[max_ndims] = {};
        pos_of(r, pos, src);
        return off_logical(*stat, pos);
    }
    void load(const memory_desc_t &md, const void *base, dim_t r, float *buf) const {
        if (dense) {
            for (dim_t c = 0; c < C; ++c)
                buf[c] = load_as_f32(md.data_type, base, md.offset0 + r * C + c);
            return;
        }
        dim_t pos[max_ndims] = {};
        pos_of(r, pos, md);
        for (dim_t c = 0; c < C; ++c) {
            pos[last] = c;
            buf[c] = load_as_f32(md.data_type, base, off_logical(md, pos));
        }
    }
    void store(const memory_desc_t &md, void *base, dim_t r, const float *buf) const {
        if (dense) {
            for (dim_t c = 0; c < C; ++c)
                store_from_f32(md.data_type, base, md.offset0 + r * C + c, buf[c]);
            return;
        }
        dim_t pos[max_ndims] = {};
        pos_of(r, pos, md);
        for (dim_t c = 0; c < C; ++c) {
            pos[last] = c;
            store_from_f32(md.data_type, base, off_logical(md, pos), buf[c]);
        }
    }
};

void load_vec(const exec_ctx_t &ctx, const primitive_desc_t &pd, int arg, dim_t C, float *to) {
    const memory_desc_t &md = pd.arg_md(arg);
    const void *p = ctx.host_ptr(arg);
    for (dim_t c = 0; c < C; ++c)
        to[c] = load_as_f32(md.data_type, p, md.offset0 + c);
}

} // namespace

status_t execute(const primitive_desc_t &pd, const exec_ctx_t &ctx, int max_nthr, bool dense,
        const post_ops_chain_t &po) {
    const auto &d = desc_of(pd);
    const bool fwd = is_fwd(d.prop_kind);
    const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
    const int last = src_md.ndims - 1;
    const dim_t C = src_md.dims[last];
    const dim_t n = nelems(src_md);
    const dim_t nrows = C == 0 ? 0 : n / C;
    const bool rms = d.flags & dnnl_rms_norm;
    const bool global = d.flags & dnnl_use_global_stats;
    float *scratch = static_cast<float *>(ctx.scratchpad);
    float *gamma = nullptr, *beta = nullptr;
    if (d.flags & dnnl_use_scale) {
        gamma = scratch;
        load_vec(ctx, pd, DNNL_ARG_SCALE, C, gamma);
    }
    if (fwd && (d.flags & dnnl_use_shift)) {
        beta = scratch + C;
        load_vec(ctx, pd, DNNL_ARG_SHIFT, C, beta);
    }
    float *per_thr = scratch + 2 * C + 16;
    const size_t thr_stride = size_t(5 * C + 32);

    const bool vec = dense && isa_enabled(dnnl_cpu_isa_avx512_core);
    const memory_desc_t &stat_md = pd.arg_md(DNNL_ARG_VARIANCE);
    const rows_t rows {dense, last, &stat_md, C};
    float *mean = ctx.host_ptr<float>(DNNL_ARG_MEAN);
    float *var = ctx.host_ptr<float>(DNNL_ARG_VARIANCE);
    const void *src = ctx.host_ptr(DNNL_ARG_SRC);

    row_args_t a;
    a.gamma = gamma;
    a.beta = beta;
    a.rms = rms;
    a.eps = d.epsilon;

    const dim_t min_rows = std::max<dim_t>(1, 8192 / std::max<dim_t>(1, C));
    const int nthr = static_cast<int>(std::min<dim_t>(std::min(max_threads(), max_nthr),
            std::max<dim_t>(1, nrows / min_rows)));

    if (fwd) {
        float src_scale, dst_scale;
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC, src_scale));
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_DST, dst_scale));
        // Post-ops run between the src scale and the dst scale, on rows in the buffer.
        const bool with_po = !po.empty();
        a.out_scale = with_po ? src_scale : src_scale / dst_scale;
        const auto po_args = po.bind(ctx);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const bool direct = vec && src_md.data_type == dnnl_f32 && dst_md.data_type == dnnl_f32
                && !with_po;
        const bool stream = direct && size_t(n) * sizeof(float) >= stream_bytes;
        const bool write_stats = stats_out(d);
        if (nrows > 0)
            parallel(nthr, [&](int ithr, int nt) {
                dim_t start, end;
                balance211(nrows, nt, ithr, start, end);
                float *xb = per_thr + ithr * thr_stride, *yb = xb + C;
                for (dim_t r = start; r < end; ++r) {
                    const float *x;
                    float *y;
                    if (direct) {
                        x = static_cast<const float *>(src) + src_md.offset0 + r * C;
                        y = static_cast<float *>(dst) + dst_md.offset0 + r * C;
                    } else {
                        rows.load(src_md, src, r, xb);
                        x = xb;
                        y = yb;
                    }
                    float m = 0.f, v = 0.f;
                    const dim_t so = global || write_stats ? rows.stat_off(r, src_md) : 0;
                    if (global) {
                        m = rms ? 0.f : mean[so];
                        v = var[so];
                    } else if (vec) {
                        stats_row_avx512(x, C, rms, m, v);
                    } else {
                        stats_row_scalar(x, C, rms, m, v);
                    }
                    if (write_stats) {
                        if (!rms) mean[so] = m;
                        var[so] = v;
                    }
                    if (vec)
                        fwd_row_avx512(x, y, C, a, m, v, stream,
                                direct && r + 1 < end ? x + C : nullptr);
                    else
                        fwd_row_scalar(x, y, C, a, m, v);
                    if (with_po) {
                        dim_t pos[max_ndims] = {};
                        rows.row_pos(r, pos, src_md);
                        po.apply(po_args, y, C, pos, last, nullptr, 0);
                        for (dim_t c = 0; c < C; ++c)
                            y[c] /= dst_scale;
                    }
                    if (!direct) rows.store(dst_md, dst, r, yb);
                }
                if (stream) _mm_sfence();
            });
        if (!dense) zero_padding(dst_md, dst);
        return dnnl_success;
    }

    const memory_desc_t &dd_md = pd.arg_md(DNNL_ARG_DIFF_DST);
    const memory_desc_t &ds_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
    const void *dd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
    void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    const bool want_dg = d.prop_kind == dnnl_backward && (d.flags & dnnl_use_scale);
    const bool want_db = d.prop_kind == dnnl_backward && (d.flags & dnnl_use_shift);
    const bool direct = vec && src_md.data_type == dnnl_f32 && dd_md.data_type == dnnl_f32
            && ds_md.data_type == dnnl_f32;
    const bool stream = direct && size_t(n) * sizeof(float) >= stream_bytes;
    int used = 1;
    parallel(nthr, [&](int ithr, int nt) {
        if (ithr == 0) used = nt;
        float *xb = per_thr + ithr * thr_stride, *gb = xb + C, *ob = gb + C;
        float *dg = ob + C, *db = dg + C;
        if (want_dg) std::fill(dg, dg + C, 0.f);
        if (want_db) std::fill(db, db + C, 0.f);
        dim_t start, end;
        balance211(nrows, nt, ithr, start, end);
        for (dim_t r = start; r < end; ++r) {
            const float *x, *g;
            float *o;
            if (direct) {
                x = static_cast<const float *>(src) + src_md.offset0 + r * C;
                g = static_cast<const float *>(dd) + dd_md.offset0 + r * C;
                o = static_cast<float *>(ds) + ds_md.offset0 + r * C;
            } else {
                rows.load(src_md, src, r, xb);
                rows.load(dd_md, dd, r, gb);
                x = xb;
                g = gb;
                o = ob;
            }
            const dim_t so = rows.stat_off(r, src_md);
            const float m = rms ? 0.f : mean[so], v = var[so];
            if (vec)
                bwd_row_avx512(x, g, o, C, a, m, v, global, want_dg ? dg : nullptr,
                        want_db ? db : nullptr, stream, direct && r + 1 < end ? x + C : nullptr,
                        direct && r + 1 < end ? g + C : nullptr);
            else
                bwd_row_scalar(x, g, o, C, a, m, v, global, want_dg ? dg : nullptr,
                        want_db ? db : nullptr);
            if (!direct) rows.store(ds_md, ds, r, ob);
        }
        if (stream) _mm_sfence();
    });
    if (!dense) zero_padding(ds_md, ds);
    for (int which = 0; which < 2; ++which) {
        if (which == 0 ? !want_dg : !want_db) continue;
        const int arg = which == 0 ? DNNL_ARG_DIFF_SCALE : DNNL_ARG_DIFF_SHIFT;
        const memory_desc_t &md = pd.arg_md(arg);
        void *out = ctx.host_ptr(arg);
        for (dim_t c = 0; c < C; ++c) {
            float s = 0.f;
            for (int t = 0; t < used; ++t)
                s += per_thr[t * thr_stride + 3 * C + which * C + c];
            store_from_f32(md.data_type, out, md.offset0 + c, s);
        }
    }
    return dnnl_success;
}

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
