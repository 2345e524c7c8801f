// Every GPU implementation's list entry, declared from core/impl_registry.def; each is defined
// next to the implementation it names (the file the table's comment gives).
#pragma once

#include "core/primitive_desc.hpp"

namespace anydnn {
namespace gpu {

#define ANYDNN_CPU_IMPL(kind, name)
#define ANYDNN_GPU_IMPL(kind, name) impl_entry_t name##_entry();
#include "core/impl_registry.def"

} // namespace gpu
} // namespace anydnn
