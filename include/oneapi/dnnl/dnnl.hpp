/* anydnn: the oneDNN-compatible C++ primitive API. Header-only, C++11; every
 * call forwards to the C API in dnnl.h and turns a failed status into
 * dnnl::error. */

#ifndef ONEAPI_DNNL_DNNL_HPP
#define ONEAPI_DNNL_DNNL_HPP

#include "oneapi/dnnl/dnnl_config.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_common.hpp"

namespace dnnl {

template <typename T>
void validate_container_size(const T &v, const char *error_message,
        int min_size = 1, int max_size = -1) {
    const long n = static_cast<long>(v.size());
    const bool too_small = n < min_size;
    const bool too_large = max_size >= 0 && n > max_size;
    if (too_small || too_large)
        DNNL_THROW_ERROR(dnnl_invalid_arguments, error_message);
}

template <>
struct handle_traits<dnnl_memory_desc_t> {
    static dnnl_status_t destructor(dnnl_memory_desc_t p) {
        return dnnl_memory_desc_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_memory_t> {
    static dnnl_status_t destructor(dnnl_memory_t p) {
        return dnnl_memory_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_primitive_desc_t> {
    static dnnl_status_t destructor(dnnl_primitive_desc_t p) {
        return dnnl_primitive_desc_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_primitive_t> {
    static dnnl_status_t destructor(dnnl_primitive_t p) {
        return dnnl_primitive_destroy(p);
    }
};

struct stream;
struct memory;
struct primitive_desc;

/// A compiled operation, ready to execute on a stream.
struct primitive : public handle<dnnl_primitive_t> {
    enum class kind {
        undef = dnnl_undefined_primitive,
        reorder = dnnl_reorder,
        shuffle = dnnl_shuffle,
        concat = dnnl_concat,
        sum = dnnl_sum,
        convolution = dnnl_convolution,
        deconvolution = dnnl_deconvolution,
        eltwise = dnnl_eltwise,
        lrn = dnnl_lrn,
        batch_normalization = dnnl_batch_normalization,
        inner_product = dnnl_inner_product,
        rnn = dnnl_rnn,
        binary = dnnl_binary,
        matmul = dnnl_matmul,
        resampling = dnnl_resampling,
        pooling = dnnl_pooling,
        reduction = dnnl_reduction,
        prelu = dnnl_prelu,
        softmax = dnnl_softmax,
        layer_normalization = dnnl_layer_normalization,
        group_normalization = dnnl_group_normalization,
    };

    using handle::handle;

    primitive() = default;
    primitive(const_dnnl_primitive_desc_t c_pd);
    primitive(const_dnnl_primitive_desc_t c_pd,
            const std::vector<uint8_t> &cache_blob);
    primitive(const primitive_desc &pd);
    primitive(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob);

    inline const_dnnl_primitive_desc_t get_primitive_desc() const;
    inline kind get_kind() const;
    inline std::vector<uint8_t> get_cache_blob() const;

    void execute(const stream &astream,
            const std::unordered_map<int, memory> &args) const;
};

inline dnnl_primitive_kind_t convert_to_c(primitive::kind akind) {
    return static_cast<dnnl_primitive_kind_t>(akind);
}

const_dnnl_primitive_desc_t primitive::get_primitive_desc() const {
    const_dnnl_primitive_desc_t c_pd = nullptr;
    error::wrap_c_api(dnnl_primitive_get_primitive_desc(get(), &c_pd),
            "anydnn: could not get the primitive descriptor of a primitive");
    return c_pd;
}

primitive::kind primitive::get_kind() const {
    dnnl_primitive_kind_t c_kind = dnnl_undefined_primitive;
    error::wrap_c_api(dnnl_primitive_desc_query(get_primitive_desc(),
                              dnnl_query_primitive_kind, 0, &c_kind),
            "anydnn: could not query the kind of a primitive");
    return static_cast<kind>(c_kind);
}

std::vector<uint8_t> primitive::get_cache_blob() const {
    size_t n = 0;
    error::wrap_c_api(dnnl_primitive_get_cache_blob(get(), &n, nullptr),
            "anydnn: could not query the cache blob size of a primitive");
    std::vector<uint8_t> blob(n);
    error::wrap_c_api(dnnl_primitive_get_cache_blob(get(), &n, blob.data()),
            "anydnn: could not get the cache blob of a primitive");
    return blob;
}

enum class scratchpad_mode {
    library = dnnl_scratchpad_mode_library,
    user = dnnl_scratchpad_mode_user,
};

inline dnnl_scratchpad_mode_t convert_to_c(scratchpad_mode mode) {
    return static_cast<dnnl_scratchpad_mode_t>(mode);
}

enum class rounding_mode {
    environment = dnnl_rounding_mode_environment,
    stochastic = dnnl_rounding_mode_stochastic,
};

inline dnnl_rounding_mode_t convert_to_c(rounding_mode mode) {
    return static_cast<dnnl_rounding_mode_t>(mode);
}

enum class quantization_mode {
    undef = dnnl_quantization_mode_undef,
    static_sazp = dnnl_quantization_mode_static_sazp,
    dynamic_mx = dnnl_quantization_mode_dynamic_mx,
    dynamic_fp = dnnl_quantization_mode_dynamic_fp,
};

inline dnnl_quantization_mode_t convert_to_c(quantization_mode qmode) {
    return static_cast<dnnl_quantization_mode_t>(qmode);
}

enum class prop_kind {
    undef = dnnl_prop_kind_undef,
    forward_training = dnnl_forward_training,
    forward_inference = dnnl_forward_inference,
    forward = dnnl_forward,
    backward = dnnl_backward,
    backward_data = dnnl_backward_data,
    backward_weights = dnnl_backward_weights,
    backward_bias = dnnl_backward_bias,
};

inline dnnl_prop_kind_t convert_to_c(prop_kind akind) {
    return static_cast<dnnl_prop_kind_t>(akind);
}

enum class algorithm {
    undef = dnnl_alg_kind_undef,
    convolution_auto = dnnl_convolution_auto,
    convolution_direct = dnnl_convolution_direct,
    convolution_winograd = dnnl_convolution_winograd,
    deconvolution_direct = dnnl_deconvolution_direct,
    deconvolution_winograd = dnnl_deconvolution_winograd,
    eltwise_relu = dnnl_eltwise_relu,
    eltwise_tanh = dnnl_eltwise_tanh,
    eltwise_elu = dnnl_eltwise_elu,
    eltwise_square = dnnl_eltwise_square,
    eltwise_abs = dnnl_eltwise_abs,
    eltwise_sqrt = dnnl_eltwise_sqrt,
    eltwise_swish = dnnl_eltwise_swish,
    eltwise_linear = dnnl_eltwise_linear,
    eltwise_soft_relu = dnnl_eltwise_soft_relu,
    eltwise_mish = dnnl_eltwise_mish,
    eltwise_logistic = dnnl_eltwise_logistic,
    eltwise_exp = dnnl_eltwise_exp,
    eltwise_gelu_tanh = dnnl_eltwise_gelu_tanh,
    eltwise_gelu_erf = dnnl_eltwise_gelu_erf,
    eltwise_log = dnnl_eltwise_log,
    eltwise_clip = dnnl_eltwise_clip,
    eltwise_clip_v2 = dnnl_eltwise_clip_v2,
    eltwise_pow = dnnl_eltwise_pow,
    eltwise_round = dnnl_eltwise_round,
    eltwise_hardswish = dnnl_eltwise_hardswish,
    eltwise_hardsigmoid = dnnl_eltwise_hardsigmoid,
    eltwise_relu_use_dst_for_bwd = dnnl_eltwise_relu_use_dst_for_bwd,
    eltwise_tanh_use_dst_for_bwd = dnnl_eltwise_tanh_use_dst_for_bwd,
    eltwise_elu_use_dst_for_bwd = dnnl_eltwise_elu_use_dst_for_bwd,
    eltwise_sqrt_use_dst_for_bwd = dnnl_eltwise_sqrt_use_dst_for_bwd,
    eltwise_logistic_use_dst_for_bwd = dnnl_eltwise_logistic_use_dst_for_bwd,
    eltwise_exp_use_dst_for_bwd = dnnl_eltwise_exp_use_dst_for_bwd,
    eltwise_clip_v2_use_dst_for_bwd = dnnl_eltwise_clip_v2_use_dst_for_bwd,
    lrn_across_channels = dnnl_lrn_across_channels,
    lrn_within_channel = dnnl_lrn_within_channel,
    pooling_max = dnnl_pooling_max,
    pooling_avg_include_padding = dnnl_pooling_avg_include_padding,
    pooling_avg_exclude_padding = dnnl_pooling_avg_exclude_padding,
    vanilla_rnn = dnnl_vanilla_rnn,
    vanilla_lstm = dnnl_vanilla_lstm,
    vanilla_gru = dnnl_vanilla_gru,
    lbr_gru = dnnl_lbr_gru,
    vanilla_augru = dnnl_vanilla_augru,
    lbr_augru = dnnl_lbr_augru,
    binary_add = dnnl_binary_add,
    binary_mul = dnnl_binary_mul,
    binary_max = dnnl_binary_max,
    binary_min = dnnl_binary_min,
    binary_div = dnnl_binary_div,
    binary_sub = dnnl_binary_sub,
    binary_ge = dnnl_binary_ge,
    binary_gt = dnnl_binary_gt,
    binary_le = dnnl_binary_le,
    binary_lt = dnnl_binary_lt,
    binary_eq = dnnl_binary_eq,
    binary_ne = dnnl_binary_ne,
    binary_select = dnnl_binary_select,
    resampling_nearest = dnnl_resampling_nearest,
    resampling_linear = dnnl_resampling_linear,
    reduction_max = dnnl_reduction_max,
    reduction_min = dnnl_reduction_min,
    reduction_sum = dnnl_reduction_sum,
    reduction_mul = dnnl_reduction_mul,
    reduction_mean = dnnl_reduction_mean,
    reduction_norm_lp_max = dnnl_reduction_norm_lp_max,
    reduction_norm_lp_sum = dnnl_reduction_norm_lp_sum,
    reduction_norm_lp_power_p_max = dnnl_reduction_norm_lp_power_p_max,
    reduction_norm_lp_power_p_sum = dnnl_reduction_norm_lp_power_p_sum,
    softmax_accurate = dnnl_softmax_accurate,
    softmax_log = dnnl_softmax_log,
};

inline dnnl_alg_kind_t convert_to_c(algorithm aalgorithm) {
    return static_cast<dnnl_alg_kind_t>(aalgorithm);
}

enum class normalization_flags : unsigned {
    none = dnnl_normalization_flags_none,
    use_global_stats = dnnl_use_global_stats,
    use_scale = dnnl_use_scale,
    use_shift = dnnl_use_shift,
    fuse_norm_relu = dnnl_fuse_norm_relu,
    fuse_norm_add_relu = dnnl_fuse_norm_add_relu,
    rms_norm = dnnl_rms_norm,
};

inline dnnl_normalization_flags_t convert_to_c(normalization_flags flags) {
    return static_cast<dnnl_normalization_flags_t>(flags);
}

enum class rnn_flags : unsigned {
    undef = dnnl_rnn_flags_undef,
    diff_weights_overwrite = dnnl_rnn_flags_diff_weights_overwrite,
};

inline dnnl_rnn_flags_t convert_to_c(rnn_flags flags) {
    return static_cast<dnnl_rnn_flags_t>(flags);
}

DNNL_DEFINE_BITMASK_OPS(normalization_flags)
DNNL_DEFINE_BITMASK_OPS(rnn_flags)

enum class rnn_direction {
    undef = dnnl_rnn_direction_undef,
    unidirectional_left2right = dnnl_unidirectional_left2right,
    unidirectional_right2left = dnnl_unidirectional_right2left,
    bidirectional_concat = dnnl_bidirectional_concat,
    bidirectional_sum = dnnl_bidirectional_sum,
};

inline dnnl_rnn_direction_t convert_to_c(rnn_direction dir) {
    return static_cast<dnnl_rnn_direction_t>(dir);
}

enum class query {
    undef = dnnl_query_undef,
    engine = dnnl_query_engine,
    primitive_kind = dnnl_query_primitive_kind,
    num_of_inputs_s32 = dnnl_query_num_of_inputs_s32,
    num_of_outputs_s32 = dnnl_query_num_of_outputs_s32,
    time_estimate_f64 = dnnl_query_time_estimate_f64,
    memory_consumption_s64 = dnnl_query_memory_consumption_s64,
    scratchpad_engine = dnnl_query_scratchpad_engine,
    reorder_src_engine = dnnl_query_reorder_src_engine,
    reorder_dst_engine = dnnl_query_reorder_dst_engine,
    impl_info_str = dnnl_query_impl_info_str,
    prop_kind = dnnl_query_prop_kind,
    cache_blob_id_size_s64 = dnnl_query_cache_blob_id_size_s64,
    cache_blob_id = dnnl_query_cache_blob_id,
    strides = dnnl_query_strides,
    dilations = dnnl_query_dilations,
    padding_l = dnnl_query_padding_l,
    padding_r = dnnl_query_padding_r,
    epsilon_f32 = dnnl_query_epsilon_f32,
    flags = dnnl_query_flags,
    alg_kind = dnnl_query_alg_kind,
    alpha_f32 = dnnl_query_alpha_f32,
    beta_f32 = dnnl_query_beta_f32,
    axis_s32 = dnnl_query_axis_s32,
    local_size_s64 = dnnl_query_local_size_s64,
    k_f32 = dnnl_query_k_f32,
    p_f32 = dnnl_query_p_f32,
    factors = dnnl_query_factors,
    cell_kind = dnnl_query_cell_kind,
    direction = dnnl_query_direction,
    activation_kind = dnnl_query_activation_kind,
    kernel = dnnl_query_kernel,
    group_size_s64 = dnnl_query_group_size_s64,
    src_md = dnnl_query_src_md,
    diff_src_md = dnnl_query_diff_src_md,
    weights_md = dnnl_query_weights_md,
    diff_weights_md = dnnl_query_diff_weights_md,
    dst_md = dnnl_query_dst_md,
    diff_dst_md = dnnl_query_diff_dst_md,
    workspace_md = dnnl_query_workspace_md,
    scratchpad_md = dnnl_query_scratchpad_md,
    exec_arg_md = dnnl_query_exec_arg_md,
    ndims_s32 = dnnl_query_ndims_s32,
    dims = dnnl_query_dims,
    data_type = dnnl_query_data_type,
    submemory_offset_s64 = dnnl_query_submemory_offset_s64,
    padded_dims = dnnl_query_padded_dims,
    padded_offsets = dnnl_query_padded_offsets,
    format_kind = dnnl_query_format_kind,
    inner_nblks_s32 = dnnl_query_inner_nblks_s32,
    inner_blks = dnnl_query_inner_blks,
    inner_idxs = dnnl_query_inner_idxs,
    sparse_encoding = dnnl_query_sparse_encoding,
    nnz_s64 = dnnl_query_nnz_s64,
    num_handles_s32 = dnnl_query_num_handles_s32,
};

inline dnnl_query_t convert_to_c(query aquery) {
    return static_cast<dnnl_query_t>(aquery);
}

/// Data on an engine, described by a memory::desc.
struct memory : public handle<dnnl_memory_t> {
    using handle::handle;

    using dim = dnnl_dim_t;
    using dims = std::vector<dim>;

    template <typename T>
    static void validate_dims(const std::vector<T> &v, int min_size = 0) {
        validate_container_size(v, "anydnn: wrong number of dimensions",
                min_size, DNNL_MAX_NDIMS);
    }

    enum class data_type {
        undef = dnnl_data_type_undef,
        f4_e3m0 = dnnl_f4_e3m0,
        f4_e2m1 = dnnl_f4_e2m1,
        e8m0 = dnnl_e8m0,
        f8_e5m2 = dnnl_f8_e5m2,
        f8_e4m3 = dnnl_f8_e4m3,
        f16 = dnnl_f16,
        bf16 = dnnl_bf16,
        f32 = dnnl_f32,
        f64 = dnnl_f64,
        s64 = dnnl_s64,
        s32 = dnnl_s32,
        s8 = dnnl_s8,
        u8 = dnnl_u8,
        s4 = dnnl_s4,
        u4 = dnnl_u4,
    };

    static size_t data_type_size(data_type adata_type) {
        return dnnl_data_type_size(convert_to_c(adata_type));
    }

    enum class format_kind {
        undef = dnnl_format_kind_undef,
        any = dnnl_format_kind_any,
        blocked = dnnl_blocked,
        sparse = dnnl_format_kind_sparse,
        host_scalar = dnnl_format_kind_host_scalar,
        opaque = dnnl_format_kind_opaque,
    };

    enum class sparse_encoding {
        undef = dnnl_sparse_encoding_undef,
        csr = dnnl_csr,
        packed = dnnl_packed,
        coo = dnnl_coo,
#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
        grouped = dnnl_grouped,
#endif
    };

    // The enumerators are generated from the same table as dnnl_format_tag_t.
    enum class format_tag {
#include "oneapi/dnnl/dnnl_format_tags_cpp.inc"
    };

    /// Shape, data type and layout of a tensor.
    struct desc : public handle<dnnl_memory_desc_t> {
        using handle<dnnl_memory_desc_t>::handle;

        friend struct memory;

        desc() {
            dnnl_memory_desc_t md = nullptr;
            error::wrap_c_api(dnnl_memory_desc_create_with_tag(&md, 0, nullptr,
                                      dnnl_data_type_undef,
                                      dnnl_format_tag_undef),
                    "anydnn: could not create an empty memory descriptor");
            reset(md);
        }

        desc(const dims &adims, data_type adata_type, format_tag aformat_tag,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_with_tag(&md,
                    static_cast<int>(adims.size()), adims.data(),
                    convert_to_c(adata_type), convert_to_c(aformat_tag));
            keep(st, md, allow_empty,
                    "anydnn: could not create a memory descriptor from a "
                    "format tag");
        }

        desc(const dims &adims, data_type adata_type, const dims &strides,
                bool allow_empty = false) {
            validate_dims(adims);
            if (!strides.empty())
                validate_dims(strides, static_cast<int>(adims.size()));
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_with_strides(&md,
                    static_cast<int>(adims.size()), adims.data(),
                    convert_to_c(adata_type),
                    strides.empty() ? nullptr : strides.data());
            keep(st, md, allow_empty,
                    "anydnn: could not create a memory descriptor from "
                    "strides");
        }

        static desc csr(const dims &adims, data_type adata_type, dim nnz,
                data_type index_dt, data_type pointer_dt,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_with_csr_encoding(
                    &md, static_cast<int>(adims.size()), adims.data(),
                    convert_to_c(adata_type), nnz, convert_to_c(index_dt),
                    convert_to_c(pointer_dt));
            return made(st, md, allow_empty,
                    "anydnn: could not create a CSR memory descriptor");
        }

        static desc coo(const dims &adims, data_type adata_type, dim nnz,
                data_type index_dt, bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_with_coo_encoding(
                    &md, static_cast<int>(adims.size()), adims.data(),
                    convert_to_c(adata_type), nnz, convert_to_c(index_dt));
            return made(st, md, allow_empty,
                    "anydnn: could not create a COO memory descriptor");
        }

        static desc packed(const dims &adims, data_type adata_type, dim nnz,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st
                    = dnnl_memory_desc_create_with_packed_encoding(&md,
                            static_cast<int>(adims.size()), adims.data(),
                            convert_to_c(adata_type), nnz);
            return made(st, md, allow_empty,
                    "anydnn: could not create a packed sparse memory "
                    "descriptor");
        }

#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
        static desc grouped(const dims &adims, data_type adata_type,
                int variable_dim_idx, dim group_count,
                data_type offsets_dt = data_type::s32,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st
                    = dnnl_memory_desc_create_with_grouped_encoding(&md,
                            static_cast<int>(adims.size()), adims.data(),
                            convert_to_c(adata_type), variable_dim_idx,
                            group_count, convert_to_c(offsets_dt));
            return made(st, md, allow_empty,
                    "anydnn: could not create a grouped memory descriptor");
        }
#endif

        static desc host_scalar(data_type adata_type) {
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_host_scalar(
                    &md, convert_to_c(adata_type));
            return made(st, md, false,
                    "anydnn: could not create a host scalar memory "
                    "descriptor");
        }

        desc(dnnl_memory_desc_t md) : handle<dnnl_memory_desc_t>(md) {}

        desc(const std::vector<uint8_t> &blob) {
            dnnl_memory_desc_t md = nullptr;
            error::wrap_c_api(
                    dnnl_memory_desc_create_with_blob(&md, blob.data()),
                    "anydnn: could not create a memory descriptor from a "
                    "blob");
            reset(md);
        }

        desc submemory_desc(const dims &adims, const dims &offsets,
                bool allow_empty = false) const {
            const int nd = get_ndims();
            validate_dims(adims, nd);
            validate_dims(offsets, nd);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_create_submemory(
                    &md, get(), adims.data(), offsets.data());
            return made(st, md, allow_empty,
                    "anydnn: could not create a sub-memory descriptor");
        }

        desc reshape(const dims &adims, bool allow_empty = false) const {
            if (get_ndims() != 0) validate_dims(adims, 1);
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_reshape(&md, get(),
                    static_cast<int>(adims.size()), adims.data());
            return made(st, md, allow_empty,
                    "anydnn: could not reshape a memory descriptor");
        }

        desc permute_axes(const std::vector<int> &permutation,
                bool allow_empty = false) const {
            validate_dims(permutation, get_ndims());
            dnnl_memory_desc_t md = nullptr;
            const dnnl_status_t st = dnnl_memory_desc_permute_axes(
                    &md, get(), permutation.data());
            return made(st, md, allow_empty,
                    "anydnn: could not permute the axes of a memory "
                    "descriptor");
        }

        int get_ndims() const { return int_query(query::ndims_s32); }

        memory::dims get_padded_dims() const {
            return dims_query(query::padded_dims);
        }

        memory::dims get_padded_offsets() const {
            return dims_query(query::padded_offsets);
        }

        memory::dim get_submemory_offset() const {
            dnnl_dim_t off = 0;
            return dnnl_memory_desc_query(get(),
                           dnnl_query_submemory_offset_s64, &off)
                            == dnnl_success
                    ? off
                    : 0;
        }

        memory::dims get_strides() const { return dims_query(query::strides); }

        int get_inner_nblks() const {
            return int_query(query::inner_nblks_s32);
        }

        memory::dims get_inner_blks() const {
            return dims_query(query::inner_blks);
        }

        memory::dims get_inner_idxs() const {
            return dims_query(query::inner_idxs);
        }

        int get_num_handles() const {
            int n = 0;
            return dnnl_memory_desc_query_v2(
                           get(), dnnl_query_num_handles_s32, 0, &n)
                            == dnnl_success
                    ? n
                    : 0;
        }

        dim get_nnz() const {
            dnnl_dim_t n = 0;
            return dnnl_memory_desc_query_v2(get(), dnnl_query_nnz_s64, 0, &n)
                            == dnnl_success
                    ? n
                    : 0;
        }

        memory::sparse_encoding get_sparse_encoding() const {
            dnnl_sparse_encoding_t enc = dnnl_sparse_encoding_undef;
            if (dnnl_memory_desc_query_v2(
                        get(), dnnl_query_sparse_encoding, 0, &enc)
                    != dnnl_success)
                return memory::sparse_encoding::undef;
            return static_cast<memory::sparse_encoding>(enc);
        }

        memory::data_type get_data_type(int index = 0) const {
            dnnl_data_type_t dt = dnnl_data_type_undef;
            if (dnnl_memory_desc_query_v2(
                        get(), dnnl_query_data_type, index, &dt)
                    != dnnl_success)
                return memory::data_type::undef;
            return static_cast<memory::data_type>(dt);
        }

        memory::format_kind get_format_kind() const {
            dnnl_format_kind_t fk = dnnl_format_kind_undef;
            if (dnnl_memory_desc_query(get(), dnnl_query_format_kind, &fk)
                    != dnnl_success)
                return memory::format_kind::undef;
            return static_cast<memory::format_kind>(fk);
        }

        memory::dims get_dims() const { return dims_query(query::dims); }

        size_t get_size(int index = 0) const {
            return dnnl_memory_desc_get_size_v2(get(), index);
        }

        std::vector<uint8_t> get_blob() {
            size_t n = 0;
            error::wrap_c_api(dnnl_memory_desc_get_blob(nullptr, &n, get()),
                    "anydnn: could not query the memory descriptor blob "
                    "size");
            std::vector<uint8_t> blob(n);
            error::wrap_c_api(
                    dnnl_memory_desc_get_blob(blob.data(), &n, get()),
                    "anydnn: could not serialize a memory descriptor");
            return blob;
        }

        bool is_zero() const { return get_ndims() == 0; }

        bool operator==(const desc &other) const {
            return dnnl_memory_desc_equal(get(), other.get()) != 0;
        }

        bool operator!=(const desc &other) const { return !(*this == other); }

    private:
        // Takes ownership of a freshly created md; throws unless allowed.
        void keep(dnnl_status_t st, dnnl_memory_desc_t md, bool allow_empty,
                const char *what) {
            if (st != dnnl_success) {
                if (md) dnnl_memory_desc_destroy(md);
                md = nullptr;
                if (!allow_empty) error::wrap_c_api(st, what);
            }
            reset(md);
        }

        static desc made(dnnl_status_t st, dnnl_memory_desc_t md,
                bool allow_empty, const char *what) {
            desc out(static_cast<dnnl_memory_desc_t>(nullptr));
            out.keep(st, md, allow_empty, what);
            return out;
        }

        int int_query(query what) const {
            int v = 0;
            return dnnl_memory_desc_query(get(), dnnl::convert_to_c(what), &v)
                            == dnnl_success
                    ? v
                    : 0;
        }

        memory::dims dims_query(query what) const {
            const dnnl_dims_t *arr = nullptr;
            if (dnnl_memory_desc_query(get(), dnnl::convert_to_c(what), &arr)
                            != dnnl_success
                    || arr == nullptr)
                return memory::dims();
            const bool blocking
                    = what == query::inner_blks || what == query::inner_idxs;
            const int n = blocking ? get_inner_nblks() : get_ndims();
            return memory::dims(*arr, *arr + n);
        }
    };

    memory() = default;

    memory(const desc &md, const engine &aengine, void *handle)
        : memory(md, aengine, std::vector<void *>(1, handle)) {}

    memory(const desc &md, const engine &aengine, std::vector<void *> handles) {
        dnnl_memory_t c_mem = nullptr;
        error::wrap_c_api(
                dnnl_memory_create_v2(&c_mem, md.get(), aengine.get(),
                        static_cast<int>(handles.size()), handles.data()),
                "anydnn: could not create a memory object");
        reset(c_mem);
    }

    memory(const desc &md, const engine &aengine)
        : memory(md, aengine,
                std::vector<void *>(
                        static_cast<size_t>(
                                std::max(1, md.get_num_handles())),
                        DNNL_MEMORY_ALLOCATE)) {}

    template <typename T>
    memory(const desc &md, const T value) {
        if (md.get_size() != sizeof(T))
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: host scalar type size differs from the memory "
                    "descriptor size");
        dnnl_memory_t c_mem = nullptr;
        error::wrap_c_api(dnnl_memory_create_host_scalar(
                                  &c_mem, md.get(), const_cast<T *>(&value)),
                "anydnn: could not create a host scalar memory object");
        reset(c_mem);
    }

    desc get_desc() const {
        const_dnnl_memory_desc_t c_md = nullptr;
        error::wrap_c_api(dnnl_memory_get_memory_desc(get(), &c_md),
                "anydnn: could not get the descriptor of a memory object");
        dnnl_memory_desc_t copy = nullptr;
        error::wrap_c_api(dnnl_memory_desc_clone(&copy, c_md),
                "anydnn: could not clone a memory descriptor");
        return desc(copy);
    }

    engine get_engine() const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_memory_get_engine(get(), &c_engine),
                "anydnn: could not get the engine of a memory object");
        return engine(c_engine, true);
    }

    void *get_data_handle(int index = 0) const {
        void *ptr = nullptr;
        error::wrap_c_api(dnnl_memory_get_data_handle_v2(get(), &ptr, index),
                "anydnn: could not get the data handle of a memory object");
        return ptr;
    }

    void set_data_handle(void *handle, int index = 0) const {
        error::wrap_c_api(dnnl_memory_set_data_handle_v2(get(), handle, index),
                "anydnn: could not set the data handle of a memory object");
    }

    template <typename T>
    T get_host_scalar_value() const {
        check_scalar_size(sizeof(T));
        T value;
        error::wrap_c_api(dnnl_memory_get_host_scalar_value(get(), &value),
                "anydnn: could not read a host scalar memory object");
        return value;
    }

    template <typename T>
    void set_host_scalar_value(const T value) const {
        check_scalar_size(sizeof(T));
        error::wrap_c_api(dnnl_memory_set_host_scalar_value(get(), &value),
                "anydnn: could not write a host scalar memory object");
    }

    template <typename T = void>
    T *map_data(int index = 0) const {
        void *ptr = nullptr;
        error::wrap_c_api(dnnl_memory_map_data_v2(get(), &ptr, index),
                "anydnn: could not map a memory object");
        return static_cast<T *>(ptr);
    }

    void unmap_data(void *mapped_ptr, int index = 0) const {
        error::wrap_c_api(dnnl_memory_unmap_data_v2(get(), mapped_ptr, index),
                "anydnn: could not unmap a memory object");
    }

    static dnnl_data_type_t convert_to_c(data_type adata_type) {
        return static_cast<dnnl_data_type_t>(adata_type);
    }

    static dnnl_format_tag_t convert_to_c(format_tag format) {
        return static_cast<dnnl_format_tag_t>(format);
    }

private:
    void check_scalar_size(size_t bytes) const {
        const_dnnl_memory_desc_t c_md = nullptr;
        error::wrap_c_api(dnnl_memory_get_memory_desc(get(), &c_md),
                "anydnn: could not get the descriptor of a memory object");
        if (dnnl_memory_desc_get_size_v2(c_md, 0) != bytes)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: host scalar type size differs from the memory "
                    "descriptor size");
    }
};

inline bool operator==(dnnl_data_type_t a, memory::data_type b) {
    return a == memory::convert_to_c(b);
}
inline bool operator!=(dnnl_data_type_t a, memory::data_type b) {
    return a != memory::convert_to_c(b);
}
inline bool operator==(memory::data_type a, dnnl_data_type_t b) {
    return memory::convert_to_c(a) == b;
}
inline bool operator!=(memory::data_type a, dnnl_data_type_t b) {
    return memory::convert_to_c(a) != b;
}
inline bool operator==(dnnl_format_tag_t a, memory::format_tag b) {
    return a == memory::convert_to_c(b);
}
inline bool operator!=(dnnl_format_tag_t a, memory::format_tag b) {
    return a != memory::convert_to_c(b);
}
inline bool operator==(memory::format_tag a, dnnl_format_tag_t b) {
    return memory::convert_to_c(a) == b;
}
inline bool operator!=(memory::format_tag a, dnnl_format_tag_t b) {
    return memory::convert_to_c(a) != b;
}

namespace anydnn_detail {

// Deep copy of a descriptor the library owns; an empty desc for nullptr.
inline memory::desc copy_md(const_dnnl_memory_desc_t c_md) {
    if (c_md == nullptr) return memory::desc();
    dnnl_memory_desc_t copy = nullptr;
    error::wrap_c_api(dnnl_memory_desc_clone(&copy, c_md),
            "anydnn: could not clone a memory descriptor");
    return memory::desc(copy);
}

inline const_dnnl_memory_desc_t c_md_or_null(const memory::desc *md) {
    return md ? md->get() : nullptr;
}

} // namespace anydnn_detail

template <>
struct handle_traits<dnnl_post_ops_t> {
    static dnnl_status_t destructor(dnnl_post_ops_t p) {
        return dnnl_post_ops_destroy(p);
    }
};

/// An ordered chain of operations fused after a primitive.
struct post_ops : public handle<dnnl_post_ops_t> {
    using handle<dnnl_post_ops_t>::handle;

    post_ops() {
        dnnl_post_ops_t c_ops = nullptr;
        error::wrap_c_api(dnnl_post_ops_create(&c_ops),
                "anydnn: could not create post-ops");
        reset(c_ops);
    }

    post_ops(dnnl_post_ops_t post_ops) : handle<dnnl_post_ops_t>(post_ops) {}

    int len() const { return dnnl_post_ops_len(get()); }

    primitive::kind kind(int index) const {
        if (index < 0 || index >= len())
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: post-op index out of range");
        return static_cast<primitive::kind>(
                dnnl_post_ops_get_kind(get(), index));
    }

    void append_sum(float scale = 1.f, int32_t zero_point = 0,
            memory::data_type data_type = memory::data_type::undef) {
        error::wrap_c_api(dnnl_post_ops_append_sum(get(), scale, zero_point,
                                  memory::convert_to_c(data_type)),
                "anydnn: could not append a sum post-op");
    }

    void get_params_sum(int index, float &scale) const {
        error::wrap_c_api(dnnl_post_ops_get_params_sum(
                                  get(), index, &scale, nullptr, nullptr),
                "anydnn: could not read a sum post-op");
    }

    void get_params_sum(
            int index, float &scale, memory::data_type &data_type) const {
        int32_t zp = 0;
        get_params_sum(index, scale, zp, data_type);
    }

    void get_params_sum(int index, float &scale, int32_t &zero_point,
            memory::data_type &data_type) const {
        dnnl_data_type_t dt = dnnl_data_type_undef;
        error::wrap_c_api(dnnl_post_ops_get_params_sum(
                                  get(), index, &scale, &zero_point, &dt),
                "anydnn: could not read a sum post-op");
        data_type = static_cast<memory::data_type>(dt);
    }

    void append_eltwise(algorithm aalgorithm, float alpha, float beta) {
        error::wrap_c_api(dnnl_post_ops_append_eltwise(
                                  get(), convert_to_c(aalgorithm), alpha, beta),
                "anydnn: could not append an eltwise post-op");
    }

    void get_params_eltwise(
            int index, algorithm &aalgorithm, float &alpha, float &beta) const {
        dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
        error::wrap_c_api(dnnl_post_ops_get_params_eltwise(
                                  get(), index, &alg, &alpha, &beta),
                "anydnn: could not read an eltwise post-op");
        aalgorithm = static_cast<algorithm>(alg);
    }

    void append_dw(memory::data_type weights_data_type,
            memory::data_type bias_data_type, memory::data_type dst_data_type,
            memory::dim kernel_size, memory::dim stride_size,
            memory::dim padding_l_size) {
        error::wrap_c_api(
                dnnl_post_ops_append_dw(get(),
                        memory::convert_to_c(weights_data_type),
                        memory::convert_to_c(bias_data_type),
                        memory::convert_to_c(dst_data_type), kernel_size,
                        stride_size, padding_l_size),
                "anydnn: could not append a depthwise post-op");
    }

    void get_params_dw(int index, memory::data_type &weights_data_type,
            memory::data_type &bias_data_type, memory::data_type &dst_data_type,
            memory::dim &kernel_size, memory::dim &stride_size,
            memory::dim &padding_l_size) const {
        dnnl_data_type_t wei = dnnl_data_type_undef;
        dnnl_data_type_t bia = dnnl_data_type_undef;
        dnnl_data_type_t dst = dnnl_data_type_undef;
        error::wrap_c_api(
                dnnl_post_ops_get_params_dw(get(), index, &wei, &bia, &dst,
                        &kernel_size, &stride_size, &padding_l_size),
                "anydnn: could not read a depthwise post-op");
        weights_data_type = static_cast<memory::data_type>(wei);
        bias_data_type = static_cast<memory::data_type>(bia);
        dst_data_type = static_cast<memory::data_type>(dst);
    }

    void append_binary(algorithm aalgorithm, const memory::desc &src1_desc) {
        error::wrap_c_api(dnnl_post_ops_append_binary(get(),
                                  convert_to_c(aalgorithm), src1_desc.get()),
                "anydnn: could not append a binary post-op");
    }

    void append_binary(algorithm aalgorithm, const memory::desc &src1_desc,
            const memory::desc &src2_desc) {
        error::wrap_c_api(
                dnnl_post_ops_append_binary_v2(get(), convert_to_c(aalgorithm),
                        src1_desc.get(), src2_desc.get()),
                "anydnn: could not append a ternary binary post-op");
    }

    void get_params_binary(
            int index, algorithm &aalgorithm, memory::desc &src1_desc) const {
        dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
        const_dnnl_memory_desc_t md1 = nullptr;
        error::wrap_c_api(
                dnnl_post_ops_get_params_binary(get(), index, &alg, &md1),
                "anydnn: could not read a binary post-op");
        aalgorithm = static_cast<algorithm>(alg);
        src1_desc = anydnn_detail::copy_md(md1);
    }

    void get_params_binary(int index, algorithm &aalgorithm,
            memory::desc &src1_desc, memory::desc &src2_desc) const {
        dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
        const_dnnl_memory_desc_t md1 = nullptr, md2 = nullptr;
        error::wrap_c_api(dnnl_post_ops_get_params_binary_v2(
                                  get(), index, &alg, &md1, &md2),
                "anydnn: could not read a ternary binary post-op");
        aalgorithm = static_cast<algorithm>(alg);
        src1_desc = anydnn_detail::copy_md(md1);
        src2_desc = anydnn_detail::copy_md(md2);
    }

    void append_prelu(int mask) {
        error::wrap_c_api(dnnl_post_ops_append_prelu(get(), mask),
                "anydnn: could not append a prelu post-op");
    }

    void get_params_prelu(int index, int &mask) const {
        error::wrap_c_api(dnnl_post_ops_get_params_prelu(get(), index, &mask),
                "anydnn: could not read a prelu post-op");
    }
};

template <>
struct handle_traits<dnnl_primitive_attr_t> {
    static dnnl_status_t destructor(dnnl_primitive_attr_t p) {
        return dnnl_primitive_attr_destroy(p);
    }
};

/// Optional settings of a primitive: post-ops, quantization, modes.
struct primitive_attr : public handle<dnnl_primitive_attr_t> {
    using handle<dnnl_primitive_attr_t>::handle;

    primitive_attr() {
        dnnl_primitive_attr_t c_attr = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_create(&c_attr),
                "anydnn: could not create primitive attributes");
        reset(c_attr);
    }

    primitive_attr(dnnl_primitive_attr_t attr)
        : handle<dnnl_primitive_attr_t>(attr) {}

    void get_dropout(memory::desc &mask_desc) const {
        const_dnnl_memory_desc_t md = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_dropout(get(), &md),
                "anydnn: could not read the dropout attribute");
        mask_desc = anydnn_detail::copy_md(md);
    }

    void get_dropout(memory::desc &mask_desc, memory::data_type &seed_dt,
            bool &use_offset, bool &use_host_scalars) const {
        const_dnnl_memory_desc_t md = nullptr;
        dnnl_data_type_t dt = dnnl_data_type_undef;
        int offset = 0, host = 0;
        error::wrap_c_api(dnnl_primitive_attr_get_dropout_v2(
                                  get(), &md, &dt, &offset, &host),
                "anydnn: could not read the dropout attribute");
        mask_desc = anydnn_detail::copy_md(md);
        seed_dt = static_cast<memory::data_type>(dt);
        use_offset = offset != 0;
        use_host_scalars = host != 0;
    }

    void set_dropout(const memory::desc &mask_desc) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_dropout(get(), mask_desc.get()),
                "anydnn: could not set the dropout attribute");
    }

    void set_dropout(const memory::desc &mask_desc, memory::data_type seed_dt,
            bool use_offset, bool use_host_scalars) {
        error::wrap_c_api(dnnl_primitive_attr_set_dropout_v2(get(),
                                  mask_desc.get(),
                                  memory::convert_to_c(seed_dt),
                                  use_offset ? 1 : 0, use_host_scalars ? 1 : 0),
                "anydnn: could not set the dropout attribute");
    }

    fpmath_mode get_fpmath_mode() const {
        dnnl_fpmath_mode_t mode = dnnl_fpmath_mode_strict;
        error::wrap_c_api(dnnl_primitive_attr_get_fpmath_mode(get(), &mode),
                "anydnn: could not read the fpmath mode attribute");
        return static_cast<fpmath_mode>(mode);
    }

    void get_fpmath_mode(fpmath_mode &mode, bool &apply_to_int) const {
        dnnl_fpmath_mode_t c_mode = dnnl_fpmath_mode_strict;
        int to_int = 0;
        error::wrap_c_api(
                dnnl_primitive_attr_get_fpmath_mode_v2(get(), &c_mode, &to_int),
                "anydnn: could not read the fpmath mode attribute");
        mode = static_cast<fpmath_mode>(c_mode);
        apply_to_int = to_int != 0;
    }

    void set_fpmath_mode(fpmath_mode mode, bool apply_to_int = false) {
        error::wrap_c_api(dnnl_primitive_attr_set_fpmath_mode_v2(get(),
                                  dnnl::convert_to_c(mode), apply_to_int ? 1 : 0),
                "anydnn: could not set the fpmath mode attribute");
    }

    accumulation_mode get_accumulation_mode() const {
        dnnl_accumulation_mode_t mode = dnnl_accumulation_mode_strict;
        error::wrap_c_api(
                dnnl_primitive_attr_get_accumulation_mode(get(), &mode),
                "anydnn: could not read the accumulation mode attribute");
        return static_cast<accumulation_mode>(mode);
    }

    void set_accumulation_mode(accumulation_mode mode) {
        error::wrap_c_api(dnnl_primitive_attr_set_accumulation_mode(
                                  get(), dnnl::convert_to_c(mode)),
                "anydnn: could not set the accumulation mode attribute");
    }

    bool get_deterministic() const {
        int value = 0;
        error::wrap_c_api(dnnl_primitive_attr_get_deterministic(get(), &value),
                "anydnn: could not read the deterministic attribute");
        return value != 0;
    }

    void set_deterministic(bool value) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_deterministic(get(), value ? 1 : 0),
                "anydnn: could not set the deterministic attribute");
    }

    rounding_mode get_rounding_mode(int arg) const {
        dnnl_rounding_mode_t mode = dnnl_rounding_mode_environment;
        error::wrap_c_api(dnnl_primitive_attr_get_rounding(get(), arg, &mode),
                "anydnn: could not read the rounding mode attribute");
        return static_cast<rounding_mode>(mode);
    }

    void set_rounding_mode(int arg, rounding_mode mode) {
        error::wrap_c_api(dnnl_primitive_attr_set_rounding(
                                  get(), arg, dnnl::convert_to_c(mode)),
                "anydnn: could not set the rounding mode attribute");
    }

    scratchpad_mode get_scratchpad_mode() const {
        dnnl_scratchpad_mode_t mode = dnnl_scratchpad_mode_library;
        error::wrap_c_api(dnnl_primitive_attr_get_scratchpad_mode(get(), &mode),
                "anydnn: could not read the scratchpad mode attribute");
        return static_cast<scratchpad_mode>(mode);
    }

    void set_scratchpad_mode(scratchpad_mode mode) {
        error::wrap_c_api(dnnl_primitive_attr_set_scratchpad_mode(
                                  get(), dnnl::convert_to_c(mode)),
                "anydnn: could not set the scratchpad mode attribute");
    }

    void set_scales_mask(int arg, int mask) {
        error::wrap_c_api(dnnl_primitive_attr_set_scales_mask(get(), arg, mask),
                "anydnn: could not set scales");
    }

    void set_scales(int arg, int mask, const memory::dims &groups,
            memory::data_type data_type = memory::data_type::f32,
            bool is_on_host = false,
            quantization_mode qmode = quantization_mode::static_sazp) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_scales_v3(get(), arg, mask,
                        static_cast<int>(groups.size()), groups.data(),
                        memory::convert_to_c(data_type), is_on_host ? 1 : 0,
                        dnnl::convert_to_c(qmode)),
                "anydnn: could not set scales");
    }

    void set_host_scale(
            int arg, memory::data_type data_type = memory::data_type::f32) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_scales_v3(get(), arg, 0, 0, nullptr,
                        memory::convert_to_c(data_type), 1,
                        dnnl_quantization_mode_static_sazp),
                "anydnn: could not set a host scale");
    }

    void set_zero_points_mask(int arg, int mask) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_zero_points_mask(get(), arg, mask),
                "anydnn: could not set zero points");
    }

    void set_zero_points(int arg, int mask, const memory::dims &groups,
            memory::data_type data_type = memory::data_type::s32,
            bool is_on_host = false) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_zero_points_v2(get(), arg, mask,
                        static_cast<int>(groups.size()), groups.data(),
                        memory::convert_to_c(data_type), is_on_host ? 1 : 0),
                "anydnn: could not set zero points");
    }

    void set_host_zero_point(
            int arg, memory::data_type data_type = memory::data_type::s32) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_zero_points_v2(get(), arg, 0, 0,
                        nullptr, memory::convert_to_c(data_type), 1),
                "anydnn: could not set a host zero point");
    }

    void set_precomputed_reductions(int arg, int mask,
            const memory::dims &groups,
            memory::data_type data_type = memory::data_type::s32) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_precomputed_reductions(get(), arg, mask,
                        static_cast<int>(groups.size()), groups.data(),
                        memory::convert_to_c(data_type)),
                "anydnn: could not set precomputed reductions");
    }

    post_ops get_post_ops() const {
        const_dnnl_post_ops_t c_ops = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_post_ops(get(), &c_ops),
                "anydnn: could not read the post-ops attribute");
        dnnl_post_ops_t copy = nullptr;
        error::wrap_c_api(dnnl_post_ops_clone(&copy, c_ops),
                "anydnn: could not clone post-ops");
        return post_ops(copy);
    }

    void set_post_ops(const post_ops &ops) {
        error::wrap_c_api(dnnl_primitive_attr_set_post_ops(get(), ops.get()),
                "anydnn: could not set the post-ops attribute");
    }

    void set_rnn_data_qparams(float scale, float shift) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rnn_data_qparams(get(), scale, shift),
                "anydnn: could not set RNN data quantization parameters");
    }

    void get_rnn_data_qparams(float &scale, float &shift) {
        error::wrap_c_api(
                dnnl_primitive_attr_get_rnn_data_qparams(get(), &scale, &shift),
                "anydnn: could not read RNN data quantization parameters");
    }

    void set_rnn_weights_qparams(int mask, const std::vector<float> &scales) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rnn_weights_qparams(get(),
                        static_cast<dnnl_dim_t>(scales.size()), mask,
                        scales.data()),
                "anydnn: could not set RNN weights quantization parameters");
    }

    void get_rnn_weights_qparams(int &mask, std::vector<float> &scales) {
        dnnl_dim_t n = 0;
        const float *values = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_rnn_weights_qparams(
                                  get(), &n, &mask, &values),
                "anydnn: could not read RNN weights quantization parameters");
        scales.assign(values, values + n);
    }

    void set_rnn_weights_projection_qparams(
            int mask, const std::vector<float> &scales) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rnn_weights_projection_qparams(get(),
                        static_cast<dnnl_dim_t>(scales.size()), mask,
                        scales.data()),
                "anydnn: could not set RNN projection quantization "
                "parameters");
    }

    void get_rnn_weights_projection_qparams(
            int &mask, std::vector<float> &scales) {
        dnnl_dim_t n = 0;
        const float *values = nullptr;
        error::wrap_c_api(
                dnnl_primitive_attr_get_rnn_weights_projection_qparams(
                        get(), &n, &mask, &values),
                "anydnn: could not read RNN projection quantization "
                "parameters");
        scales.assign(values, values + n);
    }
};

/// Common queries of every primitive descriptor.
struct primitive_desc_base : public handle<dnnl_primitive_desc_t> {
    using handle<dnnl_primitive_desc_t>::handle;

    primitive_desc_base() = default;

    engine get_engine() const { return query_engine(query::engine); }

    const char *impl_info_str() const {
        const char *info = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl_query_impl_info_str, 0, &info),
                "anydnn: could not query the implementation name");
        return info;
    }

    memory::dim query_s64(query what) const {
        memory::dim v = 0;
        return dnnl_primitive_desc_query(
                       get(), dnnl::convert_to_c(what), 0, &v)
                        == dnnl_success
                ? v
                : 0;
    }

    memory::dims get_strides() const { return query_dims(query::strides); }
    memory::dims get_dilations() const { return query_dims(query::dilations); }
    memory::dims get_padding_l() const { return query_dims(query::padding_l); }
    memory::dims get_padding_r() const { return query_dims(query::padding_r); }
    float get_epsilon() const { return query_f32(query::epsilon_f32); }

    template <typename T = unsigned>
    T get_flags() const {
        unsigned v = 0;
        if (dnnl_primitive_desc_query(get(), dnnl_query_flags, 0, &v)
                != dnnl_success)
            v = 0;
        return static_cast<T>(v);
    }

    dnnl::algorithm get_algorithm() const { return query_alg(query::alg_kind); }
    float get_alpha() const { return query_f32(query::alpha_f32); }
    float get_beta() const { return query_f32(query::beta_f32); }

    int get_axis() const {
        int v = 0;
        return dnnl_primitive_desc_query(get(), dnnl_query_axis_s32, 0, &v)
                        == dnnl_success
                ? v
                : -1;
    }

    memory::dim get_local_size() const {
        return query_s64(query::local_size_s64);
    }
    float get_k() const { return query_f32(query::k_f32); }
    float get_p() const { return query_f32(query::p_f32); }

    std::vector<float> get_factors() const {
        const float *f = nullptr;
        if (dnnl_primitive_desc_query(get(), dnnl_query_factors, 0, &f)
                        != dnnl_success
                || f == nullptr)
            return std::vector<float>();
        return std::vector<float>(f, f + spatial_ndims());
    }

    dnnl::algorithm get_cell_kind() const {
        return query_alg(query::cell_kind);
    }

    dnnl::rnn_direction get_direction() const {
        dnnl_rnn_direction_t dir = dnnl_rnn_direction_undef;
        if (dnnl_primitive_desc_query(get(), dnnl_query_direction, 0, &dir)
                != dnnl_success)
            return dnnl::rnn_direction::undef;
        return static_cast<dnnl::rnn_direction>(dir);
    }

    dnnl::algorithm get_activation_kind() const {
        return query_alg(query::activation_kind);
    }

    memory::dims get_kernel() const { return query_dims(query::kernel); }

    memory::dim get_group_size() const {
        return query_s64(query::group_size_s64);
    }

    dnnl::prop_kind get_prop_kind() const {
        dnnl_prop_kind_t pk = dnnl_prop_kind_undef;
        if (dnnl_primitive_desc_query(get(), dnnl_query_prop_kind, 0, &pk)
                != dnnl_success)
            return dnnl::prop_kind::undef;
        return static_cast<dnnl::prop_kind>(pk);
    }

    memory::desc query_md(query what, int idx = 0) const {
        switch (what) {
            case query::src_md:
            case query::diff_src_md:
            case query::weights_md:
            case query::diff_weights_md:
            case query::dst_md:
            case query::diff_dst_md:
            case query::workspace_md:
            case query::scratchpad_md:
            case query::exec_arg_md: break;
            default:
                DNNL_THROW_ERROR(dnnl_invalid_arguments,
                        "anydnn: not a memory descriptor query");
        }
        return anydnn_detail::copy_md(dnnl_primitive_desc_query_md(
                get(), dnnl::convert_to_c(what), idx));
    }

    memory::desc src_desc(int idx) const {
        return query_md(query::src_md, idx);
    }
    memory::desc dst_desc(int idx) const {
        return query_md(query::dst_md, idx);
    }
    memory::desc weights_desc(int idx) const {
        return query_md(query::weights_md, idx);
    }
    memory::desc diff_src_desc(int idx) const {
        return query_md(query::diff_src_md, idx);
    }
    memory::desc diff_dst_desc(int idx) const {
        return query_md(query::diff_dst_md, idx);
    }
    memory::desc diff_weights_desc(int idx) const {
        return query_md(query::diff_weights_md, idx);
    }

    memory::desc src_desc() const { return src_desc(0); }
    memory::desc dst_desc() const { return dst_desc(0); }
    memory::desc weights_desc() const { return weights_desc(0); }
    memory::desc diff_src_desc() const { return diff_src_desc(0); }
    memory::desc diff_dst_desc() const { return diff_dst_desc(0); }
    memory::desc diff_weights_desc() const { return diff_weights_desc(0); }

    memory::desc workspace_desc() const {
        return query_md(query::workspace_md, 0);
    }

    memory::desc scratchpad_desc() const {
        return query_md(query::scratchpad_md, 0);
    }

    engine scratchpad_engine() const {
        return query_engine(query::scratchpad_engine);
    }

    primitive_attr get_primitive_attr() const {
        const_dnnl_primitive_attr_t c_attr = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_get_attr(get(), &c_attr),
                "anydnn: could not get the attributes of a primitive "
                "descriptor");
        dnnl_primitive_attr_t copy = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_clone(&copy, c_attr),
                "anydnn: could not clone primitive attributes");
        return primitive_attr(copy);
    }

    dnnl::primitive::kind get_kind() const {
        dnnl_primitive_kind_t k = dnnl_undefined_primitive;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl_query_primitive_kind, 0, &k),
                "anydnn: could not query the primitive kind");
        return static_cast<dnnl::primitive::kind>(k);
    }

    std::vector<uint8_t> get_cache_blob_id() const {
        dnnl_dim_t n = 0;
        error::wrap_c_api(dnnl_primitive_desc_query(get(),
                                  dnnl_query_cache_blob_id_size_s64, 0, &n),
                "anydnn: could not query the cache blob id size");
        const uint8_t *id = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl_query_cache_blob_id, 0, &id),
                "anydnn: could not query the cache blob id");
        if (id == nullptr) return std::vector<uint8_t>();
        return std::vector<uint8_t>(id, id + n);
    }

protected:
    using base = primitive_desc_base;

    float query_f32(query what) const {
        float v = 0.f;
        return dnnl_primitive_desc_query(
                       get(), dnnl::convert_to_c(what), 0, &v)
                        == dnnl_success
                ? v
                : 0.f;
    }

    algorithm query_alg(query what) const {
        dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
        if (dnnl_primitive_desc_query(get(), dnnl::convert_to_c(what), 0, &alg)
                != dnnl_success)
            return algorithm::undef;
        return static_cast<algorithm>(alg);
    }

    // Strides, paddings, kernels have one entry per spatial dimension.
    memory::dims query_dims(query what) const {
        const dnnl_dims_t *arr = nullptr;
        if (dnnl_primitive_desc_query(get(), dnnl::convert_to_c(what), 0, &arr)
                        != dnnl_success
                || arr == nullptr)
            return memory::dims();
        return memory::dims(*arr, *arr + spatial_ndims());
    }

    engine query_engine(query what) const {
        dnnl_engine_t c_engine = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(get(),
                                  dnnl::convert_to_c(what), 0, &c_engine),
                "anydnn: could not query an engine of a primitive "
                "descriptor");
        return engine(c_engine, true);
    }

    void reset_with_clone(const_dnnl_primitive_desc_t pd) {
        dnnl_primitive_desc_t copy = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_clone(&copy, pd),
                "anydnn: could not clone a primitive descriptor");
        reset(copy);
    }

    primitive_desc_base(
            dnnl_primitive_desc_t pd, dnnl::primitive::kind prim_kind)
        : primitive_desc_base(pd, prim_kind, dnnl::prop_kind::undef,
                dnnl::prop_kind::undef) {}

    primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::primitive::kind prim_kind, dnnl::prop_kind aprop_kind)
        : primitive_desc_base(pd, prim_kind, aprop_kind, aprop_kind) {}

    // Adopts a copy of a C descriptor after checking that it is of the kind
    // (and, when one is expected, the propagation kind) of this class.
    primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::primitive::kind prim_kind, dnnl::prop_kind first_ok,
            dnnl::prop_kind second_ok) {
        if (pd == nullptr) return;
        dnnl_primitive_kind_t got_kind = dnnl_undefined_primitive;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  pd, dnnl_query_primitive_kind, 0, &got_kind),
                "anydnn: could not query the primitive kind");
        if (got_kind != dnnl::convert_to_c(prim_kind))
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: primitive descriptor is of another primitive "
                    "kind");
        if (first_ok != dnnl::prop_kind::undef) {
            dnnl_prop_kind_t got = dnnl_prop_kind_undef;
            const dnnl_status_t st = dnnl_primitive_desc_query(
                    pd, dnnl_query_prop_kind, 0, &got);
            const bool match = st == dnnl_success
                    && (got == dnnl::convert_to_c(first_ok)
                            || got == dnnl::convert_to_c(second_ok));
            if (!match)
                DNNL_THROW_ERROR(dnnl_invalid_arguments,
                        "anydnn: primitive descriptor has another "
                        "propagation kind");
        }
        reset_with_clone(pd);
    }

    static const primitive_attr &default_attr() {
        static const primitive_attr empty_attr;
        return empty_attr;
    }

    const_dnnl_memory_desc_t optional_arg(const memory::desc *md) {
        return md ? md->get() : nullptr;
    }

    const dnnl_dim_t *optional_arg(const memory::dims *dims) {
        return dims ? dims->data() : nullptr;
    }

    const float *optional_arg(const std::vector<float> *arg) {
        return arg ? arg->data() : nullptr;
    }

    // Runs a C create call and keeps its result; throws on failure unless
    // allow_empty, in which case the descriptor stays empty.
    template <typename create_fn>
    void create_pd(
            create_fn &&create, bool allow_empty, const char *what_failed) {
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = create(&pd);
        if (st != dnnl_success) {
            if (pd) dnnl_primitive_desc_destroy(pd);
            pd = nullptr;
            if (!allow_empty) error::wrap_c_api(st, what_failed);
        }
        reset(pd);
    }

    // Spatial dimension arrays (strides, kernel...) need ndims - 2 entries.
    static const dnnl_dim_t *spatial_arg(
            const memory::dims &v, const memory::desc &data_md) {
        memory::validate_dims(v, data_md.get_ndims() - 2);
        return v.data();
    }

private:
    int spatial_ndims() const {
        const prop_kind pk = get_prop_kind();
        const bool fwd = pk == prop_kind::forward_training
                || pk == prop_kind::forward_inference;
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(
                get(), fwd ? dnnl_query_dst_md : dnnl_query_diff_dst_md, 0);
        if (md == nullptr) return 0;
        int nd = 0;
        error::wrap_c_api(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd),
                "anydnn: could not query the rank of a memory descriptor");
        return nd > 2 ? nd - 2 : 0;
    }
};

/// Converts C++ memory descriptors into the C array the C API takes.
inline std::vector<const_dnnl_memory_desc_t> convert_to_c(
        const std::vector<memory::desc> &mds) {
    std::vector<const_dnnl_memory_desc_t> out;
    out.reserve(mds.size());
    for (const memory::desc &md : mds)
        out.push_back(md.get());
    return out;
}

/// Copies data between memory objects, converting layout and type.
struct reorder : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &src_engine, const memory::desc &src_md,
                const engine &dst_engine, const memory::desc &dst_md,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_reorder_primitive_desc_create(pd,
                                src_md.get(), src_engine.get(), dst_md.get(),
                                dst_engine.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a reorder primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(const memory &src, const memory &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(src.get_engine(), src.get_desc(),
                    dst.get_engine(), dst.get_desc(), attr, allow_empty) {}

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::reorder) {}

        engine get_src_engine() const {
            return query_engine(dnnl::query::reorder_src_engine);
        }

        engine get_dst_engine() const {
            return query_engine(dnnl::query::reorder_dst_engine);
        }

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
    };

    reorder() = default;
    reorder(const primitive_desc &pd) : primitive(pd.get()) {}
    reorder(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
    reorder(const memory &src, const memory &dst,
            const primitive_attr &attr = primitive_attr())
        : primitive(primitive_desc(src, dst, attr).get()) {}

    using primitive::execute;

    void execute(const stream &astream, memory &src, memory &dst) const {
        std::unordered_map<int, memory> args;
        args[DNNL_ARG_FROM] = src;
        args[DNNL_ARG_TO] = dst;
        primitive::execute(astream, args);
    }
};

/// Joins tensors along one dimension.
struct concat : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &dst,
                int concat_dimension, const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, &dst, concat_dimension, srcs, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, int concat_dimension,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, nullptr, concat_dimension, srcs, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::concat) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc dst_desc() const { return base::dst_desc(0); }

    private:
        void init(const engine &aengine, const memory::desc *dst, int axis,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr, bool allow_empty) {
            const std::vector<const_dnnl_memory_desc_t> c_srcs
                    = dnnl::convert_to_c(srcs);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_concat_primitive_desc_create(pd,
                                aengine.get(), anydnn_detail::c_md_or_null(dst),
                                static_cast<int>(c_srcs.size()), axis,
                                c_srcs.data(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a concat primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    concat() = default;
    concat(const primitive_desc &pd) : primitive(pd.get()) {}
    concat(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
};

/// Adds scaled tensors.
struct sum : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &dst,
                const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, &dst, scales, srcs, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, nullptr, scales, srcs, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::sum) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc dst_desc() const { return base::dst_desc(0); }

    private:
        void init(const engine &aengine, const memory::desc *dst,
                const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr, bool allow_empty) {
            const int n = static_cast<int>(srcs.size());
            validate_container_size(scales,
                    "anydnn: sum needs exactly one scale per source", n, n);
            const std::vector<const_dnnl_memory_desc_t> c_srcs
                    = dnnl::convert_to_c(srcs);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_sum_primitive_desc_create(pd,
                                aengine.get(), anydnn_detail::c_md_or_null(dst),
                                n, scales.data(), c_srcs.data(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a sum primitive descriptor "
                    "(ONEDNN_VERBOSE=all tells why)");
        }
    };

    sum() = default;
    sum(const primitive_desc &pd) : primitive(pd.get()) {}
    sum(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
};

/// A primitive descriptor that can step through the implementations.
struct primitive_desc : public primitive_desc_base {
    using primitive_desc_base::primitive_desc_base;

    primitive_desc() = default;

    bool next_impl() {
        const dnnl_status_t st = dnnl_primitive_desc_next_impl(get());
        if (st == dnnl_last_impl_reached) return false;
        error::wrap_c_api(
                st, "anydnn: could not move to the next implementation");
        return true;
    }
};

/// Convolution, forward pass.
struct convolution_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, nullptr, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, nullptr, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, &dilates, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &dilates,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, &dilates, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::convolution,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc bias_desc() const { return base::weights_desc(1); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src,
                const memory::desc &wei, const memory::desc *bia,
                const memory::desc &dst, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &pad_l,
                const memory::dims &pad_r, const primitive_attr &attr,
                bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_convolution_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src.get(),
                                wei.get(), anydnn_detail::c_md_or_null(bia),
                                dst.get(), c_strides, c_dil, c_pl, c_pr,
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a convolution forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    convolution_forward() = default;
    convolution_forward(const primitive_desc &pd) : primitive(pd) {}
    convolution_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Convolution, gradient with respect to the source.
struct convolution_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::convolution,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src, const memory::desc &wei,
                const memory::desc &diff_dst, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &pad_l,
                const memory::dims &pad_r,
                const convolution_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, diff_src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, diff_src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, diff_src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, diff_src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_convolution_backward_data_primitive_desc_create(
                                pd, aengine.get(),
                                dnnl::convert_to_c(aalgorithm), diff_src.get(),
                                wei.get(), diff_dst.get(), c_strides, c_dil,
                                c_pl, c_pr, hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a convolution backward data "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    convolution_backward_data() = default;
    convolution_backward_data(const primitive_desc &pd) : primitive(pd) {}
    convolution_backward_data(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Convolution, gradient with respect to the weights and bias.
struct convolution_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, nullptr,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, &dilates,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::convolution,
                    dnnl::prop_kind::backward_weights) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src, const memory::desc &diff_wei,
                const memory::desc *diff_bia, const memory::desc &diff_dst,
                const memory::dims &strides, const memory::dims *dilates,
                const memory::dims &pad_l, const memory::dims &pad_r,
                const convolution_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_convolution_backward_weights_primitive_desc_create(
                                pd, aengine.get(),
                                dnnl::convert_to_c(aalgorithm), src.get(),
                                diff_wei.get(),
                                anydnn_detail::c_md_or_null(diff_bia),
                                diff_dst.get(), c_strides, c_dil, c_pl, c_pr,
                                hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a convolution backward weights "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    convolution_backward_weights() = default;
    convolution_backward_weights(const primitive_desc &pd) : primitive(pd) {}
    convolution_backward_weights(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Deconvolution (transposed convolution), forward pass.
struct deconvolution_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, nullptr, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, nullptr, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, &dilates, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &dilates,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, &dilates, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::deconvolution,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc bias_desc() const { return base::weights_desc(1); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src,
                const memory::desc &wei, const memory::desc *bia,
                const memory::desc &dst, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &pad_l,
                const memory::dims &pad_r, const primitive_attr &attr,
                bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_deconvolution_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src.get(),
                                wei.get(), anydnn_detail::c_md_or_null(bia),
                                dst.get(), c_strides, c_dil, c_pl, c_pr,
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a deconvolution forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    deconvolution_forward() = default;
    deconvolution_forward(const primitive_desc &pd) : primitive(pd) {}
    deconvolution_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Deconvolution, gradient with respect to the source.
struct deconvolution_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::deconvolution,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src, const memory::desc &wei,
                const memory::desc &diff_dst, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &pad_l,
                const memory::dims &pad_r,
                const deconvolution_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, diff_src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, diff_src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, diff_src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, diff_src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_deconvolution_backward_data_primitive_desc_create(
                                pd, aengine.get(),
                                dnnl::convert_to_c(aalgorithm), diff_src.get(),
                                wei.get(), diff_dst.get(), c_strides, c_dil,
                                c_pl, c_pr, hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a deconvolution backward data "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    deconvolution_backward_data() = default;
    deconvolution_backward_data(const primitive_desc &pd) : primitive(pd) {}
    deconvolution_backward_data(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Deconvolution, gradient with respect to the weights and bias.
struct deconvolution_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, nullptr,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, &dilates,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::deconvolution,
                    dnnl::prop_kind::backward_weights) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src, const memory::desc &diff_wei,
                const memory::desc *diff_bia, const memory::desc &diff_dst,
                const memory::dims &strides, const memory::dims *dilates,
                const memory::dims &pad_l, const memory::dims &pad_r,
                const deconvolution_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, src);
            const dnnl_dim_t *c_dil
                    = dilates ? spatial_arg(*dilates, src) : nullptr;
            const dnnl_dim_t *c_pl = spatial_arg(pad_l, src);
            const dnnl_dim_t *c_pr = spatial_arg(pad_r, src);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_deconvolution_backward_weights_primitive_desc_create(
                                pd, aengine.get(),
                                dnnl::convert_to_c(aalgorithm), src.get(),
                                diff_wei.get(),
                                anydnn_detail::c_md_or_null(diff_bia),
                                diff_dst.get(), c_strides, c_dil, c_pl, c_pr,
                                hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a deconvolution backward "
                    "weights primitive descriptor (ONEDNN_VERBOSE=all tells "
                    "why)");
        }
    };

    deconvolution_backward_weights() = default;
    deconvolution_backward_weights(const primitive_desc &pd) : primitive(pd) {}
    deconvolution_backward_weights(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Local response normalization, forward pass.
struct lrn_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, memory::dim local_size,
                float alpha, float beta, float k,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lrn_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src_desc.get(),
                                dst_desc.get(), local_size, alpha, beta, k,
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LRN forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::lrn,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }
        memory::dim get_local_size() const { return base::get_local_size(); }
        float get_k() const { return base::get_k(); }
    };

    lrn_forward() = default;
    lrn_forward(const primitive_desc &pd) : primitive(pd) {}
    lrn_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Local response normalization, backward pass.
struct lrn_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::dim local_size, float alpha, float beta, float k,
                const lrn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lrn_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                diff_src_desc.get(), diff_dst_desc.get(),
                                src_desc.get(), local_size, alpha, beta, k,
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LRN backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::lrn,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }
        memory::dim get_local_size() const { return base::get_local_size(); }
        float get_k() const { return base::get_k(); }
    };

    lrn_backward() = default;
    lrn_backward(const primitive_desc &pd) : primitive(pd) {}
    lrn_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Elementwise function, forward pass.
struct eltwise_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, dst_desc, 0.f, 0.f,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, float alpha,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, dst_desc, alpha,
                    0.f, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, float alpha, float beta,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, dst_desc, alpha,
                    beta, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::eltwise,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        dnnl::algorithm get_algorithm() const { return base::get_algorithm(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src,
                const memory::desc &dst, float alpha, float beta,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_eltwise_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src.get(),
                                dst.get(), alpha, beta, attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an eltwise forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    eltwise_forward() = default;
    eltwise_forward(const primitive_desc &pd) : primitive(pd) {}
    eltwise_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Elementwise function, backward pass.
struct eltwise_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc,
                    0.f, 0.f, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc, float alpha,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc,
                    alpha, 0.f, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc, float alpha, float beta,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, diff_dst_desc, data_desc,
                    alpha, beta, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::eltwise,
                    dnnl::prop_kind::backward_data) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        dnnl::algorithm get_algorithm() const { return base::get_algorithm(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src, const memory::desc &diff_dst,
                const memory::desc &data, float alpha, float beta,
                const eltwise_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_eltwise_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                diff_src.get(), diff_dst.get(), data.get(),
                                alpha, beta, hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an eltwise backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    eltwise_backward() = default;
    eltwise_backward(const primitive_desc &pd) : primitive(pd) {}
    eltwise_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Softmax (or log-softmax) along one axis, forward pass.
struct softmax_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, int axis,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_softmax_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src_desc.get(),
                                dst_desc.get(), axis, attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a softmax forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::softmax,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        dnnl::algorithm get_algorithm() const { return base::get_algorithm(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        int get_axis() const { return base::get_axis(); }
    };

    softmax_forward() = default;
    softmax_forward(const primitive_desc &pd) : primitive(pd) {}
    softmax_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Softmax, backward pass.
struct softmax_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &dst_desc,
                int axis, const softmax_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_softmax_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                diff_src_desc.get(), diff_dst_desc.get(),
                                dst_desc.get(), axis, hint_fwd_pd.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a softmax backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::softmax,
                    dnnl::prop_kind::backward_data) {}

        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        dnnl::algorithm get_algorithm() const { return base::get_algorithm(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        int get_axis() const { return base::get_axis(); }
    };

    softmax_backward() = default;
    softmax_backward(const primitive_desc &pd) : primitive(pd) {}
    softmax_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

namespace anydnn_detail {

// Forward normalizations read mean/variance as inputs 1 and 2 when the
// statistics are given, and write them as outputs 1 and 2 otherwise.
inline query stats_query(normalization_flags flags) {
    const bool given = (flags & normalization_flags::use_global_stats)
            != normalization_flags::none;
    return given ? query::src_md : query::dst_md;
}

} // namespace anydnn_detail

/// Batch normalization, forward pass.
struct batch_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_batch_normalization_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src_desc.get(), dst_desc.get(), epsilon,
                                dnnl::convert_to_c(flags), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a batch normalization forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::batch_normalization,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        memory::desc mean_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 1);
        }
        memory::desc variance_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 2);
        }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }
    };

    batch_normalization_forward() = default;
    batch_normalization_forward(const primitive_desc &pd) : primitive(pd) {}
    batch_normalization_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Batch normalization, backward pass.
struct batch_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                float epsilon, normalization_flags flags,
                const batch_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_batch_normalization_backward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                diff_src_desc.get(), diff_dst_desc.get(),
                                src_desc.get(), epsilon,
                                dnnl::convert_to_c(flags), hint_fwd_pd.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a batch normalization backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::batch_normalization,
                    dnnl::prop_kind::backward, dnnl::prop_kind::backward_data) {
        }

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc mean_desc() const { return query_md(query::src_md, 1); }
        memory::desc variance_desc() const {
            return query_md(query::src_md, 2);
        }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }
    };

    batch_normalization_backward() = default;
    batch_normalization_backward(const primitive_desc &pd) : primitive(pd) {}
    batch_normalization_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Group normalization, forward pass.
struct group_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                memory::dim groups, float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_group_normalization_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src_desc.get(), dst_desc.get(), groups, epsilon,
                                dnnl::convert_to_c(flags), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a group normalization forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::group_normalization,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        memory::desc mean_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 1);
        }
        memory::desc variance_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 2);
        }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dim get_group_size() const { return base::get_group_size(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }
    };

    group_normalization_forward() = default;
    group_normalization_forward(const primitive_desc &pd) : primitive(pd) {}
    group_normalization_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Group normalization, backward pass.
struct group_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::dim groups, float epsilon, normalization_flags flags,
                const group_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_group_normalization_backward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                diff_src_desc.get(), diff_dst_desc.get(),
                                src_desc.get(), groups, epsilon,
                                dnnl::convert_to_c(flags), hint_fwd_pd.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a group normalization backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::group_normalization,
                    dnnl::prop_kind::backward, dnnl::prop_kind::backward_data) {
        }

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc mean_desc() const { return query_md(query::src_md, 1); }
        memory::desc variance_desc() const {
            return query_md(query::src_md, 2);
        }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dim get_group_size() const { return base::get_group_size(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }
    };

    group_normalization_backward() = default;
    group_normalization_backward(const primitive_desc &pd) : primitive(pd) {}
    group_normalization_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Layer normalization, forward pass.
struct layer_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const memory::desc &stat_desc, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, &stat_desc,
                    memory::data_type::f32, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, nullptr,
                    memory::data_type::f32, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const memory::desc &stat_desc,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, &stat_desc,
                    scale_shift_data_type, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, nullptr,
                    scale_shift_data_type, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::layer_normalization,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        memory::desc mean_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 1);
        }
        memory::desc variance_desc() const {
            return query_md(anydnn_detail::stats_query(get_flags()), 2);
        }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src, const memory::desc &dst,
                const memory::desc *stat, memory::data_type ss_dt,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_layer_normalization_forward_primitive_desc_create_v2(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src.get(), dst.get(),
                                anydnn_detail::c_md_or_null(stat),
                                memory::convert_to_c(ss_dt), epsilon,
                                dnnl::convert_to_c(flags), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a layer normalization forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    layer_normalization_forward() = default;
    layer_normalization_forward(const primitive_desc &pd) : primitive(pd) {}
    layer_normalization_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Layer normalization, backward pass.
struct layer_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                const memory::desc &stat_desc, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    &stat_desc, memory::data_type::f32, memory::data_type::f32,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                float epsilon, normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    nullptr, memory::data_type::f32, memory::data_type::f32,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                const memory::desc &stat_desc,
                memory::data_type diff_scale_shift_data_type,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    &stat_desc, diff_scale_shift_data_type,
                    scale_shift_data_type, epsilon, flags, hint_fwd_pd, attr,
                    allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::data_type diff_scale_shift_data_type,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    nullptr, diff_scale_shift_data_type, scale_shift_data_type,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd,
                    dnnl::primitive::kind::layer_normalization,
                    dnnl::prop_kind::backward, dnnl::prop_kind::backward_data) {
        }

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc mean_desc() const { return query_md(query::src_md, 1); }
        memory::desc variance_desc() const {
            return query_md(query::src_md, 2);
        }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        dnnl::prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        float get_epsilon() const { return base::get_epsilon(); }
        normalization_flags get_flags() const {
            return base::get_flags<normalization_flags>();
        }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src, const memory::desc &diff_dst,
                const memory::desc &src, const memory::desc *stat,
                memory::data_type diff_ss_dt, memory::data_type ss_dt,
                float epsilon, normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_layer_normalization_backward_primitive_desc_create_v2(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                diff_src.get(), diff_dst.get(), src.get(),
                                anydnn_detail::c_md_or_null(stat),
                                memory::convert_to_c(diff_ss_dt),
                                memory::convert_to_c(ss_dt), epsilon,
                                dnnl::convert_to_c(flags), hint.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a layer normalization backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    layer_normalization_backward() = default;
    layer_normalization_backward(const primitive_desc &pd) : primitive(pd) {}
    layer_normalization_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Fully connected layer, forward pass.
struct inner_product_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weights_desc,
                const memory::desc &bias_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, weights_desc, &bias_desc,
                    dst_desc, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weights_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, weights_desc, nullptr,
                    dst_desc, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::inner_product,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc bias_desc() const { return base::weights_desc(1); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src, const memory::desc &wei,
                const memory::desc *bia, const memory::desc &dst,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_inner_product_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src.get(), wei.get(),
                                anydnn_detail::c_md_or_null(bia), dst.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an inner product forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    inner_product_forward() = default;
    inner_product_forward(const primitive_desc &pd) : primitive(pd) {}
    inner_product_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Fully connected layer, gradient with respect to the source.
struct inner_product_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_inner_product_backward_data_primitive_desc_create(
                                pd, aengine.get(), diff_src_desc.get(),
                                weights_desc.get(), diff_dst_desc.get(),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an inner product backward data "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::inner_product,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc weights_desc() const { return base::weights_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
    };

    inner_product_backward_data() = default;
    inner_product_backward_data(const primitive_desc &pd) : primitive(pd) {}
    inner_product_backward_data(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Fully connected layer, gradient with respect to the weights and bias.
struct inner_product_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, diff_weights_desc, &diff_bias_desc,
                    diff_dst_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, diff_weights_desc, nullptr, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::inner_product,
                    dnnl::prop_kind::backward_weights) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc diff_weights_desc() const {
            return base::diff_weights_desc(0);
        }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }

    private:
        void init(const engine &aengine, const memory::desc &src,
                const memory::desc &diff_wei, const memory::desc *diff_bia,
                const memory::desc &diff_dst,
                const inner_product_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_inner_product_backward_weights_primitive_desc_create(
                                pd, aengine.get(), src.get(), diff_wei.get(),
                                anydnn_detail::c_md_or_null(diff_bia),
                                diff_dst.get(), hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an inner product backward "
                    "weights primitive descriptor (ONEDNN_VERBOSE=all tells "
                    "why)");
        }
    };

    inner_product_backward_weights() = default;
    inner_product_backward_weights(const primitive_desc &pd) : primitive(pd) {}
    inner_product_backward_weights(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Descriptor queries shared by all recurrent cells; tensors are found by
/// their execution argument.
struct rnn_primitive_desc_base : public primitive_desc {
    using primitive_desc::primitive_desc;

    rnn_primitive_desc_base() = default;

    rnn_primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::prop_kind aprop_kind, dnnl::algorithm cell_kind)
        : rnn_primitive_desc_base(pd, aprop_kind, aprop_kind, cell_kind) {}

    memory::desc src_layer_desc() const { return arg_md(DNNL_ARG_SRC_LAYER); }
    memory::desc augru_attention_desc() const {
        return arg_md(DNNL_ARG_AUGRU_ATTENTION);
    }
    memory::desc src_iter_desc() const { return arg_md(DNNL_ARG_SRC_ITER); }
    memory::desc src_iter_c_desc() const {
        return arg_md(DNNL_ARG_SRC_ITER_C);
    }
    memory::desc weights_layer_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_LAYER);
    }
    memory::desc weights_iter_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_ITER);
    }
    memory::desc weights_peephole_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_PEEPHOLE);
    }
    memory::desc weights_projection_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_PROJECTION);
    }
    memory::desc bias_desc() const { return arg_md(DNNL_ARG_BIAS); }
    memory::desc dst_layer_desc() const { return arg_md(DNNL_ARG_DST_LAYER); }
    memory::desc dst_iter_desc() const { return arg_md(DNNL_ARG_DST_ITER); }
    memory::desc dst_iter_c_desc() const {
        return arg_md(DNNL_ARG_DST_ITER_C);
    }
    memory::desc diff_src_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_LAYER);
    }
    memory::desc diff_augru_attention_desc() const {
        return arg_md(DNNL_ARG_DIFF_AUGRU_ATTENTION);
    }
    memory::desc diff_src_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_ITER);
    }
    memory::desc diff_src_iter_c_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_ITER_C);
    }
    memory::desc diff_weights_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_LAYER);
    }
    memory::desc diff_weights_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_ITER);
    }
    memory::desc diff_weights_peephole_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE);
    }
    memory::desc diff_weights_projection_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_PROJECTION);
    }
    memory::desc diff_bias_desc() const { return arg_md(DNNL_ARG_DIFF_BIAS); }
    memory::desc diff_dst_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_LAYER);
    }
    memory::desc diff_dst_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_ITER);
    }
    memory::desc diff_dst_iter_c_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_ITER_C);
    }

protected:
    using rnn_base = rnn_primitive_desc_base;

    // Adopts a copy of a C descriptor of an RNN with the given cell kind.
    rnn_primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::prop_kind first_ok, dnnl::prop_kind second_ok,
            dnnl::algorithm cell_kind) {
        dnnl_primitive_kind_t got_kind = dnnl_undefined_primitive;
        dnnl_prop_kind_t got_prop = dnnl_prop_kind_undef;
        dnnl_alg_kind_t got_cell = dnnl_alg_kind_undef;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  pd, dnnl_query_primitive_kind, 0, &got_kind),
                "anydnn: could not query the primitive kind of an RNN");
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  pd, dnnl_query_prop_kind, 0, &got_prop),
                "anydnn: could not query the propagation kind of an RNN");
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  pd, dnnl_query_cell_kind, 0, &got_cell),
                "anydnn: could not query the cell kind of an RNN");
        const bool ok = got_kind == dnnl_rnn
                && (got_prop == dnnl::convert_to_c(first_ok)
                        || got_prop == dnnl::convert_to_c(second_ok))
                && got_cell == dnnl::convert_to_c(cell_kind);
        if (!ok)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "anydnn: primitive descriptor is not an RNN of the "
                    "expected cell and propagation kind");
        reset_with_clone(pd);
    }

private:
    memory::desc arg_md(int arg) const {
        return query_md(query::exec_arg_md, arg);
    }
};

/// Vanilla RNN cell, forward pass.
struct vanilla_rnn_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, activation, direction, src_layer_desc,
                    src_iter_desc, weights_layer_desc, weights_iter_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, 0.f, attr,
                    allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc, float alpha,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, activation, direction, src_layer_desc,
                    src_iter_desc, weights_layer_desc, weights_iter_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, alpha, attr,
                    allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::vanilla_rnn) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        algorithm get_activation_kind() const {
            return base::get_activation_kind();
        }
        rnn_direction get_direction() const { return base::get_direction(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer, const memory::desc &src_iter,
                const memory::desc &wei_layer, const memory::desc &wei_iter,
                const memory::desc &bias, const memory::desc &dst_layer,
                const memory::desc &dst_iter, float alpha,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_vanilla_rnn_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(activation),
                                dnnl::convert_to_c(direction), src_layer.get(),
                                src_iter.get(), wei_layer.get(), wei_iter.get(),
                                bias.get(), dst_layer.get(), dst_iter.get(),
                                dnnl::convert_to_c(rnn_flags::undef), alpha,
                                0.f, attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a vanilla RNN forward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    vanilla_rnn_forward() = default;
    vanilla_rnn_forward(const primitive_desc &pd) : primitive(pd) {}
    vanilla_rnn_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Vanilla RNN cell, backward pass.
struct vanilla_rnn_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const vanilla_rnn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, activation, direction, src_layer_desc,
                    src_iter_desc, weights_layer_desc, weights_iter_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc,
                    diff_src_layer_desc, diff_src_iter_desc,
                    diff_weights_layer_desc, diff_weights_iter_desc,
                    diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc,
                    0.f, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc, float alpha,
                const vanilla_rnn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, activation, direction, src_layer_desc,
                    src_iter_desc, weights_layer_desc, weights_iter_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc,
                    diff_src_layer_desc, diff_src_iter_desc,
                    diff_weights_layer_desc, diff_weights_iter_desc,
                    diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc,
                    alpha, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::vanilla_rnn) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        algorithm get_activation_kind() const {
            return base::get_activation_kind();
        }
        rnn_direction get_direction() const { return base::get_direction(); }
        float get_alpha() const { return base::get_alpha(); }
        float get_beta() const { return base::get_beta(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer, const memory::desc &src_iter,
                const memory::desc &wei_layer, const memory::desc &wei_iter,
                const memory::desc &bias, const memory::desc &dst_layer,
                const memory::desc &dst_iter,
                const memory::desc &diff_src_layer,
                const memory::desc &diff_src_iter,
                const memory::desc &diff_wei_layer,
                const memory::desc &diff_wei_iter,
                const memory::desc &diff_bias,
                const memory::desc &diff_dst_layer,
                const memory::desc &diff_dst_iter, float alpha,
                const vanilla_rnn_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_vanilla_rnn_backward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(activation),
                                dnnl::convert_to_c(direction), src_layer.get(),
                                src_iter.get(), wei_layer.get(), wei_iter.get(),
                                bias.get(), dst_layer.get(), dst_iter.get(),
                                diff_src_layer.get(), diff_src_iter.get(),
                                diff_wei_layer.get(), diff_wei_iter.get(),
                                diff_bias.get(), diff_dst_layer.get(),
                                diff_dst_iter.get(),
                                dnnl::convert_to_c(rnn_flags::undef), alpha,
                                0.f, hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a vanilla RNN backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    vanilla_rnn_backward() = default;
    vanilla_rnn_backward(const primitive_desc &pd) : primitive(pd) {}
    vanilla_rnn_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// LSTM cell (optionally with peepholes and projection), forward pass.
struct lstm_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, &weights_projection_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, nullptr, bias_desc, dst_layer_desc,
                    dst_iter_desc, dst_iter_c_desc, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    nullptr, nullptr, bias_desc, dst_layer_desc, dst_iter_desc,
                    dst_iter_c_desc, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::vanilla_lstm) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc src_iter_c_desc() const {
            return rnn_base::src_iter_c_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc weights_peephole_desc() const {
            return rnn_base::weights_peephole_desc();
        }
        memory::desc weights_projection_desc() const {
            return rnn_base::weights_projection_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc dst_iter_c_desc() const {
            return rnn_base::dst_iter_c_desc();
        }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer,
                const memory::desc &src_iter, const memory::desc &src_iter_c,
                const memory::desc &wei_layer, const memory::desc &wei_iter,
                const memory::desc *wei_peephole,
                const memory::desc *wei_projection, const memory::desc &bias,
                const memory::desc &dst_layer, const memory::desc &dst_iter,
                const memory::desc &dst_iter_c, const primitive_attr &attr,
                bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lstm_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction), src_layer.get(),
                                src_iter.get(), src_iter_c.get(),
                                wei_layer.get(), wei_iter.get(),
                                anydnn_detail::c_md_or_null(wei_peephole),
                                anydnn_detail::c_md_or_null(wei_projection),
                                bias.get(), dst_layer.get(), dst_iter.get(),
                                dst_iter_c.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LSTM forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    lstm_forward() = default;
    lstm_forward(const primitive_desc &pd) : primitive(pd) {}
    lstm_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// LSTM cell, backward pass.
struct lstm_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_weights_peephole_desc,
                const memory::desc &diff_weights_projection_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, &weights_projection_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
                    diff_src_layer_desc, diff_src_iter_desc,
                    diff_src_iter_c_desc, diff_weights_layer_desc,
                    diff_weights_iter_desc, &diff_weights_peephole_desc,
                    &diff_weights_projection_desc, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_weights_peephole_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, nullptr, bias_desc, dst_layer_desc,
                    dst_iter_desc, dst_iter_c_desc, diff_src_layer_desc,
                    diff_src_iter_desc, diff_src_iter_c_desc,
                    diff_weights_layer_desc, diff_weights_iter_desc,
                    &diff_weights_peephole_desc, nullptr, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    nullptr, nullptr, bias_desc, dst_layer_desc, dst_iter_desc,
                    dst_iter_c_desc, diff_src_layer_desc, diff_src_iter_desc,
                    diff_src_iter_c_desc, diff_weights_layer_desc,
                    diff_weights_iter_desc, nullptr, nullptr, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::vanilla_lstm) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc src_iter_c_desc() const {
            return rnn_base::src_iter_c_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc weights_peephole_desc() const {
            return rnn_base::weights_peephole_desc();
        }
        memory::desc weights_projection_desc() const {
            return rnn_base::weights_projection_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc dst_iter_c_desc() const {
            return rnn_base::dst_iter_c_desc();
        }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_src_iter_c_desc() const {
            return rnn_base::diff_src_iter_c_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_weights_peephole_desc() const {
            return rnn_base::diff_weights_peephole_desc();
        }
        memory::desc diff_weights_projection_desc() const {
            return rnn_base::diff_weights_projection_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        memory::desc diff_dst_iter_c_desc() const {
            return rnn_base::diff_dst_iter_c_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer,
                const memory::desc &src_iter, const memory::desc &src_iter_c,
                const memory::desc &wei_layer, const memory::desc &wei_iter,
                const memory::desc *wei_peephole,
                const memory::desc *wei_projection, const memory::desc &bias,
                const memory::desc &dst_layer, const memory::desc &dst_iter,
                const memory::desc &dst_iter_c,
                const memory::desc &diff_src_layer,
                const memory::desc &diff_src_iter,
                const memory::desc &diff_src_iter_c,
                const memory::desc &diff_wei_layer,
                const memory::desc &diff_wei_iter,
                const memory::desc *diff_wei_peephole,
                const memory::desc *diff_wei_projection,
                const memory::desc &diff_bias,
                const memory::desc &diff_dst_layer,
                const memory::desc &diff_dst_iter,
                const memory::desc &diff_dst_iter_c,
                const lstm_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lstm_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction), src_layer.get(),
                                src_iter.get(), src_iter_c.get(),
                                wei_layer.get(), wei_iter.get(),
                                anydnn_detail::c_md_or_null(wei_peephole),
                                anydnn_detail::c_md_or_null(wei_projection),
                                bias.get(), dst_layer.get(), dst_iter.get(),
                                dst_iter_c.get(), diff_src_layer.get(),
                                diff_src_iter.get(), diff_src_iter_c.get(),
                                diff_wei_layer.get(), diff_wei_iter.get(),
                                anydnn_detail::c_md_or_null(diff_wei_peephole),
                                anydnn_detail::c_md_or_null(
                                        diff_wei_projection),
                                diff_bias.get(), diff_dst_layer.get(),
                                diff_dst_iter.get(), diff_dst_iter_c.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                hint.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LSTM backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    lstm_backward() = default;
    lstm_backward(const primitive_desc &pd) : primitive(pd) {}
    lstm_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// GRU cell, forward pass.
struct gru_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_gru_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a GRU forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::vanilla_gru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    gru_forward() = default;
    gru_forward(const primitive_desc &pd) : primitive(pd) {}
    gru_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// GRU cell, backward pass.
struct gru_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const gru_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_gru_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                diff_src_layer_desc.get(),
                                diff_src_iter_desc.get(),
                                diff_weights_layer_desc.get(),
                                diff_weights_iter_desc.get(),
                                diff_bias_desc.get(), diff_dst_layer_desc.get(),
                                diff_dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a GRU backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::vanilla_gru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    gru_backward() = default;
    gru_backward(const primitive_desc &pd) : primitive(pd) {}
    gru_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Linear-before-reset GRU cell, forward pass.
struct lbr_gru_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lbr_gru_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LBR GRU forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::lbr_gru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    lbr_gru_forward() = default;
    lbr_gru_forward(const primitive_desc &pd) : primitive(pd) {}
    lbr_gru_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Linear-before-reset GRU cell, backward pass.
struct lbr_gru_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const lbr_gru_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lbr_gru_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                diff_src_layer_desc.get(),
                                diff_src_iter_desc.get(),
                                diff_weights_layer_desc.get(),
                                diff_weights_iter_desc.get(),
                                diff_bias_desc.get(), diff_dst_layer_desc.get(),
                                diff_dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LBR GRU backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::lbr_gru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    lbr_gru_backward() = default;
    lbr_gru_backward(const primitive_desc &pd) : primitive(pd) {}
    lbr_gru_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// GRU cell with an attention update gate, forward pass.
struct augru_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &attention_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_augru_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                attention_desc.get(), weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an AUGRU forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::vanilla_augru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc attention_desc() const {
            return rnn_base::augru_attention_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    augru_forward() = default;
    augru_forward(const primitive_desc &pd) : primitive(pd) {}
    augru_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// GRU cell with an attention update gate, backward pass.
struct augru_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &attention_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_attention_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const augru_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_augru_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                attention_desc.get(), weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                diff_src_layer_desc.get(),
                                diff_src_iter_desc.get(),
                                diff_attention_desc.get(),
                                diff_weights_layer_desc.get(),
                                diff_weights_iter_desc.get(),
                                diff_bias_desc.get(), diff_dst_layer_desc.get(),
                                diff_dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an AUGRU backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::vanilla_augru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc attention_desc() const {
            return rnn_base::augru_attention_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_attention_desc() const {
            return rnn_base::diff_augru_attention_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    augru_backward() = default;
    augru_backward(const primitive_desc &pd) : primitive(pd) {}
    augru_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Linear-before-reset AUGRU cell, forward pass.
struct lbr_augru_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &attention_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lbr_augru_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                attention_desc.get(), weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LBR AUGRU forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::lbr_augru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc attention_desc() const {
            return rnn_base::augru_attention_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    lbr_augru_forward() = default;
    lbr_augru_forward(const primitive_desc &pd) : primitive(pd) {}
    lbr_augru_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Linear-before-reset AUGRU cell, backward pass.
struct lbr_augru_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &attention_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_attention_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const lbr_augru_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_lbr_augru_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(direction),
                                src_layer_desc.get(), src_iter_desc.get(),
                                attention_desc.get(), weights_layer_desc.get(),
                                weights_iter_desc.get(), bias_desc.get(),
                                dst_layer_desc.get(), dst_iter_desc.get(),
                                diff_src_layer_desc.get(),
                                diff_src_iter_desc.get(),
                                diff_attention_desc.get(),
                                diff_weights_layer_desc.get(),
                                diff_weights_iter_desc.get(),
                                diff_bias_desc.get(), diff_dst_layer_desc.get(),
                                diff_dst_iter_desc.get(),
                                dnnl::convert_to_c(rnn_flags::undef),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create an LBR AUGRU backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : rnn_primitive_desc_base(pd, dnnl::prop_kind::backward,
                    dnnl::algorithm::lbr_augru) {}

        memory::desc src_layer_desc() const {
            return rnn_base::src_layer_desc();
        }
        memory::desc src_iter_desc() const { return rnn_base::src_iter_desc(); }
        memory::desc attention_desc() const {
            return rnn_base::augru_attention_desc();
        }
        memory::desc weights_layer_desc() const {
            return rnn_base::weights_layer_desc();
        }
        memory::desc weights_iter_desc() const {
            return rnn_base::weights_iter_desc();
        }
        memory::desc bias_desc() const { return rnn_base::bias_desc(); }
        memory::desc dst_layer_desc() const {
            return rnn_base::dst_layer_desc();
        }
        memory::desc dst_iter_desc() const { return rnn_base::dst_iter_desc(); }
        memory::desc workspace_desc() const {
            return rnn_base::workspace_desc();
        }
        memory::desc diff_src_layer_desc() const {
            return rnn_base::diff_src_layer_desc();
        }
        memory::desc diff_src_iter_desc() const {
            return rnn_base::diff_src_iter_desc();
        }
        memory::desc diff_attention_desc() const {
            return rnn_base::diff_augru_attention_desc();
        }
        memory::desc diff_weights_layer_desc() const {
            return rnn_base::diff_weights_layer_desc();
        }
        memory::desc diff_weights_iter_desc() const {
            return rnn_base::diff_weights_iter_desc();
        }
        memory::desc diff_bias_desc() const {
            return rnn_base::diff_bias_desc();
        }
        memory::desc diff_dst_layer_desc() const {
            return rnn_base::diff_dst_layer_desc();
        }
        memory::desc diff_dst_iter_desc() const {
            return rnn_base::diff_dst_iter_desc();
        }
        algorithm get_cell_kind() const { return base::get_cell_kind(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        rnn_direction get_direction() const { return base::get_direction(); }
    };

    lbr_augru_backward() = default;
    lbr_augru_backward(const primitive_desc &pd) : primitive(pd) {}
    lbr_augru_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Channel shuffle, forward pass.
struct shuffle_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                int axis, int group_size,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_shuffle_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src_desc.get(), dst_desc.get(), axis,
                                group_size, attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a shuffle forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::shuffle,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        int get_axis() const { return base::get_axis(); }
        memory::dim get_group_size() const { return base::get_group_size(); }
    };

    shuffle_forward() = default;
    shuffle_forward(const primitive_desc &pd) : primitive(pd) {}
    shuffle_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Channel shuffle, backward pass.
struct shuffle_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, int axis, int group_size,
                const shuffle_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_shuffle_backward_primitive_desc_create(pd,
                                aengine.get(), diff_src_desc.get(),
                                diff_dst_desc.get(), axis, group_size,
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a shuffle backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::shuffle,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        int get_axis() const { return base::get_axis(); }
        memory::dim get_group_size() const { return base::get_group_size(); }
    };

    shuffle_backward() = default;
    shuffle_backward(const primitive_desc &pd) : primitive(pd) {}
    shuffle_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Elementwise operation of two tensors (three for select), with broadcast.
struct binary : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src0, const memory::desc &src1,
                const memory::desc &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_binary_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                src0.get(), src1.get(), dst.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a binary primitive descriptor "
                    "(ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src0, const memory::desc &src1,
                const memory::desc &src2, const memory::desc &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_binary_primitive_desc_create_v2(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                src0.get(), src1.get(), src2.get(), dst.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a ternary binary primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::binary) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc src0_desc() const { return base::src_desc(0); }
        memory::desc src1_desc() const { return base::src_desc(1); }
        memory::desc src2_desc() const { return base::src_desc(2); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
    };

    binary() = default;
    binary(const primitive_desc &pd) : primitive(pd) {}
    binary(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Batched matrix multiplication with optional bias.
struct matmul : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, weights_desc, nullptr, dst_desc, attr,
                    allow_empty);
        }

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, weights_desc, &bias_desc, dst_desc, attr,
                    allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::matmul) {}

        memory::desc src_desc() const { return query_md(query::src_md, 0); }
        memory::desc weights_desc() const {
            return query_md(query::weights_md, 0);
        }
        memory::desc bias_desc() const {
            return query_md(query::weights_md, 1);
        }
        memory::desc dst_desc() const { return query_md(query::dst_md, 0); }

    private:
        void init(const engine &aengine, const memory::desc &src,
                const memory::desc &wei, const memory::desc *bia,
                const memory::desc &dst, const primitive_attr &attr,
                bool allow_empty) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_matmul_primitive_desc_create(pd,
                                aengine.get(), src.get(), wei.get(),
                                anydnn_detail::c_md_or_null(bia), dst.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a matmul primitive descriptor "
                    "(ONEDNN_VERBOSE=all tells why)");
        }
    };

    matmul() = default;
    matmul(const primitive_desc &pd) : primitive(pd) {}
    matmul(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Spatial resampling (nearest or linear), forward pass.
struct resampling_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, nullptr, src_desc, &dst_desc,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> &factors,
                const memory::desc &src_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, &factors, src_desc, nullptr,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> &factors,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, &factors, src_desc,
                    &dst_desc, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::resampling,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> *factors,
                const memory::desc &src, const memory::desc *dst,
                const primitive_attr &attr, bool allow_empty) {
            if (factors) memory::validate_dims(*factors, src.get_ndims() - 2);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_resampling_forward_primitive_desc_create(
                                pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm),
                                factors ? factors->data() : nullptr, src.get(),
                                anydnn_detail::c_md_or_null(dst), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a resampling forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    resampling_forward() = default;
    resampling_forward(const primitive_desc &pd) : primitive(pd) {}
    resampling_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Spatial resampling, backward pass.
struct resampling_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const resampling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, nullptr, diff_src_desc, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const std::vector<float> &factors,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const resampling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, &factors, diff_src_desc, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::resampling,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const std::vector<float> *factors,
                const memory::desc &diff_src, const memory::desc &diff_dst,
                const resampling_forward::primitive_desc &hint,
                const primitive_attr &attr, bool allow_empty) {
            if (factors)
                memory::validate_dims(*factors, diff_src.get_ndims() - 2);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_resampling_backward_primitive_desc_create(
                                pd, aengine.get(),
                                dnnl::convert_to_c(aalgorithm),
                                factors ? factors->data() : nullptr,
                                diff_src.get(), diff_dst.get(), hint.get(),
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a resampling backward "
                    "primitive descriptor (ONEDNN_VERBOSE=all tells why)");
        }
    };

    resampling_backward() = default;
    resampling_backward(const primitive_desc &pd) : primitive(pd) {}
    resampling_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Max or average pooling, forward pass.
struct pooling_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &kernel, const memory::dims &dilation,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, src_desc);
            const dnnl_dim_t *c_kernel = spatial_arg(kernel, src_desc);
            const dnnl_dim_t *c_dil = spatial_arg(dilation, src_desc);
            const dnnl_dim_t *c_pl = spatial_arg(padding_l, src_desc);
            const dnnl_dim_t *c_pr = spatial_arg(padding_r, src_desc);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_pooling_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                dnnl::convert_to_c(aalgorithm), src_desc.get(),
                                dst_desc.get(), c_strides, c_kernel, c_dil,
                                c_pl, c_pr, attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a pooling forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::pooling,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_kernel() const { return base::get_kernel(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }
    };

    pooling_forward() = default;
    pooling_forward(const primitive_desc &pd) : primitive(pd) {}
    pooling_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Max or average pooling, backward pass.
struct pooling_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &kernel, const memory::dims &dilation,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const pooling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            const dnnl_dim_t *c_strides = spatial_arg(strides, diff_src_desc);
            const dnnl_dim_t *c_kernel = spatial_arg(kernel, diff_src_desc);
            const dnnl_dim_t *c_dil = spatial_arg(dilation, diff_src_desc);
            const dnnl_dim_t *c_pl = spatial_arg(padding_l, diff_src_desc);
            const dnnl_dim_t *c_pr = spatial_arg(padding_r, diff_src_desc);
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_pooling_backward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                diff_src_desc.get(), diff_dst_desc.get(),
                                c_strides, c_kernel, c_dil, c_pl, c_pr,
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a pooling backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::pooling,
                    dnnl::prop_kind::backward_data) {}

        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        memory::desc workspace_desc() const { return base::workspace_desc(); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
        memory::dims get_strides() const { return base::get_strides(); }
        memory::dims get_kernel() const { return base::get_kernel(); }
        memory::dims get_dilations() const { return base::get_dilations(); }
        memory::dims get_padding_l() const { return base::get_padding_l(); }
        memory::dims get_padding_r() const { return base::get_padding_r(); }
    };

    pooling_backward() = default;
    pooling_backward(const primitive_desc &pd) : primitive(pd) {}
    pooling_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Parametric ReLU, forward pass.
struct prelu_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weight_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_prelu_forward_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aprop_kind),
                                src_desc.get(), weight_desc.get(),
                                dst_desc.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a PReLU forward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::prelu,
                    dnnl::prop_kind::forward_training,
                    dnnl::prop_kind::forward_inference) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
    };

    prelu_forward() = default;
    prelu_forward(const primitive_desc &pd) : primitive(pd) {}
    prelu_forward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Parametric ReLU, backward pass.
struct prelu_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weight_desc,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc,
                const prelu_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_prelu_backward_primitive_desc_create(pd,
                                aengine.get(), src_desc.get(),
                                weight_desc.get(), diff_src_desc.get(),
                                diff_weights_desc.get(), diff_dst_desc.get(),
                                hint_fwd_pd.get(), attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a PReLU backward primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::prelu,
                    dnnl::prop_kind::backward) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc diff_src_desc() const { return base::diff_src_desc(0); }
        memory::desc diff_dst_desc() const { return base::diff_dst_desc(0); }
        prop_kind get_prop_kind() const { return base::get_prop_kind(); }
    };

    prelu_backward() = default;
    prelu_backward(const primitive_desc &pd) : primitive(pd) {}
    prelu_backward(
            const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

/// Reduction over the dimensions where dst has size 1.
struct reduction : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float p, float eps, const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            create_pd(
                    [&](dnnl_primitive_desc_t *pd) {
                        return dnnl_reduction_primitive_desc_create(pd,
                                aengine.get(), dnnl::convert_to_c(aalgorithm),
                                src_desc.get(), dst_desc.get(), p, eps,
                                attr.get());
                    },
                    allow_empty,
                    "anydnn: could not create a reduction primitive "
                    "descriptor (ONEDNN_VERBOSE=all tells why)");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::reduction) {}

        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
        float get_p() const { return base::get_p(); }
        float get_epsilon() const { return base::get_epsilon(); }
        algorithm get_algorithm() const { return base::get_algorithm(); }
    };

    reduction() = default;
    reduction(const primitive_desc &pd) : primitive(pd) {}
    reduction(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd, cache_blob) {}
};

// Library-wide settings and queries.

using version_t = dnnl_version_t;

enum class status {
    success = dnnl_success,
    out_of_memory = dnnl_out_of_memory,
    invalid_arguments = dnnl_invalid_arguments,
    unimplemented = dnnl_unimplemented,
    last_impl_reached = dnnl_last_impl_reached,
    runtime_error = dnnl_runtime_error,
    not_required = dnnl_not_required,
};

inline status set_verbose(int level) {
    return static_cast<status>(dnnl_set_verbose(level));
}

inline bool verbose_profiling_enabled() {
    int on = 0;
    if (dnnl_verbose_profiling_enabled(&on) != dnnl_success) return false;
    return on != 0;
}

inline const version_t *version() {
    return dnnl_version();
}

inline fpmath_mode get_default_fpmath_mode() {
    dnnl_fpmath_mode_t mode = dnnl_fpmath_mode_strict;
    error::wrap_c_api(dnnl_get_default_fpmath_mode(&mode),
            "anydnn: could not read the default fpmath mode");
    return static_cast<fpmath_mode>(mode);
}

inline status set_default_fpmath_mode(fpmath_mode mode) {
    return static_cast<status>(
            dnnl_set_default_fpmath_mode(convert_to_c(mode)));
}

inline status set_jit_dump(int enable) {
    return static_cast<status>(dnnl_set_jit_dump(enable));
}

inline status set_jit_profiling_flags(unsigned flags) {
    return static_cast<status>(dnnl_set_jit_profiling_flags(flags));
}

inline status set_jit_profiling_jitdumpdir(const std::string &dir) {
    return static_cast<status>(dnnl_set_jit_profiling_jitdumpdir(dir.c_str()));
}

enum class cpu_isa {
    isa_default = dnnl_cpu_isa_default,
    sse41 = dnnl_cpu_isa_sse41,
    avx = dnnl_cpu_isa_avx,
    avx2 = dnnl_cpu_isa_avx2,
    avx2_vnni = dnnl_cpu_isa_avx2_vnni,
    avx2_vnni_2 = dnnl_cpu_isa_avx2_vnni_2,
    avx512_core = dnnl_cpu_isa_avx512_core,
    avx512_core_vnni = dnnl_cpu_isa_avx512_core_vnni,
    avx512_core_bf16 = dnnl_cpu_isa_avx512_core_bf16,
    avx10_1_512 = dnnl_cpu_isa_avx10_1_512,
    avx512_core_fp16 = dnnl_cpu_isa_avx512_core_fp16,
    avx10_1_512_amx = dnnl_cpu_isa_avx10_1_512_amx,
    avx512_core_amx = dnnl_cpu_isa_avx512_core_amx,
    avx10_1_512_amx_fp16 = dnnl_cpu_isa_avx10_1_512_amx_fp16,
    avx512_core_amx_fp16 = dnnl_cpu_isa_avx512_core_amx_fp16,
    avx10_2 = dnnl_cpu_isa_avx10_2,
    avx10_2_512 = dnnl_cpu_isa_avx10_2_512,
    avx10_2_amx_2 = dnnl_cpu_isa_avx10_2_amx_2,
    avx10_2_512_amx_2 = dnnl_cpu_isa_avx10_2_512_amx_2,
};

inline status set_max_cpu_isa(cpu_isa isa) {
    return static_cast<status>(
            dnnl_set_max_cpu_isa(static_cast<dnnl_cpu_isa_t>(isa)));
}

inline cpu_isa get_effective_cpu_isa() {
    return static_cast<cpu_isa>(dnnl_get_effective_cpu_isa());
}

enum class cpu_isa_hints {
    no_hints = dnnl_cpu_isa_no_hints,
    prefer_ymm = dnnl_cpu_isa_prefer_ymm,
};

inline status set_cpu_isa_hints(cpu_isa_hints isa_hints) {
    return static_cast<status>(dnnl_set_cpu_isa_hints(
            static_cast<dnnl_cpu_isa_hints_t>(isa_hints)));
}

inline cpu_isa_hints get_cpu_isa_hints() {
    return static_cast<cpu_isa_hints>(dnnl_get_cpu_isa_hints());
}

#ifdef DNNL_EXPERIMENTAL_PROFILING
enum class profiling_data_kind {
    undef = dnnl_profiling_data_kind_undef,
    time = dnnl_profiling_data_kind_time,
};

inline void reset_profiling(stream &stream) {
    error::wrap_c_api(dnnl_reset_profiling(stream.get()),
            "anydnn: could not reset profiling data");
}

inline std::vector<uint64_t> get_profiling_data(
        stream &stream, profiling_data_kind data_kind) {
    const dnnl_profiling_data_kind_t kind
            = static_cast<dnnl_profiling_data_kind_t>(data_kind);
    int n = 0;
    error::wrap_c_api(
            dnnl_query_profiling_data(stream.get(), kind, &n, nullptr),
            "anydnn: could not count profiling entries");
    std::vector<uint64_t> data(static_cast<size_t>(n > 0 ? n : 0));
    if (data.empty()) return data;
    error::wrap_c_api(
            dnnl_query_profiling_data(stream.get(), kind, &n, data.data()),
            "anydnn: could not read profiling data");
    return data;
}
#endif

inline int get_primitive_cache_capacity() {
    int capacity = 0;
    error::wrap_c_api(dnnl_get_primitive_cache_capacity(&capacity),
            "anydnn: could not read the primitive cache capacity");
    return capacity;
}

inline void set_primitive_cache_capacity(int capacity) {
    error::wrap_c_api(dnnl_set_primitive_cache_capacity(capacity),
            "anydnn: could not set the primitive cache capacity");
}

inline status sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
        const float *B, dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc) {
    return static_cast<status>(dnnl_sgemm(
            transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc));
}

inline status gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return static_cast<status>(dnnl_gemm_u8s8s32(transa, transb, offsetc, M, N,
            K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co));
}

inline status gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return static_cast<status>(dnnl_gemm_s8s8s32(transa, transb, offsetc, M, N,
            K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co));
}

// primitive members that need the complete primitive_desc, stream and memory.

inline primitive::primitive(const_dnnl_primitive_desc_t c_pd) {
    dnnl_primitive_t c_prim = nullptr;
    error::wrap_c_api(dnnl_primitive_create(&c_prim, c_pd),
            "anydnn: could not create a primitive");
    reset(c_prim);
}

inline primitive::primitive(const_dnnl_primitive_desc_t c_pd,
        const std::vector<uint8_t> &cache_blob) {
    dnnl_primitive_t c_prim = nullptr;
    error::wrap_c_api(dnnl_primitive_create_from_cache_blob(&c_prim, c_pd,
                              cache_blob.size(), cache_blob.data()),
            "anydnn: could not create a primitive from a cache blob");
    reset(c_prim);
}

inline primitive::primitive(const primitive_desc &pd) : primitive(pd.get()) {}

inline primitive::primitive(
        const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
    : primitive(pd.get(), cache_blob) {}

inline void primitive::execute(const stream &astream,
        const std::unordered_map<int, memory> &args) const {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &kv : args) {
        dnnl_exec_arg_t a;
        a.arg = kv.first;
        a.memory = kv.second.get(true);
        c_args.push_back(a);
    }
    error::wrap_c_api(dnnl_primitive_execute(get(), astream.get(),
                              static_cast<int>(c_args.size()), c_args.data()),
            "anydnn: could not execute a primitive");
}

} // namespace dnnl

namespace oneapi {
namespace dnnl = ::dnnl;
} // namespace oneapi

#endif // ONEAPI_DNNL_DNNL_HPP
