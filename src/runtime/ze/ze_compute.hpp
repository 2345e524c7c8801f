// The Level Zero side of the GPU compute interface (core/compute/compute.hpp), behind
// ze_engine_t's compute_engine_t: kernels from modules of our OpenCL C sources, launched on a stream's
// immediate command list; host <-> device copies on it.
#pragma once

#include <memory>
#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace ze {

struct ze_engine_t;

status_t create_kernel(ze_engine_t *engine, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel);
gpu::device_caps_t device_caps(ze_engine_t *engine);
// Copies between `host` and `storage` (from byte `offset`) on the stream's list; returns once
// the host side has been read or written.
status_t transfer(stream_t *stream, const memory_storage_t *storage, size_t offset, void *host,
        size_t bytes, bool to_device);

} // namespace ze
} // namespace anydnn
