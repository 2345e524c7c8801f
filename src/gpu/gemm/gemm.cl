// Batched GEMM C = op(A) * op(B) with any element strides, shared by matmul, inner product and
// convolution. Sizes, strides and batch broadcast come as a by-value gemm_params_t (mirrored by
// gpu/gemm/gemm.hpp) so one build serves every shape. Build options: the tensors' types
// (A, B, C, BIAS: see gpu/kernel_layout.hpp), ACC_INT to accumulate integers in int (zero
// points of A and B are subtracted as the operands are read, so the sum stays exact), and for
// the tiled kernels their tile sizes, and a post-op chain (cl/post_ops.h). Output stage:
// acc * scale_a * scale_b[n] + bias, post-ops, then / scale_c + zp_c, converted to C's type.
#include "gemm/gemm_common.h"

// Any device, any shape: one work-item per element of C (x: n, y: m, z: batch).
kernel void gemm_generic(GEMM_ARGS) {
    const long n = get_global_id(0), m = get_global_id(1);
    if (n >= p.N || m >= p.M) return;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    ACC_T acc = ACC_ZERO;
    const global A_DATA_T *a = A + o.a + m * p.a_sm;
    const global B_DATA_T *b = B + o.b + n * p.b_sn;
    for (long k = 0; k < p.K; ++k) {
        ACC_T x = READ_A(a, k * p.a_sk), y = READ_B(b, k * p.b_sk);
#ifdef ACC_INT
        x -= q.zp_a;
        y -= q.zp_b;
#endif
        acc = MAD(x, y, acc);
    }
    store_c(C, bias, scale_b, &p, &q, o, m, n, acc POST_OP_ARGS);
}

// Reads the A block rows [m0, m0+rows) x k [k0, k0+kt) as ACC_T, zero outside the matrix.
#define A_AT(p, A, q, o, m, k)                                                                \
    (((m) < (p).M && (k) < (p).K)                                                             \
                    ? (ACC_T)(READ_A(A, (o).a + (m) * (p).a_sm + (k) * (p).a_sk) - (q).zp_a)  \
                    : ACC_ZERO)
#define B_AT(p, B, q, o, k, n)                                                                \
    (((k) < (p).K && (n) < (p).N)                                                             \
                    ? (ACC_T)(READ_B(B, (o).b + (k) * (p).b_sk + (n) * (p).b_sn) - (q).zp_b)  \
                    : ACC_ZERO)

#if defined(ACC_INT)
#define ZP_SUB 1
#else
#define ZP_SUB 0
#endif

#ifdef WG_TILED
// GPU form. Work-group WG_N x WG_M work-items; each computes TM x TN elements of a BM x BN
// block of C. Both operands go through local-memory tiles of KT columns/rows, read as TN-wide
// vectors (VW lanes) in the inner loop. Options: WG_M, WG_N, TM, TN, KT, VW (TN % VW == 0).
#define BM (WG_M * TM)
#define BN (WG_N * TN)
#define NV (TN / VW)
#define VEC_T CONCAT(ACC_T, VW)
#define CONCAT(a, b) CONCAT_(a, b)
#define CONCAT_(a, b) a##b
#define VLOAD CONCAT(vload, VW)
#define BCAST(x) ((VEC_T)(x))
#ifdef ACC_INT
#define VMAD(a, b, c) ((a) * (b) + (c))
#else
#define VMAD(a, b, c) fma((a), (b), (c))
#endif

kernel __attribute__((reqd_work_group_size(WG_N, WG_M, 1))) void gemm_tiled(GEMM_ARGS) {
    local ACC_T As[KT][BM];
    local ACC_T Bs[KT][BN];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const long n0 = get_group_id(0) * BN, m0 = get_group_id(1) * BM;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    if (!ZP_SUB) q.zp_a = q.zp_b = 0;
    VEC_T acc[TM][NV];
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < NV; ++j)
            acc[i][j] = BCAST(ACC_ZERO);
    for (long k0 = 0; k0 < p.K; k0 += KT) {
        // Neighbouring work-items read neighbouring addresses of row-major operands.
        for (int m = ty; m < BM; m += WG_M)
            for (int k = tx; k < KT; k += WG_N)
                As[k][m] = A_AT(p, A, q, o, m0 + m, k0 + k);
        for (int k = ty; k < KT; k += WG_M)
            for (int n = tx; n < BN; n += WG_N)
                Bs[k][n] = B_AT(p, B, q, o, k0 + k, n0 + n);
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 4
        for (int k = 0; k < KT; ++k) {
            VEC_T b[NV];
#pragma unroll
            for (int j = 0; j < NV; ++j)
                b[j] = VLOAD(0, &Bs[k][tx * TN + j * VW]);
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                const VEC_T a = BCAST(As[k][ty * TM + i]);
#pragma unroll
                for (int j = 0; j < NV; ++j)
                    acc[i][j] = VMAD(a, b[j], acc[i][j]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < TM; ++i) {
        const long m = m0 + ty * TM + i;
        if (m >= p.M) break;
        for (int j = 0; j < NV; ++j) {
            ACC_T v[VW];
            CONCAT(vstore, VW)(acc[i][j], 0, v);
            for (int l = 0; l < VW; ++l) {
                const long n = n0 + tx * TN + j * VW + l;
                if (n < p.N) store_c(C, bias, scale_b, &p, &q, o, m, n, v[l] POST_OP_ARGS);
            }
        }
    }
}
#endif

#ifdef CPU_TILED
// CPU form (PoCL and other CPU devices): one work-item per work-group computes a BM x BN block.
// Per KT slice it packs A into TM-row micro-panels and B into TN-column micro-panels in local
// memory (zero-filled outside the matrix, zero points subtracted), then runs a TM x TN register
// tile of VW-lane vectors over each pair; partial sums live in a local BM x BN block between
// slices. Options: TM, TN, BM, BN, KT, VW (BM % TM == 0, BN % TN == 0, TN % VW == 0).
#define NV (TN / VW)
#define CONCAT(a, b) CONCAT_(a, b)
#define CONCAT_(a, b) a##b
#define VEC_T CONCAT(ACC_T, VW)
#define VLOAD CONCAT(vload, VW)
#define VSTORE CONCAT(vstore, VW)
#ifdef ACC_INT
#define VMAD(a, b, c) ((a) * (b) + (c))
#else
#define VMAD(a, b, c) fma((a), (b), (c))
#endif

kernel __attribute__((reqd_work_group_size(1, 1, 1))) void gemm_tiled(GEMM_ARGS) {
    local ACC_T Ap[BM * KT]; // [BM / TM][KT][TM]
    local ACC_T Bp[BN * KT]; // [BN / TN][KT][TN]
    local ACC_T Cb[BM * BN];
    const long n0 = get_group_id(0) * BN, m0 = get_group_id(1) * BM;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    if (!ZP_SUB) q.zp_a = q.zp_b = 0;
    const int mt_n = (int)min((long)(BM / TM), (p.M - m0 + TM - 1) / TM);
    const int nt_n = (int)min((long)(BN / TN), (p.N - n0 + TN - 1) / TN);
    for (long k0 = 0; k0 < p.K; k0 += KT) {
        const int kt = (int)min((long)KT, p.K - k0);
        for (int mt = 0; mt < mt_n; ++mt)
            for (int i = 0; i < TM; ++i) {
                const long m = m0 + mt * TM + i;
                local ACC_T *dst = Ap + mt * KT * TM + i;
                if (m < p.M) {
                    const global A_DATA_T *src = A + o.a + m * p.a_sm + k0 * p.a_sk;
                    for (int k = 0; k < kt; ++k)
                        dst[k * TM] = (ACC_T)(READ_A(src, k * p.a_sk) - q.zp_a);
                } else {
                    for (int k = 0; k < kt; ++k)
                        dst[k * TM] = ACC_ZERO;
                }
            }
        for (int k = 0; k < kt; ++k) {
            const global B_DATA_T *src = B + o.b + (k0 + k) * p.b_sk + n0 * p.b_sn;
            for (int nt = 0; nt < nt_n; ++nt) {
                local ACC_T *dst = Bp + (nt * KT + k) * TN;
#ifdef B_F32
                if (p.b_sn == 1 && n0 + (nt + 1) * TN <= p.N) { // whole rows: vector copies
                    for (int j = 0; j < TN; j += VW)
                        VSTORE(VLOAD(0, src + nt * TN + j), 0, dst + j);
                    continue;
                }
#endif
                for (int j = 0; j < TN; ++j) {
                    const long n = nt * TN + j;
                    dst[j] = n0 + n < p.N ? (ACC_T)(READ_B(src, n * p.b_sn) - q.zp_b)
                                          : ACC_ZERO;
                }
            }
        }
        for (int nt = 0; nt < nt_n; ++nt) {
            const local ACC_T *bp = Bp + nt * KT * TN;
            for (int mt = 0; mt < mt_n; ++mt) {
                const local ACC_T *ap = Ap + mt * KT * TM;
                local ACC_T *cp = Cb + mt * TM * BN + nt * TN;
                VEC_T acc[TM][NV];
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        acc[i][j] = k0 == 0 ? (VEC_T)(ACC_ZERO) : VLOAD(0, cp + i * BN + j * VW);
                for (int k = 0; k < kt; ++k) {
                    VEC_T b[NV];
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        b[j] = VLOAD(0, bp + k * TN + j * VW);
#pragma unroll
                    for (int i = 0; i < TM; ++i) {
                        const VEC_T a = (VEC_T)(ap[k * TM + i]);
#pragma unroll
                        for (int j = 0; j < NV; ++j)
                            acc[i][j] = VMAD(a, b[j], acc[i][j]);
                    }
                }
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < NV; ++j)
                        VSTORE(acc[i][j], 0, cp + i * BN + j * VW);
            }
        }
    }
    const long m_end = min((long)BM, p.M - m0), n_end = min((long)BN, p.N - n0);
#ifdef C_F32
    // Plain f32 results with nothing to add: whole vectors straight to C.
    const bool plain = !p.has_bias && !scale_a && !scale_b && !scale_c && !zp_c
            && p.host_scale[0] == 1.f && p.host_scale[1] == 1.f && p.host_scale[2] == 1.f
            && !p.beta_accumulate && p.c_sn == 1 && p.K > 0 && PO_COUNT == 0;
#endif
    for (long i = 0; i < m_end; ++i) {
        long j = 0;
#ifdef C_F32
        if (plain) {
            global float *c = (global float *)C + o.c + (m0 + i) * p.c_sm + n0;
            for (; j + VW <= n_end; j += VW)
                VSTORE(VLOAD(0, Cb + i * BN + j), 0, c + j);
        }
#endif
        for (; j < n_end; ++j)
            store_c(C, bias, scale_b, &p, &q, o, m0 + i, n0 + j,
                    p.K > 0 ? Cb[i * BN + j] : ACC_ZERO POST_OP_ARGS);
    }
}
#endif

// C(n) = sum over m of A(m, n) (A at a_off + m * a_sm + n * a_sk), written at c_off + n * c_sn:
// bias gradients. Work-groups of 32 columns x CS_LANES row lanes: lane l adds rows l,
// l + CS_LANES, ...; lane 0 adds the lanes' sums in lane order, so the result does not depend
// on timing (one work-item per column left 4096 columns of 256 rows latency-bound).
#ifndef CS_LANES
#define CS_LANES 8
#endif
#define CS_COLS 32
kernel void column_sums(const global A_DATA_T *A, global C_DATA_T *C, gemm_params_t p) {
    local float part[CS_LANES][CS_COLS];
    const int c = (int)get_local_id(0), l = (int)get_local_id(1);
    const long n = (long)get_group_id(0) * CS_COLS + c;
    float acc = 0.f;
    if (n < p.N)
        for (long m = l; m < p.M; m += CS_LANES)
            acc += LOAD_A(A, p.a_off + m * p.a_sm + n * p.a_sk);
    part[l][c] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l != 0 || n >= p.N) return;
    float sum = 0.f;
    for (int i = 0; i < CS_LANES; ++i)
        sum += part[i][c];
    STORE_C(C, p.c_off + n * p.c_sn, sum);
}
