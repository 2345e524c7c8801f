/* anydnn: C++ wrappers of the graph API (oneDNN v3.13 compatible). Header-only, over
 * dnnl_graph.h; errors throw dnnl::error as in the primitive API. */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_HPP
#define ONEAPI_DNNL_DNNL_GRAPH_HPP

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl_common.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

namespace dnnl {
namespace graph {

using engine = dnnl::engine;
using stream = dnnl::stream;
using fpmath_mode = dnnl::fpmath_mode;

/// Destructors of the graph handles.
template <typename T>
struct graph_handle_traits : public dnnl::handle_traits<T> {};

#define ANYDNN_GRAPH_TRAITS(type) \
    template <> \
    struct graph_handle_traits<dnnl_graph_##type##_t> { \
        static dnnl_status_t destructor(dnnl_graph_##type##_t p) { \
            return dnnl_graph_##type##_destroy(p); \
        } \
    }; \
    using type##_handle = dnnl::handle<dnnl_graph_##type##_t, \
            graph_handle_traits<dnnl_graph_##type##_t>>;

template <>
struct graph_handle_traits<dnnl_graph_graph_t> {
    static dnnl_status_t destructor(dnnl_graph_graph_t p) {
        return dnnl_graph_graph_destroy(p);
    }
};
using graph_handle
        = dnnl::handle<dnnl_graph_graph_t, graph_handle_traits<dnnl_graph_graph_t>>;
ANYDNN_GRAPH_TRAITS(op)
ANYDNN_GRAPH_TRAITS(tensor)
ANYDNN_GRAPH_TRAITS(partition)
ANYDNN_GRAPH_TRAITS(compiled_partition)
ANYDNN_GRAPH_TRAITS(allocator)
#undef ANYDNN_GRAPH_TRAITS

template <bool B>
using req = typename std::enable_if<B, bool>::type;

enum class status {
    success = dnnl_success,
    out_of_memory = dnnl_out_of_memory,
    invalid_arguments = dnnl_invalid_arguments,
    unimplemented = dnnl_unimplemented,
    last_impl_reached = dnnl_last_impl_reached,
    runtime_error = dnnl_runtime_error,
    not_required = dnnl_not_required,
    invalid_graph = dnnl_invalid_graph,
    invalid_graph_op = dnnl_invalid_graph_op,
    invalid_shape = dnnl_invalid_shape,
    invalid_data_type = dnnl_invalid_data_type,
};

/// Host memory call-backs used for everything the graph API allocates on an engine.
class allocator : public allocator_handle {
public:
    using allocator_handle::handle;

    allocator(dnnl_graph_host_allocate_f host_malloc, dnnl_graph_host_deallocate_f host_free) {
        dnnl_graph_allocator_t a = nullptr;
        error::wrap_c_api(dnnl_graph_allocator_create(&a, host_malloc, host_free),
                "could not create allocator for cpu");
        reset(a);
    }

    /// The library's default allocator.
    allocator() {
        dnnl_graph_allocator_t a = nullptr;
        error::wrap_c_api(dnnl_graph_allocator_create(&a, nullptr, nullptr),
                "could not create allocator");
        reset(a);
    }
};

inline engine make_engine_with_allocator(
        engine::kind kind, size_t index, const allocator &alloc) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(dnnl_graph_make_engine_with_allocator(&c_engine,
                              static_cast<dnnl_engine_kind_t>(kind), index, alloc.get()),
            "could not make an engine with allocator");
    return engine(c_engine);
}

/// Type, shape and layout of a tensor in a graph; a plain value.
class logical_tensor {
    friend class op;
    friend class tensor;
    friend class partition;
    friend class compiled_partition;

    dnnl_graph_logical_tensor_t data;

public:
    using dim = dnnl_dim_t;
    using dims = std::vector<dim>;

    enum class data_type {
        undef = dnnl_data_type_undef,
        f16 = dnnl_f16,
        bf16 = dnnl_bf16,
        f32 = dnnl_f32,
        s32 = dnnl_s32,
        s8 = dnnl_s8,
        u8 = dnnl_u8,
        boolean = dnnl_boolean,
        f8_e5m2 = dnnl_f8_e5m2,
        f8_e4m3 = dnnl_f8_e4m3,
        s4 = dnnl_s4,
        u4 = dnnl_u4,
        s64 = dnnl_s64,
    };

    enum class layout_type {
        undef = dnnl_graph_layout_type_undef,
        any = dnnl_graph_layout_type_any,
        strided = dnnl_graph_layout_type_strided,
        opaque = dnnl_graph_layout_type_opaque,
    };

    enum class property_type {
        undef = dnnl_graph_tensor_property_undef,
        variable = dnnl_graph_tensor_property_variable,
        constant = dnnl_graph_tensor_property_constant,
        host_scalar = dnnl_graph_tensor_property_host_scalar,
    };

    logical_tensor() = default;
    explicit logical_tensor(const dnnl_graph_logical_tensor_t &c_data) : data(c_data) {}
    logical_tensor(const logical_tensor &other) = default;
    logical_tensor &operator=(const logical_tensor &other) = default;

    /// Rank only (or unknown rank: -1).
    logical_tensor(size_t tid, data_type dtype, int32_t ndims, layout_type ltype,
            property_type ptype = property_type::undef) {
        error::wrap_c_api(dnnl_graph_logical_tensor_init(&data, tid, convert_to_c(dtype),
                                  ndims, convert_to_c(ltype), convert_to_c(ptype)),
                "could not create logical_tensor with property");
    }

    /// Unknown rank.
    logical_tensor(size_t tid, data_type dtype, layout_type ltype = layout_type::undef)
        : logical_tensor(tid, dtype, DNNL_GRAPH_UNKNOWN_NDIMS, ltype) {}

    /// Shape and layout kind; a strided layout gets dense row-major strides.
    logical_tensor(size_t tid, data_type dtype, const dims &adims, layout_type ltype,
            property_type ptype = property_type::undef) {
        if (adims.size() > DNNL_MAX_NDIMS)
            error::wrap_c_api(dnnl_invalid_arguments, "too many dimensions");
        dnnl_dims_t c_dims = {0};
        for (size_t i = 0; i < adims.size(); ++i)
            c_dims[i] = adims[i];
        error::wrap_c_api(dnnl_graph_logical_tensor_init_with_dims(&data, tid,
                                  convert_to_c(dtype), static_cast<int32_t>(adims.size()),
                                  c_dims, convert_to_c(ltype), convert_to_c(ptype)),
                "could not create logical_tensor with dims");
    }

    /// Shape and explicit strides.
    logical_tensor(size_t tid, data_type dtype, const dims &adims, const dims &strides,
            property_type ptype = property_type::undef) {
        if (adims.size() > DNNL_MAX_NDIMS || strides.size() != adims.size())
            error::wrap_c_api(dnnl_invalid_arguments, "dims and strides do not agree");
        dnnl_dims_t c_dims = {0}, c_strides = {0};
        for (size_t i = 0; i < adims.size(); ++i) {
            c_dims[i] = adims[i];
            c_strides[i] = strides[i];
        }
        error::wrap_c_api(dnnl_graph_logical_tensor_init_with_strides(&data, tid,
                                  convert_to_c(dtype), static_cast<int32_t>(adims.size()),
                                  c_dims, c_strides, convert_to_c(ptype)),
                "could not create logical_tensor with strides");
    }

    /// Shape and an opaque layout id.
    logical_tensor(size_t tid, data_type dtype, const dims &adims, size_t lid,
            property_type ptype = property_type::undef) {
        if (adims.size() > DNNL_MAX_NDIMS)
            error::wrap_c_api(dnnl_invalid_arguments, "too many dimensions");
        dnnl_dims_t c_dims = {0};
        for (size_t i = 0; i < adims.size(); ++i)
            c_dims[i] = adims[i];
        error::wrap_c_api(dnnl_graph_logical_tensor_init_with_dims(&data, tid,
                                  convert_to_c(dtype), static_cast<int32_t>(adims.size()),
                                  c_dims, dnnl_graph_layout_type_opaque, convert_to_c(ptype)),
                "could not create logical_tensor with layout id");
        data.layout.layout_id = lid;
    }

    dims get_dims() const {
        if (data.ndims < 0)
            error::wrap_c_api(dnnl_invalid_arguments, "cannot return dims of an unknown rank");
        return dims(data.dims, data.dims + data.ndims);
    }
    size_t get_id() const { return data.id; }
    data_type get_data_type() const { return static_cast<data_type>(data.data_type); }
    property_type get_property_type() const {
        return static_cast<property_type>(data.property);
    }
    layout_type get_layout_type() const { return static_cast<layout_type>(data.layout_type); }
    size_t get_layout_id() const {
        if (get_layout_type() != layout_type::opaque)
            error::wrap_c_api(dnnl_invalid_arguments, "layout is not opaque");
        return data.layout.layout_id;
    }
    dims get_strides() const {
        if (get_layout_type() != layout_type::strided)
            error::wrap_c_api(dnnl_invalid_arguments, "layout is not strided");
        if (data.ndims < 0)
            error::wrap_c_api(dnnl_invalid_arguments, "cannot return strides of an unknown rank");
        return dims(data.layout.strides, data.layout.strides + data.ndims);
    }
    size_t get_mem_size() const {
        size_t size = 0;
        error::wrap_c_api(dnnl_graph_logical_tensor_get_mem_size(&data, &size),
                "could not get memory size from the logical_tensor");
        return size;
    }
    bool is_equal(const logical_tensor &lt) const {
        uint8_t equal = 0;
        error::wrap_c_api(dnnl_graph_logical_tensor_is_equal(&data, &lt.data, &equal),
                "could not compare the logical tensors");
        return equal != 0;
    }

private:
    static dnnl_data_type_t convert_to_c(data_type dtype) {
        return static_cast<dnnl_data_type_t>(dtype);
    }
    static dnnl_graph_layout_type_t convert_to_c(layout_type ltype) {
        return static_cast<dnnl_graph_layout_type_t>(ltype);
    }
    static dnnl_graph_tensor_property_t convert_to_c(property_type ptype) {
        return static_cast<dnnl_graph_tensor_property_t>(ptype);
    }
};

/// A buffer described by a logical tensor on an engine.
class tensor : public tensor_handle {
public:
    using tensor_handle::handle;

    tensor() = default;
    tensor(const logical_tensor &lt, const engine &aengine, void *handle) {
        dnnl_graph_tensor_t t = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_create(&t, &(lt.data), aengine.get(), handle),
                "could not create tensor object with the logical_tensor, engine, and handle");
        reset(t);
    }
    /// The buffer comes from the engine's allocator.
    tensor(const logical_tensor &lt, const engine &aengine)
        : tensor(lt, aengine, DNNL_MEMORY_ALLOCATE) {}

    static tensor make_scalar_tensor(const logical_tensor &lt, void *scalar) {
        dnnl_graph_tensor_t t = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_create_scalar(&t, &(lt.data), scalar),
                "could not create a scalar tensor object");
        return tensor(t);
    }

    void *get_data_handle() const {
        void *handle = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_get_data_handle(get(), &handle),
                "could not get data handle from the tensor");
        return handle;
    }
    void set_data_handle(void *handle) {
        error::wrap_c_api(dnnl_graph_tensor_set_data_handle(get(), handle),
                "setting data handle to the tensor failed");
    }
    engine get_engine() const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_graph_tensor_get_engine(get(), &c_engine),
                "could not get an engine from a tensor object");
        return engine(c_engine, true);
    }
    logical_tensor get_logical_tensor() const {
        dnnl_graph_logical_tensor_t lt;
        error::wrap_c_api(dnnl_graph_tensor_get_logical_tensor(get(), &lt),
                "could not get logical tensor from a tensor object");
        return logical_tensor(lt);
    }
};

/// A partition compiled for one engine and concrete shapes.
class compiled_partition : public compiled_partition_handle {
public:
    compiled_partition() = default;
    compiled_partition(dnnl_graph_compiled_partition_t compiled_partition) {
        reset(compiled_partition, false);
    }

    logical_tensor query_logical_tensor(size_t tid) const {
        dnnl_graph_logical_tensor_t lt;
        error::wrap_c_api(dnnl_graph_compiled_partition_query_logical_tensor(get(), tid, &lt),
                "query logical tensor from compiled_partition failed");
        return logical_tensor(lt);
    }

    std::vector<std::pair<size_t, size_t>> get_inplace_ports() const {
        size_t num = 0;
        const dnnl_graph_inplace_pair_t *pairs = nullptr;
        error::wrap_c_api(dnnl_graph_compiled_partition_get_inplace_ports(get(), &num, &pairs),
                "could not get the in-place pairs from a compiled partition");
        std::vector<std::pair<size_t, size_t>> result;
        for (size_t i = 0; i < num; ++i)
            result.emplace_back(pairs[i].input_id, pairs[i].output_id);
        return result;
    }

    logical_tensor get_scratchpad_logical_tensor() const {
        dnnl_graph_logical_tensor_t lt;
        error::wrap_c_api(dnnl_graph_compiled_partition_get_scratchpad_logical_tensor(get(), &lt),
                "could not get scratchpad logical tensor from compiled_partition");
        return logical_tensor(lt);
    }

    void execute(stream &astream, const std::vector<tensor> &inputs,
            const std::vector<tensor> &outputs, const tensor &scratchpad = tensor()) const {
        std::vector<const_dnnl_graph_tensor_t> c_inputs, c_outputs;
        c_inputs.reserve(inputs.size());
        for (const auto &t : inputs)
            c_inputs.push_back(t.get());
        c_outputs.reserve(outputs.size());
        for (const auto &t : outputs)
            c_outputs.push_back(t.get());
        error::wrap_c_api(dnnl_graph_compiled_partition_execute_v2(get(), astream.get(),
                                  c_inputs.size(), c_inputs.data(), c_outputs.size(),
                                  c_outputs.data(), scratchpad.get(true)),
                "could not execute the compiled_partition");
    }
};

/// One operation of a graph: kind, attributes and its input and output logical tensors.
class op : public op_handle {
public:
    enum class kind {
        Abs = dnnl_graph_op_abs,
        AbsBackward = dnnl_graph_op_abs_backward,
        Add = dnnl_graph_op_add,
        AvgPool = dnnl_graph_op_avg_pool,
        AvgPoolBackward = dnnl_graph_op_avg_pool_backward,
        BatchNormForwardTraining = dnnl_graph_op_batch_norm_forward_training,
        BatchNormInference = dnnl_graph_op_batch_norm_inference,
        BatchNormTrainingBackward = dnnl_graph_op_batch_norm_backward,
        BiasAdd = dnnl_graph_op_bias_add,
        BiasAddBackward = dnnl_graph_op_bias_add_backward,
        Clamp = dnnl_graph_op_clamp,
        ClampBackward = dnnl_graph_op_clamp_backward,
        Concat = dnnl_graph_op_concat,
        Convolution = dnnl_graph_op_convolution,
        ConvolutionBackwardData = dnnl_graph_op_convolution_backward_data,
        ConvolutionBackwardWeights = dnnl_graph_op_convolution_backward_weights,
        ConvTranspose = dnnl_graph_op_conv_transpose,
        ConvTransposeBackwardData = dnnl_graph_op_conv_transpose_backward_data,
        ConvTransposeBackwardWeights = dnnl_graph_op_conv_transpose_backward_weights,
        Dequantize = dnnl_graph_op_dequantize,
        Divide = dnnl_graph_op_divide,
        DynamicDequantize = dnnl_graph_op_dynamic_dequantize,
        DynamicQuantize = dnnl_graph_op_dynamic_quantize,
        Elu = dnnl_graph_op_elu,
        EluBackward = dnnl_graph_op_elu_backward,
        End = dnnl_graph_op_end,
        Exp = dnnl_graph_op_exp,
        GELU = dnnl_graph_op_gelu,
        GELUBackward = dnnl_graph_op_gelu_backward,
        GroupNorm = dnnl_graph_op_group_norm,
        HardSigmoid = dnnl_graph_op_hard_sigmoid,
        HardSigmoidBackward = dnnl_graph_op_hard_sigmoid_backward,
        HardSwish = dnnl_graph_op_hard_swish,
        HardSwishBackward = dnnl_graph_op_hard_swish_backward,
        Interpolate = dnnl_graph_op_interpolate,
        InterpolateBackward = dnnl_graph_op_interpolate_backward,
        LayerNorm = dnnl_graph_op_layer_norm,
        LayerNormBackward = dnnl_graph_op_layer_norm_backward,
        LeakyReLU = dnnl_graph_op_leaky_relu,
        Log = dnnl_graph_op_log,
        LogSoftmax = dnnl_graph_op_log_softmax,
        LogSoftmaxBackward = dnnl_graph_op_log_softmax_backward,
        MatMul = dnnl_graph_op_matmul,
        Maximum = dnnl_graph_op_maximum,
        MaxPool = dnnl_graph_op_max_pool,
        MaxPoolBackward = dnnl_graph_op_max_pool_backward,
        Minimum = dnnl_graph_op_minimum,
        Mish = dnnl_graph_op_mish,
        MishBackward = dnnl_graph_op_mish_backward,
        Multiply = dnnl_graph_op_multiply,
        Pow = dnnl_graph_op_pow,
        PReLU = dnnl_graph_op_prelu,
        PReLUBackward = dnnl_graph_op_prelu_backward,
        Quantize = dnnl_graph_op_quantize,
        Reciprocal = dnnl_graph_op_reciprocal,
        ReduceL1 = dnnl_graph_op_reduce_l1,
        ReduceL2 = dnnl_graph_op_reduce_l2,
        ReduceMax = dnnl_graph_op_reduce_max,
        ReduceMean = dnnl_graph_op_reduce_mean,
        ReduceMin = dnnl_graph_op_reduce_min,
        ReduceProd = dnnl_graph_op_reduce_prod,
        ReduceSum = dnnl_graph_op_reduce_sum,
        ReLU = dnnl_graph_op_relu,
        ReLUBackward = dnnl_graph_op_relu_backward,
        Reorder = dnnl_graph_op_reorder,
        Round = dnnl_graph_op_round,
        RMSNorm = dnnl_graph_op_rms_norm,
        Select = dnnl_graph_op_select,
        Sigmoid = dnnl_graph_op_sigmoid,
        SigmoidBackward = dnnl_graph_op_sigmoid_backward,
        SoftMax = dnnl_graph_op_softmax,
        SoftMaxBackward = dnnl_graph_op_softmax_backward,
        SoftPlus = dnnl_graph_op_softplus,
        SoftPlusBackward = dnnl_graph_op_softplus_backward,
        Sqrt = dnnl_graph_op_sqrt,
        SqrtBackward = dnnl_graph_op_sqrt_backward,
        Square = dnnl_graph_op_square,
        SquaredDifference = dnnl_graph_op_squared_difference,
        StaticReshape = dnnl_graph_op_static_reshape,
        StaticTranspose = dnnl_graph_op_static_transpose,
        Subtract = dnnl_graph_op_subtract,
        Tanh = dnnl_graph_op_tanh,
        TanhBackward = dnnl_graph_op_tanh_backward,
        TypeCast = dnnl_graph_op_type_cast,
        Wildcard = dnnl_graph_op_wildcard,
        GenIndex = dnnl_graph_op_gen_index,
        GreaterEqual = dnnl_graph_op_greater_equal,
        Dropout = dnnl_graph_op_dropout,
        LastSymbol = dnnl_graph_op_last_symbol,
    };

    enum class attr {
        undef = dnnl_graph_op_attr_undef,
        alpha = dnnl_graph_op_attr_alpha,
        beta = dnnl_graph_op_attr_beta,
        epsilon = dnnl_graph_op_attr_epsilon,
        max = dnnl_graph_op_attr_max,
        min = dnnl_graph_op_attr_min,
        momentum = dnnl_graph_op_attr_momentum,
        scales = dnnl_graph_op_attr_scales,
        axis = dnnl_graph_op_attr_axis,
        begin_norm_axis = dnnl_graph_op_attr_begin_norm_axis,
        groups = dnnl_graph_op_attr_groups,
        axes = dnnl_graph_op_attr_axes,
        dilations = dnnl_graph_op_attr_dilations,
        dst_shape = dnnl_graph_op_attr_dst_shape,
        kernel = dnnl_graph_op_attr_kernel,
        order = dnnl_graph_op_attr_order,
        output_padding = dnnl_graph_op_attr_output_padding,
        pads_begin = dnnl_graph_op_attr_pads_begin,
        pads_end = dnnl_graph_op_attr_pads_end,
        shape = dnnl_graph_op_attr_shape,
        sizes = dnnl_graph_op_attr_sizes,
        src_shape = dnnl_graph_op_attr_src_shape,
        strides = dnnl_graph_op_attr_strides,
        weights_shape = dnnl_graph_op_attr_weights_shape,
        zps = dnnl_graph_op_attr_zps,
        group_shape = dnnl_graph_op_attr_group_shape,
        exclude_pad = dnnl_graph_op_attr_exclude_pad,
        keep_dims = dnnl_graph_op_attr_keep_dims,
        keep_stats = dnnl_graph_op_attr_keep_stats,
        per_channel_broadcast = dnnl_graph_op_attr_per_channel_broadcast,
        special_zero = dnnl_graph_op_attr_special_zero,
        transpose_a = dnnl_graph_op_attr_transpose_a,
        transpose_b = dnnl_graph_op_attr_transpose_b,
        use_affine = dnnl_graph_op_attr_use_affine,
        use_dst = dnnl_graph_op_attr_use_dst,
        auto_broadcast = dnnl_graph_op_attr_auto_broadcast,
        auto_pad = dnnl_graph_op_attr_auto_pad,
        coordinate_transformation_mode = dnnl_graph_op_attr_coordinate_transformation_mode,
        data_format = dnnl_graph_op_attr_data_format,
        mode = dnnl_graph_op_attr_mode,
        qtype = dnnl_graph_op_attr_qtype,
        rounding_type = dnnl_graph_op_attr_rounding_type,
        weights_format = dnnl_graph_op_attr_weights_format,
        accumulation_mode = dnnl_graph_op_attr_accumulation_mode,
        end = dnnl_graph_op_attr_end,
    };

    op(size_t id, kind akind, const std::string &verbose_name = "") {
        dnnl_graph_op_t c_op = nullptr;
        error::wrap_c_api(dnnl_graph_op_create(&c_op, id, convert_to_c(akind),
                                  verbose_name.c_str()),
                "could not create op with id and op kind");
        reset(c_op);
    }

    op(size_t id, kind akind, const std::vector<logical_tensor> &inputs,
            const std::vector<logical_tensor> &outputs, const std::string &verbose_name = "")
        : op(id, akind, verbose_name) {
        add_inputs(inputs);
        add_outputs(outputs);
    }

    void add_input(const logical_tensor &t) {
        error::wrap_c_api(dnnl_graph_op_add_input(get(), &(t.data)),
                "adding input to the op failed");
    }
    void add_inputs(const std::vector<logical_tensor> &ts) {
        for (const auto &t : ts)
            add_input(t);
    }
    void add_output(const logical_tensor &t) {
        error::wrap_c_api(dnnl_graph_op_add_output(get(), &(t.data)),
                "adding output to the op failed");
    }
    void add_outputs(const std::vector<logical_tensor> &ts) {
        for (const auto &t : ts)
            add_output(t);
    }

    template <typename Type_i, req<std::is_same<Type_i, int64_t>::value> = true>
    op &set_attr(attr name, const Type_i &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_s64(get(), convert_to_c(name), &value, 1),
                "could not set attribute to the op");
        return *this;
    }
    template <typename Type_f, req<std::is_same<Type_f, float>::value> = true>
    op &set_attr(attr name, const Type_f &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_f32(get(), convert_to_c(name), &value, 1),
                "could not set attribute to the op");
        return *this;
    }
    template <typename Type_b, req<std::is_same<Type_b, bool>::value> = true>
    op &set_attr(attr name, const Type_b &value) {
        const uint8_t v = value;
        error::wrap_c_api(dnnl_graph_op_set_attr_bool(get(), convert_to_c(name), &v, 1),
                "could not set attribute to the op");
        return *this;
    }
    template <typename Type_s, req<std::is_same<Type_s, std::string>::value> = true>
    op &set_attr(attr name, const Type_s &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_str(
                                  get(), convert_to_c(name), value.c_str(), value.size()),
                "could not set attribute to the op");
        return *this;
    }
    template <typename Type_is, req<std::is_same<Type_is, std::vector<int64_t>>::value> = true>
    op &set_attr(attr name, const Type_is &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_s64(
                                  get(), convert_to_c(name), value.data(), value.size()),
                "could not set attribute to the op");
        return *this;
    }
    template <typename Type_fs, req<std::is_same<Type_fs, std::vector<float>>::value> = true>
    op &set_attr(attr name, const Type_fs &value) {
        error::wrap_c_api(dnnl_graph_op_set_attr_f32(
                                  get(), convert_to_c(name), value.data(), value.size()),
                "could not set attribute to the op");
        return *this;
    }

private:
    dnnl_graph_op_kind_t convert_to_c(kind akind) {
        return static_cast<dnnl_graph_op_kind_t>(akind);
    }
    dnnl_graph_op_attr_t convert_to_c(attr aattr) {
        return static_cast<dnnl_graph_op_attr_t>(aattr);
    }
};

/// A group of ops that is compiled and executed as one unit.
class partition : public partition_handle {
public:
    enum class policy {
        fusion = dnnl_graph_partition_policy_fusion,
        debug = dnnl_graph_partition_policy_debug,
    };

    partition() = default;
    partition(dnnl_graph_partition_t p) { reset(p, false); }
    /// A partition holding one op.
    partition(const op &aop, engine::kind ekind) {
        dnnl_graph_partition_t p = nullptr;
        error::wrap_c_api(dnnl_graph_partition_create_with_op(
                                  &p, aop.get(), static_cast<dnnl_engine_kind_t>(ekind)),
                "could not create a partition with the op and engine kind");
        reset(p);
    }

    size_t get_ops_num() const {
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_partition_get_op_num(get(), &num),
                "could not get number of ops from the partition");
        return num;
    }
    std::vector<size_t> get_ops() const {
        std::vector<size_t> ids(get_ops_num());
        error::wrap_c_api(dnnl_graph_partition_get_ops(get(), ids.size(), ids.data()),
                "could not get op ids from the partition");
        return ids;
    }
    size_t get_id() const {
        size_t id = 0;
        error::wrap_c_api(dnnl_graph_partition_get_id(get(), &id),
                "could not get id of the partition");
        return id;
    }
    compiled_partition compile(const std::vector<logical_tensor> &inputs,
            const std::vector<logical_tensor> &outputs, const engine &e) const {
        if (!is_supported())
            error::wrap_c_api(
                    dnnl_invalid_arguments, "could not compile an unsupported partition");
        std::vector<const dnnl_graph_logical_tensor_t *> c_inputs, c_outputs;
        for (const auto &in : inputs)
            c_inputs.push_back(&(in.data));
        for (const auto &out : outputs)
            c_outputs.push_back(&(out.data));
        dnnl_graph_compiled_partition_t cp = nullptr;
        error::wrap_c_api(dnnl_graph_compiled_partition_create(&cp, get()),
                "could not create compiled_partition");
        compiled_partition result(cp);
        error::wrap_c_api(dnnl_graph_partition_compile(get(), cp, c_inputs.size(),
                                  c_inputs.data(), c_outputs.size(), c_outputs.data(),
                                  e.get()),
                "partition compile failed");
        return result;
    }
    bool is_supported() const {
        uint8_t supported = 0;
        error::wrap_c_api(dnnl_graph_partition_is_supported(get(), &supported),
                "could not get supporting status of the partition");
        return supported != 0;
    }
    std::vector<logical_tensor> get_input_ports() const {
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_partition_get_input_ports_num(get(), &num),
                "could not get number of inputs of the partition");
        std::vector<dnnl_graph_logical_tensor_t> c_lts(num);
        if (num)
            error::wrap_c_api(dnnl_graph_partition_get_input_ports(get(), num, c_lts.data()),
                    "could not get input logical tensors of the partition");
        return std::vector<logical_tensor>(c_lts.begin(), c_lts.end());
    }
    std::vector<logical_tensor> get_output_ports() const {
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_partition_get_output_ports_num(get(), &num),
                "cannot get number of outputs of the partition");
        std::vector<dnnl_graph_logical_tensor_t> c_lts(num);
        if (num)
            error::wrap_c_api(dnnl_graph_partition_get_output_ports(get(), num, c_lts.data()),
                    "could not get output logical tensors of the partition");
        return std::vector<logical_tensor>(c_lts.begin(), c_lts.end());
    }
    engine::kind get_engine_kind() const {
        dnnl_engine_kind_t akind;
        error::wrap_c_api(dnnl_graph_partition_get_engine_kind(get(), &akind),
                "cannot get the engine kind from the partition");
        return static_cast<engine::kind>(akind);
    }
};

/// Ops connected through the ids of their logical tensors.
class graph : public graph_handle {
public:
    graph(engine::kind engine_kind) {
        dnnl_graph_graph_t g = nullptr;
        error::wrap_c_api(dnnl_graph_graph_create(&g, convert_to_c(engine_kind)),
                "could not create graph with engine kind");
        reset(g);
    }
    graph(engine::kind engine_kind, fpmath_mode mode) {
        dnnl_graph_graph_t g = nullptr;
        error::wrap_c_api(dnnl_graph_graph_create_with_fpmath_mode(
                                  &g, convert_to_c(engine_kind), convert_to_c(mode)),
                "could not create graph with engine kind and math mode");
        reset(g);
    }

    void set_fpmath_mode(fpmath_mode mode, bool apply_to_int = false) {
        error::wrap_c_api(dnnl_graph_graph_set_fpmath_mode(get(), convert_to_c(mode),
                                  apply_to_int),
                "could not set fpmath mode graph attribute");
    }
    void get_fpmath_mode(fpmath_mode &mode, bool &apply_to_int) const {
        dnnl_fpmath_mode_t c_mode;
        int c_apply = 0;
        error::wrap_c_api(dnnl_graph_graph_get_fpmath_mode(get(), &c_mode, &c_apply),
                "could not get fpmath mode graph attribute");
        mode = static_cast<fpmath_mode>(c_mode);
        apply_to_int = c_apply != 0;
    }

    status add_op(const op &op, bool allow_exception = true) {
        dnnl_status_t st = dnnl_graph_add_op(get(), op.get());
        if (allow_exception) error::wrap_c_api(st, "could not add op to the graph");
        return static_cast<status>(st);
    }
    void finalize() {
        error::wrap_c_api(dnnl_graph_graph_finalize(get()), "could not finalize the graph");
    }
    bool is_finalized() const {
        uint8_t ret = 0;
        error::wrap_c_api(dnnl_graph_graph_is_finalized(get(), &ret),
                "could not get the finalization status of the graph");
        return ret != 0;
    }

    std::vector<partition> get_partitions(partition::policy policy = partition::policy::fusion) {
        if (!is_finalized())
            error::wrap_c_api(dnnl_invalid_graph, "the graph is not finalized yet");
        error::wrap_c_api(
                dnnl_graph_graph_filter(get(), static_cast<dnnl_graph_partition_policy_t>(policy)),
                "could not filter the graph");
        size_t num = 0;
        error::wrap_c_api(dnnl_graph_graph_get_partition_num(get(), &num),
                "could not get number of partitions from the graph");
        std::vector<dnnl_graph_partition_t> c_parts(num);
        if (num)
            error::wrap_c_api(dnnl_graph_graph_get_partitions(get(), num, c_parts.data()),
                    "could not get partitions from the graph");
        std::vector<partition> result;
        result.reserve(num);
        for (auto p : c_parts)
            result.emplace_back(p);
        return result;
    }

private:
    static dnnl_fpmath_mode_t convert_to_c(fpmath_mode mode) {
        return static_cast<dnnl_fpmath_mode_t>(mode);
    }
    static dnnl_engine_kind_t convert_to_c(engine::kind akind) {
        return static_cast<dnnl_engine_kind_t>(akind);
    }
};

inline int get_compiled_partition_cache_capacity() {
    int result = 0;
    error::wrap_c_api(dnnl_graph_get_compiled_partition_cache_capacity(&result),
            "could not get compiled partition cache capacity");
    return result;
}
inline void set_compiled_partition_cache_capacity(int capacity) {
    error::wrap_c_api(dnnl_graph_set_compiled_partition_cache_capacity(capacity),
            "could not set compiled partition cache capacity");
}
inline void set_constant_tensor_cache(int flag) {
    error::wrap_c_api(dnnl_graph_set_constant_tensor_cache(flag),
            "fail to set constant tensor cache");
}
inline int get_constant_tensor_cache() {
    int result = 0;
    error::wrap_c_api(dnnl_graph_get_constant_tensor_cache(&result),
            "fail to get constant tensor cache");
    return result;
}
inline void set_constant_tensor_cache_capacity(engine::kind kind, size_t size) {
    error::wrap_c_api(dnnl_graph_set_constant_tensor_cache_capacity(
                              static_cast<dnnl_engine_kind_t>(kind), size),
            "fail to set constant tensor cache capacity");
}
inline size_t get_constant_tensor_cache_capacity(engine::kind kind) {
    size_t size = 0;
    error::wrap_c_api(dnnl_graph_get_constant_tensor_cache_capacity(
                              static_cast<dnnl_engine_kind_t>(kind), &size),
            "fail to get constant tensor cache capacity");
    return size;
}

enum class graph_dump_mode : unsigned {
    none = dnnl_graph_dump_mode_none,
    subgraph = dnnl_graph_dump_mode_subgraph,
    graph = dnnl_graph_dump_mode_graph,
};
DNNL_DEFINE_BITMASK_OPS(graph_dump_mode)

inline status set_dump_mode(graph_dump_mode modes) {
    return static_cast<status>(dnnl_graph_set_dump_mode(
            static_cast<dnnl_graph_dump_mode_t>(static_cast<unsigned>(modes))));
}

} // namespace graph
} // namespace dnnl

namespace oneapi {
namespace dnnl = ::dnnl;
} // namespace oneapi

#endif // ONEAPI_DNNL_DNNL_GRAPH_HPP
