// What the wgmma flash kernels (flash_attention_sm90*.cu) share: the CTA's shape (two
// warpgroups of 64 query rows) and the cp.async load of rows into 128-byte-swizzled tiles
// that wgmma reads through descriptors.
#pragma once

#include "flash_common.cuh"
#include "flash_wgmma.cuh"

namespace anydnn_flash {

constexpr int WGS = 2, BM = 64 * WGS, THREADS = 128 * WGS, SW = 128; // 128-byte lines

// ROWS rows (from row0, valid below n; rows `ld` apart) of D elements into the tile at `base`:
// chunks of 64 elements, each ROWS lines of 128 bytes, swizzled; missing rows zero.
template <int ROWS, int D>
__device__ __forceinline__ void load_swizzled(uint32_t base, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
    constexpr int pieces = D / 8;
    static_assert(ROWS * pieces % THREADS == 0, "the tile splits evenly over the threads");
#pragma unroll
    for (int it = 0; it < ROWS * pieces / THREADS; ++it) {
        const int c = tid + it * THREADS;
        const int o = c / pieces, i = (c % pieces) * 8;
        const uint32_t off = (i / 64) * (ROWS * SW) + o * SW + (i % 64) * 2;
        const bool valid = row0 + o < n;
        cp_async16(base + swizzle128(off), g + (valid ? (row0 + o) * ld + i : 0), valid);
    }
}

} // namespace anydnn_flash
