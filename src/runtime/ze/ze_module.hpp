// Level Zero modules built from our OpenCL C sources, one per (source, build options), cached
// in memory per engine and on disk across processes as native binaries, like OpenCL programs
// (runtime/binary_cache.hpp). A build offers the driver SPIR-V compiled at build time where
// there is one for the source and options (gpu::kernel_spirv), else a native binary built by
// OpenCL on the device of the same name, else (no such OpenCL device) the OpenCL C source
// (ZE_MODULE_FORMAT_OCLC).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/ze/ze_api.hpp"

namespace anydnn {
namespace ze {

struct ze_engine_t;

// Destroyed when the last kernel made from it and the engine's cache let go of it.
struct ze_module_t {
    explicit ze_module_t(ze_module_handle_t h) : handle(h) {}
    ~ze_module_t();
    ze_module_t(const ze_module_t &) = delete;
    ze_module_t &operator=(const ze_module_t &) = delete;
    ze_module_handle_t handle;
};

status_t get_module(ze_engine_t *engine, const char *source_name, const std::string &options,
        std::shared_ptr<ze_module_t> &module);

// Engine cache blobs: the native binaries of the modules built on an engine so far, after
// the engine's cache blob id. import fails on a blob of another device, driver or library.
status_t export_modules(ze_engine_t *engine, std::string &blob);
status_t import_modules(ze_engine_t *engine, const uint8_t *blob, size_t size);

// Forgets the modules of an engine that is going away.
void module_cache_drop_engine(uint64_t engine_id);

// Counters for tests: modules built from SPIR-V, an OpenCL binary or source, loaded from disk
// or a blob.
struct module_cache_stats_t {
    int built_spirv = 0, built_native = 0, built_source = 0, loaded = 0, memory_hits = 0;
};
module_cache_stats_t module_cache_stats();

} // namespace ze
} // namespace anydnn
