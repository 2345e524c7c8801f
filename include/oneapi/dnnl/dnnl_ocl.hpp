// anydnn: OpenCL interoperability C++ API (oneDNN v3.13 compatible): the dnnl_ocl.h calls
// as functions of namespace dnnl::ocl_interop that throw dnnl::error.
#ifndef ONEAPI_DNNL_DNNL_OCL_HPP
#define ONEAPI_DNNL_DNNL_OCL_HPP

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace dnnl {
namespace ocl_interop {

enum class memory_kind {
    usm = dnnl_ocl_interop_usm,
    buffer = dnnl_ocl_interop_buffer,
};

inline dnnl_ocl_interop_memory_kind_t convert_to_c(memory_kind akind) {
    return static_cast<dnnl_ocl_interop_memory_kind_t>(akind);
}

inline std::vector<uint8_t> get_engine_cache_blob_id(cl_device_id device) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, nullptr),
            "could not query the size of an engine cache blob id");
    std::vector<uint8_t> id(size);
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, id.data()),
            "could not get an engine cache blob id");
    return id;
}

inline std::vector<uint8_t> get_engine_cache_blob(const engine &aengine) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(aengine.get(), &size, nullptr),
            "could not query the size of an engine cache blob");
    std::vector<uint8_t> blob(size);
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(aengine.get(), &size, blob.data()),
            "could not get an engine cache blob");
    return blob;
}

inline engine make_engine(
        cl_device_id device, cl_context context, const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_create_from_cache_blob(
                              &e, device, context, cache_blob.size(), cache_blob.data()),
            "could not create an engine from a cache blob");
    return engine(e);
}

inline engine make_engine(cl_device_id device, cl_context context) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_create(&e, device, context),
            "could not create an engine");
    return engine(e);
}

inline cl_context get_context(const engine &aengine) {
    cl_context context = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_context(aengine.get(), &context),
            "could not get the OpenCL context of an engine");
    return context;
}

inline cl_device_id get_device(const engine &aengine) {
    cl_device_id device = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_get_device(aengine.get(), &device),
            "could not get the OpenCL device of an engine");
    return device;
}

inline stream make_stream(const engine &aengine, cl_command_queue queue) {
    dnnl_stream_t s = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_stream_create(&s, aengine.get(), queue),
            "could not create a stream");
    return stream(s);
}

inline cl_command_queue get_command_queue(const stream &astream) {
    cl_command_queue queue = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_stream_get_command_queue(astream.get(), &queue),
            "could not get the OpenCL command queue of a stream");
    return queue;
}

inline cl_mem get_mem_object(const memory &amemory) {
    cl_mem mem = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_memory_get_mem_object(amemory.get(), &mem),
            "could not get the OpenCL buffer of a memory object");
    return mem;
}

inline void set_mem_object(memory &amemory, cl_mem mem_object) {
    error::wrap_c_api(dnnl_ocl_interop_memory_set_mem_object(amemory.get(), mem_object),
            "could not set the OpenCL buffer of a memory object");
}

inline memory_kind get_memory_kind(const memory &amemory) {
    dnnl_ocl_interop_memory_kind_t kind = dnnl_ocl_interop_buffer;
    error::wrap_c_api(dnnl_ocl_interop_memory_get_memory_kind(amemory.get(), &kind),
            "could not get the memory kind of a memory object");
    return static_cast<memory_kind>(kind);
}

// Memory of `kind` with one handle per buffer of the descriptor (all allocated when empty).
inline memory make_memory(const memory::desc &memory_desc, const engine &aengine,
        memory_kind kind, std::vector<void *> handles = {}) {
    if (handles.empty())
        handles.assign(static_cast<size_t>(memory_desc.get_num_handles()), DNNL_MEMORY_ALLOCATE);
    dnnl_memory_t m = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_memory_create_v2(&m, memory_desc.get(), aengine.get(),
                              convert_to_c(kind), static_cast<int>(handles.size()),
                              handles.data()),
            "could not create a memory object");
    return memory(m);
}

inline memory make_memory(const memory::desc &memory_desc, const engine &aengine,
        std::vector<cl_mem> mem_objects) {
    const int n = memory_desc.get_num_handles();
    memory m(memory_desc, aengine, std::vector<void *>(static_cast<size_t>(n), DNNL_MEMORY_NONE));
    for (int i = 0; i < n; ++i)
        m.set_data_handle(mem_objects[static_cast<size_t>(i)], i);
    return m;
}

inline memory make_memory(
        const memory::desc &memory_desc, const engine &aengine, memory_kind kind, void *handle) {
    return make_memory(memory_desc, aengine, kind, std::vector<void *> {handle});
}

inline memory make_memory(
        const memory::desc &memory_desc, const engine &aengine, cl_mem mem_object) {
    return make_memory(memory_desc, aengine, std::vector<cl_mem> {mem_object});
}

// Runs `aprimitive` after `deps`; the returned event is the caller's to release.
inline cl_event execute(const dnnl::primitive &aprimitive, const stream &astream,
        const std::unordered_map<int, memory> &args, const std::vector<cl_event> &deps = {}) {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &a : args) c_args.push_back({a.first, a.second.get()});
    cl_event done = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_primitive_execute(aprimitive.get(), astream.get(),
                              static_cast<int>(c_args.size()), c_args.data(),
                              deps.empty() ? nullptr : deps.data(), static_cast<int>(deps.size()),
                              &done),
            "could not execute a primitive");
    return done;
}

} // namespace ocl_interop
} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_OCL_HPP
