// Flash attention forward on tensor cores (mma.sync m16n8k16, bf16 or f16 in, f32 accumulate):
// dst = softmax(Q K^T * scale [+ mask | causal]) V with an online softmax, scores never leave
// registers. Compiled to sm_80 PTX at build time and loaded through OpenCL (runs on Ampere and
// Hopper). Each CTA takes BM query rows of one batch entry, one warp per 16 rows; K and V
// stream through shared memory in blocks of BN keys by cp.async (V's load overlaps Q K^T, the
// next K's overlaps P V); causal masks skip the key blocks they hide. Q, K, V rows must be
// contiguous along the head dimension, their strides multiples of 8 elements (16-byte pieces).
#include "flash_common.cuh"

namespace {

using namespace anydnn_flash;

template <bool F16>
__device__ __forceinline__ void mma16816(float *d, const uint32_t *a, uint32_t b0, uint32_t b1) {
    if (F16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Where element (row, col) of a shared-memory tile lies (col a multiple of 8 or within a
// 16-byte piece): rows LD elements apart; SWZ (rows of 8k pieces, LD = D): piece index XOR
// row % 8, which keeps ldmatrix's 8 rows of one piece in 8 bank groups without padding.
template <int LD, bool SWZ>
__device__ __forceinline__ int tile_at(int row, int col) {
    return row * LD + (SWZ ? ((col / 8) ^ (row % 8)) * 8 + col % 8 : col);
}

// ROWS rows of D elements from global (row stride `ld`, rows from `row0`, valid below `nrows`)
// into a shared-memory tile (tile_at<LD, SWZ>); rows past the end are zero-filled.
template <int ROWS, int D, int LD, bool SWZ, int THREADS>
__device__ __forceinline__ void load_tile(uint16_t *s, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t nrows, int tid) {
    constexpr int pieces = D / 8;
#pragma unroll
    for (int c = tid; c < ROWS * pieces; c += THREADS) {
        const int r = c / pieces, p = c % pieces;
        const bool valid = row0 + r < nrows;
        const uint16_t *src = g + (valid ? (row0 + r) * ld : 0) + p * 8;
        cp_async16(smem_addr(s + tile_at<LD, SWZ>(r, p * 8)), src, valid);
    }
}

// Each warp takes MT tiles of 16 query rows: with MT = 2 every K and V fragment read from
// shared memory feeds two mma (half the shared-memory traffic per flop), Q has its own tile
// and, past head size 64, its fragments are read again at each use instead of held.
template <bool F16, int D, int WARPS, int BN, int MT>
__device__ __forceinline__ void flash_fwd(const uint16_t *q, const uint16_t *k, const uint16_t *v,
        void *dst, const void *scale_p, const void *mask, float *stats, const int *kv_len,
        const int *q_len, const sdpa_args_t &a, int flags) {
    constexpr bool q_alias = MT == 1; // Q's tile in the K and V tiles' memory, read once
    constexpr bool q_regs = MT == 1 || D <= 64; // Q's fragments held for the whole key loop
    // Swizzled, unpadded tiles where padding would pass the 48 KiB of static shared memory
    // that sm_80 PTX may declare (two-tile warps at head size 128).
    constexpr bool SWZ = !q_alias && D % 64 == 0 && D > 64;
    constexpr int BM = WARPS * 16 * MT, THREADS = WARPS * 32, LD = SWZ ? D : D + 8;
    static_assert(!q_alias || BM <= 2 * BN, "Q's tile shares the K and V tiles' memory");
    __shared__ __align__(128) uint16_t smem[2 * BN * LD + (q_alias ? 0 : BM * LD)];
    uint16_t *sK = smem, *sV = smem + BN * LD, *sQ = q_alias ? smem : smem + 2 * BN * LD;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4; // mma fragment row group and column pair
    // ldmatrix reads piece 2 k + c of row r (c: 0 or 1 by lane), placed at piece
    // (2 k + c) ^ (r % 8) when swizzled; every row it reads here has r % 8 == lane % 8, so the
    // piece is (2 k) ^ x with one x per thread (Q and V: c = lane / 16; K: (lane / 8) % 2).
    // Unswizzled tiles keep (2 k + c) * 8, which folds into immediate offsets.
    const int row8 = lane % 8, cq = lane / 16, ck = (lane / 8) % 2;
    const int xq = cq ^ row8, xk = ck ^ row8;
    auto piece = [&](int even, int c, int x) { return SWZ ? (even ^ x) * 8 : (even + c) * 8; };
    // Heavier (causal: later) row blocks first, so the last wave is the light one.
    const int64_t m0 = int64_t(gridDim.x - 1 - blockIdx.x) * BM;
    const batch_offsets_t off(a, blockIdx.y);
    q += off.q;
    k += off.k;
    v += off.v;
    const score_rules_t rules(a, scale_p, flags, kv_len, q_len);
    const int nblocks = int((rules.key_end(a, m0, BM) + BN - 1) / BN);
    const int64_t warp_m0 = m0 + warp * 16 * MT; // this warp's first row
    // Q fragment kk of row tile mt, from shared memory.
    auto q_frag = [&](uint32_t *r, int mt, int kk) {
        ldmatrix_x4(r, smem_addr(sQ + (warp * 16 * MT + mt * 16 + lane % 16) * LD + piece(2 * kk, cq, xq)));
    };

    load_tile<BM, D, LD, SWZ, THREADS>(sQ, q, a.q_row, m0, a.Sq, tid);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    uint32_t qf[q_regs ? MT : 1][q_regs ? D / 16 : 1][4];
    if constexpr (q_regs) {
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
            for (int kk = 0; kk < D / 16; ++kk)
                q_frag(qf[mt][kk], mt, kk);
    }
    if constexpr (q_alias) __syncthreads(); // Q is in registers: K may take its place
    if (nblocks > 0) load_tile<BN, D, LD, SWZ, THREADS>(sK, k, a.k_key, 0, a.Sk, tid);
    cp_async_commit();

    float o[MT][D / 8][4];
    float row_max[MT][2], row_sum[MT][2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
#pragma unroll
        for (int i = 0; i < D / 8; ++i)
            o[mt][i][0] = o[mt][i][1] = o[mt][i][2] = o[mt][i][3] = 0.f;
        row_max[mt][0] = row_max[mt][1] = -INFINITY;
        row_sum[mt][0] = row_sum[mt][1] = 0.f;
    }

    for (int jb = 0; jb < nblocks; ++jb) {
        const int64_t n0 = int64_t(jb) * BN;
        load_tile<BN, D, LD, SWZ, THREADS>(sV, v, a.v_key, n0, a.Sk, tid);
        cp_async_commit();
        cp_async_wait<1>(); // this block's K is in
        __syncthreads();

        float s[MT][BN / 8][4];
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
            for (int j = 0; j < BN / 8; ++j)
                s[mt][j][0] = s[mt][j][1] = s[mt][j][2] = s[mt][j][3] = 0.f;
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk) {
            uint32_t qr[MT][4];
            if constexpr (!q_regs) {
#pragma unroll
                for (int mt = 0; mt < MT; ++mt)
                    q_frag(qr[mt], mt, kk);
            }
#pragma unroll
            for (int j = 0; j < BN / 8; j += 2) {
                uint32_t kf[4];
                const int key = j * 8 + (lane % 8) + (lane / 16) * 8;
                ldmatrix_x4(kf, smem_addr(sK + key * LD + piece(2 * kk, ck, xk)));
#pragma unroll
                for (int mt = 0; mt < MT; ++mt) {
                    const uint32_t *qa = q_regs ? qf[q_regs ? mt : 0][q_regs ? kk : 0] : qr[mt];
                    mma16816<F16>(s[mt][j], qa, kf[0], kf[1]);
                    mma16816<F16>(s[mt][j + 1], qa, kf[2], kf[3]);
                }
            }
        }
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
            const int64_t tile_m0 = warp_m0 + mt * 16;
            const bool edge = n0 + BN > a.Sk || (rules.causal && n0 + BN - 1 > tile_m0 + rules.diag);
            softmax_block<BN / 8, D / 8>(s[mt], o[mt], row_max[mt], row_sum[mt], rules, a, mask,
                    off.mask, tile_m0 + g, n0, t, edge);
        }

        cp_async_wait<0>(); // V is in; every warp is past its reads of K
        __syncthreads();
        if (jb + 1 < nblocks) load_tile<BN, D, LD, SWZ, THREADS>(sK, k, a.k_key, n0 + BN, a.Sk, tid);
        cp_async_commit();

        // P (the scores' accumulator registers, repacked as A fragments) times V.
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            uint32_t pf[MT][4];
#pragma unroll
            for (int mt = 0; mt < MT; ++mt) {
                pf[mt][0] = pack2<F16>(s[mt][2 * kk][0], s[mt][2 * kk][1]);
                pf[mt][1] = pack2<F16>(s[mt][2 * kk][2], s[mt][2 * kk][3]);
                pf[mt][2] = pack2<F16>(s[mt][2 * kk + 1][0], s[mt][2 * kk + 1][1]);
                pf[mt][3] = pack2<F16>(s[mt][2 * kk + 1][2], s[mt][2 * kk + 1][3]);
            }
#pragma unroll
            for (int i = 0; i < D / 8; i += 2) {
                uint32_t vf[4];
                const int key = kk * 16 + (lane % 8) + ((lane / 8) % 2) * 8;
                ldmatrix_x4_trans(vf, smem_addr(sV + key * LD + piece(i, cq, xq)));
#pragma unroll
                for (int mt = 0; mt < MT; ++mt) {
                    mma16816<F16>(o[mt][i], pf[mt], vf[0], vf[1]);
                    mma16816<F16>(o[mt][i + 1], pf[mt], vf[2], vf[3]);
                }
            }
        }
        __syncthreads(); // V's tile is free for the next block
    }
    cp_async_wait<0>();
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
        store_rows<F16, D / 8>(o[mt], row_sum[mt], dst, off.dst, a, warp_m0 + mt * 16 + g, t,
                flags & dst_f32_flag);
        if (stats)
            store_stats_rows(stats, stats_offset(a, blockIdx.y), a, warp_m0 + mt * 16 + g, t,
                    row_max[mt], row_sum[mt]);
    }
}

} // namespace

// One entry per type, head size and CTA shape (_w8: 8 warps of 16 rows, 128 query rows, one
// CTA per SM; _w4: 4 warps of 16 rows, 64 rows, two CTAs per SM; _w4x2: 4 warps of 32 rows,
// 128 rows, two CTAs per SM); the first nine parameters are buffers (embed_ptx.py). stats
// takes the softmax statistics of a training forward (or null); kv_len and q_len are the
// graph's two s32 lengths of a bottom-right causal mask (or null).
#define ANYDNN_FLASH_ENTRY(TY, F16, D, WARPS, BN, MT, CTAS, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(WARPS * 32, CTAS) \
            anydnn_flash_sdpa_##TY##_d##D##_##SUFFIX(const uint16_t *q, const uint16_t *k, \
                    const uint16_t *v, void *dst, const void *scale, const void *mask, \
                    float *stats, const int *kv_len, const int *q_len, sdpa_args_t args, \
                    int flags) { \
        flash_fwd<F16, D, WARPS, BN, MT>(q, k, v, dst, scale, mask, stats, kv_len, q_len, args, \
                flags); \
    }

#define ANYDNN_FLASH_SIZES(TY, F16, D, BN_X2) \
    ANYDNN_FLASH_ENTRY(TY, F16, D, 8, 64, 1, 1, w8) \
    ANYDNN_FLASH_ENTRY(TY, F16, D, 4, 64, 1, 2, w4) \
    ANYDNN_FLASH_ENTRY(TY, F16, D, 4, BN_X2, 2, 2, w4x2)

#define ANYDNN_FLASH_TYPE(TY, F16) \
    ANYDNN_FLASH_SIZES(TY, F16, 64, 32) \
    ANYDNN_FLASH_SIZES(TY, F16, 80, 32) \
    ANYDNN_FLASH_SIZES(TY, F16, 96, 32) \
    ANYDNN_FLASH_SIZES(TY, F16, 128, 32) \
    ANYDNN_FLASH_ENTRY(TY, F16, 256, 4, 32, 1, 2, w4)

ANYDNN_FLASH_TYPE(bf16, false)
ANYDNN_FLASH_TYPE(f16, true)
