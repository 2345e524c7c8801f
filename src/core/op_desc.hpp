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
    // Between two different GPU engines (the pd is made on the source's).
    bool cross_engine = false;
    template <typename F>
    void visit(F &&f) const {
        f("src", src_md);
        f("dst", dst_md);
        f("src_engine", src_engine_kind);
        f("dst_engine", dst_engine_kind);
        f("cross_engine", cross_engine);
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

// Spatial parameters (strides, dilations, paddings, kernel): `n` entries used.
struct spatial_t {
    int n = 0;
    dnnl_dims_t v = {};
};

struct convolution_desc_t { // also deconvolution, with kind set by the entry point
    static constexpr dnnl_primitive_kind_t kind = dnnl_convolution;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, diff_src_md, weights_md, diff_weights_md, bias_md, diff_bias_md,
            dst_md, diff_dst_md;
    spatial_t strides, dilates, padding_l, padding_r;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("diff_src", diff_src_md);
        f("wei", weights_md);
        f("diff_wei", diff_weights_md);
        f("bia", bias_md);
        f("diff_bia", diff_bias_md);
        f("dst", dst_md);
        f("diff_dst", diff_dst_md);
        f("strides", strides);
        f("dilations", dilates);
        f("padding_l", padding_l);
        f("padding_r", padding_r);
    }
};

struct deconvolution_desc_t : public convolution_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_deconvolution;
};

struct shuffle_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_shuffle;
    dnnl_prop_kind_t prop_kind;
    memory_desc_t src_md, dst_md, diff_src_md, diff_dst_md;
    int axis;
    dim_t group_size;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_dst", diff_dst_md);
        f("axis", axis);
        f("group_size", group_size);
    }
};

struct pooling_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_pooling;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, dst_md, diff_src_md, diff_dst_md;
    spatial_t strides, kernel, dilates, padding_l, padding_r;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_dst", diff_dst_md);
        f("strides", strides);
        f("kernel", kernel);
        f("dilations", dilates);
        f("padding_l", padding_l);
        f("padding_r", padding_r);
    }
};

struct prelu_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_prelu;
    dnnl_prop_kind_t prop_kind;
    memory_desc_t src_md, weights_md, dst_md, diff_src_md, diff_weights_md, diff_dst_md;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("src", src_md);
        f("wei", weights_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_wei", diff_weights_md);
        f("diff_dst", diff_dst_md);
    }
};

struct lrn_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_lrn;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, dst_md, diff_src_md, diff_dst_md;
    dim_t local_size;
    float alpha, beta, k;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_dst", diff_dst_md);
        f("local_size", local_size);
        f("alpha", alpha);
        f("beta", beta);
        f("k", k);
    }
};

// Batch, group and layer normalization share one shape of descriptor.
struct normalization_fields_t {
    dnnl_prop_kind_t prop_kind;
    memory_desc_t src_md, dst_md, diff_src_md, diff_dst_md;
    memory_desc_t scaleshift_md, diff_scaleshift_md, stat_md;
    float epsilon;
    unsigned flags;
    template <typename F>
    void visit_common(F &&f) const {
        f("prop", prop_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("diff_src", diff_src_md);
        f("diff_dst", diff_dst_md);
        f("scaleshift", scaleshift_md);
        f("diff_scaleshift", diff_scaleshift_md);
        f("stats", stat_md);
        f("epsilon", epsilon);
        f("flags", flags);
    }
};

struct batch_normalization_desc_t : public normalization_fields_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_batch_normalization;
    template <typename F>
    void visit(F &&f) const {
        visit_common(f);
    }
};

struct group_normalization_desc_t : public normalization_fields_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_group_normalization;
    dim_t groups;
    template <typename F>
    void visit(F &&f) const {
        visit_common(f);
        f("groups", groups);
    }
};

struct layer_normalization_desc_t : public normalization_fields_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_layer_normalization;
    dnnl_data_type_t scale_shift_dt = dnnl_f32; // _v2 entry points choose it
    template <typename F>
    void visit(F &&f) const {
        visit_common(f);
        f("scale_shift_dt", scale_shift_dt);
    }
};

struct inner_product_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_inner_product;
    dnnl_prop_kind_t prop_kind;
    memory_desc_t src_md, diff_src_md, weights_md, diff_weights_md, bias_md, diff_bias_md,
            dst_md, diff_dst_md;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("src", src_md);
        f("diff_src", diff_src_md);
        f("wei", weights_md);
        f("diff_wei", diff_weights_md);
        f("bia", bias_md);
        f("diff_bia", diff_bias_md);
        f("dst", dst_md);
        f("diff_dst", diff_dst_md);
    }
};

// The tensors of an RNN, in the order rnn_desc_t::mds and diff_mds hold them; a zero md
// marks an absent optional tensor.
enum rnn_tensor_t : int {
    rnn_src_layer,
    rnn_src_iter,
    rnn_src_iter_c,
    rnn_attention,
    rnn_weights_layer,
    rnn_weights_iter,
    rnn_weights_peephole,
    rnn_weights_projection,
    rnn_bias,
    rnn_dst_layer,
    rnn_dst_iter,
    rnn_dst_iter_c,
    rnn_tensor_count
};

struct rnn_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_rnn;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t cell_kind;
    dnnl_rnn_direction_t direction;
    // Forward tensors, then their gradients, in the same order.
    std::vector<memory_desc_t> mds, diff_mds; // rnn_tensor_count each, by rnn_tensor_t
    unsigned flags;
    dnnl_alg_kind_t activation_kind;
    float alpha, beta;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("cell_kind", cell_kind);
        f("direction", direction);
        f("tensors", mds);
        f("diff_tensors", diff_mds);
        f("flags", flags);
        f("activation", activation_kind);
        f("alpha", alpha);
        f("beta", beta);
    }
};

struct matmul_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_matmul;
    memory_desc_t src_md, weights_md, bias_md, dst_md;
    template <typename F>
    void visit(F &&f) const {
        f("src", src_md);
        f("wei", weights_md);
        f("bia", bias_md);
        f("dst", dst_md);
    }
};

struct resampling_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_resampling;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, diff_src_md, dst_md, diff_dst_md;
    std::vector<float> factors;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("diff_src", diff_src_md);
        f("dst", dst_md);
        f("diff_dst", diff_dst_md);
        f("factors", factors);
    }
};

struct reduction_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_reduction;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, dst_md;
    float p, eps;
    template <typename F>
    void visit(F &&f) const {
        f("alg", alg_kind);
        f("src", src_md);
        f("dst", dst_md);
        f("p", p);
        f("eps", eps);
    }
};

struct softmax_desc_t {
    static constexpr dnnl_primitive_kind_t kind = dnnl_softmax;
    dnnl_prop_kind_t prop_kind;
    dnnl_alg_kind_t alg_kind;
    memory_desc_t src_md, diff_src_md, dst_md, diff_dst_md;
    int axis;
    template <typename F>
    void visit(F &&f) const {
        f("prop", prop_kind);
        f("alg", alg_kind);
        f("src", src_md);
        f("diff_src", diff_src_md);
        f("dst", dst_md);
        f("diff_dst", diff_dst_md);
        f("axis", axis);
    }
};

using op_desc_t = std::variant<reorder_desc_t, eltwise_desc_t, binary_desc_t, sum_desc_t,
        concat_desc_t, convolution_desc_t, deconvolution_desc_t, shuffle_desc_t,
        pooling_desc_t, prelu_desc_t, lrn_desc_t, batch_normalization_desc_t,
        group_normalization_desc_t, layer_normalization_desc_t, inner_product_desc_t,
        rnn_desc_t, matmul_desc_t, resampling_desc_t, reduction_desc_t, softmax_desc_t>;

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
