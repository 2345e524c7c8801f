#include "runtime/cpu/cpu_engine.hpp"

#include <cstdlib>

#include "core/impl_lists.hpp"
#include "core/object.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

status_t cpu_engine_t::create_stream(dnnl_stream **stream, unsigned flags) {
    *stream = new cpu_stream_t(this, flags);
    return dnnl_success;
}

status_t cpu_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    if (handle == DNNL_MEMORY_ALLOCATE) {
        void *p = nullptr;
        if (size > 0) {
            size_t bytes = (size + 63) / 64 * 64;
            p = std::aligned_alloc(64, bytes);
            ANYDNN_REQUIRE(p, dnnl_out_of_memory, "cannot allocate %zu bytes", size);
        }
        storage = std::make_unique<host_memory_storage_t>(p, true);
    } else {
        storage = std::make_unique<host_memory_storage_t>(handle, false);
    }
    return dnnl_success;
}

const std::vector<impl_entry_t> &cpu_engine_t::impl_list(dnnl_primitive_kind_t kind) const {
    return cpu_impl_list(kind);
}

host_memory_storage_t::~host_memory_storage_t() {
    if (owned_) std::free(ptr_);
}

status_t host_memory_storage_t::set_data_handle(void *handle) {
    if (owned_) std::free(ptr_);
    ptr_ = handle;
    owned_ = false;
    return dnnl_success;
}

status_t cpu_stream_t::execute(const primitive_t &prim, const exec_ctx_t &ctx) {
    if (!threadpool_) return prim.execute(ctx);
    threadpool_scope_t scope(threadpool_);
    return prim.execute(ctx);
}

} // namespace cpu
} // namespace anydnn
