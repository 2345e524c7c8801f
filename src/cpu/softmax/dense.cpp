// Softmax over rows that are contiguous in memory (dense plain layouts whose softmax axis has
// stride 1), forward and backward. f32 rows go straight through the AVX-512 row kernels
// (max, exp + sum in cache, scaled store; non-temporal when dst outgrows the cache); other
// data types and post-ops go through f32 row buffers.
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
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace softmax;

// Outputs at least this big bypass the cache (half the last-level cache here).
constexpr size_t stream_bytes = size_t(16) << 20;

status_t check_rows(const memory_desc_t &md, int axis, const char *name) {
    ANYDNN_REQUIRE(is_dense_unpadded(md) && is_plain(md), dnnl_unimplemented,
            "%s is not a dense plain layout", name);
    ANYDNN_REQUIRE(md.dims[axis] <= 1 || md.blocking.strides[axis] == 1,
            dnnl_unimplemented, "%s: the softmax axis is not the innermost dimension", name);
    return dnnl_success;
}

template <typename T>
T *at(void *base, const memory_desc_t &md) {
    return reinterpret_cast<T *>(
            static_cast<char *>(base) + md.offset0 * data_type_size(md.data_type));
}

// Rows [start, end) of thread ithr; at least 8 K elements of work per thread.
template <typename F>
void for_rows(dim_t nrows, dim_t C, int max_nthr, F f) {
    parallel_split(nrows, max_nthr, std::max<dim_t>(1, 8192 / std::max<dim_t>(1, C)), f);
}

struct dense_fwd_t;

struct dense_fwd_pd_t : public primitive_desc_impl_t<dense_fwd_pd_t, dense_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:softmax:dense"; }

    post_ops_chain_t post_ops;
    int nthr = 1;

    static status_t init(dense_fwd_pd_t &pd) {
        const auto &d = desc_of(pd);
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve_fwd(pd, src, dst, true));
        ANYDNN_CHECK(check_rows(src, d.axis, "src"));
        ANYDNN_REQUIRE(same_layout(src, dst), dnnl_unimplemented, "src and dst layouts differ");
        ANYDNN_CHECK(init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        ANYDNN_REQUIRE(pd.post_ops.flat_ok(), dnnl_unimplemented,
                "post-op operands do not broadcast along dst's memory order");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        pd.nthr = max_threads();
        pd.scratchpad_size = size_t(pd.nthr) * size_t(2 * src.dims[d.axis] + 16) * sizeof(float);
        return dnnl_success;
    }
};

struct dense_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const dense_fwd_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        const dim_t n = nelems(src_md);
        if (n == 0) return dnnl_success;
        float src_scale, dst_scale;
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC, src_scale));
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_DST, dst_scale));
        const dim_t C = src_md.dims[d.axis];
        const dim_t nrows = n / C;
        const bool log_alg = d.alg_kind == dnnl_softmax_log;
        const bool vec = isa_enabled(dnnl_cpu_isa_avx512_core);
        const dnnl_data_type_t sdt = src_md.data_type, ddt = dst_md.data_type;
        const char *src = at<const char>(ctx.host_ptr(DNNL_ARG_SRC), src_md);
        char *dst = at<char>(ctx.host_ptr(DNNL_ARG_DST), dst_md);
        float *scratch = static_cast<float *>(ctx.scratchpad);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const size_t ssz = data_type_size(sdt), dsz = data_type_size(ddt);

        if (sdt == dnnl_f32 && ddt == dnnl_f32 && po.empty()) {
            const float k = src_scale / dst_scale;
            const bool stream = vec && size_t(n) * sizeof(float) >= stream_bytes;
            const float *s = reinterpret_cast<const float *>(src);
            float *t = reinterpret_cast<float *>(dst);
            for_rows(nrows, C, pd.nthr, [&](int ithr, dim_t start, dim_t end) {
                float *tmp = scratch + size_t(ithr) * size_t(2 * C + 16);
                for (dim_t r = start; r < end; ++r) {
                    if (vec)
                        fwd_row_avx512(s + r * C, t + r * C, C, log_alg, k, stream, tmp,
                                r + 1 < end ? s + (r + 1) * C : nullptr);
                    else
                        fwd_row_scalar(s + r * C, t + r * C, C, log_alg, k);
                }
                if (stream) stream_fence();
            });
            return dnnl_success;
        }
        // Other types and post-ops: f32 row buffers; src scale before post-ops, dst after.
        for_rows(nrows, C, pd.nthr, [&](int ithr, dim_t start, dim_t end) {
            float *x = scratch + size_t(ithr) * size_t(2 * C + 16);
            float *y = x + C;
            for (dim_t r = start; r < end; ++r) {
                const char *sr = src + r * C * ssz;
                char *dr = dst + r * C * dsz;
                for (dim_t c = 0; c < C; ++c)
                    x[c] = load_as_f32(sdt, sr, c);
                if (vec)
                    fwd_row_avx512(x, y, C, log_alg, src_scale, false, nullptr);
                else
                    fwd_row_scalar(x, y, C, log_alg, src_scale);
                if (!po.empty()) po.apply_flat(po_args, y, C, r * C, dr);
                const float inv = 1.f / dst_scale;
                for (dim_t c = 0; c < C; ++c)
                    store_from_f32(ddt, dr, c, y[c] * inv);
            }
        });
        return dnnl_success;
    }
};

struct dense_bwd_t;

struct dense_bwd_pd_t : public primitive_desc_impl_t<dense_bwd_pd_t, dense_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:softmax:dense"; }

    int nthr = 1;

    static status_t init(dense_bwd_pd_t &pd) {
        const auto &d = desc_of(pd);
        memory_desc_t dst, diff_dst, diff_src;
        ANYDNN_CHECK(resolve_bwd(pd, dst, diff_dst, diff_src));
        ANYDNN_CHECK(check_rows(dst, d.axis, "dst"));
        ANYDNN_REQUIRE(same_layout(dst, diff_dst) && same_layout(dst, diff_src),
                dnnl_unimplemented, "dst, diff_dst and diff_src layouts differ");
        set_bwd_args(pd, d.axis, dst, diff_dst, diff_src);
        return dnnl_success;
    }
};

struct dense_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const dense_bwd_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &y_md = pd.arg_md(DNNL_ARG_DST);
        const memory_desc_t &g_md = pd.arg_md(DNNL_ARG_DIFF_DST);
        const memory_desc_t &o_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
        const dim_t n = nelems(y_md);
        if (n == 0) return dnnl_success;
        const dim_t C = y_md.dims[d.axis];
        const dim_t nrows = n / C;
        const bool log_alg = d.alg_kind == dnnl_softmax_log;
        const bool vec = isa_enabled(dnnl_cpu_isa_avx512_core);
        const char *y = at<const char>(ctx.host_ptr(DNNL_ARG_DST), y_md);
        const char *g = at<const char>(ctx.host_ptr(DNNL_ARG_DIFF_DST), g_md);
        char *o = at<char>(ctx.host_ptr(DNNL_ARG_DIFF_SRC), o_md);
        float *scratch = static_cast<float *>(ctx.scratchpad);
        const dnnl_data_type_t ydt = y_md.data_type, gdt = g_md.data_type, odt = o_md.data_type;

        if (ydt == dnnl_f32 && gdt == dnnl_f32 && odt == dnnl_f32) {
            const bool stream = vec && size_t(n) * sizeof(float) >= stream_bytes;
            const float *yf = reinterpret_cast<const float *>(y);
            const float *gf = reinterpret_cast<const float *>(g);
            float *of = reinterpret_cast<float *>(o);
            for_rows(nrows, C, pd.nthr, [&](int, dim_t start, dim_t end) {
                for (dim_t r = start; r < end; ++r) {
                    if (vec)
                        bwd_row_avx512(yf + r * C, gf + r * C, of + r * C, C, log_alg, stream,
                                r + 1 < end ? yf + (r + 1) * C : nullptr,
                                r + 1 < end ? gf + (r + 1) * C : nullptr);
                    else
                        bwd_row_scalar(yf + r * C, gf + r * C, of + r * C, C, log_alg);
                }
                if (stream) stream_fence();
            });
            return dnnl_success;
        }
        const size_t ysz = data_type_size(ydt), gsz = data_type_size(gdt),
                     osz = data_type_size(odt);
        for_rows(nrows, C, pd.nthr, [&](int ithr, dim_t start, dim_t end) {
            float *yb = scratch + size_t(ithr) * size_t(3 * C + 16);
            float *gb = yb + C, *ob = gb + C;
            for (dim_t r = start; r < end; ++r) {
                for (dim_t c = 0; c < C; ++c) {
                    yb[c] = load_as_f32(ydt, y + r * C * ysz, c);
                    gb[c] = load_as_f32(gdt, g + r * C * gsz, c);
                }
                if (vec)
                    bwd_row_avx512(yb, gb, ob, C, log_alg, false);
                else
                    bwd_row_scalar(yb, gb, ob, C, log_alg);
                for (dim_t c = 0; c < C; ++c)
                    store_from_f32(odt, o + r * C * osz, c, ob[c]);
            }
        });
        return dnnl_success;
    }
};

} // namespace

impl_entry_t softmax_dense_fwd_entry() {
    return make_impl_entry<dense_fwd_pd_t>("cpu:softmax:dense");
}
impl_entry_t softmax_dense_bwd_entry() {
    return make_impl_entry<dense_bwd_pd_t>("cpu:softmax:dense");
}

} // namespace cpu
} // namespace anydnn
