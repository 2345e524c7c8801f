// The flags both GPU group normalizations pass their kernels (GN_* of gnorm.cl and
// gnorm_flat.cl), from the descriptor and the arguments the primitive descriptor holds.
#pragma once

#include "core/ops/gnorm/common.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace gpu {

enum : int {
    gn_scale = 1,
    gn_shift = 2,
    gn_global = 4, // statistics are inputs
    gn_stats_out = 8, // forward writes the statistics
    gn_diff_scale = 16,
    gn_diff_shift = 32
};

inline int gnorm_kernel_flags(const primitive_desc_t &pd) {
    const auto &d = cpu::gnorm::desc_of(pd);
    int f = 0;
    if (d.flags & dnnl_use_scale) f |= gn_scale;
    if (d.flags & dnnl_use_shift) f |= gn_shift;
    if (d.flags & dnnl_use_global_stats) f |= gn_global;
    if (d.prop_kind == dnnl_forward_training && !(d.flags & dnnl_use_global_stats))
        f |= gn_stats_out;
    if (pd.args.count(DNNL_ARG_DIFF_SCALE)) f |= gn_diff_scale;
    if (pd.args.count(DNNL_ARG_DIFF_SHIFT)) f |= gn_diff_shift;
    return f;
}

} // namespace gpu
} // namespace anydnn
