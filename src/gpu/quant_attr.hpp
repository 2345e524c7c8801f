// What GPU kernels accept of an attribute's scales and zero points, and the build options
// naming the scales' types.
#pragma once

#include <string>

#include "core/primitive.hpp"

namespace anydnn {
namespace gpu {

// GPU kernels read scales as f32 (or also bf16/f16 with `half_scales`: kernels that load them
// through the typed loaders) and zero points as s32 from device memory: other types and host
// scalars are dnnl_unimplemented.
// With `host_scales`, scales may also be host scalars (the GEMM takes them by value).
status_t check_quant_attr(
        const primitive_attr_t &attr, bool half_scales = false, bool host_scales = false);

// Build options naming the types of the src and dst scales that are not f32 (SRC_SCALE,
// DST_SCALE of cl/scales.h); none for f32, so those builds keep their options.
std::string scale_type_options(const primitive_attr_t &attr);

} // namespace gpu
} // namespace anydnn
