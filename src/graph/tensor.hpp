// dnnl_graph_tensor: a logical tensor bound to a buffer on an engine (the user's, or one
// from the engine's allocator), or a host scalar holding its value inline.
#pragma once

#include "core/engine.hpp"
#include "graph/allocator.hpp"
#include "graph/logical_tensor.hpp"

struct dnnl_graph_tensor : public anydnn::graph::graph_object_t {
    dnnl_graph_tensor() : graph_object_t(anydnn::graph::handle_kind::tensor) {}
    dnnl_graph_logical_tensor_t lt;
    anydnn::engine_ref_t engine; // null for host scalars
    void *handle = nullptr;
    anydnn::graph::engine_allocation_t owned; // when created with DNNL_MEMORY_ALLOCATE
    alignas(8) unsigned char scalar[16] = {};

    bool is_scalar() const { return lt.property == dnnl_graph_tensor_property_host_scalar; }
    void *data() const { return is_scalar() ? const_cast<unsigned char *>(scalar) : handle; }
};
