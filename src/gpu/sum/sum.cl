// Sum: dst = sum over i of scale_i * src_i, one launch per source accumulating in f32 (acc, an
// f32 buffer addressed with dst's layout); the last launch writes dst. Any blocked layouts; one
// work-item per padded dst element, dst padding written as zero.
#include "cl/common.h"

kernel void sum_accumulate(const global SRC_DATA_T *src, global float *acc,
        global DST_DATA_T *dst, tensor_layout_t src_l, tensor_layout_t dst_l, long n,
        long8 logical_dims, float scale, int first, int last) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&dst_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < dst_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    const long off = layout_offset(&dst_l, idx);
    float v = 0.f;
    if (!pad) {
        v = scale * LOAD_SRC(src, layout_offset(&src_l, idx));
        if (!first) v += acc[off];
    }
    if (last)
        STORE_DST(dst, off, v);
    else
        acc[off] = v;
}
