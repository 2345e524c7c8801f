// GPU reorder within one OpenCL engine, shared with the cross-engine reorder (which runs it
// on a staging buffer): the pd checks and the primitive that launches reorder.cl.
#pragma once

#include <memory>

#include "core/compute/compute.hpp"
#include "core/ops/reorder/quant.hpp"
#include "core/primitive.hpp"
#include "gpu/reorder/blocked.hpp"

namespace anydnn {
namespace gpu {
namespace reorder {

struct reorder_t;

// ocl:reorder:dense (one dense layout, per-tensor attributes), ocl:reorder:blocked (plain <->
// channel-blocked, no attributes), ocl:reorder:rows (the last dimension unblocked in both
// layouts), ocl:reorder:nibbles (a 4-bit dst: one work-item per byte) or ocl:reorder:generic.
struct reorder_pd_t : public primitive_desc_impl_t<reorder_pd_t, reorder_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return dense  ? "ocl:reorder:dense"
                : blocked ? "ocl:reorder:blocked"
                : nibbles ? "ocl:reorder:nibbles"
                : rows    ? "ocl:reorder:rows"
                          : "ocl:reorder:generic";
    }
    // Checks src and dst (descriptors of this engine) and the attributes.
    static status_t init_tensors(reorder_pd_t &pd, const memory_desc_t &src,
            const memory_desc_t &dst, bool want_dense);
    static status_t init_dense(reorder_pd_t &pd);
    static status_t init_generic(reorder_pd_t &pd);

    cpu::reorder::quant_t q;
    bool dense = false;
    bool blocked = false;
    blocked_shape_t shape; // where blocked
    bool rows = false;
    bool f8 = false; // an f8 or 4-bit side: converted one element per work-item
    bool nibbles = false; // a 4-bit dst: both elements of a byte written by one work-item
};

struct reorder_t : public primitive_t {
    using primitive_t::primitive_t;
    const reorder_pd_t &pd_() const { return static_cast<const reorder_pd_t &>(pd()); }
    status_t init() override;
    status_t execute(const exec_ctx_t &ctx) const override;
    // Runs on `stream` with src and dst given as storages (what the cross-engine reorder
    // passes for its staging buffer); quantization arrays come from ctx.
    status_t run(const exec_ctx_t &ctx, stream_t *stream, const memory_storage_t *src,
            const memory_storage_t *dst) const;

private:
    std::shared_ptr<kernel_t> kernel_;
    size_t vec_ = 1; // elements per access of reorder_dense
    int groups_ = 1; // with vec_ 4, groups of four per work-item (vector_groups)
};

} // namespace reorder
} // namespace gpu
} // namespace anydnn
