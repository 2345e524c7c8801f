// A Level Zero engine: the application's driver, device and context. Level Zero has no
// reference counting, so none of them is owned: they must outlive the engine. Memory is USM
// (ze_memory.hpp), streams immediate command lists (ze_stream.hpp), kernels come from
// modules of our OpenCL C sources (ze_module.hpp), so the implementation lists are the GPU
// ones. Engines of dnnl_engine_create (ANYDNN_GPU_RUNTIME=ze) own a context of their own.
#pragma once

#include <string>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/engine.hpp"
#include "runtime/ze/ze_api.hpp"

namespace anydnn {
namespace ze {

struct ze_engine_t : public engine_t, public gpu::compute_engine_t {
    // Checks that `device` belongs to `driver` and can allocate in `context`.
    static status_t create(ze_engine_t **engine, ze_driver_handle_t driver,
            ze_device_handle_t device, ze_context_handle_t context);

    // For dnnl_engine_create: device `index` of all drivers' devices, with a context of ours.
    static status_t create_own(ze_engine_t **engine, size_t index);

    ze_driver_handle_t driver() const { return driver_; }
    ze_device_handle_t device() const { return device_; }
    ze_context_handle_t context() const { return context_; }

    status_t create_stream(dnnl_stream **stream, unsigned flags) override;
    // handle: DNNL_MEMORY_ALLOCATE (shared USM, owned), DNNL_MEMORY_NONE or a USM pointer of
    // the context (not owned).
    status_t create_memory_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) override;
    const std::vector<impl_entry_t> &impl_list(dnnl_primitive_kind_t kind) const override;
    // The compute interface (core/compute/compute.hpp): kernels, device capabilities, copies.
    gpu::compute_engine_t *compute() override { return this; }
    status_t create_kernel(const char *source_name, const std::string &options, const char *name,
            std::shared_ptr<gpu::kernel_t> &kernel) override;
    gpu::device_caps_t device_caps() override;
    status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
            const void *host, size_t bytes) override;
    status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
            size_t offset, size_t bytes) override;
    std::pair<const void *, const void *> device_and_context() const override {
        return {device_, context_};
    }
    // USM is shared USM; events are ze_event_handle_t of the stream's own, valid until it has
    // handed out ze_stream_t::returned_events more (ze_events.cpp).
    // Level Zero contexts have no reference count (the graph allocator has no Level Zero
    // call-backs to hand them to).
    std::shared_ptr<const void> own_context_reference() override { return nullptr; }
    status_t allocate_usm(size_t size, void **ptr) override;
    void free_usm(void *ptr) override;
    status_t create_usm_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *ptr) override;
    status_t enqueue(stream_t *stream, const std::function<status_t()> &commands, bool with_deps,
            void *const *deps, int ndeps, void **done) override;
    status_t join_events(stream_t *stream, void *const *deps, int ndeps, void **done) override;
    status_t wait_event(void *event) override;
    void release_event(void *) override {}

protected:
    ~ze_engine_t() override;

private:
    ze_engine_t(ze_driver_handle_t driver, ze_device_handle_t device,
            ze_context_handle_t context);
    bool owns_context_ = false;
    ze_driver_handle_t driver_;
    ze_device_handle_t device_;
    ze_context_handle_t context_;
};

// Every (driver, device) pair the loader offers, in driver then device order: the devices of
// dnnl_engine_create(dnnl_gpu, i) when ANYDNN_GPU_RUNTIME=ze.
const std::vector<std::pair<ze_driver_handle_t, ze_device_handle_t>> &all_devices();

// Whether ANYDNN_GPU_RUNTIME=ze makes dnnl_gpu engines Level Zero ones.
bool gpu_runtime_is_ze();

// The Level Zero engine behind `e`, or null when it is another runtime's.
ze_engine_t *as_ze(engine_t *e);

// What identifies compiled kernels for a device: driver uuid and version, device uuid and
// name, library version. Empty when the properties cannot be read.
std::string cache_blob_id(ze_driver_handle_t driver, ze_device_handle_t device);

} // namespace ze
} // namespace anydnn
