#include "core/ops/inner_product/layouts.hpp"

#include <algorithm>
#include <vector>

#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {
namespace ip {

namespace {

memory_desc_t plain_of(const memory_desc_t &md) {
    memory_desc_t out;
    md_init_with_strides(out, md.ndims, md.dims, md.data_type, nullptr);
    return out;
}

} // namespace

bool flattens(const memory_desc_t &md) {
    if (!is_plain(md)) return false;
    std::vector<int> order;
    for (int d = 1; d < md.ndims; ++d)
        if (md.dims[d] != 1) order.push_back(d);
    std::sort(order.begin(), order.end(),
            [&](int a, int b) { return md.blocking.strides[a] < md.blocking.strides[b]; });
    dim_t expect = 1;
    for (int d : order) {
        if (md.blocking.strides[d] != expect) return false;
        expect *= md.dims[d];
    }
    return true;
}

bool same_inner(const memory_desc_t &a, const memory_desc_t &b) {
    for (int d = 1; d < a.ndims; ++d)
        if (a.dims[d] != 1 && a.blocking.strides[d] != b.blocking.strides[d]) return false;
    return true;
}

status_t plain_any(memory_desc_t &md) {
    if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
    return md_init_with_strides(md, md.ndims, md.dims, md.data_type, nullptr);
}

status_t resolve_layouts(
        memory_desc_t &data, memory_desc_t &wei, memory_desc_t &data_c, memory_desc_t &wei_c) {
    const bool wei_any = wei.format_kind == dnnl_format_kind_any;
    if (data.format_kind == dnnl_format_kind_any) {
        if (!wei_any && flattens(wei))
            data = md_like(wei, data.ndims, data.dims, data.data_type);
        else
            ANYDNN_CHECK(plain_any(data));
    }
    if (wei_any)
        wei = md_like(flattens(data) ? data : plain_of(data), wei.ndims, wei.dims, wei.data_type);
    data_c = data, wei_c = wei;
    if (flattens(data) && flattens(wei) && same_inner(data, wei)) return dnnl_success;
    if (flattens(wei))
        data_c = md_like(wei, data.ndims, data.dims, data.data_type);
    else if (flattens(data))
        wei_c = md_like(data, wei.ndims, wei.dims, wei.data_type);
    else
        data_c = plain_of(data), wei_c = md_like(data_c, wei.ndims, wei.dims, wei.data_type);
    return dnnl_success;
}

} // namespace ip
} // namespace cpu
} // namespace anydnn
