#include "core/ops/binary/binary_conf.hpp"

#include "core/ops/binary/binary_math.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"

namespace anydnn {
namespace cpu {

bool binary_supported_dt(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8: return true;
        default: return false;
    }
}

namespace {

status_t resolve(memory_desc_t &md, const memory_desc_t &like, const char *name) {
    ANYDNN_REQUIRE(binary_supported_dt(md.data_type), dnnl_unimplemented,
            "%s data type %s is not supported", name, dnnl_dt2str(md.data_type));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    if (md.format_kind == dnnl_format_kind_any)
        md = md_like(like, md.ndims, md.dims, md.data_type);
    ANYDNN_REQUIRE(is_blocked(md), dnnl_unimplemented, "%s is not a blocked layout", name);
    return dnnl_success;
}

} // namespace

status_t binary_conf_t::init(primitive_desc_t &pd) {
    const auto &d = std::get<binary_desc_t>(pd.desc);
    alg = d.alg_kind;
    is_select = alg == dnnl_binary_select;
    ANYDNN_REQUIRE(is_binary_alg(alg), dnnl_invalid_arguments, "bad algorithm");
    src0 = d.src0_md;
    src1 = d.src1_md;
    src2 = d.src2_md;
    dst = d.dst_md;
    ANYDNN_CHECK(resolve(src0, src0, "src0"));
    ANYDNN_CHECK(resolve(src1, src0, "src1"));
    ANYDNN_CHECK(resolve(dst, src0, "dst"));
    if (is_select) ANYDNN_CHECK(resolve(src2, src0, "src2"));

    const primitive_attr_t &attr = pd.attr;
    ANYDNN_REQUIRE(attr.has_default_values(attr_skip::scales | attr_skip::post_ops
                           | attr_skip::fpmath | attr_skip::acc_mode
                           | attr_skip::deterministic | attr_skip::scratchpad
                           | attr_skip::rounding),
            dnnl_unimplemented, "attributes other than scales and post-ops are not supported");
    for (const auto &r : attr.rounding)
        ANYDNN_REQUIRE(r.second == dnnl_rounding_mode_environment, dnnl_unimplemented,
                "stochastic rounding is not supported");
    ANYDNN_CHECK(init_common_scales(attr, {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1}, pd.args));
    ANYDNN_CHECK(post_ops.init(attr, dst));

    bcast0 = bcast_mask(src0, dst.dims);
    bcast1 = bcast_mask(src1, dst.dims);
    bcast2 = is_select ? bcast_mask(src2, dst.dims) : 0;

    pd.args[DNNL_ARG_SRC_0] = src0;
    pd.args[DNNL_ARG_SRC_1] = src1;
    if (is_select) pd.args[DNNL_ARG_SRC_2] = src2;
    pd.args[DNNL_ARG_DST] = dst;
    post_ops.add_args(pd.args);
    return dnnl_success;
}

} // namespace cpu
} // namespace anydnn
