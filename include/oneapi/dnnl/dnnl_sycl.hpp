// anydnn: SYCL interoperability C++ API (oneDNN v3.13 compatible): the dnnl_sycl.h calls as
// functions of namespace dnnl::sycl_interop that take and return SYCL objects and throw
// dnnl::error. Needs <sycl/sycl.hpp> (Intel's SYCL runtime headers; host code is enough).
#ifndef ONEAPI_DNNL_DNNL_SYCL_HPP
#define ONEAPI_DNNL_DNNL_SYCL_HPP

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <sycl/sycl.hpp>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_sycl.h"

namespace dnnl {
namespace sycl_interop {

enum class memory_kind {
    usm = dnnl_sycl_interop_usm,
    buffer = dnnl_sycl_interop_buffer,
};

inline dnnl_sycl_interop_memory_kind_t convert_to_c(memory_kind akind) {
    return static_cast<dnnl_sycl_interop_memory_kind_t>(akind);
}

inline engine make_engine(const sycl::device &adevice, const sycl::context &acontext) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_engine_create(&e, &adevice, &acontext),
            "could not create an engine");
    return engine(e);
}

inline sycl::context get_context(const engine &aengine) {
    void *context = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_engine_get_context(aengine.get(), &context),
            "could not get the SYCL context of an engine");
    return *static_cast<sycl::context *>(context);
}

inline sycl::device get_device(const engine &aengine) {
    void *device = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_engine_get_device(aengine.get(), &device),
            "could not get the SYCL device of an engine");
    return *static_cast<sycl::device *>(device);
}

inline stream make_stream(const engine &aengine, sycl::queue &aqueue) {
    dnnl_stream_t s = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_stream_create(&s, aengine.get(), &aqueue),
            "could not create a stream");
    return stream(s);
}

inline sycl::queue get_queue(const stream &astream) {
    void *queue = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_stream_get_queue(astream.get(), &queue),
            "could not get the SYCL queue of a stream");
    return *static_cast<sycl::queue *>(queue);
}

inline memory_kind get_memory_kind(const memory &amemory) {
    dnnl_sycl_interop_memory_kind_t kind = dnnl_sycl_interop_usm;
    error::wrap_c_api(dnnl_sycl_interop_memory_get_memory_kind(amemory.get(), &kind),
            "could not get the memory kind of a memory object");
    return static_cast<memory_kind>(kind);
}

// The memory's buffer seen as `ndims`-dimensional T elements: 1-D buffers get every whole
// element, others (n, 1, ..., 1), as reinterpret needs the same byte size.
template <typename T, int ndims = 1>
sycl::buffer<T, ndims> get_buffer(const memory &amemory) {
    static_assert(ndims >= 1 && ndims <= 3, "SYCL buffers have 1 to 3 dimensions");
    if (get_memory_kind(amemory) != memory_kind::buffer)
        error::wrap_c_api(dnnl_invalid_arguments, "the memory object holds USM, not a buffer");
    void *handle = nullptr;
    error::wrap_c_api(dnnl_memory_get_data_handle(amemory.get(), &handle),
            "could not get the buffer of a memory object");
    if (!handle) error::wrap_c_api(dnnl_invalid_arguments, "the memory object has no buffer");
    auto &bytes = *static_cast<sycl::buffer<uint8_t, 1> *>(handle);
    sycl::range<ndims> range;
    for (int d = 0; d < ndims; ++d)
        range[d] = 1;
    range[0] = bytes.byte_size() / sizeof(T);
    return bytes.template reinterpret<T, ndims>(range);
}

template <typename T, int ndims>
void set_buffer(memory &amemory, sycl::buffer<T, ndims> &abuffer) {
    auto bytes = abuffer.template reinterpret<uint8_t, 1>(sycl::range<1>(abuffer.byte_size()));
    error::wrap_c_api(dnnl_sycl_interop_memory_set_buffer(amemory.get(), &bytes),
            "could not set the buffer of a memory object");
}

// Memory of `kind` with one handle per buffer of the descriptor (all allocated when empty).
inline memory make_memory(const memory::desc &memory_desc, const engine &aengine,
        memory_kind kind, std::vector<void *> handles = {}) {
    if (handles.empty())
        handles.assign(static_cast<size_t>(memory_desc.get_num_handles()), DNNL_MEMORY_ALLOCATE);
    dnnl_memory_t m = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_memory_create_v2(&m, memory_desc.get(), aengine.get(),
                              convert_to_c(kind), static_cast<int>(handles.size()),
                              handles.data()),
            "could not create a memory object");
    return memory(m);
}

inline memory make_memory(
        const memory::desc &memory_desc, const engine &aengine, memory_kind kind, void *handle) {
    return make_memory(memory_desc, aengine, kind, std::vector<void *> {handle});
}

template <typename T, int ndims = 1>
memory make_memory(
        const memory::desc &memory_desc, const engine &aengine, sycl::buffer<T, ndims> &abuffer) {
    auto bytes = abuffer.template reinterpret<uint8_t, 1>(sycl::range<1>(abuffer.byte_size()));
    dnnl_memory_t m = nullptr;
    error::wrap_c_api(dnnl_sycl_interop_memory_create(&m, memory_desc.get(), aengine.get(),
                              dnnl_sycl_interop_buffer, &bytes),
            "could not create a memory object over a SYCL buffer");
    return memory(m);
}

// Runs `aprimitive` after `deps`; the returned event completes when it has.
inline sycl::event execute(const dnnl::primitive &aprimitive, const stream &astream,
        const std::unordered_map<int, memory> &args, const std::vector<sycl::event> &deps = {}) {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &a : args)
        c_args.push_back({a.first, a.second.get()});
    sycl::event done;
    error::wrap_c_api(dnnl_sycl_interop_primitive_execute(aprimitive.get(), astream.get(),
                              static_cast<int>(c_args.size()), c_args.data(), &deps, &done),
            "could not execute a primitive");
    return done;
}

} // namespace sycl_interop
} // namespace dnnl

#endif
