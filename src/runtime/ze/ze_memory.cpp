#include "runtime/ze/ze_memory.hpp"

#include "runtime/ze/ze_engine.hpp"

namespace anydnn {
namespace ze {

status_t usm_allocate_shared(ze_engine_t *engine, size_t size, void **ptr) {
    *ptr = nullptr;
    if (size == 0) return dnnl_success;
    ze_device_mem_alloc_desc_t device_desc = {};
    device_desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
    ze_host_mem_alloc_desc_t host_desc = {};
    host_desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
    const ze_result_t r = ze_api()->zeMemAllocShared(
            engine->context(), &device_desc, &host_desc, size, 64, engine->device(), ptr);
    ANYDNN_REQUIRE(r == ZE_RESULT_SUCCESS, dnnl_out_of_memory,
            "zeMemAllocShared of %zu bytes failed (0x%x)", size, static_cast<unsigned>(r));
    return dnnl_success;
}

ze_memory_type_t usm_type(ze_engine_t *engine, const void *ptr) {
    ze_memory_allocation_properties_t props = {};
    props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
    ze_device_handle_t device = nullptr;
    if (ze_api()->zeMemGetAllocProperties(engine->context(), ptr, &props, &device)
            != ZE_RESULT_SUCCESS)
        return ZE_MEMORY_TYPE_UNKNOWN;
    return props.type;
}

ze_usm_storage_t::~ze_usm_storage_t() { free_owned(); }

void ze_usm_storage_t::free_owned() {
    if (owned_ && ptr_) ze_api()->zeMemFree(engine_->context(), ptr_);
    owned_ = false;
}

status_t ze_usm_storage_t::set_data_handle(void *handle) {
    ANYDNN_REQUIRE(!handle || usm_type(engine_, handle) != ZE_MEMORY_TYPE_UNKNOWN,
            dnnl_invalid_arguments, "handle is not a USM pointer of the engine's context");
    free_owned();
    ptr_ = handle;
    return dnnl_success;
}

status_t ze_usm_storage_t::map(void **host_ptr) {
    *host_ptr = nullptr;
    if (!ptr_ || size_ == 0) return dnnl_success;
    ANYDNN_REQUIRE(usm_type(engine_, ptr_) != ZE_MEMORY_TYPE_DEVICE, dnnl_unimplemented,
            "mapping device-only USM needs a copy on a command list: not implemented yet");
    *host_ptr = ptr_; // host and shared USM: the host reads it in place
    return dnnl_success;
}

status_t ze_usm_storage_t::unmap(void *) { return dnnl_success; }

} // namespace ze
} // namespace anydnn
