// Work-group reductions through local memory (a tree; the local size must be a power of two)
// and the logical positions of rows along one axis, for the reduction-shaped kernels.
#ifndef ANYDNN_GPU_CL_GROUP_REDUCE_H
#define ANYDNN_GPU_CL_GROUP_REDUCE_H

#include "cl/common.h"

// Rows are reduced by a work-group each (GROUP_REDUCE: work-items stride over the row and
// join through local memory) or by one work-item each (CPU devices, where barriers cost more
// than they bring and PoCL compiles barrier loops slowly).
#ifdef GROUP_REDUCE
#define ROW_ID get_group_id(0)
#define ROW_LID ((long)get_local_id(0))
#define ROW_L ((long)get_local_size(0))

// Every work-item gets the sum of all the group's `v`.
static float group_sum(local float *buf, float v) {
    const int lid = get_local_id(0), n = get_local_size(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s) buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE); // buf is reused by the next reduction
    return r;
}

static float group_max(local float *buf, float v) {
    const int lid = get_local_id(0), n = get_local_size(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s) buf[lid] = fmax(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#else
#define ROW_ID get_global_id(0)
#define ROW_LID 0L
#define ROW_L 1L
static float group_sum(local float *buf, float v) { return v; }
static float group_max(local float *buf, float v) { return v; }
#endif

// long8 logical dimensions as an array.
static void dims_of(long8 v, long *d) {
    d[0] = v.s0; d[1] = v.s1; d[2] = v.s2; d[3] = v.s3;
    d[4] = v.s4; d[5] = v.s5; d[6] = v.s6; d[7] = v.s7;
}

// Logical index of row r (rows numbered row-major over every dimension but `axis`), with
// idx[axis] = 0.
static void row_index(const long *dims, int ndims, int axis, long r, long *idx) {
    for (int d = ndims - 1; d >= 0; --d) {
        if (d == axis) {
            idx[d] = 0;
            continue;
        }
        idx[d] = r % dims[d];
        r /= dims[d];
    }
}

// Offset of element c along `axis` of the row whose element 0 is at `base` (idx is that
// row's index): a stride step unless the axis itself is blocked.
static long axis_offset(const tensor_layout_t *l, long *idx, int axis, long base, long c) {
    if (l->outer_div[axis] == 1) return base + c * l->strides[axis];
    idx[axis] = c;
    return layout_offset(l, idx);
}

#endif
