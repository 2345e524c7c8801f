// The only door to the library under test: its public C API, owned handles, and late-bound
// entry points for operations a library may not have (an older oneDNN, a growing anydnn).
#pragma once

#include <dlfcn.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "oneapi/dnnl/dnnl.h"

namespace benchdnn {

// A library call failed where the tester cannot go on (not a property of the problem).
struct dnnl_error : std::runtime_error {
    dnnl_status_t status;
    dnnl_error(dnnl_status_t s, const std::string &what) : std::runtime_error(what), status(s) {}
};

const char *status_name(dnnl_status_t s);

#define BENCHDNN_CHECK(call) \
    do { \
        dnnl_status_t s_ = (call); \
        if (s_ != dnnl_success) \
            throw ::benchdnn::dnnl_error(s_, std::string(#call) + ": " + status_name(s_)); \
    } while (0)

// Looks an entry point up at run time: nullptr when the library does not export it. The
// declaration from the header fixes the type; no link-time reference is made.
template <typename F>
F api_entry(const char *name) {
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}
#define BENCHDNN_API(fn) (::benchdnn::api_entry<decltype(&fn)>(#fn))

// An entry point the problem cannot do without; a library that lacks it (an older oneDNN)
// makes the problem UNIMPLEMENTED, not FAILED.
struct missing_entry_error : dnnl_error {
    explicit missing_entry_error(const char *name)
        : dnnl_error(dnnl_unimplemented, std::string("library has no ") + name) {}
};
template <typename F>
F require_entry(F f, const char *name) {
    if (!f) throw missing_entry_error(name);
    return f;
}
#define BENCHDNN_REQUIRE_API(fn) (::benchdnn::require_entry(BENCHDNN_API(fn), #fn))

// Move-only owner of one C handle.
template <typename T, dnnl_status_t (*destroy)(T)>
class handle_t {
public:
    handle_t() = default;
    explicit handle_t(T h) : h_(h) {}
    handle_t(const handle_t &) = delete;
    handle_t &operator=(const handle_t &) = delete;
    handle_t(handle_t &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    handle_t &operator=(handle_t &&o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    ~handle_t() { reset(); }
    void reset(T h = nullptr) {
        if (h_) destroy(h_);
        h_ = h;
    }
    T get() const { return h_; }
    T *out() {
        reset();
        return &h_;
    }
    explicit operator bool() const { return h_ != nullptr; }

private:
    T h_ = nullptr;
};

using engine_h = handle_t<dnnl_engine_t, dnnl_engine_destroy>;
using stream_h = handle_t<dnnl_stream_t, dnnl_stream_destroy>;
using memory_h = handle_t<dnnl_memory_t, dnnl_memory_destroy>;
using md_h = handle_t<dnnl_memory_desc_t, dnnl_memory_desc_destroy>;
using pd_h = handle_t<dnnl_primitive_desc_t, dnnl_primitive_desc_destroy>;
using prim_h = handle_t<dnnl_primitive_t, dnnl_primitive_destroy>;
using attr_h = handle_t<dnnl_primitive_attr_t, dnnl_primitive_attr_destroy>;
using post_ops_h = handle_t<dnnl_post_ops_t, dnnl_post_ops_destroy>;

} // namespace benchdnn
