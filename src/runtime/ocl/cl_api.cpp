#include "runtime/ocl/cl_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string_view>

namespace anydnn {
namespace ocl {

namespace {

cl_api_t *load_api() {
    // ANYDNN_OPENCL_LIBRARY names another loader (or "none" to hide OpenCL altogether).
    const char *env = std::getenv("ANYDNN_OPENCL_LIBRARY");
    const char *names[] = {env ? env : "libOpenCL.so.1", "libOpenCL.so"};
    void *lib = nullptr;
    for (const char *n : names) {
        if (!n || std::string_view(n) == "none") break;
        lib = dlopen(n, RTLD_NOW | RTLD_LOCAL);
        if (lib || env) break;
    }
    if (!lib) return nullptr;
    static cl_api_t api;
#define ANYDNN_CL_LOAD(name) \
    api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name)); \
    if (!api.name) return nullptr;
    ANYDNN_CL_FUNCTIONS(ANYDNN_CL_LOAD)
#undef ANYDNN_CL_LOAD
    // The loader stays loaded for the life of the process: OpenCL objects may outlive us.
    return &api;
}

} // namespace

const cl_api_t *cl_api() {
    static const cl_api_t *api = load_api();
    return api;
}

const char *cl_error_name(cl_int err) {
    switch (err) {
#define ANYDNN_CL_ERR(e) \
    case e: return #e;
        ANYDNN_CL_ERR(CL_DEVICE_NOT_FOUND)
        ANYDNN_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
        ANYDNN_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
        ANYDNN_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        ANYDNN_CL_ERR(CL_OUT_OF_RESOURCES)
        ANYDNN_CL_ERR(CL_OUT_OF_HOST_MEMORY)
        ANYDNN_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
        ANYDNN_CL_ERR(CL_MAP_FAILURE)
        ANYDNN_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        ANYDNN_CL_ERR(CL_INVALID_VALUE)
        ANYDNN_CL_ERR(CL_INVALID_DEVICE)
        ANYDNN_CL_ERR(CL_INVALID_CONTEXT)
        ANYDNN_CL_ERR(CL_INVALID_QUEUE_PROPERTIES)
        ANYDNN_CL_ERR(CL_INVALID_COMMAND_QUEUE)
        ANYDNN_CL_ERR(CL_INVALID_MEM_OBJECT)
        ANYDNN_CL_ERR(CL_INVALID_BINARY)
        ANYDNN_CL_ERR(CL_INVALID_BUILD_OPTIONS)
        ANYDNN_CL_ERR(CL_INVALID_PROGRAM)
        ANYDNN_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
        ANYDNN_CL_ERR(CL_INVALID_KERNEL_NAME)
        ANYDNN_CL_ERR(CL_INVALID_KERNEL)
        ANYDNN_CL_ERR(CL_INVALID_ARG_INDEX)
        ANYDNN_CL_ERR(CL_INVALID_ARG_VALUE)
        ANYDNN_CL_ERR(CL_INVALID_ARG_SIZE)
        ANYDNN_CL_ERR(CL_INVALID_KERNEL_ARGS)
        ANYDNN_CL_ERR(CL_INVALID_WORK_DIMENSION)
        ANYDNN_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
        ANYDNN_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
        ANYDNN_CL_ERR(CL_INVALID_GLOBAL_OFFSET)
        ANYDNN_CL_ERR(CL_INVALID_EVENT_WAIT_LIST)
        ANYDNN_CL_ERR(CL_INVALID_EVENT)
        ANYDNN_CL_ERR(CL_INVALID_OPERATION)
        ANYDNN_CL_ERR(CL_INVALID_BUFFER_SIZE)
        ANYDNN_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
#undef ANYDNN_CL_ERR
        default: return "an OpenCL error";
    }
}

} // namespace ocl
} // namespace anydnn
