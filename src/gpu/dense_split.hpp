// A dense tensor seen as [outer, kept, inner]: the dims an operation keeps (a reduction's dst
// dims, PReLU's weights) contiguous in memory order between the dims it folds away. The
// shape of the bandwidth reduction kernels (reduction/reduction_dense.cl, prelu_dense.cl).
#pragma once

#include <cstdint>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct dense_split_t {
    int64_t outer = 1, kept = 1, inner = 1;
    // For each logical dim, the stride of its index in the kept position b (0: not kept), so
    // that idx[d] = b / kept_stride[d] % dims[d].
    int64_t kept_stride[DNNL_MAX_NDIMS] = {};
};

// False unless md is plain and dense without padding (its strides order the dims) and the
// dims with keep[d] and size above 1 sit together in that order.
bool split_dense(const memory_desc_t &md, const bool *keep, dense_split_t &s);

// kept_stride as a long8 kernel argument.
void add_kept_strides(kernel_args_t &args, const dense_split_t &s);

} // namespace gpu
} // namespace anydnn
