// C = A * B where one side of C is small (GEMV: M <= MMAX rows; or N <= MMAX columns with TRANS,
// computed as C^T = B^T A^T): reading the large operand once is the whole cost. The product is seen as
// X (rows x K, the small operand) times W (K x cols, the large one). K is cut into `splits`
// slices, one per work-group along the split axis, so that enough work-groups stream W; a slice's
// partial sums go to `part` (f32) and gemm_skinny_sum adds the slices in order (deterministic),
// or, with one slice, the kernel stores C itself. Two kernels by W's layout:
//   gemm_skinny_nc: W's columns dense (4 columns per load): WG_N lanes x 4 columns, WG_M lanes
//                   along K stepping by WG_M;
//   gemm_skinny_kc: W's K dense (4 k per load): WG_N lanes x 4 k along K, WG_M columns.
// Loads are 4-element vectors (cl/vec_io.h) where the host found W dense and aligned (`vec`),
// else scalars; STAGES vectors are loaded before they are used. Float sums only.
#include "gemm/gemm_common.h"
#define VEC 4
#include "cl/vec_io.h"

typedef struct {
    long rows, cols, K; // C as X (rows x K) times W (K x cols)
    long x_sr, x_sk, w_sk, w_sc; // strides of X and W
    long k_split, splits; // K of one slice (a multiple of the group's K step), slices
    long part_off; // element offset of the partial sums in `part`
    int vec; // 1: W's dense dimension may be read 4 elements at a time
    int xvec; // 1: X's K may be read 4 elements at a time (gemm_skinny_kc)
} skinny_params_t;

// TRANS (a build option): rows are C's columns, X is B and W is A.
#ifdef TRANS
#define X_T B_DATA_T
#define LOAD_X LOAD_B
#define W_T A_DATA_T
#define LOAD_W LOAD_A
#define X_OF(A, B) (B)
#define W_OF(A, B) (A)
#define C_AT(r, c) (c), (r)
#else
#define X_T A_DATA_T
#define LOAD_X LOAD_A
#define W_T B_DATA_T
#define LOAD_W LOAD_B
#define X_OF(A, B) (A)
#define W_OF(A, B) (B)
#define C_AT(r, c) (r), (c)
#endif

// Four consecutive elements of W's dense dimension from `at` (stride `st`), of which the first
// `have` exist.
float4 load_w4(const global W_T *W, long at, long st, long have, int vec) {
    if (vec && have >= 4) return LOADV(LOAD_W, W, at);
    float4 v = 0.f;
    if (have > 0) v.s0 = LOAD_W(W, at);
    if (have > 1) v.s1 = LOAD_W(W, at + st);
    if (have > 2) v.s2 = LOAD_W(W, at + 2 * st);
    if (have > 3) v.s3 = LOAD_W(W, at + 3 * st);
    return v;
}

// The finished value of row r, column c of the product: C, or slice `ks`'s partial sum.
void skinny_out(global C_DATA_T *C, const global BIAS_DATA_T *bias,
        const global SB_DATA_T *scale_b, const gemm_params_t *p, const quant_t *q,
        const skinny_params_t *s, global float *part, long b, long ks, long r, long c,
        float v POST_OP_PARAMS) {
    if (s->splits > 1) {
        part[s->part_off + ((ks * p->batch_dims[0] * p->batch_dims[1] * p->batch_dims[2]
                                     * p->batch_dims[3]
                                    + b) * s->rows
                                   + r) * s->cols
                + c] = v;
        return;
    }
    store_c(C, bias, scale_b, p, q, batch_offsets(p, b), C_AT(r, c), v POST_OP_ARGS);
}

#define KERNEL_ARGS                                                                           \
    const global A_DATA_T *A, const global B_DATA_T *B, global C_DATA_T *C,                  \
            const global BIAS_DATA_T *bias, const global SA_DATA_T *scale_a,                 \
            const global SB_DATA_T *scale_b, const global SC_DATA_T *scale_c,                \
            const global int *zp_a, const global int *zp_b, const global int *zp_c,          \
            gemm_params_t p, skinny_params_t s, global float *part POST_OP_PARAMS

kernel __attribute__((reqd_work_group_size(WG_N, WG_M, 1))) void gemm_skinny_nc(KERNEL_ARGS) {
    local float red[WG_M][WG_N * 4];
    const int ln = get_local_id(0), lk = get_local_id(1);
    const long c0 = (get_group_id(0) * WG_N + ln) * 4, ks = get_group_id(1), b = get_global_id(2);
    const batch_offsets_t o = batch_offsets(&p, b);
    const long x_off = X_OF(o.a, o.b), w_off = W_OF(o.a, o.b);
    const global X_T *X = X_OF(A, B);
    const global W_T *W = W_OF(A, B);
    const long kb = ks * s.k_split, ke = min(s.K, kb + s.k_split), have = s.cols - c0;
    float4 acc[MMAX];
#pragma unroll
    for (int r = 0; r < MMAX; ++r)
        acc[r] = 0.f;
    if (have > 0) {
        long k = kb + lk;
        // Pointers stepped along K: no 64-bit index products in the loop.
        const global W_T *wp = W + w_off + k * s.w_sk + c0 * s.w_sc;
        const global X_T *xp = X + x_off + k * s.x_sk;
        const long w_step = WG_M * s.w_sk, x_step = WG_M * s.x_sk;
        if (s.vec && have >= 4) {
            // STAGES rows of W in flight before the first is used.
            for (; k + (STAGES - 1) * WG_M < ke; k += STAGES * WG_M) {
                float4 w[STAGES];
#pragma unroll
                for (int u = 0; u < STAGES; ++u)
                    w[u] = LOADV(LOAD_W, wp, u * w_step);
#pragma unroll
                for (int u = 0; u < STAGES; ++u)
#pragma unroll
                    for (int r = 0; r < MMAX; ++r)
                        if (r < s.rows)
                            acc[r] = fma((float4)(LOAD_X(xp, r * s.x_sr + u * x_step)), w[u],
                                    acc[r]);
                wp += STAGES * w_step;
                xp += STAGES * x_step;
            }
        }
        for (; k < ke; k += WG_M, wp += w_step, xp += x_step) {
            const float4 w = load_w4(wp, 0, s.w_sc, have, s.vec);
#pragma unroll
            for (int r = 0; r < MMAX; ++r)
                if (r < s.rows) acc[r] = fma((float4)(LOAD_X(xp, r * s.x_sr)), w, acc[r]);
        }
    }
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    // The WG_M partial sums of each column meet in local memory, one row at a time; work-item
    // t adds columns t, t + WG_M * WG_N, ... of the group in lane order.
#pragma unroll
    for (int r = 0; r < MMAX; ++r) {
        if (r >= s.rows) break;
        vstore4(acc[r], 0, &red[lk][ln * 4]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int t = lk * WG_N + ln; t < WG_N * 4; t += WG_M * WG_N) {
            const long c = get_group_id(0) * WG_N * 4 + t;
            if (c >= s.cols) break;
            float v = 0.f;
            for (int i = 0; i < WG_M; ++i)
                v += red[i][t];
            skinny_out(C, bias, scale_b, &p, &q, &s, part, b, ks, r, c, v POST_OP_ARGS);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

kernel __attribute__((reqd_work_group_size(WG_N, WG_M, 1))) void gemm_skinny_kc(KERNEL_ARGS) {
    local float red[WG_M][WG_N];
    const int lk = get_local_id(0), lc = get_local_id(1);
    const long c = get_group_id(1) * WG_M + lc, ks = get_group_id(0), b = get_global_id(2);
    const batch_offsets_t o = batch_offsets(&p, b);
    const long x_off = X_OF(o.a, o.b), w_off = W_OF(o.a, o.b);
    const global X_T *X = X_OF(A, B);
    const global W_T *W = W_OF(A, B);
    const long kb = ks * s.k_split, ke = min(s.K, kb + s.k_split);
    const int step = WG_N * 4;
    float acc[MMAX];
#pragma unroll
    for (int r = 0; r < MMAX; ++r)
        acc[r] = 0.f;
    if (c < s.cols) {
        long k = kb + lk * 4;
        const global W_T *wp = W + w_off + c * s.w_sc + k * s.w_sk;
        const global X_T *xp = X + x_off + k * s.x_sk;
        const long w_step = step * s.w_sk, x_step = step * s.x_sk;
        if (s.vec) {
            // Whole vectors of STAGES steps: no tail checks.
            for (; k + (STAGES - 1) * step + 4 <= ke; k += STAGES * step) {
                float4 w[STAGES];
#pragma unroll
                for (int u = 0; u < STAGES; ++u)
                    w[u] = LOADV(LOAD_W, wp, u * w_step);
#pragma unroll
                for (int u = 0; u < STAGES; ++u)
#pragma unroll
                    for (int r = 0; r < MMAX; ++r)
                        if (r < s.rows) {
                            const long xa = r * s.x_sr + u * x_step;
                            const float4 x = s.xvec ? LOADV(LOAD_X, xp, xa)
                                                    : (float4)(LOAD_X(xp, xa),
                                                            LOAD_X(xp, xa + s.x_sk),
                                                            LOAD_X(xp, xa + 2 * s.x_sk),
                                                            LOAD_X(xp, xa + 3 * s.x_sk));
                            acc[r] += dot(x, w[u]);
                        }
                wp += STAGES * w_step;
                xp += STAGES * x_step;
            }
        }
        for (; k < ke; k += step, wp += w_step, xp += x_step) {
            const long have = min(ke - k, 4L);
            const float4 w = load_w4(wp, 0, s.w_sk, have, s.vec);
#pragma unroll
            for (int r = 0; r < MMAX; ++r)
                if (r < s.rows) {
                    const long xa = r * s.x_sr;
                    float4 x = 0.f;
                    x.s0 = LOAD_X(xp, xa);
                    if (have > 1) x.s1 = LOAD_X(xp, xa + s.x_sk);
                    if (have > 2) x.s2 = LOAD_X(xp, xa + 2 * s.x_sk);
                    if (have > 3) x.s3 = LOAD_X(xp, xa + 3 * s.x_sk);
                    acc[r] += dot(x, w);
                }
        }
    }
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    // The WG_N lanes' sums of each column meet in local memory; lane 0 adds them in order.
#pragma unroll
    for (int r = 0; r < MMAX; ++r) {
        if (r >= s.rows) break;
        red[lc][lk] = acc[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lk == 0 && c < s.cols) {
            float v = 0.f;
            for (int i = 0; i < WG_N; ++i)
                v += red[lc][i];
            skinny_out(C, bias, scale_b, &p, &q, &s, part, b, ks, r, c, v POST_OP_ARGS);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// C from the slices' partial sums, added in slice order: one work-item per element.
kernel void gemm_skinny_sum(KERNEL_ARGS) {
    const long c = get_global_id(0), r = get_global_id(1), b = get_global_id(2);
    if (c >= s.cols || r >= s.rows) return;
    const long batch = p.batch_dims[0] * p.batch_dims[1] * p.batch_dims[2] * p.batch_dims[3];
    const long stride = batch * s.rows * s.cols;
    long at = s.part_off + (b * s.rows + r) * s.cols + c;
    float v = 0.f;
    for (long i = 0; i < s.splits; ++i, at += stride)
        v += part[at];
    const quant_t q = read_quant(&p, scale_a, scale_c, zp_a, zp_b, zp_c);
    store_c(C, bias, scale_b, &p, &q, batch_offsets(&p, b), C_AT(r, c), v POST_OP_ARGS);
}
