#include "graph/op_schema.hpp"

#include <algorithm>

namespace anydnn {
namespace graph {

namespace {

#define R(a) attr_rule_t {dnnl_graph_op_attr_##a, true}
#define O(a) attr_rule_t {dnnl_graph_op_attr_##a, false}
#define K(k) dnnl_graph_op_##k
constexpr int many = 64;

// The attribute sets several kinds share.
#define CONV_ATTRS \
    R(strides), R(pads_begin), R(pads_end), R(dilations), O(auto_pad), O(groups), \
            O(data_format), O(weights_format)
#define POOL_ATTRS \
    R(strides), R(kernel), R(pads_begin), R(pads_end), O(rounding_type), O(auto_pad), \
            O(data_format)
#define QUANT_ATTRS O(qtype), O(axis), R(scales), O(zps)

const std::vector<op_schema_t> &schema_table() {
    static const std::vector<op_schema_t> table = {
            {K(abs), "Abs", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(abs_backward), "AbsBackward", 2, 2, 1, 1, {}, infer_same_as_first},
            {K(add), "Add", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(avg_pool), "AvgPool", 1, 1, 1, 1, {POOL_ATTRS, R(exclude_pad)}, infer_pool},
            {K(avg_pool_backward), "AvgPoolBackward", 1, 2, 1, 1,
                    {R(strides), R(kernel), R(pads_begin), R(pads_end), R(exclude_pad),
                            O(auto_pad), O(data_format), O(src_shape)},
                    infer_from_shape_attr},
            {K(batch_norm_backward), "BatchNormTrainingBackward", 4, 5, 1, 3,
                    {R(epsilon), O(data_format)}, infer_batch_norm_training},
            {K(batch_norm_forward_training), "BatchNormForwardTraining", 3, 5, 5, 5,
                    {R(epsilon), O(momentum), O(data_format)}, infer_batch_norm_training},
            {K(batch_norm_inference), "BatchNormInference", 5, 5, 1, 1,
                    {R(epsilon), O(data_format)}, infer_same_as_first},
            {K(bias_add), "BiasAdd", 2, 2, 1, 1, {O(data_format)}, infer_same_as_first},
            {K(bias_add_backward), "BiasAddBackward", 1, 1, 1, 1, {O(data_format)},
                    infer_bias_add_backward},
            {K(clamp), "Clamp", 1, 1, 1, 1, {R(min), R(max)}, infer_same_as_first},
            {K(clamp_backward), "ClampBackward", 2, 2, 1, 1, {R(min), R(max), O(use_dst)},
                    infer_same_as_first},
            {K(concat), "Concat", 1, many, 1, 1, {R(axis)}, infer_concat},
            {K(convolution), "Convolution", 2, 3, 1, 1, {CONV_ATTRS}, infer_conv},
            {K(convolution_backward_data), "ConvolutionBackwardData", 2, 3, 1, 1,
                    {CONV_ATTRS, O(output_padding), O(dst_shape)}, infer_from_shape_attr},
            {K(convolution_backward_weights), "ConvolutionBackwardWeights", 2, 3, 1, 1,
                    {CONV_ATTRS, O(weights_shape)}, infer_from_shape_attr},
            {K(conv_transpose), "ConvTranspose", 2, 3, 1, 1, {CONV_ATTRS, O(output_padding)},
                    infer_conv_transpose},
            {K(conv_transpose_backward_data), "ConvTransposeBackwardData", 2, 2, 1, 1,
                    {CONV_ATTRS, O(output_padding)}, infer_conv_transpose_backward_data},
            {K(conv_transpose_backward_weights), "ConvTransposeBackwardWeights", 2, 3, 1, 1,
                    {CONV_ATTRS, O(output_padding), O(weights_shape)}, infer_from_shape_attr},
            {K(dequantize), "Dequantize", 1, 1, 1, 1, {QUANT_ATTRS}, infer_same_as_first},
            {K(divide), "Divide", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(dynamic_dequantize), "DynamicDequantize", 2, 3, 1, 1,
                    {O(qtype), O(axis), O(group_shape)}, infer_same_as_first},
            {K(dynamic_quantize), "DynamicQuantize", 2, 3, 1, 1, {O(qtype), O(axis)},
                    infer_same_as_first},
            {K(elu), "Elu", 1, 1, 1, 1, {R(alpha)}, infer_same_as_first},
            {K(elu_backward), "EluBackward", 2, 2, 1, 1, {R(alpha), O(use_dst)},
                    infer_same_as_first},
            {K(end), "End", 1, 1, 0, 0, {}, nullptr},
            {K(exp), "Exp", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(gelu), "GELU", 1, 1, 1, 1, {O(mode)}, infer_same_as_first},
            {K(gelu_backward), "GELUBackward", 2, 2, 1, 1, {O(mode)}, infer_same_as_first},
            {K(hard_swish), "HardSwish", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(hard_swish_backward), "HardSwishBackward", 2, 2, 1, 1, {}, infer_same_as_first},
            {K(interpolate), "Interpolate", 1, 2, 1, 1,
                    {R(mode), O(sizes), O(scales), O(coordinate_transformation_mode),
                            O(data_format)},
                    infer_interpolate},
            {K(interpolate_backward), "InterpolateBackward", 2, 3, 1, 1,
                    {R(mode), O(sizes), O(scales), O(coordinate_transformation_mode),
                            O(data_format)},
                    infer_same_as_first},
            {K(layer_norm), "LayerNorm", 1, 3, 1, 3,
                    {O(keep_stats), O(begin_norm_axis), O(use_affine), O(epsilon)}, infer_norm},
            {K(layer_norm_backward), "LayerNormBackward", 4, 6, 1, 3,
                    {O(begin_norm_axis), O(use_affine), O(epsilon)}, infer_norm},
            {K(leaky_relu), "LeakyReLU", 1, 1, 1, 1, {R(alpha)}, infer_same_as_first},
            {K(log), "Log", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(log_softmax), "LogSoftmax", 1, 1, 1, 1, {O(axis)}, infer_same_as_first},
            {K(log_softmax_backward), "LogSoftmaxBackward", 2, 2, 1, 1, {O(axis)},
                    infer_same_as_first},
            {K(matmul), "MatMul", 2, 3, 1, 1,
                    {O(transpose_a), O(transpose_b), O(accumulation_mode)}, infer_matmul},
            {K(maximum), "Maximum", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(max_pool), "MaxPool", 1, 1, 1, 1, {POOL_ATTRS, O(dilations)}, infer_pool},
            {K(max_pool_backward), "MaxPoolBackward", 2, 2, 1, 1,
                    {R(strides), R(kernel), R(pads_begin), R(pads_end), O(dilations),
                            O(auto_pad), O(data_format)},
                    infer_same_as_first},
            {K(minimum), "Minimum", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(mish), "Mish", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(mish_backward), "MishBackward", 2, 2, 1, 1, {}, infer_same_as_first},
            {K(multiply), "Multiply", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(prelu), "PReLU", 2, 2, 1, 1, {O(data_format), O(per_channel_broadcast)},
                    infer_same_as_first},
            {K(prelu_backward), "PReLUBackward", 3, 3, 2, 2, {O(data_format)},
                    infer_prelu_backward},
            {K(quantize), "Quantize", 1, 1, 1, 1, {QUANT_ATTRS}, infer_same_as_first},
            {K(reciprocal), "Reciprocal", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(reduce_l1), "ReduceL1", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_l2), "ReduceL2", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_max), "ReduceMax", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_mean), "ReduceMean", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_min), "ReduceMin", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_prod), "ReduceProd", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(reduce_sum), "ReduceSum", 1, 2, 1, 1, {O(axes), O(keep_dims)}, infer_reduce},
            {K(relu), "ReLU", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(relu_backward), "ReLUBackward", 2, 2, 1, 1, {O(use_dst)}, infer_same_as_first},
            {K(reorder), "Reorder", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(round), "Round", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(sigmoid), "Sigmoid", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(sigmoid_backward), "SigmoidBackward", 2, 2, 1, 1, {O(use_dst)},
                    infer_same_as_first},
            {K(softmax), "SoftMax", 1, 1, 1, 2, {O(axis), O(mode)}, infer_softmax},
            {K(softmax_backward), "SoftMaxBackward", 2, 2, 1, 1, {O(axis)},
                    infer_same_as_first},
            {K(softplus), "SoftPlus", 1, 1, 1, 1, {O(beta)}, infer_same_as_first},
            {K(softplus_backward), "SoftPlusBackward", 2, 2, 1, 1, {O(beta)},
                    infer_same_as_first},
            {K(sqrt), "Sqrt", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(sqrt_backward), "SqrtBackward", 2, 2, 1, 1, {O(use_dst)}, infer_same_as_first},
            {K(square), "Square", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(squared_difference), "SquaredDifference", 2, 2, 1, 1, {O(auto_broadcast)},
                    infer_broadcast},
            {K(static_reshape), "StaticReshape", 1, 1, 1, 1, {R(shape), R(special_zero)},
                    infer_reshape},
            {K(static_transpose), "StaticTranspose", 1, 1, 1, 1, {R(order)},
                    infer_transpose},
            {K(subtract), "Subtract", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(tanh), "Tanh", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(tanh_backward), "TanhBackward", 2, 2, 1, 1, {O(use_dst)}, infer_same_as_first},
            {K(type_cast), "TypeCast", 1, 1, 1, 1, {}, infer_same_as_first},
            {K(wildcard), "Wildcard", 0, many, 0, many, {}, nullptr},
            {K(hard_sigmoid), "HardSigmoid", 1, 1, 1, 1, {R(alpha), R(beta)},
                    infer_same_as_first},
            {K(hard_sigmoid_backward), "HardSigmoidBackward", 2, 2, 1, 1,
                    {R(alpha), R(beta)}, infer_same_as_first},
            {K(select), "Select", 3, 3, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(pow), "Pow", 2, 2, 1, 1, {O(auto_broadcast)}, infer_broadcast},
            {K(group_norm), "GroupNorm", 1, 3, 1, 3,
                    {R(groups), O(keep_stats), O(use_affine), O(epsilon), O(data_format)},
                    infer_norm},
            {K(gen_index), "GenIndex", 1, 1, 1, 1, {R(axis)}, infer_same_as_first},
            {K(greater_equal), "GreaterEqual", 2, 2, 1, 1, {O(auto_broadcast)},
                    infer_broadcast},
            {K(rms_norm), "RMSNorm", 1, 2, 1, 1,
                    {O(begin_norm_axis), O(use_affine), O(epsilon)}, infer_norm},
            {K(dropout), "Dropout", 4, 4, 1, 2, {}, infer_same_as_first},
    };
    return table;
}

#undef R
#undef O
#undef K

bool is_quantized_type(dnnl_data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8 || dt == dnnl_f8_e4m3 || dt == dnnl_f8_e5m2;
}

// Data types of inputs and outputs that must agree, by family.
status_t check_data_types(const op_t &op) {
    switch (op.kind) {
        case dnnl_graph_op_type_cast:
            ANYDNN_REQUIRE(op.inputs[0].data_type != op.outputs[0].data_type,
                    dnnl_invalid_graph_op, "op %zu: TypeCast keeps the data type %s", op.id,
                    dnnl_dt2str(op.inputs[0].data_type));
            break;
        case dnnl_graph_op_quantize:
            ANYDNN_REQUIRE(is_quantized_type(op.outputs[0].data_type), dnnl_invalid_graph_op,
                    "op %zu: Quantize produces u8, s8, f8_e4m3 or f8_e5m2, not %s", op.id,
                    dnnl_dt2str(op.outputs[0].data_type));
            break;
        case dnnl_graph_op_dequantize:
            ANYDNN_REQUIRE(is_quantized_type(op.inputs[0].data_type), dnnl_invalid_graph_op,
                    "op %zu: Dequantize reads u8, s8, f8_e4m3 or f8_e5m2, not %s", op.id,
                    dnnl_dt2str(op.inputs[0].data_type));
            break;
        default: break;
    }
    return dnnl_success;
}

} // namespace

bool is_valid_op_kind(int kind) {
    return kind >= 0 && kind < dnnl_graph_op_last_symbol;
}

const op_schema_t &op_schema(dnnl_graph_op_kind_t kind) {
    static const std::vector<const op_schema_t *> by_kind = [] {
        std::vector<const op_schema_t *> v(dnnl_graph_op_last_symbol, nullptr);
        for (const auto &s : schema_table())
            v[s.kind] = &s;
        return v;
    }();
    return *by_kind[kind];
}

const char *op_kind_name(dnnl_graph_op_kind_t kind) {
    return is_valid_op_kind(kind) ? op_schema(kind).name : "unknown";
}

status_t validate_op(const op_t &op) {
    const op_schema_t &s = op_schema(op.kind);
    const int nin = static_cast<int>(op.inputs.size());
    const int nout = static_cast<int>(op.outputs.size());
    ANYDNN_REQUIRE(nin >= s.min_inputs && nin <= s.max_inputs, dnnl_invalid_graph_op,
            "op %zu (%s) has %d inputs, expects %d to %d", op.id, s.name, nin, s.min_inputs,
            s.max_inputs);
    ANYDNN_REQUIRE(nout >= s.min_outputs && nout <= s.max_outputs, dnnl_invalid_graph_op,
            "op %zu (%s) has %d outputs, expects %d to %d", op.id, s.name, nout,
            s.min_outputs, s.max_outputs);
    for (const auto &a : op.attrs) {
        ANYDNN_REQUIRE(a.second.type == expected_attr_type(a.first)
                        || (a.second.type == attr_type::f32 && a.first == dnnl_graph_op_attr_scales)
                        || (a.second.type == attr_type::s64
                                && expected_attr_type(a.first) == attr_type::s64s),
                dnnl_invalid_graph_op, "op %zu (%s): attribute %s takes a %s, was set as a %s",
                op.id, s.name, attr_name(a.first), attr_type_name(expected_attr_type(a.first)),
                attr_type_name(a.second.type));
        if (op.kind == dnnl_graph_op_wildcard) continue;
        const bool known = std::any_of(s.attrs.begin(), s.attrs.end(),
                [&](const attr_rule_t &r) { return r.name == a.first; });
        ANYDNN_REQUIRE(known, dnnl_invalid_graph_op, "op %zu (%s) takes no attribute %s",
                op.id, s.name, attr_name(a.first));
    }
    for (const auto &r : s.attrs)
        ANYDNN_REQUIRE(!r.required || op.has(r.name), dnnl_invalid_graph_op,
                "op %zu (%s) misses the required attribute %s", op.id, s.name,
                attr_name(r.name));
    return check_data_types(op);
}

status_t infer_op_shapes(op_t &op) {
    const op_schema_t &s = op_schema(op.kind);
    if (!s.infer) return dnnl_success;
    std::vector<dims_t> in;
    for (const auto &lt : op.inputs) {
        if (!known_shape(lt)) return dnnl_success;
        in.push_back(lt_dims(lt));
    }
    std::vector<dims_t> out(op.outputs.size());
    ANYDNN_CHECK(s.infer(op, in, out));
    for (size_t i = 0; i < op.outputs.size() && i < out.size(); ++i) {
        lt_t &lt = op.outputs[i];
        if (std::any_of(out[i].begin(), out[i].end(), [](dim_t d) { return d < 0; })) continue;
        if (lt.ndims < 0 || !known_shape(lt)) {
            if (lt.ndims >= 0 && lt.ndims != static_cast<int>(out[i].size()))
                return fail(dnnl_invalid_shape, __func__,
                        "op %zu (%s) output %zu has rank %d, inferred %s", op.id, s.name, i,
                        lt.ndims, dims_str(out[i]).c_str());
            set_dims(lt, out[i]);
            continue;
        }
        ANYDNN_REQUIRE(lt_dims(lt) == out[i], dnnl_invalid_shape,
                "op %zu (%s) output %zu is %s, inputs give %s", op.id, s.name, i,
                dims_str(lt_dims(lt)).c_str(), dims_str(out[i]).c_str());
    }
    return dnnl_success;
}

int channel_axis(const op_t &op, int ndims, const char *default_format) {
    return op.str(dnnl_graph_op_attr_data_format, default_format) == "NCX" ? 1 : ndims - 1;
}

} // namespace graph
} // namespace anydnn
