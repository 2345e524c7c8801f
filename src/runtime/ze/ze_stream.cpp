#include "runtime/ze/ze_stream.hpp"

#include <cstdint>
#include <memory>

#include "core/primitive.hpp"
#include "core/primitive_desc.hpp"
#include "core/stream_turn.hpp"

#include "runtime/ze/ze_engine.hpp"

namespace anydnn {
namespace ze {

ze_stream_t::ze_stream_t(ze_engine_t *engine, unsigned flags) : stream_t(engine, flags) {}

status_t ze_stream_t::create(ze_stream_t **stream, ze_engine_t *engine,
        ze_command_list_handle_t list, unsigned flags) {
    ANYDNN_REQUIRE(!(flags & dnnl_stream_out_of_order), dnnl_unimplemented,
            "Level Zero streams are in-order immediate command lists");
    const ze_api_t &ze = *ze_api();
    std::unique_ptr<ze_stream_t> s(new ze_stream_t(engine, flags));
    if (list) {
        // Loaders of Level Zero 1.9+ can tell a regular list; older ones cannot (docs).
        ze_bool_t immediate = true;
        if (ze.zeCommandListIsImmediate
                && ze.zeCommandListIsImmediate(list, &immediate) == ZE_RESULT_SUCCESS)
            ANYDNN_REQUIRE(immediate, dnnl_invalid_arguments,
                    "the command list is not an immediate command list");
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
    if (process_exiting()) return;
    const ze_api_t &ze = *ze_api();
    if (!to_free_.empty() || kept_scratchpad()) wait(); // zeMemFree does not wait
    for (ze_event_handle_t e : returned_)
        if (e) ze.zeEventDestroy(e);
    if (returned_pool_) ze.zeEventPoolDestroy(returned_pool_);
    if (done_) ze.zeEventDestroy(done_);
    if (pool_) ze.zeEventPoolDestroy(pool_);
    if (owns_list_ && list_) ze.zeCommandListDestroy(list_);
}

status_t ze_stream_t::wait() {
    auto turn = stream_turn(this); // done_ and to_free_ are shared with executions of other threads
    const ze_api_t &ze = *ze_api();
    // In order: the event is signalled once everything appended before it has finished.
    ANYDNN_CHECK(ze_check(ze.zeCommandListAppendSignalEvent(list_, done_),
            "zeCommandListAppendSignalEvent"));
    ANYDNN_CHECK(ze_check(ze.zeEventHostSynchronize(done_, UINT64_MAX), "zeEventHostSynchronize"));
    auto *engine = static_cast<ze_engine_t *>(this->engine());
    for (void *p : to_free_) ze.zeMemFree(engine->context(), p);
    to_free_.clear();
    return ze_check(ze.zeEventHostReset(done_), "zeEventHostReset");
}

namespace {

// Whether the execution has a scratchpad of the library's made for it alone, freed by the
// caller once execute returns: zeMemFree does not wait for the commands still using it
// (OpenCL's release does), so such executions finish first. The stream's own buffer
// (stream_t::scratchpad) lives on.
bool has_execution_scratchpad(const stream_t &s, const primitive_t &prim, const exec_ctx_t &ctx) {
    const primitive_desc_t &pd = prim.pd();
    return pd.scratchpad_size > 0 && pd.attr.scratchpad_mode != dnnl_scratchpad_mode_user
            && ctx.scratchpad_storage != s.kept_scratchpad();
}

thread_local ze_stream_t *executing_stream = nullptr;

} // namespace

ze_stream_t *ze_stream_t::executing() { return executing_stream; }

void ze_stream_t::free_when_done(void *usm) { to_free_.push_back(usm); }

status_t ze_stream_t::execute(const primitive_t &prim, const exec_ctx_t &ctx) {
    // The list is in order: each command starts after the previous one has finished.
    ze_stream_t *outer = executing_stream;
    executing_stream = this;
    const status_t st = prim.execute(ctx);
    executing_stream = outer;
    const bool must_wait = !to_free_.empty() || has_execution_scratchpad(*this, prim, ctx);
    const status_t w = must_wait ? wait() : dnnl_success;
    return st != dnnl_success ? st : w;
}

status_t ze_stream_t::execute_commands(const std::function<status_t()> &commands, int ndeps,
        const ze_event_handle_t *deps, ze_event_handle_t *done) {
    auto turn = stream_turn(this); // the list and its returned events, one execution's at a time
    const ze_api_t &ze = *ze_api();
    if (ndeps > 0)
        ANYDNN_CHECK(ze_check(ze.zeCommandListAppendWaitOnEvents(list_,
                                      static_cast<uint32_t>(ndeps),
                                      const_cast<ze_event_handle_t *>(deps)),
                "zeCommandListAppendWaitOnEvents"));
    ze_stream_t *outer = executing_stream;
    executing_stream = this;
    const status_t st = commands();
    executing_stream = outer;
    const status_t w = to_free_.empty() ? dnnl_success : wait();
    ANYDNN_CHECK(st != dnnl_success ? st : w);
    if (!done) return dnnl_success;
    ze_event_handle_t event = nullptr;
    uint32_t slot = 0;
    ANYDNN_CHECK(next_returned_event(&event, &slot));
    ANYDNN_CHECK(ze_check(
            ze.zeCommandListAppendSignalEvent(list_, event), "zeCommandListAppendSignalEvent"));
    returned_signal_appended_[slot] = true;
    *done = event;
    return dnnl_success;
}

status_t ze_stream_t::next_returned_event(ze_event_handle_t *event, uint32_t *slot) {
    const ze_api_t &ze = *ze_api();
    auto *engine = static_cast<ze_engine_t *>(this->engine());
    if (!returned_pool_) {
        ze_event_pool_desc_t desc = {};
        desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
        desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
        desc.count = returned_events;
        ze_device_handle_t device = engine->device();
        ANYDNN_CHECK(ze_check(
                ze.zeEventPoolCreate(engine->context(), &desc, 1, &device, &returned_pool_),
                "zeEventPoolCreate"));
        returned_.assign(returned_events, nullptr);
        returned_signal_appended_.assign(returned_events, false);
    }
    ze_event_handle_t &e = returned_[next_returned_];
    if (!e) {
        ze_event_desc_t desc = {};
        desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
        desc.index = next_returned_;
        desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
        desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
        ANYDNN_CHECK(ze_check(ze.zeEventCreate(returned_pool_, &desc, &e), "zeEventCreate"));
    } else if (returned_signal_appended_[next_returned_]) {
        // Handed out `returned_events` executions ago: wait until it has been signalled
        // before reusing it.
        ANYDNN_CHECK(ze_check(ze.zeEventHostSynchronize(e, UINT64_MAX), "zeEventHostSynchronize"));
        ANYDNN_CHECK(ze_check(ze.zeEventHostReset(e), "zeEventHostReset"));
        returned_signal_appended_[next_returned_] = false;
    }
    *slot = next_returned_;
    next_returned_ = (next_returned_ + 1) % returned_events;
    *event = e;
    return dnnl_success;
}

status_t ze_stream_t::execute_with_events(const primitive_t &prim, const exec_ctx_t &ctx,
        int ndeps, const ze_event_handle_t *deps, ze_event_handle_t *done) {
    const ze_api_t &ze = *ze_api();
    if (ndeps > 0)
        ANYDNN_CHECK(ze_check(ze.zeCommandListAppendWaitOnEvents(list_,
                                      static_cast<uint32_t>(ndeps),
                                      const_cast<ze_event_handle_t *>(deps)),
                "zeCommandListAppendWaitOnEvents"));
    ANYDNN_CHECK(execute(prim, ctx));
    if (!done) return dnnl_success;
    ze_event_handle_t event = nullptr;
    uint32_t slot = 0;
    ANYDNN_CHECK(next_returned_event(&event, &slot));
    ANYDNN_CHECK(ze_check(
            ze.zeCommandListAppendSignalEvent(list_, event), "zeCommandListAppendSignalEvent"));
    returned_signal_appended_[slot] = true;
    *done = event;
    return dnnl_success;
}

} // namespace ze
} // namespace anydnn
