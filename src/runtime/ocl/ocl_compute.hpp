// The OpenCL side of the GPU compute interface (core/compute/compute.hpp), behind
// ocl_engine_t's compute_engine_t.
#pragma once

#include <memory>
#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace ocl {

struct ocl_engine_t;

status_t create_kernel(ocl_engine_t *engine, const char *source_name,
        const std::string &options, const char *name, std::shared_ptr<gpu::kernel_t> &kernel);
status_t create_ptx_kernel(
        ocl_engine_t *engine, const char *name, std::shared_ptr<gpu::kernel_t> &kernel);
gpu::device_caps_t device_caps(ocl_engine_t *engine);
status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
        const void *host, size_t bytes);
status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
        size_t offset, size_t bytes);

} // namespace ocl
} // namespace anydnn
