// Helpers for the C entry points: argument checks and the guard that keeps exceptions
// from crossing the C ABI.
#pragma once

#include <cstring>
#include <new>

#include "core/object.hpp"
#include "core/status.hpp"

namespace anydnn {

// Runs the body of an entry point; an escaping exception becomes a status.
template <typename F>
dnnl_status_t guarded(const char *where, F &&body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        return fail(dnnl_out_of_memory, where, "out of memory");
    } catch (...) {
        return fail(dnnl_runtime_error, where, "unexpected internal exception");
    }
}

// C callers can pass any int where an enum is expected: read such arguments as plain ints
// (loading an out-of-range enum value is undefined in C++) and check them before use.
template <typename E>
int raw_value(const E &e) {
    static_assert(sizeof(E) == sizeof(int), "an enum of int size");
    int v;
    std::memcpy(&v, &e, sizeof(v));
    return v;
}

} // namespace anydnn

// The handle must be a live object of that kind (not null, not destroyed).
#define ANYDNN_REQUIRE_LIVE(kind, p) \
    ANYDNN_REQUIRE(anydnn::registry_contains(anydnn::object_kind::kind, (p)), \
            dnnl_invalid_arguments, "%s is null or not a live " #kind, #p)

#define ANYDNN_REQUIRE_NOT_NULL(p) \
    ANYDNN_REQUIRE((p) != nullptr, dnnl_invalid_arguments, "%s is null", #p)

// Attributes a primitive descriptor may be created with: the user's own, or those returned by
// dnnl_primitive_desc_get_attr.
#define ANYDNN_REQUIRE_READABLE_ATTR(p) \
    ANYDNN_REQUIRE(anydnn::registry_contains(anydnn::object_kind::attr, (p)) \
                    || anydnn::registry_contains(anydnn::object_kind::attr_view, (p)), \
            dnnl_invalid_arguments, "%s is not a live primitive attribute", #p)
