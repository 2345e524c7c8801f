// What both GPU batch normalization kernels (bnorm.cl, bnorm_flat.cl) share on the host: the
// flags argument (BN_*: which tensors take part, which fused steps run) and the checks of a
// problem both take.
#pragma once

#include "core/ops/bnorm/common.hpp"
#include "gpu/launch.hpp"

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
    bn_diff_shift = 256,
    bn_po_relu = 512 // the relu post-op, its slope a kernel argument (bnorm.cl only)
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

// Resolves the configuration and checks what every GPU batch normalization needs: tensors
// the kernels can address, f32 statistics, scale and shift.
template <typename PD>
status_t init_bnorm_common(PD &pd) {
    pd.conf = cpu::bnorm::make_conf(cpu::bnorm::desc_of(pd));
    ANYDNN_CHECK(cpu::bnorm::resolve(pd));
    for (const auto &a : pd.args)
        ANYDNN_CHECK(check_tensors({&a.second}));
    for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT,
                 DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT}) {
        auto it = pd.args.find(a);
        ANYDNN_REQUIRE(it == pd.args.end() || it->second.data_type == dnnl_f32,
                dnnl_unimplemented, "GPU batch normalization keeps f32 statistics, scale, shift");
    }
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
