// The GPU compute interface dispatched to the engine's runtime (engine_t::compute()).
#include "core/compute/compute.hpp"

#include <map>
#include <mutex>

namespace anydnn {
namespace gpu {

status_t create_kernel(engine_t *engine, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<kernel_t> &kernel) {
    if (compute_engine_t *c = engine->compute())
        return c->create_kernel(source_name, options, name, kernel);
    return fail(dnnl_unimplemented, __func__, "kernels need an OpenCL or Level Zero engine");
}

status_t create_ptx_kernel(engine_t *engine, const char *name, std::shared_ptr<kernel_t> &kernel) {
    if (compute_engine_t *c = engine->compute()) return c->create_ptx_kernel(name, kernel);
    return fail(dnnl_unimplemented, __func__, "PTX kernels need an OpenCL engine");
}

status_t compute_engine_t::create_ptx_kernel(const char *name, std::shared_ptr<kernel_t> &) {
    return fail(dnnl_unimplemented, __func__, "this runtime loads no PTX programs (kernel %s)", name);
}

bool shares_memory(engine_t &a, engine_t &b) {
    if (&a == &b) return true;
    if (a.runtime() != b.runtime()) return false;
    compute_engine_t *ca = a.compute(), *cb = b.compute();
    if (!ca || !cb) return !ca && !cb;
    return ca->device_and_context().second == cb->device_and_context().second;
}

const device_caps_t &engine_caps(engine_t *engine) {
    // Filled once per engine from the device's properties.
    static std::mutex mutex;
    static std::map<uint64_t, device_caps_t> caps;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = caps.find(engine->id());
    if (it != caps.end()) return it->second;
    device_caps_t c;
    if (compute_engine_t *e = engine->compute()) c = e->device_caps();
    return caps.emplace(engine->id(), c).first->second;
}

status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
        const void *host, size_t bytes) {
    ANYDNN_REQUIRE(stream, dnnl_invalid_arguments, "device copies need a stream");
    compute_engine_t *c = stream->engine()->compute();
    ANYDNN_REQUIRE(c, dnnl_invalid_arguments, "device copies need a GPU runtime's stream");
    return c->copy_to_device(stream, storage, offset, host, bytes);
}

status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
        size_t offset, size_t bytes) {
    ANYDNN_REQUIRE(stream, dnnl_invalid_arguments, "device copies need a stream");
    compute_engine_t *c = stream->engine()->compute();
    ANYDNN_REQUIRE(c, dnnl_invalid_arguments, "device copies need a GPU runtime's stream");
    return c->copy_from_device(stream, host, storage, offset, bytes);
}

} // namespace gpu
} // namespace anydnn
