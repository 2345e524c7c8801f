// A stream over a command queue (the application's or ours). Each execution enqueues after
// its dependencies (the caller's events, or on an out-of-order queue the stream's previous
// execution) and leaves one event behind: what interop execute returns.
#pragma once

#include <functional>
#include <vector>

#include "core/stream.hpp"
#include "runtime/ocl/cl_api.hpp"

namespace anydnn {
namespace ocl {

struct ocl_engine_t;

struct ocl_stream_t : public stream_t {
    // Retains `queue`, or creates one on the engine's device when it is null.
    static status_t create(ocl_stream_t **stream, ocl_engine_t *engine, cl_command_queue queue,
            unsigned flags);
    ~ocl_stream_t() override;

    cl_command_queue queue() const { return queue_; }
    ocl_engine_t *ocl_engine() const;
    bool out_of_order() const { return out_of_order_; }

    status_t wait() override;
    status_t execute(const primitive_t &prim, const exec_ctx_t &ctx) override;
    // Runs `prim` after `deps` and returns (retained) the event of its last command.
    status_t execute_with_events(const primitive_t &prim, const exec_ctx_t &ctx,
            const cl_event *deps, int ndeps, cl_event *done);
    // The same for work that is not a primitive (the graph's own kernels): `enqueue` launches
    // on this stream; after `deps` when `with_deps`, else ordered as execute orders.
    status_t execute_enqueue(const std::function<status_t()> &enqueue, bool with_deps,
            const cl_event *deps, int ndeps, cl_event *done);

    // For implementations, while they run: enqueue after the current dependencies; the new
    // command's event becomes the dependency of the next one.
    status_t enqueue_kernel(cl_kernel kernel, cl_uint ndims, const size_t *global,
            const size_t *local);
    status_t enqueue_copy(cl_mem dst, size_t dst_off, cl_mem src, size_t src_off, size_t bytes);
    status_t enqueue_fill_zero(cl_mem dst, size_t offset, size_t bytes);
    // The events the next command waits for. On an in-order queue a dependency that is this
    // queue's own previous command is already ordered: only the caller's events are listed.
    struct wait_list_t {
        cl_uint count;
        const cl_event *events;
    };
    wait_list_t wait_list() const;
    // Replaces the current dependencies with `ev`, a command of this queue (takes ownership).
    void set_dep(cl_event ev);

protected:
    // Takes over one reference to `queue` (derived streams: SYCL's native queue).
    ocl_stream_t(ocl_engine_t *engine, cl_command_queue queue, unsigned flags, bool ooo);

private:
    status_t run(const std::function<status_t()> &enqueue);
    void clear_deps();

    cl_command_queue queue_;
    bool out_of_order_;
    std::vector<cl_event> deps_; // retained; consumed by the next enqueue
    bool deps_from_queue_ = false; // deps_ is one command of queue_ (not the caller's events)
    cl_event last_ = nullptr; // retained; the previous execution's last event
};

} // namespace ocl
} // namespace anydnn
