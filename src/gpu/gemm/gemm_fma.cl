// C = A * B on the FMA units of a GPU, float sums (f32, bf16, f16 storage): 16 x 16
// work-items, 8 x 8 elements each, over 128 x 128 blocks of C; A and B go through two KT-deep
// local tiles in turn (the next slice is read into registers while the current one is used:
// one barrier per slice). Each work-item owns rows 4 ty + {0..3} and 64 + 4 ty + {0..3} (and
// the same for columns) so its local reads are float4s that neighbouring work-items share.
#include "gemm/gemm_common.h"

#define BM 128
#define BN 128
#define LOADS (KT * 128 / 256) // elements of each operand a work-item copies per slice

// Where a work-item's LOADS elements of one operand's slice come from: consecutive
// work-items walk the contiguous dimension (outer when s_outer == 1, else k). Fixed for the
// whole loop but for k0.
#define PLAN_SLICE(ptr, kk, ok, X, base, outer0, outer_n, s_outer, s_k)                       \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) {                                       \
        const int e = tid + l * 256;                                                          \
        const int oi = s_outer == 1 ? e % 128 : e / KT, ki = s_outer == 1 ? e / 128 : e % KT; \
        ok[l] = (outer0) + oi < (outer_n);                                                     \
        kk[l] = ki;                                                                            \
        ptr[l] = X + (base) + (ok[l] ? ((outer0) + oi) * (s_outer) : 0) + ki * (s_k);          \
    }

// Reads the slice at k0 (offset k_off = k0 * s_k) into registers, zero outside the matrix.
#define READ_SLICE(dst, ptr, kk, ok, READ, k0, k_off, k_n)                                     \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) dst[l]                                   \
            = ok[l] && (k0) + kk[l] < (k_n) ? (float)READ(ptr[l], k_off) : 0.f;

#define WRITE_SLICE(tile, src, s_outer)                                                        \
    _Pragma("unroll") for (int l = 0; l < LOADS; ++l) {                                       \
        const int e = tid + l * 256;                                                          \
        const int oi = s_outer == 1 ? e % 128 : e / KT, ki = s_outer == 1 ? e / 128 : e % KT; \
        tile[ki][oi] = src[l];                                                                 \
    }

kernel __attribute__((reqd_work_group_size(16, 16, 1))) void gemm_fma(GEMM_ARGS) {
    local float As[2][KT][BM];
    local float Bs[2][KT][BN];
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const long n0 = get_group_id(0) * BN, m0 = get_group_id(1) * BM;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.f;
    float ra[LOADS], rb[LOADS];
    const global A_DATA_T *pa[LOADS];
    const global B_DATA_T *pb[LOADS];
    int ka[LOADS], kb[LOADS];
    bool oka[LOADS], okb[LOADS];
    PLAN_SLICE(pa, ka, oka, A, o.a, m0, p.M, p.a_sm, p.a_sk);
    PLAN_SLICE(pb, kb, okb, B, o.b, n0, p.N, p.b_sn, p.b_sk);
    const long a_step = KT * p.a_sk, b_step = KT * p.b_sk;
    long a_off = 0, b_off = 0;
    READ_SLICE(ra, pa, ka, oka, LOAD_A, 0, 0, p.K);
    READ_SLICE(rb, pb, kb, okb, LOAD_B, 0, 0, p.K);
    WRITE_SLICE(As[0], ra, p.a_sm);
    WRITE_SLICE(Bs[0], rb, p.b_sn);
    barrier(CLK_LOCAL_MEM_FENCE);
    int cur = 0;
    for (long k0 = 0; k0 < p.K; k0 += KT) {
        const bool more = k0 + KT < p.K;
        if (more) {
            a_off += a_step;
            b_off += b_step;
            READ_SLICE(ra, pa, ka, oka, LOAD_A, k0 + KT, a_off, p.K);
            READ_SLICE(rb, pb, kb, okb, LOAD_B, k0 + KT, b_off, p.K);
        }
#pragma unroll
        for (int k = 0; k < KT; ++k) {
            const float4 a0 = vload4(0, &As[cur][k][ty * 4]);
            const float4 a1 = vload4(0, &As[cur][k][64 + ty * 4]);
            const float4 b0 = vload4(0, &Bs[cur][k][tx * 4]);
            const float4 b1 = vload4(0, &Bs[cur][k][64 + tx * 4]);
            const float a[8] = {a0.s0, a0.s1, a0.s2, a0.s3, a1.s0, a1.s1, a1.s2, a1.s3};
            const float b[8] = {b0.s0, b0.s1, b0.s2, b0.s3, b1.s0, b1.s1, b1.s2, b1.s3};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        if (more) {
            // The other buffer was last read before the previous barrier: free to fill.
            WRITE_SLICE(As[cur ^ 1], ra, p.a_sm);
            WRITE_SLICE(Bs[cur ^ 1], rb, p.b_sn);
            barrier(CLK_LOCAL_MEM_FENCE);
            cur ^= 1;
        }
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const long m = m0 + (i / 4) * 64 + ty * 4 + i % 4;
        if (m >= p.M) continue;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const long n = n0 + (j / 4) * 64 + tx * 4 + j % 4;
            if (n < p.N) store_c(C, bias, scale_b, &p, &q, o, m, n, acc[i][j] POST_OP_ARGS);
        }
    }
}
