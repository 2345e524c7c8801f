// Lowering a partition onto primitives: shared pieces of lower.cpp and lower_ops.cpp.
#pragma once

#include <map>
#include <set>

#include "graph/compiled_partition.hpp"
#include "graph/op_schema.hpp"

namespace anydnn {

struct sdpa_plan_t; // core/ops/sdpa/fused.hpp

namespace graph {

// Attributes of one primitive (scratchpad owned by us) with its post-op chain.
struct prim_attr_t {
    prim_attr_t();
    ~prim_attr_t();
    prim_attr_t(const prim_attr_t &) = delete;
    prim_attr_t &operator=(const prim_attr_t &) = delete;
    dnnl_primitive_attr_t get(); // post-ops attached
    dnnl_primitive_attr_t attr = nullptr;
    dnnl_post_ops_t post_ops = nullptr;
    int n_post_ops = 0;
};

// A forward primitive descriptor given to a backward one as its hint, destroyed with it.
struct hint_pd_t {
    hint_pd_t() = default;
    hint_pd_t(const hint_pd_t &) = delete;
    hint_pd_t &operator=(const hint_pd_t &) = delete;
    ~hint_pd_t() {
        if (pd) dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_desc_t pd = nullptr;
};

// eltwise algorithm and parameters of a unary op; false when it has none.
bool eltwise_of(const op_t &op, dnnl_alg_kind_t &alg, float &alpha, float &beta);
// The eltwise backward of an XBackward op (lower_backward_eltwise.cpp); from_dst: its first
// input is the forward's dst (use_dst). False for other ops.
struct eltwise_backward_t {
    dnnl_alg_kind_t alg;
    float alpha, beta;
    bool from_dst;
};
bool eltwise_backward_of(const op_t &op, eltwise_backward_t &e);
// binary algorithm of a two-input op; false when it has none.
bool binary_of(dnnl_graph_op_kind_t kind, dnnl_alg_kind_t &alg);

// Memory descriptor views.
memory_desc_t make_md(const dims_t &dims, dnnl_data_type_t dt, const dims_t &strides);
memory_desc_t dense_md(const dims_t &dims, dnnl_data_type_t dt);
memory_desc_t expand_md(const memory_desc_t &md, int ndims); // leading 1s
memory_desc_t permute_md(const memory_desc_t &md, const std::vector<int> &perm);
memory_desc_t nxc_to_ncx(const memory_desc_t &md); // logical NCX view of NXC data
bool is_row_major_dense(const memory_desc_t &md);
dims_t md_dims(const memory_desc_t &md);
inline memory_desc_t identity_view(const memory_desc_t &md) {
    return md;
}
inline memory_desc_t with_dt(memory_desc_t md, dnnl_data_type_t dt) {
    md.data_type = dt;
    return md;
}
inline int norm_axis(int64_t axis, int ndims) {
    return static_cast<int>(axis < 0 ? axis + ndims : axis);
}
// data_format NXC (the graph API's default).
inline bool nxc(const op_t &op) {
    return op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
}
// A primitive's dims array from the graph's values (dilations: minus 1).
inline void fill(dnnl_dims_t out, const dims_t &v, dim_t minus = 0) {
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = v[i] - minus;
}
// Convolution weights as the primitive sees them: XIO / XOI (kernel dims first) read as
// OIX / IOX, ConvTranspose's [IC, OC/G, k...] as [G, OC/G, IC/G, k...], groups split off.
memory_desc_t conv_weights_view(memory_desc_t wei, bool xio, int64_t g, bool transpose);

// A pooling op's primitive parameters for src and dst (NCX views); ceil rounding as end
// padding.
struct pool_params_t {
    dnnl_alg_kind_t alg;
    dnnl_dims_t strides, kernel, dilation, pad_l, pad_r;
};
void pool_params(const op_t &op, const memory_desc_t &src, const memory_desc_t &dst,
        pool_params_t &p);

struct lowering_t {
    lowering_t(const partition_impl_t &part, engine_t *engine, compiled_impl_t &out)
        : part(part), engine(engine), out(out) {}

    status_t run(); // after lts are resolved

    const partition_impl_t &part;
    engine_t *engine;
    compiled_impl_t &out;
    std::map<size_t, lt_t> lts; // every value of the partition, resolved
    std::vector<std::shared_ptr<op_t>> ops; // with resolved shapes
    std::map<size_t, std::vector<const op_t *>> consumers;
    std::map<size_t, const op_t *> producer;
    std::set<const op_t *> done, deferred;
    std::map<size_t, size_t> storage_of_value;

    bool is_output_port(size_t id) const;
    size_t storage(size_t value_id);
    size_t view(size_t value_id, const memory_desc_t &md);
    size_t view(size_t value_id) { return view(value_id, md(value_id)); }
    size_t constant(const void *data, size_t bytes, const memory_desc_t &md);
    // A temporary buffer of the partition that no graph value names (a workspace, a
    // partial result of a lowering in several steps).
    size_t temp(const memory_desc_t &md);
    // A constant of n f32 ones (a normalization's scale where the graph gives none).
    size_t unit_constant(dim_t n);
    // invalid_shape unless the value holds n dense elements.
    status_t require_elems(const op_t &op, size_t value_id, dim_t n, const char *what);
    memory_desc_t md(size_t value_id) const;
    bool available(size_t value_id) const;

    // Creates the primitive and records the step; takes ownership of pd.
    status_t emit(dnnl_primitive_desc_t pd, std::vector<std::pair<int, size_t>> args,
            const op_t &op);
    status_t lower(const op_t &op);

    // A primitive with post-ops: the anchor's dst, and the chain folded into it.
    struct fold_t {
        size_t out_value;
        dnnl_data_type_t dst_dt;
        std::vector<const op_t *> absorbed;
        std::vector<std::pair<int, size_t>> args;
    };
    // Folds eltwise / binary consumers of f.out_value (and a final Quantize / TypeCast when
    // allow_quant) into attr; dst_view maps a logical dst-shaped md to what the primitive sees.
    status_t fold_post_ops(const op_t &anchor, prim_attr_t &attr, fold_t &f, bool allow_quant,
            memory_desc_t (*dst_view)(const memory_desc_t &));
    // Dequantize ops feeding a matmul / convolution input that can be folded into scales.
    const op_t *foldable_dequantize(const op_t &anchor, size_t input) const;
    // A BiasAdd reading the anchor's output along `channel`, which becomes its bias.
    const op_t *foldable_bias_add(const op_t &anchor, int channel) const;
    status_t apply_dequantize(const op_t &dq, int arg, int mask, prim_attr_t &attr,
            std::vector<std::pair<int, size_t>> &args);
    status_t apply_quantize(const op_t &q, prim_attr_t &attr,
            std::vector<std::pair<int, size_t>> &args);

    // Per-family lowerings (lower_ops.cpp); fuse: try folding neighbours.
    status_t lower_matmul(const op_t &op, bool fuse);
    status_t lower_conv(const op_t &op, bool fuse);
    status_t lower_eltwise(const op_t &op, bool fuse);
    status_t lower_binary(const op_t &op, bool fuse);
    status_t lower_softmax(const op_t &op);
    status_t lower_norm(const op_t &op);
    status_t lower_pool(const op_t &op);
    status_t lower_reduce(const op_t &op);
    status_t lower_reorder_like(const op_t &op);
    status_t lower_concat(const op_t &op);
    status_t lower_interpolate(const op_t &op);
    status_t lower_prelu(const op_t &op);
    // DynamicQuantize / DynamicDequantize (lower_dynamic_quant.cpp).
    status_t lower_dynamic_quant(const op_t &op);
    // The indices along an axis: known at compile, a constant copied into the output.
    status_t lower_gen_index(const op_t &op);
    // Training (lower_backward.cpp).
    // SoftMax's second output from its source (src_v seen as src).
    status_t lower_softmax_stats(const op_t &op, size_t src_v, const memory_desc_t &src);
    status_t lower_softmax_backward(const op_t &op);
    status_t lower_pool_backward(const op_t &op);
    status_t lower_conv_backward(const op_t &op); // and ConvTranspose's
    status_t lower_interpolate_backward(const op_t &op);
    status_t lower_bias_add_backward(const op_t &op);
    // The eltwise backward family and PReLUBackward (lower_backward_eltwise.cpp).
    status_t lower_eltwise_backward(const op_t &op);
    status_t lower_prelu_backward(const op_t &op);
    // BatchNormForwardTraining, BatchNormTrainingBackward, LayerNormBackward
    // (lower_norm_training.cpp).
    status_t lower_batch_norm_training(const op_t &op);
    status_t lower_batch_norm_backward(const op_t &op);
    status_t lower_layer_norm_backward(const op_t &op);
    // The whole sdpa pattern as one CPU kernel (lower_sdpa.cpp, cpu/sdpa/fused_rows.cpp); unimplemented, with nothing
    // recorded, when the partition's shapes or types do not fit it.
    status_t lower_sdpa_fused();
    // The same on GPU engines (lower_sdpa.cpp): one kernel of src/gpu/sdpa, launched through
    // the compute interface.
    status_t lower_sdpa_device();
    // The sdpa chain read into `p` (sdpa_plan.cpp); unimplemented when the fused kernels
    // cannot take it.
    status_t plan_sdpa(sdpa_plan_t &p) const;
};

} // namespace graph
} // namespace anydnn
