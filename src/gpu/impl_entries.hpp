// Every GPU implementation's list entry, defined next to the implementation it names.
#pragma once

#include "core/primitive_desc.hpp"

namespace anydnn {
namespace gpu {

impl_entry_t eltwise_entry(); // gpu/eltwise/eltwise.cpp

} // namespace gpu
} // namespace anydnn
