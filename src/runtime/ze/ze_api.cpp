#include "runtime/ze/ze_api.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string_view>

namespace anydnn {
namespace ze {

namespace {

std::atomic<bool> exiting {false};

const ze_api_t *load_api() {
    const char *env = std::getenv("ANYDNN_ZE_LIBRARY");
    if (env && std::string_view(env) == "none") return nullptr;
    void *lib = dlopen(env ? env : "libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    static ze_api_t api;
#define ANYDNN_ZE_LOAD(name) \
    api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name)); \
    if (!api.name) return nullptr;
    ANYDNN_ZE_FUNCTIONS(ANYDNN_ZE_LOAD)
#undef ANYDNN_ZE_LOAD
    api.zeCommandListIsImmediate = reinterpret_cast<decltype(api.zeCommandListIsImmediate)>(
            dlsym(lib, "zeCommandListIsImmediate"));
    // The loader stays loaded for the life of the process: the application's handles may
    // outlive us.
    return &api;
}

std::vector<ze_driver_handle_t> find_drivers() {
    const ze_api_t *api = ze_api();
    if (!api || api->zeInit(ZE_INIT_FLAG_GPU_ONLY) != ZE_RESULT_SUCCESS) return {};
    // Registered after zeInit, so it runs before the exit handlers zeInit registered.
    std::atexit([] { exiting = true; });
    uint32_t count = 0;
    if (api->zeDriverGet(&count, nullptr) != ZE_RESULT_SUCCESS || count == 0) return {};
    std::vector<ze_driver_handle_t> drivers(count);
    if (api->zeDriverGet(&count, drivers.data()) != ZE_RESULT_SUCCESS) return {};
    drivers.resize(count);
    return drivers;
}

} // namespace

const ze_api_t *ze_api() {
    static const ze_api_t *api = load_api();
    return api;
}

const std::vector<ze_driver_handle_t> &ze_drivers() {
    static const std::vector<ze_driver_handle_t> drivers = find_drivers();
    return drivers;
}

bool process_exiting() {
    return exiting;
}

status_t ze_check(ze_result_t r, const char *what) {
    ANYDNN_REQUIRE(r == ZE_RESULT_SUCCESS, dnnl_runtime_error, "%s failed (0x%x)", what,
            static_cast<unsigned>(r));
    return dnnl_success;
}

bool driver_has_device(ze_driver_handle_t driver, ze_device_handle_t device) {
    const auto &drivers = ze_drivers();
    if (std::find(drivers.begin(), drivers.end(), driver) == drivers.end()) return false;
    uint32_t count = 0;
    if (ze_api()->zeDeviceGet(driver, &count, nullptr) != ZE_RESULT_SUCCESS) return false;
    std::vector<ze_device_handle_t> devices(count);
    if (ze_api()->zeDeviceGet(driver, &count, devices.data()) != ZE_RESULT_SUCCESS)
        return false;
    devices.resize(count);
    return std::find(devices.begin(), devices.end(), device) != devices.end();
}

} // namespace ze
} // namespace anydnn
