// A blocked memory descriptor seen the way reorder kernels walk it: the physical offset of a
// logical position is offset0 + sum over dims of a per-dimension term, which is what lets a
// kernel add offsets dimension by dimension instead of recomputing them per element.
#pragma once

#include <vector>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

struct layout_t {
    explicit layout_t(const memory_desc_t &md);

    // Offset contribution of coordinate x along dimension d (offset0 not included).
    dim_t dim_off(int d, dim_t x) const {
        if (blk[d] == 1) return x * strides[d];
        return x / blk[d] * strides[d] + inner[inner_start[d] + x % blk[d]];
    }

    // base + dim_off(d, x0 + k) for k in [0, n), walked without divisions.
    void row_offsets(int d, dim_t x0, int n, dim_t base, dim_t *out) const {
        if (blk[d] == 1) {
            for (int k = 0; k < n; ++k)
                out[k] = base + (x0 + k) * strides[d];
            return;
        }
        const dim_t *in = inner.data() + inner_start[d];
        dim_t r = x0 % blk[d], outer = base + x0 / blk[d] * strides[d];
        for (int k = 0; k < n; ++k) {
            out[k] = outer + in[r];
            if (++r == blk[d]) {
                r = 0;
                outer += strides[d];
            }
        }
    }

    int ndims;
    dim_t dims[max_ndims];
    dim_t padded[max_ndims];
    dim_t strides[max_ndims]; // outer strides
    dim_t blk[max_ndims];     // product of the inner blocks splitting each dimension
    dim_t offset0;
    // For each dimension d, blk[d] entries from inner_start[d]: the offset inside the inner
    // block of a coordinate whose remainder modulo blk[d] is the index.
    std::vector<dim_t> inner;
    int inner_start[max_ndims];
};

inline layout_t::layout_t(const memory_desc_t &md) : ndims(md.ndims), offset0(md.offset0) {
    const auto &b = md.blocking;
    // Stride of each inner block inside the innermost dense block.
    dim_t inner_stride[max_ndims];
    dim_t s = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        inner_stride[k] = s;
        s *= b.inner_blks[k];
    }
    for (int d = 0; d < ndims; ++d) {
        dims[d] = md.dims[d];
        padded[d] = md.padded_dims[d];
        strides[d] = b.strides[d];
        blk[d] = 1;
        for (int k = 0; k < b.inner_nblks; ++k)
            if (b.inner_idxs[k] == d) blk[d] *= b.inner_blks[k];
        inner_start[d] = static_cast<int>(inner.size());
        // Remainder r splits into one digit per block of d, outermost block most significant.
        for (dim_t r = 0; r < blk[d]; ++r) {
            dim_t off = 0, rest = r, radix = blk[d];
            for (int k = 0; k < b.inner_nblks; ++k) {
                if (b.inner_idxs[k] != d) continue;
                radix /= b.inner_blks[k];
                off += rest / radix * inner_stride[k];
                rest %= radix;
            }
            inner.push_back(off);
        }
    }
}

} // namespace reorder
} // namespace cpu
} // namespace anydnn
