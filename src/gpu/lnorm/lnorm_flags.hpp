// What the two GPU layer-normalization kernels (lnorm.cl, lnorm_rows.cl) share on the host:
// the LN_* flags both take, and the direction test.
#pragma once

#include "core/ops/lnorm/common.hpp"

namespace anydnn {
namespace gpu {
namespace lnorm_flags {

// Mirrors the LN_* flags of lnorm.cl and lnorm_rows.cl.
enum : int {
    ln_scale = 1,
    ln_shift = 2,
    ln_global = 4,
    ln_stats_out = 8,
    ln_rms = 16,
    ln_diff_scale = 32,
    ln_diff_shift = 64
};

inline bool is_fwd(const layer_normalization_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

} // namespace lnorm_flags
} // namespace gpu
} // namespace anydnn
