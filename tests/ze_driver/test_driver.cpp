// A Level Zero driver for tests only (never installed): Debian's loader loads it through
// ZE_ENABLE_ALT_DRIVERS, so the library's Level Zero code runs against the real loader and its
// validation layer on machines without Intel hardware. So far it has the objects the
// library's checks touch: two GPU devices per driver, contexts (zeContextCreateEx keeps the
// device list, so a context without the device can be told apart) and USM allocations
// (host memory for now, their USM type remembered), immediate and regular command lists that
// signal events, event pools and events. Every other table entry is null: unsupported.
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace {

struct test_device_t {
    int id = 0;
};
constexpr int ndevices = 2;
struct test_driver_t {
    test_device_t devices[ndevices];
};
struct test_context_t {
    std::vector<ze_device_handle_t> devices; // empty: every device of the driver
};

test_driver_t the_driver;
std::mutex objects_mutex;
std::set<test_context_t *> live_contexts;

ze_driver_handle_t driver_handle() { return reinterpret_cast<ze_driver_handle_t>(&the_driver); }
ze_device_handle_t device_handle(int i) {
    return reinterpret_cast<ze_device_handle_t>(&the_driver.devices[i]);
}
bool is_our_device(ze_device_handle_t d) {
    for (int i = 0; i < ndevices; ++i)
        if (d == device_handle(i)) return true;
    return false;
}

// The handle lists of zeDriverGet / zeDeviceGet: count query, then up to *count handles.
template <typename H>
ze_result_t list(uint32_t *count, H *handles, const std::vector<H> &all) {
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !handles) {
        *count = static_cast<uint32_t>(all.size());
        return ZE_RESULT_SUCCESS;
    }
    if (*count > all.size()) *count = static_cast<uint32_t>(all.size());
    for (uint32_t i = 0; i < *count; ++i) handles[i] = all[i];
    return ZE_RESULT_SUCCESS;
}

// Distinct per copy of the library (and per device): derived from the objects' addresses.
template <size_t n>
void fill_uuid(uint8_t (&id)[n], const void *object) {
    std::memset(id, 0, n);
    const auto bits = reinterpret_cast<uintptr_t>(object);
    std::memcpy(id, &bits, sizeof(bits) < n ? sizeof(bits) : n);
}

ze_result_t ZE_APICALL init(ze_init_flags_t) { return ZE_RESULT_SUCCESS; }

ze_result_t ZE_APICALL driver_get(uint32_t *count, ze_driver_handle_t *drivers) {
    return list(count, drivers, std::vector<ze_driver_handle_t> {driver_handle()});
}

ze_result_t ZE_APICALL driver_get_api_version(ze_driver_handle_t, ze_api_version_t *version) {
    *version = ZE_API_VERSION_1_0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_properties(ze_driver_handle_t, ze_driver_properties_t *p) {
    fill_uuid(p->uuid.id, &the_driver);
    p->driverVersion = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get(
        ze_driver_handle_t driver, uint32_t *count, ze_device_handle_t *devices) {
    if (driver != driver_handle()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::vector<ze_device_handle_t> all;
    for (int i = 0; i < ndevices; ++i) all.push_back(device_handle(i));
    return list(count, devices, all);
}

ze_result_t ZE_APICALL device_get_properties(ze_device_handle_t d, ze_device_properties_t *p) {
    if (!is_our_device(d)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    p->type = ZE_DEVICE_TYPE_GPU;
    p->vendorId = 0;
    p->deviceId = 0;
    p->flags = 0;
    fill_uuid(p->uuid.id, d);
    std::strncpy(p->name, "anydnn Level Zero test device", ZE_MAX_DEVICE_NAME - 1);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_create_ex(ze_driver_handle_t driver, const ze_context_desc_t *,
        uint32_t ncontext_devices, ze_device_handle_t *devices, ze_context_handle_t *context) {
    if (driver != driver_handle()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    auto *c = new test_context_t;
    if (ncontext_devices && devices) c->devices.assign(devices, devices + ncontext_devices);
    std::lock_guard<std::mutex> lock(objects_mutex);
    live_contexts.insert(c);
    *context = reinterpret_cast<ze_context_handle_t>(c);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_create(
        ze_driver_handle_t driver, const ze_context_desc_t *desc, ze_context_handle_t *context) {
    return context_create_ex(driver, desc, 0, nullptr, context);
}

ze_result_t ZE_APICALL context_destroy(ze_context_handle_t context) {
    auto *c = reinterpret_cast<test_context_t *>(context);
    std::lock_guard<std::mutex> lock(objects_mutex);
    if (!live_contexts.erase(c)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete c;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_get_status(ze_context_handle_t context) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    return live_contexts.count(reinterpret_cast<test_context_t *>(context))
            ? ZE_RESULT_SUCCESS
            : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

// Every allocation is host memory for now, with its USM type remembered; only devices of the
// context may allocate device or shared memory.
struct allocation_t {
    ze_memory_type_t type;
    test_context_t *context;
};
std::map<void *, allocation_t> live_allocations;

ze_result_t allocate(ze_context_handle_t context, ze_memory_type_t type, size_t size,
        size_t alignment, ze_device_handle_t device, void **ptr) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *c = reinterpret_cast<test_context_t *>(context);
    if (!live_contexts.count(c)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (type != ZE_MEMORY_TYPE_HOST) {
        if (!is_our_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        if (!c->devices.empty()
                && std::find(c->devices.begin(), c->devices.end(), device) == c->devices.end())
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    const size_t align = alignment ? alignment : 64;
    *ptr = std::aligned_alloc(align, (size + align - 1) / align * align);
    if (!*ptr) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    live_allocations[*ptr] = {type, c};
    return ZE_RESULT_SUCCESS;
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

ze_result_t ZE_APICALL mem_alloc_host(ze_context_handle_t context,
        const ze_host_mem_alloc_desc_t *, size_t size, size_t alignment, void **ptr) {
    return allocate(context, ZE_MEMORY_TYPE_HOST, size, alignment, nullptr, ptr);
}

ze_result_t ZE_APICALL mem_get_alloc_properties(ze_context_handle_t context, const void *ptr,
        ze_memory_allocation_properties_t *props, ze_device_handle_t *device) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto it = live_allocations.find(const_cast<void *>(ptr));
    const bool ours = it != live_allocations.end()
            && it->second.context == reinterpret_cast<test_context_t *>(context);
    props->type = ours ? it->second.type : ZE_MEMORY_TYPE_UNKNOWN;
    props->id = ours ? reinterpret_cast<uintptr_t>(ptr) : 0;
    props->pageSize = 4096;
    if (device) *device = nullptr;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_free(ze_context_handle_t, void *ptr) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    if (!live_allocations.erase(ptr)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    std::free(ptr);
    return ZE_RESULT_SUCCESS;
}

// Immediate command lists run what is appended at once (there is no device work yet), so an
// event is signalled when its signal is appended. Regular lists can be made, to be refused.
struct test_command_list_t {
    test_context_t *context;
    bool immediate;
};
struct test_event_t {
    bool signalled = false;
};
std::set<test_command_list_t *> live_lists;
std::set<test_event_t *> live_events;

ze_result_t create_list(ze_context_handle_t context, ze_device_handle_t device, bool immediate,
        ze_command_list_handle_t *list) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *c = reinterpret_cast<test_context_t *>(context);
    if (!live_contexts.count(c) || !is_our_device(device))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    auto *l = new test_command_list_t {c, immediate};
    live_lists.insert(l);
    *list = reinterpret_cast<ze_command_list_handle_t>(l);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL list_create_immediate(ze_context_handle_t context,
        ze_device_handle_t device, const ze_command_queue_desc_t *,
        ze_command_list_handle_t *list) {
    return create_list(context, device, true, list);
}

ze_result_t ZE_APICALL list_create(ze_context_handle_t context, ze_device_handle_t device,
        const ze_command_list_desc_t *, ze_command_list_handle_t *list) {
    return create_list(context, device, false, list);
}

ze_result_t ZE_APICALL list_destroy(ze_command_list_handle_t list) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *l = reinterpret_cast<test_command_list_t *>(list);
    if (!live_lists.erase(l)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete l;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL list_append_signal_event(
        ze_command_list_handle_t list, ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *e = reinterpret_cast<test_event_t *>(event);
    if (!live_lists.count(reinterpret_cast<test_command_list_t *>(list)) || !live_events.count(e))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    e->signalled = true;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_create(ze_context_handle_t, const ze_event_pool_desc_t *,
        uint32_t, ze_device_handle_t *, ze_event_pool_handle_t *pool) {
    static int pool_tag;
    *pool = reinterpret_cast<ze_event_pool_handle_t>(&pool_tag); // pools hold nothing yet
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_destroy(ze_event_pool_handle_t) { return ZE_RESULT_SUCCESS; }

ze_result_t ZE_APICALL event_create(
        ze_event_pool_handle_t, const ze_event_desc_t *, ze_event_handle_t *event) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *e = new test_event_t;
    live_events.insert(e);
    *event = reinterpret_cast<ze_event_handle_t>(e);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_destroy(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *e = reinterpret_cast<test_event_t *>(event);
    if (!live_events.erase(e)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    delete e;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_query_status(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *e = reinterpret_cast<test_event_t *>(event);
    if (!live_events.count(e)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return e->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL event_host_synchronize(ze_event_handle_t event, uint64_t) {
    return event_query_status(event); // nothing runs later: not signalled now is never
}

ze_result_t set_signalled(ze_event_handle_t event, bool value) {
    std::lock_guard<std::mutex> lock(objects_mutex);
    auto *e = reinterpret_cast<test_event_t *>(event);
    if (!live_events.count(e)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    e->signalled = value;
    return ZE_RESULT_SUCCESS;
}
ze_result_t ZE_APICALL event_host_signal(ze_event_handle_t event) {
    return set_signalled(event, true);
}
ze_result_t ZE_APICALL event_host_reset(ze_event_handle_t event) {
    return set_signalled(event, false);
}

template <typename T>
ze_result_t empty_table(ze_api_version_t, T *table) {
    if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::memset(table, 0, sizeof(*table));
    return ZE_RESULT_SUCCESS;
}

} // namespace

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(
        ze_api_version_t v, ze_global_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r == ZE_RESULT_SUCCESS) t->pfnInit = init;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(
        ze_api_version_t v, ze_driver_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnGet = driver_get;
    t->pfnGetApiVersion = driver_get_api_version;
    t->pfnGetProperties = driver_get_properties;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(
        ze_api_version_t v, ze_device_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnGet = device_get;
    t->pfnGetProperties = device_get_properties;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(
        ze_api_version_t v, ze_context_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = context_create;
    t->pfnCreateEx = context_create_ex;
    t->pfnDestroy = context_destroy;
    t->pfnGetStatus = context_get_status;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(
        ze_api_version_t v, ze_mem_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnAllocDevice = mem_alloc_device;
    t->pfnAllocShared = mem_alloc_shared;
    t->pfnAllocHost = mem_alloc_host;
    t->pfnGetAllocProperties = mem_get_alloc_properties;
    t->pfnFree = mem_free;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(
        ze_api_version_t v, ze_command_list_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = list_create;
    t->pfnCreateImmediate = list_create_immediate;
    t->pfnDestroy = list_destroy;
    t->pfnAppendSignalEvent = list_append_signal_event;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(
        ze_api_version_t v, ze_event_pool_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = event_pool_create;
    t->pfnDestroy = event_pool_destroy;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(
        ze_api_version_t v, ze_event_dditable_t *t) {
    ze_result_t r = empty_table(v, t);
    if (r != ZE_RESULT_SUCCESS) return r;
    t->pfnCreate = event_create;
    t->pfnDestroy = event_destroy;
    t->pfnHostSignal = event_host_signal;
    t->pfnHostSynchronize = event_host_synchronize;
    t->pfnQueryStatus = event_query_status;
    t->pfnHostReset = event_host_reset;
    return r;
}

// The tables of objects the driver does not have yet.
#define ANYDNN_EMPTY_TABLE(name, type) \
    ZE_DLLEXPORT ze_result_t ZE_APICALL name(ze_api_version_t v, type *t) { \
        return empty_table(v, t); \
    }
ANYDNN_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetModuleProcAddrTable, ze_module_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetModuleBuildLogProcAddrTable, ze_module_build_log_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetKernelProcAddrTable, ze_kernel_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)
// Tools and sysman tables: the loader asks every driver for them.
ANYDNN_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
ANYDNN_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
#undef ANYDNN_EMPTY_TABLE

} // extern "C"
