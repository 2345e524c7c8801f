#include "core/ops/concat/concat_conf.hpp"

#include "core/ops/binary/binary_conf.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"

namespace anydnn {
namespace cpu {

status_t concat_conf_t::init(primitive_desc_t &pd) {
    const auto &d = std::get<concat_desc_t>(pd.desc);
    axis = d.axis;
    srcs = d.src_mds;
    dst = d.dst_md;
    ANYDNN_REQUIRE(!srcs.empty(), dnnl_invalid_arguments, "no sources");
    ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scales | attr_skip::fpmath
                           | attr_skip::acc_mode | attr_skip::deterministic
                           | attr_skip::scratchpad),
            dnnl_unimplemented, "concat takes no attributes but scales");
    std::vector<int> scale_args;
    for (size_t i = 0; i < srcs.size(); ++i)
        scale_args.push_back(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i));
    ANYDNN_CHECK(init_common_scales(pd.attr, scale_args, pd.args));
    has_scales = !pd.attr.scales.empty();

    dim_t offset = 0;
    for (size_t i = 0; i < srcs.size(); ++i) {
        ANYDNN_REQUIRE(binary_supported_dt(srcs[i].data_type), dnnl_unimplemented,
                "src %zu data type %s is not supported", i, dnnl_dt2str(srcs[i].data_type));
        ANYDNN_REQUIRE(is_blocked(srcs[i]) && !has_runtime_dims_or_strides(srcs[i]),
                dnnl_unimplemented, "src %zu is not a blocked layout of known sizes", i);
        offsets.push_back(offset);
        offset += srcs[i].dims[axis];
    }
    ANYDNN_REQUIRE(binary_supported_dt(dst.data_type), dnnl_unimplemented,
            "dst data type %s is not supported", dnnl_dt2str(dst.data_type));
    if (dst.format_kind == dnnl_format_kind_any)
        dst = md_like(srcs[0], dst.ndims, dst.dims, dst.data_type);
    ANYDNN_REQUIRE(is_blocked(dst) && !has_runtime_dims_or_strides(dst), dnnl_unimplemented,
            "dst is not a blocked layout of known sizes");
    for (size_t i = 0; i < srcs.size(); ++i)
        pd.args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = srcs[i];
    pd.args[DNNL_ARG_DST] = dst;
    return dnnl_success;
}

} // namespace cpu
} // namespace anydnn
