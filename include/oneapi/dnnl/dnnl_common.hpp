/* anydnn: C++ wrappers shared by the primitive and graph APIs (engine,
 * stream, errors, handles). Header-only, C++11, over dnnl_common.h. */

#ifndef ONEAPI_DNNL_DNNL_COMMON_HPP
#define ONEAPI_DNNL_DNNL_COMMON_HPP

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl_common.h"

#ifndef DNNL_ENABLE_EXCEPTIONS
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define DNNL_ENABLE_EXCEPTIONS 1
#else
#define DNNL_ENABLE_EXCEPTIONS 0
#endif
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define DNNL_TRAP() __debugbreak()
#else
#define DNNL_TRAP() __builtin_trap()
#endif

// Without exceptions a failed call prints its reason and stops the program.
#if DNNL_ENABLE_EXCEPTIONS
#define DNNL_THROW_ERROR(status, msg) throw error(status, msg)
#else
#include <cstdio>
#define DNNL_THROW_ERROR(status, msg) \
    do { \
        std::fprintf(stderr, "%s\n", (msg)); \
        DNNL_TRAP(); \
    } while (0)
#endif

namespace dnnl {

/// A failed C API call: its status and a static description.
struct error : public std::exception {
    dnnl_status_t status;
    const char *message;

    error(dnnl_status_t status, const char *message)
        : status(status), message(message) {}

    const char *what() const noexcept override { return message; }

    static void wrap_c_api(dnnl_status_t status, const char *message) {
        if (status == dnnl_success) return;
        DNNL_THROW_ERROR(status, message);
    }
};

template <typename T>
struct handle_traits {};

/// Reference-counted owner of a C handle; a weak handle never destroys it.
template <typename T, typename traits = handle_traits<T>>
struct handle {
private:
    using object_type = typename std::remove_pointer<T>::type;

    static dnnl_status_t keep_alive(T) { return dnnl_success; }

    std::shared_ptr<object_type> ptr_;

protected:
    bool operator==(const T other) const { return ptr_.get() == other; }
    bool operator!=(const T other) const { return ptr_.get() != other; }

public:
    handle() = default;
    handle(const handle<T, traits> &) = default;
    handle(handle<T, traits> &&) = default;
    handle<T, traits> &operator=(const handle<T, traits> &) = default;
    handle<T, traits> &operator=(handle<T, traits> &&) = default;

    explicit handle(T t, bool weak = false) { reset(t, weak); }

    void reset(T t, bool weak = false) {
        if (t == nullptr)
            ptr_.reset();
        else if (weak)
            ptr_.reset(t, &handle::keep_alive);
        else
            ptr_.reset(t, &traits::destructor);
    }

    T get(bool allow_empty = false) const {
        T raw = ptr_.get();
        if (raw == nullptr && !allow_empty)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: operation on an empty (uninitialized) object");
        return raw;
    }

    explicit operator T() const { return get(true); }
    explicit operator bool() const { return ptr_.get() != nullptr; }

    bool operator==(const handle<T, traits> &other) const {
        return ptr_.get() == other.ptr_.get();
    }
    bool operator!=(const handle &other) const { return !(*this == other); }
};

template <>
struct handle_traits<dnnl_engine_t> {
    static dnnl_status_t destructor(dnnl_engine_t p) {
        return dnnl_engine_destroy(p);
    }
};

/// A device that primitives are created for and run on.
struct engine : public handle<dnnl_engine_t> {
    friend struct primitive;
    friend struct reorder;

    enum class kind {
        any = dnnl_any_engine,
        cpu = dnnl_cpu,
        gpu = dnnl_gpu,
    };

    using handle::handle;

    engine() = default;

    engine(kind akind, size_t index) {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_engine_create(&c_engine,
                                  static_cast<dnnl_engine_kind_t>(akind), index),
                "anydnn: could not create an engine");
        reset(c_engine);
    }

    static size_t get_count(kind akind) {
        return dnnl_engine_get_count(static_cast<dnnl_engine_kind_t>(akind));
    }

    kind get_kind() const {
        dnnl_engine_kind_t c_kind = dnnl_any_engine;
        error::wrap_c_api(dnnl_engine_get_kind(get(), &c_kind),
                "anydnn: could not query the engine kind");
        return static_cast<kind>(c_kind);
    }
};

inline dnnl_engine_kind_t convert_to_c(engine::kind akind) {
    return static_cast<dnnl_engine_kind_t>(akind);
}

template <>
struct handle_traits<dnnl_stream_t> {
    static dnnl_status_t destructor(dnnl_stream_t p) {
        return dnnl_stream_destroy(p);
    }
};

/// An execution queue on one engine.
struct stream : public handle<dnnl_stream_t> {
    enum class flags : unsigned {
        in_order = dnnl_stream_in_order,
        out_of_order = dnnl_stream_out_of_order,
        default_flags = dnnl_stream_default_flags,
#ifdef DNNL_EXPERIMENTAL_PROFILING
        profiling = dnnl_stream_profiling,
#endif
    };

    using handle::handle;

    stream() = default;

    explicit stream(
            const engine &aengine, flags aflags = flags::default_flags) {
        dnnl_stream_t c_stream = nullptr;
        error::wrap_c_api(dnnl_stream_create(&c_stream, aengine.get(),
                                  static_cast<unsigned>(aflags)),
                "anydnn: could not create a stream");
        reset(c_stream);
    }

    engine get_engine() const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_stream_get_engine(get(), &c_engine),
                "anydnn: could not query the engine of a stream");
        return engine(c_engine, true);
    }

    stream &wait() {
        error::wrap_c_api(
                dnnl_stream_wait(get()), "anydnn: could not wait on a stream");
        return *this;
    }
};

// Bitwise operators for a flags enum class whose underlying type is unsigned.
#define DNNL_DEFINE_BITMASK_OPS(enum_name) \
    inline enum_name operator|(enum_name a, enum_name b) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(a) | static_cast<unsigned>(b)); \
    } \
    inline enum_name operator&(enum_name a, enum_name b) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(a) & static_cast<unsigned>(b)); \
    } \
    inline enum_name operator^(enum_name a, enum_name b) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(a) ^ static_cast<unsigned>(b)); \
    } \
    inline enum_name operator~(enum_name a) { \
        return static_cast<enum_name>(~static_cast<unsigned>(a)); \
    } \
    inline enum_name &operator|=(enum_name &a, enum_name b) { \
        return a = a | b; \
    } \
    inline enum_name &operator&=(enum_name &a, enum_name b) { \
        return a = a & b; \
    } \
    inline enum_name &operator^=(enum_name &a, enum_name b) { \
        return a = a ^ b; \
    }

DNNL_DEFINE_BITMASK_OPS(stream::flags)

enum class fpmath_mode {
    strict = dnnl_fpmath_mode_strict,
    bf16 = dnnl_fpmath_mode_bf16,
    f16 = dnnl_fpmath_mode_f16,
    tf32 = dnnl_fpmath_mode_tf32,
    any = dnnl_fpmath_mode_any,
};

inline dnnl_fpmath_mode_t convert_to_c(fpmath_mode mode) {
    return static_cast<dnnl_fpmath_mode_t>(mode);
}

enum class accumulation_mode {
    strict = dnnl_accumulation_mode_strict,
    relaxed = dnnl_accumulation_mode_relaxed,
    any = dnnl_accumulation_mode_any,
    s32 = dnnl_accumulation_mode_s32,
    f32 = dnnl_accumulation_mode_f32,
    f16 = dnnl_accumulation_mode_f16,
};

inline dnnl_accumulation_mode_t convert_to_c(accumulation_mode mode) {
    return static_cast<dnnl_accumulation_mode_t>(mode);
}

} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_COMMON_HPP
