// Flash attention forward on tensor cores (mma.sync m16n8k16, bf16 or f16 in, f32 accumulate):
// dst = softmax(Q K^T * scale [+ mask | causal]) V with an online softmax, scores never leave
// registers. Compiled to sm_80 PTX at build time and loaded through OpenCL (runs on Ampere and
// Hopper). Each CTA takes BM query rows of one batch entry, one warp per 16 rows; K and V
// stream through shared memory in blocks of BN keys by cp.async (V's load overlaps Q K^T, the
// next K's overlaps P V); causal masks skip the key blocks they hide. Q, K, V rows must be
// contiguous along the head dimension, their strides multiples of 8 elements (16-byte pieces).
#include <cstdint>

namespace {

// Mirrors gpu::sdpa_args_t (src/gpu/sdpa/sdpa.hpp) field for field.
constexpr int batch_dims = 4;
struct sdpa_args_t {
    int64_t batch[batch_dims];
    int64_t q_b[batch_dims], k_b[batch_dims], v_b[batch_dims], dst_b[batch_dims],
            mask_b[batch_dims];
    int64_t q_off, k_off, v_off, dst_off, mask_off;
    int64_t q_row, q_col;
    int64_t k_key, k_col;
    int64_t v_key, v_col;
    int64_t dst_row, dst_col;
    int64_t mask_row, mask_col;
    int64_t Sq, Sk;
};

// flags: which optional parts a launch has (gpu/sdpa/flash.cpp sets them).
constexpr int has_scale_flag = 1, divide_flag = 2, has_mask_flag = 4, dst_f32_flag = 8;
constexpr int causal_top_left = 16, causal_bottom_right = 32;
// Types of the scale and the mask (two bits each, at these shifts): 0 f32, 1 bf16, 2 f16.
constexpr int scale_type_shift = 8, mask_type_shift = 10;

constexpr float log2e = 1.4426950408889634f;

__device__ __forceinline__ float bf16_to_f32(uint16_t h) {
    return __uint_as_float(uint32_t(h) << 16);
}
__device__ __forceinline__ float f16_to_f32(uint16_t h) {
    float f;
    asm("{ .reg .f16 t; mov.b16 t, %1; cvt.f32.f16 %0, t; }" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ float load_any(const void *p, int64_t i, int type) {
    if (type == 0) return static_cast<const float *>(p)[i];
    const uint16_t h = static_cast<const uint16_t *>(p)[i];
    return type == 1 ? bf16_to_f32(h) : f16_to_f32(h);
}

// Two f32 packed into one register of two 16-bit values (round to nearest even).
template <bool F16>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
    uint32_t r;
    if (F16)
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    else
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

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

__device__ __forceinline__ void ldmatrix_x4(uint32_t *r, uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t *r, uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, bool valid) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
            "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ uint32_t smem_addr(const void *p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
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
        void *dst, const void *scale_p, const void *mask, const sdpa_args_t &a, int flags) {
    constexpr int BM = WARPS * 16, THREADS = WARPS * 32, LD = D + 8;
    static_assert(BM <= 2 * BN, "Q's tile shares the K and V tiles' memory");
    __shared__ __align__(128) uint16_t smem[2 * BN * LD];
    uint16_t *sK = smem, *sV = smem + BN * LD, *sQ = smem;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4; // mma fragment row group and column pair
    // Heavier (causal: later) row blocks first, so the last wave is the light one.
    const int64_t m0 = int64_t(gridDim.x - 1 - blockIdx.x) * BM;

    int64_t qo = a.q_off, ko = a.k_off, vo = a.v_off, dso = a.dst_off, mo = a.mask_off;
    int64_t b = blockIdx.y;
    for (int i = batch_dims - 1; i >= 0; --i) {
        const int64_t idx = b % a.batch[i];
        b /= a.batch[i];
        qo += idx * a.q_b[i];
        ko += idx * a.k_b[i];
        vo += idx * a.v_b[i];
        dso += idx * a.dst_b[i];
        mo += idx * a.mask_b[i];
    }
    q += qo;
    k += ko;
    v += vo;

    float scale = 1.f;
    if (flags & has_scale_flag) {
        scale = load_any(scale_p, 0, (flags >> scale_type_shift) & 3);
        if (flags & divide_flag) scale = 1.f / scale;
    }
    const float scale_log2 = scale * log2e;
    const bool has_mask = flags & has_mask_flag;
    const int mask_type = (flags >> mask_type_shift) & 3;
    // Key j is visible from query i when j <= i + diag (causal masks only).
    const bool causal = flags & (causal_top_left | causal_bottom_right);
    const int64_t diag = (flags & causal_bottom_right) ? a.Sk - a.Sq : 0;
    int64_t key_end = a.Sk;
    if (causal) key_end = min(key_end, max(m0 + BM + diag, int64_t(0)));
    const int nblocks = int((key_end + BN - 1) / BN);

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

        // Scores in log2 units: exp2 on the special function unit.
        const bool edge = n0 + BN > a.Sk || (causal && n0 + BN - 1 > m0 + diag + warp * 16);
#pragma unroll
        for (int j = 0; j < BN / 8; ++j) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int64_t row = row_lo + (e / 2) * 8, key = n0 + j * 8 + 2 * t + (e % 2);
                float x;
                if (has_mask) {
                    const int64_t r = min(row, a.Sq - 1), c = min(key, a.Sk - 1);
                    x = (s[j][e] * scale
                                + load_any(mask, mo + r * a.mask_row + c * a.mask_col, mask_type))
                            * log2e;
                } else {
                    x = s[j][e] * scale_log2;
                }
                if (edge && (key >= a.Sk || (causal && key > row + diag))) x = -INFINITY;
                s[j][e] = x;
            }
        }
        float scale_o[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float mx = row_max[h];
#pragma unroll
            for (int j = 0; j < BN / 8; ++j)
                mx = fmaxf(mx, fmaxf(s[j][2 * h], s[j][2 * h + 1]));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            // A row with every key so far hidden keeps max -inf: exponentiate against 0.
            const float base = mx == -INFINITY ? 0.f : mx;
            scale_o[h] = exp2f(row_max[h] - base);
            row_max[h] = mx;
            float sum = 0.f;
#pragma unroll
            for (int j = 0; j < BN / 8; ++j) {
                s[j][2 * h] = exp2f(s[j][2 * h] - base);
                s[j][2 * h + 1] = exp2f(s[j][2 * h + 1] - base);
                sum += s[j][2 * h] + s[j][2 * h + 1];
            }
            row_sum[h] = row_sum[h] * scale_o[h] + sum; // quad-partial; summed at the end
        }
#pragma unroll
        for (int i = 0; i < D / 8; ++i) {
            o[i][0] *= scale_o[0];
            o[i][1] *= scale_o[0];
            o[i][2] *= scale_o[1];
            o[i][3] *= scale_o[1];
        }

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

    const bool dst_f32 = flags & dst_f32_flag;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = row_sum[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        const int64_t row = row_lo + h * 8;
        if (row >= a.Sq) continue;
        // Every key hidden: 0 / 0, as the softmax of a row of -inf gives.
        const float inv = 1.f / sum;
#pragma unroll
        for (int i = 0; i < D / 8; ++i) {
            const float x0 = o[i][2 * h] * inv, x1 = o[i][2 * h + 1] * inv;
            const int64_t off = dso + row * a.dst_row + (i * 8 + 2 * t) * a.dst_col;
            if (dst_f32) {
                float *d = static_cast<float *>(dst);
                d[off] = x0;
                d[off + a.dst_col] = x1;
            } else if (a.dst_col == 1 && off % 2 == 0) {
                *reinterpret_cast<uint32_t *>(static_cast<uint16_t *>(dst) + off) = pack2<F16>(x0, x1);
            } else {
                const uint32_t p = pack2<F16>(x0, x1);
                static_cast<uint16_t *>(dst)[off] = uint16_t(p & 0xffff);
                static_cast<uint16_t *>(dst)[off + a.dst_col] = uint16_t(p >> 16);
            }
        }
    }
}

} // namespace

// One entry per type and head size; the first seven parameters are buffers (embed_ptx.py).
// stats is reserved for the softmax statistics of a training forward (null today).
#define ANYDNN_FLASH_ENTRY(TY, F16, D, WARPS, BN) \
    extern "C" __global__ void __launch_bounds__(WARPS * 32, 1) \
            anydnn_flash_sdpa_##TY##_d##D(const uint16_t *q, const uint16_t *k, \
                    const uint16_t *v, void *dst, const void *scale, const void *mask, \
                    float *stats, sdpa_args_t args, int flags) { \
        flash_fwd<F16, D, WARPS, BN>(q, k, v, dst, scale, mask, args, flags); \
    }

#define ANYDNN_FLASH_TYPE(TY, F16) \
    ANYDNN_FLASH_ENTRY(TY, F16, 64, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 80, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 96, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 128, 8, 64) \
    ANYDNN_FLASH_ENTRY(TY, F16, 256, 4, 32)

ANYDNN_FLASH_TYPE(bf16, false)
ANYDNN_FLASH_TYPE(f16, true)
