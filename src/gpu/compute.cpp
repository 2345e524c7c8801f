// The GPU compute interface dispatched on the engine's runtime: OpenCL or Level Zero.
#include "gpu/compute.hpp"

#include <map>
#include <mutex>

#include "runtime/ocl/ocl_compute.hpp"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ze/ze_compute.hpp"
#include "runtime/ze/ze_engine.hpp"

namespace anydnn {
namespace gpu {

status_t create_kernel(engine_t *engine, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<kernel_t> &kernel) {
    if (ocl::ocl_engine_t *e = ocl::as_ocl(engine))
        return ocl::create_kernel(e, source_name, options, name, kernel);
    if (ze::ze_engine_t *e = ze::as_ze(engine))
        return ze::create_kernel(e, source_name, options, name, kernel);
    return fail(dnnl_unimplemented, __func__, "kernels need an OpenCL or Level Zero engine");
}

const device_caps_t &engine_caps(engine_t *engine) {
    // Filled once per engine from the device's properties.
    static std::mutex mutex;
    static std::map<uint64_t, device_caps_t> caps;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = caps.find(engine->id());
    if (it != caps.end()) return it->second;
    device_caps_t c;
    if (ocl::ocl_engine_t *e = ocl::as_ocl(engine)) c = ocl::device_caps(e);
    if (ze::ze_engine_t *e = ze::as_ze(engine)) c = ze::device_caps(e);
    return caps.emplace(engine->id(), c).first->second;
}

status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
        const void *host, size_t bytes) {
    ANYDNN_REQUIRE(stream, dnnl_invalid_arguments, "device copies need a stream");
    if (stream->engine()->runtime() == runtime_kind_t::ze)
        return ze::transfer(stream, storage, offset, const_cast<void *>(host), bytes, true);
    return ocl::copy_to_device(stream, storage, offset, host, bytes);
}

status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
        size_t offset, size_t bytes) {
    ANYDNN_REQUIRE(stream, dnnl_invalid_arguments, "device copies need a stream");
    if (stream->engine()->runtime() == runtime_kind_t::ze)
        return ze::transfer(stream, storage, offset, host, bytes, false);
    return ocl::copy_from_device(stream, host, storage, offset, bytes);
}

} // namespace gpu
} // namespace anydnn
