// The driver (one OpenCL platform), its devices (each OpenCL device twice) with their
// properties, and contexts (one cl_context each, over the OpenCL devices of their devices).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

constexpr int ze_devices_per_cl_device = 2;

driver_t *&driver_slot() {
    static driver_t *driver = nullptr;
    return driver;
}

template <typename T> T cl_info(cl_device_id d, cl_device_info what) {
    T value{};
    if (clGetDeviceInfo(d, what, sizeof(value), &value, nullptr) != CL_SUCCESS) return T{};
    return value;
}

std::string cl_string(cl_device_id d, cl_device_info what) {
    size_t size = 0;
    if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string s(size, '\0');
    if (clGetDeviceInfo(d, what, size, &s[0], nullptr) != CL_SUCCESS) return {};
    s.resize(std::strlen(s.c_str()));
    return s;
}

std::string platform_name(cl_platform_id p) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr);
    return name;
}

bool has_word(const std::string &list, const char *word) {
    const size_t n = std::strlen(word);
    for (size_t pos = list.find(word); pos != std::string::npos; pos = list.find(word, pos + 1))
        if ((pos == 0 || list[pos - 1] == ' ') && (pos + n == list.size() || list[pos + n] == ' '))
            return true;
    return false;
}

// The OpenCL devices of `p` that can hold USM: coarse-grained SVM at least.
std::vector<cl_device_id> usable_devices(cl_platform_id p) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
    std::vector<cl_device_id> all(n), usable;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, all.data(), nullptr) != CL_SUCCESS) return {};
    for (cl_device_id d : all)
        if (cl_info<cl_device_svm_capabilities>(d, CL_DEVICE_SVM_CAPABILITIES)
                & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
            usable.push_back(d);
    return usable;
}

void describe(device_t &dev, cl_device_id cl, int index) {
    dev.cl = cl;
    dev.index = index;
    // The OpenCL device's own name, as Intel's drivers name a device alike in both APIs: an
    // application can find the OpenCL device of a Level Zero device by it.
    dev.name = cl_string(cl, CL_DEVICE_NAME);
    dev.takes_spirv = cl_string(cl, CL_DEVICE_IL_VERSION).find("SPIR-V") != std::string::npos;
    dev.takes_spir = has_word(cl_string(cl, CL_DEVICE_EXTENSIONS), "cl_khr_spir");
    // Intel's query lists the sizes; without it (PoCL) the device has no subgroups.
    constexpr cl_device_info sub_group_sizes_intel = 0x4108;
    size_t bytes = 0;
    if (clGetDeviceInfo(cl, sub_group_sizes_intel, 0, nullptr, &bytes) == CL_SUCCESS && bytes) {
        std::vector<size_t> sizes(bytes / sizeof(size_t));
        if (clGetDeviceInfo(cl, sub_group_sizes_intel, bytes, sizes.data(), nullptr) == CL_SUCCESS)
            for (size_t i = 0; i < sizes.size() && i < ZE_SUBGROUPSIZE_COUNT; ++i)
                dev.subgroup_sizes.push_back(static_cast<uint32_t>(sizes[i]));
    }
}

ze_device_fp_flags_t fp_flags(cl_device_fp_config c) {
    ze_device_fp_flags_t f = 0;
    if (c & CL_FP_DENORM) f |= ZE_DEVICE_FP_FLAG_DENORM;
    if (c & CL_FP_INF_NAN) f |= ZE_DEVICE_FP_FLAG_INF_NAN;
    if (c & CL_FP_ROUND_TO_NEAREST) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST;
    if (c & CL_FP_ROUND_TO_ZERO) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO;
    if (c & CL_FP_ROUND_TO_INF) f |= ZE_DEVICE_FP_FLAG_ROUND_TO_INF;
    if (c & CL_FP_FMA) f |= ZE_DEVICE_FP_FLAG_FMA;
    if (c & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) f |= ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    if (c & CL_FP_SOFT_FLOAT) f |= ZE_DEVICE_FP_FLAG_SOFT_FLOAT;
    return f;
}

uint32_t clamp32(uint64_t v) {
    return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
}

bool is_our_driver(ze_driver_handle_t driver) {
    return the_driver() && driver == handle_of<ze_driver_handle_t>(the_driver());
}

// A single-entry property list (memory, cache, queue groups): count query, then the entry.
template <typename T, typename F> ze_result_t one_property(uint32_t *count, T *props, F fill) {
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (*count == 0 || !props) {
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    *count = 1;
    fill(*props);
    return ZE_RESULT_SUCCESS;
}

} // namespace

bool context_t::has(const device_t *d) const {
    return std::find(devices.begin(), devices.end(), d) != devices.end();
}

driver_t *the_driver() {
    return driver_slot();
}

ze_result_t initialize_driver() {
    lock_t lock(objects_mutex());
    if (driver_slot()) return ZE_RESULT_SUCCESS;
    cl_uint n = 0;
    if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    std::vector<cl_platform_id> platforms(n);
    if (clGetPlatformIDs(n, platforms.data(), nullptr) != CL_SUCCESS)
        return ZE_RESULT_ERROR_UNINITIALIZED;
    const char *wanted = std::getenv("ANYDNN_ZE_TEST_OPENCL_PLATFORM");
    for (cl_platform_id p : platforms) {
        if (wanted && *wanted && platform_name(p).find(wanted) == std::string::npos) continue;
        std::vector<cl_device_id> devices = usable_devices(p);
        if (devices.empty()) continue;
        auto *driver = new driver_t; // lives as long as the process: handles point into it
        driver->platform = p;
        driver->devices.resize(devices.size() * ze_devices_per_cl_device);
        for (size_t i = 0; i < driver->devices.size(); ++i)
            describe(
                    driver->devices[i], devices[i / ze_devices_per_cl_device], static_cast<int>(i));
        register_object(driver, typeid(driver_t));
        driver_slot() = driver;
        return ZE_RESULT_SUCCESS;
    }
    return ZE_RESULT_ERROR_UNINITIALIZED;
}

ze_result_t ZE_APICALL init(ze_init_flags_t flags) {
    // The devices are GPUs to Level Zero: a VPU-only request finds none.
    if (flags == ZE_INIT_FLAG_VPU_ONLY) return ZE_RESULT_ERROR_UNINITIALIZED;
    return initialize_driver();
}

ze_result_t ZE_APICALL driver_get(uint32_t *count, ze_driver_handle_t *drivers) {
    std::vector<ze_driver_handle_t> all;
    if (the_driver()) all.push_back(handle_of<ze_driver_handle_t>(the_driver()));
    return list_handles(count, drivers, all);
}

ze_result_t ZE_APICALL driver_get_api_version(ze_driver_handle_t driver, ze_api_version_t *v) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!v) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *v = ZE_API_VERSION_1_4;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_properties(ze_driver_handle_t driver, ze_driver_properties_t *p) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    fill_uuid(p->uuid.id, the_driver());
    p->driverVersion = 1;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_ipc_properties(
        ze_driver_handle_t driver, ze_driver_ipc_properties_t *p) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    p->flags = 0; // no IPC
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_extension_properties(
        ze_driver_handle_t driver, uint32_t *count, ze_driver_extension_properties_t *) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *count = 0; // no extensions
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get(
        ze_driver_handle_t driver, uint32_t *count, ze_device_handle_t *devices) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::vector<ze_device_handle_t> all;
    for (auto &d : the_driver()->devices)
        all.push_back(handle_of<ze_device_handle_t>(&d));
    return list_handles(count, devices, all);
}

ze_result_t ZE_APICALL device_get_sub_devices(
        ze_device_handle_t device, uint32_t *count, ze_device_handle_t *) {
    if (!live_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *count = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_properties(ze_device_handle_t device, ze_device_properties_t *p) {
    device_t *d = live_device(device);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The OpenCL device's own type: the library picks its kernels by it (one work-item per row
    // on CPUs, as PoCL takes barriers slowly). Level Zero has no type for OpenCL's
    // accelerators and custom devices: they are GPUs here.
    p->type = (cl_info<cl_device_type>(d->cl, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU)
            ? ZE_DEVICE_TYPE_CPU
            : ZE_DEVICE_TYPE_GPU;
    p->vendorId = cl_info<cl_uint>(d->cl, CL_DEVICE_VENDOR_ID);
    p->deviceId = 0;
    p->flags = cl_info<cl_bool>(d->cl, CL_DEVICE_HOST_UNIFIED_MEMORY)
                       ? ZE_DEVICE_PROPERTY_FLAG_INTEGRATED
                       : 0;
    p->subdeviceId = 0;
    p->coreClockRate = cl_info<cl_uint>(d->cl, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    p->maxMemAllocSize = cl_info<cl_ulong>(d->cl, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    p->maxHardwareContexts = 1;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 1;
    p->physicalEUSimdWidth =
            std::max(1u, cl_info<cl_uint>(d->cl, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
    p->numEUsPerSubslice = std::max(1u, cl_info<cl_uint>(d->cl, CL_DEVICE_MAX_COMPUTE_UNITS));
    p->numSubslicesPerSlice = 1;
    p->numSlices = 1;
    // Timestamps are OpenCL's profiling counters, in nanoseconds.
    p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000u : 1u;
    p->timestampValidBits = 63;
    p->kernelTimestampValidBits = 63;
    fill_uuid(p->uuid.id, d);
    std::memset(p->name, 0, ZE_MAX_DEVICE_NAME);
    std::strncpy(p->name, d->name.c_str(), ZE_MAX_DEVICE_NAME - 1);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_compute_properties(
        ze_device_handle_t device, ze_device_compute_properties_t *p) {
    device_t *d = live_device(device);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    size_t items[3] = {1, 1, 1};
    clGetDeviceInfo(d->cl, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items, nullptr);
    p->maxTotalGroupSize = clamp32(cl_info<size_t>(d->cl, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    p->maxGroupSizeX = clamp32(items[0]);
    p->maxGroupSizeY = clamp32(items[1]);
    p->maxGroupSizeZ = clamp32(items[2]);
    p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory = clamp32(cl_info<cl_ulong>(d->cl, CL_DEVICE_LOCAL_MEM_SIZE));
    p->numSubGroupSizes = static_cast<uint32_t>(d->subgroup_sizes.size());
    std::memset(p->subGroupSizes, 0, sizeof(p->subGroupSizes));
    std::copy(d->subgroup_sizes.begin(), d->subgroup_sizes.end(), p->subGroupSizes);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_module_properties(
        ze_device_handle_t device, ze_device_module_properties_t *p) {
    device_t *d = live_device(device);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const std::string extensions = cl_string(d->cl, CL_DEVICE_EXTENSIONS);
    p->spirvVersionSupported = spirv_version(*d);
    p->flags = 0;
    if (has_word(extensions, "cl_khr_fp16")) p->flags |= ZE_DEVICE_MODULE_FLAG_FP16;
    if (has_word(extensions, "cl_khr_fp64")) p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
    if (has_word(extensions, "cl_khr_int64_base_atomics"))
        p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    constexpr cl_device_info half_fp_config = 0x1033; // CL_DEVICE_HALF_FP_CONFIG
    p->fp16flags = p->flags & ZE_DEVICE_MODULE_FLAG_FP16
                           ? fp_flags(cl_info<cl_device_fp_config>(d->cl, half_fp_config))
                           : 0;
    p->fp32flags = fp_flags(cl_info<cl_device_fp_config>(d->cl, CL_DEVICE_SINGLE_FP_CONFIG));
    p->fp64flags = p->flags & ZE_DEVICE_MODULE_FLAG_FP64 ? fp_flags(
                           cl_info<cl_device_fp_config>(d->cl, CL_DEVICE_DOUBLE_FP_CONFIG))
                                                         : 0;
    p->maxArgumentsSize = clamp32(cl_info<size_t>(d->cl, CL_DEVICE_MAX_PARAMETER_SIZE));
    p->printfBufferSize = clamp32(cl_info<size_t>(d->cl, CL_DEVICE_PRINTF_BUFFER_SIZE));
    fill_uuid(p->nativeKernelSupported.id, d->cl);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_command_queue_group_properties(
        ze_device_handle_t device, uint32_t *count, ze_command_queue_group_properties_t *props) {
    if (!live_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return one_property(count, props, [](ze_command_queue_group_properties_t &p) {
        p.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE
                  | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
        p.maxMemoryFillPatternSize = 128; // clEnqueueSVMMemFill's largest pattern
        p.numQueues = 1;
    });
}

ze_result_t ZE_APICALL device_get_memory_properties(
        ze_device_handle_t device, uint32_t *count, ze_device_memory_properties_t *props) {
    device_t *d = live_device(device);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return one_property(count, props, [d](ze_device_memory_properties_t &p) {
        p.flags = 0;
        p.maxClockRate = 0;
        p.maxBusWidth = 0;
        p.totalSize = cl_info<cl_ulong>(d->cl, CL_DEVICE_GLOBAL_MEM_SIZE);
        std::memset(p.name, 0, ZE_MAX_DEVICE_NAME);
        std::strncpy(p.name, "OpenCL global memory", ZE_MAX_DEVICE_NAME - 1);
    });
}

ze_result_t ZE_APICALL device_get_cache_properties(
        ze_device_handle_t device, uint32_t *count, ze_device_cache_properties_t *props) {
    device_t *d = live_device(device);
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return one_property(count, props, [d](ze_device_cache_properties_t &p) {
        p.flags = 0;
        p.cacheSize = cl_info<cl_ulong>(d->cl, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    });
}

ze_result_t ZE_APICALL context_create_ex(ze_driver_handle_t driver, const ze_context_desc_t *desc,
        uint32_t ndevices, ze_device_handle_t *devices, ze_context_handle_t *context) {
    if (!is_our_driver(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !context || (ndevices && !devices)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    auto c = std::make_unique<context_t>();
    if (ndevices == 0) {
        for (auto &d : the_driver()->devices)
            c->devices.push_back(&d);
    } else {
        for (uint32_t i = 0; i < ndevices; ++i) {
            device_t *d = live_device(devices[i]);
            if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
            if (!c->has(d)) c->devices.push_back(d);
        }
    }
    std::vector<cl_device_id> cl_devices;
    for (device_t *d : c->devices)
        if (std::find(cl_devices.begin(), cl_devices.end(), d->cl) == cl_devices.end())
            cl_devices.push_back(d->cl);
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
            reinterpret_cast<cl_context_properties>(the_driver()->platform), 0};
    cl_int status = CL_SUCCESS;
    c->cl = clCreateContext(props, static_cast<cl_uint>(cl_devices.size()), cl_devices.data(),
            nullptr, nullptr, &status);
    if (status != CL_SUCCESS) return from_cl(status);
    lock_t lock(objects_mutex());
    register_object(c.get(), typeid(context_t));
    *context = handle_of<ze_context_handle_t>(c.release());
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_create(
        ze_driver_handle_t driver, const ze_context_desc_t *desc, ze_context_handle_t *context) {
    return context_create_ex(driver, desc, 0, nullptr, context);
}

ze_result_t ZE_APICALL context_destroy(ze_context_handle_t context) {
    lock_t lock(objects_mutex());
    auto *c = live<context_t>(context);
    if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    unregister_object(c);
    clReleaseContext(c->cl);
    delete c;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_get_status(ze_context_handle_t context) {
    lock_t lock(objects_mutex());
    return live<context_t>(context) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

} // namespace ze_driver
