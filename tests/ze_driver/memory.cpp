// USM over coarse-grained SVM (clSVMAlloc): host, device and shared allocations are all SVM of
// the context, told apart by the table of allocations, which answers the property queries.
#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

std::map<void *, allocation_t> &allocations() {
    static std::map<void *, allocation_t> table;
    return table;
}

ze_result_t allocate(ze_context_handle_t context, ze_memory_type_t type, size_t size,
        size_t alignment, ze_device_handle_t device, void **ptr) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    device_t *d = nullptr;
    if (type != ZE_MEMORY_TYPE_HOST) {
        d = live_device(device);
        if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (!c->has(d)) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // a context without it
    }
    if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    if (alignment > UINT32_MAX) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    void *p = clSVMAlloc(c->cl, CL_MEM_READ_WRITE, size, static_cast<cl_uint>(alignment));
    if (!p) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    allocations()[p] = {c, type, d, size};
    *ptr = p;
    return ZE_RESULT_SUCCESS;
}

} // namespace

allocation_t *find_allocation(const void *ptr, void **base) {
    auto &table = allocations();
    auto it = table.upper_bound(const_cast<void *>(ptr));
    if (it == table.begin()) return nullptr;
    --it;
    const auto *start = static_cast<const char *>(it->first);
    if (static_cast<const char *>(ptr) >= start + it->second.size) return nullptr;
    if (base) *base = it->first;
    return &it->second;
}

ze_result_t ZE_APICALL mem_alloc_device(ze_context_handle_t context,
        const ze_device_mem_alloc_desc_t *, size_t size, size_t alignment,
        ze_device_handle_t device, void **ptr) {
    return allocate(context, ZE_MEMORY_TYPE_DEVICE, size, alignment, device, ptr);
}

ze_result_t ZE_APICALL mem_alloc_shared(ze_context_handle_t context,
        const ze_device_mem_alloc_desc_t *, const ze_host_mem_alloc_desc_t *, size_t size,
        size_t alignment, ze_device_handle_t device, void **ptr) {
    return allocate(context, ZE_MEMORY_TYPE_SHARED, size, alignment, device, ptr);
}

ze_result_t ZE_APICALL mem_alloc_host(ze_context_handle_t context, const ze_host_mem_alloc_desc_t *,
        size_t size, size_t alignment, void **ptr) {
    return allocate(context, ZE_MEMORY_TYPE_HOST, size, alignment, nullptr, ptr);
}

ze_result_t ZE_APICALL mem_get_alloc_properties(ze_context_handle_t context, const void *ptr,
        ze_memory_allocation_properties_t *props, ze_device_handle_t *device) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    void *base = nullptr;
    allocation_t *a = find_allocation(ptr, &base);
    if (a && a->context != c) a = nullptr; // another context's memory is unknown here
    props->type = a ? a->type : ZE_MEMORY_TYPE_UNKNOWN;
    props->id = a ? reinterpret_cast<uintptr_t>(base) : 0;
    props->pageSize = a ? 4096 : 0;
    if (device) *device = a && a->device ? handle_of<ze_device_handle_t>(a->device) : nullptr;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_get_address_range(
        ze_context_handle_t context, const void *ptr, void **base, size_t *size) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    void *start = nullptr;
    allocation_t *a = find_allocation(ptr, &start);
    if (!a || a->context != c) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (base) *base = start;
    if (size) *size = a->size;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_free(ze_context_handle_t context, void *ptr) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    auto it = allocations().find(ptr);
    if (it == allocations().end() || it->second.context != c)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    clSVMFree(c->cl, ptr);
    allocations().erase(it);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
