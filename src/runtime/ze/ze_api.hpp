// The Level Zero entry points we call, resolved from the loader (libze_loader.so.1) with
// dlopen on first use, so that the library loads and runs where Level Zero is absent.
#pragma once

#include <level_zero/ze_api.h>

#include <vector>

#include "core/status.hpp"

namespace anydnn {
namespace ze {

// X(name) for every function the runtime uses.
#define ANYDNN_ZE_FUNCTIONS(X) \
    X(zeInit) \
    X(zeDriverGet) \
    X(zeDriverGetProperties) \
    X(zeDeviceGet) \
    X(zeDeviceGetProperties) \
    X(zeDeviceGetComputeProperties) \
    X(zeDeviceGetModuleProperties) \
    X(zeContextCreate) \
    X(zeContextDestroy) \
    X(zeContextGetStatus) \
    X(zeMemAllocDevice) \
    X(zeMemAllocShared) \
    X(zeMemAllocHost) \
    X(zeMemGetAllocProperties) \
    X(zeMemFree) \
    X(zeCommandListCreateImmediate) \
    X(zeCommandListDestroy) \
    X(zeCommandListAppendSignalEvent) \
    X(zeCommandListAppendWaitOnEvents) \
    X(zeCommandListAppendMemoryCopy) \
    X(zeCommandListAppendLaunchKernel) \
    X(zeModuleCreate) \
    X(zeModuleDestroy) \
    X(zeModuleBuildLogGetString) \
    X(zeModuleBuildLogDestroy) \
    X(zeModuleGetNativeBinary) \
    X(zeKernelCreate) \
    X(zeKernelDestroy) \
    X(zeKernelSetArgumentValue) \
    X(zeKernelSetGroupSize) \
    X(zeKernelSuggestGroupSize) \
    X(zeKernelGetProperties) \
    X(zeEventPoolCreate) \
    X(zeEventPoolDestroy) \
    X(zeEventCreate) \
    X(zeEventDestroy) \
    X(zeEventHostSynchronize) \
    X(zeEventHostReset) \
    X(zeEventQueryStatus)

struct ze_api_t {
#define ANYDNN_ZE_MEMBER(name) decltype(&::name) name = nullptr;
    ANYDNN_ZE_FUNCTIONS(ANYDNN_ZE_MEMBER)
#undef ANYDNN_ZE_MEMBER
    // Level Zero 1.9 and later (not in Debian's 1.4 headers and loader): null when absent.
    ze_result_t (*zeCommandListIsImmediate)(ze_command_list_handle_t, ze_bool_t *) = nullptr;
};

// The loader's functions, or null when there is no loader. ANYDNN_ZE_LIBRARY names another
// loader, or "none" to hide Level Zero altogether.
const ze_api_t *ze_api();

// The drivers zeInit found (GPU drivers only); empty without a loader or a driver.
const std::vector<ze_driver_handle_t> &ze_drivers();

// Intel's driver builds modules from OpenCL C source with this format, missing from the
// ze_module_format_t of the headers.
constexpr ze_module_format_t ZE_MODULE_FORMAT_OCLC = static_cast<ze_module_format_t>(3);

// dnnl_runtime_error with `what` and the result code unless `r` is ZE_RESULT_SUCCESS.
status_t ze_check(ze_result_t r, const char *what);

// True once the process is exiting: the loader tears its drivers down in its own exit
// handlers, which run before the destructors of our static objects (caches, benchdnn's
// engines) registered earlier. Those destructors then leave Level Zero objects to the OS.
bool process_exiting();

// Whether `driver` is one the loader found and `device` one of its devices: keeps a device
// of another driver (or a stale handle) away from the loader.
bool driver_has_device(ze_driver_handle_t driver, ze_device_handle_t device);

} // namespace ze
} // namespace anydnn
