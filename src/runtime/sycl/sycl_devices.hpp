// dnnl_gpu engines on SYCL devices (ANYDNN_GPU_RUNTIME=sycl), for programs and tools that
// create engines by kind and index, as oneDNN's SYCL build does. Free of SYCL headers so
// that src/api/engine.cpp can call it (in DNNL_WITH_SYCL builds only).
#pragma once

#include <cstddef>

#include "core/engine.hpp"

namespace anydnn {
namespace sycl_rt {

// Whether ANYDNN_GPU_RUNTIME=sycl makes dnnl_gpu engines SYCL ones.
bool gpu_runtime_is_sycl();
// The SYCL devices on SYCL's OpenCL backend: GPUs when there are any, else accelerators,
// else CPUs (as the OpenCL engines choose).
size_t engine_count();
// An engine on device `index` in a context of its own.
status_t create_engine(engine_t **engine, size_t index);

} // namespace sycl_rt
} // namespace anydnn
