// Reduction algorithms as an accumulate step and a final step, shared by the CPU
// implementations: max, min, sum, mul, mean, and the Lp norms
// (sum |x|^p, then max(., eps) or + eps, then the 1/p root for the norm_lp_* ones).
#pragma once

#include <cmath>
#include <limits>

#include "core/ops/layout.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace reduction {

// How values fold into the accumulator.
enum class acc_kind_t { max, min, sum, mul, abs_sum, sq_sum, pow_sum };

inline acc_kind_t acc_kind(dnnl_alg_kind_t alg, float p) {
    switch (alg) {
        case dnnl_reduction_max: return acc_kind_t::max;
        case dnnl_reduction_min: return acc_kind_t::min;
        case dnnl_reduction_mul: return acc_kind_t::mul;
        case dnnl_reduction_sum:
        case dnnl_reduction_mean: return acc_kind_t::sum;
        default: return p == 1.f ? acc_kind_t::abs_sum : p == 2.f ? acc_kind_t::sq_sum
                                                                  : acc_kind_t::pow_sum;
    }
}

inline float acc_init(acc_kind_t k) {
    switch (k) {
        case acc_kind_t::max: return -std::numeric_limits<float>::infinity();
        case acc_kind_t::min: return std::numeric_limits<float>::infinity();
        case acc_kind_t::mul: return 1.f;
        default: return 0.f;
    }
}

template <acc_kind_t K>
inline float acc_step(float a, float x, float p) {
    if (K == acc_kind_t::max) return x > a ? x : a;
    if (K == acc_kind_t::min) return x < a ? x : a;
    if (K == acc_kind_t::sum) return a + x;
    if (K == acc_kind_t::mul) return a * x;
    if (K == acc_kind_t::abs_sum) return a + std::fabs(x);
    if (K == acc_kind_t::sq_sum) return a + x * x;
    return a + std::pow(std::fabs(x), p);
}

// Joins two partial accumulators.
inline float acc_join(acc_kind_t k, float a, float b) {
    switch (k) {
        case acc_kind_t::max: return b > a ? b : a;
        case acc_kind_t::min: return b < a ? b : a;
        case acc_kind_t::mul: return a * b;
        default: return a + b;
    }
}

// The reduced value from the accumulator over n elements.
inline float finalize(dnnl_alg_kind_t alg, float acc, dim_t n, float p, float eps) {
    switch (alg) {
        case dnnl_reduction_mean: return n ? acc / static_cast<float>(n) : acc;
        case dnnl_reduction_norm_lp_max: return std::pow(std::max(acc, eps), 1.f / p);
        case dnnl_reduction_norm_lp_sum: return std::pow(acc + eps, 1.f / p);
        case dnnl_reduction_norm_lp_power_p_max: return std::max(acc, eps);
        case dnnl_reduction_norm_lp_power_p_sum: return acc + eps;
        default: return acc;
    }
}

inline const reduction_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<reduction_desc_t>(pd.desc);
}

inline bool is_src_type(dnnl_data_type_t t) {
    return t == dnnl_f32 || t == dnnl_bf16 || t == dnnl_f16 || t == dnnl_s8 || t == dnnl_u8
            || t == dnnl_s32;
}

// src and dst resolved (dst any takes src's layout), walkable, of supported types; attr
// holds nothing but post-ops.
inline status_t resolve(const primitive_desc_t &pd, memory_desc_t &src, memory_desc_t &dst) {
    const auto &d = desc_of(pd);
    src = d.src_md;
    dst = d.dst_md;
    ANYDNN_REQUIRE(src.format_kind == dnnl_blocked && !has_runtime_dims_or_strides(src),
            dnnl_unimplemented, "src must have a blocked layout without runtime dims");
    if (dst.format_kind == dnnl_format_kind_any)
        dst = md_like(src, dst.ndims, dst.dims, dst.data_type);
    ANYDNN_REQUIRE(dst.format_kind == dnnl_blocked && !has_runtime_dims_or_strides(dst),
            dnnl_unimplemented, "dst must have a blocked layout without runtime dims");
    ANYDNN_REQUIRE(is_src_type(src.data_type) && is_src_type(dst.data_type),
            dnnl_unimplemented, "data types %s -> %s not supported",
            dnnl_dt2str(src.data_type), dnnl_dt2str(dst.data_type));
    unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode | attr_skip::post_ops;
    ANYDNN_REQUIRE(pd.attr.has_default_values(ignore), dnnl_unimplemented,
            "attributes other than post-ops are not supported");
    return dnnl_success;
}

} // namespace reduction
} // namespace cpu
} // namespace anydnn
