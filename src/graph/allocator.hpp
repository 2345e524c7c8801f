// dnnl_graph_allocator: the application's memory call-backs. Every buffer the graph API
// allocates on an engine (tensors it owns, temporaries, primitive scratchpads) goes through
// the engine's allocator; device runtimes add their call-backs here.
#pragma once

#include <cstddef>
#include <functional>

#include "core/engine.hpp"
#include "graph/object.hpp"

struct _cl_device_id;
struct _cl_context;
struct _cl_event;

struct dnnl_graph_allocator : public anydnn::graph::graph_object_t {
    dnnl_graph_allocator(dnnl_graph_host_allocate_f host_malloc,
            dnnl_graph_host_deallocate_f host_free)
        : graph_object_t(anydnn::graph::handle_kind::allocator)
        , host_malloc(host_malloc)
        , host_free(host_free) {}

    dnnl_graph_host_allocate_f host_malloc; // null: the library's aligned allocation
    dnnl_graph_host_deallocate_f host_free;
    // OpenCL engines (dnnl_graph_ocl.h): USM device memory, freed after an event. The
    // call-backs as the user gave them; set_engine_allocator binds them to one engine.
    using ocl_allocate_f = void *(*)(size_t, size_t, _cl_device_id *, _cl_context *);
    using ocl_deallocate_f = void (*)(void *, _cl_device_id *, _cl_context *, _cl_event *);
    ocl_allocate_f ocl_malloc = nullptr;
    ocl_deallocate_f ocl_free = nullptr;
    // SYCL engines (dnnl_graph_sycl.h): the application's call-backs, as the user gave them,
    // and bound to one engine's sycl::device and sycl::context (and a cl_event turned into a
    // sycl::event) by src/api/graph_sycl_interop.cpp, which this file does not need to know.
    using sycl_allocate_f = void *(*)(size_t, size_t, const void *, const void *);
    using sycl_deallocate_f = void (*)(void *, const void *, const void *, void *);
    sycl_allocate_f sycl_malloc = nullptr;
    sycl_deallocate_f sycl_free = nullptr;
    // The device call-backs bound to one engine: `after` is an event of the engine's runtime
    // (compute_engine_t's opaque events; a cl_event on OpenCL and SYCL engines), or null.
    std::function<void *(size_t size, size_t alignment)> device_malloc;
    std::function<void(void *buf, void *after)> device_free;
};

namespace anydnn {
namespace graph {

// The allocator of an engine made with dnnl_graph_make_engine_with_allocator (null: the
// default). Kept beside the engine, by its process-unique id, so the core engine object
// stays free of graph types. OpenCL call-backs are bound here to the engine's device and
// context (device_malloc, device_free) unless `alloc` has bound ones already.
void set_engine_allocator(engine_t &engine, const dnnl_graph_allocator &alloc);
std::shared_ptr<const dnnl_graph_allocator> engine_allocator(const engine_t &engine);

// Buffers that the graph API owns on one engine, through its allocator.
struct engine_allocation_t {
    engine_allocation_t() = default;
    engine_allocation_t(const engine_allocation_t &) = delete;
    engine_allocation_t &operator=(const engine_allocation_t &) = delete;
    ~engine_allocation_t() { release(); }

    // Allocates `size` bytes (64-byte aligned) on `engine`; out_of_memory when refused.
    // GPU engines: USM from the allocator's device call-backs, else the runtime's USM
    // (compute_engine_t::allocate_usm).
    status_t allocate(engine_t *engine, size_t size);
    // Frees the buffer; on a GPU engine once `after` (an event of the engine's runtime, may
    // be null: nothing uses the buffer any more) completes.
    void release(void *after = nullptr);
    void *get() const { return ptr_; }

private:
    engine_ref_t engine_;
    std::shared_ptr<const dnnl_graph_allocator> allocator_;
    void *ptr_ = nullptr;
    bool device_ = false;
};

} // namespace graph
} // namespace anydnn
