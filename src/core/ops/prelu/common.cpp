#include "core/ops/prelu/common.hpp"

#include "core/ops/eltwise/layout.hpp"
#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {
namespace prelu {

namespace {

bool fwd_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
            || dt == dnnl_u8 || dt == dnnl_s32;
}
bool bwd_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

status_t check_md(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout", name);
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

} // namespace

status_t init_common(primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
            "prelu takes no attributes");
    memory_desc_t src = d.src_md, wei = d.weights_md;
    if (src.format_kind == dnnl_format_kind_any) {
        if (pd.hint) src = pd.hint->arg_md(DNNL_ARG_SRC);
        else src = md_like(wei, src.ndims, src.dims, src.data_type); // row-major fallback
        if (src.format_kind != dnnl_blocked) {
            memory_desc_t none = zero_md();
            src = md_like(none, d.src_md.ndims, d.src_md.dims, d.src_md.data_type);
        }
        src.data_type = d.src_md.data_type;
    }
    if (wei.format_kind == dnnl_format_kind_any) {
        memory_desc_t none = zero_md();
        wei = md_like(none, wei.ndims, wei.dims, wei.data_type);
    }
    ANYDNN_CHECK(check_md(src, "src"));
    ANYDNN_CHECK(check_md(wei, "weights"));
    pd.args[DNNL_ARG_SRC] = src;
    pd.args[DNNL_ARG_WEIGHTS] = wei;
    if (is_fwd(d)) {
        memory_desc_t dst = d.dst_md;
        eltwise::resolve_any(dst, src);
        ANYDNN_CHECK(check_md(dst, "dst"));
        ANYDNN_REQUIRE(fwd_type(src.data_type) && fwd_type(wei.data_type)
                        && fwd_type(dst.data_type),
                dnnl_unimplemented, "data types %s/%s -> %s not supported",
                dnnl_dt2str(src.data_type), dnnl_dt2str(wei.data_type),
                dnnl_dt2str(dst.data_type));
        pd.args[DNNL_ARG_DST] = dst;
    } else {
        memory_desc_t dd = d.diff_dst_md, ds = d.diff_src_md, dw = d.diff_weights_md;
        eltwise::resolve_any(dd, src);
        eltwise::resolve_any(ds, src);
        eltwise::resolve_any(dw, wei);
        ANYDNN_CHECK(check_md(dd, "diff_dst"));
        ANYDNN_CHECK(check_md(ds, "diff_src"));
        ANYDNN_CHECK(check_md(dw, "diff_weights"));
        ANYDNN_REQUIRE(bwd_type(src.data_type) && bwd_type(wei.data_type)
                        && bwd_type(dd.data_type) && bwd_type(ds.data_type)
                        && bwd_type(dw.data_type),
                dnnl_unimplemented, "backward prelu takes f32, bf16 or f16");
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_DIFF_WEIGHTS] = dw;
    }
    return dnnl_success;
}

} // namespace prelu
} // namespace cpu
} // namespace anydnn
