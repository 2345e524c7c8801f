// Fast resampling for tensors of one dense layout: ncx (rows along W gathered
// through the per-position tap tables), nxc and nCx8c/nCx16c (channel vectors combined with
// the weights of up to eight taps). Any forward data type, computed in f32, post-ops;
// backward gathers each diff_src element's readers. AVX-512 code generation where the CPU
// has it.
#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/resampling/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "core/ops/resampling/coeffs.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace resampling;

enum class fmt_t { ncx, nxc, blocked };

// Whether md is exactly the dense layout of `tag` for its dims (offset0 aside).
bool matches_tag(const memory_desc_t &md, dnnl_format_tag_t tag) {
    memory_desc_t t;
    if (md_init_with_tag(t, md.ndims, md.dims, md.data_type, tag) != dnnl_success) return false;
    const auto &a = md.blocking, &b = t.blocking;
    if (a.inner_nblks != b.inner_nblks) return false;
    for (int i = 0; i < a.inner_nblks; ++i)
        if (a.inner_blks[i] != b.inner_blks[i] || a.inner_idxs[i] != b.inner_idxs[i])
            return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != t.padded_dims[d]
                || (md.padded_dims[d] > 1 && a.strides[d] != b.strides[d]))
            return false;
    return true;
}

// The layout both tensors share and the channel block (V) of blocked ones.
bool find_format(const memory_desc_t &src, const memory_desc_t &dst, fmt_t &f, dim_t &v) {
    const int k = src.ndims - 3;
    const dnnl_format_tag_t ncx[] = {dnnl_abc, dnnl_abcd, dnnl_abcde};
    const dnnl_format_tag_t nxc[] = {dnnl_acb, dnnl_acdb, dnnl_acdeb};
    const dnnl_format_tag_t b16[] = {dnnl_aBc16b, dnnl_aBcd16b, dnnl_aBcde16b};
    const dnnl_format_tag_t b8[] = {dnnl_aBc8b, dnnl_aBcd8b, dnnl_aBcde8b};
    auto both = [&](dnnl_format_tag_t t) { return matches_tag(src, t) && matches_tag(dst, t); };
    if (both(ncx[k])) f = fmt_t::ncx, v = 1;
    else if (both(nxc[k])) f = fmt_t::nxc, v = src.dims[1];
    else if (both(b16[k])) f = fmt_t::blocked, v = 16;
    else if (both(b8[k])) f = fmt_t::blocked, v = 8;
    else return false;
    return true;
}

struct simple_fwd_t;

struct simple_fwd_pd_t : public primitive_desc_impl_t<simple_fwd_pd_t, simple_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return isa_enabled(dnnl_cpu_isa_avx512_core) ? "cpu:resampling:simple:avx512"
                                                     : "cpu:resampling:simple";
    }

    post_ops_chain_t post_ops;
    fmt_t fmt = fmt_t::ncx;
    dim_t vlen = 1;

    static status_t init(simple_fwd_pd_t &pd) {
        ANYDNN_REQUIRE(is_fwd(desc_of(pd)), dnnl_unimplemented, "not a forward resampling");
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve(pd, src, dst));
        ANYDNN_CHECK(check_attr(pd.attr, true));
        ANYDNN_REQUIRE(find_format(src, dst, pd.fmt, pd.vlen), dnnl_unimplemented,
                "src and dst are not both ncx, nxc, nCx8c or nCx16c");
        ANYDNN_REQUIRE(pd.vlen <= 4096, dnnl_unimplemented, "more than 4096 channels in nxc");
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        return dnnl_success;
    }
};

struct ctx_t {
    const geometry_t *g;
    const char *src;
    char *dst;
    dnnl_data_type_t sdt, ddt;
    dim_t ss[5], ds[5]; // strides: n, c block (or c), d, h, w
    dim_t vlen, ncb;
    const post_ops_chain_t *po;
    const post_ops_chain_t::exec_args_t *po_args;
    fmt_t fmt;
};

constexpr dim_t wmax = 1024; // ncx row chunk

// One dst row of ncx: every ow of (n, c, od, oh).
__attribute__((always_inline)) inline void row_ncx(const ctx_t &c, dim_t n, dim_t ch, dim_t od,
        dim_t oh) {
    const geometry_t &g = *c.g;
    const tap_t &td = g.fwd[0][od], &th = g.fwd[1][oh];
    const dim_t base = n * c.ss[0] + ch * c.ss[1];
    float out[wmax], row[wmax];
    const dim_t iw_n = g.in[2];
    for (dim_t w0 = 0; w0 < g.out[2]; w0 += wmax) {
        const dim_t nw = std::min(wmax, g.out[2] - w0);
        for (dim_t k = 0; k < nw; ++k)
            out[k] = 0.f;
        for (int a = 0; a < 2; ++a) {
            const float wa = a ? td.w1 : td.w0;
            if (wa == 0.f) continue;
            for (int b = 0; b < 2; ++b) {
                const float wb = b ? th.w1 : th.w0;
                if (wb == 0.f) continue;
                const dim_t off = base + (a ? td.i1 : td.i0) * c.ss[2]
                        + (b ? th.i1 : th.i0) * c.ss[3];
                const float *r;
                if (c.sdt == dnnl_f32) {
                    r = reinterpret_cast<const float *>(c.src) + off;
                } else if (iw_n <= wmax) {
                    for (dim_t k = 0; k < iw_n; ++k)
                        row[k] = load_as_f32(c.sdt, c.src, off + k);
                    r = row;
                } else {
                    for (dim_t k = 0; k < nw; ++k) {
                        const tap_t &tw = g.fwd[2][w0 + k];
                        out[k] += wa * wb
                                * (tw.w0 * load_as_f32(c.sdt, c.src, off + tw.i0)
                                        + tw.w1 * load_as_f32(c.sdt, c.src, off + tw.i1));
                    }
                    continue;
                }
                const float w = wa * wb;
                const tap_t *tw = &g.fwd[2][w0];
                for (dim_t k = 0; k < nw; ++k)
                    out[k] += w * (tw[k].w0 * r[tw[k].i0] + tw[k].w1 * r[tw[k].i1]);
            }
        }
        const dim_t to = n * c.ds[0] + ch * c.ds[1] + od * c.ds[2] + oh * c.ds[3] + w0;
        if (!c.po->empty()) {
            dim_t pos[max_ndims] = {n, ch, 0, 0, 0};
            const int nsp = g.ndims - 2;
            if (nsp == 3) pos[2] = od;
            if (nsp >= 2) pos[g.ndims - 2] = oh;
            pos[g.ndims - 1] = w0;
            c.po->apply(*c.po_args, out, nw, pos, g.ndims - 1,
                    c.dst + to * data_type_size(c.ddt), 1);
        }
        if (c.ddt == dnnl_f32) {
            float *t = reinterpret_cast<float *>(c.dst) + to;
            for (dim_t k = 0; k < nw; ++k)
                t[k] = out[k];
        } else {
            for (dim_t k = 0; k < nw; ++k)
                store_from_f32(c.ddt, c.dst, to + k, out[k]);
        }
    }
}

// One dst row of nxc / blocked: every ow of (n, c block, od, oh), channel vectors.
__attribute__((always_inline)) inline void row_vec(const ctx_t &c, dim_t n, dim_t cb, dim_t od,
        dim_t oh) {
    const geometry_t &g = *c.g;
    const tap_t &td = g.fwd[0][od], &th = g.fwd[1][oh];
    const dim_t V = c.vlen;
    const dim_t base = n * c.ss[0] + cb * c.ss[1];
    float out[4096];
    const dim_t c0 = c.fmt == fmt_t::blocked ? cb * V : 0;
    const dim_t nc = c.fmt == fmt_t::blocked ? std::min(V, g.c - c0) : V;
    for (dim_t ow = 0; ow < g.out[2]; ++ow) {
        const tap_t &tw = g.fwd[2][ow];
        for (dim_t k = 0; k < V; ++k)
            out[k] = 0.f;
        for (int a = 0; a < 2; ++a) {
            const float wa = a ? td.w1 : td.w0;
            if (wa == 0.f) continue;
            for (int b = 0; b < 2; ++b) {
                const float wb = b ? th.w1 : th.w0;
                if (wb == 0.f) continue;
                for (int e = 0; e < 2; ++e) {
                    const float we = e ? tw.w1 : tw.w0;
                    if (we == 0.f) continue;
                    const float w = wa * wb * we;
                    const dim_t off = base + (a ? td.i1 : td.i0) * c.ss[2]
                            + (b ? th.i1 : th.i0) * c.ss[3] + (e ? tw.i1 : tw.i0) * c.ss[4];
                    if (c.sdt == dnnl_f32) {
                        const float *s = reinterpret_cast<const float *>(c.src) + off;
                        for (dim_t k = 0; k < V; ++k)
                            out[k] += w * s[k];
                    } else {
                        for (dim_t k = 0; k < V; ++k)
                            out[k] += w * load_as_f32(c.sdt, c.src, off + k);
                    }
                }
            }
        }
        const dim_t to = n * c.ds[0] + cb * c.ds[1] + od * c.ds[2] + oh * c.ds[3] + ow * c.ds[4];
        if (!c.po->empty()) {
            dim_t pos[max_ndims] = {n, c0, 0, 0, 0};
            const int nsp = g.ndims - 2;
            if (nsp == 3) pos[2] = od;
            if (nsp >= 2) pos[g.ndims - 2] = oh;
            pos[g.ndims - 1] = ow;
            c.po->apply(*c.po_args, out, nc, pos, 1, c.dst + to * data_type_size(c.ddt), 1);
        }
        if (c.ddt == dnnl_f32) {
            float *t = reinterpret_cast<float *>(c.dst) + to;
            for (dim_t k = 0; k < V; ++k)
                t[k] = out[k];
        } else {
            for (dim_t k = 0; k < V; ++k)
                store_from_f32(c.ddt, c.dst, to + k, out[k]);
        }
    }
}

__attribute__((always_inline)) inline void rows(const ctx_t &c, dim_t start, dim_t end) {
    const geometry_t &g = *c.g;
    for (dim_t r = start; r < end; ++r) {
        const dim_t oh = r % g.out[1], od = (r / g.out[1]) % g.out[0];
        const dim_t nc = r / (g.out[1] * g.out[0]);
        const dim_t cb = nc % c.ncb, n = nc / c.ncb;
        if (c.fmt == fmt_t::ncx) row_ncx(c, n, cb, od, oh);
        else row_vec(c, n, cb, od, oh);
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void rows_avx512(
        const ctx_t &c, dim_t start, dim_t end) {
    rows(c, start, end);
}
void rows_generic(const ctx_t &c, dim_t start, dim_t end) {
    rows(c, start, end);
}

// Backward: one diff_src row (every iw of (n, c or c block, id, ih)), each element gathering
// the diff_dst positions that read it (channel vectors for nxc / blocked).
__attribute__((always_inline)) inline void bwd_rows(const ctx_t &c, dim_t start, dim_t end) {
    const geometry_t &g = *c.g;
    const bool vec = c.fmt != fmt_t::ncx;
    const dim_t V = vec ? c.vlen : 1;
    float out[4096];
    for (dim_t r = start; r < end; ++r) {
        const dim_t ih = r % g.in[1], id = (r / g.in[1]) % g.in[0];
        const dim_t nc = r / (g.in[1] * g.in[0]);
        const dim_t cb = nc % c.ncb, n = nc / c.ncb;
        const dim_t base = n * c.ds[0] + cb * c.ds[1]; // diff_dst
        for (dim_t iw = 0; iw < g.in[2]; ++iw) {
            for (dim_t k = 0; k < V; ++k)
                out[k] = 0.f;
            for (dim_t a = g.bwd_off[0][id]; a < g.bwd_off[0][id + 1]; ++a)
                for (dim_t b = g.bwd_off[1][ih]; b < g.bwd_off[1][ih + 1]; ++b) {
                    const float wab = g.bwd[0][a].second * g.bwd[1][b].second;
                    const dim_t off_ab = base + g.bwd[0][a].first * c.ds[2]
                            + g.bwd[1][b].first * c.ds[3];
                    for (dim_t e = g.bwd_off[2][iw]; e < g.bwd_off[2][iw + 1]; ++e) {
                        const float w = wab * g.bwd[2][e].second;
                        const dim_t off = off_ab + g.bwd[2][e].first * c.ds[4];
                        if (c.ddt == dnnl_f32) {
                            const float *x = reinterpret_cast<const float *>(c.src) + off;
                            for (dim_t k = 0; k < V; ++k)
                                out[k] += w * x[k];
                        } else {
                            for (dim_t k = 0; k < V; ++k)
                                out[k] += w * load_as_f32(c.ddt, c.src, off + k);
                        }
                    }
                }
            const dim_t to = n * c.ss[0] + cb * c.ss[1] + id * c.ss[2] + ih * c.ss[3]
                    + iw * c.ss[4];
            if (c.sdt == dnnl_f32) {
                float *t = reinterpret_cast<float *>(c.dst) + to;
                for (dim_t k = 0; k < V; ++k)
                    t[k] = out[k];
            } else {
                for (dim_t k = 0; k < V; ++k)
                    store_from_f32(c.sdt, c.dst, to + k, out[k]);
            }
        }
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void bwd_rows_avx512(
        const ctx_t &c, dim_t start, dim_t end) {
    bwd_rows(c, start, end);
}
void bwd_rows_generic(const ctx_t &c, dim_t start, dim_t end) {
    bwd_rows(c, start, end);
}

// Strides of (n, c or c block, d, h, w); missing spatial dims have stride 0.
void dhw_strides(const memory_desc_t &md, dim_t *s) {
    const int nsp = md.ndims - 2;
    s[0] = md.blocking.strides[0];
    s[1] = md.blocking.strides[1];
    s[2] = s[3] = s[4] = 0;
    for (int k = 0; k < nsp; ++k)
        s[5 - nsp + k] = md.blocking.strides[2 + k];
}

struct simple_bwd_t;

struct simple_bwd_pd_t : public primitive_desc_impl_t<simple_bwd_pd_t, simple_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return isa_enabled(dnnl_cpu_isa_avx512_core) ? "cpu:resampling:simple:avx512"
                                                     : "cpu:resampling:simple";
    }

    fmt_t fmt = fmt_t::ncx;
    dim_t vlen = 1;

    static status_t init(simple_bwd_pd_t &pd) {
        ANYDNN_REQUIRE(!is_fwd(desc_of(pd)), dnnl_unimplemented, "not a backward resampling");
        memory_desc_t ds, dd;
        ANYDNN_CHECK(resolve(pd, ds, dd));
        ANYDNN_CHECK(check_attr(pd.attr, false));
        ANYDNN_REQUIRE(find_format(ds, dd, pd.fmt, pd.vlen), dnnl_unimplemented,
                "diff_src and diff_dst are not both ncx, nxc, nCx8c or nCx16c");
        ANYDNN_REQUIRE(pd.vlen <= 4096, dnnl_unimplemented, "more than 4096 channels in nxc");
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }
};

struct simple_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        geo_.reset(new geometry_t(pd().arg_md(DNNL_ARG_DIFF_SRC),
                pd().arg_md(DNNL_ARG_DIFF_DST), desc_of(pd()).alg_kind, true));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const simple_bwd_pd_t &>(this->pd());
        const memory_desc_t &ds_md = pd.arg_md(DNNL_ARG_DIFF_SRC);
        const memory_desc_t &dd_md = pd.arg_md(DNNL_ARG_DIFF_DST);
        if (nelems(ds_md) == 0) return dnnl_success;
        const geometry_t &g = *geo_;
        // In this context src is diff_dst (read) and dst is diff_src (written); ss and sdt
        // describe diff_src, ds and ddt diff_dst.
        ctx_t c {};
        c.g = &g;
        c.sdt = ds_md.data_type;
        c.ddt = dd_md.data_type;
        c.src = static_cast<const char *>(ctx.host_ptr(DNNL_ARG_DIFF_DST))
                + dd_md.offset0 * data_type_size(c.ddt);
        c.dst = static_cast<char *>(ctx.host_ptr(DNNL_ARG_DIFF_SRC))
                + ds_md.offset0 * data_type_size(c.sdt);
        c.fmt = pd.fmt;
        c.vlen = pd.vlen;
        c.ncb = pd.fmt == fmt_t::blocked ? (g.c + pd.vlen - 1) / pd.vlen
                : pd.fmt == fmt_t::nxc   ? 1
                                         : g.c;
        dhw_strides(ds_md, c.ss);
        dhw_strides(dd_md, c.ds);
        const dim_t nrows = g.mb * c.ncb * g.in[0] * g.in[1];
        const dim_t per_row = g.in[2] * c.vlen * 4;
        const bool avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
        parallel_range(nrows, [&](dim_t start, dim_t end) {
            if (avx512) bwd_rows_avx512(c, start, end);
            else bwd_rows_generic(c, start, end);
        }, std::max<dim_t>(1, 8192 / std::max<dim_t>(1, per_row)));
        return dnnl_success;
    }

private:
    std::unique_ptr<geometry_t> geo_;
};

struct simple_fwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        geo_.reset(new geometry_t(pd().arg_md(DNNL_ARG_SRC), pd().arg_md(DNNL_ARG_DST),
                desc_of(pd()).alg_kind, false));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const simple_fwd_pd_t &>(this->pd());
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        if (nelems(dst_md) == 0) return dnnl_success;
        const geometry_t &g = *geo_;
        const auto po_args = pd.post_ops.bind(ctx);
        ctx_t c;
        c.g = &g;
        c.sdt = src_md.data_type;
        c.ddt = dst_md.data_type;
        c.src = static_cast<const char *>(ctx.host_ptr(DNNL_ARG_SRC))
                + src_md.offset0 * data_type_size(c.sdt);
        c.dst = static_cast<char *>(ctx.host_ptr(DNNL_ARG_DST))
                + dst_md.offset0 * data_type_size(c.ddt);
        c.fmt = pd.fmt;
        c.vlen = pd.vlen;
        c.ncb = pd.fmt == fmt_t::blocked ? (g.c + pd.vlen - 1) / pd.vlen
                : pd.fmt == fmt_t::nxc   ? 1
                                         : g.c;
        c.po = &pd.post_ops;
        c.po_args = &po_args;
        // Strides of (n, c or c block, d, h, w); missing spatial dims have stride 0.
        auto strides = [&](const memory_desc_t &md, dim_t *s) {
            const int nsp = md.ndims - 2;
            s[0] = md.blocking.strides[0];
            s[1] = md.blocking.strides[1];
            s[2] = s[3] = s[4] = 0;
            for (int k = 0; k < nsp; ++k)
                s[5 - nsp + k] = md.blocking.strides[2 + k];
        };
        strides(src_md, c.ss);
        strides(dst_md, c.ds);
        const dim_t nrows = g.mb * c.ncb * g.out[0] * g.out[1];
        const dim_t per_row = g.out[2] * c.vlen;
        const bool avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
        parallel_range(nrows, [&](dim_t start, dim_t end) {
            if (avx512) rows_avx512(c, start, end);
            else rows_generic(c, start, end);
        }, std::max<dim_t>(1, 8192 / std::max<dim_t>(1, per_row)));
        if (pd.fmt == fmt_t::blocked && g.c % pd.vlen) zero_padding(dst_md, ctx.host_ptr(DNNL_ARG_DST));
        return dnnl_success;
    }

private:
    std::unique_ptr<geometry_t> geo_;
};

} // namespace

impl_entry_t resampling_simple_fwd_entry() {
    return make_impl_entry<simple_fwd_pd_t>("cpu:resampling:simple");
}
impl_entry_t resampling_simple_bwd_entry() {
    return make_impl_entry<simple_bwd_pd_t>("cpu:resampling:simple");
}

} // namespace cpu
} // namespace anydnn
