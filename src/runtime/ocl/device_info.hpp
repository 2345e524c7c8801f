// What one OpenCL device can do, probed once when an engine is made. Implementations choose
// kernels from these capabilities, never from the vendor name.
#pragma once

#include <cstdint>
#include <string>

#include "core/status.hpp"
#include "runtime/ocl/cl_api.hpp"

namespace anydnn {
namespace ocl {

enum class usm_kind_t { none, intel_usm, svm_coarse, svm_fine };

struct device_info_t {
    std::string name, vendor, device_version, driver_version, platform_name, extensions;
    cl_device_type type = 0;
    int cl_major = 1, cl_minor = 2; // device OpenCL version
    bool fp16 = false, fp64 = false;
    bool khr_subgroups = false, intel_subgroups = false;
    bool il_spirv = false;
    bool nvidia_ptx = false; // inline PTX in OpenCL C (NVIDIA's compiler)
    int nv_compute_major = 0, nv_compute_minor = 0; // NVIDIA's compute capability; 0 elsewhere
    usm_kind_t usm = usm_kind_t::none;
    intel_usm_api_t intel_usm; // filled when usm == intel_usm
    cl_uint compute_units = 1;
    size_t max_work_group_size = 1;
    cl_ulong local_mem_size = 0, global_mem_size = 0, max_alloc_size = 0;
    cl_ulong global_mem_cache_size = 0;
    cl_uint mem_base_addr_align_bits = 0;

    bool has_extension(const char *ext) const;
    // A one-line summary for verbose output.
    std::string summary() const;
};

// Probes `device`; fails only when the device cannot be queried at all.
status_t probe_device(cl_device_id device, device_info_t &info);

// A string query of a device, without its terminating zeros; empty where the query fails.
std::string device_string(cl_device_id d, cl_device_info what);

} // namespace ocl
} // namespace anydnn
