#include "core/object.hpp"

#include <mutex>
#include <unordered_set>

namespace anydnn {

namespace {
struct registry_t {
    std::mutex mutex;
    std::unordered_set<const void *> live[static_cast<int>(object_kind::graph_object) + 1];
};

registry_t &registry() {
    // Never destroyed: objects may be released from static destructors of user code.
    static registry_t *r = new registry_t;
    return *r;
}
} // namespace

void registry_add(object_kind kind, const void *p) {
    auto &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.live[static_cast<int>(kind)].insert(p);
}

void registry_remove(object_kind kind, const void *p) {
    auto &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.live[static_cast<int>(kind)].erase(p);
}

bool registry_contains(object_kind kind, const void *p) {
    if (!p) return false;
    auto &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.live[static_cast<int>(kind)].count(p) != 0;
}

} // namespace anydnn
