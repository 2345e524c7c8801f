#include "core/stream_turn.hpp"

#include <map>
#include <memory>

namespace anydnn {

namespace {

// One lock per live device stream, beside the stream (whose layout stays as it is).
struct turns_t {
    std::mutex mutex;
    std::map<const stream_t *, std::unique_ptr<std::recursive_mutex>> by_stream;
};

turns_t &turns() {
    static turns_t *t = new turns_t; // outlives streams destroyed by static destructors
    return *t;
}

} // namespace

std::unique_lock<std::recursive_mutex> stream_turn(const stream_t *stream) {
    // SYCL streams run each execution in a host task on SYCL's thread while the caller waits
    // for it (the task enqueues through the same stream): a lock held by the caller would
    // never be released to the task. Their in-order queue serializes the host tasks instead.
    const runtime_kind_t rt = stream->engine()->runtime();
    if (rt == runtime_kind_t::cpu || rt == runtime_kind_t::sycl)
        return std::unique_lock<std::recursive_mutex>();
    std::recursive_mutex *m = nullptr;
    {
        turns_t &t = turns();
        std::lock_guard<std::mutex> lock(t.mutex);
        auto &slot = t.by_stream[stream];
        if (!slot) slot = std::make_unique<std::recursive_mutex>();
        m = slot.get();
    }
    return std::unique_lock<std::recursive_mutex>(*m);
}

void stream_turn_forget(const stream_t *stream) {
    turns_t &t = turns();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.by_stream.erase(stream);
}

} // namespace anydnn
