// The pipelined flash attention forward on Hopper's wgmma (sm_90a PTX): flash_attention_sm90.cu's
// CTA shape, loads, score handling and operands (Q, K, V through descriptors, P from
// registers) with each warpgroup's softmax overlapping its tensor cores. Its entries:
// flash_attention_sm90_pipe.cu.
#pragma once

#include "flash_sm90_tiles.cuh"

namespace anydnn_flash {

// The _pipe entries: one CTA barrier per key block instead of two, and a warpgroup's tensor
// cores busy during its softmax. In the loop's step j the warpgroup issues S(j+1) = Q K(j+1)^T
// and O += P(j) V(j) together, waits for S(j+1) only (wgmma.wait_group 1), computes its
// softmax while P V runs, then rescales O once P V is done. K and V have NS = 2 stages each
// (3 measured slower on an H200: 3.172 against 3.151 ms, bf16 b8 h32 s4096 d128 causal).
// Step j reads K(j+1) and V(j): after the barrier that opens it the stages of K(j) and V(j-1)
// are free, so it loads K(j+NS) and V(j+NS-1) there (NS - 1 steps ahead of their use),
// through load_swizzled_lean, and copies them after it has issued its wgmma, so that the
// tensor cores run during the copies' address arithmetic (issued first, nothing of the CTA is
// on them then); the stages it fills are not the ones that wgmma reads.
// No softmax statistics (flash.cpp takes the plain kernel for the training forward).
template <bool F16, int D, int BN>
__device__ __forceinline__ void flash_fwd_sm90_pipe(const uint16_t *q, const uint16_t *k,
        const uint16_t *v, void *dst, const void *scale_p, const void *mask, float *,
        const int *kv_len, const int *q_len, const sdpa_args_t &a, int flags) {
    constexpr int NS = 2;
    constexpr int q_bytes = BM * D * 2, kv_bytes = BN * D * 2;
    __shared__ __align__(1024) unsigned char smem[q_bytes + 2 * NS * kv_bytes];
    const uint32_t sQ = smem_addr(smem), sK0 = sQ + q_bytes, sV0 = sK0 + NS * kv_bytes;

    const sm90_cta_t<BN> c(a, scale_p, flags, kv_len, q_len);
    c.to_head(q, k, v);

    // cp.async groups: {Q, K0}, {K(i), V(i-1)} for i = 1 .. NS-1, then {K(j+NS), V(j+NS-1)}
    // in step j (empty past the end): the group step j waits for has NS - 2 after it.
    load_swizzled<BM, D>(sQ, q, a.q_row, c.m0, a.Sq, c.tid);
    if (c.nblocks > 0) load_swizzled<BN, D>(sK0, k, a.k_key, 0, a.Sk, c.tid);
    cp_async_commit();
#pragma unroll
    for (int i = 1; i < NS; ++i) {
        if (i < c.nblocks) load_swizzled<BN, D>(sK0 + i * kv_bytes, k, a.k_key, int64_t(i) * BN, a.Sk, c.tid);
        if (i - 1 < c.nblocks)
            load_swizzled<BN, D>(sV0 + (i - 1) * kv_bytes, v, a.v_key, int64_t(i - 1) * BN, a.Sk, c.tid);
        cp_async_commit();
    }

    float o[D / 8][4], s[BN / 8][4];
#pragma unroll
    for (int i = 0; i < D / 8; ++i)
        o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
    float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.f, 0.f}, scale_o[2];
    uint32_t pf[BN / 16][4];

    auto issue_s = [&](int jb) { issue_qk<F16, D, BN>(s, sQ, sK0 + (jb % NS) * kv_bytes, c.wg); };
    auto softmax = [&](int jb) {
        const int64_t n0 = int64_t(jb) * BN;
        softmax_scores<BN / 8>(s, scale_o, row_max, row_sum, c.rules, a, mask, c.off.mask, c.row_lo,
                n0, c.t, c.edge(a, n0));
    };

    cp_async_wait<NS - 1>(); // Q and K0 (this thread's pieces) ...
    fence_proxy_async(); // ... visible to the tensor cores ...
    __syncthreads(); // ... everyone's
    if (c.wg_blocks > 0) {
        issue_s(0);
        wgmma_wait<0>();
        fence_regs<BN / 2>(&s[0][0]);
        softmax(0); // o is zero: no rescale
    }

    for (int jb = 0; jb < c.nblocks; ++jb) {
        cp_async_wait<NS - 2>(); // K(jb+1) and V(jb) ...
        fence_proxy_async();
        __syncthreads(); // ... everyone's; every warpgroup past step jb - 1
        // Into the stages of K(jb) and V(jb-1), which every warpgroup is done with.
        auto load_next = [&]() {
            const int free_k = jb % NS, free_v = (jb + NS - 1) % NS;
            const int64_t nk = int64_t(jb + NS) * BN, nv = int64_t(jb + NS - 1) * BN;
            if (jb + NS < c.nblocks)
                load_swizzled_lean<BN, D>(sK0 + free_k * kv_bytes, k, a.k_key, nk, a.Sk, c.tid);
            if (jb + NS - 1 < c.nblocks)
                load_swizzled_lean<BN, D>(sV0 + free_v * kv_bytes, v, a.v_key, nv, a.Sk, c.tid);
            cp_async_commit();
        };

        if (jb >= c.wg_blocks) { // warpgroup-uniform; later blocks are hidden too
            load_next();
            continue;
        }
        // P(jb) packed here, not at the end of step jb - 1: a register A operand carried
        // around the loop is what check_hgmma.py cannot tell from ptxas's old fault.
        pack_p<F16, BN>(pf, s);
        const uint32_t sV = sV0 + (jb % NS) * kv_bytes;
        // Two paths, each with its own wgmma groups in a fixed order, so that ptxas sees
        // wait_group 1 leave only P V running.
        if (jb + 1 < c.wg_blocks) {
            issue_s(jb + 1);
            issue_pv<F16, D, BN>(o, pf, sV);
            load_next();
            wgmma_wait<1>(); // S(jb+1); P V still runs
            fence_regs<BN / 2>(&s[0][0]);
            softmax(jb + 1);
            wgmma_wait<0>();
            fence_regs<BN / 4>(&pf[0][0]);
            fence_regs<D / 2>(&o[0][0]);
            rescale_o<D / 8>(o, scale_o);
        } else {
            issue_pv<F16, D, BN>(o, pf, sV);
            load_next();
            wgmma_wait<0>();
            fence_regs<BN / 4>(&pf[0][0]);
            fence_regs<D / 2>(&o[0][0]);
        }
    }
    sm90_store<F16, D, BN>(o, row_sum, dst, c, a, flags);
}

} // namespace anydnn_flash
