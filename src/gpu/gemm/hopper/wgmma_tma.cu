// The 16-bit GEMM of wgmma_core.cuh fed by Hopper's bulk tensor copies (TMA, sm_90a): one
// producer warpgroup whose single thread issues cp.async.bulk.tensor for A and B into S
// shared-memory stages, full/empty mbarriers per stage, two consumer warpgroups of wgmma
// (rows 0-63 and 64-127 of a 128 x BN tile; one for tiles of 64 rows) and a persistent grid
// walking the tiles.
//
// Tensor maps through OpenCL, which has no API for them (and libcuda's encoder wants a CUDA
// context, which NVIDIA's OpenCL does not make current: tools/tma_probe): the producer thread
// builds one map per operand from 128 zero bytes in its CTA's slot of a global workspace
// (`ws`, 256 bytes per CTA) with tensormap.replace of every field (the buffer's address, the
// sizes and strides the kernel has anyway), and publishes it to the copy engine with
// fence.proxy.tensormap. Encodings, as the probe confirmed on the H200: rank, and 16-bit
// element type 10 (the copies move bits: f16 too), swizzle mode 3 (128 bytes), zero fill;
// dimensions, box sizes and byte strides as they are. Maps are 3-D: the contiguous dimension,
// the other one, the batch (1 where broadcast); the copies zero-fill past M, N, K, so tails
// need no code.
//
// Shared memory: the stages as wgmma_core.cuh lays them out (128-byte lines, 128-byte
// swizzle: the copy engine's SWIZZLE_128B on 1024-byte aligned boxes is the same XOR), A
// K-major as one box of 64 x BM, M-major as BM / 64 boxes of 64 x 64 (one per 64-row chunk),
// B likewise. The epilogue stages C through the stages' memory (epilogue() of the core), so
// the producer loads the next tile only after the consumers are done with it (a barrier per
// tile); the consumers sync among themselves with a named barrier. Every tile has at least
// one K step (K > 0, no empty K slice: the host sees to both), so the producer, which waits
// for the previous tile's epilogue before loading the next one, never falls two tiles behind.
#include "wgmma_core.cuh"

namespace {

// A producer warpgroup, then a consumer warpgroup per 64 rows of the tile (BM 128 or 64).
constexpr int tma_threads(int bm) { return 128 + 2 * bm; }
// BM 128: 40 * 128 + 232 * 256 <= 65536 (BM 64 leaves the registers as they are: 256 each).
constexpr int producer_regs = 40, consumer_regs = 232;

__device__ __forceinline__ void mbar_init(uint32_t bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    asm volatile("{\n .reg .pred done;\n wait_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra wait_%=;\n}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("{\n .reg .b64 st;\n mbarrier.arrive.shared::cta.b64 st, [%0];\n}" ::"r"(bar)
                 : "memory");
}
__device__ __forceinline__ void mbar_expect(uint32_t bar, uint32_t bytes) {
    asm volatile(
            "{\n .reg .b64 st;\n mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}" ::"r"(
                    bar),
            "r"(bytes)
            : "memory");
}
// One box of the 3-D map at `map` (global) into shared memory at dst, completing on bar.
__device__ __forceinline__ void tma_load3(
        uint32_t dst, const void *map, int c0, int c1, int c2, uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
                 "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
                 : "memory");
}
// The consumers' barrier (named barrier 1, their NT threads), for the epilogue.
template <int NT> struct consumer_sync_t {
    __device__ __forceinline__ void operator()() const {
        asm volatile("bar.sync 1, %0;" ::"n"(NT) : "memory");
    }
};

// A 3-D map of 16-bit elements into `slot` (global, 128-byte aligned), built from zero bytes,
// visible to this thread's copies: `inner` contiguous elements per line, lines ld_bytes apart,
// `outer` lines per batch, batches batch_bytes apart; boxes of box_inner x box_outer x 1.
__device__ __forceinline__ void build_map(uint64_t *slot, const void *address, int inner, int outer,
        int batches, int64_t ld_bytes, int64_t batch_bytes, int box_inner, int box_outer) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
        slot[i] = 0;
#define ANYDNN_TMAP(FIELD, ARGS, ...)                                                              \
    asm volatile(                                                                                  \
            "tensormap.replace.tile." FIELD ".global.b1024." ARGS ";" ::"l"(slot), ##__VA_ARGS__   \
            : "memory")
    ANYDNN_TMAP("global_address", "b64 [%0], %1", "l"(address));
    ANYDNN_TMAP("rank", "b32 [%0], 2"); // rank - 1
    ANYDNN_TMAP("global_dim", "b32 [%0], 0, %1", "r"(inner));
    ANYDNN_TMAP("global_dim", "b32 [%0], 1, %1", "r"(outer));
    ANYDNN_TMAP("global_dim", "b32 [%0], 2, %1", "r"(batches));
    ANYDNN_TMAP("global_stride", "b64 [%0], 0, %1", "l"(ld_bytes));
    ANYDNN_TMAP("global_stride", "b64 [%0], 1, %1", "l"(batch_bytes));
    ANYDNN_TMAP("box_dim", "b32 [%0], 0, %1", "r"(box_inner));
    ANYDNN_TMAP("box_dim", "b32 [%0], 1, %1", "r"(box_outer));
    ANYDNN_TMAP("box_dim", "b32 [%0], 2, 1");
    ANYDNN_TMAP("element_stride", "b32 [%0], 0, 1");
    ANYDNN_TMAP("element_stride", "b32 [%0], 1, 1");
    ANYDNN_TMAP("element_stride", "b32 [%0], 2, 1");
    ANYDNN_TMAP("elemtype", "b32 [%0], 10"); // 16 bits (bf16; f16 bits copy the same)
    ANYDNN_TMAP("interleave_layout", "b32 [%0], 0");
    ANYDNN_TMAP("swizzle_mode", "b32 [%0], 3"); // 128 bytes
    ANYDNN_TMAP("fill_mode", "b32 [%0], 0");    // zeros
#undef ANYDNN_TMAP
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(slot) : "memory");
}

// Work item w of the persistent walk: batch, K slice and tile, tiles in groups of 8 block rows
// column by column (CTAs running together share A and B panels in L2).
template <int BM, int BN> struct tma_work_t {
    int m0, n0, batch, k_begin, K;
    int64_t c_off;
    __device__ __forceinline__ tma_work_t(int w, int M, int N, int K_, int splits, int64_t c_off_,
            int64_t c_sb, int64_t c_slice) {
        constexpr int group_m = 8, BK = 64;
        const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
        const int per = tiles_m * tiles_n;
        const int bs = w / per, linear = w % per;
        const int first_m = linear / (group_m * tiles_n) * group_m;
        const int rows = min(tiles_m - first_m, group_m);
        const int in_group = linear % (group_m * tiles_n);
        n0 = in_group / rows * BN;
        m0 = (first_m + in_group % rows) * BM;
        batch = bs / splits;
        const int slice = bs % splits;
        const int k_per_slice = ((K_ + splits - 1) / splits + BK - 1) / BK * BK;
        k_begin = min(K_, slice * k_per_slice);
        K = min(K_ - k_begin, k_per_slice);
        c_off = c_off_ + slice * c_slice + batch * c_sb;
    }
};

// overlap: the producer loads the next tile's first stages while the consumers' epilogue
// stages C in the top of shared memory (the stages wholly below it), and waits for the
// epilogue only before a stage it overlaps, or before the tile's last load (so that it never
// falls two epilogues behind). Without it the producer waits before the tile's first load.
// Each tile starts at stage 0; every stage keeps its own phase bit.
template <int T, int TA, int TB, int BM, int BN, int S, bool EPI>
__device__ __forceinline__ void gemm_tma(const void *a, const void *b, void *c, const void *bias,
        uint64_t *ws, int64_t ws_off, int64_t a_off, int64_t b_off, int64_t c_off, int64_t lda,
        int64_t ldb, int64_t ldc, int64_t a_sb, int64_t b_sb, int64_t c_sb, int batch, int M, int N,
        int K, int c_kind, int bias_kind, int splits, int64_t c_slice, int overlap,
        const epilogue_args_t &ea) {
    static_assert(ab_traits<T>::is_16bit, "the TMA kernels take bf16 and f16");
    static_assert(BM == 128 || BM == 64, "a consumer warpgroup per 64 rows, one or two");
    constexpr int BK = 64, SW = 128, NT = 2 * BM; // NT: the consumer threads
    constexpr int a_bytes = BM * SW, stage_bytes = (BM + BN) * SW;
    static_assert(BM * (BN + 8) * 4 <= S * stage_bytes, "the f32 tile fits the stages");
    __shared__ __align__(1024) unsigned char smem[S * stage_bytes];
    __shared__ __align__(8) uint64_t bars[2 * S + 1]; // full[S], empty[S], tile done

    const int tid = threadIdx.x, wg = tid / 128;
    const uint32_t sbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const uint32_t bar0 = static_cast<uint32_t>(__cvta_generic_to_shared(bars));
    auto full = [&](int s) { return bar0 + 8 * s; };
    auto empty = [&](int s) { return bar0 + 8 * (S + s); };
    const uint32_t done = bar0 + 16 * S;
    if (tid == 0) {
        for (int s = 0; s < S; ++s) {
            mbar_init(full(s), 1);  // the producer's arrival with the bytes expected
            mbar_init(empty(s), NT / 32); // a lane of each consumer warp
        }
        mbar_init(done, NT); // every consumer thread, after its epilogue
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    const int tiles = ((M + BM - 1) / BM) * ((N + BN - 1) / BN) * batch * splits;
    // Where the epilogue stages C (f32 with the full epilogue, else C's type), and the stages
    // wholly below it.
    const int staged = BM * (BN + 8) * (EPI || c_kind == c_f32 ? 4 : 2);
    const int staging_at = overlap ? (S * stage_bytes - staged) / 128 * 128 : 0;
    const int free_stages = staging_at / stage_bytes;
    if (wg == 0) {
        if constexpr (BM == 128)
            asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(producer_regs));
        if (tid != 0) return;
        uint64_t *slot = ws + ws_off + blockIdx.x * 32;
        // A: lines of K (K-major, one 64 x 128 box per stage) or of M (64 x 64 boxes); B
        // likewise with N. One batch where the operand is broadcast.
        const int es = 2;
        const int a_inner = TA ? M : K, a_outer = TA ? K : M;
        const int b_inner = TB ? N : K, b_outer = TB ? K : N;
        build_map(slot, static_cast<const unsigned char *>(a) + a_off * es, a_inner, a_outer,
                a_sb ? batch : 1, lda * es, (a_sb ? a_sb : lda * a_outer) * es, 64, TA ? 64 : BM);
        build_map(slot + 16, static_cast<const unsigned char *>(b) + b_off * es, b_inner, b_outer,
                b_sb ? batch : 1, ldb * es, (b_sb ? b_sb : ldb * b_outer) * es, 64, TB ? 64 : BN);
        uint32_t phases = 0; // bit s: the phase of stage s
        int count = 0;
        for (int w = blockIdx.x; w < tiles; w += gridDim.x, ++count) {
            const tma_work_t<BM, BN> t(w, M, N, K, splits, c_off, c_sb, c_slice);
            const int kt_count = (t.K + BK - 1) / BK;
            const int ba = a_sb ? t.batch : 0, bb = b_sb ? t.batch : 0;
            bool freed = count == 0; // the previous tile's epilogue is done with the stages
            for (int kt = 0; kt < kt_count; ++kt) {
                const int stage = kt % S;
                if (!freed && (stage >= free_stages || kt == kt_count - 1)) {
                    mbar_wait(done, (count - 1) & 1);
                    freed = true;
                }
                mbar_wait(empty(stage), ((phases >> stage) & 1) ^ 1);
                phases ^= 1u << stage;
                const uint32_t sa = sbase + stage * stage_bytes, sb = sa + a_bytes;
                mbar_expect(full(stage), stage_bytes);
                const int k0 = t.k_begin + kt * BK;
                if constexpr (TA) {
#pragma unroll
                    for (int i = 0; i < BM / 64; ++i)
                        tma_load3(sa + i * 64 * SW, slot, t.m0 + 64 * i, k0, ba, full(stage));
                } else {
                    tma_load3(sa, slot, k0, t.m0, ba, full(stage));
                }
                if constexpr (TB) {
#pragma unroll
                    for (int i = 0; i < BN / 64; ++i)
                        tma_load3(sb + i * 64 * SW, slot + 16, t.n0 + 64 * i, k0, bb, full(stage));
                } else {
                    tma_load3(sb, slot + 16, k0, t.n0, bb, full(stage));
                }
            }
        }
    } else {
        if constexpr (BM == 128)
            asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(consumer_regs));
        const int ctid = tid - 128, cwg = wg - 1, lane = tid % 32;
        uint32_t phases = 0; // bit s: the phase of stage s
        for (int w = blockIdx.x; w < tiles; w += gridDim.x) {
            const tma_work_t<BM, BN> t(w, M, N, K, splits, c_off, c_sb, c_slice);
            float acc[BN / 2];
#pragma unroll
            for (int i = 0; i < BN / 2; ++i)
                acc[i] = 0.f;
            const int kt_count = (t.K + BK - 1) / BK;
            int prev = -1;
            for (int kt = 0; kt < kt_count; ++kt) {
                const int stage = kt % S;
                mbar_wait(full(stage), (phases >> stage) & 1);
                phases ^= 1u << stage;
                const uint32_t sa = sbase + stage * stage_bytes;
                fence_regs<BN / 2>(acc);
                wgmma_fence();
                mma_stage<T, TA, TB, BN, BK>(acc, sa, sa + a_bytes, cwg);
                wgmma_commit();
                wgmma_wait<1>(); // the previous stage's products are done
                fence_regs<BN / 2>(acc);
                if (prev >= 0 && lane == 0) mbar_arrive(empty(prev));
                prev = stage;
            }
            wgmma_wait<0>();
            fence_regs<BN / 2>(acc);
            if (prev >= 0 && lane == 0) mbar_arrive(empty(prev));
            consumer_sync_t<NT>()(); // every consumer warpgroup is done with the stages
            epilogue_args_t e = ea;
            epilogue<T, BM, BN, EPI>(acc, smem + staging_at, c, bias, t.c_off, ldc, t.m0, t.n0, M,
                    N, c_kind, bias_kind, e, ctid, consumer_sync_t<NT>());
            // The stages' memory goes back to the copy engine: order these generic accesses
            // before its writes, then tell the producer.
            fence_proxy_async();
            mbar_arrive(done);
        }
    }
}

} // namespace

// One entry point per (type, A layout, B layout, tile config, epilogue), named as the host's
// wgmma_kernel_name gives a "tma_" configuration: anydnn_wgmma_tma_<type>_<a: k|m><b: k|n>_
// [m64_]<BN>x64s<S>[_epi] (m64_: tiles of 64 rows; the configuration's "o" form, the next
// tile's first loads during the epilogue, is the `overlap` argument of the same entry).
// Buffers first (A, B, C, bias, three scales, the maps' workspace: 256 bytes per CTA from
// word ws_off on), then the sizes (strides and offsets in elements, batch strides 0 where
// broadcast) and the epilogue's parameters. The grid is persistent: any number of CTAs of
// tma_threads(BM) threads (384; 256 for 64 rows) walks the tiles. K > 0.
#define ANYDNN_WGMMA_TMA_ENTRY(TY, KIND, TA, TB, LA, LB, BM, PRE, BN, S, EPI, SUFFIX)              \
    extern "C" __global__ void __launch_bounds__(tma_threads(BM),                                  \
            1) anydnn_wgmma_tma_##TY##_##LA##LB##_##PRE##BN##x64s##S##SUFFIX(const void *a,        \
            const void *b, void *c, const void *bias, const float *src_scale,                      \
            const float *wei_scale, const float *dst_scale, uint64_t *ws, int64_t ws_off,          \
            int64_t a_off, int64_t b_off, int64_t c_off, int64_t lda, int64_t ldb, int64_t ldc,    \
            int64_t a_sb, int64_t b_sb, int64_t c_sb, int batch, int M, int N, int K, int c_kind,  \
            int bias_kind, int splits, int64_t c_slice, int overlap, ANYDNN_EPILOGUE_PARAMS) {     \
        gemm_tma<KIND, TA, TB, BM, BN, S, EPI>(a, b, c, bias, ws, ws_off, a_off, b_off, c_off,     \
                lda, ldb, ldc, a_sb, b_sb, c_sb, batch, M, N, K, c_kind, bias_kind, splits,        \
                c_slice, overlap, ANYDNN_EPILOGUE_ARGS(src_scale, wei_scale, dst_scale));          \
    }
#define ANYDNN_WGMMA_TMA_LAYOUTS(TY, KIND, BM, PRE, BN, S, EPI, SUFFIX)                          \
    ANYDNN_WGMMA_TMA_ENTRY(TY, KIND, 0, 0, k, k, BM, PRE, BN, S, EPI, SUFFIX)                      \
    ANYDNN_WGMMA_TMA_ENTRY(TY, KIND, 0, 1, k, n, BM, PRE, BN, S, EPI, SUFFIX)                      \
    ANYDNN_WGMMA_TMA_ENTRY(TY, KIND, 1, 0, m, k, BM, PRE, BN, S, EPI, SUFFIX)                      \
    ANYDNN_WGMMA_TMA_ENTRY(TY, KIND, 1, 1, m, n, BM, PRE, BN, S, EPI, SUFFIX)
#define ANYDNN_WGMMA_TMA_CONFIG_BM(BM, PRE, BN, S)                                                 \
    ANYDNN_WGMMA_TMA_LAYOUTS(bf16, ab_bf16, BM, PRE, BN, S, false, )                               \
    ANYDNN_WGMMA_TMA_LAYOUTS(bf16, ab_bf16, BM, PRE, BN, S, true, _epi)                            \
    ANYDNN_WGMMA_TMA_LAYOUTS(f16, ab_f16, BM, PRE, BN, S, false, )                                 \
    ANYDNN_WGMMA_TMA_LAYOUTS(f16, ab_f16, BM, PRE, BN, S, true, _epi)
#define ANYDNN_WGMMA_TMA_CONFIG(BN, S) ANYDNN_WGMMA_TMA_CONFIG_BM(128, , BN, S)

// 128 x 256 tiles in 4 stages: 192 KB of shared memory, as the cp.async kernels' default
// (configurations tma_256x64s4 and tma_256x64s4o: 16-bit C leaves stages 0-1 free for the
// next tile's loads during the epilogue, f32 C and the full epilogue stage 0).
ANYDNN_WGMMA_TMA_CONFIG(256, 4)
// 128 x 128 tiles in 6 stages (192 KB): twice the tiles of 128 x 256, for products whose wide
// tiles leave compute units idle (inner product mb 256 x 4096 -> 4096: 64 tiles, K split 2),
// and more loads in flight per tile (configuration tma_128x64s6).
ANYDNN_WGMMA_TMA_CONFIG(128, 6)
// 64 x 128 tiles of one consumer warpgroup in 8 stages (192 KB): the inner product's forward
// and backward data (mb 256 x 4096 -> 4096, 128 tiles, K whole) without a slice-sum pass
// (configuration tma_m64_128x64s8).
ANYDNN_WGMMA_TMA_CONFIG_BM(64, m64_, 128, 8)
