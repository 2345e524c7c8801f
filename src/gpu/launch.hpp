// Small pieces every GPU implementation's host code uses: checking tensors kernels can
// address, binding memory and layouts as kernel arguments, 1D launch ranges.
#pragma once

#include <initializer_list>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"
#include "gpu/kernel_layout.hpp"

namespace anydnn {
namespace gpu {

// dnnl_unimplemented unless each tensor's type and layout are ones kernels handle.
status_t check_tensors(std::initializer_list<const memory_desc_t *> mds);
// Whether all tensors share one dense layout without padding (flat kernels apply).
bool same_dense_layout(std::initializer_list<const memory_desc_t *> mds);

// The storage of argument `arg` (null when absent or empty).
const memory_storage_t *storage_of(const exec_ctx_t &ctx, int arg);
// A tensor's layout as a by-value argument (the md was checked by check_tensors).
void add_layout(kernel_args_t &args, const memory_desc_t &md);
// The logical (unpadded) dimensions as a long8 argument (unused entries 1).
void add_logical_dims(kernel_args_t &args, const memory_desc_t &md);

// n work-items in groups the device handles well.
nd_range_t range_1d(size_t n);

} // namespace gpu
} // namespace anydnn
