// The parts of the GEMM kernels every variant shares (gemm/gemm.cl, gemm/gemm_mma.cl): the
// parameter block mirrored by gpu/gemm/gemm.hpp, batch offsets, quantization and the output stage.
#include "cl/common.h"
#include "cl/post_ops.h"

// Scales of A, B and C (SA, SB, SC) are f32 unless the host names another type.
#ifndef SA_DATA_T
#define SA_DATA_T float
#define LOAD_SA load_f32
#endif
#ifndef SB_DATA_T
#define SB_DATA_T float
#define LOAD_SB load_f32
#endif
#ifndef SC_DATA_T
#define SC_DATA_T float
#define LOAD_SC load_f32
#endif

#define MAX_BATCH 4

typedef struct {
    long M, N, K;
    long a_off, a_sm, a_sk;
    long b_off, b_sk, b_sn;
    long c_off, c_sm, c_sn;
    long bias_off, bias_sm, bias_sn;
    long batch_dims[MAX_BATCH];
    long a_sb[MAX_BATCH], b_sb[MAX_BATCH], c_sb[MAX_BATCH], bias_sb[MAX_BATCH];
    long has_bias, scale_b_sn; // scale_b_sn: 0 one weights scale, 1 one per column
    long beta_accumulate; // 1: C += result (f32 C only; used to sum partial GEMMs)
    // Post-ops see C element (batch..., m, n) at logical linear position
    // sum(batch_i * po_ls_b[i]) + m * po_ls_m + n * po_ls_n of the dst dims po_dims.
    long po_ls_b[MAX_BATCH], po_ls_m, po_ls_n;
    long po_dims[MAX_NDIMS], po_ndims;
    // Scales of A, B and C given by value (host scalars), used where their pointer is null;
    // 1 otherwise. The fourth is padding.
    float host_scale[4];
} gemm_params_t;

#ifdef ACC_INT
#define ACC_T int
#define ACC_ZERO 0
#define TO_ACC(x) ((int)(x))
#define MAD(a, b, c) ((a) * (b) + (c))
#else
#define ACC_T float
#define ACC_ZERO 0.f
#define TO_ACC(x) (x)
#define MAD(a, b, c) fma((a), (b), (c))
#endif

// Integer operands are read as integers (exact); float storage through the common loaders.
#ifdef ACC_INT
#define READ_A(p, i) ((int)(p)[i])
#define READ_B(p, i) ((int)(p)[i])
#else
#define READ_A(p, i) LOAD_A(p, i)
#define READ_B(p, i) LOAD_B(p, i)
#endif

// Offsets of batch `b` in each tensor (broadcast dimensions have stride 0).
typedef struct {
    long a, b, c, bias, po; // po: the batch's logical position for post-ops
} batch_offsets_t;

batch_offsets_t batch_offsets(const gemm_params_t *p, long b) {
    batch_offsets_t o = {p->a_off, p->b_off, p->c_off, p->bias_off, 0};
    for (int d = MAX_BATCH - 1; d >= 0; --d) {
        const long i = b % p->batch_dims[d];
        b /= p->batch_dims[d];
        o.a += i * p->a_sb[d];
        o.b += i * p->b_sb[d];
        o.c += i * p->c_sb[d];
        o.bias += i * p->bias_sb[d];
        o.po += i * p->po_ls_b[d];
    }
    return o;
}

typedef struct {
    float scale_a, scale_c_inv, zp_c;
    int zp_a, zp_b;
} quant_t;

quant_t read_quant(const gemm_params_t *p, const global SA_DATA_T *scale_a,
        const global SC_DATA_T *scale_c, const global int *zp_a, const global int *zp_b,
        const global int *zp_c) {
    quant_t q;
    q.scale_a = scale_a ? LOAD_SA(scale_a, 0) : p->host_scale[0];
    q.scale_c_inv = 1.f / (scale_c ? LOAD_SC(scale_c, 0) : p->host_scale[2]);
    q.zp_c = zp_c ? (float)zp_c[0] : 0.f;
    q.zp_a = zp_a ? zp_a[0] : 0;
    q.zp_b = zp_b ? zp_b[0] : 0;
    return q;
}

// The value C element (m, n) takes from its finished dot product: scales, bias, post-ops,
// dst quantization (before any accumulation into C).
float finish_c(global C_DATA_T *C, const global BIAS_DATA_T *bias,
        const global SB_DATA_T *scale_b, const gemm_params_t *p, const quant_t *q,
        batch_offsets_t o, long m, long n, ACC_T acc POST_OP_PARAMS) {
    float v = (float)acc * q->scale_a;
    v *= scale_b ? LOAD_SB(scale_b, n * p->scale_b_sn) : p->host_scale[1];
    if (p->has_bias) v += LOAD_BIAS(bias, o.bias + m * p->bias_sm + n * p->bias_sn);
#if PO_COUNT > 0
    const long off = o.c + m * p->c_sm + n * p->c_sn;
    long idx[MAX_NDIMS];
    long lin = o.po + m * p->po_ls_m + n * p->po_ls_n;
    for (int d = (int)p->po_ndims - 1; d >= 0; --d) {
        idx[d] = lin % p->po_dims[d];
        lin /= p->po_dims[d];
    }
    v = POST_OPS_AT(v, idx, LOAD_C, C, off);
#endif
    return v * q->scale_c_inv + q->zp_c;
}

// Stores the finished dot product of C element (m, n).
void store_c(global C_DATA_T *C, const global BIAS_DATA_T *bias, const global SB_DATA_T *scale_b,
        const gemm_params_t *p, const quant_t *q, batch_offsets_t o, long m, long n,
        ACC_T acc POST_OP_PARAMS) {
    float v = finish_c(C, bias, scale_b, p, q, o, m, n, acc POST_OP_ARGS);
    const long off = o.c + m * p->c_sm + n * p->c_sn;
    if (p->beta_accumulate) v += LOAD_C(C, off);
    STORE_C(C, off, v);
}

#define GEMM_ARGS                                                                             \
    const global A_DATA_T *A, const global B_DATA_T *B, global C_DATA_T *C,                  \
            const global BIAS_DATA_T *bias, const global SA_DATA_T *scale_a,                 \
            const global SB_DATA_T *scale_b, const global SC_DATA_T *scale_c,                \
            const global int *zp_a,                                                           \
            const global int *zp_b, const global int *zp_c, gemm_params_t p POST_OP_PARAMS

