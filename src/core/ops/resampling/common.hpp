// Checks and layout choices shared by the CPU resampling implementations.
#pragma once

#include "core/ops/layout.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace resampling {

inline const resampling_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<resampling_desc_t>(pd.desc);
}

inline bool is_fwd(const resampling_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

inline bool is_fwd_type(dnnl_data_type_t t) {
    return t == dnnl_f32 || t == dnnl_bf16 || t == dnnl_f16 || t == dnnl_s8 || t == dnnl_u8;
}
inline bool is_float_type(dnnl_data_type_t t) {
    return t == dnnl_f32 || t == dnnl_bf16 || t == dnnl_f16;
}

inline status_t check_walkable(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout (format_kind %d)", name, int(md.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

inline void resolve_any(memory_desc_t &md, const memory_desc_t &like) {
    if (md.format_kind != dnnl_format_kind_any) return;
    md = md_like(like, md.ndims, md.dims, md.data_type);
}

// Resolved src/dst (forward) or diff_src/diff_dst (backward) with the checks every
// implementation makes.
inline status_t resolve(const primitive_desc_t &pd, memory_desc_t &src, memory_desc_t &dst) {
    const auto &d = desc_of(pd);
    if (is_fwd(d)) {
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
    src = d.diff_src_md;
    dst = d.diff_dst_md;
    if (pd.hint) {
        resolve_any(src, pd.hint->arg_md(DNNL_ARG_SRC));
        resolve_any(dst, pd.hint->arg_md(DNNL_ARG_DST));
    }
    if (dst.format_kind == dnnl_format_kind_any) resolve_any(dst, src);
    resolve_any(src, dst);
    ANYDNN_CHECK(check_walkable(src, "diff_src"));
    ANYDNN_CHECK(check_walkable(dst, "diff_dst"));
    ANYDNN_REQUIRE(is_float_type(src.data_type) && is_float_type(dst.data_type),
            dnnl_unimplemented, "backward takes f32, bf16 or f16 (got %s, %s)",
            dnnl_dt2str(src.data_type), dnnl_dt2str(dst.data_type));
    return dnnl_success;
}

inline status_t check_attr(const primitive_attr_t &attr, bool fwd) {
    unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode;
    if (fwd) ignore |= attr_skip::post_ops;
    ANYDNN_REQUIRE(attr.has_default_values(ignore), dnnl_unimplemented,
            fwd ? "attributes other than post-ops are not supported"
                : "backward takes no post-ops, scales or zero points");
    return dnnl_success;
}

} // namespace resampling
} // namespace cpu
} // namespace anydnn
