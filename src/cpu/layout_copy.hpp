// Copies a tensor between two layouts of the same dimensions (through f32, exact for every
// type but s32 beyond 2^24): what a primitive uses to run on a layout of its own choosing.
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {

// Every logical element of `from` (at from_base) written to `to` (at to_base); offset0 of both
// applies. Padded elements of `to` are left alone.
void copy_layout(
        const memory_desc_t &from, const void *from_base, const memory_desc_t &to, void *to_base);

} // namespace cpu
} // namespace anydnn
