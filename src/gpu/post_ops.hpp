// Host side of the shared OpenCL post-op applier (cl/post_ops.h): checks an attribute's chain
// against dst once, gives the kernel's build options, uploads the entries' run-time
// parameters, and appends every post-op kernel argument with one call.
//
//   pd init:        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst_md, pd.args));
//   primitive init: opts += pd.post_ops.build_options();
//                   ANYDNN_CHECK(pd.post_ops.upload(pd.engine, po_buffer_));
//   execute:        pd.post_ops.add_args(args, ctx, po_buffer_.get());  // last arguments
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"
#include "gpu/kernel_layout.hpp"

namespace anydnn {
namespace gpu {

constexpr int max_post_ops = 6; // PO_PARAM slots in cl/post_ops.h

// Mirrors post_op_t of cl/post_ops.h.
struct post_op_desc_t {
    float alpha, beta, scale, zero_point;
    tensor_layout_t a, b;
};
static_assert(sizeof(post_op_desc_t) == 416, "must match cl/post_ops.h");

class post_ops_t {
public:
    // dnnl_unimplemented (with the reason) for chains kernels cannot apply; declares the
    // operands in `args`. dst's layout must be resolved.
    status_t init(const primitive_attr_t &attr, const memory_desc_t &dst,
            std::map<int, memory_desc_t> &args);
    bool empty() const { return entries_.empty(); }
    bool has_sum() const { return has_sum_; }
    // The attribute's chain this was initialized from (for kernels that fuse a fixed subset).
    const dnnl_post_ops &source() const { return source_; }
    // -DPO_COUNT=n, each entry's kind, algorithm and operand types, -DPO_SUM when there is one.
    std::string build_options() const;
    // The entries' parameters in a device buffer of `engine` (null when the chain is empty).
    status_t upload(engine_t *engine, std::unique_ptr<memory_storage_t> &buffer) const;
    // Appends POST_OP_PARAMS: the parameter buffer and two operand memories per entry.
    void add_args(kernel_args_t &args, const exec_ctx_t &ctx,
            const memory_storage_t *buffer) const;

private:
    struct entry_t {
        int kind; // PO_KIND_* of cl/post_ops.h
        int alg;
        int arg_a = 0, arg_b = 0; // execution arguments of the operands
        dnnl_data_type_t dt_a = dnnl_f32, dt_b = dnnl_f32;
        post_op_desc_t desc;
    };
    std::vector<entry_t> entries_;
    bool has_sum_ = false;
    dnnl_post_ops source_;
};

} // namespace gpu
} // namespace anydnn
