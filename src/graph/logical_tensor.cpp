#include "graph/logical_tensor.hpp"

#include <cstdint>
#include <cstring>

namespace anydnn {
namespace graph {

lt_t make_lt(size_t id, dnnl_data_type_t dt, const dims_t &dims,
        dnnl_graph_layout_type_t layout, dnnl_graph_tensor_property_t property) {
    lt_t lt;
    std::memset(&lt, 0, sizeof(lt));
    lt.id = id;
    lt.data_type = dt;
    lt.property = property;
    lt.layout_type = layout;
    set_dims(lt, dims);
    return lt;
}

bool known_shape(const lt_t &lt) {
    if (lt.ndims < 0) return false;
    for (int d = 0; d < lt.ndims; ++d)
        if (lt.dims[d] < 0) return false;
    return true;
}

dims_t lt_dims(const lt_t &lt) {
    return lt.ndims > 0 ? dims_t(lt.dims, lt.dims + lt.ndims) : dims_t();
}

void set_dims(lt_t &lt, const dims_t &dims) {
    lt.ndims = static_cast<int>(dims.size());
    for (size_t d = 0; d < dims.size(); ++d)
        lt.dims[d] = dims[d];
    if (lt.layout_type == dnnl_graph_layout_type_strided) set_dense_strides(lt);
}

void set_dense_strides(lt_t &lt) {
    if (!known_shape(lt)) {
        for (int d = 0; d < lt.ndims; ++d)
            lt.layout.strides[d] = DNNL_GRAPH_UNKNOWN_DIM;
        return;
    }
    dim_t stride = 1;
    for (int d = lt.ndims - 1; d >= 0; --d) {
        lt.layout.strides[d] = stride;
        if (__builtin_mul_overflow(stride, lt.dims[d] > 0 ? lt.dims[d] : 1, &stride)) {
            // No dense layout fits 64 bits: the strides stay unknown, as for unknown shapes.
            for (int k = 0; k < lt.ndims; ++k)
                lt.layout.strides[k] = DNNL_GRAPH_UNKNOWN_DIM;
            return;
        }
    }
}

size_t lt_mem_size(const lt_t &lt) {
    if (lt.property == dnnl_graph_tensor_property_host_scalar)
        return data_type_size(lt.data_type);
    if (!known_shape(lt) || lt.layout_type != dnnl_graph_layout_type_strided) return 0;
    dim_t last = 0;
    for (int d = 0; d < lt.ndims; ++d) {
        if (lt.dims[d] == 0) return 0;
        if (lt.layout.strides[d] < 0) return 0;
        dim_t span = 0;
        // A size beyond 64 bits cannot be allocated: say so rather than wrap around.
        if (__builtin_mul_overflow(lt.dims[d] - 1, lt.layout.strides[d], &span)
                || __builtin_add_overflow(last, span, &last))
            return SIZE_MAX;
    }
    size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<size_t>(last) + 1, data_type_size(lt.data_type), &bytes))
        return SIZE_MAX;
    return bytes;
}

bool lt_equal(const lt_t &a, const lt_t &b) {
    if (a.id != b.id || a.ndims != b.ndims || a.data_type != b.data_type
            || a.property != b.property || a.layout_type != b.layout_type)
        return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.dims[d] != b.dims[d]) return false;
    if (a.layout_type == dnnl_graph_layout_type_strided) {
        for (int d = 0; d < a.ndims; ++d)
            if (a.layout.strides[d] != b.layout.strides[d]) return false;
    } else if (a.layout_type == dnnl_graph_layout_type_opaque) {
        return a.layout.layout_id == b.layout.layout_id;
    }
    return true;
}

memory_desc_t lt_to_md(const lt_t &lt) {
    memory_desc_t md = zero_md();
    dnnl_dims_t dims = {1}, strides = {1};
    int ndims = lt.ndims;
    if (ndims == 0 || lt.property == dnnl_graph_tensor_property_host_scalar) {
        ndims = 1;
    } else {
        for (int d = 0; d < ndims; ++d) {
            dims[d] = lt.dims[d];
            strides[d] = lt.layout.strides[d];
        }
    }
    md_init_with_strides(md, ndims, dims, lt.data_type, strides);
    return md;
}

std::string dims_str(const dims_t &dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(dims[i]);
    return s;
}

} // namespace graph
} // namespace anydnn
