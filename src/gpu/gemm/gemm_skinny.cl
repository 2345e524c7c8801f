// C = A * B for few rows of C (M <= MMAX, GEMV and small batches of rows): reading B once is
// the whole cost, so each work-item owns one column n of C for all rows and a 1/KS share of K;
// the KS partial sums meet in local memory. Work-group NT x KS (NT columns, n-neighbours read
// neighbouring addresses when B's rows are contiguous). Float sums (no integer operands).
#include "gemm/gemm_common.h"

kernel __attribute__((reqd_work_group_size(NT, KS, 1))) void gemm_skinny(GEMM_ARGS) {
    local float part[KS][MMAX][NT];
    const int lane = get_local_id(0), ks = get_local_id(1);
    const long n = get_group_id(0) * NT + lane;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    float acc[MMAX];
#pragma unroll
    for (int m = 0; m < MMAX; ++m)
        acc[m] = 0.f;
    if (n < p.N) {
        const long b_n = o.b + n * p.b_sn;
        // Consecutive k of one work-item are KS apart: the KS rows of B read together are
        // neighbours, and every slice of K is spread over all of them.
#pragma unroll 4
        for (long k = ks; k < p.K; k += KS) {
            const float b = LOAD_B(B, b_n + k * p.b_sk);
            const long a_k = o.a + k * p.a_sk;
#pragma unroll
            for (int m = 0; m < MMAX; ++m)
                if (m < p.M) acc[m] = fma(LOAD_A(A, a_k + m * p.a_sm), b, acc[m]);
        }
    }
#pragma unroll
    for (int m = 0; m < MMAX; ++m)
        part[ks][m][lane] = acc[m];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Work-item (lane, ks) finishes rows ks, ks + KS, ... of its column.
    if (n >= p.N) return;
    for (int m = ks; m < MMAX && m < p.M; m += KS) {
        float v = 0.f;
        for (int s = 0; s < KS; ++s)
            v += part[s][m][lane];
        store_c(C, bias, scale_b, &p, &q, o, m, n, v POST_OP_ARGS);
    }
}
