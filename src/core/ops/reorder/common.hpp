// Checks and argument set-up shared by the CPU reorder implementations.
#pragma once

#include "core/ops/reorder/quant.hpp"
#include "core/primitive.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {
namespace cpu {
namespace reorder {

inline const reorder_desc_t &reorder_desc(const primitive_desc_t &pd) {
    return std::get<reorder_desc_t>(pd.desc);
}

// Data types the reorders convert between (f64, boolean, f8 and the 4-bit types only in the
// reference).
bool is_vector_type(dnnl_data_type_t dt);
bool is_ref_type(dnnl_data_type_t dt);

// Elements of the padded tensor (what a blocked buffer holds, gaps aside).
dim_t padded_nelems(const memory_desc_t &md);

// Both descriptors put every logical element at the same offset and leave no gaps, so the
// buffers can be walked as one flat array of padded_nelems elements.
bool same_dense_layout(const memory_desc_t &a, const memory_desc_t &b);

// Bytes of dst past which kernels write with non-temporal stores (half the last-level
// cache).
size_t streaming_threshold();

// Reads the attributes and declares src, dst and the quantization arrays in pd.args.
status_t init_args(primitive_desc_t &pd, quant_t &q);

// The descriptors passed at execution must describe the same logical tensor (they can differ
// from the pd's when it has run-time dimensions).
status_t check_exec_mds(const memory_desc_t &src, const memory_desc_t &dst);

} // namespace reorder
} // namespace cpu
} // namespace anydnn
