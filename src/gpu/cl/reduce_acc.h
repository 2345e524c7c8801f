// A reduction's accumulation kinds and final steps as the kernels number them (ACC_*, FIN_*; the
// host's reduction_codes.hpp) and the final step; where ACC picks the kind at build time, its
// accumulation for float and float vectors alike (P the power of the Lp kinds, argument `p`).
#ifndef ANYDNN_GPU_CL_REDUCE_ACC_H
#define ANYDNN_GPU_CL_REDUCE_ACC_H

// Accumulation kinds (mirror cpu::reduction::acc_kind_t).
#define ACC_MAX 0
#define ACC_MIN 1
#define ACC_SUM 2
#define ACC_MUL 3
#define ACC_ABS_SUM 4
#define ACC_SQ_SUM 5
#define ACC_POW_SUM 6

// Final steps (mirror the host's finalize_code).
#define FIN_NONE 0
#define FIN_MEAN 1
#define FIN_LP_MAX 2
#define FIN_LP_SUM 3
#define FIN_PP_MAX 4
#define FIN_PP_SUM 5

static float acc_finalize(int fin, float a, long n, float p, float eps) {
    switch (fin) {
        case FIN_MEAN: return n ? a / n : a;
        case FIN_LP_MAX: return pow(fmax(a, eps), 1.f / p);
        case FIN_LP_SUM: return pow(a + eps, 1.f / p);
        case FIN_PP_MAX: return fmax(a, eps);
        case FIN_PP_SUM: return a + eps;
        default: return a;
    }
}

#ifdef ACC
#if ACC == ACC_MAX
#define ACC_INIT (-INFINITY)
#define ACC_STEP(a, x, T) fmax(a, x)
#define ACC_JOIN(a, b) fmax(a, b)
#elif ACC == ACC_MIN
#define ACC_INIT INFINITY
#define ACC_STEP(a, x, T) fmin(a, x)
#define ACC_JOIN(a, b) fmin(a, b)
#elif ACC == ACC_MUL
#define ACC_INIT 1.f
#define ACC_STEP(a, x, T) ((a) * (x))
#define ACC_JOIN(a, b) ((a) * (b))
#else
#define ACC_INIT 0.f
#define ACC_JOIN(a, b) ((a) + (b))
#if ACC == ACC_SUM
#define ACC_STEP(a, x, T) ((a) + (x))
#elif ACC == ACC_ABS_SUM
#define ACC_STEP(a, x, T) ((a) + fabs(x))
#elif ACC == ACC_SQ_SUM
#define ACC_STEP(a, x, T) ((a) + (x) * (x))
#else
#define ACC_STEP(a, x, T) ((a) + pow(fabs(x), (T)(p)))
#endif
#endif

// The join of a vector's lanes.
#define HJOIN4(v) ACC_JOIN(ACC_JOIN((v).s0, (v).s1), ACC_JOIN((v).s2, (v).s3))
#if VEC == 8
#define HJOIN(v) ACC_JOIN(HJOIN4((v).lo), HJOIN4((v).hi))
#elif VEC == 4
#define HJOIN(v) HJOIN4(v)
#else
#define HJOIN(v) (v)
#endif

#ifdef GROUP_REDUCE
// Every work-item gets the join of all the group's `v` (a power-of-two group).
static float group_join(local float *buf, float v) {
    const int lid = get_local_id(0), n = get_local_size(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (lid < s) buf[lid] = ACC_JOIN(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#else
static float group_join(local float *buf, float v) { return v; }
#endif
#endif // ACC

#endif
