// Reduction of a dense tensor seen as [A, R1, B, R2] (A x B: the positions dst keeps), in two steps:
// partial results of slices of each kept position into f32 scratch, then their join per dst
// element with the final step and post-ops. Build options: SRC/DST types, ACC, VEC, GROUPS
// (unrolled loads in flight per work-item), GROUP_REDUCE, the post-op chain (final kernel).
#include "cl/group_reduce.h"
#include "cl/post_ops.h"
#include "cl/vec_io.h"
#include "cl/reduce_acc.h"

#ifdef ROWS
// R2 long: a work-group per (slice s, kept position a, b) strides over slice s's part of each
// of its rows (rows r1 in [s1 * rows1, ..), elements in [s2 * len2, ..) of R2), VEC per load, a
// GROUPS-deep unroll keeping several loads in flight. part[s * A * B + a * B + b] is the join.
kernel void reduction_dense_rows(const global SRC_DATA_T *src, global float *part, long src_off,
        long A, long R1, long B, long R2, long rows1, long len2, long S2, float p,
        local float *buf) {
    const long id = ROW_ID, ab = id % (A * B), a_ = ab / B, b = ab % B, s = id / (A * B);
    const long s1 = s / S2, s2 = s % S2;
    const long r_end = min(R1, (s1 + 1) * rows1), c_end = min(R2, (s2 + 1) * len2);
    const long step = ROW_L * VEC;
    vf a = (vf)(ACC_INIT);
    for (long r = s1 * rows1; r < r_end; ++r) {
        const long base = src_off + ((a_ * R1 + r) * B + b) * R2;
        long c = s2 * len2 + ROW_LID * VEC;
        for (; c + (GROUPS - 1) * step < c_end; c += GROUPS * step) {
            vf x[GROUPS];
            for (int g = 0; g < GROUPS; ++g) x[g] = LOADV(LOAD_SRC, src, base + c + g * step);
            for (int g = 0; g < GROUPS; ++g) a = ACC_STEP(a, x[g], vf);
        }
        for (; c < c_end; c += step) a = ACC_STEP(a, LOADV(LOAD_SRC, src, base + c), vf);
    }
    const float r = group_join(buf, HJOIN(a));
    if (ROW_LID == 0) part[id] = r;
}
#endif

#ifdef COLS
// R2 short: each of A batches as R1 rows of M = B * R2 columns; a work-item per (slice s of
// rows1 rows, batch, VEC columns) walks down its columns (neighbouring work-items,
// neighbouring columns). part[(s * A + batch) * M + column] is the join.
kernel void reduction_dense_cols(const global SRC_DATA_T *src, global float *part, long src_off,
        long A, long R1, long M, long rows1, long items, float p) {
    const long id = get_global_id(0);
    if (id >= items) return;
    const long MV = M / VEC, j = id % MV * VEC, sa = id / MV, s = sa / A, a_ = sa % A;
    const long r_end = min(R1, (s + 1) * rows1);
    const long base = src_off + a_ * R1 * M + j;
    vf a = (vf)(ACC_INIT);
    long r = s * rows1;
    for (; r + GROUPS - 1 < r_end; r += GROUPS) {
        vf x[GROUPS];
        for (int g = 0; g < GROUPS; ++g) x[g] = LOADV(LOAD_SRC, src, base + (r + g) * M);
        for (int g = 0; g < GROUPS; ++g) a = ACC_STEP(a, x[g], vf);
    }
    for (; r < r_end; ++r) a = ACC_STEP(a, LOADV(LOAD_SRC, src, base + r * M), vf);
    STOREV(store_f32, part, sa * M + j, a);
}
#endif

#ifdef FINAL
// A work-group per dst element b: joins part[(s * B + b) * K + k] over S slices and K
// columns, takes the final step over R reduced elements, applies post-ops, stores.
kernel void reduction_dense_final(const global float *part, global DST_DATA_T *dst,
        tensor_layout_t dst_l, long8 dst_dims8, long8 kept_stride8, long B, long K, long S,
        long R, int fin, float p, float eps, local float *buf POST_OP_PARAMS) {
    const long b = ROW_ID;
    float a = ACC_INIT;
    for (long q = ROW_LID; q < S * K; q += ROW_L) {
        const long s = q / K, k = q % K;
        a = ACC_JOIN(a, part[(s * B + b) * K + k]);
    }
    a = group_join(buf, a);
    if (ROW_LID != 0) return;
    long dd[8], ks[8], idx[MAX_NDIMS];
    dims_of(dst_dims8, dd);
    dims_of(kept_stride8, ks);
    for (int d = 0; d < dst_l.ndims; ++d) idx[d] = ks[d] ? b / ks[d] % dd[d] : 0;
    const long off = layout_offset(&dst_l, idx);
    a = acc_finalize(fin, a, R, p, eps);
    a = POST_OPS_AT(a, idx, LOAD_DST, dst, off);
    STORE_DST(dst, off, a);
}
#endif
