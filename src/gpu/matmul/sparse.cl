// Sparse matmul: dst(M x N) = src(M x K, CSR or COO sorted by row) x dense weights (any plain
// 2D strides), one work-item per dst element; or dense src x weights (K x N, CSR or COO in
// any order), one work-item per dst row. Metadata is never trusted: ranges are clamped to
// [0, nnz) and entries whose row or column lies outside the matrix are skipped.
#include "cl/common.h"

// First entry of a row-sorted index array whose row is not below `row`.
static long lower_bound_row(const global int *rows, long nnz, long row) {
    long lo = 0, hi = nnz;
    while (lo < hi) {
        const long mid = (lo + hi) / 2;
        if (rows[mid] < row) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

kernel void sparse_matmul_src(const global VAL_T *values, const global int *meta0,
        const global int *meta1, const global VAL_T *wei, global DST_T *dst, long M, long N,
        long K, long nnz, long ws0, long ws1, long woff, long dld, long doff) {
    const long i = get_global_id(0);
    if (i >= M * N) return;
    const long m = i / N, n = i % N;
    long begin = 0, end = 0;
    const global int *cols;
#if ENC_CSR
    // meta0: column indices, meta1: row pointers.
    cols = meta0;
    begin = meta1[m];
    end = meta1[m + 1];
#else
    // meta0: row indices (sorted), meta1: column indices.
    cols = meta1;
    if (nnz > 0) {
        begin = lower_bound_row(meta0, nnz, m);
        end = lower_bound_row(meta0, nnz, m + 1);
    }
#endif
    begin = clamp(begin, 0L, nnz);
    end = clamp(end, begin, nnz);
    float acc = 0.f;
    for (long p = begin; p < end; ++p) {
        const long k = cols[p];
        if (k < 0 || k >= K) continue;
        acc += LOAD_VAL(values, p) * LOAD_VAL(wei, woff + k * ws0 + n * ws1);
    }
    STORE_DST(dst, doff + m * dld + n, acc);
}

// dst(M x N) = dense src (any plain 2D strides) x weights (K x N, CSR: meta0 column indices,
// meta1 row pointers; COO in any order: meta0 rows, meta1 columns). One work-item per dst row
// accumulates into its own f32 row of `acc` (M x N), in the CPU engine's order, then writes
// the row of dst.
kernel void sparse_matmul_wei(const global VAL_T *values, const global int *meta0,
        const global int *meta1, const global VAL_T *src, global DST_T *dst, global float *acc,
        long M, long N, long K, long nnz, long ss0, long ss1, long soff, long dld, long doff) {
    const long m = get_global_id(0);
    if (m >= M) return;
    global float *row = acc + m * N;
    for (long n = 0; n < N; ++n) row[n] = 0.f;
#if ENC_CSR
    for (long k = 0; k < K; ++k) {
        const float s = LOAD_VAL(src, soff + m * ss0 + k * ss1);
        if (s == 0.f) continue;
        const long begin = clamp((long)meta1[k], 0L, nnz);
        const long end = clamp((long)meta1[k + 1], begin, nnz);
        for (long p = begin; p < end; ++p) {
            const long n = meta0[p];
            if (n >= 0 && n < N) row[n] += s * LOAD_VAL(values, p);
        }
    }
#else
    for (long p = 0; p < nnz; ++p) {
        const long k = meta0[p], n = meta1[p];
        if (k < 0 || k >= K || n < 0 || n >= N) continue;
        row[n] += LOAD_VAL(src, soff + m * ss0 + k * ss1) * LOAD_VAL(values, p);
    }
#endif
    for (long n = 0; n < N; ++n) STORE_DST(dst, doff + m * dld + n, row[n]);
}
