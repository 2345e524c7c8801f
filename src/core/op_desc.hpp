// The operation table: one descriptor struct per primitive kind. Each lists its fields once,
// in `visit`, and that single list drives hashing, equality, cache keys and verbose output.
// Adding an operation: a struct here, its alternative in op_desc_t, its C entry point in
// src/api, its implementations in src/<engine>/<op>/.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/memory_desc.hpp"

namespace anydnn {

struct reorder_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_reorder;
    memory_desc_t src_md, dst_md;
    dnnl_engine_kind_t src_engine_kind, dst_engine_kind;
    template <typename F>
    void visit(F &&f) const {
        f("src", src_md);
        f("dst", dst_md);
        f("src_engine", src_engine_kind);
        f("dst_engine", dst_engine_kind);
    }
};

struct eltwise_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_eltwise;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, dst_md, diff_src_md, diff_dst_md;
    float alpha, beta;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_dst", diff_dst_md);
        f("alpha", alpha);
        f("beta", beta);
    }
};

struct binary_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_binary;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src0_md, src1_md, src2_md, dst_md; // src2: the condition of select
    template <typename F>
    void visit(F &&f) const {
        f("alg", alg_kind);
        f("src0", src0_md);
        f("src1", src1_md);
        f("src2", src2_md);
        f("dst", dst_md);
    }
};

struct sum_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_sum;
    std::vector<float> scales;
    std::vector<memory_desc_t> src_mds;
    memory_desc_t dst_md;
    template <typename F>
    void visit(F &&f) const {
        f("scales", scales);
        f("srcs", src_mds);
        f("dst", dst_md);
    }
};

struct concat_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_concat;
    int axis;
    std::vector<memory_desc_t> src_mds;
    memory_desc_t dst_md;
    template <typename F>
    void visit(F &&f) const {
        f("axis", axis);
        f("srcs", src_mds);
        f("dst", dst_md);
    }
};

using op_desc_t = std::variant<reorder_desc_t, eltwise_desc_t, binary_desc_t, sum_desc_t,
        concat_desc_t>;

dnnl_primitive_kind_t op_kind(const op_desc_t &desc);
dnnl_prop_kind_t op_prop_kind(const op_desc_t &desc); // undef for kinds without one
// Canonical bytes of every field (cache key part, blob contents).
std::string op_serialize(const op_desc_t &desc);
// "alg:eltwise_relu alpha:0 beta:0" — the non-tensor fields, for verbose.
std::string op_aux_string(const op_desc_t &desc);
// Answers the operation-specific queries (alg_kind, alpha_f32, axis_s32, flags, strides...);
// dnnl_unimplemented when the op has no such field.
status_t op_query(const op_desc_t &desc, dnnl_query_t what, int index, void *result);

} // namespace anydnn
