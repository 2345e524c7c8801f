// Layout questions CPU implementations share: deriving a dst layout from a source's, comparing
// layouts, splitting a tensor into runs along one axis, broadcast patterns over flat dense
// data, and zeroing the padding of blocked outputs.
#pragma once

#include <algorithm>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {

// A dense layout with `pattern`'s dimension order and inner blocks for other dims and data
// type (row-major when pattern is not a blocked layout of the same rank). Extent-one
// dimensions of pattern go inside the others that share their stride.
memory_desc_t md_like(const memory_desc_t &pattern, int ndims, const dim_t *dims,
        dnnl_data_type_t dt);

// Same element placement: dims, padding, blocks and the strides that matter agree
// (data type and offset0 may differ).
bool same_layout(const memory_desc_t &a, const memory_desc_t &b);

// Blocked, no padding and no gaps: element i of the physical order is at offset0 + i.
bool is_dense_unpadded(const memory_desc_t &md);

// Bit d set where `op` broadcasts dimension d (extent one) against dims.
unsigned bcast_mask(const memory_desc_t &op, const dim_t *dims);

// Constant physical stride of md along `axis` for positions [start, start + n) of that axis
// (the others fixed), or -1 when blocking makes it vary.
dim_t run_stride(const memory_desc_t &md, int axis, dim_t start, dim_t n);

// A tensor's logical index space cut into runs along one axis: the innermost block's
// dimension for blocked layouts, else the one with the smallest stride; each run has at most
// `len` elements, so run r covers pos, pos + e_axis, ... with a constant dst stride.
struct run_plan_t {
    int ndims = 0, axis = 0;
    dim_t dims[max_ndims] = {};
    int order[max_ndims] = {}; // dims outermost first: runs are numbered in memory order
    dim_t len = 1;
    dim_t nruns = 0;
    // First logical position of run r; returns its length.
    dim_t run(dim_t r, dim_t *pos) const;
};
run_plan_t make_run_plan(const memory_desc_t &md, dim_t max_len = 512);

// How an operand that broadcasts against a dense unpadded dst maps onto dst's flat physical
// order: dst element i reads operand element ((i / inner) % period) * block + i % block of a
// dense operand. Scalars have period 1; block > 1 is a per-channel operand against dst
// blocked on that channel. ok is false when the operand does not fit this pattern.
struct flat_bcast_t {
    bool ok = false;
    dim_t period = 1, inner = 1, block = 1;

    dim_t index(dim_t i) const { return ((i / inner) % period) * block + i % block; }
    // From dst element i, how many of the next `left` elements read consecutive operand
    // elements (step 1) or one and the same (step 0).
    dim_t segment(dim_t i, dim_t left, int &step) const {
        if (block > 1) {
            step = 1;
            return std::min(left, block - i % block);
        }
        if (period == 1) {
            step = 0;
            return left;
        }
        if (inner == 1) {
            step = 1;
            return std::min(left, period - i % period);
        }
        step = 0;
        return std::min(left, inner - i % inner);
    }
};
flat_bcast_t analyze_flat_bcast(const memory_desc_t &dst, const memory_desc_t &op);

// Writes zeros to every padded (outside dims) element of a blocked tensor.
void zero_padding(const memory_desc_t &md, void *base);

} // namespace cpu
} // namespace anydnn
