// A matrix (or a batch of them) copied K-major for the Hopper tf32 and 8-bit wgmma kernels,
// whose shared-memory tiles must be K-major (wgmma transposes 16-bit operands only): element
// (b, r, k) from x[off + b * sb + r * sr + k * sk] to y[to + (b * rows + r) * ldy + k], as
// stored bits of T (uint for f32, uchar for 8-bit integers). Columns ldy > k of y are not
// written (the GEMM never reads past k). Work-groups of 32 x 8 items copy 32 x 32 tiles;
// where r is the contiguous dimension (sr == 1: row-major B, or a column-major A), a tile
// goes through local memory so that both the reads (along r) and the writes (along k) are
// coalesced. row_sums (built with ST, the 8-bit type, instead of T) sums each row of such a
// source over k in s32: B's column sums, which src's zero point multiplies.
#ifdef T
#define TILE 32
#define ROWS_PER_STEP 8

kernel void kmajor_copy(const global T *x, global T *y, long off, long sb, long sr, long sk,
        long to, long rows, long k, long ldy) {
    local T tile[TILE][TILE + 1];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const long k0 = (long)get_group_id(0) * TILE, r0 = (long)get_group_id(1) * TILE;
    const long b = (long)get_group_id(2);
    const global T *xb = x + off + b * sb;
    global T *yb = y + to + b * rows * ldy;
    const bool transpose = sr == 1 && sk != 1; // uniform over the work-group
    if (transpose) {
        for (int j = ly; j < TILE; j += ROWS_PER_STEP) {
            const long r = r0 + lx, kk = k0 + j;
            if (r < rows && kk < k) tile[j][lx] = xb[r + kk * sk];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = ly; j < TILE; j += ROWS_PER_STEP) {
        const long r = r0 + j, kk = k0 + lx;
        if (r >= rows || kk >= k) continue;
        yb[r * ldy + kk] = transpose ? tile[lx][j] : xb[r * sr + kk * sk];
    }
}
#endif

#ifdef ST
// y[to + b * rows + r] = sum over k of element (b, r, k); one work-item per row.
kernel void row_sums(const global ST *x, global int *y, long off, long sb, long sr, long sk,
        long to, long rows, long k, long total) {
    const long i = (long)get_global_id(0);
    if (i >= total) return;
    const long b = i / rows, r = i - b * rows;
    const global ST *row = x + off + b * sb + r * sr;
    int sum = 0;
    for (long kk = 0; kk < k; ++kk)
        sum += (int)row[kk * sk];
    y[to + i] = sum;
}
#endif
