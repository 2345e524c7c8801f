// Executions of several threads on one device stream take turns (oneDNN lets threads share a
// stream): the stream's event bookkeeping and its scratchpad (stream_t::scratchpad) belong to
// one execution at a time. CPU streams keep neither, and their executions run side by side;
// SYCL streams rely on their in-order queue (their executions run in host tasks).
#pragma once

#include <mutex>

#include "core/stream.hpp"

namespace anydnn {

// Held for the whole of one execution on `stream` (nothing held for CPU and SYCL streams).
// Recursive: an execution may enqueue through the stream again.
std::unique_lock<std::recursive_mutex> stream_turn(const stream_t *stream);
// Called as a stream is destroyed.
void stream_turn_forget(const stream_t *stream);

} // namespace anydnn
