// The flash attention forward in f32 on the FMA units (no TF32: strict f32), head sizes 64, 80,
// 96, 128 and 256: dst = softmax(Q K^T * scale [+ mask | causal]) V with an online softmax.
// Compiled to PTX at build time and loaded through OpenCL. A CTA of 128 threads takes 64 query
// rows of one batch entry; each thread owns 4 rows x BK/8 keys of a key block's scores and
// 4 rows x D/8 columns of the output (pieces of 4 columns, of 2 where D is no multiple of 32),
// so the row statistics are a shuffle among 8 lanes of a warp. Q^T, K^T and V live in shared
// memory: at head sizes up to 128 blocks of 64 keys, P^T in K^T's place (48 KiB at 64, three
// CTAs per SM hiding each other's loads, flash_attention_f32.cu, sm_80 PTX; 60, 72 and 96 KiB
// at 80, 96 and 128, flash_attention_f32_sm90.cu, sm_90a PTX: a static array past 48 KiB
// loads only there); at 256 blocks of 32 keys, V in K^T's place and P^T apart (104 KiB, two
// CTAs per SM). Q, K, V rows contiguous along the head, starts and strides multiples of 4.
#pragma once

#include "flash_common.cuh"

namespace {

using namespace anydnn_flash;

constexpr int BM = 64, BN = 64, THREADS = 128; // BN: the keys of a block up to head size 128

// ROWS x D of global rows (stride ld, from row0, valid below n) transposed into s[d][ROWS];
// each thread moves float4 pieces, neighbouring threads neighbouring rows (no bank conflicts
// on the transposed stores).
template <int D, int ROWS>
__device__ __forceinline__ void load_transposed(
        float *s, const float *g, int64_t ld, int64_t row0, int64_t n, int tid) {
#pragma unroll
    for (int c = tid; c < ROWS * D / 4; c += THREADS) {
        const int r = c % ROWS, d4 = c / ROWS;
        float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row0 + r < n) x = *reinterpret_cast<const float4 *>(g + (row0 + r) * ld + d4 * 4);
        s[(d4 * 4 + 0) * ROWS + r] = x.x;
        s[(d4 * 4 + 1) * ROWS + r] = x.y;
        s[(d4 * 4 + 2) * ROWS + r] = x.z;
        s[(d4 * 4 + 3) * ROWS + r] = x.w;
    }
}

// load_transposed in two halves, for a tile fetched into registers while the CTA computes
// and stored to shared memory afterwards (the PF kernels): fetch_rows, then store_transposed.
template <int D, int ROWS>
struct tile_regs_t {
    static constexpr int N = ROWS * D / 4 / THREADS;
    static_assert(ROWS * D / 4 % THREADS == 0, "the tile splits evenly over the threads");
    float4 x[N];
};
template <int D, int ROWS>
__device__ __forceinline__ void fetch_rows(tile_regs_t<D, ROWS> &t, const float *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
#pragma unroll
    for (int i = 0; i < t.N; ++i) {
        const int c = tid + i * THREADS, r = c % ROWS, d4 = c / ROWS;
        t.x[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row0 + r < n) t.x[i] = *reinterpret_cast<const float4 *>(g + (row0 + r) * ld + d4 * 4);
    }
}
template <int D, int ROWS>
__device__ __forceinline__ void store_transposed(float *s, const tile_regs_t<D, ROWS> &t, int tid) {
#pragma unroll
    for (int i = 0; i < t.N; ++i) {
        const int c = tid + i * THREADS, r = c % ROWS, d4 = c / ROWS;
        s[(d4 * 4 + 0) * ROWS + r] = t.x[i].x;
        s[(d4 * 4 + 1) * ROWS + r] = t.x[i].y;
        s[(d4 * 4 + 2) * ROWS + r] = t.x[i].z;
        s[(d4 * 4 + 3) * ROWS + r] = t.x[i].w;
    }
}
// V's rows as load_rows lays them out, in the same two halves.
template <int D>
__device__ __forceinline__ void fetch_v(tile_regs_t<D, BN> &t, const float *g, int64_t ld,
        int64_t row0, int64_t n, int tid) {
#pragma unroll
    for (int i = 0; i < t.N; ++i) {
        const int c = tid + i * THREADS, r = c / (D / 4), d4 = c % (D / 4);
        t.x[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row0 + r < n) t.x[i] = *reinterpret_cast<const float4 *>(g + (row0 + r) * ld + d4 * 4);
    }
}
template <int D>
__device__ __forceinline__ void store_v(float *s, const tile_regs_t<D, BN> &t, int tid) {
#pragma unroll
    for (int i = 0; i < t.N; ++i) {
        const int c = tid + i * THREADS, r = c / (D / 4), d4 = c % (D / 4);
        *reinterpret_cast<float4 *>(s + r * D + d4 * 4) = t.x[i];
    }
}

template <int D, int ROWS>
__device__ __forceinline__ void load_rows(
        float *s, const float *g, int64_t ld, int64_t row0, int64_t n, int tid) {
#pragma unroll
    for (int c = tid; c < ROWS * D / 4; c += THREADS) {
        const int r = c / (D / 4), d4 = c % (D / 4);
        float4 x = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row0 + r < n) x = *reinterpret_cast<const float4 *>(g + (row0 + r) * ld + d4 * 4);
        *reinterpret_cast<float4 *>(s + r * D + d4 * 4) = x;
    }
}

__device__ __forceinline__ void fma4(float *acc, float a, float4 b) {
    acc[0] = fmaf(a, b.x, acc[0]);
    acc[1] = fmaf(a, b.y, acc[1]);
    acc[2] = fmaf(a, b.z, acc[2]);
    acc[3] = fmaf(a, b.w, acc[3]);
}

// o[0..VW) += a * s[0..VW): a piece of VW output columns (4 or 2).
template <int VW>
__device__ __forceinline__ void fma_piece(float *acc, float a, const float *s) {
    if constexpr (VW == 4) {
        fma4(acc, a, *reinterpret_cast<const float4 *>(s));
    } else {
        const float2 b = *reinterpret_cast<const float2 *>(s);
        acc[0] = fmaf(a, b.x, acc[0]);
        acc[1] = fmaf(a, b.y, acc[1]);
    }
}

// PF (the _pf entries): K and V go through registers so that their global loads overlap the
// CTA's compute: V(j) is fetched before Q K(j)^T and stored after the softmax, K(j+1) fetched
// before P V(j) and stored at the start of block j+1; one barrier fewer per block.
template <int D, bool PF>
__device__ void flash_fwd_f32(const float *q, const float *k, const float *v, float *dst,
        const void *scale_p, const void *mask, float *stats, const int *kv_len,
        const int *q_len, const sdpa_args_t &a, int flags) {
    // Head size 256: blocks of 32 keys, V in K^T's place once the scores are read, P^T apart.
    constexpr bool SPLIT = D > 128;
    constexpr int BK = SPLIT ? 32 : BN; // keys per block
    constexpr int KC = BK / 8; // keys per thread: (c / 4) * 32 + tc * 4 + c % 4
    constexpr int VW = D % 32 == 0 ? 4 : 2; // output columns per piece
    constexpr int NC = D / 8; // output columns per thread: (c / VW) * 8 * VW + tc * VW + c % VW
    static_assert(D % 16 == 0 && (!PF || (!SPLIT && VW == 4)), "head sizes of the kernel");
    __shared__ __align__(16) float sQT[D * BM]; // Q^T: [d][row]
    __shared__ __align__(16) float sKT[D * BK]; // K^T: [d][key]; then P^T or (SPLIT) V
    __shared__ __align__(16) float sB[SPLIT ? BK * BM : BK * D]; // V: [key][d], or (SPLIT) P^T
    float *const sPT = SPLIT ? sB : sKT; // P^T: [key][row]
    float *const sV = SPLIT ? sKT : sB;

    const int tid = threadIdx.x, tc = tid % 8, tr = tid / 8; // 8 lanes share 4 rows
    const int64_t m0 = int64_t(gridDim.x - 1 - blockIdx.x) * BM;
    const batch_offsets_t off(a, blockIdx.y);
    const score_rules_t rules(a, scale_p, flags, kv_len, q_len);
    const int nblocks = int((rules.key_end(a, m0, BM) + BK - 1) / BK);
    const int64_t qo = off.q, ko = off.k, vo = off.v, dso = off.dst, mo = off.mask;
    const float scale = rules.scale, scale_log2 = rules.scale_log2;
    const bool has_mask = rules.has_mask, causal = rules.causal;
    const int mask_type = rules.mask_type;
    const int64_t diag = rules.diag;

    load_transposed<D, BM>(sQT, q + qo, a.q_row, m0, a.Sq, tid);

    float o[4][NC], row_max[4], row_sum[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        row_max[r] = -INFINITY;
        row_sum[r] = 0.f;
#pragma unroll
        for (int c = 0; c < NC; ++c)
            o[r][c] = 0.f;
    }
    const int64_t row0 = m0 + tr * 4; // rows row0 .. row0 + 3
    tile_regs_t<D, BN> kr, vr;
    if (PF && nblocks > 0) fetch_rows<D, BN>(kr, k + ko, a.k_key, 0, a.Sk, tid);

    for (int jb = 0; jb < nblocks; ++jb) {
        const int64_t n0 = int64_t(jb) * BK;
        if (PF) {
            store_transposed<D, BN>(sKT, kr, tid);
            fetch_v<D>(vr, v + vo, a.v_key, n0, a.Sk, tid);
        } else {
            load_transposed<D, BK>(sKT, k + ko, a.k_key, n0, a.Sk, tid);
            if (!SPLIT) load_rows<D, BK>(sV, v + vo, a.v_key, n0, a.Sk, tid);
        }
        __syncthreads();

        // Scores of rows row0.., keys n0 + tc * 4 + {0..3} (and n0 + 32 + tc * 4 + {0..3}).
        float s[4][KC];
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < KC; ++c)
                s[r][c] = 0.f;
#pragma unroll 8
        for (int d = 0; d < D; ++d) {
            const float4 qv = *reinterpret_cast<const float4 *>(sQT + d * BM + tr * 4);
            const float qr[4] = {qv.x, qv.y, qv.z, qv.w};
            float4 kh[KC / 4];
#pragma unroll
            for (int h = 0; h < KC / 4; ++h)
                kh[h] = *reinterpret_cast<const float4 *>(sKT + d * BK + 32 * h + tc * 4);
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int h = 0; h < KC / 4; ++h)
                    fma4(s[r] + 4 * h, qr[r], kh[h]);
        }
        const bool edge = n0 + BK > a.Sk || (causal && n0 + BK - 1 > m0 + diag);
        float rescale[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int64_t row = row0 + r;
            float mx = row_max[r];
#pragma unroll
            for (int c = 0; c < KC; ++c) {
                const int64_t key = n0 + (c / 4) * 32 + tc * 4 + c % 4;
                float x;
                if (has_mask) {
                    const int64_t mr = min(row, a.Sq - 1), mc = min(key, a.Sk - 1);
                    x = (s[r][c] * scale
                                + load_any(mask, mo + mr * a.mask_row + mc * a.mask_col, mask_type))
                            * log2e;
                } else {
                    x = s[r][c] * scale_log2;
                }
                if (edge && (key >= a.Sk || (causal && key > row + diag))) x = -INFINITY;
                s[r][c] = x;
                mx = fmaxf(mx, x);
            }
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 4));
            const float base = mx == -INFINITY ? 0.f : mx;
            rescale[r] = exp2_ftz(row_max[r] - base);
            row_max[r] = mx;
            float sum = 0.f;
#pragma unroll
            for (int c = 0; c < KC; ++c) {
                s[r][c] = exp2_ftz(s[r][c] - base);
                sum += s[r][c];
            }
            row_sum[r] = row_sum[r] * rescale[r] + sum;
#pragma unroll
            for (int c = 0; c < NC; ++c)
                o[r][c] *= rescale[r];
        }
        __syncthreads(); // K^T is read: P^T (SPLIT: V) takes its place
#pragma unroll
        for (int c = 0; c < KC; ++c) {
            const int key = (c / 4) * 32 + tc * 4 + c % 4;
            *reinterpret_cast<float4 *>(sPT + key * BM + tr * 4)
                    = make_float4(s[0][c], s[1][c], s[2][c], s[3][c]);
        }
        if (SPLIT) load_rows<D, BK>(sV, v + vo, a.v_key, n0, a.Sk, tid);
        if (PF) {
            store_v<D>(sV, vr, tid); // sV's last reader was block jb - 1's P V
            if (jb + 1 < nblocks) fetch_rows<D, BN>(kr, k + ko, a.k_key, n0 + BN, a.Sk, tid);
        }
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < BK; ++j) {
            const float4 p = *reinterpret_cast<const float4 *>(sPT + j * BM + tr * 4);
            const float pr[4] = {p.x, p.y, p.z, p.w};
#pragma unroll
            for (int b = 0; b < NC / VW; ++b) {
                const float *vb = sV + j * D + 8 * VW * b + tc * VW;
#pragma unroll
                for (int r = 0; r < 4; ++r)
                    fma_piece<VW>(o[r] + VW * b, pr[r], vb);
            }
        }
        __syncthreads(); // P^T and V are read: the next block's tiles may come
    }

    if (stats) {
        const int64_t so = stats_offset(a, blockIdx.y);
#pragma unroll
        for (int r = 0; r < 4; ++r)
            store_stat<8>(stats, so, a, row0 + r, row_max[r], row_sum[r], tc == 0);
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        float sum = row_sum[r];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        sum += __shfl_xor_sync(0xffffffffu, sum, 4);
        const int64_t row = row0 + r;
        if (row >= a.Sq) continue;
        const float inv = 1.f / sum; // every key hidden: 0 / 0, as softmax of -inf gives
#pragma unroll
        for (int c = 0; c < NC; ++c) {
            const int col = (c / VW) * 8 * VW + tc * VW + c % VW;
            dst[dso + row * a.dst_row + col * a.dst_col] = o[r][c] * inv;
        }
    }
}

} // namespace

// The first nine parameters are buffers (embed_ptx.py), as in flash_attention.cu.
#define ANYDNN_FLASH_F32_ENTRY(D, CTAS, PF, SUFFIX) \
    extern "C" __global__ void __launch_bounds__(THREADS, CTAS) \
            anydnn_flash_sdpa_f32_d##D##SUFFIX(const float *q, const float *k, const float *v, \
                    float *dst, const void *scale, const void *mask, float *stats, \
                    const int *kv_len, const int *q_len, sdpa_args_t args, int flags) { \
        flash_fwd_f32<D, PF>(q, k, v, dst, scale, mask, stats, kv_len, q_len, args, flags); \
    }
