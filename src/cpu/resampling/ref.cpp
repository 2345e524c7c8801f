// Reference resampling, forward (nearest/linear, any blocked layouts and data types,
// post-ops) and backward (diff_src gathers every dst position that read it).
#include "core/data_types.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/resampling/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "core/ops/resampling/coeffs.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace resampling;

struct ref_fwd_t;

struct ref_fwd_pd_t : public primitive_desc_impl_t<ref_fwd_pd_t, ref_fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:resampling:ref"; }

    post_ops_chain_t post_ops;

    static status_t init(ref_fwd_pd_t &pd) {
        ANYDNN_REQUIRE(is_fwd(desc_of(pd)), dnnl_unimplemented, "not a forward resampling");
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve(pd, src, dst));
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

    status_t init() override {
        geo_.reset(new geometry_t(pd().arg_md(DNNL_ARG_SRC), pd().arg_md(DNNL_ARG_DST),
                desc_of(pd()).alg_kind, false));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_fwd_pd_t &>(this->pd());
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        if (nelems(dst_md) == 0) return dnnl_success;
        const void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const geometry_t &g = *geo_;
        const dnnl_data_type_t sdt = src_md.data_type, ddt = dst_md.data_type;
        const size_t dsize = data_type_size(ddt);
        const int last = dst_md.ndims - 1;
        // One row: every ow of (n, c, od, oh).
        const dim_t rows = g.mb * g.c * g.out[0] * g.out[1];
        parallel_range(rows, [&](dim_t start, dim_t end) {
            dim_t sp[3], pos[max_ndims];
            for (dim_t r = start; r < end; ++r) {
                const dim_t oh = r % g.out[1], od = (r / g.out[1]) % g.out[0];
                const dim_t nc = r / (g.out[1] * g.out[0]);
                const dim_t ch = nc % g.c, n = nc / g.c;
                const tap_t &td = g.fwd[0][od], &th = g.fwd[1][oh];
                for (dim_t ow = 0; ow < g.out[2]; ++ow) {
                    const tap_t &tw = g.fwd[2][ow];
                    float v = 0.f;
                    for (int a = 0; a < 2; ++a) {
                        const float wa = a ? td.w1 : td.w0;
                        if (wa == 0.f) continue;
                        for (int b = 0; b < 2; ++b) {
                            const float wb = b ? th.w1 : th.w0;
                            if (wb == 0.f) continue;
                            for (int c = 0; c < 2; ++c) {
                                const float wc = c ? tw.w1 : tw.w0;
                                if (wc == 0.f) continue;
                                sp[0] = a ? td.i1 : td.i0;
                                sp[1] = b ? th.i1 : th.i0;
                                sp[2] = c ? tw.i1 : tw.i0;
                                g.position(n, ch, sp, pos);
                                v += wa * wb * wc
                                        * load_as_f32(sdt, src, off_logical(src_md, pos));
                            }
                        }
                    }
                    sp[0] = od;
                    sp[1] = oh;
                    sp[2] = ow;
                    g.position(n, ch, sp, pos);
                    const dim_t to = off_logical(dst_md, pos);
                    if (!po.empty())
                        po.apply(po_args, &v, 1, pos, last,
                                static_cast<char *>(dst) + to * dsize, 1);
                    store_from_f32(ddt, dst, to, v);
                }
            }
        }, 16);
        zero_padding(dst_md, dst);
        return dnnl_success;
    }

private:
    std::unique_ptr<geometry_t> geo_;
};

struct ref_bwd_t;

struct ref_bwd_pd_t : public primitive_desc_impl_t<ref_bwd_pd_t, ref_bwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:resampling:ref"; }

    static status_t init(ref_bwd_pd_t &pd) {
        ANYDNN_REQUIRE(!is_fwd(desc_of(pd)), dnnl_unimplemented, "not a backward resampling");
        memory_desc_t ds, dd;
        ANYDNN_CHECK(resolve(pd, ds, dd));
        ANYDNN_CHECK(check_attr(pd.attr, false));
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }
};

struct ref_bwd_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        geo_.reset(new geometry_t(pd().arg_md(DNNL_ARG_DIFF_SRC),
                pd().arg_md(DNNL_ARG_DIFF_DST), desc_of(pd()).alg_kind, true));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const memory_desc_t &ds_md = pd().arg_md(DNNL_ARG_DIFF_SRC);
        const memory_desc_t &dd_md = pd().arg_md(DNNL_ARG_DIFF_DST);
        if (nelems(ds_md) == 0) return dnnl_success;
        void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        const void *dd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        const geometry_t &g = *geo_;
        const dnnl_data_type_t sdt = ds_md.data_type, ddt = dd_md.data_type;
        const dim_t rows = g.mb * g.c * g.in[0] * g.in[1];
        parallel_range(rows, [&](dim_t start, dim_t end) {
            dim_t sp[3], pos[max_ndims];
            for (dim_t r = start; r < end; ++r) {
                const dim_t ih = r % g.in[1], id = (r / g.in[1]) % g.in[0];
                const dim_t nc = r / (g.in[1] * g.in[0]);
                const dim_t ch = nc % g.c, n = nc / g.c;
                for (dim_t iw = 0; iw < g.in[2]; ++iw) {
                    float v = 0.f;
                    for (dim_t a = g.bwd_off[0][id]; a < g.bwd_off[0][id + 1]; ++a)
                        for (dim_t b = g.bwd_off[1][ih]; b < g.bwd_off[1][ih + 1]; ++b)
                            for (dim_t c = g.bwd_off[2][iw]; c < g.bwd_off[2][iw + 1]; ++c) {
                                sp[0] = g.bwd[0][a].first;
                                sp[1] = g.bwd[1][b].first;
                                sp[2] = g.bwd[2][c].first;
                                g.position(n, ch, sp, pos);
                                v += g.bwd[0][a].second * g.bwd[1][b].second
                                        * g.bwd[2][c].second
                                        * load_as_f32(ddt, dd, off_logical(dd_md, pos));
                            }
                    sp[0] = id;
                    sp[1] = ih;
                    sp[2] = iw;
                    g.position(n, ch, sp, pos);
                    store_from_f32(sdt, ds, off_logical(ds_md, pos), v);
                }
            }
        }, 16);
        zero_padding(ds_md, ds);
        return dnnl_success;
    }

private:
    std::unique_ptr<geometry_t> geo_;
};

} // namespace

impl_entry_t resampling_ref_fwd_entry() {
    return make_impl_entry<ref_fwd_pd_t>("cpu:resampling:ref");
}
impl_entry_t resampling_ref_bwd_entry() {
    return make_impl_entry<ref_bwd_pd_t>("cpu:resampling:ref");
}

} // namespace cpu
} // namespace anydnn
