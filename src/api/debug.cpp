// Names of public enumeration values (dnnl_debug.h).
//
// The strings follow oneDNN's convention, which verbose lines and benchdnn-style tools rely
// on: the enumerator without its "dnnl_" prefix (and without the mode prefix of the *_mode_t
// enums); "undef" / "any" for the undefined / any values; where several names share a value,
// the first declared one. A value outside the enumeration gives "unknown <kind>", never NULL.
// dnnl_fmt_tag2str lives with the generated format tags (src/core/format_tag_names.cpp).

#include "oneapi/dnnl/dnnl_debug.h"

// `case dnnl_x: return "x";`
#define ANYDNN_NAME(x) \
    case dnnl_##x: return #x

const char *dnnl_status2str(dnnl_status_t v) {
    switch (v) {
        ANYDNN_NAME(success);
        ANYDNN_NAME(out_of_memory);
        ANYDNN_NAME(invalid_arguments);
        ANYDNN_NAME(unimplemented);
        ANYDNN_NAME(last_impl_reached);
        ANYDNN_NAME(runtime_error);
        ANYDNN_NAME(not_required);
        ANYDNN_NAME(invalid_graph);
        ANYDNN_NAME(invalid_graph_op);
        ANYDNN_NAME(invalid_shape);
        ANYDNN_NAME(invalid_data_type);
        default: return "unknown status";
    }
}

const char *dnnl_dt2str(dnnl_data_type_t v) {
    switch (v) {
        case dnnl_data_type_undef: return "undef";
        ANYDNN_NAME(f16);
        ANYDNN_NAME(bf16);
        ANYDNN_NAME(f32);
        ANYDNN_NAME(s32);
        ANYDNN_NAME(s8);
        ANYDNN_NAME(u8);
        ANYDNN_NAME(f64);
        ANYDNN_NAME(boolean);
        ANYDNN_NAME(f8_e5m2);
        ANYDNN_NAME(f8_e4m3);
        ANYDNN_NAME(s4);
        ANYDNN_NAME(u4);
        ANYDNN_NAME(e8m0);
        ANYDNN_NAME(f4_e2m1);
        ANYDNN_NAME(f4_e3m0);
        ANYDNN_NAME(s64);
        ANYDNN_NAME(data_type_max);
        default: return "unknown dt";
    }
}

const char *dnnl_fpmath_mode2str(dnnl_fpmath_mode_t v) {
    switch (v) {
        case dnnl_fpmath_mode_strict: return "strict";
        case dnnl_fpmath_mode_bf16: return "bf16";
        case dnnl_fpmath_mode_f16: return "f16";
        case dnnl_fpmath_mode_any: return "any";
        case dnnl_fpmath_mode_tf32: return "tf32";
        default: return "unknown fpmath_mode";
    }
}

const char *dnnl_accumulation_mode2str(dnnl_accumulation_mode_t v) {
    switch (v) {
        case dnnl_accumulation_mode_strict: return "strict";
        case dnnl_accumulation_mode_relaxed: return "relaxed";
        case dnnl_accumulation_mode_any: return "any";
        case dnnl_accumulation_mode_s32: return "s32";
        case dnnl_accumulation_mode_f32: return "f32";
        case dnnl_accumulation_mode_f16: return "f16";
        default: return "unknown accumulation_mode";
    }
}

const char *dnnl_engine_kind2str(dnnl_engine_kind_t v) {
    switch (v) {
        case dnnl_any_engine: return "any";
        ANYDNN_NAME(cpu);
        ANYDNN_NAME(gpu);
        default: return "unknown engine_kind";
    }
}

const char *dnnl_sparse_encoding2str(dnnl_sparse_encoding_t v) {
    switch (v) {
        case dnnl_sparse_encoding_undef: return "undef";
        ANYDNN_NAME(csr);
        ANYDNN_NAME(packed);
        ANYDNN_NAME(coo);
#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
        ANYDNN_NAME(grouped);
#endif
        default: return "unknown sparse_encoding";
    }
}

const char *dnnl_prop_kind2str(dnnl_prop_kind_t v) {
    switch (v) {
        case dnnl_prop_kind_undef: return "undef";
        ANYDNN_NAME(forward_training); // == dnnl_forward
        ANYDNN_NAME(forward_inference);
        ANYDNN_NAME(backward);
        ANYDNN_NAME(backward_data);
        ANYDNN_NAME(backward_weights);
        ANYDNN_NAME(backward_bias);
        default: return "unknown prop_kind";
    }
}

const char *dnnl_prim_kind2str(dnnl_primitive_kind_t v) {
    switch (v) {
        case dnnl_undefined_primitive: return "undef";
        ANYDNN_NAME(reorder);
        ANYDNN_NAME(shuffle);
        ANYDNN_NAME(concat);
        ANYDNN_NAME(sum);
        ANYDNN_NAME(convolution);
        ANYDNN_NAME(deconvolution);
        ANYDNN_NAME(eltwise);
        ANYDNN_NAME(lrn);
        ANYDNN_NAME(batch_normalization);
        ANYDNN_NAME(inner_product);
        ANYDNN_NAME(rnn);
        ANYDNN_NAME(gemm);
        ANYDNN_NAME(binary);
        ANYDNN_NAME(matmul);
        ANYDNN_NAME(resampling);
        ANYDNN_NAME(pooling);
        ANYDNN_NAME(reduction);
        ANYDNN_NAME(prelu);
        ANYDNN_NAME(softmax);
        ANYDNN_NAME(layer_normalization);
        ANYDNN_NAME(group_normalization);
        ANYDNN_NAME(primitive_kind_max);
        default: return "unknown prim_kind";
    }
}

const char *dnnl_alg_kind2str(dnnl_alg_kind_t v) {
    switch (v) {
        case dnnl_alg_kind_undef: return "undef";
        ANYDNN_NAME(convolution_direct);
        ANYDNN_NAME(convolution_winograd);
        ANYDNN_NAME(convolution_auto);
        ANYDNN_NAME(deconvolution_direct);
        ANYDNN_NAME(deconvolution_winograd);
        ANYDNN_NAME(eltwise_relu);
        ANYDNN_NAME(eltwise_tanh);
        ANYDNN_NAME(eltwise_elu);
        ANYDNN_NAME(eltwise_square);
        ANYDNN_NAME(eltwise_abs);
        ANYDNN_NAME(eltwise_sqrt);
        ANYDNN_NAME(eltwise_linear);
        ANYDNN_NAME(eltwise_soft_relu);
        ANYDNN_NAME(eltwise_hardsigmoid);
        ANYDNN_NAME(eltwise_logistic);
        ANYDNN_NAME(eltwise_exp);
        ANYDNN_NAME(eltwise_gelu_tanh);
        ANYDNN_NAME(eltwise_swish);
        ANYDNN_NAME(eltwise_log);
        ANYDNN_NAME(eltwise_clip);
        ANYDNN_NAME(eltwise_clip_v2);
        ANYDNN_NAME(eltwise_pow);
        ANYDNN_NAME(eltwise_gelu_erf);
        ANYDNN_NAME(eltwise_round);
        ANYDNN_NAME(eltwise_mish);
        ANYDNN_NAME(eltwise_hardswish);
        ANYDNN_NAME(eltwise_relu_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_tanh_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_elu_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_sqrt_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_logistic_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_exp_use_dst_for_bwd);
        ANYDNN_NAME(eltwise_clip_v2_use_dst_for_bwd);
        ANYDNN_NAME(pooling_max);
        ANYDNN_NAME(pooling_avg_include_padding);
        ANYDNN_NAME(pooling_avg_exclude_padding);
        ANYDNN_NAME(lrn_across_channels);
        ANYDNN_NAME(lrn_within_channel);
        ANYDNN_NAME(vanilla_rnn);
        ANYDNN_NAME(vanilla_lstm);
        ANYDNN_NAME(vanilla_gru);
        ANYDNN_NAME(lbr_gru);
        ANYDNN_NAME(vanilla_augru);
        ANYDNN_NAME(lbr_augru);
        ANYDNN_NAME(binary_add);
        ANYDNN_NAME(binary_mul);
        ANYDNN_NAME(binary_max);
        ANYDNN_NAME(binary_min);
        ANYDNN_NAME(binary_div);
        ANYDNN_NAME(binary_sub);
        ANYDNN_NAME(binary_ge);
        ANYDNN_NAME(binary_gt);
        ANYDNN_NAME(binary_le);
        ANYDNN_NAME(binary_lt);
        ANYDNN_NAME(binary_eq);
        ANYDNN_NAME(binary_ne);
        ANYDNN_NAME(binary_select);
        ANYDNN_NAME(resampling_nearest);
        ANYDNN_NAME(resampling_linear);
        ANYDNN_NAME(reduction_max);
        ANYDNN_NAME(reduction_min);
        ANYDNN_NAME(reduction_sum);
        ANYDNN_NAME(reduction_mul);
        ANYDNN_NAME(reduction_mean);
        ANYDNN_NAME(reduction_norm_lp_max);
        ANYDNN_NAME(reduction_norm_lp_sum);
        ANYDNN_NAME(reduction_norm_lp_power_p_max);
        ANYDNN_NAME(reduction_norm_lp_power_p_sum);
        ANYDNN_NAME(softmax_accurate);
        ANYDNN_NAME(softmax_log);
        default: return "unknown alg_kind";
    }
}

const char *dnnl_rnn_flags2str(dnnl_rnn_flags_t v) {
    switch (v) {
        case dnnl_rnn_flags_undef: return "undef";
        ANYDNN_NAME(rnn_flags_diff_weights_overwrite);
        default: return "unknown rnn_flags";
    }
}

const char *dnnl_rnn_direction2str(dnnl_rnn_direction_t v) {
    switch (v) {
        case dnnl_rnn_direction_undef: return "undef";
        ANYDNN_NAME(unidirectional_left2right);
        ANYDNN_NAME(unidirectional_right2left);
        ANYDNN_NAME(bidirectional_concat);
        ANYDNN_NAME(bidirectional_sum);
        default: return "unknown rnn_direction";
    }
}

const char *dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_t v) {
    switch (v) {
        case dnnl_scratchpad_mode_library: return "library";
        case dnnl_scratchpad_mode_user: return "user";
        default: return "unknown scratchpad_mode";
    }
}

const char *dnnl_rounding_mode2str(dnnl_rounding_mode_t v) {
    switch (v) {
        case dnnl_rounding_mode_environment: return "environment";
        case dnnl_rounding_mode_stochastic: return "stochastic";
        default: return "unknown rounding_mode";
    }
}

const char *dnnl_quantization_mode2str(dnnl_quantization_mode_t v) {
    switch (v) {
        case dnnl_quantization_mode_undef: return "undef";
        case dnnl_quantization_mode_static_sazp: return "static_sazp";
        case dnnl_quantization_mode_dynamic_mx: return "dynamic_mx";
        case dnnl_quantization_mode_dynamic_fp: return "dynamic_fp";
        default: return "unknown quantization_mode";
    }
}

// Aliases (avx512_core_fp16, avx512_core_amx, ...) print as the avx10 name declared first.
const char *dnnl_cpu_isa2str(dnnl_cpu_isa_t v) {
    switch (v) {
        ANYDNN_NAME(cpu_isa_default);
        ANYDNN_NAME(cpu_isa_sse41);
        ANYDNN_NAME(cpu_isa_avx);
        ANYDNN_NAME(cpu_isa_avx2);
        ANYDNN_NAME(cpu_isa_avx2_vnni);
        ANYDNN_NAME(cpu_isa_avx2_vnni_2);
        ANYDNN_NAME(cpu_isa_avx512_core);
        ANYDNN_NAME(cpu_isa_avx512_core_vnni);
        ANYDNN_NAME(cpu_isa_avx512_core_bf16);
        ANYDNN_NAME(cpu_isa_avx10_1_512);
        ANYDNN_NAME(cpu_isa_avx10_1_512_amx);
        ANYDNN_NAME(cpu_isa_avx10_1_512_amx_fp16);
        ANYDNN_NAME(cpu_isa_avx10_2);
        ANYDNN_NAME(cpu_isa_avx10_2_amx_2);
        default: return "unknown cpu_isa";
    }
}

const char *dnnl_cpu_isa_hints2str(dnnl_cpu_isa_hints_t v) {
    switch (v) {
        ANYDNN_NAME(cpu_isa_no_hints);
        ANYDNN_NAME(cpu_isa_prefer_ymm);
        default: return "unknown cpu_isa_hints";
    }
}

const char *dnnl_fmt_kind2str(dnnl_format_kind_t v) {
    switch (v) {
        case dnnl_format_kind_undef: return "undef";
        case dnnl_format_kind_any: return "any";
        case dnnl_blocked: return "blocked";
        case dnnl_format_kind_opaque: return "opaque";
        case dnnl_format_kind_sparse: return "sparse";
        case dnnl_format_kind_host_scalar: return "host_scalar";
        case dnnl_format_kind_max: return "max";
        default: return "unknown fmt_kind";
    }
}

// These spellings are what verbose headers print ("info,cpu,runtime:OpenMP").
const char *dnnl_runtime2str(unsigned v) {
    switch (v) {
        case DNNL_RUNTIME_NONE: return "none";
        case DNNL_RUNTIME_SEQ: return "sequential";
        case DNNL_RUNTIME_OMP: return "OpenMP";
        case DNNL_RUNTIME_TBB: return "TBB";
        case DNNL_RUNTIME_THREADPOOL: return "threadpool";
        case DNNL_RUNTIME_OCL: return "OpenCL";
        case DNNL_RUNTIME_SYCL: return "DPC++";
        case DNNL_RUNTIME_ZE: return "Level Zero";
        default: return "unknown";
    }
}

#undef ANYDNN_NAME
