// Reference counting and handle validation shared by every public object.
// Each C handle is registered while alive, so a destroyed or foreign handle passed to the
// API is answered with dnnl_invalid_arguments instead of being dereferenced.
#pragma once

#include <atomic>

namespace anydnn {

enum class object_kind {
    engine, stream, memory, memory_desc, primitive_desc, primitive, attr, post_ops,
    attr_view, // the attributes inside a primitive descriptor: readable, not destroyable
    graph_object,
};

void registry_add(object_kind kind, const void *p);
void registry_remove(object_kind kind, const void *p);
bool registry_contains(object_kind kind, const void *p);

// Objects that other objects keep alive (engines: memory, streams and primitives hold one).
class ref_counted_t {
public:
    void retain() const { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() const {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

protected:
    virtual ~ref_counted_t() = default;

private:
    mutable std::atomic<int> refs_ {1};
};

} // namespace anydnn
