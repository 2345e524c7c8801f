// The post-op chain of an attribute (sum, eltwise, binary with broadcast, prelu), checked once
// against dst when a primitive descriptor is made, then applied to f32 results in place.
//
// Use from an implementation:
//   pd init:  ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst_md));  // dst layout resolved
//             pd.post_ops.add_args(pd.args);                    // src1 / prelu weights
//   execute:  auto po = pd.post_ops.bind(ctx);                  // once per execution
//             pd.post_ops.apply(po, vals, n, pos, axis, dst_ptr_at_pos, dst_stride);
//   or, when flat_ok() and dst is walked in memory order:
//             pd.post_ops.apply_flat(po, vals, n, flat_index, dst_ptr_at_flat_index);
// init and add_args are the rules every engine shares (core/ops/post_ops.cpp); bind, apply and
// apply_flat run on host memory and are defined by the CPU engine (cpu/post_ops_apply.cpp).
#pragma once

#include <initializer_list>
#include <map>
#include <vector>

#include "core/ops/layout.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

// dnnl_unimplemented (with the entry and the operation named) when the attribute's chain
// holds a kind outside `kinds`: the post-ops oneDNN documents for an operation.
status_t check_post_op_kinds(const primitive_attr_t &attr,
        std::initializer_list<dnnl_primitive_kind_t> kinds, const char *op);

class post_ops_chain_t {
public:
    // Checks every entry against dst (dims, layout, data type): dnnl_unimplemented for kinds
    // or types not supported, dnnl_invalid_arguments for binary sources that do not
    // broadcast to dst. Resolves format_kind any of binary sources to dst's layout.
    status_t init(const primitive_attr_t &attr, const memory_desc_t &dst_md);
    // Adds the descriptor of every tensor the chain reads, by execution argument.
    void add_args(std::map<int, memory_desc_t> &args) const;

    bool empty() const { return entries_.empty(); }
    int size() const { return static_cast<int>(entries_.size()); }
    bool has_sum() const { return has_sum_; }
    // The type to read dst as for sum (the sum's data type, else dst's).
    dnnl_data_type_t sum_dt() const { return sum_dt_; }
    // apply_flat is usable: every operand is a scalar, or broadcasts along one dense group of
    // dims of a dense unpadded dst (see analyze_flat_bcast).
    bool flat_ok() const { return flat_ok_; }

    // Host pointers of the chain's tensors for one execution.
    struct exec_args_t {
        std::vector<const void *> src1, src2;
    };
    exec_args_t bind(const exec_ctx_t &ctx) const;

    // v[k] holds the result for dst's element at logical position pos + k * e_axis; old dst
    // values (for sum) are read at dst + k * dst_stride, in sum_dt(). dst may be null when
    // there is no sum.
    void apply(const exec_args_t &args, float *v, dim_t n, const dim_t *pos, int axis,
            const void *dst, dim_t dst_stride) const;
    // v[k] holds the result for dst's element flat + k of its physical order (dense unpadded
    // dst); dst points at that element. Only when flat_ok().
    void apply_flat(const exec_args_t &args, float *v, dim_t n, dim_t flat,
            const void *dst) const;

private:
    struct entry_t {
        dnnl_primitive_kind_t kind;
        dnnl_alg_kind_t alg;
        float alpha, beta; // eltwise
        float scale; // sum
        float zero_point;
        memory_desc_t src1, src2; // binary operands; prelu weights in src1
        unsigned bcast1, bcast2;
        flat_bcast_t flat1, flat2;
        int arg1, arg2; // execution arguments (0: none)
    };
    std::vector<entry_t> entries_;
    memory_desc_t dst_ {};
    bool has_sum_ = false, flat_ok_ = true;
    dnnl_data_type_t sum_dt_ = dnnl_data_type_undef;
};

} // namespace cpu
} // namespace anydnn
