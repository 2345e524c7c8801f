// What the wgmma flash kernels (flash_attention_sm90*.cu) share: the CTA's shape (two
// warpgroups of 64 query rows), where a CTA and its threads sit (the prologue), the cp.async
// load of rows into 128-byte-swizzled tiles that wgmma reads through descriptors, the final
// store and the entry points.
#pragma once

#include "flash_common.cuh"
#include "flash_wgmma.cuh"

namespace anydnn_flash {

constexpr int WGS = 2, BM = 64 * WGS, THREADS = 128 * WGS, SW = 128; // 128-byte lines

// ROWS rows (from row0, valid below n; rows `ld` apart) of D elements into the tile at `base`
// by NT threads: chunks of 64 elements, each 128-byte lines `chunk` bytes apart, swizzled;
// missing rows zero. UNROLL: the copies issued per loop trip (a producer warpgroup short of
// registers issues one at a time).
template <int ROWS, int D, int NT, int UNROLL = ROWS * D / 8 / NT>
__device__ __forceinline__ void load_rows_swizzled(uint32_t base, uint32_t chunk,
        const uint16_t *g, int64_t ld, int64_t row0, int64_t n, int tid) {
    constexpr int pieces = D / 8;
    static_assert(ROWS * pieces % NT == 0, "the tile splits evenly over the threads");
#pragma unroll UNROLL
    for (int it = 0; it < ROWS * pieces / NT; ++it) {
        const int c = tid + it * NT;
        const int o = c / pieces, i = (c % pieces) * 8;
        const uint32_t off = (i / 64) * chunk + o * SW + (i % 64) * 2;
        const bool valid = row0 + o < n;
        cp_async16(base + swizzle128(off), g + (valid ? (row0 + o) * ld + i : 0), valid);
    }
}
// A whole tile of ROWS lines per chunk, loaded by the CTA's two warpgroups.
template <int ROWS, int D>
__device__ __forceinline__ void load_swizzled(uint32_t base, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
    load_rows_swizzled<ROWS, D, THREADS>(base, ROWS * SW, g, ld, row0, n, tid);
}

// load_swizzled for a K or V tile (ROWS rows of D) with the address arithmetic done once: a
// thread copies the same 16-byte column of rows THREADS / (D / 8) apart, so its global source
// and swizzled destination move by fixed steps (the swizzle depends on the row modulo 8 only,
// which those steps keep); rows are checked against n only in a tile that passes it.
template <int ROWS, int D>
__device__ __forceinline__ void load_swizzled_lean(uint32_t base, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
    constexpr int pieces = D / 8, pass = THREADS / pieces, trips = ROWS / pass;
    static_assert(THREADS % pieces == 0 && ROWS % pass == 0 && pass % 8 == 0,
            "whole passes of rows, a multiple of the swizzle's 8 lines apart");
    const int o = tid / pieces, i = (tid % pieces) * 8;
    const uint32_t dst = base + swizzle128((i / 64) * (ROWS * SW) + o * SW + (i % 64) * 2);
    const int64_t r0 = row0 + o;
    const uint16_t *src = g + r0 * ld + i;
    const int64_t step = pass * ld;
    if (row0 + ROWS <= n) {
#pragma unroll
        for (int it = 0; it < trips; ++it)
            cp_async16(dst + it * pass * SW, src + it * step, true);
    } else {
#pragma unroll
        for (int it = 0; it < trips; ++it) {
            const bool valid = r0 + it * pass < n;
            cp_async16(dst + it * pass * SW, valid ? src + it * step : g, valid);
        }
    }
}

// Where a CTA works (blockIdx.x: a block of BM query rows, heavier causal blocks first so the
// last wave is the light one; blockIdx.y: the batch entry) and the rows and key blocks of the
// calling thread's warpgroup (0 or 1) and warp: the prologue of every sm90 kernel.
template <int BN>
struct sm90_cta_t {
    int tid, wg, warp, g, t;
    int64_t m0, wg_m0, warp_m0, row_lo;
    batch_offsets_t off;
    score_rules_t rules;
    int nblocks; // key blocks of any row of the CTA
    int wg_blocks; // those of this warpgroup's rows: a prefix
    __device__ __forceinline__ sm90_cta_t(const sdpa_args_t &a, const void *scale_p, int flags,
            const int *kv_len, const int *q_len)
        : tid(threadIdx.x)
        , wg(tid / 128)
        , warp((tid / 32) % 4)
        , g(tid % 32 / 4)
        , t(tid % 4)
        , m0(int64_t(gridDim.x - 1 - blockIdx.x) * BM)
        , wg_m0(m0 + 64 * wg)
        , warp_m0(wg_m0 + warp * 16)
        , row_lo(warp_m0 + g)
        , off(a, blockIdx.y)
        , rules(a, scale_p, flags, kv_len, q_len)
        , nblocks(int((rules.key_end(a, m0, BM) + BN - 1) / BN))
        , wg_blocks(int((rules.key_end(a, wg_m0, 64) + BN - 1) / BN)) {}
    // q, k and v moved to this CTA's batch and head: every kernel's first step.
    __device__ __forceinline__ void to_head(
            const uint16_t *&q, const uint16_t *&k, const uint16_t *&v) const {
        q += off.q;
        k += off.k;
        v += off.v;
    }
    // The block from key n0 holds keys past Sk or past the causal diagonal of some row of
    // this warp: its scores are masked one by one.
    __device__ __forceinline__ bool edge(const sdpa_args_t &a, int64_t n0) const {
        return n0 + BN > a.Sk || (rules.causal && n0 + BN - 1 > warp_m0 + rules.diag);
    }
};

// S = Q K^T for this warpgroup's 64 rows of the Q tile at sQ and the BN keys of the K tile at
// sK (K-major, 32 bytes per k16), issued into s as one wgmma group, not waited for.
template <bool F16, int D, int BN>
__device__ __forceinline__ void issue_qk(float (*s)[4], uint32_t sQ, uint32_t sK, int wg) {
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
        s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
    fence_regs<BN / 2>(&s[0][0]);
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks) {
        const uint32_t koff = (ks % 4) * 32;
        const uint64_t dq = smem_desc128(sQ + (ks / 4) * (BM * SW) + wg * 64 * SW + koff, 16, 8 * SW);
        const uint64_t dk = smem_desc128(sK + (ks / 4) * (BN * SW) + koff, 16, 8 * SW);
        wgmma_ss<F16, BN, 0>(&s[0][0], dq, dk);
    }
    wgmma_commit();
}

// The probabilities in s packed as wgmma's register A fragments of P.
template <bool F16, int BN>
__device__ __forceinline__ void pack_p(uint32_t (*pf)[4], const float (*s)[4]) {
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
        pf[kk][0] = pack2<F16>(s[2 * kk][0], s[2 * kk][1]);
        pf[kk][1] = pack2<F16>(s[2 * kk][2], s[2 * kk][3]);
        pf[kk][2] = pack2<F16>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pf[kk][3] = pack2<F16>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
}

// O += P V with P from registers and the V tile at sV (N-major: 16 key lines per k16, chunks
// 64 wide), issued as one wgmma group, not waited for.
template <bool F16, int D, int BN>
__device__ __forceinline__ void issue_pv(float (*o)[4], uint32_t (*pf)[4], uint32_t sV) {
    fence_regs<D / 2>(&o[0][0]);
    fence_regs<BN / 4>(&pf[0][0]);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk)
        wgmma_rs<F16, D, 1>(&o[0][0], pf[kk], smem_desc128(sV + kk * 16 * SW, BN * SW, 8 * SW));
    wgmma_commit();
}

// The tail: o divided by the row sums into dst, once no cp.async of this thread is in flight.
template <bool F16, int D, int BN>
__device__ __forceinline__ void sm90_store(const float (*o)[4], const float *row_sum,
        void *dst, const sm90_cta_t<BN> &c, const sdpa_args_t &a, int flags) {
    cp_async_wait<0>();
    store_rows<F16, D / 8>(o, row_sum, dst, c.off.dst, a, c.row_lo, c.t, flags & dst_f32_flag);
}

} // namespace anydnn_flash

// One entry per type, head size and variant: anydnn_flash_sdpa_<TY>_d<D>_sm90<SUFFIX>, NT
// threads, running the kernel function named last (a template with its arguments). The first
// nine parameters are buffers (embed_ptx.py): Q, K, V, dst, scale, mask, softmax statistics
// (the training forward's, or null; only flash_attention_sm90.cu's entries write them), key
// and query lengths.
#define ANYDNN_FLASH_SM90_ENTRY(TY, D, SUFFIX, NT, ...) \
    extern "C" __global__ void __launch_bounds__(NT, 1) \
            anydnn_flash_sdpa_##TY##_d##D##_sm90##SUFFIX(const uint16_t *q, const uint16_t *k, \
                    const uint16_t *v, void *dst, const void *scale, const void *mask, \
                    float *stats, const int *kv_len, const int *q_len, \
                    anydnn_flash::sdpa_args_t args, int flags) { \
        __VA_ARGS__(q, k, v, dst, scale, mask, stats, kv_len, q_len, args, flags); \
    }
