// The Level Zero side of the compute interface's USM and events (core/compute/compute.hpp):
// USM is the engine's shared USM, events belong to the stream that handed them out.
#include "runtime/ze/ze_engine.hpp"
#include "runtime/ze/ze_memory.hpp"
#include "runtime/ze/ze_stream.hpp"

namespace anydnn {
namespace ze {

namespace {
const ze_event_handle_t *as_ze_events(void *const *events) {
    static_assert(sizeof(ze_event_handle_t) == sizeof(void *), "Level Zero handles are pointers");
    return reinterpret_cast<const ze_event_handle_t *>(events);
}
} // namespace

status_t ze_engine_t::allocate_usm(size_t size, void **ptr) {
    return usm_allocate_shared(this, size, ptr);
}

void ze_engine_t::free_usm(void *ptr) {
    if (ptr) ze_api()->zeMemFree(context(), ptr);
}

status_t ze_engine_t::create_usm_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *ptr) {
    return create_memory_storage(storage, size, ptr ? ptr : DNNL_MEMORY_NONE);
}

status_t ze_engine_t::enqueue(stream_t *stream, const std::function<status_t()> &commands,
        bool with_deps, void *const *deps, int ndeps, void **done) {
    // The list is in order: an execution without dependencies follows the previous one.
    auto *s = static_cast<ze_stream_t *>(stream);
    return s->execute_commands(commands, with_deps ? ndeps : 0, as_ze_events(deps),
            reinterpret_cast<ze_event_handle_t *>(done));
}

status_t ze_engine_t::join_events(stream_t *stream, void *const *deps, int ndeps, void **done) {
    auto *s = static_cast<ze_stream_t *>(stream);
    return s->execute_commands([] { return dnnl_success; }, ndeps, as_ze_events(deps),
            reinterpret_cast<ze_event_handle_t *>(done));
}

status_t ze_engine_t::wait_event(void *event) {
    return ze_check(ze_api()->zeEventHostSynchronize(static_cast<ze_event_handle_t>(event),
                            UINT64_MAX),
            "zeEventHostSynchronize");
}

} // namespace ze
} // namespace anydnn
