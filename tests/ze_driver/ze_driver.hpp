// The Level Zero test driver's objects (tests only, never installed): each Level Zero object
// wraps its OpenCL counterpart on one OpenCL platform (PoCL, or the one whose name contains
// ANYDNN_ZE_TEST_OPENCL_PLATFORM). Every OpenCL device appears as two Level Zero devices, so
// that a context without the device can be made; both run on the same OpenCL device.
// Handles are the objects' addresses, registered while alive: a stale or foreign handle is
// answered with ZE_RESULT_ERROR_INVALID_NULL_HANDLE instead of being used.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <level_zero/ze_api.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>
#include <vector>

namespace ze_driver {

struct device_t {
    cl_device_id cl = nullptr;
    int index = 0; // among the driver's Level Zero devices
    std::string name;
    bool takes_spirv = false;             // CL_DEVICE_IL_VERSION names SPIR-V
    bool takes_spir = false;              // cl_khr_spir: SPIR-V can reach it as SPIR 1.2 bitcode
    std::vector<uint32_t> subgroup_sizes; // empty: no subgroups
};

struct driver_t {
    cl_platform_id platform = nullptr;
    std::vector<device_t> devices;
};

struct context_t {
    cl_context cl = nullptr;
    std::vector<device_t *> devices; // the devices it was made with (all by default)
    bool has(const device_t *d) const;
};

struct allocation_t {
    context_t *context = nullptr;
    ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
    device_t *device = nullptr; // null for host allocations
    size_t size = 0;
};

struct command_list_t {
    context_t *context = nullptr;
    device_t *device = nullptr;
    cl_command_queue queue = nullptr; // null: a regular list (recorded lists are refused)
    bool synchronous = false;         // ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS: each append waits
};

struct event_pool_t {
    context_t *context = nullptr;
    ze_event_pool_flags_t flags = 0;
    std::vector<bool> used; // one slot per index
};

// A user event that commands wait on before anything that signals their Level Zero event was
// appended; completed once, by a host signal or by the signaling command's completion callback
// (which must not take the objects' lock: PoCL may run it inside clSetEventCallback).
struct waiter_t {
    cl_event event = nullptr;
    std::atomic<bool> completed{false};
    void complete(cl_int status);
    ~waiter_t(); // an uncompleted waiter fails its commands rather than leave them hanging
};

// A Level Zero event over OpenCL events: `signaler` is the command appended to signal it.
struct event_t {
    event_pool_t *pool = nullptr;
    uint32_t index = 0;
    cl_event signaler = nullptr;
    std::shared_ptr<waiter_t> waiter;
    bool host_signalled = false;
};

struct module_t {
    context_t *context = nullptr;
    device_t *device = nullptr;
    cl_program program = nullptr;
    std::vector<std::string> kernel_names;
    int live_kernels = 0; // a module outlives its kernels
};

struct build_log_t {
    std::string text;
};

struct kernel_t {
    module_t *module = nullptr;
    cl_kernel cl = nullptr;
    std::string name;
    uint32_t group_size[3] = {1, 1, 1};
    // Per argument: 1 global/constant pointer, 0 not, -1 unknown (no argument info).
    std::vector<int> pointer_arg;
};

// Set once by zeInit; null before (or when no OpenCL platform is usable).
driver_t *the_driver();
ze_result_t initialize_driver();

// The one lock of the driver's objects; never held across a blocking OpenCL wait.
std::mutex &objects_mutex();
using lock_t = std::unique_lock<std::mutex>;

// Live objects by handle, with their type: live<T>(h) is null unless h is a live T.
void register_object(const void *object, const std::type_info &type);
void unregister_object(const void *object);
bool is_live(const void *object, const std::type_info &type);
template <typename T, typename H> T *live(H handle) {
    auto *p = reinterpret_cast<T *>(handle);
    return is_live(p, typeid(T)) ? p : nullptr;
}
template <typename H, typename T> H handle_of(T *object) {
    return reinterpret_cast<H>(object);
}
device_t *live_device(ze_device_handle_t handle);

// The allocation holding `ptr` (any address inside it), or null; its base through `base`.
allocation_t *find_allocation(const void *ptr, void **base = nullptr);

// The SPIR-V version zeModuleCreate takes for `d` (ZE_MAKE_VERSION), 0 when it takes none.
uint32_t spirv_version(const device_t &d);

// Level Zero's string queries (build log, kernel name): size query, then up to *size bytes,
// always terminated.
ze_result_t copy_string(const std::string &text, size_t *size, char *out);

// Distinct per copy of the library and per object: derived from the object's address.
template <size_t n> void fill_uuid(uint8_t (&id)[n], const void *object) {
    std::memset(id, 0, n);
    const auto bits = reinterpret_cast<uintptr_t>(object);
    std::memcpy(id, &bits, sizeof(bits) < n ? sizeof(bits) : n);
}

// OpenCL status to the nearest Level Zero result.
ze_result_t from_cl(cl_int status);

// The handle lists of zeDriverGet / zeDeviceGet: count query, then up to *count handles.
template <typename H>
ze_result_t list_handles(uint32_t *count, H *handles, const std::vector<H> &all) {
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !handles) {
        *count = static_cast<uint32_t>(all.size());
        return ZE_RESULT_SUCCESS;
    }
    if (*count > all.size()) *count = static_cast<uint32_t>(all.size());
    for (uint32_t i = 0; i < *count; ++i)
        handles[i] = all[i];
    return ZE_RESULT_SUCCESS;
}

// The OpenCL event a command must wait for so that `e` is signalled first, or null when it
// already is (creates the waiter user event if nothing will signal it yet). Locked.
ze_result_t wait_dependency(event_t *e, cl_event *dependency);
// Collects the dependencies of an append's wait list. Locked.
ze_result_t collect_waits(
        uint32_t nwaits, ze_event_handle_t *waits, std::vector<cl_event> &dependencies);
// Makes `command` the signaler of `e` (retained). Locked.
void signal_with(event_t *e, cl_event command);
// After an enqueue: signals `signal` with `command` (if any), releases `command`, waits when
// the list is synchronous. Called locked; may unlock to wait.
ze_result_t finish_append(
        lock_t &lock, command_list_t *list, event_t *signal, cl_event command, cl_int status);

// The Level Zero entry points the driver implements, by object (ddi_tables.cpp fills the
// loader's tables with them).
#define ZE_DRIVER_API(name, ...) ze_result_t ZE_APICALL name(__VA_ARGS__)
// driver_device_context.cpp
ZE_DRIVER_API(init, ze_init_flags_t);
ZE_DRIVER_API(driver_get, uint32_t *, ze_driver_handle_t *);
ZE_DRIVER_API(driver_get_api_version, ze_driver_handle_t, ze_api_version_t *);
ZE_DRIVER_API(driver_get_properties, ze_driver_handle_t, ze_driver_properties_t *);
ZE_DRIVER_API(driver_get_ipc_properties, ze_driver_handle_t, ze_driver_ipc_properties_t *);
ZE_DRIVER_API(driver_get_extension_properties, ze_driver_handle_t, uint32_t *,
        ze_driver_extension_properties_t *);
ZE_DRIVER_API(device_get, ze_driver_handle_t, uint32_t *, ze_device_handle_t *);
ZE_DRIVER_API(device_get_sub_devices, ze_device_handle_t, uint32_t *, ze_device_handle_t *);
ZE_DRIVER_API(device_get_properties, ze_device_handle_t, ze_device_properties_t *);
ZE_DRIVER_API(device_get_compute_properties, ze_device_handle_t, ze_device_compute_properties_t *);
ZE_DRIVER_API(device_get_module_properties, ze_device_handle_t, ze_device_module_properties_t *);
ZE_DRIVER_API(device_get_command_queue_group_properties, ze_device_handle_t, uint32_t *,
        ze_command_queue_group_properties_t *);
ZE_DRIVER_API(device_get_memory_properties, ze_device_handle_t, uint32_t *,
        ze_device_memory_properties_t *);
ZE_DRIVER_API(device_get_cache_properties, ze_device_handle_t, uint32_t *,
        ze_device_cache_properties_t *);
ZE_DRIVER_API(context_create, ze_driver_handle_t, const ze_context_desc_t *, ze_context_handle_t *);
ZE_DRIVER_API(context_create_ex, ze_driver_handle_t, const ze_context_desc_t *, uint32_t,
        ze_device_handle_t *, ze_context_handle_t *);
ZE_DRIVER_API(context_destroy, ze_context_handle_t);
ZE_DRIVER_API(context_get_status, ze_context_handle_t);
// memory.cpp
ZE_DRIVER_API(mem_alloc_device, ze_context_handle_t, const ze_device_mem_alloc_desc_t *, size_t,
        size_t, ze_device_handle_t, void **);
ZE_DRIVER_API(mem_alloc_shared, ze_context_handle_t, const ze_device_mem_alloc_desc_t *,
        const ze_host_mem_alloc_desc_t *, size_t, size_t, ze_device_handle_t, void **);
ZE_DRIVER_API(mem_alloc_host, ze_context_handle_t, const ze_host_mem_alloc_desc_t *, size_t, size_t,
        void **);
ZE_DRIVER_API(mem_get_alloc_properties, ze_context_handle_t, const void *,
        ze_memory_allocation_properties_t *, ze_device_handle_t *);
ZE_DRIVER_API(mem_get_address_range, ze_context_handle_t, const void *, void **, size_t *);
ZE_DRIVER_API(mem_free, ze_context_handle_t, void *);
// command_lists.cpp
ZE_DRIVER_API(list_create, ze_context_handle_t, ze_device_handle_t, const ze_command_list_desc_t *,
        ze_command_list_handle_t *);
ZE_DRIVER_API(list_create_immediate, ze_context_handle_t, ze_device_handle_t,
        const ze_command_queue_desc_t *, ze_command_list_handle_t *);
ZE_DRIVER_API(list_destroy, ze_command_list_handle_t);
ZE_DRIVER_API(list_close, ze_command_list_handle_t);
ZE_DRIVER_API(list_reset, ze_command_list_handle_t);
ZE_DRIVER_API(list_append_barrier, ze_command_list_handle_t, ze_event_handle_t, uint32_t,
        ze_event_handle_t *);
ZE_DRIVER_API(list_append_memory_copy, ze_command_list_handle_t, void *, const void *, size_t,
        ze_event_handle_t, uint32_t, ze_event_handle_t *);
ZE_DRIVER_API(list_append_memory_fill, ze_command_list_handle_t, void *, const void *, size_t,
        size_t, ze_event_handle_t, uint32_t, ze_event_handle_t *);
ZE_DRIVER_API(list_append_signal_event, ze_command_list_handle_t, ze_event_handle_t);
ZE_DRIVER_API(list_append_wait_on_events, ze_command_list_handle_t, uint32_t, ze_event_handle_t *);
ZE_DRIVER_API(list_append_event_reset, ze_command_list_handle_t, ze_event_handle_t);
ZE_DRIVER_API(list_append_launch_kernel, ze_command_list_handle_t, ze_kernel_handle_t,
        const ze_group_count_t *, ze_event_handle_t, uint32_t, ze_event_handle_t *);
// events.cpp
ZE_DRIVER_API(event_pool_create, ze_context_handle_t, const ze_event_pool_desc_t *, uint32_t,
        ze_device_handle_t *, ze_event_pool_handle_t *);
ZE_DRIVER_API(event_pool_destroy, ze_event_pool_handle_t);
ZE_DRIVER_API(event_create, ze_event_pool_handle_t, const ze_event_desc_t *, ze_event_handle_t *);
ZE_DRIVER_API(event_destroy, ze_event_handle_t);
ZE_DRIVER_API(event_host_signal, ze_event_handle_t);
ZE_DRIVER_API(event_host_synchronize, ze_event_handle_t, uint64_t);
ZE_DRIVER_API(event_query_status, ze_event_handle_t);
ZE_DRIVER_API(event_host_reset, ze_event_handle_t);
ZE_DRIVER_API(event_query_kernel_timestamp, ze_event_handle_t, ze_kernel_timestamp_result_t *);
// modules.cpp
ZE_DRIVER_API(module_create, ze_context_handle_t, ze_device_handle_t, const ze_module_desc_t *,
        ze_module_handle_t *, ze_module_build_log_handle_t *);
ZE_DRIVER_API(module_destroy, ze_module_handle_t);
ZE_DRIVER_API(module_get_native_binary, ze_module_handle_t, size_t *, uint8_t *);
ZE_DRIVER_API(module_get_kernel_names, ze_module_handle_t, uint32_t *, const char **);
ZE_DRIVER_API(build_log_destroy, ze_module_build_log_handle_t);
ZE_DRIVER_API(build_log_get_string, ze_module_build_log_handle_t, size_t *, char *);
// kernels.cpp
ZE_DRIVER_API(kernel_create, ze_module_handle_t, const ze_kernel_desc_t *, ze_kernel_handle_t *);
ZE_DRIVER_API(kernel_destroy, ze_kernel_handle_t);
ZE_DRIVER_API(kernel_set_group_size, ze_kernel_handle_t, uint32_t, uint32_t, uint32_t);
ZE_DRIVER_API(kernel_suggest_group_size, ze_kernel_handle_t, uint32_t, uint32_t, uint32_t,
        uint32_t *, uint32_t *, uint32_t *);
ZE_DRIVER_API(kernel_set_argument_value, ze_kernel_handle_t, uint32_t, size_t, const void *);
ZE_DRIVER_API(kernel_get_properties, ze_kernel_handle_t, ze_kernel_properties_t *);
ZE_DRIVER_API(kernel_get_name, ze_kernel_handle_t, size_t *, char *);
#undef ZE_DRIVER_API

} // namespace ze_driver
