// A dense tensor seen as [batch, outer, kept, inner]: the dims an operation keeps (a
// reduction's dst dims, PReLU's weights) in at most two runs of memory order (batch and kept),
// the dims it folds away between and after them (outer, inner). The shape of the bandwidth
// reduction kernels (reduction/reduction_dense.cl, prelu_dense.cl).
#pragma once

#include <cstdint>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct dense_split_t {
    int64_t batch = 1, outer = 1, kept = 1, inner = 1;
    // For each logical dim, the stride of its index in the kept position (batch index * kept
    // + kept index; 0: not kept), so that idx[d] = position / kept_stride[d] % dims[d].
    int64_t kept_stride[DNNL_MAX_NDIMS] = {};
};

// False unless md is plain and dense without padding (its strides order the dims) and the
// dims with keep[d] and size above 1 form at most two runs in that order.
bool split_dense(const memory_desc_t &md, const bool *keep, dense_split_t &s);

// kept_stride as a long8 kernel argument.
void add_kept_strides(kernel_args_t &args, const dense_split_t &s);

} // namespace gpu
} // namespace anydnn
