#include "core/stream_turn.hpp"

#include <map>
#include <memory>
#include <set>

namespace anydnn {

namespace {

// One lock per live device stream, beside the stream (whose layout stays as it is).
struct turns_t {
    std::mutex mutex;
    std::map<const stream_t *, std::unique_ptr<std::recursive_mutex>> by_stream;
    std::set<const stream_t *> exempt;
};

turns_t &turns() {
    static turns_t *t = new turns_t; // outlives streams destroyed by static destructors
    return *t;
}

} // namespace

std::unique_lock<std::recursive_mutex> stream_turn(const stream_t *stream) {
    if (stream->engine()->kind() == dnnl_cpu) return std::unique_lock<std::recursive_mutex>();
    std::recursive_mutex *m = nullptr;
    {
        turns_t &t = turns();
        std::lock_guard<std::mutex> lock(t.mutex);
        if (t.exempt.count(stream)) return std::unique_lock<std::recursive_mutex>();
        auto &slot = t.by_stream[stream];
        if (!slot) slot = std::make_unique<std::recursive_mutex>();
        m = slot.get();
    }
    return std::unique_lock<std::recursive_mutex>(*m);
}

void stream_turn_exempt(const stream_t *stream) {
    turns_t &t = turns();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.exempt.insert(stream);
}

void stream_turn_forget(const stream_t *stream) {
    turns_t &t = turns();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.by_stream.erase(stream);
    t.exempt.erase(stream);
}

} // namespace anydnn
