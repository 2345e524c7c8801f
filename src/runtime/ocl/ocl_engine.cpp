#include "runtime/ocl/ocl_engine.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/impl_lists.hpp"
#include "core/primitive_cache.hpp"
#include "core/primitive_desc.hpp"
#include "runtime/ocl/ocl_compute.hpp"
#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/ocl/ocl_stream.hpp"
#include "runtime/ocl/program_cache.hpp"

namespace anydnn {
namespace ocl {

namespace {

std::vector<cl_device_id> devices_of_type(cl_device_type type) {
    std::vector<cl_device_id> out;
    const cl_api_t *cl = cl_api();
    cl_uint np = 0;
    if (!cl || cl->clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
    std::vector<cl_platform_id> platforms(np);
    cl->clGetPlatformIDs(np, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (cl->clGetDeviceIDs(p, type, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
        std::vector<cl_device_id> d(nd);
        cl->clGetDeviceIDs(p, type, nd, d.data(), nullptr);
        out.insert(out.end(), d.begin(), d.end());
    }
    return out;
}

// ANYDNN_OCL_DEVICE: "<platform>:<device>" indices, or a substring of
// "<platform name>: <device name>".
std::vector<cl_device_id> chosen_device(const char *spec) {
    std::vector<cl_device_id> all = devices_of_type(CL_DEVICE_TYPE_ALL);
    const cl_api_t *cl = cl_api();
    int pi = -1, di = -1;
    if (std::sscanf(spec, "%d:%d", &pi, &di) == 2) {
        cl_uint np = 0;
        cl->clGetPlatformIDs(0, nullptr, &np);
        std::vector<cl_platform_id> platforms(np);
        cl->clGetPlatformIDs(np, platforms.data(), nullptr);
        if (pi < 0 || pi >= static_cast<int>(np)) return {};
        cl_uint nd = 0;
        cl->clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
        if (di < 0 || di >= static_cast<int>(nd)) return {};
        std::vector<cl_device_id> d(nd);
        cl->clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, nd, d.data(), nullptr);
        return {d[di]};
    }
    // Otherwise a substring of "<platform name>: <device name>".
    for (cl_device_id d : all) {
        char platform_name[256] = {}, name[256] = {};
        cl_platform_id p = nullptr;
        cl->clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof(p), &p, nullptr);
        if (p) cl->clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(platform_name) - 1, platform_name,
                nullptr);
        cl->clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
        if ((std::string(platform_name) + ": " + name).find(spec) != std::string::npos) return {d};
    }
    return {};
}

std::vector<cl_device_id> find_engine_devices() {
    if (!cl_api()) return {};
    if (const char *spec = std::getenv("ANYDNN_OCL_DEVICE")) return chosen_device(spec);
    std::vector<cl_device_id> d = devices_of_type(CL_DEVICE_TYPE_GPU);
    if (d.empty()) d = devices_of_type(CL_DEVICE_TYPE_ACCELERATOR);
    if (d.empty()) d = devices_of_type(CL_DEVICE_TYPE_CPU);
    return d;
}

} // namespace

const std::vector<cl_device_id> &engine_devices() {
    static const std::vector<cl_device_id> devices = find_engine_devices();
    return devices;
}

std::vector<cl_device_id> devices_named(const std::string &name, size_t max_chars) {
    std::vector<cl_device_id> named;
    for (cl_device_id d : devices_of_type(CL_DEVICE_TYPE_ALL)) {
        const std::string dev_name = device_string(d, CL_DEVICE_NAME);
        if (!dev_name.empty() && dev_name.substr(0, max_chars) == name.substr(0, max_chars))
            named.push_back(d);
    }
    return named;
}

ocl_engine_t *as_ocl(engine_t *e) {
    return e && e->runtime() == runtime_kind_t::ocl ? static_cast<ocl_engine_t *>(e) : nullptr;
}

ocl_engine_t::ocl_engine_t(cl_device_id device, cl_context context, size_t index)
    : engine_t(dnnl_gpu, runtime_kind_t::ocl, index), device_(device), context_(context) {}

status_t ocl_engine_t::prepare(cl_device_id device, cl_context &context, device_info_t &info) {
    const cl_api_t *cl = cl_api();
    ANYDNN_REQUIRE(cl, dnnl_runtime_error, "no OpenCL ICD loader (libOpenCL.so.1) found");
    ANYDNN_CHECK(probe_device(device, info));
    if (context) {
        // The device must belong to the context.
        size_t bytes = 0;
        ANYDNN_CL_CHECK(cl->clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &bytes));
        std::vector<cl_device_id> devs(bytes / sizeof(cl_device_id));
        ANYDNN_CL_CHECK(cl->clGetContextInfo(
                context, CL_CONTEXT_DEVICES, bytes, devs.data(), nullptr));
        bool found = false;
        for (cl_device_id d : devs) found = found || d == device;
        ANYDNN_REQUIRE(found, dnnl_invalid_arguments, "the device is not in the context");
        ANYDNN_CL_CHECK(cl->clRetainContext(context));
    } else {
        cl_int err = CL_SUCCESS;
        context = cl->clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clCreateContext failed: %s",
                cl_error_name(err));
    }
    cl->clRetainDevice(device);
    return dnnl_success;
}

status_t ocl_engine_t::create(
        ocl_engine_t **engine, cl_device_id device, cl_context context, size_t index) {
    device_info_t info;
    const bool own_context = context == nullptr;
    ANYDNN_CHECK(prepare(device, context, info));
    auto *e = new ocl_engine_t(device, context, index);
    e->owns_context_ = own_context;
    e->info_ = std::move(info);
    *engine = e;
    return dnnl_success;
}

ocl_engine_t::~ocl_engine_t() {
    const cl_api_t &cl = *cl_api();
    // Cached primitives may free device memory through the service queue and context:
    // they go while both exist (the base destructor would drop them after).
    primitive_cache().drop_engine(id());
    program_cache_drop_engine(id());
    if (service_queue_) cl.clReleaseCommandQueue(service_queue_);
    cl.clReleaseContext(context_);
    cl.clReleaseDevice(device_);
}

status_t ocl_engine_t::service_queue(cl_command_queue &queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!service_queue_) {
        cl_int err = CL_SUCCESS;
        service_queue_ = cl_api()->clCreateCommandQueueWithProperties(
                context_, device_, nullptr, &err);
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error,
                "cannot create a command queue: %s", cl_error_name(err));
    }
    queue = service_queue_;
    return dnnl_success;
}

status_t ocl_engine_t::create_stream(dnnl_stream **stream, unsigned flags) {
    ocl_stream_t *s = nullptr;
    ANYDNN_CHECK(ocl_stream_t::create(&s, this, nullptr, flags));
    *stream = s;
    return dnnl_success;
}

status_t ocl_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    const cl_api_t &cl = *cl_api();
    cl_mem mem = nullptr;
    if (handle == DNNL_MEMORY_ALLOCATE) {
        if (size > 0) {
            cl_int err = CL_SUCCESS;
            mem = cl.clCreateBuffer(context_, CL_MEM_READ_WRITE, size, nullptr, &err);
            ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_out_of_memory,
                    "cannot allocate a %zu-byte buffer: %s", size, cl_error_name(err));
        }
        storage = std::make_unique<buffer_storage_t>(this, mem, size);
        return dnnl_success;
    }
    auto s = std::make_unique<buffer_storage_t>(this, nullptr, size);
    if (handle != DNNL_MEMORY_NONE) ANYDNN_CHECK(s->set_data_handle(handle));
    storage = std::move(s);
    return dnnl_success;
}

status_t ocl_engine_t::create_usm_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    ANYDNN_REQUIRE(info_.usm != usm_kind_t::none, dnnl_invalid_arguments,
            "device %s has neither Intel USM nor SVM: use buffer memory", info_.name.c_str());
    if (handle == DNNL_MEMORY_ALLOCATE) {
        void *p = nullptr;
        if (size > 0) ANYDNN_CHECK(usm_allocate(this, size, &p));
        storage = std::make_unique<usm_storage_t>(this, p, size, true);
        return dnnl_success;
    }
    storage = std::make_unique<usm_storage_t>(
            this, handle == DNNL_MEMORY_NONE ? nullptr : handle, size, false);
    return dnnl_success;
}

const std::vector<impl_entry_t> &ocl_engine_t::impl_list(dnnl_primitive_kind_t kind) const {
    return gpu_impl_list(kind);
}

status_t ocl_engine_t::create_kernel(const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    return ocl::create_kernel(this, source_name, options, name, kernel);
}

status_t ocl_engine_t::create_ptx_kernel(
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    return ocl::create_ptx_kernel(this, name, kernel);
}

gpu::device_caps_t ocl_engine_t::device_caps() {
    return ocl::device_caps(this);
}

status_t ocl_engine_t::copy_to_device(stream_t *stream, const memory_storage_t *storage,
        size_t offset, const void *host, size_t bytes) {
    return ocl::copy_to_device(stream, storage, offset, host, bytes);
}

status_t ocl_engine_t::copy_from_device(stream_t *stream, void *host,
        const memory_storage_t *storage, size_t offset, size_t bytes) {
    return ocl::copy_from_device(stream, host, storage, offset, bytes);
}

} // namespace ocl
} // namespace anydnn
