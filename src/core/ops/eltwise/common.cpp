#include "core/ops/eltwise/common.hpp"

#include "core/ops/eltwise/eltwise_math.hpp"
#include "core/ops/eltwise/layout.hpp"

namespace anydnn {
namespace cpu {
namespace eltwise {

namespace {

status_t check_walkable(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout (format_kind %d)", name, int(md.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

} // namespace

status_t resolve_fwd(const eltwise_desc_t &d, memory_desc_t &src, memory_desc_t &dst) {
    ANYDNN_REQUIRE(is_fwd(d), dnnl_unimplemented, "not a forward eltwise");
    src = d.src_md;
    dst = d.dst_md;
    ANYDNN_CHECK(check_walkable(src, "src"));
    resolve_any(dst, src);
    ANYDNN_CHECK(check_walkable(dst, "dst"));
    ANYDNN_REQUIRE(is_fwd_type(src.data_type) && is_fwd_type(dst.data_type),
            dnnl_unimplemented, "data types %s -> %s not supported",
            dnnl_dt2str(src.data_type), dnnl_dt2str(dst.data_type));
    return dnnl_success;
}

status_t resolve_bwd(const eltwise_desc_t &d, memory_desc_t &data, memory_desc_t &diff_dst,
        memory_desc_t &diff_src) {
    ANYDNN_REQUIRE(d.prop_kind == dnnl_backward_data, dnnl_unimplemented,
            "not a backward eltwise");
    data = eltwise_uses_dst_for_bwd(d.alg_kind) ? d.dst_md : d.src_md;
    diff_dst = d.diff_dst_md;
    diff_src = d.diff_src_md;
    ANYDNN_CHECK(check_walkable(data, "data"));
    resolve_any(diff_dst, data);
    ANYDNN_CHECK(check_walkable(diff_dst, "diff_dst"));
    resolve_any(diff_src, diff_dst);
    ANYDNN_CHECK(check_walkable(diff_src, "diff_src"));
    ANYDNN_REQUIRE(is_float_type(data.data_type) && is_float_type(diff_dst.data_type)
                    && is_float_type(diff_src.data_type),
            dnnl_unimplemented, "backward takes f32, bf16 or f16 (got %s, %s, %s)",
            dnnl_dt2str(data.data_type), dnnl_dt2str(diff_dst.data_type),
            dnnl_dt2str(diff_src.data_type));
    return dnnl_success;
}

status_t check_attr(const primitive_attr_t &attr, bool allow_post_ops) {
    // Compute is f32 whatever fpmath allows; scratchpad and determinism change nothing here.
    unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode;
    if (allow_post_ops) ignore |= attr_skip::post_ops;
    ANYDNN_REQUIRE(attr.has_default_values(ignore), dnnl_unimplemented,
            allow_post_ops ? "attributes other than post-ops are not supported"
                           : "attributes (post-ops, scales...) are not supported");
    return dnnl_success;
}

int bwd_data_arg(const eltwise_desc_t &d) {
    return eltwise_uses_dst_for_bwd(d.alg_kind) ? DNNL_ARG_DST : DNNL_ARG_SRC;
}

} // namespace eltwise
} // namespace cpu
} // namespace anydnn
