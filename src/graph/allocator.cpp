#include "graph/allocator.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

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
    t.by_engine[engine.id()]
            = std::make_shared<const dnnl_graph_allocator>(alloc.host_malloc, alloc.host_free);
}

std::shared_ptr<const dnnl_graph_allocator> engine_allocator(const engine_t &engine) {
    auto &t = engine_allocators();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_engine.find(engine.id());
    return it == t.by_engine.end() ? nullptr : it->second;
}

status_t engine_allocation_t::allocate(engine_t *engine, size_t size) {
    release();
    ANYDNN_REQUIRE(engine->kind() == dnnl_cpu, dnnl_unimplemented,
            "graph allocations exist only for cpu engines in this build");
    if (size == 0) return dnnl_success;
    engine_ = engine_ref_t(engine);
    allocator_ = engine_allocator(*engine);
    if (allocator_ && allocator_->host_malloc) {
        ptr_ = allocator_->host_malloc(size, alignment);
    } else {
        allocator_.reset();
        ptr_ = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    }
    ANYDNN_REQUIRE(ptr_ != nullptr, dnnl_out_of_memory, "could not allocate %zu bytes", size);
    return dnnl_success;
}

void engine_allocation_t::release() {
    if (!ptr_) return;
    if (allocator_)
        allocator_->host_free(ptr_);
    else
        std::free(ptr_);
    ptr_ = nullptr;
    allocator_.reset();
    engine_ = engine_ref_t();
}

} // namespace graph
} // namespace anydnn
