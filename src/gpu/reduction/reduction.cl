// Reduction (max, min, sum, mul, mean, Lp norms): one work-group per dst element, its
// work-items striding over the reduced positions, partial results joined in local memory.
// Build options: the tensors' types (SRC, DST), the post-op chain (cl/post_ops.h).
#include "cl/group_reduce.h"
#include "cl/post_ops.h"

// Accumulation kinds (mirror cpu::reduction::acc_kind_t) and final steps.
#define ACC_MAX 0
#define ACC_MIN 1
#define ACC_SUM 2
#define ACC_MUL 3
#define ACC_ABS_SUM 4
#define ACC_SQ_SUM 5
#define ACC_POW_SUM 6
#define FIN_NONE 0
#define FIN_MEAN 1
#define FIN_LP_MAX 2
#define FIN_LP_SUM 3
#define FIN_PP_MAX 4
#define FIN_PP_SUM 5

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
float group_join(local float *buf, float v, int k) {
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
float group_join(local float *buf, float v, int k) { return v; }
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
    a = group_join(buf, a, acc);
    if (lid != 0) return;
    switch (fin) {
        case FIN_MEAN: a = R ? a / R : a; break;
        case FIN_LP_MAX: a = pow(fmax(a, eps), 1.f / p); break;
        case FIN_LP_SUM: a = pow(a + eps, 1.f / p); break;
        case FIN_PP_MAX: a = fmax(a, eps); break;
        case FIN_PP_SUM: a = a + eps; break;
        default: break;
    }
    for (int d = 0; d < nd; ++d)
        if (sd[d] != dd[d]) idx[d] = 0; // back to dst's index, for post-ops
    a = POST_OPS_AT(a, idx, LOAD_DST, dst, dst_off);
    STORE_DST(dst, dst_off, a);
}
