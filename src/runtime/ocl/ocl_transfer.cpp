// Host <-> device copies of the GPU compute interface (core/compute/compute.hpp) on an OpenCL
// stream: buffers through clEnqueueRead/WriteBuffer, USM through the Intel memcpy or SVM
// memcpy; blocking, after the stream's dependencies, and the stream's next dependency.
#include "core/compute/compute.hpp"
#include "runtime/ocl/ocl_compute.hpp"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/ocl/ocl_stream.hpp"

namespace anydnn {
namespace ocl {

namespace {

status_t transfer(stream_t *stream, const memory_storage_t *storage, size_t offset, void *host,
        size_t bytes, bool to_device) {
    if (bytes == 0) return dnnl_success;
    ANYDNN_REQUIRE(stream && stream->engine()->runtime() == runtime_kind_t::ocl,
            dnnl_invalid_arguments, "device copies need an OpenCL stream");
    ANYDNN_REQUIRE(storage && storage->data_handle(), dnnl_invalid_arguments,
            "device copy of memory without a buffer");
    auto *s = static_cast<ocl::ocl_stream_t *>(stream);
    const auto *st = static_cast<const ocl::ocl_storage_t *>(storage);
    const ocl::cl_api_t &cl = *ocl::cl_api();
    const ocl::ocl_stream_t::wait_list_t deps = s->wait_list();
    const cl_uint ndeps = deps.count;
    const cl_event *wait = deps.events;
    cl_event ev = nullptr;
    cl_int err = CL_SUCCESS;
    if (st->kind() == dnnl_ocl_interop_buffer) {
        cl_mem mem = static_cast<const ocl::buffer_storage_t *>(st)->mem();
        err = to_device ? cl.clEnqueueWriteBuffer(s->queue(), mem, CL_TRUE, offset, bytes, host,
                                  ndeps, wait, &ev)
                        : cl.clEnqueueReadBuffer(s->queue(), mem, CL_TRUE, offset, bytes, host,
                                  ndeps, wait, &ev);
    } else {
        char *dev = static_cast<char *>(st->data_handle()) + offset;
        void *dst = to_device ? static_cast<void *>(dev) : host;
        const void *src = to_device ? host : static_cast<const void *>(dev);
        const ocl::device_info_t &info = s->ocl_engine()->info();
        err = info.usm == ocl::usm_kind_t::intel_usm
                ? info.intel_usm.clEnqueueMemcpyINTEL(
                        s->queue(), CL_TRUE, dst, src, bytes, ndeps, wait, &ev)
                : cl.clEnqueueSVMMemcpy(s->queue(), CL_TRUE, dst, src, bytes, ndeps, wait, &ev);
    }
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "host/device copy of %zu bytes: %s",
            bytes, ocl::cl_error_name(err));
    s->set_dep(ev);
    return dnnl_success;
}

} // namespace

status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
        const void *host, size_t bytes) {
    return transfer(stream, storage, offset, const_cast<void *>(host), bytes, true);
}

status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
        size_t offset, size_t bytes) {
    return transfer(stream, storage, offset, host, bytes, false);
}

} // namespace ocl
} // namespace anydnn
