// Flash attention forward on Hopper's wgmma (sm_90a PTX), warp-specialized: the _pipe kernel's
// two consumer warpgroups (S(j+1) = Q K(j+1)^T and O += P(j) V(j) issued together, the
// softmax of block j+1 while P V runs) fed by a third, producer warpgroup that copies K and V
// into NS stages and hands them over through mbarriers. No CTA barrier in the key loop: a
// consumer waits only for the stage it reads, so the two consumers drift apart and one's
// softmax runs beside the other's tensor-core work. setmaxnreg moves registers from the
// producer to the consumers.
#include "flash_sm90_tiles.cuh"

namespace {

using namespace anydnn_flash;

// Consumers keep 240 registers each, the producer 24: 128 (240 + 240 + 24) is the 64512 that
// a CTA of 384 threads starts with at 168 each (__launch_bounds__(384, 1)).
constexpr int WS_THREADS = THREADS + 128, CONSUMER_REGS = 240, PRODUCER_REGS = 24;
constexpr int CONSUMER_WARPS = THREADS / 32;

// The stage barriers of NS stages at `bars`: full ones count the producer's 128 arrivals
// (each after its own copies are complete and fenced for the tensor cores), empty ones the
// consumers' 8 warps (each after its last wgmma on the stage is done).
template <int NS>
struct ws_barriers_t {
    uint32_t bars;
    __device__ __forceinline__ uint32_t full_k(int s) const { return bars + 8 * s; }
    __device__ __forceinline__ uint32_t full_v(int s) const { return bars + 8 * (NS + s); }
    __device__ __forceinline__ uint32_t empty_k(int s) const { return bars + 8 * (2 * NS + s); }
    __device__ __forceinline__ uint32_t empty_v(int s) const { return bars + 8 * (3 * NS + s); }
};

// Block j lives in stage j % NS; its full barriers complete for the (j / NS)-th time.
template <int NS>
__device__ __forceinline__ uint32_t ws_parity(int j) {
    return uint32_t(j / NS) & 1;
}

// The producer: K(j) then V(j) for every key block of the CTA, each into its stage once the
// consumers have released block j - NS there; a block's full barrier is signalled once the
// next copy is issued, so two copies are in flight.
template <int D, int BN, int NS>
__device__ __forceinline__ void ws_produce(const ws_barriers_t<NS> &b, uint32_t sK0, uint32_t sV0,
        const uint16_t *k, const uint16_t *v, const sdpa_args_t &a, int nblocks, int pt) {
    constexpr int kv_bytes = BN * D * 2;
    for (int j = 0; j < nblocks; ++j) {
        const int st = j % NS;
        const uint32_t released = ws_parity<NS>(j) ^ 1; // block j - NS's release
        if (j >= NS) mbarrier_wait(b.empty_k(st), released);
        load_rows_swizzled<BN, D, 128, 1>(sK0 + st * kv_bytes, BN * SW, k, a.k_key, int64_t(j) * BN, a.Sk, pt);
        cp_async_commit();
        if (j > 0) { // V(j - 1) is in
            cp_async_wait<1>();
            fence_proxy_async();
            mbarrier_arrive(b.full_v((j - 1) % NS));
        }
        if (j >= NS) mbarrier_wait(b.empty_v(st), released);
        load_rows_swizzled<BN, D, 128, 1>(sV0 + st * kv_bytes, BN * SW, v, a.v_key, int64_t(j) * BN, a.Sk, pt);
        cp_async_commit();
        cp_async_wait<1>(); // K(j) is in
        fence_proxy_async();
        mbarrier_arrive(b.full_k(st));
    }
    if (nblocks > 0) {
        cp_async_wait<0>();
        fence_proxy_async();
        mbarrier_arrive(b.full_v((nblocks - 1) % NS));
    }
}

// PP (the _wsp entries): the consumers take turns to issue their wgmma (named barriers 3 and
// 4, warpgroup 0 first), so that one's tensor-core work runs while the other computes its
// softmax instead of both waiting on the tensor cores at once. Only where both see the same
// number of key blocks (else turns would go unmatched). No softmax statistics (flash.cpp takes
// the plain kernel for the training forward).
template <bool F16, int D, int BN, int NS, bool PP>
__device__ __forceinline__ void flash_fwd_sm90_ws(const uint16_t *q, const uint16_t *k,
        const uint16_t *v, void *dst, const void *scale_p, const void *mask, float *,
        const int *kv_len, const int *q_len, const sdpa_args_t &a, int flags) {
    constexpr int q_bytes = BM * D * 2, kv_bytes = BN * D * 2;
    __shared__ __align__(1024) unsigned char smem[q_bytes + 2 * NS * kv_bytes];
    __shared__ __align__(8) uint64_t bar_words[4 * NS];
    const uint32_t sQ = smem_addr(smem), sK0 = sQ + q_bytes, sV0 = sK0 + NS * kv_bytes;
    const ws_barriers_t<NS> b {smem_addr(bar_words)};

    const sm90_cta_t<BN> c(a, scale_p, flags, kv_len, q_len);
    const int wg = c.wg, t = c.t, lane = c.tid % 32;
    const int nblocks = c.nblocks, wg_blocks = c.wg_blocks;
    q += c.off.q;
    k += c.off.k;
    v += c.off.v;
    if (c.tid == 0) {
        for (int s = 0; s < NS; ++s) {
            mbarrier_init(b.full_k(s), 128);
            mbarrier_init(b.full_v(s), 128);
            mbarrier_init(b.empty_k(s), CONSUMER_WARPS);
            mbarrier_init(b.empty_v(s), CONSUMER_WARPS);
        }
    }
    __syncthreads();

    if (wg == WGS) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(PRODUCER_REGS));
        ws_produce<D, BN, NS>(b, sK0, sV0, k, v, a, nblocks, c.tid - THREADS);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(CONSUMER_REGS));
        // This warpgroup's 64 rows of Q, loaded by itself.
        load_rows_swizzled<64, D, 128>(sQ + wg * 64 * SW, BM * SW, q, a.q_row, c.wg_m0, a.Sq, c.tid % 128);
        cp_async_commit();
        cp_async_wait<0>();
        fence_proxy_async();
        asm volatile("bar.sync %0, 128;\n" ::"r"(1 + wg) : "memory");

        float o[D / 8][4], s[BN / 8][4];
#pragma unroll
        for (int i = 0; i < D / 8; ++i)
            o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
        float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.f, 0.f}, scale_o[2];
        uint32_t pf[BN / 16][4];

        // A warp is done with a stage: its last wgmma reading it has completed.
        auto release = [&](uint32_t bar) {
            __syncwarp();
            if (lane == 0) mbarrier_arrive(bar);
        };
        auto issue_s = [&](int jb) { issue_qk<F16, D, BN>(s, sQ, sK0 + (jb % NS) * kv_bytes, wg); };
        auto softmax = [&](int jb) {
            const int64_t n0 = int64_t(jb) * BN;
            softmax_scores<BN / 8>(s, scale_o, row_max, row_sum, c.rules, a, mask, c.off.mask,
                    c.row_lo, n0, t, c.edge(a, n0));
        };

        // Turn t of warpgroup 0 waits on barrier 3 for warpgroup 1's turn t - 1 (for t = 0 its
        // arrival up front) and lets warpgroup 1's turn t go through barrier 4; warpgroup 1
        // makes no arrival after its last turn, so none is left over.
        const bool pp = PP && wg_blocks > 0
                && wg_blocks == int((c.rules.key_end(a, c.m0 + 64 * (1 - wg), 64) + BN - 1) / BN);
        if (pp && wg == 1) asm volatile("bar.arrive 3, 256;\n" ::: "memory");
        auto turn_begin = [&]() {
            if (pp) asm volatile("bar.sync %0, 256;\n" ::"r"(3 + wg) : "memory");
        };
        auto turn_end = [&](bool last) {
            if (pp && !(wg == 1 && last)) asm volatile("bar.arrive %0, 256;\n" ::"r"(4 - wg) : "memory");
        };

        if (wg_blocks > 0) {
            mbarrier_wait(b.full_k(0), 0);
            turn_begin();
            issue_s(0);
            turn_end(false);
            wgmma_wait<0>();
            fence_regs<BN / 2>(&s[0][0]);
            release(b.empty_k(0));
            softmax(0); // o is zero: no rescale
        }
        for (int jb = 0; jb < wg_blocks; ++jb) {
            // P(jb) packed here: no register A operand carried around the loop (check_hgmma.py).
            pack_p<F16, BN>(pf, s);
            const int st = jb % NS;
            const uint32_t sV = sV0 + st * kv_bytes;
            mbarrier_wait(b.full_v(st), ws_parity<NS>(jb));
            // Two paths, each with its own wgmma groups in a fixed order, so that ptxas sees
            // wait_group 1 leave only P V running.
            if (jb + 1 < wg_blocks) {
                const int st1 = (jb + 1) % NS;
                mbarrier_wait(b.full_k(st1), ws_parity<NS>(jb + 1));
                turn_begin();
                issue_s(jb + 1);
                issue_pv<F16, D, BN>(o, pf, sV);
                turn_end(false);
                wgmma_wait<1>(); // S(jb+1); P V still runs
                fence_regs<BN / 2>(&s[0][0]);
                release(b.empty_k(st1));
                softmax(jb + 1);
                wgmma_wait<0>();
                fence_regs<BN / 4>(&pf[0][0]);
                fence_regs<D / 2>(&o[0][0]);
                release(b.empty_v(st));
                rescale_o<D / 8>(o, scale_o);
            } else {
                turn_begin();
                issue_pv<F16, D, BN>(o, pf, sV);
                turn_end(true);
                wgmma_wait<0>();
                fence_regs<BN / 4>(&pf[0][0]);
                fence_regs<D / 2>(&o[0][0]);
                release(b.empty_v(st));
            }
        }
        // Blocks the causal mask hides from these rows but not from the other warpgroup's:
        // released unread, in order, so the producer goes on.
        for (int jb = wg_blocks; jb < nblocks; ++jb) {
            const int st = jb % NS;
            mbarrier_wait(b.full_k(st), ws_parity<NS>(jb));
            release(b.empty_k(st));
            mbarrier_wait(b.full_v(st), ws_parity<NS>(jb));
            release(b.empty_v(st));
        }
        sm90_store<F16, D, BN>(o, row_sum, dst, c, a, flags);
    }
}

} // namespace

// NS stages of K and V: _ws and _wsp 2, _ws3 3 (d128: 160 and 224 KiB of shared memory).
ANYDNN_FLASH_SM90_ENTRY(bf16, 64, _ws, WS_THREADS, flash_fwd_sm90_ws<false, 64, 128, 2, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, _ws, WS_THREADS, flash_fwd_sm90_ws<false, 128, 128, 2, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, _ws, WS_THREADS, flash_fwd_sm90_ws<true, 64, 128, 2, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, _ws, WS_THREADS, flash_fwd_sm90_ws<true, 128, 128, 2, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 64, _ws3, WS_THREADS, flash_fwd_sm90_ws<false, 64, 128, 3, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, _ws3, WS_THREADS, flash_fwd_sm90_ws<false, 128, 128, 3, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, _ws3, WS_THREADS, flash_fwd_sm90_ws<true, 64, 128, 3, false>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, _ws3, WS_THREADS, flash_fwd_sm90_ws<true, 128, 128, 3, false>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 64, _wsp, WS_THREADS, flash_fwd_sm90_ws<false, 64, 128, 2, true>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, _wsp, WS_THREADS, flash_fwd_sm90_ws<false, 128, 128, 2, true>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, _wsp, WS_THREADS, flash_fwd_sm90_ws<true, 64, 128, 2, true>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, _wsp, WS_THREADS, flash_fwd_sm90_ws<true, 128, 128, 2, true>)
