// An OpenCL engine: one device and a context (the application's, or one we create). Streams
// wrap command queues, memory is a cl_mem buffer by default or USM (Intel USM, else SVM).
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/engine.hpp"
#include "core/memory.hpp"
#include "runtime/ocl/device_info.hpp"

namespace anydnn {
namespace ocl {

struct ocl_engine_t : public engine_t, public gpu::compute_engine_t {
    // Retains device and context; creates a context when `context` is null.
    static status_t create(ocl_engine_t **engine, cl_device_id device, cl_context context,
            size_t index);

    cl_device_id device() const { return device_; }
    cl_context context() const { return context_; }
    const device_info_t &info() const { return info_; }
    // An in-order queue of ours for map/unmap and copies outside any user stream.
    status_t service_queue(cl_command_queue &queue);

    status_t create_stream(dnnl_stream **stream, unsigned flags) override;
    // Buffer memory: handle is DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE or a cl_mem.
    status_t create_memory_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) override;
    // USM memory: handle is DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE or a USM/SVM pointer.
    status_t create_usm_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) override;
    const std::vector<impl_entry_t> &impl_list(dnnl_primitive_kind_t kind) const override;
    // The compute interface (core/compute/compute.hpp): kernels, device capabilities, copies.
    gpu::compute_engine_t *compute() override { return this; }
    status_t create_kernel(const char *source_name, const std::string &options, const char *name,
            std::shared_ptr<gpu::kernel_t> &kernel) override;
    status_t create_ptx_kernel(const char *name, std::shared_ptr<gpu::kernel_t> &kernel) override;
    gpu::device_caps_t device_caps() override;
    status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
            const void *host, size_t bytes) override;
    status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
            size_t offset, size_t bytes) override;
    std::pair<const void *, const void *> device_and_context() const override {
        return {device_, context_};
    }
    std::shared_ptr<const void> own_context_reference() override;
    status_t allocate_usm(size_t size, void **ptr) override;
    void free_usm(void *ptr) override;
    // Events are cl_events, the stream an ocl_stream_t (ocl_events.cpp).
    status_t enqueue(stream_t *stream, const std::function<status_t()> &commands, bool with_deps,
            void *const *deps, int ndeps, void **done) override;
    status_t join_events(stream_t *stream, void *const *deps, int ndeps, void **done) override;
    status_t wait_event(void *event) override;
    void release_event(void *event) override;

protected:
    ~ocl_engine_t() override;
    ocl_engine_t(cl_device_id device, cl_context context, size_t index);
    // What create does before constructing, for derived engines too (SYCL): checks that the
    // device is in `context` (creates one when it is null), probes the device, retains both.
    static status_t prepare(cl_device_id device, cl_context &context, device_info_t &info);
    void set_info(device_info_t info) { info_ = std::move(info); }

private:
    cl_device_id device_;
    cl_context context_;
    bool owns_context_ = false; // created by prepare, not the application's
    device_info_t info_;
    std::mutex mutex_;
    cl_command_queue service_queue_ = nullptr;
};

// The OpenCL devices that back dnnl_gpu engines: GPUs when there are any, else accelerators
// and CPU devices. ANYDNN_OCL_DEVICE=<platform>:<device> (indices) or a substring of
// "<platform name>: <device name>" picks one.
const std::vector<cl_device_id> &engine_devices();

// Every OpenCL device, of any platform and type, whose CL_DEVICE_NAME is `name` (compared up
// to `max_chars` characters, for APIs that truncate names): how the Level Zero runtime finds
// the OpenCL device that builds its native modules.
std::vector<cl_device_id> devices_named(const std::string &name, size_t max_chars);


// The OpenCL engine behind `e`, or null when it is another runtime's.
ocl_engine_t *as_ocl(engine_t *e);

} // namespace ocl
} // namespace anydnn
