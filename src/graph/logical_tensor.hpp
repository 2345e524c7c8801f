// Queries on dnnl_graph_logical_tensor_t shared by ops, partitions and compilation.
#pragma once

#include <string>
#include <vector>

#include "core/memory_desc.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

namespace anydnn {
namespace graph {

using lt_t = dnnl_graph_logical_tensor_t;
using dims_t = std::vector<dim_t>;

lt_t make_lt(size_t id, dnnl_data_type_t dt, const dims_t &dims,
        dnnl_graph_layout_type_t layout = dnnl_graph_layout_type_strided,
        dnnl_graph_tensor_property_t property = dnnl_graph_tensor_property_undef);
bool known_shape(const lt_t &lt); // rank and every extent known
dims_t lt_dims(const lt_t &lt);
void set_dims(lt_t &lt, const dims_t &dims); // keeps layout kind; strided gets dense strides
void set_dense_strides(lt_t &lt);
size_t lt_mem_size(const lt_t &lt); // bytes the layout spans; 0 when unknown
bool lt_equal(const lt_t &a, const lt_t &b);
// A strided, fully known logical tensor as a memory descriptor (scalars: one element).
memory_desc_t lt_to_md(const lt_t &lt);
std::string dims_str(const dims_t &dims); // "2x3x4"

} // namespace graph
} // namespace anydnn
