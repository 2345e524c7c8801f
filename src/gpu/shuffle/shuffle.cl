// Shuffle, forward and backward: one axis permuted, elements copied bit for bit (DATA_T is
// the storage type of both tensors). Any blocked layouts; one work-item per padded output
// element, output padding written as zero.
#include "cl/common.h"

kernel void shuffle_generic(const global DATA_T *in, global DATA_T *out, tensor_layout_t in_l,
        tensor_layout_t out_l, long n, long8 logical_dims, int axis, long group, long per_group,
        int fwd) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&out_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < out_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    const long out_off = layout_offset(&out_l, idx);
    if (pad) {
        out[out_off] = (DATA_T)0;
        return;
    }
    // Forward views the axis as [C/G][G] and transposes it to [G][C/G]; backward undoes it.
    const long c = idx[axis];
    idx[axis] = fwd ? (c % per_group) * group + c / per_group
                    : (c % group) * per_group + c / group;
    out[out_off] = in[layout_offset(&in_l, idx)];
}
