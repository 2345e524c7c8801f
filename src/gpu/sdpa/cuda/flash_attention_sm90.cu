// Flash attention forward on Hopper's warpgroup tensor cores (wgmma, sm_90a PTX), bf16 or f16
// in, f32 accumulate, head sizes 64 and 128: the algorithm and the score handling of
// flash_attention.cu with S = Q K^T as wgmma from shared memory (Q and K through descriptors)
// and O += P V with P in registers (the scores' accumulators repacked) and V through a
// descriptor. A CTA is two warpgroups, 128 query rows (64 each; wgmma's accumulator rows are
// mma.sync's, so the softmax and the store are shared); Q and double-buffered K and V tiles
// of BN keys come by cp.async into 128-byte-swizzled lines (chunks of 64 elements): K of the
// next block loads during this block's work, V of the next during P V. A warpgroup skips the
// key blocks its causal mask hides; only blocks crossing the diagonal or Sk are masked per
// element. One CTA per SM. Q, K, V rows contiguous along the head, 16-byte aligned.
//
// Q is not an A operand in registers: ptxas of CUDA 13.0 (and the H200's driver 580 that
// compiles this PTX) reused the registers of Q's fragments, live across the key loop, for
// other values inside it (the SASS read them in the next block's HGMMA after F2FP wrote P
// there): the first version of this kernel computed S from garbage after its first block.
// tools/ptx_check/check_hgmma.py checks the SASS for that.
#include "flash_sm90_tiles.cuh"

namespace {

using namespace anydnn_flash;

// PS (the _ps entries): P goes through shared memory (a tile laid out as Q's, BN keys wide)
// and O += P V reads both operands through descriptors, no register A operand at all; for a
// driver whose ptxas mishandles register A operands as CUDA 13.0's did with Q's.
template <bool F16, int D, int BN, bool PS>
__device__ __forceinline__ void flash_fwd_sm90(const uint16_t *q, const uint16_t *k,
        const uint16_t *v, void *dst, const void *scale_p, const void *mask, float *stats,
        const int *kv_len, const int *q_len, const sdpa_args_t &a, int flags) {
    constexpr int q_bytes = BM * D * 2, kv_bytes = BN * D * 2;
    constexpr int p_bytes = PS ? BM * BN * 2 : 0;
    __shared__ __align__(1024) unsigned char smem[q_bytes + 4 * kv_bytes + p_bytes];
    const uint32_t sQ = smem_addr(smem), sK0 = sQ + q_bytes, sV0 = sK0 + 2 * kv_bytes;
    const uint32_t sP = sV0 + 2 * kv_bytes;

    const sm90_cta_t<BN> c(a, scale_p, flags, kv_len, q_len);
    c.to_head(q, k, v);

    // cp.async groups, in order: Q, K0, V0, then K(j+1) and V(j+1) in block j (empty past the
    // last block), so "all but the newest group" is always the one wanted.
    load_swizzled<BM, D>(sQ, q, a.q_row, c.m0, a.Sq, c.tid);
    cp_async_commit();
    if (c.nblocks > 0) load_swizzled<BN, D>(sK0, k, a.k_key, 0, a.Sk, c.tid);
    cp_async_commit();
    if (c.nblocks > 0) load_swizzled<BN, D>(sV0, v, a.v_key, 0, a.Sk, c.tid);
    cp_async_commit();

    float o[D / 8][4];
#pragma unroll
    for (int i = 0; i < D / 8; ++i)
        o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
    float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.f, 0.f};

    for (int jb = 0; jb < c.nblocks; ++jb) {
        const int64_t n0 = int64_t(jb) * BN;
        const int st = jb & 1;
        const uint32_t sK = sK0 + st * kv_bytes, sV = sV0 + st * kv_bytes;
        cp_async_wait<1>(); // Q and this block's K are in (this thread's pieces) ...
        fence_proxy_async(); // ... visible to the tensor cores ...
        __syncthreads(); // ... everyone's; and every warp is past block jb - 1
        if (jb + 1 < c.nblocks) load_swizzled<BN, D>(sK0 + (st ^ 1) * kv_bytes, k, a.k_key, n0 + BN, a.Sk, c.tid);
        cp_async_commit();

        const bool seen = jb < c.wg_blocks; // warpgroup-uniform
        uint32_t pf[BN / 16][4];
        if (seen) {
            float s[BN / 8][4];
            issue_qk<F16, D, BN>(s, sQ, sK, c.wg);
            wgmma_wait<0>();
            fence_regs<BN / 2>(&s[0][0]);

            softmax_block<BN / 8, D / 8>(s, o, row_max, row_sum, c.rules, a, mask, c.off.mask, c.row_lo,
                    n0, c.t, c.edge(a, n0));
            if constexpr (PS) {
                // Rows warp * 16 + g (+ 8) of this warpgroup's 64, keys 8 j + 2 t (+ 1).
#pragma unroll
                for (int j = 0; j < BN / 8; ++j)
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const int r = c.wg * 64 + c.warp * 16 + c.g + 8 * h, key = 8 * j + 2 * c.t;
                        const uint32_t at = sP
                                + swizzle128((key / 64) * (BM * SW) + r * SW + (key % 64) * 2);
                        asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(at),
                                "r"(pack2<F16>(s[j][2 * h], s[j][2 * h + 1]))
                                : "memory");
                    }
                fence_proxy_async(); // the tensor cores read P next ...
                asm volatile("bar.sync %0, 128;\n" ::"r"(1 + c.wg) : "memory"); // ... all 64 rows
            } else {
#pragma unroll
                for (int kk = 0; kk < BN / 16; ++kk) {
                    pf[kk][0] = pack2<F16>(s[2 * kk][0], s[2 * kk][1]);
                    pf[kk][1] = pack2<F16>(s[2 * kk][2], s[2 * kk][3]);
                    pf[kk][2] = pack2<F16>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
                    pf[kk][3] = pack2<F16>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
                }
            }
        }

        cp_async_wait<1>(); // this block's V is in (K of the next may still load)
        fence_proxy_async();
        __syncthreads(); // every warp is past P V of block jb - 1
        if (jb + 1 < c.nblocks) load_swizzled<BN, D>(sV0 + (st ^ 1) * kv_bytes, v, a.v_key, n0 + BN, a.Sk, c.tid);
        cp_async_commit();

        if (seen) {
            fence_regs<D / 2>(&o[0][0]);
            fence_regs<BN / 4>(&pf[0][0]);
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < BN / 16; ++kk) { // N-major V: 16 key lines per k16, chunks 64 wide
                const uint64_t dv = smem_desc128(sV + kk * 16 * SW, BN * SW, 8 * SW);
                if constexpr (PS)
                    wgmma_ss<F16, D, 1>(&o[0][0],
                            smem_desc128(sP + (kk / 4) * (BM * SW) + c.wg * 64 * SW + (kk % 4) * 32, 16, 8 * SW), dv);
                else
                    wgmma_rs<F16, D, 1>(&o[0][0], pf[kk], dv);
            }
            wgmma_commit();
            wgmma_wait<0>();
            fence_regs<BN / 4>(&pf[0][0]);
            fence_regs<D / 2>(&o[0][0]);
        }
    }
    sm90_store<F16, D, BN>(o, row_sum, dst, c, a, flags);
    if (stats)
        store_stats_rows(stats, stats_offset(a, blockIdx.y), a, c.row_lo, c.t, row_max, row_sum);
}


} // namespace

ANYDNN_FLASH_SM90_ENTRY(bf16, 64, , THREADS, flash_fwd_sm90<false, 64, 128, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, , THREADS, flash_fwd_sm90<false, 128, 128, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, , THREADS, flash_fwd_sm90<true, 64, 128, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, , THREADS, flash_fwd_sm90<true, 128, 128, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 64, _ps, THREADS, flash_fwd_sm90<false, 64, 128, true>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, _ps, THREADS, flash_fwd_sm90<false, 128, 128, true>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, _ps, THREADS, flash_fwd_sm90<true, 64, 128, true>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, _ps, THREADS, flash_fwd_sm90<true, 128, 128, true>)
