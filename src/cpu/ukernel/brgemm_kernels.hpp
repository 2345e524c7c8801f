// The brgemm kernels of the CPU engine that brgemm_generate chooses from (first that applies).
#pragma once

#include "core/ukernel.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

// Each: nullptr when it does not apply to c.
brgemm_kernel_fn brgemm_f32_avx512(const brgemm_conf_t &c);
brgemm_kernel_fn brgemm_bf16_avx512(const brgemm_conf_t &c);
brgemm_kernel_fn brgemm_int8_vnni(const brgemm_conf_t &c);
// Any supported type and layout, any ISA.
brgemm_kernel_fn brgemm_generic(const brgemm_conf_t &c);

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
