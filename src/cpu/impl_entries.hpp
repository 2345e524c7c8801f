// Every CPU implementation's list entry, defined next to the implementation it names.
#pragma once

#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {

} // namespace cpu
} // namespace anydnn
