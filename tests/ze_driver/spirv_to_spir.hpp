// SPIR-V for an OpenCL device that takes SPIR 1.2 but not SPIR-V (PoCL): llvm-spirv translates
// it back to LLVM bitcode, which the device builds as SPIR. The translator is
// ANYDNN_ZE_TEST_LLVM_SPIRV, else llvm-spirv-15 or llvm-spirv from PATH.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ze_driver {

bool spirv_translator_available();
// The highest SPIR-V version the translator reads (ZE_MAKE_VERSION).
uint32_t spirv_translator_version();
// False with the reason in `log` when the translation fails.
bool spirv_to_spir(
        const uint8_t *spirv, size_t size, std::vector<uint8_t> &bitcode, std::string &log);

} // namespace ze_driver
