// What every CPU pooling implementation shares: the problem as 3D (1D and 2D pad with unit
// dims), layout resolution, the workspace descriptor, and the taps a window sees.
#pragma once

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace pooling {

inline const pooling_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<pooling_desc_t>(pd.desc);
}

inline bool is_fwd(const pooling_desc_t &d) {
    return d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference;
}

// Sizes as N, C, D, H, W with spatial parameters per D/H/W (unit for missing dims).
struct geom_t {
    int ndims = 0;
    dim_t mb = 0, c = 0;
    dim_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    dim_t k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, dl[3] = {0, 0, 0}, pl[3] = {0, 0, 0};
    dnnl_alg_kind_t alg = dnnl_pooling_max;
    dim_t ksize() const { return k[0] * k[1] * k[2]; }
    // [lo, hi) of kernel taps along dim i of output o that land inside src.
    void taps(int i, dim_t o, dim_t &lo, dim_t &hi) const {
        const dim_t start = o * s[i] - pl[i];
        lo = 0;
        hi = k[i];
        while (lo < hi && start + lo * (dl[i] + 1) < 0)
            ++lo;
        while (hi > lo && start + (hi - 1) * (dl[i] + 1) >= in[i])
            --hi;
    }
    dim_t src_pos(int i, dim_t o, dim_t tap) const { return o * s[i] - pl[i] + tap * (dl[i] + 1); }
};
geom_t make_geom(const pooling_desc_t &d);

// Workspace of max pooling in training: the tap index within the window (kd, kh, kw
// row-major), u8 while the kernel has at most 256 taps, else s32; dst's layout.
memory_desc_t workspace_md(const geom_t &g, const memory_desc_t &dst);

// Resolves layouts and data types and fills pd.args for SRC/DST(/WORKSPACE) or
// DIFF_DST/DIFF_SRC(/WORKSPACE). `float_only_bwd`: backward takes f32, bf16, f16.
status_t resolve(primitive_desc_t &pd);

// Whether attributes beyond post-ops are default; `post_ops` says if the chain is allowed.
status_t check_attr(const primitive_attr_t &attr, bool post_ops);

} // namespace pooling
} // namespace cpu
} // namespace anydnn
