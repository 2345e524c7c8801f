// Device memory of an OpenCL engine: a cl_mem buffer or a USM pointer (Intel USM or SVM).
#pragma once

#include "core/memory.hpp"
#include "oneapi/dnnl/dnnl_ocl_types.h"
#include "runtime/ocl/cl_api.hpp"

namespace anydnn {
namespace ocl {

struct ocl_engine_t;

struct ocl_storage_t : public memory_storage_t {
    explicit ocl_storage_t(ocl_engine_t *engine) : engine_(engine) {}
    virtual dnnl_ocl_interop_memory_kind_t kind() const = 0;
    // Binds this memory as argument `index` of `kernel` (a `global T *` parameter).
    virtual status_t set_kernel_arg(cl_kernel kernel, cl_uint index) const = 0;

protected:
    ocl_engine_t *engine_; // the memory object holds a reference to the engine
};

struct buffer_storage_t : public ocl_storage_t {
    // Takes ownership of `mem` (already retained or created by us), may be null. `size`: the
    // bytes the memory descriptor needs; a smaller user buffer is refused.
    buffer_storage_t(ocl_engine_t *engine, cl_mem mem, size_t size)
        : ocl_storage_t(engine), mem_(mem), size_(size) {}
    ~buffer_storage_t() override;
    dnnl_ocl_interop_memory_kind_t kind() const override { return dnnl_ocl_interop_buffer; }
    cl_mem mem() const { return mem_; }
    void *data_handle() const override { return mem_; }
    // Retains the new cl_mem (of the engine's context), releases the old one.
    status_t set_data_handle(void *handle) override;
    status_t map(void **host_ptr) override;
    status_t unmap(void *host_ptr) override;
    status_t set_kernel_arg(cl_kernel kernel, cl_uint index) const override;

private:
    cl_mem mem_;
    size_t size_;
};

struct usm_storage_t : public ocl_storage_t {
    // `size`: the bytes the memory descriptor covers (what map makes visible to the host).
    usm_storage_t(ocl_engine_t *engine, void *ptr, size_t size, bool owned)
        : ocl_storage_t(engine), ptr_(ptr), size_(size), owned_(owned) {}
    ~usm_storage_t() override;
    dnnl_ocl_interop_memory_kind_t kind() const override { return dnnl_ocl_interop_usm; }
    void *data_handle() const override { return ptr_; }
    status_t set_data_handle(void *handle) override;
    status_t map(void **host_ptr) override;
    status_t unmap(void *host_ptr) override;
    status_t set_kernel_arg(cl_kernel kernel, cl_uint index) const override;

private:
    void free_owned();
    void *ptr_;
    size_t size_;
    bool owned_;
    void *staging_ = nullptr; // host copy while a device-only USM allocation is mapped
};

// Allocates USM the device can use and the host can map (Intel shared USM, else SVM).
status_t usm_allocate(ocl_engine_t *engine, size_t size, void **ptr);
void usm_free(ocl_engine_t *engine, void *ptr);

} // namespace ocl
} // namespace anydnn
