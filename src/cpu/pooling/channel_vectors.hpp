// Layouts the AVX-512 pooling kernels walk 16 channels at a time: nCx16c-style blocks
// (aBx16b) or channels-last (axb), as element strides from which any chunk is addressed.
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace pooling {

// Element offsets in a channels-innermost layout: (n, chunk of 16 channels from c0, z, y, x).
struct cv_layout_t {
    dim_t off0 = 0, sn = 0, sc = 0, sz = 0, sy = 0, sx = 0;
    dim_t blk = 1; // 16: aBx16b (sc steps a block), 1: axb (sc is 1)
    dim_t at(dim_t n, dim_t c0, dim_t z, dim_t y, dim_t x) const {
        return off0 + n * sn + (c0 / blk) * sc + z * sz + y * sy + x * sx;
    }
    // Elements from one chunk of 16 channels to the next.
    dim_t chunk_step() const { return blk == 16 ? sc : 16; }
};

// Whether md keeps 16 channels contiguous at every chunk start, and its strides.
bool cv_layout(const memory_desc_t &md, cv_layout_t &l);

} // namespace pooling
} // namespace cpu
} // namespace anydnn
