// GEMM on operands dequantized element by element, one work-item per element of C (x: n,
// y: m, z: batch) or, for a 4-bit C, per byte of C. The output stage is gemm_common.h's
// without the weights scale (applied here). Three uses:
// - weights decompression (weight-only quantization): floating-point A, integer B (s8/u8
//   through LOAD_B, or 4-bit with B_INT4, B_INT4_SIGNED for s4) read as (b - zp) * scale, the
//   zero point and scale of element (k, n) looked up in arrays grouped along K and N
//   (woq_params_t, mirrored by gpu/gemm/gemm.hpp); ZPB_KIND names the zero points' type:
//   0 s32, 1 s8, 2 u8, 3 s4, 4 u4;
// - 4-bit float A, B or C (A_F4, B_F4, C_F4: 1 f4_e2m1, 2 f4_e3m0), computed in f32; a 4-bit
//   C is dense row-major (batch..., m, n), so a byte's two elements are found from its index;
// - with INT8_GROUPED, int8 A whose scales vary along K (and M): integer products
//   (a - zp_a) * (b - zp) summed over each run of K whose A and B scales stay the same, each
//   run's sum scaled into f32, as oneDNN's dynamic quantization of activations does.
// 4-bit elements are two a byte, the even one in the low half (cl/nibbles.h).
#include "cl/nibbles.h"
#ifdef C_F4 // the output stage's sum post-op reads C by element
#undef LOAD_C
#undef STORE_C
#define LOAD_C(p, i) f4_to_float(load_nibble((const global uchar *)(p), (i)), C_F4 == 2)
#define STORE_C(p, i, v) store_nibble((global uchar *)(p), (i), float_to_f4((v), C_F4 == 2))
#endif
#include "gemm/gemm_common.h"

typedef struct {
    long s_sb[MAX_BATCH], s_sk, s_sn, s_gk, s_gn; // scales: batch, K and N strides, groups
    long z_sb[MAX_BATCH], z_sk, z_sn, z_gk, z_gn; // zero points likewise
    long a_sb[MAX_BATCH], a_sm, a_sk, a_gk; // A's scales (INT8_GROUPED): batch, M, K, group
} woq_params_t;

float woq_a(const global A_DATA_T *A, long e) {
#ifdef A_F4
    return f4_to_float(load_nibble((const global uchar *)A, e), A_F4 == 2);
#else
    return LOAD_A(A, e);
#endif
}

float woq_b(const global B_DATA_T *B, long e) {
#if defined(B_F4)
    return f4_to_float(load_nibble((const global uchar *)B, e), B_F4 == 2);
#elif defined(B_INT4_SIGNED)
    return load_s4((const global uchar *)B, e);
#elif defined(B_INT4)
    return load_u4((const global uchar *)B, e);
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
    return load_s4(zp, i);
#else
    return load_u4(zp, i);
#endif
}

// The value of C element (b: linear batch index, m, n), output stage applied.
float woq_element(const global A_DATA_T *A, const global B_DATA_T *B, global C_DATA_T *C,
        const global BIAS_DATA_T *bias, const global SA_DATA_T *scale_a,
        const global SB_DATA_T *scale_b, const global SC_DATA_T *scale_c,
        const global int *zp_a, const global uchar *zp_b, const global int *zp_c,
        const gemm_params_t *pp, const woq_params_t *wqp, long b, long m, long n
                POST_OP_PARAMS) {
    const gemm_params_t p = *pp;
    const woq_params_t wq = *wqp;
    long rem = b, so = 0, zo = 0, ao = 0;
    for (int d = MAX_BATCH - 1; d >= 0; --d) {
        const long i = rem % p.batch_dims[d];
        rem /= p.batch_dims[d];
        so += i * wq.s_sb[d];
        zo += i * wq.z_sb[d];
        ao += i * wq.a_sb[d];
    }
    const batch_offsets_t o = batch_offsets(&p, b);
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
    return finish_c(C, bias, 0, &p, &q, o, m, n, acc POST_OP_ARGS);
}

kernel void gemm_woq(const global A_DATA_T *A, const global B_DATA_T *B, global C_DATA_T *C,
        const global BIAS_DATA_T *bias, const global SA_DATA_T *scale_a,
        const global SB_DATA_T *scale_b, const global SC_DATA_T *scale_c,
        const global int *zp_a, const global uchar *zp_b, const global int *zp_c,
        gemm_params_t p, woq_params_t wq POST_OP_PARAMS) {
#ifdef C_F4
    // Byte j holds elements 2j and 2j + 1 of C's buffer; C's own run from c_off.
    const long total = p.M * p.N * p.batch_dims[0] * p.batch_dims[1] * p.batch_dims[2] * p.batch_dims[3];
    const long j = p.c_off / 2 + (long)get_global_id(0);
    if (2 * j >= p.c_off + total) return;
    global uchar *byte = (global uchar *)C + j;
    uint bits = *byte;
    for (int h = 0; h < 2; ++h) {
        const long lin = 2 * j + h - p.c_off;
        if (lin < 0 || lin >= total) continue; // another tensor's nibble: kept
        const long n = lin % p.N, m = lin / p.N % p.M, b = lin / (p.N * p.M);
        float v = woq_element(A, B, C, bias, scale_a, scale_b, scale_c, zp_a, zp_b, zp_c, &p,
                &wq, b, m, n POST_OP_ARGS);
        if (p.beta_accumulate) v += LOAD_C(C, 2 * j + h);
        const uint code = float_to_f4(v, C_F4 == 2);
        bits = h ? (bits & 0x0fu) | (code << 4) : (bits & 0xf0u) | code;
    }
    *byte = (uchar)bits;
#else
    const long n = get_global_id(0), m = get_global_id(1);
    if (n >= p.N || m >= p.M) return;
    const long b = get_global_id(2);
    const float v = woq_element(A, B, C, bias, scale_a, scale_b, scale_c, zp_a, zp_b, zp_c, &p,
            &wq, b, m, n POST_OP_ARGS);
    const batch_offsets_t o = batch_offsets(&p, b);
    const long off = o.c + m * p.c_sm + n * p.c_sn;
    STORE_C(C, off, p.beta_accumulate ? v + LOAD_C(C, off) : v);
#endif
}
