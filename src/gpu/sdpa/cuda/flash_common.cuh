// What the flash attention kernels (flash_attention*.cu) share: the launch arguments (as
// gpu::sdpa_args_t and gpu/sdpa/flash.cpp's flags), conversions, cp.async and ldmatrix, the
// online softmax of one block of scores in mma fragment layout and the final store.
#pragma once

#include <cstdint>

#include "../../cuda/async_ordering.cuh"

namespace anydnn_flash {

using namespace anydnn_ptx;

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
    int64_t stats_b[batch_dims], stats_off, stats_row;
};

// flags: which optional parts a launch has (gpu/sdpa/flash.cpp sets them).
constexpr int has_scale_flag = 1, divide_flag = 2, has_mask_flag = 4, dst_f32_flag = 8;
constexpr int causal_top_left = 16, causal_bottom_right = 32;
// Bottom-right offset by the graph's key and query lengths (two s32 buffers) instead of Sk - Sq.
constexpr int causal_lengths_flag = 64;
// Types of the scale and the mask (two bits each, at these shifts): 0 f32, 1 bf16, 2 f16.
constexpr int scale_type_shift = 8, mask_type_shift = 10;

constexpr float log2e = 1.4426950408889634f, ln2 = 0.6931471805599453f;

__device__ __forceinline__ float bf16_to_f32(uint16_t h) {
    return __uint_as_float(uint32_t(h) << 16);
}
__device__ __forceinline__ float f16_to_f32(uint16_t h) {
    float f;
    asm("{ .reg .f16 t; mov.b16 t, %1; cvt.f32.f16 %0, t; }" : "=f"(f) : "h"(h));
    return f;
}
// 2^x on the special function unit, subnormal results flushed (they do not move a softmax).
__device__ __forceinline__ float exp2_ftz(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
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
__device__ __forceinline__ uint32_t smem_addr(const void *p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Offsets of batch entry `b` (blockIdx.y) into Q, K, V, dst and mask, in elements.
struct batch_offsets_t {
    int64_t q, k, v, dst, mask;
    __device__ __forceinline__ batch_offsets_t(const sdpa_args_t &a, int64_t b) {
        q = a.q_off, k = a.k_off, v = a.v_off, dst = a.dst_off, mask = a.mask_off;
        for (int i = batch_dims - 1; i >= 0; --i) {
            const int64_t idx = b % a.batch[i];
            b /= a.batch[i];
            q += idx * a.q_b[i];
            k += idx * a.k_b[i];
            v += idx * a.v_b[i];
            dst += idx * a.dst_b[i];
            mask += idx * a.mask_b[i];
        }
    }
};

// What a launch's flags and arguments say about the scores: scale (as multiplier), mask,
// causal diagonal, and the keys a block of query rows m0 .. m0 + rows - 1 can see.
struct score_rules_t {
    float scale, scale_log2;
    bool has_mask, causal;
    int mask_type;
    int64_t diag; // key j is seen from row i when j <= i + diag (causal only)
    __device__ __forceinline__ score_rules_t(const sdpa_args_t &a, const void *scale_p, int flags,
            const int *kv_len, const int *q_len) {
        scale = 1.f;
        if (flags & has_scale_flag) {
            scale = load_any(scale_p, 0, (flags >> scale_type_shift) & 3);
            if (flags & divide_flag) scale = 1.f / scale;
        }
        scale_log2 = scale * log2e;
        has_mask = flags & has_mask_flag;
        mask_type = (flags >> mask_type_shift) & 3;
        causal = flags & (causal_top_left | causal_bottom_right);
        diag = (flags & causal_lengths_flag) ? int64_t(kv_len[0]) - q_len[0]
                : (flags & causal_bottom_right) ? a.Sk - a.Sq
                                                : 0;
    }
    // Keys [0, end) hold every key rows m0 .. m0 + rows - 1 see.
    __device__ __forceinline__ int64_t key_end(const sdpa_args_t &a, int64_t m0, int rows) const {
        return causal ? min(a.Sk, max(m0 + rows + diag, int64_t(0))) : a.Sk;
    }
};

// The running max, the factor o takes (scale_o) and the quad-partial sum of rows row_lo
// (h 0) and row_lo + 8 (h 1) updated by one block, its scores turned into unnormalised
// probabilities. FOLD: the scores are raw Q K^T and `mul` (the scale in log2 units, > 0) is
// folded into the exponent, one FFMA per score; else they are already in log2 units (mul 1).
template <int NJ, bool FOLD>
__device__ __forceinline__ void softmax_rows(float (*s)[4], float *scale_o, float *row_max,
        float *row_sum, float mul) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float mx = FOLD ? -INFINITY : row_max[h];
#pragma unroll
        for (int j = 0; j < NJ; ++j)
            mx = fmaxf(mx, fmaxf(s[j][2 * h], s[j][2 * h + 1]));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        if (FOLD) mx = fmaxf(row_max[h], mx * mul); // a positive factor keeps the order
        // A row with every key so far hidden keeps max -inf: exponentiate against 0.
        const float base = mx == -INFINITY ? 0.f : mx;
        scale_o[h] = exp2_ftz(row_max[h] - base);
        row_max[h] = mx;
        float sum = 0.f;
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
#pragma unroll
            for (int e = 2 * h; e < 2 * h + 2; ++e) {
                s[j][e] = exp2_ftz(FOLD ? fmaf(s[j][e], mul, -base) : s[j][e] - base);
                sum += s[j][e];
            }
        }
        row_sum[h] = row_sum[h] * scale_o[h] + sum; // quad-partial; summed at the end
    }
}

// One block of scores in mma fragment layout (s[j][e]: n-chunk j of 8 keys from n0; rows
// row_lo (e < 2) and row_lo + 8, keys n0 + 8 j + 2 t + e % 2) turned into unnormalised
// probabilities, the running max and (quad-partial) sum updated and o rescaled
// (softmax_block). `edge`: the block holds keys past Sk or past some row's causal diagonal.
// softmax_scores leaves o alone and gives the factors (rows row_lo, row_lo + 8) that o takes
// (rescale_o) before this block's P V adds to it: the pipelined wgmma kernel applies them
// only once the previous block's P V, still running, has added to o.
template <int NJ>
__device__ __forceinline__ void softmax_scores(float (*s)[4], float *scale_o, float *row_max,
        float *row_sum, const score_rules_t &r, const sdpa_args_t &a, const void *mask,
        int64_t mo, int64_t row_lo, int64_t n0, int t, bool edge) {
    if (r.has_mask || edge) {
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int64_t row = row_lo + (e / 2) * 8, key = n0 + j * 8 + 2 * t + (e % 2);
                float x;
                if (r.has_mask) {
                    const int64_t mr = min(row, a.Sq - 1), mc = min(key, a.Sk - 1);
                    x = (s[j][e] * r.scale
                                + load_any(mask, mo + mr * a.mask_row + mc * a.mask_col,
                                        r.mask_type))
                            * log2e;
                } else {
                    x = s[j][e] * r.scale_log2;
                }
                if (edge && (key >= a.Sk || (r.causal && key > row + r.diag))) x = -INFINITY;
                s[j][e] = x;
            }
        }
        softmax_rows<NJ, false>(s, scale_o, row_max, row_sum, 1.f);
    } else if (r.scale_log2 > 0.f) { // the common block: no mask, no branch per score
        softmax_rows<NJ, true>(s, scale_o, row_max, row_sum, r.scale_log2);
    } else { // a scale of zero or below: scaled first, as it reverses the order
#pragma unroll
        for (int j = 0; j < NJ; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                s[j][e] *= r.scale_log2;
        softmax_rows<NJ, false>(s, scale_o, row_max, row_sum, 1.f);
    }
}

// Skipped where no row of the warp has a new max (every factor exactly 1), as happens on most
// blocks of a long row once its max has settled.
template <int NO>
__device__ __forceinline__ void rescale_o(float (*o)[4], const float *scale_o) {
    if (__all_sync(0xffffffffu, scale_o[0] == 1.f && scale_o[1] == 1.f)) return;
#pragma unroll
    for (int i = 0; i < NO; ++i) {
        o[i][0] *= scale_o[0];
        o[i][1] *= scale_o[0];
        o[i][2] *= scale_o[1];
        o[i][3] *= scale_o[1];
    }
}

template <int NJ, int NO>
__device__ __forceinline__ void softmax_block(float (*s)[4], float (*o)[4], float *row_max,
        float *row_sum, const score_rules_t &r, const sdpa_args_t &a, const void *mask,
        int64_t mo, int64_t row_lo, int64_t n0, int t, bool edge) {
    float scale_o[2];
    softmax_scores<NJ>(s, scale_o, row_max, row_sum, r, a, mask, mo, row_lo, n0, t, edge);
    rescale_o<NO>(o, scale_o);
}

// o (fragment layout, NO chunks of 8 columns) divided by the row sums into dst rows row_lo
// and row_lo + 8 (those below Sq), in dst's type: f32 or the input type.
template <bool F16, int NO>
__device__ __forceinline__ void store_rows(const float (*o)[4], const float *row_sum, void *dst,
        int64_t dso, const sdpa_args_t &a, int64_t row_lo, int t, bool dst_f32) {
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
        for (int i = 0; i < NO; ++i) {
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

// Offset of batch entry `b` into the statistics, computed at the kernel's tail only (not a
// register held across the key loop, as batch_offsets_t's are).
__device__ __forceinline__ int64_t stats_offset(const sdpa_args_t &a, int64_t b) {
    int64_t so = a.stats_off;
    for (int i = batch_dims - 1; i >= 0; --i) {
        so += (b % a.batch[i]) * a.stats_b[i];
        b /= a.batch[i];
    }
    return so;
}

// The training forward's softmax statistic of `row` (stats null: none asked): ln(sum_j
// exp(x_j)) of its scaled, masked scores x, as SoftMax's second output defines it (max +
// ln(sum exp(x - max))), from the running max in log2 units and the row's sum of
// exp2(x log2e - max), split over LANES lanes (xor 1 .. LANES / 2 apart; the lane `writer`
// stores); so: stats_offset. Every key hidden: -inf + log2(0) = -inf. Every lane of the warp
// calls it.
template <int LANES>
__device__ __forceinline__ void store_stat(float *stats, int64_t so, const sdpa_args_t &a,
        int64_t row, float max_log2, float partial_sum, bool writer) {
    if (!stats) return; // the same for the whole launch
    float sum = partial_sum;
#pragma unroll
    for (int m = 1; m < LANES; m *= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (writer && row < a.Sq) stats[so + row * a.stats_row] = (max_log2 + log2f(sum)) * ln2;
}

// store_stat for rows row_lo and row_lo + 8 of the mma fragment layout (quads share a row).
__device__ __forceinline__ void store_stats_rows(float *stats, int64_t so, const sdpa_args_t &a,
        int64_t row_lo, int t, const float *row_max, const float *row_sum) {
#pragma unroll
    for (int h = 0; h < 2; ++h)
        store_stat<4>(stats, so, a, row_lo + 8 * h, row_max[h], row_sum[h], t == 0);
}

} // namespace anydnn_flash
