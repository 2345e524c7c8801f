// Inner product as GEMMs on the shared ukernel (cpu/ukernels/gemm): src (2D-5D) flattened to
// [MB, K] in memory order, weights [OC, K] in the same order of their inner dimensions.
// forward: dst = src * wei^T; backward data: diff_src = diff_dst * wei;
// backward weights: diff_wei = diff_dst^T * src, diff_bias = column sums of diff_dst.
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "core/data_types.hpp"
#include "core/ops/inner_product/layouts.hpp"
#include "core/ops/layout.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/layout_copy.hpp"
#include "cpu/matmul/out_stage.hpp"
#include "cpu/tensor_run.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {

namespace {

const inner_product_desc_t &ip_of(const primitive_desc_t &pd) {
    return std::get<inner_product_desc_t>(pd.desc);
}

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

struct free_deleter {
    void operator()(float *p) const { std::free(p); }
};
using fbuf_t = std::unique_ptr<float, free_deleter>;
fbuf_t alloc_f32(dim_t n) {
    return fbuf_t(static_cast<float *>(std::aligned_alloc(64, (n * 4 + 63) / 64 * 64 + 64)));
}

// A GEMM operand in the layout the GEMM runs on (`comp`): the user's buffer where its layout
// is that one, else a copy, filled now for inputs and copied back by `finish` for outputs.
struct staged_t {
    fbuf_t copy;
    void *base = nullptr;

    status_t init(const memory_desc_t &user, void *user_base, const memory_desc_t &comp,
            bool input) {
        base = user_base;
        if (md_equal(user, comp) || nelems(comp) == 0) return dnnl_success;
        copy = alloc_f32((size_in_bytes(comp) + 3) / 4);
        ANYDNN_REQUIRE(copy, dnnl_out_of_memory, "no memory for a copy of %zu bytes",
                size_in_bytes(comp));
        base = copy.get();
        if (input) copy_layout(user, user_base, comp, base);
        return dnnl_success;
    }
    void finish(const memory_desc_t &comp, const memory_desc_t &user, void *user_base) const {
        if (!copy) return;
        copy_layout(comp, base, user, user_base);
        zero_padding(user, user_base);
    }
};

const char *at(const void *base, const memory_desc_t &md) {
    return static_cast<const char *>(base) + md.offset0 * data_type_size(md.data_type);
}

dim_t k_of(const memory_desc_t &md) {
    dim_t k = 1;
    for (int d = 1; d < md.ndims; ++d)
        k *= md.dims[d];
    return k;
}

// ---- forward ----
struct fwd_t;
struct fwd_pd_t : public primitive_desc_impl_t<fwd_pd_t, fwd_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:inner_product:gemm"; }
    post_ops_chain_t po;
    memory_desc_t src_c, wei_c; // the layouts the GEMM reads (see resolve_pair)

    static status_t init(fwd_pd_t &pd) {
        const auto &d = ip_of(pd);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_forward_training
                        || d.prop_kind == dnnl_forward_inference,
                dnnl_unimplemented, "not a forward inner product");
        memory_desc_t src = d.src_md, wei = d.weights_md, bias = d.bias_md, dst = d.dst_md;
        const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
        const bool int8 = sdt == dnnl_u8 || sdt == dnnl_s8;
        if (int8)
            ANYDNN_REQUIRE(wdt == dnnl_s8
                            && (is_float(ddt) || ddt == dnnl_s32 || ddt == dnnl_s8
                                    || ddt == dnnl_u8),
                    dnnl_unimplemented, "int8 needs s8 weights and an f32/bf16/s32/s8/u8 dst");
        else
            ANYDNN_REQUIRE(is_float(sdt) && is_float(wdt) && is_float(ddt), dnnl_unimplemented,
                    "data types %s/%s/%s are not supported", dnnl_dt2str(sdt),
                    dnnl_dt2str(wdt), dnnl_dt2str(ddt));
        ANYDNN_CHECK(ip::resolve_layouts(src, wei, pd.src_c, pd.wei_c));
        ANYDNN_CHECK(ip::plain_any(dst));
        ANYDNN_REQUIRE(is_plain(dst), dnnl_unimplemented, "dst layout is blocked");
        if (!is_zero_md(bias)) {
            ANYDNN_CHECK(ip::plain_any(bias));
            ANYDNN_REQUIRE(is_float(bias.data_type) || bias.data_type == dnnl_s32,
                    dnnl_unimplemented, "bias type %s", dnnl_dt2str(bias.data_type));
        }
        ANYDNN_CHECK(matmul::init_attr(pd.attr, dst, 1 << 0, {}, pd.po, pd.args));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (!is_zero_md(bias)) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

struct fwd_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &p_ = static_cast<const fwd_pd_t &>(pd());
        const memory_desc_t &src = p_.src_c, &wei = p_.wei_c, &dst = p_.arg_md(DNNL_ARG_DST);
        const bool has_bias = p_.args.count(DNNL_ARG_BIAS) != 0;
        const dim_t MB = dst.dims[0], OC = dst.dims[1], K = k_of(src);
        if (MB == 0 || OC == 0) return dnnl_success;
        matmul::out_stage_t out;
        ANYDNN_CHECK(out.bind(ctx, p_.attr, p_.po, OC));
        out.dst = ctx.host_ptr(DNNL_ARG_DST);
        out.dst_dt = dst.data_type;
        out.dst_stride_n = dst.blocking.strides[1];
        out.n_axis = 1;
        dim_t bias_off0 = 0;
        if (has_bias) {
            const memory_desc_t &b = p_.arg_md(DNNL_ARG_BIAS);
            out.bias = ctx.host_ptr(DNNL_ARG_BIAS);
            out.bias_dt = b.data_type;
            out.bias_stride_n = b.blocking.strides[0];
            bias_off0 = b.offset0;
        }
        const bool in_place
                = dst.data_type == dnnl_f32 && out.dst_stride_n == 1 && !p_.po.has_sum();
        fbuf_t cbuf = in_place ? nullptr : alloc_f32(MB * OC);
        ukernels::gemm_problem_t p;
        p.M = MB;
        p.N = OC;
        p.K = K;
        staged_t src_s, wei_s;
        ANYDNN_CHECK(src_s.init(p_.arg_md(DNNL_ARG_SRC), ctx.host_ptr(DNNL_ARG_SRC), src, true));
        ANYDNN_CHECK(wei_s.init(
                p_.arg_md(DNNL_ARG_WEIGHTS), ctx.host_ptr(DNNL_ARG_WEIGHTS), wei, true));
        p.a = {at(src_s.base, src), src.data_type, src.blocking.strides[0], 1};
        p.b = {at(wei_s.base, wei), wei.data_type, 1, wei.blocking.strides[0]};
        const dim_t dst_sm = dst.blocking.strides[0];
        p.c = in_place ? static_cast<float *>(out.dst) + dst.offset0 : cbuf.get();
        p.ldc = in_place ? dst_sm : OC;
        if (!in_place || !out.trivial())
            p.epilogue = [&](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
                dim_t pos[max_ndims] = {};
                for (dim_t m = m0; m < m0 + mb; ++m) {
                    pos[0] = m;
                    out.row(p.c + m * p.ldc + n0, nb, pos, n0,
                            bias_off0 + n0 * out.bias_stride_n,
                            dst.offset0 + m * dst_sm + n0 * out.dst_stride_n);
                }
            };
        ukernels::gemm(p);
        return dnnl_success;
    }
};

// ---- backward data ----
struct bwd_d_t;
struct bwd_d_pd_t : public primitive_desc_impl_t<bwd_d_pd_t, bwd_d_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:inner_product:gemm"; }
    memory_desc_t ds_c, wei_c; // the layouts the GEMM writes and reads

    static status_t init(bwd_d_pd_t &pd) {
        const auto &d = ip_of(pd);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_backward_data, dnnl_unimplemented,
                "not backward data");
        memory_desc_t ds = d.diff_src_md, wei = d.weights_md, dd = d.diff_dst_md;
        ANYDNN_REQUIRE(is_float(ds.data_type) && is_float(wei.data_type)
                        && is_float(dd.data_type),
                dnnl_unimplemented, "backward needs f32, bf16 or f16");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad),
                dnnl_unimplemented, "backward takes no attributes");
        ANYDNN_CHECK(ip::resolve_layouts(ds, wei, pd.ds_c, pd.wei_c));
        ANYDNN_CHECK(ip::plain_any(dd));
        ANYDNN_REQUIRE(is_plain(dd), dnnl_unimplemented, "diff_dst layout is blocked");
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }
};

struct bwd_d_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &p_ = static_cast<const bwd_d_pd_t &>(pd());
        const memory_desc_t &ds = p_.ds_c, &wei = p_.wei_c, &dd = p_.arg_md(DNNL_ARG_DIFF_DST);
        const dim_t MB = dd.dims[0], OC = dd.dims[1], K = k_of(ds);
        if (MB == 0 || K == 0) return dnnl_success;
        const bool in_place = ds.data_type == dnnl_f32;
        fbuf_t cbuf = in_place ? nullptr : alloc_f32(MB * K);
        staged_t ds_s, wei_s;
        ANYDNN_CHECK(ds_s.init(
                p_.arg_md(DNNL_ARG_DIFF_SRC), ctx.host_ptr(DNNL_ARG_DIFF_SRC), ds, false));
        ANYDNN_CHECK(wei_s.init(
                p_.arg_md(DNNL_ARG_WEIGHTS), ctx.host_ptr(DNNL_ARG_WEIGHTS), wei, true));
        void *ds_base = ds_s.base;
        ukernels::gemm_problem_t p;
        p.M = MB;
        p.N = K;
        p.K = OC;
        p.a = {at(ctx.host_ptr(DNNL_ARG_DIFF_DST), dd), dd.data_type, dd.blocking.strides[0],
                dd.blocking.strides[1]};
        p.b = {at(wei_s.base, wei), wei.data_type, wei.blocking.strides[0], 1};
        const dim_t ds_sm = ds.blocking.strides[0];
        p.c = in_place ? static_cast<float *>(ds_base) + ds.offset0 : cbuf.get();
        p.ldc = in_place ? ds_sm : K;
        if (!in_place)
            p.epilogue = [&](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
                for (dim_t m = m0; m < m0 + mb; ++m)
                    store_f32(ds.data_type, ds_base, ds.offset0 + m * ds_sm + n0, 1, nb,
                            p.c + m * p.ldc + n0);
            };
        ukernels::gemm(p);
        ds_s.finish(ds, p_.arg_md(DNNL_ARG_DIFF_SRC), ctx.host_ptr(DNNL_ARG_DIFF_SRC));
        return dnnl_success;
    }
};

// ---- backward weights ----
struct bwd_w_t;
struct bwd_w_pd_t : public primitive_desc_impl_t<bwd_w_pd_t, bwd_w_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:inner_product:gemm"; }
    memory_desc_t src_c, dw_c; // the layouts the GEMM reads and writes

    static status_t init(bwd_w_pd_t &pd) {
        const auto &d = ip_of(pd);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_backward_weights, dnnl_unimplemented,
                "not backward weights");
        memory_desc_t src = d.src_md, dw = d.diff_weights_md, db = d.diff_bias_md,
                      dd = d.diff_dst_md;
        ANYDNN_REQUIRE(is_float(src.data_type) && is_float(dw.data_type)
                        && is_float(dd.data_type)
                        && (is_zero_md(db) || is_float(db.data_type)),
                dnnl_unimplemented, "backward needs f32, bf16 or f16");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad),
                dnnl_unimplemented, "backward takes no attributes");
        ANYDNN_CHECK(ip::resolve_layouts(src, dw, pd.src_c, pd.dw_c));
        ANYDNN_CHECK(ip::plain_any(dd));
        ANYDNN_REQUIRE(is_plain(dd), dnnl_unimplemented, "diff_dst layout is blocked");
        if (!is_zero_md(db)) ANYDNN_CHECK(ip::plain_any(db));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DIFF_WEIGHTS] = dw;
        if (!is_zero_md(db)) pd.args[DNNL_ARG_DIFF_BIAS] = db;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }
};

struct bwd_w_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &p_ = static_cast<const bwd_w_pd_t &>(pd());
        const memory_desc_t &src = p_.src_c, &dw = p_.dw_c, &dd = p_.arg_md(DNNL_ARG_DIFF_DST);
        const dim_t MB = dd.dims[0], OC = dd.dims[1], K = k_of(src);
        const void *dd_base = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        if (pd().args.count(DNNL_ARG_DIFF_BIAS) && OC > 0) {
            const memory_desc_t &db = pd().arg_md(DNNL_ARG_DIFF_BIAS);
            std::vector<float> acc(OC, 0.f), row(OC);
            for (dim_t m = 0; m < MB; ++m) {
                load_f32(dd.data_type, dd_base, dd.offset0 + m * dd.blocking.strides[0],
                        dd.blocking.strides[1], OC, row.data());
                for (dim_t n = 0; n < OC; ++n)
                    acc[n] += row[n];
            }
            store_f32(db.data_type, ctx.host_ptr(DNNL_ARG_DIFF_BIAS), db.offset0,
                    db.blocking.strides[0], OC, acc.data());
        }
        if (OC == 0 || K == 0) return dnnl_success;
        const bool in_place = dw.data_type == dnnl_f32;
        fbuf_t cbuf = in_place ? nullptr : alloc_f32(OC * K);
        staged_t src_s, dw_s;
        ANYDNN_CHECK(src_s.init(p_.arg_md(DNNL_ARG_SRC), ctx.host_ptr(DNNL_ARG_SRC), src, true));
        ANYDNN_CHECK(dw_s.init(p_.arg_md(DNNL_ARG_DIFF_WEIGHTS),
                ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS), dw, false));
        void *dw_base = dw_s.base;
        ukernels::gemm_problem_t p;
        p.M = OC;
        p.N = K;
        p.K = MB;
        p.a = {at(dd_base, dd), dd.data_type, dd.blocking.strides[1], dd.blocking.strides[0]};
        p.b = {at(src_s.base, src), src.data_type, src.blocking.strides[0], 1};
        const dim_t dw_sm = dw.blocking.strides[0];
        p.c = in_place ? static_cast<float *>(dw_base) + dw.offset0 : cbuf.get();
        p.ldc = in_place ? dw_sm : K;
        if (!in_place)
            p.epilogue = [&](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
                for (dim_t m = m0; m < m0 + mb; ++m)
                    store_f32(dw.data_type, dw_base, dw.offset0 + m * dw_sm + n0, 1, nb,
                            p.c + m * p.ldc + n0);
            };
        ukernels::gemm(p);
        dw_s.finish(dw, p_.arg_md(DNNL_ARG_DIFF_WEIGHTS), ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS));
        return dnnl_success;
    }
};

} // namespace

impl_entry_t ip_gemm_fwd_entry() {
    return make_impl_entry<fwd_pd_t>("cpu:inner_product:gemm");
}
impl_entry_t ip_gemm_bwd_data_entry() {
    return make_impl_entry<bwd_d_pd_t>("cpu:inner_product:gemm");
}
impl_entry_t ip_gemm_bwd_weights_entry() {
    return make_impl_entry<bwd_w_pd_t>("cpu:inner_product:gemm");
}

} // namespace cpu
} // namespace anydnn
