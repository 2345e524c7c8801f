// CPU instruction-set detection and the user's cap on it (dnnl_set_max_cpu_isa,
// ONEDNN_MAX_CPU_ISA). Kernels ask `isa_enabled` before choosing a vector width.
#pragma once

#include "core/status.hpp"

namespace anydnn {
namespace cpu {

dnnl_cpu_isa_t detected_isa(); // what the processor supports
// min(detected, cap). The first call fixes the cap: later set_max_isa calls fail.
dnnl_cpu_isa_t effective_isa();
status_t set_max_isa(unsigned isa); // a dnnl_cpu_isa_t value, checked
// ISA values are nested bit masks: `isa` is usable when all its bits are effective.
bool isa_enabled(dnnl_cpu_isa_t isa);

dnnl_cpu_isa_hints_t isa_hints();
status_t set_isa_hints(unsigned hints); // a dnnl_cpu_isa_hints_t value, checked

} // namespace cpu
} // namespace anydnn
