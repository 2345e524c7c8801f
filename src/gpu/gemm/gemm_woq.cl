// GEMM with weights decompression (weight-only quantization): floating-point A, integer B
// (s8/u8 through LOAD_B, or 4-bit with B_INT4: two elements a byte, the even one in the low
// half, B_INT4_SIGNED for s4) read as (b - zp) * scale, the zero point and scale of element
// (k, n) looked up in arrays grouped along K and N (woq_params_t, mirrored by
// gpu/gemm/gemm.hpp). ZPB_KIND names the zero points' type: 0 s32, 1 s8, 2 u8, 3 s4, 4 u4.
// The same kernel takes 4-bit float A or B (A_F4, B_F4: 1 f4_e2m1, 2 f4_e3m0; two a byte)
// computed in f32, and with INT8_GROUPED int8 A whose scales vary along K (and M): integer
// products (b - zp) * (a - zp_a) summed over each run of K whose A and B scales stay the same,
// each run's sum scaled into f32, as oneDNN's dynamic quantization of activations does.
// One work-item per element of C (x: n, y: m, z: batch); the output stage is gemm_common.h's
// without the weights scale (applied per element here).
#include "gemm/gemm_common.h"

typedef struct {
    long s_sb[MAX_BATCH], s_sk, s_sn, s_gk, s_gn; // scales: batch, K and N strides, groups
    long z_sb[MAX_BATCH], z_sk, z_sn, z_gk, z_gn; // zero points likewise
    long a_sb[MAX_BATCH], a_sm, a_sk, a_gk; // A's scales (INT8_GROUPED): batch, M, K, group
} woq_params_t;

// The magnitudes of f4_e2m1's codes; f4_e3m0's are powers of two from 2^-2.
constant float f4_e2m1_magnitude[8] = {0.f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 4.f, 6.f};

float f4_at(const global uchar *p, long e, int e3m0) {
    const uchar byte = p[e >> 1];
    const uint v = (e & 1) ? byte >> 4 : byte & 0xfu;
    const uint c = v & 7u;
    const float m = e3m0 ? (c == 0 ? 0.f : ldexp(1.f, (int)c - 3)) : f4_e2m1_magnitude[c];
    return (v & 8u) ? -m : m;
}

float int4_at(const global uchar *p, long e, int is_signed) {
    const uchar byte = p[e >> 1];
    const int v = (e & 1) ? byte >> 4 : byte & 0xf;
    return (float)(is_signed ? (v ^ 8) - 8 : v);
}

float woq_a(const global A_DATA_T *A, long e) {
#ifdef A_F4
    return f4_at((const global uchar *)A, e, A_F4 == 2);
#else
    return LOAD_A(A, e);
#endif
}

float woq_b(const global B_DATA_T *B, long e) {
#if defined(B_F4)
    return f4_at((const global uchar *)B, e, B_F4 == 2);
#elif defined(B_INT4)
#ifdef B_INT4_SIGNED
    return int4_at((const global uchar *)B, e, 1);
#else
    return int4_at((const global uchar *)B, e, 0);
#endif
#else
    return LOAD_B(B, e);
#endif
}

float woq_zp(const global uchar *zp, long i) {
#if ZPB_KIND == 0
    return (float)((const global int *)zp)[i];
#elif ZPB_KIND == 1
    return (float)((const global char *)zp)[i];
#elif ZPB_KIND == 2
    return (float)zp[i];
#elif ZPB_KIND == 3
    return int4_at(zp, i, 1);
#else
    return int4_at(zp, i, 0);
#endif
}

kernel void gemm_woq(const global A_DATA_T *A, const global B_DATA_T *B, global C_DATA_T *C,
        const global BIAS_DATA_T *bias, const global SA_DATA_T *scale_a,
        const global SB_DATA_T *scale_b, const global SC_DATA_T *scale_c,
        const global int *zp_a, const global uchar *zp_b, const global int *zp_c,
        gemm_params_t p, woq_params_t wq POST_OP_PARAMS) {
    const long n = get_global_id(0), m = get_global_id(1);
    if (n >= p.N || m >= p.M) return;
    long b = get_global_id(2), so = 0, zo = 0, ao = 0;
    for (int d = MAX_BATCH - 1; d >= 0; --d) {
        const long i = b % p.batch_dims[d];
        b /= p.batch_dims[d];
        so += i * wq.s_sb[d];
        zo += i * wq.z_sb[d];
        ao += i * wq.a_sb[d];
    }
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    quant_t q = read_quant(&p, scale_a, scale_c, zp_a, 0, zp_c);
    so += n / wq.s_gn * wq.s_sn;
    zo += n / wq.z_gn * wq.z_sn;
    ao += m * wq.a_sm;
    const long a0 = o.a + m * p.a_sm, e0 = o.b + n * p.b_sn;
    float acc = 0.f;
#ifdef INT8_GROUPED
    float run_scale = 1.f;
    int run = 0;
    long prev_a = -1, prev_b = -1;
    for (long k = 0; k < p.K; ++k) {
        const long ia = ao + k / wq.a_gk * wq.a_sk, ib = so + k / wq.s_gk * wq.s_sk;
        if (ia != prev_a || ib != prev_b) {
            acc += (float)run * run_scale;
            run = 0;
            run_scale = (scale_a ? LOAD_SA(scale_a, ia) : p.host_scale[0])
                    * (scale_b ? LOAD_SB(scale_b, ib) : 1.f);
            prev_a = ia, prev_b = ib;
        }
        int w = (int)woq_b(B, e0 + k * p.b_sk);
        if (zp_b) w -= (int)woq_zp(zp_b, zo + k / wq.z_gk * wq.z_sk);
        run += ((int)woq_a(A, a0 + k * p.a_sk) - q.zp_a) * w;
    }
    acc += (float)run * run_scale;
    q.scale_a = 1.f; // applied per run
#else
    for (long k = 0; k < p.K; ++k) {
        float w = woq_b(B, e0 + k * p.b_sk);
        if (zp_b) w -= woq_zp(zp_b, zo + k / wq.z_gk * wq.z_sk);
        if (scale_b) w *= LOAD_SB(scale_b, so + k / wq.s_gk * wq.s_sk);
        acc = fma(woq_a(A, a0 + k * p.a_sk), w, acc);
    }
#endif
    store_c(C, bias, 0, &p, &q, o, m, n, acc POST_OP_ARGS);
}
