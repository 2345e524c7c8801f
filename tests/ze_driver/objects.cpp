// The registry of live objects and the OpenCL-to-Level Zero result mapping.
#include <algorithm>

#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {
std::map<const void *, const std::type_info *> &live_objects() {
    static std::map<const void *, const std::type_info *> objects;
    return objects;
}
} // namespace

std::mutex &objects_mutex() {
    static std::mutex m;
    return m;
}

void register_object(const void *object, const std::type_info &type) {
    live_objects()[object] = &type;
}

void unregister_object(const void *object) {
    live_objects().erase(object);
}

bool is_live(const void *object, const std::type_info &type) {
    auto it = live_objects().find(object);
    return it != live_objects().end() && *it->second == type;
}

device_t *live_device(ze_device_handle_t handle) {
    driver_t *driver = the_driver();
    if (!driver) return nullptr;
    for (auto &d : driver->devices)
        if (handle_of<ze_device_handle_t>(&d) == handle) return &d;
    return nullptr;
}

ze_result_t copy_string(const std::string &text, size_t *size, char *out) {
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const size_t needed = text.size() + 1;
    if (!out || *size == 0) {
        *size = needed;
        return ZE_RESULT_SUCCESS;
    }
    const size_t n = std::min(*size, needed);
    std::memcpy(out, text.c_str(), n - 1);
    out[n - 1] = '\0';
    *size = n;
    return ZE_RESULT_SUCCESS;
}

ze_result_t from_cl(cl_int status) {
    switch (status) {
    case CL_SUCCESS: return ZE_RESULT_SUCCESS;
    case CL_OUT_OF_HOST_MEMORY: return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE: return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    case CL_INVALID_GLOBAL_WORK_SIZE: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case CL_INVALID_KERNEL_NAME: return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    case CL_INVALID_ARG_INDEX: return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    case CL_INVALID_ARG_SIZE: return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    case CL_INVALID_ARG_VALUE: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case CL_INVALID_KERNEL_ARGS: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILE_PROGRAM_FAILURE:
    case CL_LINK_PROGRAM_FAILURE: return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    case CL_INVALID_BUILD_OPTIONS:
    case CL_INVALID_COMPILER_OPTIONS: return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    case CL_INVALID_BINARY: return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    case CL_INVALID_VALUE: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case CL_INVALID_OPERATION: return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    default: return ZE_RESULT_ERROR_UNKNOWN;
    }
}

} // namespace ze_driver
