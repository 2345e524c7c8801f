// Built OpenCL programs, cached in memory (per engine) and on disk (across processes).
// Disk key: source, build options, device, driver and library versions. The directory is
// ONEDNN_KERNEL_CACHE_DIR (default ~/.cache/anydnn/kernels); "off" disables the disk cache.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/ocl/cl_api.hpp"
#include "core/status.hpp"

namespace anydnn {
namespace ocl {

struct ocl_engine_t;

// A built program for `source` + `options` on the engine's device; the caller gets its own
// reference (release with clReleaseProgram). With `from_ptx`, `source` is PTX text, loaded as
// the program binary (dnnl_unimplemented where the device refuses it).
status_t get_program(ocl_engine_t *engine, const char *source, const std::string &options,
        cl_program *program, bool from_ptx = false);

// Builds `source` with `options` for `device`, in a context made for it and released after,
// and gives its binary (CL_PROGRAM_BINARIES): no cache. The Level Zero runtime takes it as a
// native module of the device of the same name (runtime/ze/ze_module.cpp).
status_t build_binary(cl_device_id device, const char *source, const std::string &options,
        std::vector<unsigned char> &binary);

// Engine cache blobs: the binaries of the programs built on an engine so far, and a blob id
// naming the device, driver and library they are valid for.
std::string cache_blob_id(cl_device_id device);
status_t export_programs(ocl_engine_t *engine, std::string &blob);
// Loads the programs of `blob` into the engine's in-memory cache; fails on a foreign blob.
status_t import_programs(ocl_engine_t *engine, const uint8_t *blob, size_t size);

// Forgets the in-memory programs of an engine that is going away.
void program_cache_drop_engine(uint64_t engine_id);

// Counters for tests and benchmarks: programs built from source, loaded from disk.
struct program_cache_stats_t {
    int built = 0, loaded = 0, memory_hits = 0;
};
program_cache_stats_t program_cache_stats();

} // namespace ocl
} // namespace anydnn
