// The tuning override: ANYDNN_GPU_TUNING holds sections separated by ';', each "OP:fields"
// ("gemm:variant=fma_8x8,kt=16;wgmma:config=128x64s4p1,splits=3"); a section without an
// "OP:" prefix is the GEMM's.
#pragma once

#include <string>

namespace anydnn {
namespace gpu {

// The fields of `op`'s section (without its prefix); empty when there is none.
std::string tuning_override(const char *op);

} // namespace gpu
} // namespace anydnn
