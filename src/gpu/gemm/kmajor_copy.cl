// A matrix (or a batch of them) copied K-major for the Hopper tf32 and 8-bit wgmma kernels,
// whose shared-memory tiles must be K-major (wgmma transposes 16-bit operands only): element
// (b, r, k) from x[off + b * sb + r * sr + k * sk] to y[to + (b * rows + r) * ldy + k], as
// stored bits of T (uint for f32, uchar for 8-bit integers). Columns ldy > k of y are not
// written (the GEMM never reads past k). Work-groups of 32 x 8 items copy tiles of 32 rows
// by 32 * KS columns (KS 4 for bytes: more loads in flight per item, each only a byte);
// where r is the contiguous dimension (sr == 1: row-major B, or a column-major A), a tile
// goes through local memory so that both the reads (along r) and the writes (along k) are
// coalesced.
// With ST (the 8-bit type: char or uchar; T is uchar), the same tiles also give the s32 sums
// over k of each row (B's column sums, which src's zero point multiplies): a tile's 32 row
// sums are added to s[sto + b * rows + r] with one atomic per row, so the sums start at zero
// (zero_ints). row_sums reads the tiles for the sums alone (B already K-major).
#define TILE 32
#define ROWS_PER_STEP 8
#ifndef KS
#define KS 1
#endif
#define TILE_K (TILE * KS)

#ifdef ST
#define CONCAT2(a, b) a##b
#define CONCAT(a, b) CONCAT2(a, b)
#define AS_ST(v) CONCAT(as_, ST)(v)
#define SUMS_PARAMS , global int *s, long sto
#else
#define SUMS_PARAMS
#endif

// One tile of 32 rows by TILE_K columns: copied (copy) and, with ST, summed along k (sum).
inline void tile_pass(const global T *restrict x, global T *restrict y, long off, long sb,
        long sr, long sk, long to, long rows, long k, long ldy, local T (*tile)[TILE + 1],
        bool copy
#ifdef ST
        , global int *s, long sto, local int (*part)[TILE + 1], bool sum
#endif
) {
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const long k0 = (long)get_group_id(0) * TILE_K, r0 = (long)get_group_id(1) * TILE;
    const long b = (long)get_group_id(2);
    const global T *xb = x + off + b * sb;
    const bool transpose = sr == 1 && sk != 1; // uniform over the work-group
    if (transpose) {
#pragma unroll
        for (int t = 0; t < TILE_K / ROWS_PER_STEP; ++t) {
            const int j = ly + t * ROWS_PER_STEP;
            const long r = r0 + lx, kk = k0 + j;
            if (r < rows && kk < k) tile[j][lx] = xb[r + kk * sk];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int t = 0; t < TILE / ROWS_PER_STEP; ++t) {
        const int j = ly + t * ROWS_PER_STEP;
        const long r = r0 + j;
#ifdef ST
        int total = 0;
#endif
#pragma unroll
        for (int c = 0; c < KS; ++c) {
            const int i = c * TILE + lx;
            const long kk = k0 + i;
            const bool inside = r < rows && kk < k;
            const T v = !inside ? (T)0 : transpose ? tile[i][j] : xb[r * sr + kk * sk];
            if (copy && inside) y[to + (b * rows + r) * ldy + kk] = v;
#ifdef ST
            total += (int)AS_ST(v);
#endif
        }
#ifdef ST
        if (sum) part[j][lx] = total;
#endif
    }
#ifdef ST
    if (!sum) return;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly == 0 && r0 + lx < rows) {
        int total = 0;
        for (int i = 0; i < TILE; ++i)
            total += part[lx][i];
        atomic_add(s + sto + b * rows + r0 + lx, total);
    }
#endif
}

kernel void kmajor_copy(const global T *x, global T *y, long off, long sb, long sr, long sk,
        long to, long rows, long k, long ldy SUMS_PARAMS) {
    local T tile[TILE_K][TILE + 1];
#ifdef ST
    local int part[TILE][TILE + 1];
    tile_pass(x, y, off, sb, sr, sk, to, rows, k, ldy, tile, true, s, sto, part, true);
#else
    tile_pass(x, y, off, sb, sr, sk, to, rows, k, ldy, tile, true);
#endif
}

#ifdef ST
kernel void row_sums(const global T *x, long off, long sb, long sr, long sk, long rows, long k,
        global int *s, long sto) {
    local T tile[TILE_K][TILE + 1];
    local int part[TILE][TILE + 1];
    tile_pass(x, 0, off, sb, sr, sk, 0, rows, k, 0, tile, false, s, sto, part, true);
}

// y[to ..< to + n] = 0: the sums' start.
kernel void zero_ints(global int *y, long to, long n) {
    const long i = (long)get_global_id(0);
    if (i < n) y[to + i] = 0;
}
#endif
