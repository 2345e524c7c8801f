// dnnl_graph allocator and engine-with-allocator entry points.
#include "api/api.hpp"
#include "graph/allocator.hpp"

using namespace anydnn;
using namespace anydnn::graph;

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_allocator_create(dnnl_graph_allocator_t *allocator,
        dnnl_graph_host_allocate_f host_malloc, dnnl_graph_host_deallocate_f host_free) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(allocator);
        ANYDNN_REQUIRE((host_malloc == nullptr) == (host_free == nullptr), dnnl_invalid_arguments,
                "host_malloc and host_free must be given together");
        *allocator = new dnnl_graph_allocator(host_malloc, host_free);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_allocator_destroy(dnnl_graph_allocator_t allocator) {
    if (!allocator) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(allocator, allocator);
    delete allocator;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_make_engine_with_allocator(dnnl_engine_t *engine,
        dnnl_engine_kind_t kind, size_t index, const_dnnl_graph_allocator_t alloc) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        ANYDNN_REQUIRE_GRAPH_HANDLE(allocator, alloc);
        dnnl_engine_t e = nullptr;
        ANYDNN_CHECK(dnnl_engine_create(&e, kind, index));
        // The engine keeps its own copy: the user may destroy the allocator right away.
        set_engine_allocator(*e, *alloc);
        *engine = e;
        return dnnl_success;
    });
}

} // extern "C"
