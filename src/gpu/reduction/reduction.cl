// Reduction (max, min, sum, mul, mean, Lp norms): one work-group per dst element, its
// work-items striding over the reduced positions, partial results joined in local memory.
// Build options: the tensors' types (SRC, DST), the post-op chain (cl/post_ops.h); the
// accumulation and final step are kernel arguments (no ACC: cl/reduce_acc.h gives the codes).
#include "cl/group_reduce.h"
#include "cl/post_ops.h"
#include "cl/reduce_acc.h"

float acc_init(int k) {
    return k == ACC_MAX ? -INFINITY : k == ACC_MIN ? INFINITY : k == ACC_MUL ? 1.f : 0.f;
}

float acc_step(int k, float a, float x, float p) {
    switch (k) {
        case ACC_MAX: return fmax(a, x);
        case ACC_MIN: return fmin(a, x);
        case ACC_SUM: return a + x;
        case ACC_MUL: return a * x;
        case ACC_ABS_SUM: return a + fabs(x);
        case ACC_SQ_SUM: return a + x * x;
        default: return a + pow(fabs(x), p);
    }
}

float acc_join(int k, float a, float b) {
    return k == ACC_MAX ? fmax(a, b) : k == ACC_MIN ? fmin(a, b) : k == ACC_MUL ? a * b : a + b;
}

#ifdef GROUP_REDUCE
float group_join_kind(local float *buf, float v, int k) {
    const int lid = get_local_id(0), n = get_local_size(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s) buf[lid] = acc_join(k, buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return buf[0];
}
#else
float group_join_kind(local float *buf, float v, int k) { return v; }
#endif

kernel void reduction(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long8 src_dims8, long8 dst_dims8,
        int acc, int fin, float p, float eps, local float *buf POST_OP_PARAMS) {
    long sd[8], dd[8], idx[MAX_NDIMS];
    dims_of(src_dims8, sd);
    dims_of(dst_dims8, dd);
    const int nd = src_l.ndims;
    long r = ROW_ID;
    for (int d = nd - 1; d >= 0; --d) {
        idx[d] = r % dd[d];
        r /= dd[d];
    }
    const long lid = ROW_LID, L = ROW_L;
    long R = 1;
    for (int d = 0; d < nd; ++d)
        if (sd[d] != dd[d]) R *= sd[d];
    const long dst_off = layout_offset(&dst_l, idx);
    float a = acc_init(acc);
    for (long k = lid; k < R; k += L) {
        long t = k;
        for (int d = nd - 1; d >= 0; --d) {
            if (sd[d] == dd[d]) continue;
            idx[d] = t % sd[d];
            t /= sd[d];
        }
        a = acc_step(acc, a, LOAD_SRC(src, layout_offset(&src_l, idx)), p);
    }
    a = group_join_kind(buf, a, acc);
    if (lid != 0) return;
    a = acc_finalize(fin, a, R, p, eps);
    for (int d = 0; d < nd; ++d)
        if (sd[d] != dd[d]) idx[d] = 0; // back to dst's index, for post-ops
    a = POST_OPS_AT(a, idx, LOAD_DST, dst, dst_off);
    STORE_DST(dst, dst_off, a);
}
