// The GEMM on Hopper's warpgroup tensor cores (wgmma, sm_90a): bf16/f16 and tf32 (f32 data)
// with f32 sums, s8/u8 with s32 sums; shared by the kernels of wgmma_gemm.cu (matrices) and wgmma_conv.cu (implicit-GEMM
// convolution, A gathered from the source). Compiled to PTX at build time (nvcc -ptx) and
// loaded through OpenCL as a program binary, so it runs on the application's OpenCL context,
// queue and buffers.
//
// C[b](m, n) = sum_k A[b](m, k) * B[b](k, n) (+ bias(n)), batch b = blockIdx.z, C of the type
// c_kind names (c_kind_t).
// A is K-major (A(m, k) = a[m * lda + k]) or, with TA, M-major (a[m + k * lda]); B is K-major
// (B(k, n) = b[n * ldb + k]) or, with TB, N-major (b[k * ldb + n]); C is row-major. wgmma
// transposes 16-bit operands only: tf32 and 8-bit tiles are K-major (TA = TB = 0; the host
// copies other layouts K-major first).
// Shared-memory lines are 128 bytes whatever the type: BK = 64 bf16, 32 tf32 or 128 int8.
// A BM x BN block of C per CTA (BM 128, or 64 for more CTAs on small C): a warpgroup per 64
// rows. Tiles of A and B come from
// global memory by cp.async (zero fill past M, N, K) into S shared-memory stages laid out as
// wgmma's swizzled descriptors expect; the warpgroups issue wgmma on one stage while later
// stages load. wgmma_tma.cu feeds the same stages by bulk tensor copies instead (tensor maps
// encoded through the CUDA driver found at run time, pointed at the buffers in the kernel).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../../cuda/async_ordering.cuh"
#include "../eltwise.cuh"
#include "wgmma_ops.cuh"

namespace {

using namespace anydnn_ptx;

constexpr int block_m = 128; // BM of the 128-row kernels (the convolution's)
constexpr int threads = 256; // their two warpgroups

// The operand types: A's and B's types name the kind (ab_s8u8: s8 A, u8 B).
enum ab_kind_t { ab_bf16, ab_f16, ab_tf32, ab_s8s8, ab_s8u8, ab_u8s8, ab_u8u8 };
// C's type in the kernels' c_kind parameter (and the split-K sum's), and bias_kind's codes
// (0: no bias).
enum c_kind_t { c_f32 = 0, c_bf16 = 1, c_f16 = 2, c_s32 = 3, c_s8 = 4, c_u8 = 5 };
enum bias_kind_t { bias_none = 0, bias_f32 = 1, bias_bf16 = 2, bias_f16 = 3, bias_s32 = 4 };

// Per kind: the stored element, the accumulator, K of one wgmma.
template <int T>
struct ab_traits {
    static constexpr bool is_int = T >= ab_s8s8;
    static constexpr bool is_16bit = T <= ab_f16;
    static constexpr bool f16 = T == ab_f16; // for "the input type" of C and bias
    using elem_t = typename std::conditional<is_16bit, uint16_t,
            typename std::conditional<is_int, uint8_t, uint32_t>::type>::type;
    using acc_t = typename std::conditional<is_int, int, float>::type;
    static constexpr int es = sizeof(elem_t);
    static constexpr int k_step = is_16bit ? 16 : is_int ? 32 : 8;
};

// The swizzle of wgmma's SW-byte modes on a byte offset from a 1024-aligned base: the 16-byte
// piece index within a line is XORed with the line index (bits 7.. of the offset).
template <int SW>
__device__ __forceinline__ uint32_t swizzle(uint32_t off) {
    return off ^ (((off >> 7) & (SW / 16 - 1)) << 4);
}

template <int SW>
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    constexpr uint64_t mode = SW == 128 ? 1 : SW == 64 ? 2 : 3;
    return uint64_t((addr & 0x3ffff) >> 4) | (uint64_t((lbo >> 4) & 0x3fff) << 16)
            | (uint64_t((sbo >> 4) & 0x3fff) << 32) | (mode << 62);
}

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, uint32_t src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
            "r"(src_bytes));
}
// One O x I tile (I contiguous in global memory, lines ld elements apart) into shared memory at
// `base`: lines of SW bytes, I split into chunks of SW bytes that are O lines each, swizzled.
// Lines at or past o_lim and elements at or past i_lim read as zero.
template <int O, int I, int SW, int NT, class E>
__device__ __forceinline__ void load_tile(uint32_t base, const E *g, int64_t ld, int o_lim,
        int i_lim, int tid) {
    constexpr int es = sizeof(E), per = 16 / es; // elements per 16-byte piece
    constexpr int pieces = I / per, chunk = SW / es; // pieces per line; elements per chunk
    static_assert((O * pieces) % NT == 0, "the tile splits evenly over the threads");
#pragma unroll
    for (int it = 0; it < O * pieces / NT; ++it) {
        const int idx = tid + it * NT;
        const int o = idx / pieces, i = (idx % pieces) * per;
        const uint32_t off = (i / chunk) * (O * SW) + o * SW + (i % chunk) * es;
        const int left = i_lim - i;
        const uint32_t bytes = o < o_lim && left > 0 ? (left >= per ? 16 : left * es) : 0;
        cp_async16(base + swizzle<SW>(off), bytes ? g + o * ld + i : g, bytes);
    }
}

template <int T, int TA, int TB, int BN>
struct mma_t {
    using acc_t = typename ab_traits<T>::acc_t;
    static __device__ __forceinline__ void run(acc_t *d, uint64_t da, uint64_t db) {
#define ANYDNN_WGMMA_BY_N(CALL) \
    if constexpr (BN == 256) CALL(256); \
    else if constexpr (BN == 128) CALL(128); \
    else CALL(64)
#define ANYDNN_F16(N) wgmma_m64n##N##k16_f16<TA, TB>(d, da, db)
#define ANYDNN_BF16(N) wgmma_m64n##N##k16_bf16<TA, TB>(d, da, db)
#define ANYDNN_TF32(N) wgmma_m64n##N##k8_tf32(d, da, db)
#define ANYDNN_S8S8(N) wgmma_m64n##N##k32_s8s8(d, da, db)
#define ANYDNN_S8U8(N) wgmma_m64n##N##k32_s8u8(d, da, db)
#define ANYDNN_U8S8(N) wgmma_m64n##N##k32_u8s8(d, da, db)
#define ANYDNN_U8U8(N) wgmma_m64n##N##k32_u8u8(d, da, db)
        static_assert(ab_traits<T>::is_16bit || (TA == 0 && TB == 0),
                "tf32 and 8-bit wgmma read K-major tiles only");
        if constexpr (T == ab_f16) { ANYDNN_WGMMA_BY_N(ANYDNN_F16); }
        else if constexpr (T == ab_bf16) { ANYDNN_WGMMA_BY_N(ANYDNN_BF16); }
        else if constexpr (T == ab_tf32) { ANYDNN_WGMMA_BY_N(ANYDNN_TF32); }
        else if constexpr (T == ab_s8s8) { ANYDNN_WGMMA_BY_N(ANYDNN_S8S8); }
        else if constexpr (T == ab_s8u8) { ANYDNN_WGMMA_BY_N(ANYDNN_S8U8); }
        else if constexpr (T == ab_u8s8) { ANYDNN_WGMMA_BY_N(ANYDNN_U8S8); }
        else { ANYDNN_WGMMA_BY_N(ANYDNN_U8U8); }
#undef ANYDNN_F16
#undef ANYDNN_BF16
#undef ANYDNN_TF32
#undef ANYDNN_S8S8
#undef ANYDNN_S8U8
#undef ANYDNN_U8S8
#undef ANYDNN_U8U8
#undef ANYDNN_WGMMA_BY_N
    }
};

// Two floats as two 16-bit values of the input type (x in the low half).
template <bool F16>
__device__ __forceinline__ uint32_t pack16x2(float x, float y) {
    uint32_t v;
    if constexpr (F16) asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(y), "f"(x));
    else asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(y), "f"(x));
    return v;
}
template <bool F16>
__device__ __forceinline__ float unpack16(uint16_t h) {
    if constexpr (F16) {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
        return f;
    } else {
        return __uint_as_float(uint32_t(h) << 16);
    }
}

// The accumulators plus bias(n), as f32 (OutF32) or the input type, into a row-major
// BM x BN tile at `tile` (rows `pitch` bytes apart; BM 64: warpgroup 0 only). Bias: 0 none,
// 1 f32, 2 the input type. Layout of m64nNk16: thread t of warpgroup wg holds rows
// wg * 64 + (t / 32) * 16 + (t % 32) / 4 (+ 8), columns 8 j + (t % 4) * 2 (+ 1).
template <bool F16, int BN, bool OutF32, int Bias>
__device__ __forceinline__ void stage_tile(const float *acc, unsigned char *tile, int pitch,
        const void *bias, int n0, int N, int tid) {
    const int t = tid % 128;
    const int row = (tid / 128) * 64 + (t / 32) * 16 + (t % 32) / 4, col0 = (t % 4) * 2;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j) {
        const int col = col0 + 8 * j;
        float bx = 0.f, by = 0.f;
        if constexpr (Bias != 0) {
            const int n = n0 + col;
            if (Bias == 1 && n < N) bx = static_cast<const float *>(bias)[n];
            if (Bias == 1 && n + 1 < N) by = static_cast<const float *>(bias)[n + 1];
            if (Bias == 2 && n < N) bx = unpack16<F16>(static_cast<const uint16_t *>(bias)[n]);
            if (Bias == 2 && n + 1 < N) by = unpack16<F16>(static_cast<const uint16_t *>(bias)[n + 1]);
        }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float x = acc[4 * j + 2 * h] + bx, y = acc[4 * j + 2 * h + 1] + by;
            unsigned char *p = tile + (row + 8 * h) * pitch;
            if constexpr (OutF32) *reinterpret_cast<float2 *>(p + col * 4) = make_float2(x, y);
            else *reinterpret_cast<uint32_t *>(p + col * 2) = pack16x2<F16>(x, y);
        }
    }
}

// The s32 sums as they are (exact: no bias, no rounding), in stage_tile's layout (the same
// for every wgmma kind), into a row-major BM x BN tile of s32.
template <int BN>
__device__ __forceinline__ void stage_raw_s32(const int *acc, unsigned char *tile, int pitch,
        int tid) {
    const int t = tid % 128;
    const int row = (tid / 128) * 64 + (t / 32) * 16 + (t % 32) / 4, col0 = (t % 4) * 2;
#pragma unroll
    for (int j = 0; j < BN / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            *reinterpret_cast<int2 *>(tile + (row + 8 * h) * pitch + (col0 + 8 * j) * 4)
                    = make_int2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
}

// Which row of C row r of a staged tile is: m0 + r below M (the GEMMs); -1 drops the row. A
// convolution whose tile rows are not C's consecutive rows passes its own map.
struct dense_rows_t {
    __device__ __forceinline__ int64_t operator()(int m0, int r, int M) const {
        return m0 + r < M ? m0 + r : -1;
    }
};

// The staged tile to C rows m0.., columns n0..: 16 bytes per thread along rows where the
// row stays inside N and C's addresses allow it, element by element at the edges.
template <int ES, int BM, int BN, int NT, class Rows = dense_rows_t>
__device__ __forceinline__ void copy_out(const unsigned char *tile, int pitch, void *c,
        int64_t c_off, int64_t ldc, int m0, int n0, int M, int N, int tid,
        const Rows &rows = Rows()) {
    constexpr int per = 16 / ES, pieces = BN / per;
    const bool vec = c_off % per == 0 && ldc % per == 0;
    for (int idx = tid; idx < BM * pieces; idx += NT) {
        const int r = idx / pieces, n = n0 + (idx % pieces) * per;
        const int64_t m = rows(m0, r, M);
        if (m < 0 || n >= N) continue;
        const unsigned char *src = tile + r * pitch + (idx % pieces) * 16;
        unsigned char *dst = static_cast<unsigned char *>(c) + (c_off + m * ldc + n) * ES;
        if (vec && n + per <= N) {
            *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
        } else {
            for (int e = 0; e < per && n + e < N; ++e)
                for (int b = 0; b < ES; ++b)
                    dst[e * ES + b] = src[e * ES + b];
        }
    }
}

// Where a CTA's tile and K range are. CTAs run in launch order: the tiles are walked in groups
// of 8 block rows, column by column, so that the CTAs running together share their A and B
// panels in L2. Split K: blockIdx.z = batch * splits + slice; a slice sums a range of whole K
// tiles into its own f32 (s32 for integers) output (c_slice elements apart), which a second
// kernel adds up. E: the stored element.
template <class E, int TA, int TB, int BM, int BN, int BK>
struct tile_t {
    int m0, n0, K;
    int64_t batch;
    const E *a, *b; // the tile's first row or column at its first k
    int64_t c_off;

    __device__ __forceinline__ tile_t(const E *a_, const E *b_, int64_t a_off,
            int64_t b_off, int64_t c_off_, int64_t lda, int64_t ldb, int64_t a_sb, int64_t b_sb,
            int64_t c_sb, int K_, int splits, int64_t c_slice) {
        constexpr int group_m = 8;
        const int tiles_n = gridDim.x, tiles_m = gridDim.y;
        const int linear = blockIdx.y * tiles_n + blockIdx.x;
        const int first_m = linear / (group_m * tiles_n) * group_m;
        const int rows = min(tiles_m - first_m, group_m);
        const int in_group = linear % (group_m * tiles_n);
        n0 = in_group / rows * BN;
        m0 = (first_m + in_group % rows) * BM;
        batch = blockIdx.z / splits;
        const int slice = blockIdx.z % splits;
        const int k_per_slice = ((K_ + splits - 1) / splits + BK - 1) / BK * BK;
        const int k_begin = min(K_, slice * k_per_slice);
        K = min(K_ - k_begin, k_per_slice);
        a = a_ + a_off + batch * a_sb + (TA ? m0 + k_begin * lda : m0 * lda + k_begin);
        b = b_ + b_off + batch * b_sb + (TB ? n0 + k_begin * ldb : n0 * ldb + k_begin);
        c_off = c_off_ + slice * c_slice + batch * c_sb;
    }
};

// K tile kt of A and B into the stage at sa (A) and sb (B), by NT threads.
template <class E, int TA, int TB, int BM, int BN, int BK, int NT>
__device__ __forceinline__ void load_stage(uint32_t sa, uint32_t sb,
        const tile_t<E, TA, TB, BM, BN, BK> &t, int kt, int64_t lda, int64_t ldb, int M, int N,
        int tid) {
    constexpr int SW = BK * sizeof(E);
    const int k0 = kt * BK;
    if constexpr (TA) load_tile<BK, BM, SW, NT>(sa, t.a + k0 * lda, lda, t.K - k0, M - t.m0, tid);
    else load_tile<BM, BK, SW, NT>(sa, t.a + k0, lda, M - t.m0, t.K - k0, tid);
    if constexpr (TB) load_tile<BK, BN, SW, NT>(sb, t.b + k0 * ldb, ldb, t.K - k0, N - t.n0, tid);
    else load_tile<BN, BK, SW, NT>(sb, t.b + k0, ldb, N - t.n0, t.K - k0, tid);
}

// Warpgroup wg's multiplications of one stage: rows wg * 64.. of A times all of B, as one
// wgmma group (the caller commits it).
// K-major, one wgmma's K (16 bf16, 8 tf32, 32 int8) is 32 bytes of a line whatever the kind.
template <int T, int TA, int TB, int BN, int BK>
__device__ __forceinline__ void mma_stage(
        typename ab_traits<T>::acc_t *acc, uint32_t sa, uint32_t sb, int wg) {
    constexpr int es = ab_traits<T>::es, ks_n = ab_traits<T>::k_step, SW = BK * es;
    static_assert(ks_n * es == 32, "a wgmma's K is 32 bytes");
#pragma unroll
    for (int ks = 0; ks < BK / ks_n; ++ks) {
        uint64_t da, db;
        if constexpr (TA) // M-major (16-bit): chunks of SW/2 rows, BK lines each; 8-line groups SW*8 apart
            da = smem_desc<SW>(sa + (wg * 64 / (SW / 2)) * (BK * SW) + ks * 16 * SW, BK * SW,
                    8 * SW);
        else // K-major: a line per row, 8-row groups SW*8 apart
            da = smem_desc<SW>(sa + wg * 64 * SW + ks * 32, 16, 8 * SW);
        if constexpr (TB) db = smem_desc<SW>(sb + ks * 16 * SW, BK * SW, 8 * SW);
        else db = smem_desc<SW>(sb + ks * 32, 16, 8 * SW);
        mma_t<T, TA, TB, BN>::run(acc, da, db);
    }
}

// What follows the accumulation in the _epi kernels and the split-K sum, in oneDNN's order:
// v = acc * src_scale * wei_scale(n) + bias(n), then the post-ops (a sum, an eltwise, either
// first), then v / dst_scale, rounded to C's type. The host checks every parameter's kind.
struct epilogue_args_t {
    const float *src_scale, *wei_scale, *dst_scale; // null: none
    int wei_per_n; // wei_scale holds one scale per column
    int sum_at; // 0 no sum, 1 before the eltwise, 2 after it
    float sum_scale, sum_zp;
    int elt; // 0 none, 1 relu (alpha: negative slope), 2 gelu_erf, 3 gelu_tanh, 4 swish
    float alpha, beta;
    const void *bias;
    int bias_kind; // bias_kind_t
    // 8-bit kinds: common s32 zero points of src and dst (null: none) and, with src's, the
    // column sums of B for the tile's batch (s32 per n): acc - zp_src * colsum(n) is exact.
    const int *zp_src, *zp_dst, *colsum;
    int64_t colsum_sb; // batches of column sums (0: one for all)
};

struct epilogue_t {
    epilogue_args_t p;
    float ab_scale, dst_inv, dst_zp; // src scale times a common weights scale; 1 / dst scale

    __device__ __forceinline__ explicit epilogue_t(const epilogue_args_t &args) : p(args) {
        ab_scale = p.src_scale ? p.src_scale[0] : 1.f;
        if (p.wei_scale && !p.wei_per_n) ab_scale *= p.wei_scale[0];
        dst_inv = p.dst_scale ? 1.f / p.dst_scale[0] : 1.f;
        dst_zp = p.zp_dst ? float(p.zp_dst[0]) : 0.f;
    }
    // Column n's value from its f32 sum; `old` is C's value before (read only with a sum).
    __device__ __forceinline__ float apply_inline(float v, int n, float old) const {
        v *= ab_scale;
        if (p.wei_scale && p.wei_per_n) v *= p.wei_scale[n];
        if (p.bias_kind == 1) v += static_cast<const float *>(p.bias)[n];
        else if (p.bias_kind == 2) v += unpack16<false>(static_cast<const uint16_t *>(p.bias)[n]);
        else if (p.bias_kind == 3) v += unpack16<true>(static_cast<const uint16_t *>(p.bias)[n]);
        else if (p.bias_kind == 4) v += float(static_cast<const int *>(p.bias)[n]);
        if (p.sum_at == 1) v += p.sum_scale * (old - p.sum_zp);
        if (p.elt) v = gemm_eltwise(p.elt, v, p.alpha);
        if (p.sum_at == 2) v += p.sum_scale * (old - p.sum_zp);
        return v * dst_inv + dst_zp;
    }
    // The same, not inlined, for the GEMM's epilogue: one copy of the eltwise code per kernel,
    // not one per element and path (the driver compiles the PTX when a kernel is first
    // loaded: 3.3 s of ptxas inlined, 0.26 s so). The call keeps `this` in local memory, which
    // the split-K sum (one element per thread, bandwidth-bound) cannot afford: it inlines.
    __device__ __noinline__ float apply(float v, int n, float old) const {
        return apply_inline(v, n, old);
    }
};

// Element o of C, of type c_kind (c_kind_t).
__device__ __forceinline__ float load_c(const void *c, int c_kind, int64_t o) {
    switch (c_kind) {
        case c_f32: return static_cast<const float *>(c)[o];
        case c_bf16: return unpack16<false>(static_cast<const uint16_t *>(c)[o]);
        case c_f16: return unpack16<true>(static_cast<const uint16_t *>(c)[o]);
        case c_s32: return float(static_cast<const int *>(c)[o]);
        case c_s8: return float(static_cast<const signed char *>(c)[o]);
        default: return float(static_cast<const unsigned char *>(c)[o]);
    }
}
// v rounded to an integer type: to nearest even, saturated (NaN gives 0).
__device__ __forceinline__ int round_sat(float v, int c_kind) {
    const int i = __float2int_rn(v); // cvt.rni.s32.f32 saturates to the s32 range
    if (c_kind == c_s8) return max(-128, min(127, i));
    if (c_kind == c_u8) return max(0, min(255, i));
    return i;
}
__device__ __forceinline__ void store_c(void *c, int c_kind, int64_t o, float v) {
    switch (c_kind) {
        case c_f32: static_cast<float *>(c)[o] = v; break;
        case c_bf16: static_cast<uint16_t *>(c)[o] = uint16_t(pack16x2<false>(v, 0.f)); break;
        case c_f16: static_cast<uint16_t *>(c)[o] = uint16_t(pack16x2<true>(v, 0.f)); break;
        case c_s32: static_cast<int *>(c)[o] = round_sat(v, c_kind); break;
        default: static_cast<unsigned char *>(c)[o] = uint8_t(round_sat(v, c_kind)); break;
    }
}

// The staged f32 tile (rows `pitch` floats apart) through the epilogue to C rows m0..,
// columns n0..: four columns per thread and step, with 16- or 8-byte accesses where C's
// addresses allow them.
template <int BM, int BN, int NT, class Rows = dense_rows_t>
__device__ __forceinline__ void copy_out_epilogue(const float *tile, int pitch, void *c,
        int c_kind, int64_t c_off, int64_t ldc, int m0, int n0, int M, int N,
        const epilogue_t &e, int tid, const Rows &rows = Rows()) {
    constexpr int pieces = BN / 4;
#pragma unroll 1 // the epilogue's code once, not once per step
    for (int idx = tid; idx < BM * pieces; idx += NT) {
        const int r = idx / pieces, col = (idx % pieces) * 4, n = n0 + col;
        const int64_t m = rows(m0, r, M);
        if (m < 0 || n >= N) continue;
        const float4 x = *reinterpret_cast<const float4 *>(tile + r * pitch + col);
        const int64_t o = c_off + m * ldc + n;
        const bool vec = n + 4 <= N && o % 4 == 0;
        float v[4] = {x.x, x.y, x.z, x.w}, old[4] = {0.f, 0.f, 0.f, 0.f};
        if (e.p.sum_at) {
            if (vec && c_kind == 0) {
                const float4 y = *reinterpret_cast<const float4 *>(static_cast<float *>(c) + o);
                old[0] = y.x, old[1] = y.y, old[2] = y.z, old[3] = y.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i)
                    if (n + i < N) old[i] = load_c(c, c_kind, o + i);
            }
        }
#pragma unroll
        for (int i = 0; i < 4; ++i)
            if (n + i < N) v[i] = e.apply(v[i], n + i, old[i]);
        if (vec && c_kind == c_f32) {
            *reinterpret_cast<float4 *>(static_cast<float *>(c) + o)
                    = make_float4(v[0], v[1], v[2], v[3]);
        } else if (vec && c_kind == c_s32) {
            *reinterpret_cast<int4 *>(static_cast<int *>(c) + o) = make_int4(round_sat(v[0], c_kind),
                    round_sat(v[1], c_kind), round_sat(v[2], c_kind), round_sat(v[3], c_kind));
        } else if (vec && c_kind >= c_s8) {
            uint32_t q = 0;
#pragma unroll
            for (int i = 0; i < 4; ++i)
                q |= uint32_t(round_sat(v[i], c_kind) & 0xff) << (8 * i);
            *reinterpret_cast<uint32_t *>(static_cast<unsigned char *>(c) + o) = q;
        } else if (vec) {
            uint2 h;
            h.x = c_kind == 1 ? pack16x2<false>(v[0], v[1]) : pack16x2<true>(v[0], v[1]);
            h.y = c_kind == 1 ? pack16x2<false>(v[2], v[3]) : pack16x2<true>(v[2], v[3]);
            *reinterpret_cast<uint2 *>(static_cast<uint16_t *>(c) + o) = h;
        } else {
            for (int i = 0; i < 4 && n + i < N; ++i)
                store_c(c, c_kind, o + i, v[i]);
        }
    }
}

// The barrier among the threads that run the epilogue: the whole CTA by default.
struct cta_sync_t {
    __device__ __forceinline__ void operator()() const { __syncthreads(); }
};

// The accumulators to C (of type c_kind) through shared memory at smem (free by now).
// EPI: the full epilogue (epilogue_t) on the f32 sums (integer sums converted), after staging
// them unchanged. Otherwise floating-point sums get the bias (f32, or the input type for 16-bit
// kinds) and go to f32 or the 16-bit input type; integer sums go to s32 exactly (the host
// passes no bias and no other C type there). `sync` is a barrier among the 2 BM threads that
// run it (tid 0 .. 2 BM - 1). `rows` maps the tile's rows to C's (dense_rows_t).
template <int T, int BM, int BN, bool EPI, class Sync = cta_sync_t, class Rows = dense_rows_t>
__device__ __forceinline__ void epilogue(const typename ab_traits<T>::acc_t *acc,
        unsigned char *smem, void *c, const void *bias, int64_t c_off, int64_t ldc, int m0,
        int n0, int M, int N, int c_kind, int bias_kind, const epilogue_args_t &ea, int tid,
        const Sync &sync = Sync(), const Rows &rows = Rows()) {
    constexpr bool F16 = ab_traits<T>::f16;
    constexpr int NT = 2 * BM; // a warpgroup per 64 rows
    if constexpr (EPI) {
        if constexpr (ab_traits<T>::is_int) {
            // Sums less src's zero point times B's column sums, in s32 (exact), then f32.
            // Register 4 j + 2 h + e holds column (t % 4) * 2 + 8 j + e (stage_tile's layout).
            const int zps = ea.zp_src ? ea.zp_src[0] : 0;
            const int col0 = (tid % 4) * 2;
            float f[BN / 2];
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) {
                const int n = n0 + col0 + 8 * (i / 4) + i % 2;
                f[i] = float(acc[i] - (zps && n < N ? zps * ea.colsum[n] : 0));
            }
            stage_tile<F16, BN, true, 0>(f, smem, (BN + 8) * 4, nullptr, n0, N, tid);
        } else {
            stage_tile<F16, BN, true, 0>(acc, smem, (BN + 8) * 4, nullptr, n0, N, tid);
        }
        sync();
        epilogue_args_t args = ea;
        args.bias = bias;
        args.bias_kind = bias_kind;
        const epilogue_t e(args);
        copy_out_epilogue<BM, BN, NT>(reinterpret_cast<const float *>(smem), BN + 8, c, c_kind,
                c_off, ldc, m0, n0, M, N, e, tid, rows);
        return;
    }
    if constexpr (ab_traits<T>::is_int) {
        const int pitch = (BN + 8) * 4;
        stage_raw_s32<BN>(acc, smem, pitch, tid);
        sync();
        copy_out<4, BM, BN, NT>(smem, pitch, c, c_off, ldc, m0, n0, M, N, tid, rows);
        return;
    } else {
        const bool c_f32 = c_kind == 0;
        const int es = c_f32 ? 4 : 2, pitch = (BN + 8) * es; // 8 elements apart: fewer conflicts
#define ANYDNN_WGMMA_STAGE(OUT_F32, BIAS) \
    stage_tile<F16, BN, OUT_F32, BIAS>(acc, smem, pitch, bias, n0, N, tid)
        if (c_f32) {
            if (bias_kind == 0) ANYDNN_WGMMA_STAGE(true, 0);
            else if (bias_kind == 1) ANYDNN_WGMMA_STAGE(true, 1);
            else ANYDNN_WGMMA_STAGE(true, 2);
        } else {
            if (bias_kind == 0) ANYDNN_WGMMA_STAGE(false, 0);
            else if (bias_kind == 1) ANYDNN_WGMMA_STAGE(false, 1);
            else ANYDNN_WGMMA_STAGE(false, 2);
        }
#undef ANYDNN_WGMMA_STAGE
        sync();
        if (c_f32) copy_out<4, BM, BN, NT>(smem, pitch, c, c_off, ldc, m0, n0, M, N, tid, rows);
        else copy_out<2, BM, BN, NT>(smem, pitch, c, c_off, ldc, m0, n0, M, N, tid, rows);
    }
}

// A's tiles straight from the matrix (the GEMM kernels); a gathering policy (the
// convolution's) has the same shape: built once per CTA from its arguments, the start of A,
// the tile's first row and M, it loads the K-major A tile starting at column k0.
struct no_gather_t {
    static constexpr bool active = false;
    struct args_t {};
    __device__ __forceinline__ no_gather_t(const args_t &, const void *, int, int, int) {}
    template <int SW>
    __device__ __forceinline__ void load(uint32_t, int, int, int) const {}
};

// All threads (256, or 128 for BM 64) load and multiply: a barrier per K tile orders the
// two. (A warp-specialized variant, one cp.async warpgroup feeding two wgmma ones through
// mbarriers, was correct but ran at 40% of this on the H100: 128 threads cannot issue the
// copies fast enough.)
// With a Gather policy, A is K-major and the policy loads its tiles (no split, no batch).
// BM 64: one warpgroup of 128 threads (gathering policies take 128 rows only).
template <int T, int TA, int TB, int BN, int BK, int S, int P, bool EPI,
        class Gather = no_gather_t, int BM = block_m>
__device__ __forceinline__ void gemm(const typename ab_traits<T>::elem_t *__restrict__ a,
        const typename ab_traits<T>::elem_t *__restrict__ b, void *__restrict__ c,
        const void *__restrict__ bias, int64_t a_off, int64_t b_off, int64_t c_off, int64_t lda,
        int64_t ldb, int64_t ldc, int64_t a_sb, int64_t b_sb, int64_t c_sb, int M, int N, int K,
        int c_kind, int bias_kind, int splits, int64_t c_slice, const epilogue_args_t &ea,
        const typename Gather::args_t &gather_args = {}) {
    using elem_t = typename ab_traits<T>::elem_t;
    using acc_t = typename ab_traits<T>::acc_t;
    constexpr int es = sizeof(elem_t), SW = BK * es;
    static_assert(SW == 128, "128-byte lines: wgmma's 128-byte swizzle");
    constexpr int NT = 2 * BM; // a warpgroup per 64 rows
    constexpr int stage_bytes = (BM + BN) * SW, a_bytes = BM * SW;
    static_assert(BM == 128 || (BM == 64 && !Gather::active), "128 rows, or 64 ungathered");
    static_assert(S >= 2 + P, "the stage being loaded is neither read nor in flight");
    static_assert(BM * (BN + 8) * 4 <= S * stage_bytes, "the f32 tile fits the stages");
    __shared__ __align__(1024) unsigned char smem[S * stage_bytes];

    const int tid = threadIdx.x, wg = tid / 128;
    const tile_t<elem_t, TA, TB, BM, BN, BK> t(
            a, b, a_off, b_off, c_off, lda, ldb, a_sb, b_sb, c_sb, K, splits, c_slice);
    const uint32_t sbase = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const Gather gather(gather_args, t.a, t.m0, M, tid);
    auto load = [&](int kt) {
        const uint32_t sa = sbase + (kt % S) * stage_bytes;
        if constexpr (Gather::active) {
            static_assert(TA == 0 && TB == 0, "gathered A is K-major; B is K-major");
            const int k0 = kt * BK;
            gather.template load<SW>(sa, k0, t.K, tid);
            load_tile<BN, BK, SW, NT>(sa + a_bytes, t.b + k0, ldb, N - t.n0, t.K - k0, tid);
        } else {
            load_stage<elem_t, TA, TB, BM, BN, BK, NT>(
                    sa, sa + a_bytes, t, kt, lda, ldb, M, N, tid);
        }
    };

    acc_t acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i)
        acc[i] = 0;

    // `ahead` tiles load while one is multiplied and P more multiplications are in flight.
    constexpr int ahead = S - 1 - P;
    const int kt_count = (t.K + BK - 1) / BK;
    for (int kt = 0; kt < ahead; ++kt) {
        if (kt < kt_count) load(kt);
        cp_async_commit();
    }
    for (int kt = 0; kt < kt_count; ++kt) {
        cp_async_wait<ahead - 1>(); // this thread's pieces of tile kt are in
        fence_proxy_async(); // ... and visible to the tensor cores
        __syncthreads(); // everyone's pieces; tile kt - 1 - P is no longer read
        const uint32_t sa = sbase + (kt % S) * stage_bytes;
        fence_regs<BN / 2>(acc);
        wgmma_fence();
        mma_stage<T, TA, TB, BN, BK>(acc, sa, sa + a_bytes, wg);
        wgmma_commit();
        // The tensor cores are busy now: load tile kt + ahead into the stage of tile
        // kt - 1 - P, whose multiplications every warpgroup finished before the barrier.
        if (kt + ahead < kt_count) load(kt + ahead);
        cp_async_commit();
        wgmma_wait<P>();
        fence_regs<BN / 2>(acc);
    }
    wgmma_wait<0>();
    fence_regs<BN / 2>(acc);
    __syncthreads(); // every warpgroup's multiplications are done with the stages
    epilogue_args_t e = ea;
    if (e.colsum) e.colsum += t.batch * e.colsum_sb;
    epilogue<T, BM, BN, EPI>(
            acc, smem, c, bias, t.c_off, ldc, t.m0, t.n0, M, N, c_kind, bias_kind, e, tid);
}

} // namespace

// The epilogue's parameters, the same in every kernel (after the buffers and sizes).
#define ANYDNN_EPILOGUE_PARAMS \
    int wei_per_n, int sum_at, float sum_scale, float sum_zp, int elt, float alpha, float beta
#define ANYDNN_EPILOGUE_ARGS(SRC_SCALE, WEI_SCALE, DST_SCALE) \
    epilogue_args_t { \
        SRC_SCALE, WEI_SCALE, DST_SCALE, wei_per_n, sum_at, sum_scale, sum_zp, elt, alpha, \
                beta, nullptr, 0, nullptr, nullptr, nullptr, 0 \
    }
