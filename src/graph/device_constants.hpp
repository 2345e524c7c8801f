// Constant tensors (quantization scales and zero points) of a partition compiled for a GPU
// engine: the primitives read device memory, so each constant gets a place in the temporary
// area and a first step copies the host data there on the execution's stream.
#pragma once

#include "graph/compiled_partition.hpp"

namespace anydnn {
namespace graph {

// Moves every constant storage of `impl` into its temporary area and puts the upload step
// before the others. Nothing changes when there is no constant.
void upload_constants_first(compiled_impl_t &impl);

} // namespace graph
} // namespace anydnn
