// Scaled dot-product attention in one pass: dst = softmax(Q K^T * scale + mask) V, the scores
// never leaving the work-group (online softmax: running max, sum and output per query row).
// One work-item per query row, a work-group per block of rows of one batch entry (batch, head);
// K and V stream through local memory in blocks of BK keys, converted to f32; any strides
// (sdpa_args_t). Build options: D, DV (head sizes), BK, the tensors' types, HAS_SCALE, DIVIDE,
// HAS_MASK, CAUSAL (0 none, 1 top-left, 2 bottom-right: key j is seen from row i when
// j <= i (+ Sk - Sq; 3: + kv_len[0] - q_len[0], the graph's values); blocks no row of the
// group sees are skipped), UNROLL (unrolled key
// loops: scores in registers on GPUs; CPU devices compile faster without), HAS_STATS (the
// training forward: each row's softmax statistic, ln(sum_j exp(x_j)) of its scaled, masked
// scores x, as SoftMax's second output gives it: max + ln(sum exp(x - max)); -inf where every
// key is hidden).
#include "cl/common.h"

#define D4 ((D + 3) / 4)
#define DV4 ((DV + 3) / 4)
#define MASK_LD (BK + 1) // mask tile row stride: rows read by neighbouring work-items
                         // fall in different local memory banks

// Mirrors gpu::sdpa_args_t (src/gpu/sdpa/sdpa.hpp) field for field.
#define SDPA_BATCH 4
typedef struct {
    long batch[SDPA_BATCH]; // dst batch dimensions, right-aligned (unused: 1)
    long q_b[SDPA_BATCH], k_b[SDPA_BATCH], v_b[SDPA_BATCH], dst_b[SDPA_BATCH],
            mask_b[SDPA_BATCH]; // strides over them (broadcast: 0)
    long q_off, k_off, v_off, dst_off, mask_off;
    long q_row, q_col; // Q(i, d)
    long k_key, k_col; // K(j, d), whatever the graph's transpose_b
    long v_key, v_col; // V(j, d)
    long dst_row, dst_col;
    long mask_row, mask_col; // broadcast: 0
    long Sq, Sk;
    long stats_b[SDPA_BATCH], stats_off, stats_row; // the statistics (HAS_STATS)
} sdpa_args_t;

float comp4(float4 v, int c) {
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

kernel void sdpa_fwd(const global Q_DATA_T *q, const global K_DATA_T *k,
        const global V_DATA_T *v, global DST_DATA_T *dst, const global SCALE_DATA_T *scale_p,
        const global MASK_DATA_T *mask, const global int *kv_len, const global int *q_len,
        global float *stats, sdpa_args_t a, local float *mask_tile) {
    local float4 kt[BK * D4];
    local float4 vt[BK * DV4];
    local float *kt1 = (local float *)kt;
    local float *vt1 = (local float *)vt;

    const int lid = get_local_id(0), L = get_local_size(0);
    const long row0 = get_group_id(0) * (long)L, row = row0 + lid;
    const bool active = row < a.Sq;
    long qo = a.q_off, ko = a.k_off, vo = a.v_off, dso = a.dst_off, mo = a.mask_off;
    long so = a.stats_off;
    long b = get_group_id(1);
    for (int i = SDPA_BATCH - 1; i >= 0; --i) {
        const long idx = b % a.batch[i];
        b /= a.batch[i];
        qo += idx * a.q_b[i];
        ko += idx * a.k_b[i];
        vo += idx * a.v_b[i];
        dso += idx * a.dst_b[i];
        mo += idx * a.mask_b[i];
        so += idx * a.stats_b[i];
    }

    float scale = 1.f;
#if HAS_SCALE
    scale = LOAD_SCALE(scale_p, 0);
#if DIVIDE
    scale = 1.f / scale;
#endif
#endif
    // The query row, pre-scaled (rows past Sq compute on row 0 and store nothing).
    float4 qr[D4];
    const long qrow = active ? row : 0;
    for (int d4 = 0; d4 < D4; ++d4) {
        float t[4];
        for (int c = 0; c < 4; ++c) {
            const int d = d4 * 4 + c;
            t[c] = d < D ? LOAD_Q(q, qo + qrow * a.q_row + d * a.q_col) * scale : 0.f;
        }
        qr[d4] = (float4)(t[0], t[1], t[2], t[3]);
    }

    float m = -INFINITY, l = 0.f;
    float4 acc[DV4];
    for (int d4 = 0; d4 < DV4; ++d4) acc[d4] = (float4)(0.f);

#if CAUSAL
#if CAUSAL == 3
    const long diag = (long)kv_len[0] - q_len[0];
#else
    const long diag = CAUSAL == 2 ? a.Sk - a.Sq : 0;
#endif
    // The same bound for the whole group (its barriers): the keys its last row sees.
    const long key_end = min(a.Sk, max(row0 + L + diag, 0L));
#else
    const long key_end = a.Sk;
#endif
    for (long j0 = 0; j0 < key_end; j0 += BK) {
        barrier(CLK_LOCAL_MEM_FENCE); // the previous block is no longer read
        for (int i = lid; i < BK * D4 * 4; i += L) {
            const int j = i / (D4 * 4), d = i % (D4 * 4);
            const long key = j0 + j;
            kt1[i] = d < D && key < a.Sk ? LOAD_K(k, ko + key * a.k_key + d * a.k_col) : 0.f;
        }
        for (int i = lid; i < BK * DV4 * 4; i += L) {
            const int j = i / (DV4 * 4), d = i % (DV4 * 4);
            const long key = j0 + j;
            vt1[i] = d < DV && key < a.Sk ? LOAD_V(v, vo + key * a.v_key + d * a.v_col) : 0.f;
        }
#if HAS_MASK
        for (int i = lid; i < L * BK; i += L) {
            const int r = i / BK, j = i % BK;
            const long key = j0 + j, mrow = row0 + r;
            mask_tile[r * MASK_LD + j] = mrow < a.Sq && key < a.Sk
                    ? LOAD_MASK(mask, mo + mrow * a.mask_row + key * a.mask_col)
                    : 0.f;
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
#if HAS_MASK
        // Keys the mask hides from this row (causal masks: half of the blocks) cost nothing.
        bool visible = false;
        for (int j = 0; j < BK; ++j) visible |= mask_tile[lid * MASK_LD + j] != -INFINITY;
        if (!visible) continue;
#endif

        float s[BK];
        float block_max = -INFINITY;
#if UNROLL
#pragma unroll
#endif
        for (int j = 0; j < BK; ++j) {
            float4 t = (float4)(0.f);
            for (int d4 = 0; d4 < D4; ++d4) t = mad(qr[d4], kt[j * D4 + d4], t);
            float x = (t.x + t.y) + (t.z + t.w);
#if HAS_MASK
            x += mask_tile[lid * MASK_LD + j];
#endif
#if CAUSAL
            if (j0 + j > row + diag) x = -INFINITY;
#endif
            s[j] = j0 + j < a.Sk ? x : -INFINITY;
            block_max = fmax(block_max, s[j]);
        }
        const float m_new = fmax(m, block_max);
        // A row with every key so far masked out (-inf) has nothing to accumulate yet.
        if (m_new != -INFINITY) {
            const float rescale = exp(m - m_new); // 0 on the first keys (m = -inf)
            l *= rescale;
            for (int d4 = 0; d4 < DV4; ++d4) acc[d4] *= rescale;
#if UNROLL
#pragma unroll
#endif
            for (int j = 0; j < BK; ++j) {
                const float p = exp(s[j] - m_new);
                l += p;
                for (int d4 = 0; d4 < DV4; ++d4) acc[d4] = mad((float4)(p), vt[j * DV4 + d4], acc[d4]);
            }
            m = m_new;
        }
    }

    if (!active) return;
#if HAS_STATS
    stats[so + row * a.stats_row] = m + log(l); // every key hidden: -inf + ln 0 = -inf
#endif
    // Every key masked out: 0 / 0, as the softmax of a row of -inf gives.
    const float inv = 1.f / l;
    for (int d = 0; d < DV; ++d)
        STORE_DST(dst, dso + row * a.dst_row + d * a.dst_col, comp4(acc[d / 4], d % 4) * inv);
}
