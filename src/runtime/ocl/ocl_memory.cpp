#include "runtime/ocl/ocl_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "runtime/ocl/ocl_engine.hpp"

namespace anydnn {
namespace ocl {

namespace {

// NVIDIA's OpenCL returns null from clSVMAlloc for most calls made while another thread is in
// clSVMAlloc or clSVMFree (measured on an H200: 1869 of 2000 small allocations failed from two
// threads, none under one lock). SVM allocation is slow there anyway (about 1 ms a call), so
// one process-wide lock costs little.
std::mutex &svm_lock() {
    static std::mutex m;
    return m;
}

size_t buffer_size(cl_mem mem) {
    size_t size = 0;
    cl_api()->clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(size), &size, nullptr);
    return size;
}

} // namespace

buffer_storage_t::~buffer_storage_t() {
    // OpenCL frees the buffer once the commands using it have finished.
    if (mem_) cl_api()->clReleaseMemObject(mem_);
}

status_t buffer_storage_t::set_data_handle(void *handle) {
    const cl_api_t &cl = *cl_api();
    cl_mem mem = static_cast<cl_mem>(handle);
    if (mem) {
        cl_context ctx = nullptr;
        cl_int err = cl.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(ctx), &ctx, nullptr);
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_invalid_arguments,
                "the handle is not an OpenCL buffer (%s)", cl_error_name(err));
        ANYDNN_REQUIRE(ctx == engine_->context(), dnnl_invalid_arguments,
                "the buffer belongs to another OpenCL context");
        ANYDNN_REQUIRE(buffer_size(mem) >= size_, dnnl_invalid_arguments,
                "the buffer has %zu bytes, the memory descriptor needs %zu", buffer_size(mem),
                size_);
        ANYDNN_CL_CHECK(cl.clRetainMemObject(mem));
    }
    if (mem_) cl.clReleaseMemObject(mem_);
    mem_ = mem;
    return dnnl_success;
}

status_t buffer_storage_t::map(void **host_ptr) {
    *host_ptr = nullptr;
    if (!mem_) return dnnl_success;
    cl_command_queue q = nullptr;
    ANYDNN_CHECK(engine_->service_queue(q));
    cl_int err = CL_SUCCESS;
    *host_ptr = cl_api()->clEnqueueMapBuffer(q, mem_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
            buffer_size(mem_), 0, nullptr, nullptr, &err);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clEnqueueMapBuffer failed: %s",
            cl_error_name(err));
    return dnnl_success;
}

status_t buffer_storage_t::unmap(void *host_ptr) {
    if (!mem_ || !host_ptr) return dnnl_success;
    cl_command_queue q = nullptr;
    ANYDNN_CHECK(engine_->service_queue(q));
    ANYDNN_CL_CHECK(cl_api()->clEnqueueUnmapMemObject(q, mem_, host_ptr, 0, nullptr, nullptr));
    ANYDNN_CL_CHECK(cl_api()->clFinish(q));
    return dnnl_success;
}

status_t buffer_storage_t::set_kernel_arg(cl_kernel kernel, cl_uint index) const {
    ANYDNN_CL_CHECK(cl_api()->clSetKernelArg(kernel, index, sizeof(cl_mem), &mem_));
    return dnnl_success;
}

status_t usm_allocate(ocl_engine_t *engine, size_t size, void **ptr) {
    const device_info_t &info = engine->info();
    void *p = nullptr;
    if (info.usm == usm_kind_t::intel_usm) {
        cl_int err = CL_SUCCESS;
        p = info.intel_usm.clSharedMemAllocINTEL(
                engine->context(), engine->device(), nullptr, size, 0, &err);
        if (!p) // some devices have no shared allocations: device memory, mapped by copies
            p = info.intel_usm.clDeviceMemAllocINTEL(
                    engine->context(), engine->device(), nullptr, size, 0, &err);
    } else {
        cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
        if (info.usm == usm_kind_t::svm_fine) flags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
        std::lock_guard<std::mutex> hold(svm_lock());
        p = cl_api()->clSVMAlloc(engine->context(), flags, size, 0);
    }
    ANYDNN_REQUIRE(p, dnnl_out_of_memory, "cannot allocate %zu bytes of USM", size);
    *ptr = p;
    return dnnl_success;
}

void usm_free(ocl_engine_t *engine, void *ptr) {
    if (!ptr) return;
    const device_info_t &info = engine->info();
    if (info.usm == usm_kind_t::intel_usm)
        info.intel_usm.clMemBlockingFreeINTEL(engine->context(), ptr);
    else {
        std::lock_guard<std::mutex> hold(svm_lock());
        cl_api()->clSVMFree(engine->context(), ptr); // callers wait for users of ptr first
    }
}

usm_storage_t::~usm_storage_t() { free_owned(); }

void usm_storage_t::free_owned() {
    if (!owned_ || !ptr_) return;
    // clSVMFree does not wait for enqueued commands: drain the device's queues we know.
    cl_command_queue q = nullptr;
    if (engine_->service_queue(q) == dnnl_success) cl_api()->clFinish(q);
    usm_free(engine_, ptr_);
    ptr_ = nullptr;
}

status_t usm_storage_t::set_data_handle(void *handle) {
    free_owned();
    ptr_ = handle == DNNL_MEMORY_NONE ? nullptr : handle;
    owned_ = false;
    return dnnl_success;
}

status_t usm_storage_t::map(void **host_ptr) {
    *host_ptr = nullptr;
    if (!ptr_) return dnnl_success;
    const device_info_t &info = engine_->info();
    cl_command_queue q = nullptr;
    ANYDNN_CHECK(engine_->service_queue(q));
    if (info.usm == usm_kind_t::intel_usm) {
        cl_uint type = 0;
        info.intel_usm.clGetMemAllocInfoINTEL(engine_->context(), ptr_,
                CL_MEM_ALLOC_TYPE_INTEL, sizeof(type), &type, nullptr);
        if (type != CL_MEM_TYPE_DEVICE_INTEL) {
            *host_ptr = ptr_;
            return dnnl_success;
        }
        // Device-only memory: a host copy, written back on unmap.
        size_t size = 0;
        info.intel_usm.clGetMemAllocInfoINTEL(
                engine_->context(), ptr_, CL_MEM_ALLOC_SIZE_INTEL, sizeof(size), &size, nullptr);
        staging_ = std::malloc(size ? size : 1);
        ANYDNN_REQUIRE(staging_, dnnl_out_of_memory, "no host memory to map %zu bytes", size);
        ANYDNN_CL_CHECK(info.intel_usm.clEnqueueMemcpyINTEL(
                q, CL_TRUE, staging_, ptr_, size, 0, nullptr, nullptr));
        *host_ptr = staging_;
        return dnnl_success;
    }
    if (info.usm == usm_kind_t::svm_fine) {
        *host_ptr = ptr_;
        return dnnl_success;
    }
    // Coarse-grained SVM: the map makes the host view coherent.
    ANYDNN_CL_CHECK(cl_api()->clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, ptr_,
            size_ ? size_ : 1, 0, nullptr, nullptr));
    *host_ptr = ptr_;
    return dnnl_success;
}

status_t usm_storage_t::unmap(void *host_ptr) {
    if (!ptr_ || !host_ptr) return dnnl_success;
    const device_info_t &info = engine_->info();
    cl_command_queue q = nullptr;
    ANYDNN_CHECK(engine_->service_queue(q));
    if (staging_) {
        size_t size = 0;
        info.intel_usm.clGetMemAllocInfoINTEL(
                engine_->context(), ptr_, CL_MEM_ALLOC_SIZE_INTEL, sizeof(size), &size, nullptr);
        cl_int err = info.intel_usm.clEnqueueMemcpyINTEL(
                q, CL_TRUE, ptr_, staging_, size, 0, nullptr, nullptr);
        std::free(staging_);
        staging_ = nullptr;
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "USM copy back failed: %s",
                cl_error_name(err));
        return dnnl_success;
    }
    if (info.usm == usm_kind_t::svm_coarse)
        ANYDNN_CL_CHECK(cl_api()->clEnqueueSVMUnmap(q, ptr_, 0, nullptr, nullptr));
    ANYDNN_CL_CHECK(cl_api()->clFinish(q));
    return dnnl_success;
}

status_t usm_storage_t::set_kernel_arg(cl_kernel kernel, cl_uint index) const {
    const device_info_t &info = engine_->info();
    if (info.usm == usm_kind_t::intel_usm)
        ANYDNN_CL_CHECK(info.intel_usm.clSetKernelArgMemPointerINTEL(kernel, index, ptr_));
    else
        ANYDNN_CL_CHECK(cl_api()->clSetKernelArgSVMPointer(kernel, index, ptr_));
    return dnnl_success;
}

} // namespace ocl
} // namespace anydnn
