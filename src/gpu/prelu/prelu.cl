// PReLU forward: dst = src > 0 ? src : src * weights, weights broadcast along their size-1
// dimensions. Any blocked layouts; one work-item per padded dst element, padding zeroed.
#include "cl/common.h"
#include "cl/post_ops.h"

kernel void prelu_fwd(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        global DST_DATA_T *dst, tensor_layout_t src_l, tensor_layout_t wei_l,
        tensor_layout_t dst_l, long n, long8 logical_dims) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&dst_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < dst_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    float v = 0.f;
    if (!pad) {
        v = LOAD_SRC(src, layout_offset(&src_l, idx));
        if (!(v > 0.f)) v *= LOAD_WEI(wei, bcast_offset(&wei_l, idx));
    }
    STORE_DST(dst, layout_offset(&dst_l, idx), v);
}
