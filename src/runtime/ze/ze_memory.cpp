#include "runtime/ze/ze_memory.hpp"

#include "runtime/ze/ze_engine.hpp"
#include "runtime/ze/ze_stream.hpp"

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

namespace {

// Copies `bytes` on a synchronous immediate command list of our own, outside any stream.
status_t copy_now(ze_engine_t *engine, void *dst, const void *src, size_t bytes) {
    const ze_api_t &ze = *ze_api();
    ze_command_queue_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    ze_command_list_handle_t list = nullptr;
    ANYDNN_CHECK(ze_check(ze.zeCommandListCreateImmediate(
                                  engine->context(), engine->device(), &desc, &list),
            "zeCommandListCreateImmediate"));
    const ze_result_t r = ze.zeCommandListAppendMemoryCopy(list, dst, src, bytes, nullptr, 0, nullptr);
    ze.zeCommandListDestroy(list);
    return ze_check(r, "zeCommandListAppendMemoryCopy");
}

} // namespace

ze_usm_storage_t::~ze_usm_storage_t() {
    if (process_exiting()) return;
    if (staging_) ze_api()->zeMemFree(engine_->context(), staging_);
    free_owned();
}

void ze_usm_storage_t::free_owned() {
    if (owned_ && ptr_) {
        // Freed while a primitive executes: its commands may still use the memory.
        ze_stream_t *s = ze_stream_t::executing();
        if (s && s->engine() == engine_) s->free_when_done(ptr_);
        else ze_api()->zeMemFree(engine_->context(), ptr_);
    }
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
    if (usm_type(engine_, ptr_) != ZE_MEMORY_TYPE_DEVICE) {
        *host_ptr = ptr_; // host and shared USM: the host reads it in place
        return dnnl_success;
    }
    ANYDNN_REQUIRE(!staging_, dnnl_invalid_arguments, "the memory is mapped already");
    ze_host_mem_alloc_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
    void *staging = nullptr;
    ANYDNN_REQUIRE(ze_api()->zeMemAllocHost(engine_->context(), &desc, size_, 64, &staging)
                    == ZE_RESULT_SUCCESS,
            dnnl_out_of_memory, "zeMemAllocHost of %zu bytes failed", size_);
    const status_t st = copy_now(engine_, staging, ptr_, size_);
    if (st != dnnl_success) {
        ze_api()->zeMemFree(engine_->context(), staging);
        return st;
    }
    staging_ = *host_ptr = staging;
    return dnnl_success;
}

status_t ze_usm_storage_t::unmap(void *host_ptr) {
    if (!staging_ || host_ptr != staging_) return dnnl_success; // mapped in place
    const status_t st = copy_now(engine_, ptr_, staging_, size_);
    ze_api()->zeMemFree(engine_->context(), staging_);
    staging_ = nullptr;
    return st;
}

} // namespace ze
} // namespace anydnn
