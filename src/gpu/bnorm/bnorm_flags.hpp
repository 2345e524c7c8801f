// The flags argument of the batch normalization kernels (BN_* in bnorm.cl and bnorm_flat.cl):
// which tensors take part and which fused steps run.
#pragma once

#include "core/ops/bnorm/common.hpp"

namespace anydnn {
namespace gpu {

enum : int {
    bn_scale = 1,
    bn_shift = 2,
    bn_global = 4,
    bn_stats_out = 8,
    bn_relu = 16,
    bn_add_relu = 32,
    bn_ws = 64,
    bn_diff_scale = 128,
    bn_diff_shift = 256
};

template <typename ARGS>
int bnorm_flags(const cpu::bnorm::conf_t &c, const ARGS &args) {
    int f = 0;
    if (c.scale) f |= bn_scale;
    if (c.shift) f |= bn_shift;
    if (c.global_stats) f |= bn_global;
    if (c.stats_out) f |= bn_stats_out;
    if (c.relu) f |= bn_relu;
    if (c.add_relu) f |= bn_add_relu;
    if (args.count(DNNL_ARG_WORKSPACE)) f |= bn_ws;
    if (args.count(DNNL_ARG_DIFF_SCALE)) f |= bn_diff_scale;
    if (args.count(DNNL_ARG_DIFF_SHIFT)) f |= bn_diff_shift;
    return f;
}

} // namespace gpu
} // namespace anydnn
