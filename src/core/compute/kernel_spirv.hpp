// SPIR-V of our OpenCL C programs whose build options are known at build time (listed in
// src/gpu/spirv_programs.txt), compiled by clang-15 + llvm-spirv-15 when the library is built
// (scripts/build_spirv.py). Other programs have options made at run time (data types, post-ops,
// device capabilities): those are built from OpenCL C source.
#pragma once

#include <cstddef>
#include <string>

namespace anydnn {
namespace gpu {

// The SPIR-V of `source_name` built with exactly `options`, if there is one.
bool kernel_spirv(const char *source_name, const std::string &options,
        const unsigned char **data, size_t *size);

} // namespace gpu
} // namespace anydnn
