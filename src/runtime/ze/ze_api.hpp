// The Level Zero entry points we call, resolved from the loader (libze_loader.so.1) with
// dlopen on first use, so that the library loads and runs where Level Zero is absent.
#pragma once

#include <level_zero/ze_api.h>

#include <vector>

namespace anydnn {
namespace ze {

// X(name) for every function the runtime uses.
#define ANYDNN_ZE_FUNCTIONS(X) \
    X(zeInit) \
    X(zeDriverGet) \
    X(zeDriverGetProperties) \
    X(zeDeviceGet) \
    X(zeDeviceGetProperties) \
    X(zeContextGetStatus) \
    X(zeMemAllocDevice) \
    X(zeMemAllocShared) \
    X(zeMemGetAllocProperties) \
    X(zeMemFree) \
    X(zeCommandListCreateImmediate) \
    X(zeCommandListDestroy) \
    X(zeCommandListAppendSignalEvent) \
    X(zeEventPoolCreate) \
    X(zeEventPoolDestroy) \
    X(zeEventCreate) \
    X(zeEventDestroy) \
    X(zeEventHostSynchronize) \
    X(zeEventHostReset)

struct ze_api_t {
#define ANYDNN_ZE_MEMBER(name) decltype(&::name) name = nullptr;
    ANYDNN_ZE_FUNCTIONS(ANYDNN_ZE_MEMBER)
#undef ANYDNN_ZE_MEMBER
};

// The loader's functions, or null when there is no loader. ANYDNN_ZE_LIBRARY names another
// loader, or "none" to hide Level Zero altogether.
const ze_api_t *ze_api();

// The drivers zeInit found (GPU drivers only); empty without a loader or a driver.
const std::vector<ze_driver_handle_t> &ze_drivers();

// Whether `driver` is one the loader found and `device` one of its devices: keeps a device
// of another driver (or a stale handle) away from the loader.
bool driver_has_device(ze_driver_handle_t driver, ze_device_handle_t device);

} // namespace ze
} // namespace anydnn
