#include "graph/allocator.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace graph {

namespace {
constexpr size_t alignment = 64;

struct engine_allocators_t {
    std::mutex mutex;
    std::map<uint64_t, std::shared_ptr<const dnnl_graph_allocator>> by_engine;
};

engine_allocators_t &engine_allocators() {
    static engine_allocators_t *t = new engine_allocators_t; // outlives user destructors
    return *t;
}

// The OpenCL call-backs of `alloc` bound to the device and context of `engine`, an OpenCL
// engine (the compute interface names them opaquely: cl_device_id and cl_context there).
void bind_ocl_callbacks(dnnl_graph_allocator &alloc, engine_t &engine) {
    const auto dc = engine.compute()->device_and_context();
    auto *device = static_cast<_cl_device_id *>(const_cast<void *>(dc.first));
    auto *context = static_cast<_cl_context *>(const_cast<void *>(dc.second));
    const auto user_malloc = alloc.ocl_malloc;
    const auto user_free = alloc.ocl_free;
    // Every allocation keeps the engine, and so its context, until the free call-back. But an
    // application may keep what it allocated longer (oneDNN's examples pool it and free it in
    // the context they were given after the engine has gone): where that context is the
    // engine's own, the bound call-backs, kept for the process, hold a reference to it.
    std::shared_ptr<const void> keep = engine.compute()->own_context_reference();
    alloc.device_malloc = [user_malloc, device, context, keep](size_t size, size_t alignment) {
        return user_malloc(size, alignment, device, context);
    };
    alloc.device_free = [=](void *buf, void *after) {
        user_free(buf, device, context, static_cast<_cl_event *>(after));
    };
}

} // namespace

void set_engine_allocator(engine_t &engine, const dnnl_graph_allocator &alloc) {
    auto copy = std::make_shared<dnnl_graph_allocator>(alloc.host_malloc, alloc.host_free);
    copy->ocl_malloc = alloc.ocl_malloc;
    copy->ocl_free = alloc.ocl_free;
    copy->sycl_malloc = alloc.sycl_malloc;
    copy->sycl_free = alloc.sycl_free;
    copy->device_malloc = alloc.device_malloc;
    copy->device_free = alloc.device_free;
    if (!copy->device_malloc && copy->ocl_malloc && copy->ocl_free
            && engine.runtime() == runtime_kind_t::ocl && engine.compute())
        bind_ocl_callbacks(*copy, engine);
    auto &t = engine_allocators();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.by_engine[engine.id()] = copy;
}

std::shared_ptr<const dnnl_graph_allocator> engine_allocator(const engine_t &engine) {
    auto &t = engine_allocators();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_engine.find(engine.id());
    return it == t.by_engine.end() ? nullptr : it->second;
}

status_t engine_allocation_t::allocate(engine_t *engine, size_t size) {
    release();
    if (size == 0) return dnnl_success;
    gpu::compute_engine_t *compute = engine->compute();
    ANYDNN_REQUIRE(engine->kind() == dnnl_cpu || compute, dnnl_unimplemented,
            "graph allocations exist only for cpu and GPU runtime engines");
    engine_ = engine_ref_t(engine);
    allocator_ = engine_allocator(*engine);
    device_ = compute != nullptr;
    if (device_) {
        if (allocator_ && allocator_->device_malloc) {
            ptr_ = allocator_->device_malloc(size, alignment);
        } else {
            allocator_.reset();
            if (compute->allocate_usm(size, &ptr_) != dnnl_success) ptr_ = nullptr;
        }
    } else if (allocator_ && allocator_->host_malloc) {
        ptr_ = allocator_->host_malloc(size, alignment);
    } else {
        allocator_.reset();
        ptr_ = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    ANYDNN_REQUIRE(ptr_ != nullptr, dnnl_out_of_memory, "could not allocate %zu bytes", size);
    return dnnl_success;
}

void engine_allocation_t::release(void *after) {
    if (!ptr_) return;
    if (device_) {
        if (allocator_) {
            allocator_->device_free(ptr_, after);
        } else {
            gpu::compute_engine_t *compute = engine_->compute();
            if (after) compute->wait_event(after);
            compute->free_usm(ptr_);
        }
    } else if (allocator_) {
        allocator_->host_free(ptr_);
    } else {
        std::free(ptr_);
    }
    ptr_ = nullptr;
    device_ = false;
    allocator_.reset();
    engine_ = engine_ref_t();
}

} // namespace graph
} // namespace anydnn
