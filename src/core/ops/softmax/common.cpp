#include "core/ops/softmax/common.hpp"

#include "core/ops/eltwise/layout.hpp"
#include "core/ops/scales.hpp"

namespace anydnn {
namespace cpu {
namespace softmax {

namespace {

status_t check_walkable(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout (format_kind %d)", name, int(md.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
bool is_int8(dnnl_data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

} // namespace

geom_t geom_of(const memory_desc_t &md, int axis) {
    geom_t g;
    for (int d = 0; d < axis; ++d)
        g.outer *= md.dims[d];
    g.C = md.dims[axis];
    for (int d = axis + 1; d < md.ndims; ++d)
        g.inner *= md.dims[d];
    return g;
}

status_t resolve_fwd(const primitive_desc_t &pd, memory_desc_t &src, memory_desc_t &dst,
        bool allow_post_ops) {
    const auto &d = desc_of(pd);
    ANYDNN_REQUIRE(is_fwd(d), dnnl_unimplemented, "not a forward softmax");
    src = d.src_md;
    dst = d.dst_md;
    ANYDNN_CHECK(check_walkable(src, "src"));
    eltwise::resolve_any(dst, src);
    ANYDNN_CHECK(check_walkable(dst, "dst"));
    ANYDNN_REQUIRE(is_float(src.data_type) || is_int8(src.data_type), dnnl_unimplemented,
            "src data type %s not supported", dnnl_dt2str(src.data_type));
    // int8 dst in training too, as oneDNN: softmax keeps nothing for backward but dst.
    ANYDNN_REQUIRE(is_float(dst.data_type) || is_int8(dst.data_type), dnnl_unimplemented,
            "dst data type %s not supported", dnnl_dt2str(dst.data_type));
    unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode | attr_skip::scales;
    if (allow_post_ops) ignore |= attr_skip::post_ops;
    ANYDNN_REQUIRE(pd.attr.has_default_values(ignore), dnnl_unimplemented,
            allow_post_ops ? "attributes other than scales and post-ops are not supported"
                           : "attributes other than scales are not supported");
    return dnnl_success;
}

status_t resolve_bwd(const primitive_desc_t &pd, memory_desc_t &dst, memory_desc_t &diff_dst,
        memory_desc_t &diff_src) {
    const auto &d = desc_of(pd);
    ANYDNN_REQUIRE(d.prop_kind == dnnl_backward_data, dnnl_unimplemented,
            "not a backward softmax");
    dst = d.dst_md;
    if (dst.format_kind == dnnl_format_kind_any && pd.hint) {
        const memory_desc_t &fwd_dst = pd.hint->arg_md(DNNL_ARG_DST);
        if (fwd_dst.format_kind == dnnl_blocked) eltwise::resolve_any(dst, fwd_dst);
    }
    diff_dst = d.diff_dst_md;
    diff_src = d.diff_src_md;
    if (dst.format_kind == dnnl_format_kind_any) eltwise::resolve_any(dst, diff_dst);
    ANYDNN_CHECK(check_walkable(dst, "dst"));
    eltwise::resolve_any(diff_dst, dst);
    ANYDNN_CHECK(check_walkable(diff_dst, "diff_dst"));
    eltwise::resolve_any(diff_src, diff_dst);
    ANYDNN_CHECK(check_walkable(diff_src, "diff_src"));
    ANYDNN_REQUIRE(is_float(dst.data_type) && is_float(diff_dst.data_type)
                    && is_float(diff_src.data_type),
            dnnl_unimplemented, "backward takes f32, bf16 or f16 (got %s, %s, %s)",
            dnnl_dt2str(dst.data_type), dnnl_dt2str(diff_dst.data_type),
            dnnl_dt2str(diff_src.data_type));
    ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                           | attr_skip::deterministic | attr_skip::acc_mode),
            dnnl_unimplemented, "backward softmax takes no attributes");
    return dnnl_success;
}

} // namespace softmax
} // namespace cpu
} // namespace anydnn
