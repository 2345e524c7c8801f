#include "core/ops/gnorm/common.hpp"

#include "core/ops/eltwise/layout.hpp"
#include "core/verbose.hpp"

namespace anydnn {
namespace cpu {
namespace gnorm {

namespace {
bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
} // namespace

status_t resolve(primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    const bool fwd = is_fwd(d);
    memory_desc_t src = d.src_md;
    if (src.format_kind == dnnl_format_kind_any && pd.hint) {
        src = pd.hint->arg_md(DNNL_ARG_SRC);
        src.data_type = d.src_md.data_type;
    }
    ANYDNN_REQUIRE(src.format_kind == dnnl_blocked, dnnl_unimplemented,
            "src must have a blocked layout");
    memory_desc_t t1, t2 = zero_md();
    if (fwd) {
        t1 = d.dst_md;
        eltwise::resolve_any(t1, src);
    } else {
        t1 = d.diff_dst_md;
        eltwise::resolve_any(t1, src);
        t2 = d.diff_src_md;
        eltwise::resolve_any(t2, t1);
    }
    const memory_desc_t *mds[3] = {&src, &t1, fwd ? nullptr : &t2};
    for (int i = 0; i < 3; ++i) {
        if (!mds[i]) continue;
        const memory_desc_t &md = *mds[i];
        ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
                "tensors must have a blocked layout");
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
                "runtime dimensions or strides are not supported");
        // Forward reads and writes s8/u8 too (src and dst); backward is floating point.
        const dnnl_data_type_t dt = md.data_type;
        ANYDNN_REQUIRE(float_type(dt) || (fwd && (dt == dnnl_s8 || dt == dnnl_u8)),
                dnnl_unimplemented, "data type %s not supported here", dnnl_dt2str(dt));
    }
    pd.args[DNNL_ARG_SRC] = src;
    const bool global = d.flags & dnnl_use_global_stats;
    if (fwd) {
        pd.args[DNNL_ARG_DST] = t1;
        if (global || d.prop_kind == dnnl_forward_training) {
            pd.args[DNNL_ARG_MEAN] = d.stat_md;
            pd.args[DNNL_ARG_VARIANCE] = d.stat_md;
        }
        if (d.flags & dnnl_use_shift) pd.args[DNNL_ARG_SHIFT] = d.scaleshift_md;
    } else {
        pd.args[DNNL_ARG_DIFF_DST] = t1;
        pd.args[DNNL_ARG_DIFF_SRC] = t2;
        pd.args[DNNL_ARG_MEAN] = d.stat_md;
        pd.args[DNNL_ARG_VARIANCE] = d.stat_md;
        if (d.prop_kind == dnnl_backward) {
            if (d.flags & dnnl_use_scale) pd.args[DNNL_ARG_DIFF_SCALE] = d.scaleshift_md;
            if (d.flags & dnnl_use_shift) pd.args[DNNL_ARG_DIFF_SHIFT] = d.scaleshift_md;
        }
    }
    if (d.flags & dnnl_use_scale) pd.args[DNNL_ARG_SCALE] = d.scaleshift_md;
    return dnnl_success;
}

} // namespace gnorm
} // namespace cpu
} // namespace anydnn
