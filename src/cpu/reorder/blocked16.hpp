// The plan and primitive descriptor of cpu:reorder:blocked16:avx512 (plain layout <-> the
// same tensor blocked by 16 or 8 innermost); blocked16_plan.cpp decides, blocked16.cpp runs.
#pragma once

#include "core/ops/reorder/common.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

// How the copy is walked, decided once from the two layouts. "P" is the plain side, "B" the
// blocked one; the run dimension s (dimensions merged where both sides allow) is the one
// tiles advance along.
struct plan_t {
    bool to_blocked;         // src is P
    bool transpose;          // P is contiguous along s (else along c)
    int b;                   // block size
    dim_t channels, nblocks; // of the blocked dimension c
    dim_t pc, cbs;           // P stride of c; B stride of one block of c
    dim_t len, ps, bs;       // run length and its P and B strides
    // A run may continue along a second walk that only P has contiguous (OIhw16i16o: i after
    // hw): point r sits at (r % len0) * bs + (r / len0) * bs_hi in B.
    dim_t len0, bs_hi;
    int nouter;
    dim_t osize[2 * max_ndims], op[2 * max_ndims], ob[2 * max_ndims];
    dim_t chunk; // run elements per work item
};

struct blocked16_t;

struct blocked16_pd_t : public primitive_desc_impl_t<blocked16_pd_t, blocked16_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "cpu:reorder:blocked16:avx512";
    }
    static status_t init(blocked16_pd_t &pd);

    quant_t q;
    plan_t plan;
};

struct blocked16_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace reorder
} // namespace cpu
} // namespace anydnn
