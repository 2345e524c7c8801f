// The stream object behind dnnl_stream_t: where primitives are enqueued on one engine.
#pragma once

#include <memory>
#include <mutex>

#include "core/engine.hpp"

namespace anydnn {
struct primitive_t;
struct exec_ctx_t;
} // namespace anydnn

struct dnnl_stream {
    dnnl_stream(dnnl_engine *engine, unsigned flags);
    virtual ~dnnl_stream();

    dnnl_engine *engine() const { return engine_.get(); }
    unsigned flags() const { return flags_; }

    virtual anydnn::status_t wait() = 0;
    // Runs or enqueues one primitive; the CPU stream runs it before returning.
    virtual anydnn::status_t execute(
            const anydnn::primitive_t &prim, const anydnn::exec_ctx_t &ctx) = 0;

    // The scratchpad of an execution in library mode: on a device stream whose executions
    // follow each other (in order), one buffer of the stream's serves every primitive run on
    // it, so executing allocates nothing (a device allocation per execution costs tens of
    // microseconds) and a primitive run on two streams at once gets two buffers. `storage` is
    // null where the stream keeps none (CPU engines, out-of-order streams): the caller then
    // allocates for the one execution. A larger request waits for the stream first, since
    // commands still queued may use the old buffer. Called inside the execution's turn
    // (core/stream_turn.hpp); streams exempt from turns keep none.
    anydnn::status_t scratchpad(size_t bytes, const anydnn::memory_storage_t *&storage);
    // The buffer scratchpad() hands out (null before the first request): runtimes whose frees
    // do not wait for queued commands need not wait after executions that use it.
    const anydnn::memory_storage_t *kept_scratchpad() const { return scratchpad_.get(); }

    // Executions on this stream take no turn (core/stream_turn.hpp says which streams).
    void exempt_from_turns() { turn_exempt_ = true; }
    bool turn_exempt() const { return turn_exempt_; }
    std::recursive_mutex &turn() const { return turn_; }

private:
    anydnn::engine_ref_t engine_;
    unsigned flags_;
    std::unique_ptr<anydnn::memory_storage_t> scratchpad_; // freed before engine_ is released
    size_t scratchpad_bytes_ = 0;
    bool turn_exempt_ = false;
    mutable std::recursive_mutex turn_;
};

namespace anydnn {
using stream_t = dnnl_stream;
}
