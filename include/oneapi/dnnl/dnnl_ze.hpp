// anydnn: Level Zero interoperability C++ API (oneDNN v3.13 compatible): the dnnl_ze.h calls
// as functions of namespace dnnl::ze_interop that throw dnnl::error.
#ifndef ONEAPI_DNNL_DNNL_ZE_HPP
#define ONEAPI_DNNL_DNNL_ZE_HPP

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ze.h"

namespace dnnl {
namespace ze_interop {

inline std::vector<uint8_t> get_engine_cache_blob_id(
        ze_driver_handle_t driver, ze_device_handle_t device) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob_id(driver, device, &size, nullptr),
            "could not query the size of an engine cache blob id");
    std::vector<uint8_t> id(size);
    error::wrap_c_api(
            dnnl_ze_interop_engine_get_cache_blob_id(driver, device, &size, id.data()),
            "could not get an engine cache blob id");
    return id;
}

inline std::vector<uint8_t> get_engine_cache_blob(const engine &aengine) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob(aengine.get(), &size, nullptr),
            "could not query the size of an engine cache blob");
    std::vector<uint8_t> blob(size);
    error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob(aengine.get(), &size, blob.data()),
            "could not get an engine cache blob");
    return blob;
}

inline engine make_engine(ze_driver_handle_t driver, ze_device_handle_t device,
        ze_context_handle_t context, const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_create_from_cache_blob(&e, driver, device,
                              context, cache_blob.size(), cache_blob.data()),
            "could not create an engine from a cache blob");
    return engine(e);
}

inline engine make_engine(
        ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_create(&e, driver, device, context),
            "could not create a Level Zero engine");
    return engine(e);
}

inline ze_context_handle_t get_context(const engine &aengine) {
    ze_context_handle_t context = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_context(aengine.get(), &context),
            "could not get the context of an engine");
    return context;
}

inline ze_device_handle_t get_device(const engine &aengine) {
    ze_device_handle_t device = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_device(aengine.get(), &device),
            "could not get the device of an engine");
    return device;
}

inline ze_driver_handle_t get_driver(const engine &aengine) {
    ze_driver_handle_t driver = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_driver(aengine.get(), &driver),
            "could not get the driver of an engine");
    return driver;
}

inline stream make_stream(
        const engine &aengine, ze_command_list_handle_t list, bool profiling = false) {
    dnnl_stream_t s = nullptr;
    error::wrap_c_api(
            dnnl_ze_interop_stream_create(&s, aengine.get(), list, profiling ? 1 : 0),
            "could not create a stream over a command list");
    return stream(s);
}

inline ze_command_list_handle_t get_list(const stream &astream) {
    ze_command_list_handle_t list = nullptr;
    error::wrap_c_api(dnnl_ze_interop_stream_get_list(astream.get(), &list),
            "could not get the command list of a stream");
    return list;
}

// No handles: every buffer the descriptor needs is allocated (and owned) by the library.
inline memory make_memory(const memory::desc &md, const engine &aengine,
        std::vector<void *> handles = {}) {
    if (handles.empty()) handles.assign(md.get_num_handles(), DNNL_MEMORY_ALLOCATE);
    dnnl_memory_t m = nullptr;
    error::wrap_c_api(dnnl_ze_interop_memory_create(&m, md.get(), aengine.get(),
                              static_cast<int>(handles.size()), handles.data()),
            "could not create a memory over USM");
    return memory(m);
}

inline memory make_memory(const memory::desc &md, const engine &aengine, void *handle) {
    return make_memory(md, aengine, std::vector<void *> {handle});
}

inline ze_event_handle_t execute(const primitive &aprimitive, const stream &astream,
        const std::unordered_map<int, memory> &args,
        const std::vector<ze_event_handle_t> &deps = {}) {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &a : args) c_args.push_back({a.first, a.second.get()});
    ze_event_handle_t done = nullptr;
    error::wrap_c_api(dnnl_ze_interop_primitive_execute(aprimitive.get(), astream.get(),
                              static_cast<int>(c_args.size()), c_args.data(),
                              static_cast<int>(deps.size()),
                              deps.empty() ? nullptr : deps.data(), &done),
            "could not execute a primitive");
    return done;
}

} // namespace ze_interop
} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_ZE_HPP
