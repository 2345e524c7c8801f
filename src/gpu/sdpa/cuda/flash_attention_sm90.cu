// Flash attention forward on Hopper's warpgroup tensor cores (wgmma, sm_90a PTX), bf16 or f16
// in, f32 accumulate, head sizes 64 and 128: the algorithm and the score handling of
// flash_attention.cu, with S = Q K^T and O += P V as wgmma with the A operand (Q, then P) in
// registers and K / V read from shared memory through descriptors. A CTA is one warpgroup
// (64 query rows, 16 per warp: wgmma's accumulator rows are mma.sync's, so the softmax and
// the store are shared); K and V tiles of 64 keys come by cp.async into 128-byte-swizzled
// lines (chunks of 64 elements), V's load overlapping Q K^T and the next K's P V; two or
// three CTAs per SM. Q, K, V rows contiguous along the head, 16-byte aligned.
// Not dispatched unless ANYDNN_SDPA_FLASH_WGMMA=1: on the H200 (driver 580.159) its first case
// of graph_ocl_sdpa_causal_t.flash_variants_match_reference (bf16, head size 64, no mask,
// 203 x 203) came out wrong (0.029 for 0.097), so an operand layout here (the register A
// fragments or a descriptor) is not what the hardware reads; the mma.sync kernel runs instead.
#include "flash_common.cuh"

namespace {

using namespace anydnn_flash;

constexpr int BM = 64, BN = 64, THREADS = 128, SW = 128; // swizzle: 128-byte lines

template <int TB>
__device__ __forceinline__ void wgmma_rs_m64n64k16_bf16(float *d, const uint32_t *a, uint64_t desc_b) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, 1, 1, 1, %37;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "n"(TB));
}

template <int TB>
__device__ __forceinline__ void wgmma_rs_m64n64k16_f16(float *d, const uint32_t *a, uint64_t desc_b) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, 1, 1, 1, %37;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "n"(TB));
}

template <int TB>
__device__ __forceinline__ void wgmma_rs_m64n128k16_bf16(float *d, const uint32_t *a, uint64_t desc_b) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, 1, 1, 1, %69;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "n"(TB));
}

template <int TB>
__device__ __forceinline__ void wgmma_rs_m64n128k16_f16(float *d, const uint32_t *a, uint64_t desc_b) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, 1, 1, 1, %69;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "n"(TB));
}


template <bool F16, int N, int TB>
__device__ __forceinline__ void wgmma_rs(float *d, const uint32_t *a, uint64_t desc_b) {
    if constexpr (N == 64) {
        if constexpr (F16) wgmma_rs_m64n64k16_f16<TB>(d, a, desc_b);
        else wgmma_rs_m64n64k16_bf16<TB>(d, a, desc_b);
    } else {
        if constexpr (F16) wgmma_rs_m64n128k16_f16<TB>(d, a, desc_b);
        else wgmma_rs_m64n128k16_bf16<TB>(d, a, desc_b);
    }
}

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_wait_all() {
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Keeps the compiler from moving accumulator reads or writes across wgmma's asynchronous use.
template <int R>
__device__ __forceinline__ void fence_regs(float *d) {
#pragma unroll
    for (int i = 0; i < R; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

// 128-byte swizzle of a byte offset from a 1024-aligned base: the 16-byte piece index within
// a line XORed with the line index.
__device__ __forceinline__ uint32_t swizzle(uint32_t off) {
    return off ^ (((off >> 7) & 7) << 4);
}
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return uint64_t((addr & 0x3ffff) >> 4) | (uint64_t((lbo >> 4) & 0x3fff) << 16)
            | (uint64_t((sbo >> 4) & 0x3fff) << 32) | (uint64_t(1) << 62);
}

// BN rows (keys from row0, valid below n; rows `ld` apart) of D elements into the tile at
// `base`: chunks of 64 elements, each BN lines of 128 bytes, swizzled; missing rows zero.
template <int D>
__device__ __forceinline__ void load_swizzled(uint32_t base, const uint16_t *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
    constexpr int pieces = D / 8;
#pragma unroll
    for (int c = tid; c < BN * pieces; c += THREADS) {
        const int o = c / pieces, i = (c % pieces) * 8;
        const uint32_t off = (i / 64) * (BN * SW) + o * SW + (i % 64) * 2;
        const bool valid = row0 + o < n;
        cp_async16(base + swizzle(off), g + (valid ? (row0 + o) * ld + i : 0), valid);
    }
}

// Q's rows m0.. (padded lines of LD elements) for ldmatrix into A fragments.
template <int D, int LD>
__device__ __forceinline__ void load_q(uint16_t *s, const uint16_t *g, int64_t ld, int64_t m0,
        int64_t n, int tid) {
    constexpr int pieces = D / 8;
#pragma unroll
    for (int c = tid; c < BM * pieces; c += THREADS) {
        const int r = c / pieces, p = c % pieces;
        const bool valid = m0 + r < n;
        cp_async16(smem_addr(s + r * LD + p * 8), g + (valid ? (m0 + r) * ld : 0) + p * 8, valid);
    }
}

template <bool F16, int D>
__device__ __forceinline__ void flash_fwd_sm90(const uint16_t *q, const uint16_t *k,
        const uint16_t *v, void *dst, const void *scale_p, const void *mask, const sdpa_args_t &a,
        int flags) {
    constexpr int tile = BN * D * 2, LD = D + 8;
    static_assert(BM * LD * 2 <= 2 * tile, "Q's staging fits the K and V tiles");
    __shared__ __align__(1024) uint16_t smem[2 * tile / 2];
    const uint32_t sK = smem_addr(smem), sV = sK + tile;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int64_t m0 = int64_t(gridDim.x - 1 - blockIdx.x) * BM;
    const batch_offsets_t off(a, blockIdx.y);
    q += off.q;
    k += off.k;
    v += off.v;
    const score_rules_t rules(a, scale_p, flags);
    const int nblocks = int((rules.key_end(a, m0, BM) + BN - 1) / BN);

    load_q<D, LD>(smem, q, a.q_row, m0, a.Sq, tid);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();
    uint32_t qf[D / 16][4];
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        ldmatrix_x4(qf[kk], smem_addr(smem + (warp * 16 + lane % 16) * LD + kk * 16 + (lane / 16) * 8));
    __syncthreads();
    if (nblocks > 0) load_swizzled<D>(sK, k, a.k_key, 0, a.Sk, tid);
    cp_async_commit();

    float o[D / 8][4];
#pragma unroll
    for (int i = 0; i < D / 8; ++i)
        o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
    float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0.f, 0.f};
    const int64_t row_lo = m0 + warp * 16 + g;

    for (int jb = 0; jb < nblocks; ++jb) {
        const int64_t n0 = int64_t(jb) * BN;
        load_swizzled<D>(sV, v, a.v_key, n0, a.Sk, tid);
        cp_async_commit();
        cp_async_wait<1>(); // this thread's pieces of K are in
        fence_proxy_async(); // ... and visible to the tensor cores
        __syncthreads();

        float s[BN / 8][4];
#pragma unroll
        for (int j = 0; j < BN / 8; ++j)
            s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
        fence_regs<BN / 2>(&s[0][0]);
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < D / 16; ++ks) // K-major K: 32 bytes per k16, chunks of 64
            wgmma_rs<F16, BN, 0>(&s[0][0], qf[ks],
                    smem_desc(sK + (ks / 4) * (BN * SW) + (ks % 4) * 32, 16, 8 * SW));
        wgmma_commit();
        wgmma_wait_all();
        fence_regs<BN / 2>(&s[0][0]);

        const bool edge = n0 + BN > a.Sk || (rules.causal && n0 + BN - 1 > m0 + rules.diag + warp * 16);
        softmax_block<BN / 8, D / 8>(s, o, row_max, row_sum, rules, a, mask, off.mask, row_lo, n0, t, edge);
        uint32_t pf[BN / 16][4];
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            pf[kk][0] = pack2<F16>(s[2 * kk][0], s[2 * kk][1]);
            pf[kk][1] = pack2<F16>(s[2 * kk][2], s[2 * kk][3]);
            pf[kk][2] = pack2<F16>(s[2 * kk + 1][0], s[2 * kk + 1][1]);
            pf[kk][3] = pack2<F16>(s[2 * kk + 1][2], s[2 * kk + 1][3]);
        }

        cp_async_wait<0>(); // V is in; every warp is past its reads of K
        fence_proxy_async();
        __syncthreads();
        if (jb + 1 < nblocks) load_swizzled<D>(sK, k, a.k_key, n0 + BN, a.Sk, tid);
        cp_async_commit();

        fence_regs<D / 2>(&o[0][0]);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) // N-major V: 16 key lines per k16, chunks 64 wide
            wgmma_rs<F16, D, 1>(&o[0][0], pf[kk], smem_desc(sV + kk * 16 * SW, BN * SW, 8 * SW));
        wgmma_commit();
        wgmma_wait_all();
        fence_regs<D / 2>(&o[0][0]);
        __syncthreads(); // V's tile is free for the next block
    }
    cp_async_wait<0>();
    store_rows<F16, D / 8>(o, row_sum, dst, off.dst, a, row_lo, t, flags & dst_f32_flag);
}

} // namespace

// One entry per type and head size; the first seven parameters are buffers (embed_ptx.py).
#define ANYDNN_FLASH_SM90_ENTRY(TY, F16, D) \
    extern "C" __global__ void __launch_bounds__(THREADS, D == 128 ? 2 : 3) anydnn_flash_sdpa_##TY##_d##D##_sm90( \
            const uint16_t *q, const uint16_t *k, const uint16_t *v, void *dst, const void *scale, \
            const void *mask, float *stats, sdpa_args_t args, int flags) { \
        flash_fwd_sm90<F16, D>(q, k, v, dst, scale, mask, args, flags); \
    }

ANYDNN_FLASH_SM90_ENTRY(bf16, false, 64)
ANYDNN_FLASH_SM90_ENTRY(bf16, false, 128)
ANYDNN_FLASH_SM90_ENTRY(f16, true, 64)
ANYDNN_FLASH_SM90_ENTRY(f16, true, 128)
