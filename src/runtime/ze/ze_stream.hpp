// A Level Zero stream: an immediate command list (the application's, not owned, or one we
// create) and a host-visible event of its own that `wait` signals on the list and waits for.
// Level Zero 1.4 (Debian's headers) can neither ask a list whether it is immediate or in-order
// nor request in-order lists: those properties are the application's promise.
// Primitives append their kernels and copies to the list in order; interop execution waits on
// the application's events first and signals an event of the stream's own after.
#pragma once

#include <functional>
#include <vector>

#include "core/stream.hpp"
#include "runtime/ze/ze_api.hpp"

namespace anydnn {
namespace ze {

struct ze_engine_t;

struct ze_stream_t : public stream_t {
    // `list` null: creates an immediate command list on the engine's device (owned).
    static status_t create(
            ze_stream_t **stream, ze_engine_t *engine, ze_command_list_handle_t list,
            unsigned flags);
    ~ze_stream_t() override;

    ze_command_list_handle_t list() const { return list_; }
    status_t wait() override;
    status_t execute(const primitive_t &prim, const exec_ctx_t &ctx) override;
    // Runs `prim` after `deps`; `done` (when not null) gets an event signalled once everything
    // appended so far has finished. The event belongs to the stream: it stays valid until the
    // stream is destroyed or has handed out `returned_events` more events.
    status_t execute_with_events(const primitive_t &prim, const exec_ctx_t &ctx, int ndeps,
            const ze_event_handle_t *deps, ze_event_handle_t *done);
    static constexpr uint32_t returned_events = 256;
    // The same for work that is not a primitive (the graph's own kernels; nothing, to join
    // `deps` into one event): `commands` append to this stream's list.
    status_t execute_commands(const std::function<status_t()> &commands, int ndeps,
            const ze_event_handle_t *deps, ze_event_handle_t *done);

    // The stream executing a primitive on this thread (null outside execute). USM an
    // implementation frees while it executes (a staging buffer) is handed to that stream and
    // freed once the stream has finished: zeMemFree does not wait for the commands using it.
    static ze_stream_t *executing();
    void free_when_done(void *usm);

private:
    ze_stream_t(ze_engine_t *engine, unsigned flags);
    ze_command_list_handle_t list_ = nullptr;
    bool owns_list_ = false;
    ze_event_pool_handle_t pool_ = nullptr;
    ze_event_handle_t done_ = nullptr;
    std::vector<void *> to_free_; // USM freed at the next wait
    // Events handed to the application, reused in turn (created on first use).
    status_t next_returned_event(ze_event_handle_t *event, uint32_t *slot);
    ze_event_pool_handle_t returned_pool_ = nullptr;
    std::vector<ze_event_handle_t> returned_;
    std::vector<bool> returned_signal_appended_; // else reuse must not wait for it
    uint32_t next_returned_ = 0;
};

} // namespace ze
} // namespace anydnn
