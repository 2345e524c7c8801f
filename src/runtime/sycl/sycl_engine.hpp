// A SYCL engine: the application's sycl::device and sycl::context, driven through the OpenCL
// device and context behind them (SYCL's OpenCL backend). It is an OpenCL engine to every
// implementation; what differs is its streams (host tasks on a sycl::queue, sycl_stream.hpp)
// and its memory (USM by default, or sycl::buffer, sycl_memory.hpp).
#pragma once

#include <sycl/sycl.hpp>

#include "runtime/ocl/ocl_engine.hpp"

namespace anydnn {
namespace sycl_rt {

struct sycl_engine_t : public ocl::ocl_engine_t {
    // The device must be in the context and use SYCL's OpenCL backend.
    static status_t create(
            sycl_engine_t **engine, const ::sycl::device &device, const ::sycl::context &context);

    const ::sycl::device &sycl_device() const { return device_; }
    const ::sycl::context &sycl_context() const { return context_; }

    // A new sycl::queue on the engine's device and context, in-order unless asked otherwise.
    status_t create_stream(dnnl_stream **stream, unsigned flags) override;
    // USM memory (as oneDNN's SYCL engines): handle is DNNL_MEMORY_ALLOCATE,
    // DNNL_MEMORY_NONE or a USM pointer of the engine's context.
    status_t create_memory_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) override;
    // Buffer memory: handle is DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE or a
    // sycl::buffer<uint8_t, 1> * holding at least `size` bytes.
    status_t create_buffer_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle);

private:
    sycl_engine_t(cl_device_id device, cl_context context, const ::sycl::device &sdevice,
            const ::sycl::context &scontext);
    ::sycl::device device_;
    ::sycl::context context_;
};

// The SYCL engine behind `e`, or null when it is not one.
sycl_engine_t *as_sycl(engine_t *e);

// Runs `body`, turning a SYCL exception into a runtime error with its message.
template <typename F>
status_t sycl_guarded(const char *where, F &&body) {
    try {
        return body();
    } catch (const ::sycl::exception &e) {
        return fail(dnnl_runtime_error, where, "SYCL error: %s", e.what());
    }
}

} // namespace sycl_rt
} // namespace anydnn
