#include "runtime/ze/ze_stream.hpp"

#include <cstdint>
#include <memory>

#include "runtime/ze/ze_engine.hpp"

namespace anydnn {
namespace ze {

namespace {

status_t ze_check(ze_result_t r, const char *what) {
    ANYDNN_REQUIRE(r == ZE_RESULT_SUCCESS, dnnl_runtime_error, "%s failed (0x%x)", what,
            static_cast<unsigned>(r));
    return dnnl_success;
}

} // namespace

ze_stream_t::ze_stream_t(ze_engine_t *engine, unsigned flags) : stream_t(engine, flags) {}

status_t ze_stream_t::create(ze_stream_t **stream, ze_engine_t *engine,
        ze_command_list_handle_t list, unsigned flags) {
    ANYDNN_REQUIRE(!(flags & dnnl_stream_out_of_order), dnnl_unimplemented,
            "Level Zero streams are in-order immediate command lists");
    const ze_api_t &ze = *ze_api();
    std::unique_ptr<ze_stream_t> s(new ze_stream_t(engine, flags));
    if (list) {
        s->list_ = list;
    } else {
        ze_command_queue_desc_t desc = {};
        desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
        desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
        ANYDNN_CHECK(ze_check(ze.zeCommandListCreateImmediate(
                                      engine->context(), engine->device(), &desc, &s->list_),
                "zeCommandListCreateImmediate"));
        s->owns_list_ = true;
    }
    ze_event_pool_desc_t pool_desc = {};
    pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    pool_desc.count = 1;
    ze_device_handle_t device = engine->device();
    ANYDNN_CHECK(ze_check(
            ze.zeEventPoolCreate(engine->context(), &pool_desc, 1, &device, &s->pool_),
            "zeEventPoolCreate"));
    ze_event_desc_t event_desc = {};
    event_desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
    event_desc.index = 0;
    event_desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
    event_desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
    ANYDNN_CHECK(ze_check(ze.zeEventCreate(s->pool_, &event_desc, &s->done_), "zeEventCreate"));
    *stream = s.release();
    return dnnl_success;
}

ze_stream_t::~ze_stream_t() {
    const ze_api_t &ze = *ze_api();
    if (done_) ze.zeEventDestroy(done_);
    if (pool_) ze.zeEventPoolDestroy(pool_);
    if (owns_list_ && list_) ze.zeCommandListDestroy(list_);
}

status_t ze_stream_t::wait() {
    const ze_api_t &ze = *ze_api();
    // In order: the event is signalled once everything appended before it has finished.
    ANYDNN_CHECK(ze_check(ze.zeCommandListAppendSignalEvent(list_, done_),
            "zeCommandListAppendSignalEvent"));
    ANYDNN_CHECK(ze_check(ze.zeEventHostSynchronize(done_, UINT64_MAX), "zeEventHostSynchronize"));
    return ze_check(ze.zeEventHostReset(done_), "zeEventHostReset");
}

status_t ze_stream_t::execute(const primitive_t &, const exec_ctx_t &) {
    return fail(dnnl_unimplemented, __func__,
            "executing primitives on Level Zero needs kernels: not implemented yet");
}

} // namespace ze
} // namespace anydnn
