#include "core/ops/pooling/common.hpp"

#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {
namespace pooling {

namespace {

bool fwd_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
            || dt == dnnl_u8 || dt == dnnl_s32;
}
bool bwd_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

void resolve_any(memory_desc_t &md, const memory_desc_t &like) {
    if (md.format_kind == dnnl_format_kind_any)
        md = md_like(like, md.ndims, md.dims, md.data_type);
}

status_t check_walkable(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout", name);
    return dnnl_success;
}

} // namespace

geom_t make_geom(const pooling_desc_t &d) {
    geom_t g;
    const memory_desc_t &src = is_fwd(d) ? d.src_md : d.diff_src_md;
    const memory_desc_t &dst = is_fwd(d) ? d.dst_md : d.diff_dst_md;
    g.ndims = src.ndims;
    g.mb = src.dims[0];
    g.c = src.dims[1];
    g.alg = d.alg_kind;
    const int ns = src.ndims - 2, first = 3 - ns;
    for (int i = 0; i < ns; ++i) {
        g.in[first + i] = src.dims[2 + i];
        g.out[first + i] = dst.dims[2 + i];
        g.k[first + i] = d.kernel.v[i];
        g.s[first + i] = d.strides.v[i];
        g.dl[first + i] = d.dilates.v[i];
        g.pl[first + i] = d.padding_l.v[i];
    }
    return g;
}

memory_desc_t workspace_md(const geom_t &g, const memory_desc_t &dst) {
    return md_like(dst, dst.ndims, dst.dims, g.ksize() <= 256 ? dnnl_u8 : dnnl_s32);
}

status_t resolve(primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    const geom_t g = make_geom(d);
    if (is_fwd(d)) {
        memory_desc_t src = d.src_md, dst = d.dst_md;
        ANYDNN_CHECK(check_walkable(src, "src"));
        resolve_any(dst, src);
        ANYDNN_CHECK(check_walkable(dst, "dst"));
        ANYDNN_REQUIRE(fwd_type(src.data_type) && fwd_type(dst.data_type), dnnl_unimplemented,
                "data types %s -> %s not supported", dnnl_dt2str(src.data_type),
                dnnl_dt2str(dst.data_type));
        // Max pooling of mixed types converts the window's maximum (or the src type's lowest
        // value, for a window in padding only) to dst's type, as average pooling converts.
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        if (d.alg_kind == dnnl_pooling_max && d.prop_kind == dnnl_forward_training)
            pd.args[DNNL_ARG_WORKSPACE] = workspace_md(g, dst);
        return dnnl_success;
    }
    memory_desc_t ds = d.diff_src_md, dd = d.diff_dst_md;
    const primitive_desc_t *hint = pd.hint;
    if (hint && hint->kind() == dnnl_pooling) {
        resolve_any(ds, hint->arg_md(DNNL_ARG_SRC));
        resolve_any(dd, hint->arg_md(DNNL_ARG_DST));
    }
    if (ds.format_kind == dnnl_format_kind_any && dd.format_kind == dnnl_blocked)
        resolve_any(ds, dd);
    ANYDNN_CHECK(check_walkable(ds, "diff_src"));
    resolve_any(dd, ds);
    ANYDNN_CHECK(check_walkable(dd, "diff_dst"));
    ANYDNN_REQUIRE(bwd_type(ds.data_type) && bwd_type(dd.data_type), dnnl_unimplemented,
            "backward takes f32, bf16 or f16 (got %s, %s)", dnnl_dt2str(ds.data_type),
            dnnl_dt2str(dd.data_type));
    pd.args[DNNL_ARG_DIFF_SRC] = ds;
    pd.args[DNNL_ARG_DIFF_DST] = dd;
    if (d.alg_kind == dnnl_pooling_max) {
        memory_desc_t ws = hint ? hint->arg_md(DNNL_ARG_WORKSPACE) : zero_md();
        ANYDNN_REQUIRE(!is_zero_md(ws), dnnl_unimplemented,
                "max pooling backward: the forward hint has no workspace");
        const bool ok = ws.ndims == dd.ndims
                && (ws.data_type == dnnl_u8 || ws.data_type == dnnl_s32);
        ANYDNN_REQUIRE(ok, dnnl_unimplemented, "workspace of the hint does not fit diff_dst");
        for (int i = 0; i < dd.ndims; ++i)
            ANYDNN_REQUIRE(ws.dims[i] == dd.dims[i], dnnl_unimplemented,
                    "workspace of the hint does not fit diff_dst");
        pd.args[DNNL_ARG_WORKSPACE] = ws;
    }
    return dnnl_success;
}

status_t check_attr(const primitive_attr_t &attr, bool post_ops) {
    unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode;
    if (post_ops) ignore |= attr_skip::post_ops;
    ANYDNN_REQUIRE(attr.has_default_values(ignore), dnnl_unimplemented,
            post_ops ? "attributes other than post-ops are not supported"
                     : "attributes (post-ops, scales...) are not supported");
    return dnnl_success;
}

} // namespace pooling
} // namespace cpu
} // namespace anydnn
