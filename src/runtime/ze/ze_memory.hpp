// Memory of a Level Zero engine: a USM pointer of the engine's context. What anydnn allocates
// is shared USM (the host maps it in place) and freed with the memory; a user's pointer is
// never freed. Device-only USM maps through a copy into host USM (and back on unmap) on a
// synchronous immediate command list of our own.
#pragma once

#include "core/memory.hpp"
#include "runtime/ze/ze_api.hpp"

namespace anydnn {
namespace ze {

struct ze_engine_t;

struct ze_usm_storage_t : public memory_storage_t {
    ze_usm_storage_t(ze_engine_t *engine, void *ptr, size_t size, bool owned)
        : engine_(engine), ptr_(ptr), size_(size), owned_(owned) {}
    ~ze_usm_storage_t() override;

    void *data_handle() const override { return ptr_; }
    // A USM pointer of the engine's context (not owned), or null.
    status_t set_data_handle(void *handle) override;
    status_t map(void **host_ptr) override;
    status_t unmap(void *host_ptr) override;

private:
    void free_owned();
    ze_engine_t *engine_; // the memory object holds a reference to the engine
    void *ptr_;
    size_t size_;
    bool owned_;
    void *staging_ = nullptr; // host USM of a mapped device-only allocation
};

// Shared USM of `size` bytes on the engine's device (null for size 0).
status_t usm_allocate_shared(ze_engine_t *engine, size_t size, void **ptr);

// The kind of USM `ptr` is in the engine's context (ZE_MEMORY_TYPE_UNKNOWN when it is none).
ze_memory_type_t usm_type(ze_engine_t *engine, const void *ptr);

} // namespace ze
} // namespace anydnn
