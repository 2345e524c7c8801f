// Rows kept in registers: T work-items per row (a segment of the work-group, T a power of
// two), each holding NREG groups of VEC elements; reductions over a segment through local memory.
#ifndef ANYDNN_GPU_CL_ROW_SEGMENTS_H
#define ANYDNN_GPU_CL_ROW_SEGMENTS_H

#include "cl/vec_io.h"

// Reductions over the T work-items of one row (a segment of the group), through buf.
static float segment_max(local float *buf, float v) {
    const int lid = get_local_id(0), t = lid % T;
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = T / 2; s > 0; s >>= 1) {
        if (t < s) buf[lid] = fmax(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[lid - t];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

static float segment_sum(local float *buf, float v) {
    const int lid = get_local_id(0), t = lid % T;
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = T / 2; s > 0; s >>= 1) {
        if (t < s) buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[lid - t];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

#if VEC == 8
#define HMAX(v) fmax(fmax(fmax((v).s0, (v).s1), fmax((v).s2, (v).s3)), \
        fmax(fmax((v).s4, (v).s5), fmax((v).s6, (v).s7)))
#define HSUM(v) (((v).s0 + (v).s1) + ((v).s2 + (v).s3) + ((v).s4 + (v).s5) + ((v).s6 + (v).s7))
#elif VEC == 4
#define HMAX(v) fmax(fmax((v).s0, (v).s1), fmax((v).s2, (v).s3))
#define HSUM(v) ((v).s0 + (v).s1 + (v).s2 + (v).s3)
#else
#define HMAX(v) (v)
#define HSUM(v) (v)
#endif

// The element of group j of the work-item at t of its row.
#define ROW_ELEM(j, t) (((long)(j) * T + (t)) * VEC)
// The row of this work-item, and its place in it.
#define ROW_OF_ITEM() (get_group_id(0) * (get_local_size(0) / T) + get_local_id(0) / T)
#define PLACE_IN_ROW() (get_local_id(0) % T)

#endif
