#include "api/ukernel_handles.hpp"

#include <mutex>
#include <set>
#include <utility>

namespace anydnn {

namespace {
struct handles_t {
    std::mutex mutex;
    std::set<std::pair<int, const void *>> live;
};
handles_t &handles() {
    // Never destroyed: handles may be released from static destructors of user code.
    static handles_t *h = new handles_t;
    return *h;
}
} // namespace

void ukernel_handle_add(ukernel_handle kind, const void *p) {
    auto &h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    h.live.emplace(static_cast<int>(kind), p);
}

void ukernel_handle_remove(ukernel_handle kind, const void *p) {
    auto &h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    h.live.erase({static_cast<int>(kind), p});
}

bool ukernel_handle_live(ukernel_handle kind, const void *p) {
    if (!p) return false;
    auto &h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    return h.live.count({static_cast<int>(kind), p}) != 0;
}

} // namespace anydnn
