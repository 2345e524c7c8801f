#include "graph/allocator.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/ocl_memory.hpp"

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
} // namespace

void set_engine_allocator(const engine_t &engine, const dnnl_graph_allocator &alloc) {
    auto &t = engine_allocators();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto copy = std::make_shared<dnnl_graph_allocator>(alloc.host_malloc, alloc.host_free);
    copy->ocl_malloc = alloc.ocl_malloc;
    copy->ocl_free = alloc.ocl_free;
    copy->sycl_malloc = alloc.sycl_malloc;
    copy->sycl_free = alloc.sycl_free;
    copy->device_malloc = alloc.device_malloc;
    copy->device_free = alloc.device_free;
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
    ocl::ocl_engine_t *ocl_engine = ocl::as_ocl(engine);
    ANYDNN_REQUIRE(engine->kind() == dnnl_cpu || ocl_engine, dnnl_unimplemented,
            "graph allocations exist only for cpu and OpenCL engines");
    engine_ = engine_ref_t(engine);
    allocator_ = engine_allocator(*engine);
    ocl_ = ocl_engine != nullptr;
    if (ocl_) {
        if (allocator_ && allocator_->device_malloc) {
            ptr_ = allocator_->device_malloc(size, alignment);
        } else if (allocator_ && allocator_->ocl_malloc) {
            ptr_ = allocator_->ocl_malloc(
                    size, alignment, ocl_engine->device(), ocl_engine->context());
        } else {
            allocator_.reset();
            if (ocl::usm_allocate(ocl_engine, size, &ptr_) != dnnl_success) ptr_ = nullptr;
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

void engine_allocation_t::release(_cl_event *after) {
    if (!ptr_) return;
    if (ocl_) {
        auto *e = ocl::as_ocl(engine_.get());
        if (allocator_ && allocator_->device_free) {
            allocator_->device_free(ptr_, after);
        } else if (allocator_) {
            allocator_->ocl_free(ptr_, e->device(), e->context(), after);
        } else {
            if (after) ocl::cl_api()->clWaitForEvents(1, &after);
            ocl::usm_free(e, ptr_);
        }
    } else if (allocator_) {
        allocator_->host_free(ptr_);
    } else {
        std::free(ptr_);
    }
    ptr_ = nullptr;
    ocl_ = false;
    allocator_.reset();
    engine_ = engine_ref_t();
}

} // namespace graph
} // namespace anydnn
