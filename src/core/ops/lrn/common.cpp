#include "core/ops/lrn/common.hpp"

#include <utility>
#include <vector>

#include "core/ops/eltwise/layout.hpp"

namespace anydnn {
namespace cpu {
namespace lrn {

namespace {
bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
} // namespace

status_t resolve(primitive_desc_t &pd) {
    const auto &d = desc_of(pd);
    ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
            "lrn takes no attributes");
    memory_desc_t src = d.src_md;
    if (src.format_kind == dnnl_format_kind_any && pd.hint)
        src = pd.hint->arg_md(DNNL_ARG_SRC);
    ANYDNN_REQUIRE(src.format_kind == dnnl_blocked, dnnl_unimplemented,
            "src must have a blocked layout");
    src.data_type = d.src_md.data_type;
    std::vector<std::pair<int, memory_desc_t>> mds = {{DNNL_ARG_SRC, src}};
    if (is_fwd(d)) {
        memory_desc_t dst = d.dst_md;
        eltwise::resolve_any(dst, src);
        mds.push_back({DNNL_ARG_DST, dst});
    } else {
        memory_desc_t dd = d.diff_dst_md, ds = d.diff_src_md;
        eltwise::resolve_any(dd, src);
        eltwise::resolve_any(ds, dd);
        mds.push_back({DNNL_ARG_DIFF_DST, dd});
        mds.push_back({DNNL_ARG_DIFF_SRC, ds});
    }
    for (const auto &a : mds) {
        ANYDNN_REQUIRE(a.second.format_kind == dnnl_blocked, dnnl_unimplemented,
                "tensors must have a blocked layout");
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(a.second), dnnl_unimplemented,
                "runtime dimensions or strides are not supported");
        ANYDNN_REQUIRE(float_type(a.second.data_type), dnnl_unimplemented,
                "lrn takes f32, bf16 or f16 (got %s)", dnnl_dt2str(a.second.data_type));
        pd.args[a.first] = a.second;
    }
    return dnnl_success;
}

} // namespace lrn
} // namespace cpu
} // namespace anydnn
