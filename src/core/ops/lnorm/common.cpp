#include "core/ops/lnorm/common.hpp"

#include <algorithm>
#include <cstring>

#include "core/data_types.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"

namespace anydnn {
namespace cpu {
namespace lnorm {

namespace {

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

status_t check_walkable(const memory_desc_t &md, const char *name) {
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "%s must have a blocked layout (format_kind %d)", name, int(md.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

// Whether mean/variance tensors take part at all.
bool has_stats(const layer_normalization_desc_t &d) {
    return !is_fwd(d.prop_kind) || (d.flags & dnnl_use_global_stats)
            || d.prop_kind == dnnl_forward_training;
}

dim_t channels(const layer_normalization_desc_t &d) {
    return d.src_md.dims[d.src_md.ndims - 1];
}

} // namespace

status_t init_args(primitive_desc_t &pd, int nthr) {
    const auto &d = desc_of(pd);
    const bool fwd = is_fwd(d.prop_kind);
    memory_desc_t src = d.src_md;
    if (!fwd && src.format_kind == dnnl_format_kind_any && pd.hint) {
        const memory_desc_t &h = pd.hint->arg_md(DNNL_ARG_SRC);
        if (h.format_kind == dnnl_blocked) eltwise::resolve_any(src, h);
    }
    ANYDNN_CHECK(check_walkable(src, "src"));
    // Forward also reads s8/u8 sources (oneDNN's int8 layer normalization).
    const bool int_src = src.data_type == dnnl_s8 || src.data_type == dnnl_u8;
    ANYDNN_REQUIRE(is_float(src.data_type) || (fwd && int_src), dnnl_unimplemented,
            "src data type %s not supported", dnnl_dt2str(src.data_type));
    memory_desc_t stat = d.stat_md;
    if (stat.format_kind == dnnl_format_kind_any)
        ANYDNN_CHECK(md_init_with_strides(stat, stat.ndims, stat.dims, dnnl_f32, nullptr));
    ANYDNN_CHECK(check_walkable(stat, "stats"));
    const unsigned known = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift | dnnl_rms_norm;
    ANYDNN_REQUIRE((d.flags & ~known) == 0, dnnl_unimplemented, "flags 0x%x not supported",
            d.flags);
    const bool rms = d.flags & dnnl_rms_norm;
    const dim_t C = channels(d);

    pd.args[DNNL_ARG_SRC] = src;
    if (has_stats(d)) {
        if (!rms) pd.args[DNNL_ARG_MEAN] = stat;
        pd.args[DNNL_ARG_VARIANCE] = stat;
    }
    if (d.flags & dnnl_use_scale) pd.args[DNNL_ARG_SCALE] = d.scaleshift_md;
    if (fwd) {
        memory_desc_t dst = d.dst_md;
        eltwise::resolve_any(dst, src);
        ANYDNN_CHECK(check_walkable(dst, "dst"));
        const dnnl_data_type_t ddt = dst.data_type;
        // s8/u8 dst in training too (the statistics stay f32), as oneDNN.
        ANYDNN_REQUIRE(is_float(ddt) || ddt == dnnl_s8 || ddt == dnnl_u8, dnnl_unimplemented,
                "dst data type %s not supported", dnnl_dt2str(ddt));
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                               | attr_skip::deterministic | attr_skip::acc_mode
                               | attr_skip::scales | attr_skip::post_ops),
                dnnl_unimplemented, "attributes other than scales and post-ops are not supported");
        ANYDNN_CHECK(init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        // oneDNN's forward layer normalization takes eltwise and binary post-ops.
        ANYDNN_CHECK(check_post_op_kinds(pd.attr, {dnnl_eltwise, dnnl_binary},
                "layer normalization"));
        pd.args[DNNL_ARG_DST] = dst;
        if (d.flags & dnnl_use_shift) pd.args[DNNL_ARG_SHIFT] = d.scaleshift_md;
    } else {
        memory_desc_t dd = d.diff_dst_md, ds = d.diff_src_md;
        eltwise::resolve_any(dd, src);
        ANYDNN_CHECK(check_walkable(dd, "diff_dst"));
        eltwise::resolve_any(ds, dd);
        ANYDNN_CHECK(check_walkable(ds, "diff_src"));
        ANYDNN_REQUIRE(is_float(dd.data_type) && is_float(ds.data_type), dnnl_unimplemented,
                "backward takes f32, bf16 or f16");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                               | attr_skip::deterministic | attr_skip::acc_mode),
                dnnl_unimplemented, "backward layer normalization takes no attributes");
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        if (d.prop_kind == dnnl_backward) {
            if (d.flags & dnnl_use_scale) pd.args[DNNL_ARG_DIFF_SCALE] = d.diff_scaleshift_md;
            if (d.flags & dnnl_use_shift) pd.args[DNNL_ARG_DIFF_SHIFT] = d.diff_scaleshift_md;
        }
    }
    // f32 scale and shift, then per thread: three row buffers and two partial sums.
    pd.scratchpad_size = sizeof(float) * size_t(2 * C + 16 + nthr * (5 * C + 32));
    return dnnl_success;
}

status_t check_dense(const primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
    const int last = src.ndims - 1;
    const dim_t C = src.dims[last];
    ANYDNN_REQUIRE(is_dense_unpadded(src) && is_plain(src)
                    && (C <= 1 || src.blocking.strides[last] == 1),
            dnnl_unimplemented, "src is not dense plain with the last dimension innermost");
    for (int a : {DNNL_ARG_DST, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC}) {
        auto it = pd.args.find(a);
        if (it != pd.args.end())
            ANYDNN_REQUIRE(same_layout(src, it->second), dnnl_unimplemented,
                    "data tensors have different layouts");
    }
    if (has_stats(d)) {
        const memory_desc_t &st = pd.arg_md(DNNL_ARG_VARIANCE);
        ANYDNN_REQUIRE(is_dense_unpadded(st) && is_plain(st), dnnl_unimplemented,
                "statistics are not dense plain");
        for (int k = 0; k < last; ++k)
            ANYDNN_REQUIRE(src.dims[k] <= 1
                            || st.blocking.strides[k] * C
                                    == src.blocking.strides[k],
                    dnnl_unimplemented, "statistics do not follow src's row order");
    }
    return dnnl_success;
}

} // namespace lnorm
} // namespace cpu
} // namespace anydnn
