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

// ROWS rows of D elements from global (row stride `ld`, rows from `row0`, valid below `nrows`)
// into shared memory rows of LD elements; rows past the end are zero-filled.
template <int ROWS, int D, int LD, int THREADS>
__device__ __forceinline__ void load_tile(uint16_t *s, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t nrows, int tid) {
    constexpr int pieces = D / 8;
#pragma unroll
    for (int c = tid; c < ROWS * pieces; c += THREADS) {
        const int r = c / pieces, p = c % pieces;
        const bool valid = row0 + r < nrows;
        const uint16_t *src = g + (valid ? (row0 + r) * ld : 0) + p * 8;
        cp_async16(smem_addr(s + r * LD + p * 8), src, valid);
    }
}

template <bool F16, int D, int WARPS, int BN>
__device__ __forceinline__ void flash_fwd(const uint16_t *q, const uint16_t *k, const uint16_t *v,
        void *dst, const void *scale_p, const void *mask, const int *kv_len, const int *q_len,
        const sdpa_args_t &a, int flags) {
    constexpr int BM = WARPS * 16, THREADS = WARPS * 32, LD = D + 8;
    static_assert(BM <= 2 * BN, "Q's tile shares the K and V tiles' memory");
    __shared__ __align__(128) uint16_t smem[2 * BN * LD];
    uint16_t *sK = smem, *sV = smem + BN * LD, *sQ = smem;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4; // mma fragment row group and column pair
    // Heavier (causal: later) row blocks first, so the last wave is the light one.
    const int64_t m0 = int64_t(gridDim.x - 1 - blockIdx.x) * BM;
    const batch_offsets_t off(a, blockIdx.y);
    q += off.q;
    k += off.k;
    v += off.v;
    const score_rules_t rules(a, scale_p, flags, kv_len, q_len);
    const int nblocks = int((rules.key_end(a, m0, BM) + BN - 1) / BN);

    // Q's fragments stay in registers for the whole key loop.
    load_tile<BM, D, LD, THREADS>(sQ, q, a.q_row, m0, a.Sq, tid);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    uint32_t qf[D / 16][4];
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        ldmatrix_x4(qf[kk], smem_addr(sQ + (warp * 16 + lane % 16) * LD + kk * 16 + (lane / 16) * 8));
    __syncthreads();
    if (nblocks > 0) load_tile<BN, D, LD, THREADS>(sK, k, a.k_key, 0, a.Sk, tid);
    cp_async_commit();

    float o[D / 8][4];
#pragma unroll
    for (int i = 0; i < D / 8; ++i)
        o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
    float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.f, 0.f};
    const int64_t row_lo = m0 + warp * 16 + g; // this thread's rows: row_lo and row_lo + 8

    for (int jb = 0; jb < nblocks; ++jb) {
        const int64_t n0 = int64_t(jb) * BN;
        load_tile<BN, D, LD, THREADS>(sV, v, a.v_key, n0, a.Sk, tid);
        cp_async_commit();
        cp_async_wait<1>(); // this block's K is in
        __syncthreads();

        float s[BN / 8][4];
#pragma unroll
        for (int j = 0; j < BN / 8; ++j)
            s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk) {
#pragma unroll
            for (int j = 0; j < BN / 8; j += 2) {
                uint32_t kf[4];
                const int key = j * 8 + (lane % 8) + (lane / 16) * 8;
                ldmatrix_x4(kf, smem_addr(sK + key * LD + kk * 16 + ((lane / 8) % 2) * 8));
                mma16816<F16>(s[j], qf[kk], kf[0], kf[1]);
                mma16816<F16>(s[j + 1], qf[kk], kf[2], kf[3]);
            }
        }
        const bool edge = n0 + BN > a.Sk || (rules.causal && n0 + BN - 1 > m0 + rules.diag + warp * 16);
        softmax_block<BN / 8, D / 8>(s, o, row_max, row_sum, rules, a, mask, off.mask, row_lo, n0, t, edge);

        cp_async_wait<0>(); // V is in; every warp is past its reads of K
        __syncthreads();
        if (jb + 1 < nblocks) load_tile<BN, D, LD, THREADS>(sK, k, a.k_key, n0 + BN, a.Sk, tid);
        cp_async_commit();

        // P (the scores' accumulator registers, repacked as A fragments) times V.
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            uint32_t pf[4];
            pf[0] = pack2<F16>(s[2 * kk][0], s[2 * kk][1]);
            pf[1] = pack2<F16>(s[2 * kk][2], s[2 * kk][3]);
            pf[2] = pack2<F16>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
            pf[3] = pack2<F16>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
            for (int i = 0; i < D / 8; i += 2) {
                uint32_t vf[4];
                const int key = kk * 16 + (lane % 8) + ((lane / 8) % 2) * 8;
                ldmatrix_x4_trans(vf, smem_addr(sV + key * LD + i * 8 + (lane / 16) * 8));
                mma16816<F16>(o[i], pf, vf[0], vf[1]);
                mma16816<F16>(o[i + 1], pf, vf[2], vf[3]);
            }
        }
        __syncthreads(); // V's tile is free for the next block
    }
    cp_async_wait<0>();
    store_rows<F16, D / 8>(o, row_sum, dst, off.dst, a, row_lo, t, flags & dst_f32_flag);
}

} // namespace

// One entry per type, head size and CTA size (_w8: 8 warps, 128 query rows, one CTA per SM;
// _w4: 4 warps, 64 rows, two CTAs per SM); the first nine parameters are buffers
// (embed_ptx.py). stats is reserved for the softmax statistics of a training forward (null);
// kv_len and q_len are the graph's two s32 lengths of a bottom-right causal mask (or null).
#define ANYDNN_FLASH_ENTRY(TY, F16, D, WARPS, BN) \
    extern "C" __global__ void __launch_bounds__(WARPS * 32, 8 / WARPS) \
            anydnn_flash_sdpa_##TY##_d##D##_w##WARPS(const uint16_t *q, const uint16_t *k, \
                    const uint16_t *v, void *dst, const void *scale, const void *mask, \
                    float *stats, const int *kv_len, const int *q_len, sdpa_args_t args, \
                    int flags) { \
        flash_fwd<F16, D, WARPS, BN>(q, k, v, dst, scale, mask, kv_len, q_len, args, flags); \
    }

#define ANYDNN_FLASH_TYPE(TY, F16) \
    ANYDNN_FLASH_ENTRY(TY, F16, 64, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 64, 4, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 80, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 80, 4, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 96, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 96, 4, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 128, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 128, 4, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 256, 4, 32)

ANYDNN_FLASH_TYPE(bf16, false)
ANYDNN_FLASH_TYPE(f16, true)
