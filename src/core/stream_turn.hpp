// Executions of several threads on one device stream take turns (oneDNN lets threads share a
// stream): the stream's event bookkeeping and its scratchpad (stream_t::scratchpad) belong to
// one execution at a time. CPU streams keep neither, and their executions run side by side.
#pragma once

#include <mutex>

#include "core/stream.hpp"

namespace anydnn {

// Held for the whole of one execution on `stream` (nothing held for CPU and exempt streams).
// Recursive: an execution may enqueue through the stream again.
// Exempt (stream_t::exempt_from_turns): SYCL streams run each execution in a host task on
// SYCL's thread, which enqueues through the same stream while the caller waits for it (a turn
// held by the caller would never reach the task); their in-order queue orders the tasks, and
// each execution gets its own scratchpad.
std::unique_lock<std::recursive_mutex> stream_turn(const stream_t *stream);

} // namespace anydnn
