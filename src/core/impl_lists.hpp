// The implementation lists engines hand to primitive descriptor creation: the CPU engine's
// and the GPU one, which every GPU runtime (OpenCL, Level Zero) serves since their kernels
// reach the device through the compute interface. Both are expanded from one table,
// core/impl_registry.def (by src/cpu/impl_list.cpp and src/gpu/impl_list.cpp); runtimes ask
// for them here, never from each other.
#pragma once

#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace anydnn {

struct impl_entry_t;

// Ordered implementations of one primitive kind; the first that accepts wins.
const std::vector<impl_entry_t> &cpu_impl_list(dnnl_primitive_kind_t kind);
const std::vector<impl_entry_t> &gpu_impl_list(dnnl_primitive_kind_t kind);

} // namespace anydnn
