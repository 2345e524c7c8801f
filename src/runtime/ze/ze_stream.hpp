// A Level Zero stream: an immediate command list (the application's, not owned, or one we
// create) and a host-visible event of its own that `wait` signals on the list and waits for.
// Level Zero 1.4 (Debian's headers) can neither ask a list whether it is immediate or in-order
// nor request in-order lists: those properties are the application's promise.
// Executing primitives needs kernels: not implemented yet.
#pragma once

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

private:
    ze_stream_t(ze_engine_t *engine, unsigned flags);
    ze_command_list_handle_t list_ = nullptr;
    bool owns_list_ = false;
    ze_event_pool_handle_t pool_ = nullptr;
    ze_event_handle_t done_ = nullptr;
};

} // namespace ze
} // namespace anydnn
