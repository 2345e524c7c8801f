// Zero padding of blocked memory: the elements a blocked layout holds past the logical
// dimensions (a 17-channel tensor in nChw16c holds 32) must read as zero, as primitives rely
// on. dnnl_memory_set_data_handle writes them, as oneDNN documents it may.
#pragma once

#include "core/memory.hpp"

namespace anydnn {

// Zeroes the padding of a blocked md in storage s through the storage's host map; does
// nothing for a layout without padding, a sparse or sub-byte one, or a null handle.
status_t zero_pad(const memory_desc_t &md, memory_storage_t &s);

} // namespace anydnn
