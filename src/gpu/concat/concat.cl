// Concat: each source copied into dst at its offset along the axis (one launch per source,
// one work-item per source element), then dst's padding zeroed. COPY: same types, no scale:
// bits copied as DATA_T; otherwise values go through f32 (SRC / DST types, SCALE).
#include "cl/common.h"

kernel void concat_source(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long n, int axis, long axis_offset,
        const global float *scale) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&src_l, i, idx); // src_l.dims hold the logical sizes
    const long s = layout_offset(&src_l, idx);
    idx[axis] += axis_offset;
    const long d = layout_offset(&dst_l, idx);
#ifdef COPY
    dst[d] = src[s];
#else
    float v = LOAD_SRC(src, s);
#ifdef SCALE
    v *= scale[0];
#endif
    STORE_DST(dst, d, v);
#endif
}

kernel void concat_zero_padding(global DST_DATA_T *dst, tensor_layout_t dst_l, long n,
        long8 logical_dims) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&dst_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < dst_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    if (pad) dst[layout_offset(&dst_l, idx)] = (DST_DATA_T)0;
}
