#include "core/ops/bnorm/common.hpp"

#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {
namespace bnorm {

namespace {

bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

void resolve_any(memory_desc_t &md, const memory_desc_t &like) {
    if (md.format_kind == dnnl_format_kind_any)
        md = md_like(like, md.ndims, md.dims, md.data_type);
}

status_t check_blocked(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked && !has_runtime_dims_or_strides(md),
            dnnl_unimplemented, "%s must have a blocked layout with known sizes", name);
    return dnnl_success;
}

status_t check_stat(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.data_type == dnnl_f32 && md.format_kind == dnnl_blocked,
            dnnl_unimplemented, "%s must be a dense f32 vector", name);
    return dnnl_success;
}

} // namespace

conf_t make_conf(const batch_normalization_desc_t &d) {
    conf_t c;
    c.fwd = d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
    c.training = d.prop_kind == dnnl_forward_training;
    c.global_stats = d.flags & dnnl_use_global_stats;
    c.scale = d.flags & dnnl_use_scale;
    c.shift = d.flags & dnnl_use_shift;
    c.add_relu = d.flags & dnnl_fuse_norm_add_relu;
    c.relu = c.add_relu || (d.flags & dnnl_fuse_norm_relu);
    c.stats_out = c.training && !c.global_stats;
    c.diff_ss = d.prop_kind == dnnl_backward;
    c.eps = d.epsilon;
    const memory_desc_t &src = d.src_md;
    c.mb = src.dims[0];
    c.c = src.dims[1];
    for (int i = 2; i < src.ndims; ++i)
        c.sp *= src.dims[i];
    return c;
}

bool relu_post_op(const primitive_attr_t &attr, float &alpha) {
    const auto &po = attr.post_ops.entries;
    if (po.size() != 1 || po[0].kind != dnnl_eltwise || po[0].alg != dnnl_eltwise_relu)
        return false;
    alpha = po[0].alpha;
    return true;
}

status_t resolve(primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    const conf_t c = make_conf(d);
    const primitive_attr_t &attr = pd.attr;
    ANYDNN_REQUIRE(attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                           | attr_skip::deterministic | attr_skip::acc_mode
                           | (c.fwd ? attr_skip::post_ops : 0u)),
            dnnl_unimplemented,
            c.fwd ? "attributes other than post-ops (scales...) are not supported"
                  : "backward batch normalization takes no attributes");
    if (!attr.post_ops.entries.empty()) {
        // As oneDNN: one eltwise relu, its slope 0 in training (where fuse_norm_relu is the
        // way to get the workspace backward needs).
        float alpha = 0.f;
        ANYDNN_REQUIRE(relu_post_op(attr, alpha), dnnl_unimplemented,
                "batch normalization takes one post-op, an eltwise relu (got %d post-ops, "
                "the first %s)",
                int(attr.post_ops.entries.size()),
                dnnl_prim_kind2str(attr.post_ops.entries[0].kind));
        ANYDNN_REQUIRE(!c.training || alpha == 0.f, dnnl_unimplemented,
                "relu post-op with negative slope %g in training", double(alpha));
    }
    ANYDNN_CHECK(check_stat(d.stat_md, "statistics"));
    memory_desc_t src = d.src_md;
    ANYDNN_CHECK(check_blocked(src, "src"));
    pd.args[DNNL_ARG_SRC] = src;
    if (c.fwd) {
        memory_desc_t dst = d.dst_md;
        resolve_any(dst, src);
        ANYDNN_CHECK(check_blocked(dst, "dst"));
        const bool s8 = src.data_type == dnnl_s8;
        ANYDNN_REQUIRE(float_type(src.data_type) || (s8 && c.global_stats && !c.training),
                dnnl_unimplemented,
                "src %s: f32, bf16, f16, or s8 for inference with global statistics",
                dnnl_dt2str(src.data_type));
        ANYDNN_REQUIRE(float_type(dst.data_type) || dst.data_type == dnnl_s8,
                dnnl_unimplemented, "dst %s not supported", dnnl_dt2str(dst.data_type));
        pd.args[DNNL_ARG_DST] = dst;
        if (c.global_stats || c.training) {
            pd.args[DNNL_ARG_MEAN] = d.stat_md;
            pd.args[DNNL_ARG_VARIANCE] = d.stat_md;
        }
        if (c.relu && c.training)
            pd.args[DNNL_ARG_WORKSPACE] = md_like(src, src.ndims, src.dims, dnnl_u8);
        if (c.add_relu) pd.args[DNNL_ARG_SRC_1] = dst;
    } else {
        memory_desc_t dd = d.diff_dst_md, ds = d.diff_src_md;
        resolve_any(dd, src);
        ANYDNN_CHECK(check_blocked(dd, "diff_dst"));
        resolve_any(ds, dd);
        ANYDNN_CHECK(check_blocked(ds, "diff_src"));
        ANYDNN_REQUIRE(float_type(src.data_type) && float_type(dd.data_type)
                        && float_type(ds.data_type),
                dnnl_unimplemented, "backward takes f32, bf16 or f16");
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_MEAN] = d.stat_md;
        pd.args[DNNL_ARG_VARIANCE] = d.stat_md;
        if (c.relu) {
            memory_desc_t ws = pd.hint ? pd.hint->arg_md(DNNL_ARG_WORKSPACE) : zero_md();
            ANYDNN_REQUIRE(!is_zero_md(ws) && ws.data_type == dnnl_u8 && same_layout(ws, src),
                    dnnl_unimplemented,
                    "fused relu backward: the hint's workspace does not fit src");
            pd.args[DNNL_ARG_WORKSPACE] = ws;
        }
        if (c.add_relu) pd.args[DNNL_ARG_DIFF_SRC_1] = ds;
        if (c.diff_ss && c.scale) pd.args[DNNL_ARG_DIFF_SCALE] = d.diff_scaleshift_md;
        if (c.diff_ss && c.shift) pd.args[DNNL_ARG_DIFF_SHIFT] = d.diff_scaleshift_md;
    }
    if (c.scale) pd.args[DNNL_ARG_SCALE] = d.scaleshift_md;
    if (c.shift && c.fwd) pd.args[DNNL_ARG_SHIFT] = d.scaleshift_md;
    return dnnl_success;
}

} // namespace bnorm
} // namespace cpu
} // namespace anydnn
