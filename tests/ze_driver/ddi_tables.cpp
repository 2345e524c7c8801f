// The tables the loader asks every driver for (zeGet*ProcAddrTable): filled with the entry
// points this driver implements; every other entry is null, which the loader answers with
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE.
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <cstring>

#include "ze_driver/ze_driver.hpp"

using namespace ze_driver;

namespace {

template <typename T> ze_result_t empty_table(ze_api_version_t, T *table) {
    if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::memset(table, 0, sizeof(*table));
    return ZE_RESULT_SUCCESS;
}

// Fills `table` with `fill(*table)` after clearing it.
template <typename T, typename F> ze_result_t table(ze_api_version_t v, T *t, F fill) {
    const ze_result_t r = empty_table(v, t);
    if (r == ZE_RESULT_SUCCESS) fill(*t);
    return r;
}

// Kernels access only the allocations passed to them as arguments, or any: SVM covers both.
ze_result_t ZE_APICALL kernel_set_indirect_access(
        ze_kernel_handle_t, ze_kernel_indirect_access_flags_t) {
    return ZE_RESULT_SUCCESS;
}

} // namespace

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(
        ze_api_version_t v, ze_global_dditable_t *t) {
    return table(v, t, [](ze_global_dditable_t &t) { t.pfnInit = init; });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(
        ze_api_version_t v, ze_driver_dditable_t *t) {
    return table(v, t, [](ze_driver_dditable_t &t) {
        t.pfnGet = driver_get;
        t.pfnGetApiVersion = driver_get_api_version;
        t.pfnGetProperties = driver_get_properties;
        t.pfnGetIpcProperties = driver_get_ipc_properties;
        t.pfnGetExtensionProperties = driver_get_extension_properties;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(
        ze_api_version_t v, ze_device_dditable_t *t) {
    return table(v, t, [](ze_device_dditable_t &t) {
        t.pfnGet = device_get;
        t.pfnGetSubDevices = device_get_sub_devices;
        t.pfnGetProperties = device_get_properties;
        t.pfnGetComputeProperties = device_get_compute_properties;
        t.pfnGetModuleProperties = device_get_module_properties;
        t.pfnGetCommandQueueGroupProperties = device_get_command_queue_group_properties;
        t.pfnGetMemoryProperties = device_get_memory_properties;
        t.pfnGetCacheProperties = device_get_cache_properties;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(
        ze_api_version_t v, ze_context_dditable_t *t) {
    return table(v, t, [](ze_context_dditable_t &t) {
        t.pfnCreate = context_create;
        t.pfnCreateEx = context_create_ex;
        t.pfnDestroy = context_destroy;
        t.pfnGetStatus = context_get_status;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(
        ze_api_version_t v, ze_mem_dditable_t *t) {
    return table(v, t, [](ze_mem_dditable_t &t) {
        t.pfnAllocDevice = mem_alloc_device;
        t.pfnAllocShared = mem_alloc_shared;
        t.pfnAllocHost = mem_alloc_host;
        t.pfnGetAllocProperties = mem_get_alloc_properties;
        t.pfnGetAddressRange = mem_get_address_range;
        t.pfnFree = mem_free;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(
        ze_api_version_t v, ze_command_list_dditable_t *t) {
    return table(v, t, [](ze_command_list_dditable_t &t) {
        t.pfnCreate = list_create;
        t.pfnCreateImmediate = list_create_immediate;
        t.pfnDestroy = list_destroy;
        t.pfnClose = list_close;
        t.pfnReset = list_reset;
        t.pfnAppendBarrier = list_append_barrier;
        t.pfnAppendMemoryCopy = list_append_memory_copy;
        t.pfnAppendMemoryFill = list_append_memory_fill;
        t.pfnAppendSignalEvent = list_append_signal_event;
        t.pfnAppendWaitOnEvents = list_append_wait_on_events;
        t.pfnAppendEventReset = list_append_event_reset;
        t.pfnAppendLaunchKernel = list_append_launch_kernel;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(
        ze_api_version_t v, ze_event_pool_dditable_t *t) {
    return table(v, t, [](ze_event_pool_dditable_t &t) {
        t.pfnCreate = event_pool_create;
        t.pfnDestroy = event_pool_destroy;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(
        ze_api_version_t v, ze_event_dditable_t *t) {
    return table(v, t, [](ze_event_dditable_t &t) {
        t.pfnCreate = event_create;
        t.pfnDestroy = event_destroy;
        t.pfnHostSignal = event_host_signal;
        t.pfnHostSynchronize = event_host_synchronize;
        t.pfnQueryStatus = event_query_status;
        t.pfnHostReset = event_host_reset;
        t.pfnQueryKernelTimestamp = event_query_kernel_timestamp;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(
        ze_api_version_t v, ze_module_dditable_t *t) {
    return table(v, t, [](ze_module_dditable_t &t) {
        t.pfnCreate = module_create;
        t.pfnDestroy = module_destroy;
        t.pfnGetNativeBinary = module_get_native_binary;
        t.pfnGetKernelNames = module_get_kernel_names;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleBuildLogProcAddrTable(
        ze_api_version_t v, ze_module_build_log_dditable_t *t) {
    return table(v, t, [](ze_module_build_log_dditable_t &t) {
        t.pfnDestroy = build_log_destroy;
        t.pfnGetString = build_log_get_string;
    });
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(
        ze_api_version_t v, ze_kernel_dditable_t *t) {
    return table(v, t, [](ze_kernel_dditable_t &t) {
        t.pfnCreate = kernel_create;
        t.pfnDestroy = kernel_destroy;
        t.pfnSetGroupSize = kernel_set_group_size;
        t.pfnSuggestGroupSize = kernel_suggest_group_size;
        t.pfnSetArgumentValue = kernel_set_argument_value;
        t.pfnSetIndirectAccess = kernel_set_indirect_access;
        t.pfnGetProperties = kernel_get_properties;
        t.pfnGetName = kernel_get_name;
    });
}

// The tables of objects the driver does not have.
#define ANYDNN_EMPTY_TABLE(name, type)                                                             \
    ZE_DLLEXPORT ze_result_t ZE_APICALL name(ze_api_version_t v, type *t) {                        \
        return empty_table(v, t);                                                                  \
    }
ANYDNN_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t)
ANYDNN_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
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
