// PReLU: dst = src > 0 ? src : src * weights, weights broadcast along their size-1 dimensions;
// backward: diff_src element-wise, diff_weights one row per weight summed over the broadcast
// dims (deterministic order). Any blocked layouts; padding of outputs zeroed.
#include "cl/group_reduce.h"
#include "cl/post_ops.h"

// Whether padded index idx lies outside the logical dims lim.
bool in_padding(const long *idx, const long *lim, int ndims) {
    bool pad = false;
    for (int d = 0; d < ndims; ++d) pad = pad || idx[d] >= lim[d];
    return pad;
}

#ifdef FWD
kernel void prelu_fwd(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        global DST_DATA_T *dst, tensor_layout_t src_l, tensor_layout_t wei_l,
        tensor_layout_t dst_l, long n, long8 logical_dims) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS], lim[8];
    layout_index(&dst_l, i, idx);
    dims_of(logical_dims, lim);
    float v = 0.f;
    if (!in_padding(idx, lim, dst_l.ndims)) {
        v = LOAD_SRC(src, layout_offset(&src_l, idx));
        if (!(v > 0.f)) v *= LOAD_WEI(wei, bcast_offset(&wei_l, idx));
    }
    STORE_DST(dst, layout_offset(&dst_l, idx), v);
}
#endif

#ifdef BWD
// One work-item per padded diff_src element.
kernel void prelu_bwd_data(const global SRC_DATA_T *src, const global WEI_DATA_T *wei,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_SRC_DATA_T *diff_src,
        tensor_layout_t src_l, tensor_layout_t wei_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, long n, long8 logical_dims) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS], lim[8];
    layout_index(&ds_l, i, idx);
    dims_of(logical_dims, lim);
    float v = 0.f;
    if (!in_padding(idx, lim, ds_l.ndims)) {
        v = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        if (!(LOAD_SRC(src, layout_offset(&src_l, idx)) > 0.f))
            v *= LOAD_WEI(wei, bcast_offset(&wei_l, idx));
    }
    STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), v);
}

// One row per padded diff_weights element: the sum of src * diff_dst over src <= 0 along the
// dims where the weights broadcast (src_dims > wei_dims there).
kernel void prelu_bwd_weights(const global SRC_DATA_T *src,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_WEI_DATA_T *diff_wei,
        tensor_layout_t src_l, tensor_layout_t dd_l, tensor_layout_t dw_l, long8 src_dims,
        long8 wei_dims, local float *buf) {
    long sd[8], wd[8], idx[MAX_NDIMS];
    dims_of(src_dims, sd);
    dims_of(wei_dims, wd);
    const int nd = src_l.ndims;
    layout_index(&dw_l, ROW_ID, idx);
    const long out = layout_offset(&dw_l, idx);
    // Padding rows sum nothing; no early return: every work-item must reach the barriers
    // (PoCL also miscompiles a return ahead of them).
    long R = in_padding(idx, wd, nd) ? 0 : 1;
    for (int d = 0; d < nd; ++d)
        if (wd[d] == 1) R *= sd[d];
    float s = 0.f;
    for (long r = ROW_LID; r < R; r += ROW_L) {
        long q = r;
        for (int d = nd - 1; d >= 0; --d) {
            if (wd[d] != 1) continue;
            idx[d] = q % sd[d];
            q /= sd[d];
        }
        const float x = LOAD_SRC(src, layout_offset(&src_l, idx));
        if (!(x > 0.f)) s += x * LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
    }
    s = group_sum(buf, s);
    if (ROW_LID == 0) STORE_DIFF_WEI(diff_wei, out, s);
}
#endif
