#include "runtime/ocl/device_info.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/status.hpp"

namespace anydnn {
namespace ocl {

std::string device_string(cl_device_id d, cl_device_info what) {
    const cl_api_t &cl = *cl_api();
    size_t size = 0;
    if (cl.clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string s(size, '\0');
    if (cl.clGetDeviceInfo(d, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

namespace {

template <typename T>
T device_value(cl_device_id d, cl_device_info what, T fallback = T()) {
    T v = fallback;
    if (cl_api()->clGetDeviceInfo(d, what, sizeof(T), &v, nullptr) == CL_SUCCESS) return v;
    return fallback;
}

} // namespace

bool device_info_t::has_extension(const char *ext) const {
    // Extensions are space-separated names; match whole words only.
    size_t n = std::strlen(ext);
    for (size_t pos = extensions.find(ext); pos != std::string::npos;
            pos = extensions.find(ext, pos + 1)) {
        bool starts = pos == 0 || extensions[pos - 1] == ' ';
        bool ends = pos + n == extensions.size() || extensions[pos + n] == ' ';
        if (starts && ends) return true;
    }
    return false;
}

std::string device_info_t::summary() const {
    static const char *usm_names[] = {"none", "intel_usm", "svm_coarse", "svm_fine"};
    char buf[512];
    std::snprintf(buf, sizeof(buf),
            "%s (%s, OpenCL %d.%d, driver %s) cu:%u fp16:%d fp64:%d subgroups:%s usm:%s "
            "spirv:%d ptx:%d",
            name.c_str(), platform_name.c_str(), cl_major, cl_minor, driver_version.c_str(),
            compute_units, fp16, fp64,
            intel_subgroups ? "intel" : khr_subgroups ? "khr" : "none",
            usm_names[static_cast<int>(usm)], il_spirv, nvidia_ptx);
    return buf;
}

status_t probe_device(cl_device_id device, device_info_t &info) {
    const cl_api_t &cl = *cl_api();
    info = device_info_t();
    cl_device_type type = 0;
    ANYDNN_CL_CHECK(cl.clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
    info.type = type;
    info.name = device_string(device, CL_DEVICE_NAME);
    info.vendor = device_string(device, CL_DEVICE_VENDOR);
    info.device_version = device_string(device, CL_DEVICE_VERSION);
    info.driver_version = device_string(device, CL_DRIVER_VERSION);
    info.extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    std::sscanf(info.device_version.c_str(), "OpenCL %d.%d", &info.cl_major, &info.cl_minor);

    cl_platform_id platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
    size_t size = 0;
    if (platform && cl.clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size) == 0) {
        info.platform_name.resize(size);
        cl.clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, info.platform_name.data(), nullptr);
        while (!info.platform_name.empty() && info.platform_name.back() == '\0')
            info.platform_name.pop_back();
    }

    info.fp16 = info.has_extension("cl_khr_fp16");
    info.fp64 = info.has_extension("cl_khr_fp64");
    info.khr_subgroups = info.has_extension("cl_khr_subgroups");
    info.intel_subgroups = info.has_extension("cl_intel_subgroups");
    info.nvidia_ptx = info.has_extension("cl_nv_device_attribute_query");
    if (info.nvidia_ptx) {
        // CL_DEVICE_COMPUTE_CAPABILITY_{MAJOR,MINOR}_NV of cl_nv_device_attribute_query.
        info.nv_compute_major = static_cast<int>(device_value<cl_uint>(device, 0x4000));
        info.nv_compute_minor = static_cast<int>(device_value<cl_uint>(device, 0x4001));
    }
    info.compute_units = device_value<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS, 1);
    info.max_work_group_size = device_value<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, 1);
    info.local_mem_size = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
    info.global_mem_size = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
    info.global_mem_cache_size = device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    info.max_alloc_size = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    info.mem_base_addr_align_bits = device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);

    if (info.cl_major >= 2) {
        std::string il = device_string(device, CL_DEVICE_IL_VERSION);
        info.il_spirv = il.find("SPIR-V") != std::string::npos;
    }

    // USM: Intel's extension where present (and its entry points resolve), else SVM.
    if (info.has_extension("cl_intel_unified_shared_memory") && platform) {
        auto &u = info.intel_usm;
        auto get = [&](const char *n) {
            return cl.clGetExtensionFunctionAddressForPlatform(platform, n);
        };
        u.clHostMemAllocINTEL = reinterpret_cast<decltype(u.clHostMemAllocINTEL)>(
                get("clHostMemAllocINTEL"));
        u.clDeviceMemAllocINTEL = reinterpret_cast<decltype(u.clDeviceMemAllocINTEL)>(
                get("clDeviceMemAllocINTEL"));
        u.clSharedMemAllocINTEL = reinterpret_cast<decltype(u.clSharedMemAllocINTEL)>(
                get("clSharedMemAllocINTEL"));
        u.clMemBlockingFreeINTEL = reinterpret_cast<decltype(u.clMemBlockingFreeINTEL)>(
                get("clMemBlockingFreeINTEL"));
        u.clGetMemAllocInfoINTEL = reinterpret_cast<decltype(u.clGetMemAllocInfoINTEL)>(
                get("clGetMemAllocInfoINTEL"));
        u.clSetKernelArgMemPointerINTEL
                = reinterpret_cast<decltype(u.clSetKernelArgMemPointerINTEL)>(
                        get("clSetKernelArgMemPointerINTEL"));
        u.clEnqueueMemcpyINTEL = reinterpret_cast<decltype(u.clEnqueueMemcpyINTEL)>(
                get("clEnqueueMemcpyINTEL"));
        if (u.complete()) info.usm = usm_kind_t::intel_usm;
    }
    if (info.usm == usm_kind_t::none && info.cl_major >= 2) {
        cl_device_svm_capabilities svm = device_value<cl_device_svm_capabilities>(
                device, CL_DEVICE_SVM_CAPABILITIES);
        if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
            info.usm = usm_kind_t::svm_fine;
        else if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
            info.usm = usm_kind_t::svm_coarse;
    }
    // ANYDNN_OCL_USM=svm|none forces a weaker USM path (tests of the SVM path on Intel USM).
    if (const char *force = std::getenv("ANYDNN_OCL_USM")) {
        if (std::strcmp(force, "none") == 0) info.usm = usm_kind_t::none;
        if (std::strcmp(force, "svm") == 0 && info.usm == usm_kind_t::intel_usm)
            info.usm = usm_kind_t::svm_coarse;
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace anydnn
