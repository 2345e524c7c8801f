#include "core/ops/scales.hpp"

#include <algorithm>

#include "core/data_types.hpp"

namespace anydnn {
namespace cpu {

status_t init_common_scales(const primitive_attr_t &attr, const std::vector<int> &allowed,
        std::map<int, memory_desc_t> &args) {
    for (const auto &s : attr.scales) {
        const int arg = s.first;
        const quant_entry_t &q = s.second;
        ANYDNN_REQUIRE(std::find(allowed.begin(), allowed.end(), arg) != allowed.end(),
                dnnl_unimplemented, "scales for argument %d are not supported", arg);
        ANYDNN_REQUIRE(q.mask == 0 && q.group_ndims == 0, dnnl_unimplemented,
                "scales for argument %d: only mask 0 (one scale) is supported", arg);
        ANYDNN_REQUIRE(q.data_type == dnnl_f32 || q.data_type == dnnl_bf16
                        || q.data_type == dnnl_f16,
                dnnl_unimplemented, "scales for argument %d: data type %s is not supported",
                arg, dnnl_dt2str(q.data_type));
        if (q.is_host_scalar) continue;
        memory_desc_t md;
        const dnnl_dims_t one = {1};
        ANYDNN_CHECK(md_init_with_tag(md, 1, one, q.data_type, dnnl_a));
        args[DNNL_ARG_ATTR_SCALES | arg] = md;
    }
    return dnnl_success;
}

status_t read_common_scale(
        const exec_ctx_t &ctx, const primitive_attr_t &attr, int arg, float &value) {
    value = 1.f;
    auto it = attr.scales.find(arg);
    if (it == attr.scales.end()) return dnnl_success;
    const memory_t *m = ctx.arg(DNNL_ARG_ATTR_SCALES | arg);
    ANYDNN_REQUIRE(m, dnnl_invalid_arguments, "scale memory for argument %d is missing", arg);
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_format_kind_host_scalar) {
        value = load_as_f32(md.data_type, m->scalar_value, 0);
        return dnnl_success;
    }
    ANYDNN_REQUIRE(m->host_ptr() && nelems(md) >= 1, dnnl_invalid_arguments,
            "scale memory for argument %d is empty", arg);
    dim_t zero[max_ndims] = {};
    value = load_as_f32(md.data_type, m->host_ptr(), off_logical(md, zero));
    return dnnl_success;
}

} // namespace cpu
} // namespace anydnn
