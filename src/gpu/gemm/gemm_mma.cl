// C = A * B on tensor cores through inline PTX: mma.sync m16n8k16 with bf16 (or f16, MMA_F16)
// operands and f32 sums, then the shared output stage (gemm/gemm_common.h: scales, bias,
// post-ops, zero point, any C type). Work-group: WG_M x WG_N warps over a BM x BN block of C,
// each warp TM x TN tiles of 16 x 8; K runs in KT (= 32) deep slices, STAGES of them in
// flight: cp.async copies 16-byte chunks into XOR-swizzled local tiles, ldmatrix feeds the
// mma. Either layout of A (k or m contiguous) and of B (n or k contiguous); other strides,
// unaligned operands and tails take element loads into the same tiles, zero outside the matrix.
#include "gemm/gemm_common.h"

#define THREADS (32 * WG_M * WG_N)
#define BM (WG_M * TM * 16)
#define BN (WG_N * TN * 8)
#define KC (KT / 8) // 16-byte chunks along k
#define CH_A (BM * KC / THREADS) // chunks of A and of B a work-item copies per slice
#define CH_B (BN * KC / THREADS)
#define STR(x) STR_(x)
#define STR_(x) #x

#ifdef MMA_F16
#define MMA_TYPE "f16"
#else
#define MMA_TYPE "bf16"
#endif

// Element offsets (in 16-bit units) of chunk c of stored row r. Narrow tiles hold KT elements
// per row (k contiguous): rows pair up in one 128-byte line, so chunks swizzle by row / 2.
// Wide tiles hold W >= 64 elements per row: chunks swizzle by row % 8. Either way the eight
// rows ldmatrix reads at once hit distinct banks.
inline int narrow_off(int r, int c) {
    return r * KT + ((c ^ ((r >> 1) & (KC - 1))) << 3);
}
inline int wide_off(int r, int c, int w) {
    return r * w + ((c ^ (r & 7)) << 3);
}

// The .shared address of a local pointer, whether the compiler hands local pointers to asm as
// .shared offsets or as generic addresses.
inline uint shared_addr(const local ushort *p) {
    uint r;
    asm("{\n.reg .pred g;\n.reg .u64 a;\nisspacep.shared g, %1;\n@g cvta.to.shared.u64 a, %1;\n"
        "@!g mov.u64 a, %1;\ncvt.u32.u64 %0, a;\n}\n"
        : "=r"(r)
        : "l"((ulong)p));
    return r;
}

// Element loads of one operand's slice [outer0, outer0 + OUTER) x [k0, k0 + KT) into a local
// tile, zero outside the matrix: any strides and alignment. `narrow`: k contiguous in memory
// (stored rows are outer); otherwise stored rows are k.
inline void load_tile_slow(local ushort *s, const global ushort *g, int outer_tile, bool narrow,
        long outer0, long k0, long outer_n, long k_n, long s_outer, long s_k) {
    const int wc = outer_tile / 8; // chunks per wide row
    for (int i = get_local_id(0); i < outer_tile * KC; i += THREADS) {
        const int r = narrow ? i / KC : i / wc, c = narrow ? i % KC : i % wc;
        const long outer = narrow ? outer0 + r : outer0 + c * 8;
        const long k = narrow ? k0 + c * 8 : k0 + r;
        ushort v[8];
        for (int e = 0; e < 8; ++e) {
            const long o = narrow ? outer : outer + e, kk = narrow ? k + e : k;
            v[e] = o < outer_n && kk < k_n ? g[o * s_outer + kk * s_k] : (ushort)0;
        }
        *(local ushort8 *)(s + (narrow ? narrow_off(r, c) : wide_off(r, c, outer_tile)))
                = vload8(0, v);
    }
}

// The cp.async plan of one 16-byte chunk a work-item copies in every slice, fixed for the
// whole loop: where it reads at k0 = 0, where it lands in a stage, its k within the slice and
// how many of its elements lie inside the matrix along outer (narrow: 8 or 0; wide: 0 to 8).
typedef struct {
    const global ushort *src;
    uint dst;
    int k, valid;
} chunk_t;

inline chunk_t plan_chunk(int i, int outer_tile, bool narrow, const global ushort *g,
        long outer0, long outer_n, long s_outer, long s_k) {
    chunk_t ch;
    const int wc = outer_tile / 8;
    const int r = narrow ? i / KC : i / wc, c = narrow ? i % KC : i % wc;
    const long outer = narrow ? outer0 + r : outer0 + c * 8;
    ch.valid = (int)clamp(outer_n - outer, 0L, narrow ? 1L : 8L) * (narrow ? 8 : 1);
    ch.k = narrow ? c * 8 : r;
    ch.src = g + (ch.valid ? (narrow ? outer * s_outer + c * 8 : r * s_k + outer) : 0);
    ch.dst = 2 * (narrow ? narrow_off(r, c) : wide_off(r, c, outer_tile));
    return ch;
}

// Issues the chunk's copy for the slice at k0 (of k_n), zero-filled past the matrix.
inline void issue_chunk(const chunk_t *ch, uint stage, bool narrow, int k0, int k_n, long s_k) {
    const int k = k0 + ch->k;
    const int n = narrow ? (ch->valid ? clamp(k_n - k, 0, 8) : 0) : (k < k_n ? ch->valid : 0);
    const global ushort *src = n ? ch->src + (narrow ? (long)k0 : k0 * s_k) : ch->src;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(stage + ch->dst),
            "l"((ulong)src), "r"(n * 2));
}

inline void cp_async_commit(void) {
    asm volatile("cp.async.commit_group;\n" ::);
}

inline void ldmatrix_x4(uint r[4], uint addr, bool trans) {
    if (trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
}

inline void mma_16816(float c[4], const uint a[4], uint b0, uint b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." MMA_TYPE "." MMA_TYPE ".f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void gemm_mma(GEMM_ARGS) {
    // 16-byte chunks: cp.async and ldmatrix need them aligned.
    local ushort As[STAGES * BM * KT] __attribute__((aligned(128)));
    local ushort Bs[STAGES * BN * KT] __attribute__((aligned(128)));
    const uint as_addr = shared_addr(As), bs_addr = shared_addr(Bs);
    // Blocks run in groups of 8 block rows so neighbouring work-groups share A and B in cache.
    const int nb_m = (int)get_num_groups(1), nb_n = (int)get_num_groups(0);
    const int lin = (int)get_group_id(1) * nb_n + (int)get_group_id(0);
    const int first_m = lin / (8 * nb_n) * 8, rows = min(nb_m - first_m, 8);
    const long m0 = (long)(first_m + lin % (8 * nb_n) % rows) * BM;
    const long n0 = (long)(lin % (8 * nb_n) / rows) * BN;
    const batch_offsets_t o = batch_offsets(&p, get_global_id(2));
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    const global ushort *a = (const global ushort *)A + o.a;
    const global ushort *b = (const global ushort *)B + o.b;

    // A narrow: k contiguous (stored rows m); B narrow: k contiguous (stored rows n).
    const bool a_narrow = p.a_sk == 1, b_narrow = p.b_sk == 1;
    const bool a_fast = (a_narrow ? p.a_sm % 8 == 0 : p.a_sm == 1 && p.a_sk % 8 == 0)
            && ((ulong)a & 15) == 0;
    const bool b_fast = (b_narrow ? p.b_sn % 8 == 0 : p.b_sn == 1 && p.b_sk % 8 == 0)
            && ((ulong)b & 15) == 0;

    const int warp = (int)get_local_id(0) / 32, lane = (int)get_local_id(0) % 32;
    const int wm = warp / WG_N * TM * 16, wn = warp % WG_N * TN * 8;
    const int q8 = lane >> 3, r8 = lane & 7;

    float acc[TM][TN][4];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.f;

    // Per work-item constants: the chunks it copies, the ldmatrix offsets it reads.
    chunk_t ca[CH_A], cb[CH_B];
#pragma unroll
    for (int j = 0; j < CH_A; ++j)
        ca[j] = plan_chunk((int)get_local_id(0) + j * THREADS, BM, a_narrow, a, m0, p.M, p.a_sm,
                p.a_sk);
#pragma unroll
    for (int j = 0; j < CH_B; ++j)
        cb[j] = plan_chunk((int)get_local_id(0) + j * THREADS, BN, b_narrow, b, n0, p.N, p.b_sn,
                p.b_sk);
    uint a_ld[KT / 16][TM], b_ld[KT / 16][TN / 2];
#pragma unroll
    for (int kk = 0; kk < KT / 16; ++kk) {
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            // Lanes 8q..8q+7 address rows of 8 x 8 matrix q: (m 0-7 | 8-15) x (k 0-7 | 8-15).
            const int m = wm + i * 16 + (q8 & 1) * 8, k = kk * 16 + (q8 >> 1) * 8;
            a_ld[kk][i] = 2 * (a_narrow ? narrow_off(m + r8, k / 8) : wide_off(k + r8, m / 8, BM));
        }
#pragma unroll
        for (int j = 0; j < TN / 2; ++j) {
            // Matrix q: n tile 2 j + q / 2, k half q % 2.
            const int n = wn + j * 16 + (q8 >> 1) * 8, k = kk * 16 + (q8 & 1) * 8;
            b_ld[kk][j] = 2 * (b_narrow ? narrow_off(n + r8, k / 8) : wide_off(k + r8, n / 8, BN));
        }
    }
    const int K = (int)p.K;
    const int nk = (K + KT - 1) / KT;
#define LOAD_STAGE(stage, slice)                                                               \
    do {                                                                                       \
        if (a_fast) {                                                                          \
            _Pragma("unroll") for (int j = 0; j < CH_A; ++j)                                   \
                    issue_chunk(&ca[j], as_addr + (stage) * (BM * KT * 2), a_narrow,           \
                            (slice) * KT, K, p.a_sk);                                          \
        } else {                                                                               \
            load_tile_slow(As + (stage) * BM * KT, a, BM, a_narrow, m0, (long)(slice) * KT,    \
                    p.M, p.K, p.a_sm, p.a_sk);                                                 \
        }                                                                                      \
        if (b_fast) {                                                                          \
            _Pragma("unroll") for (int j = 0; j < CH_B; ++j)                                   \
                    issue_chunk(&cb[j], bs_addr + (stage) * (BN * KT * 2), b_narrow,           \
                            (slice) * KT, K, p.b_sk);                                          \
        } else {                                                                               \
            load_tile_slow(Bs + (stage) * BN * KT, b, BN, b_narrow, n0, (long)(slice) * KT,    \
                    p.N, p.K, p.b_sn, p.b_sk);                                                 \
        }                                                                                      \
    } while (0)
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < nk) LOAD_STAGE(s, s);
        cp_async_commit();
    }
    int read = 0, write = STAGES - 1;
    for (int kt = 0; kt < nk; ++kt) {
        asm volatile("cp.async.wait_group " STR(PENDING) ";\n" ::);
        barrier(CLK_LOCAL_MEM_FENCE);
        // The stage read in the previous step is free now: refill it.
        if (kt + STAGES - 1 < nk) LOAD_STAGE(write, kt + STAGES - 1);
        cp_async_commit();
        const uint as = as_addr + read * (BM * KT * 2), bs = bs_addr + read * (BN * KT * 2);
#pragma unroll
        for (int kk = 0; kk < KT / 16; ++kk) {
            uint af[TM][4], bf[TN][2];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                ldmatrix_x4(af[i], as + a_ld[kk][i], !a_narrow);
#pragma unroll
            for (int j = 0; j < TN / 2; ++j) {
                uint r[4];
                ldmatrix_x4(r, bs + b_ld[kk][j], !b_narrow);
                bf[2 * j][0] = r[0], bf[2 * j][1] = r[1];
                bf[2 * j + 1][0] = r[2], bf[2 * j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    mma_16816(acc[i][j], af[i], bf[j][0], bf[j][1]);
        }
        read = read == STAGES - 1 ? 0 : read + 1;
        write = write == STAGES - 1 ? 0 : write + 1;
    }
    asm volatile("cp.async.wait_group 0;\n" ::);

    // Lane holds rows lane / 4 and lane / 4 + 8, columns 2 (lane % 4) and + 1 of each tile.
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const long m = m0 + wm + i * 16 + lane / 4 + (e / 2) * 8;
                const long n = n0 + wn + j * 8 + (lane % 4) * 2 + e % 2;
                if (m < p.M && n < p.N)
                    store_c(C, bias, scale_b, &p, &q, o, m, n, acc[i][j][e] POST_OP_ARGS);
            }
}
