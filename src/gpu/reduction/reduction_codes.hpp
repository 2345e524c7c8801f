// The reduction's accumulation and final step as the kernels number them (cl/reduce_acc.h,
// reduction.cl: ACC_*, FIN_*).
#pragma once

#include "core/ops/reduction/common.hpp"

namespace anydnn {
namespace gpu {

inline int finalize_code(dnnl_alg_kind_t alg) {
    switch (alg) {
    case dnnl_reduction_mean: return 1;
    case dnnl_reduction_norm_lp_max: return 2;
    case dnnl_reduction_norm_lp_sum: return 3;
    case dnnl_reduction_norm_lp_power_p_max: return 4;
    case dnnl_reduction_norm_lp_power_p_sum: return 5;
    default: return 0;
    }
}

inline int acc_code(cpu::reduction::acc_kind_t k) {
    using cpu::reduction::acc_kind_t;
    switch (k) {
    case acc_kind_t::max: return 0;
    case acc_kind_t::min: return 1;
    case acc_kind_t::sum: return 2;
    case acc_kind_t::mul: return 3;
    case acc_kind_t::abs_sum: return 4;
    case acc_kind_t::sq_sum: return 5;
    default: return 6;
    }
}

} // namespace gpu
} // namespace anydnn
