// The stream object behind dnnl_stream_t: where primitives are enqueued on one engine.
#pragma once

#include "core/engine.hpp"

namespace anydnn {
struct primitive_t;
struct exec_ctx_t;
} // namespace anydnn

struct dnnl_stream {
    dnnl_stream(dnnl_engine *engine, unsigned flags) : engine_(engine), flags_(flags) {}
    virtual ~dnnl_stream() = default;

    dnnl_engine *engine() const { return engine_.get(); }
    unsigned flags() const { return flags_; }

    virtual anydnn::status_t wait() = 0;
    // Runs or enqueues one primitive; the CPU stream runs it before returning.
    virtual anydnn::status_t execute(
            const anydnn::primitive_t &prim, const anydnn::exec_ctx_t &ctx) = 0;

private:
    anydnn::engine_ref_t engine_;
    unsigned flags_;
};

namespace anydnn {
using stream_t = dnnl_stream;
}
