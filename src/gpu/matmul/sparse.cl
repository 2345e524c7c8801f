// Sparse matmul: dst(M x N) = src(M x K, CSR or COO sorted by row) x dense weights (any plain
// 2D strides), one work-item per dst element. Metadata is never trusted: row ranges are
// clamped to [0, nnz) and entries whose column lies outside [0, K) are skipped.
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
