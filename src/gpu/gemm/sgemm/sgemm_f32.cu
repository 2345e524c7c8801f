// Strict f32 GEMM on the FMA units of NVIDIA GPUs (no TF32), compiled to sm_80 PTX at build
// time and loaded through OpenCL as a program binary (like the Hopper kernels), so it runs on
// the application's context, queue and buffers.
//
// C[b](m, n) = epilogue(sum_k A[b](m, k) * B[b](k, n)), strides in elements, any sign of
// layout: A K-major (a_sk == 1 is where the loads coalesce) or M-major, B N-major or K-major,
// chosen at compile time only for which way neighbouring threads walk. Up to four batch
// dimensions, each with its own strides (0: broadcast).
//
// A BM x BN block of C per CTA of 256 threads (8 warps of 4 x 8 lanes); each thread owns
// (4 WMC) x (4 WNC) elements as 4 x 4 pieces 16 rows / 32 columns apart, so its shared reads
// are float4s its warp shares (no bank conflicts). K goes in BK-deep slices through STAGES
// shared buffers filled by cp.async (sm_80): STAGES - 1 slices are in flight while one is
// multiplied, one barrier per slice, no registers held for the copies. Both operands sit in
// shared memory as [k][row] (rows: m of A, n of B); an operand whose rows are its unit stride
// comes in 16-byte copies where its k stride and start are 4-float aligned (4-byte ones
// otherwise), a K-major one in 4-byte copies that transpose it, the convolution's A in
// 4-byte copies of the gathered pixels. Rows past M and N, K's tail and the padding are
// zero-filled by the copies (no read). Blocks run in bands of group_m block rows, so the
// CTAs resident together share their rows of A and columns of B in L2.
#include <cstdint>

#include "../eltwise.cuh"

namespace {

constexpr int threads = 256;
constexpr int max_batch = 4;
constexpr int group_m = 16; // block rows per band of the launch order

struct batch_t {
    int64_t dims[max_batch];
    int64_t a[max_batch], b[max_batch], c[max_batch], bias[max_batch];
};

// The output stage in oneDNN's order (the GEMM core's and the wgmma kernels'):
// v = acc * scale_a * scale_b(n) + bias(m, n); a sum (before or after) an eltwise;
// v / scale_c; with accumulate, C's old value added.
struct epilogue_t {
    const float *scale_a, *scale_b, *scale_c; // null: the host values
    float host_a, host_b, host_c;
    int b_per_n; // scale_b holds one scale per column
    int sum_at; // 0 no sum, 1 before the eltwise, 2 after it
    float sum_scale, sum_zp;
    int elt; // gemm_eltwise's code (eltwise.cuh)
    float alpha;
    int accumulate;
};

// The asynchronous copies (cp.async, sm_80): `bytes` of the copy read from global memory, the
// rest of it zero-filled (0: nothing read). A thread's copies form a group at commit; wait<N>
// returns when all but its N latest groups have landed. The host emulation defers each copy to
// the wait that covers it (cuda_host_shim.hpp), so a slice read before its wait reads stale
// data there too.
__device__ __forceinline__ void copy4(float *dst, const float *src, bool ok) {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                         unsigned(__cvta_generic_to_shared(dst))),
            "l"(src), "r"(ok ? 4 : 0));
#else
    host_cp_async(dst, src, 4, ok ? 4 : 0);
#endif
}
__device__ __forceinline__ void copy16(float *dst, const float *src, int bytes) {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                         unsigned(__cvta_generic_to_shared(dst))),
            "l"(src), "r"(bytes));
#else
    host_cp_async(dst, src, 16, bytes);
#endif
}
__device__ __forceinline__ void copy_commit() {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.commit_group;\n" ::);
#else
    host_cp_async_commit();
#endif
}
template <int N>
__device__ __forceinline__ void copy_wait() {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#else
    host_cp_async_wait(N);
#endif
}

// Shared rows of ROWS + PAD floats: [k][row] copies of 8 k by 4 rows land in 32 banks, and
// 16-byte ones stay aligned.
constexpr int PAD = 4;

// One operand's copies of its ROWS x BK slices into [BK][ROWS + PAD] (rows: m of A, n of B),
// from `rows` rows starting at r0, strides s_row and s_k. K_MAJOR (s_k the unit stride):
// thread t copies k = t % 8 + 8 h of rows t / 8 + 32 l, 4 bytes each (8 neighbours read 32
// contiguous bytes). Else each thread keeps one row (4 rows with 16-byte copies) and walks k.
// Offsets are 64-bit throughout: no product of a stride and a row or k count is taken in 32
// bits.
template <int ROWS, int BK, bool K_MAJOR>
struct copier_t {
    static constexpr int stride = ROWS + PAD;
    static constexpr int rows_k = ROWS / 32, ks_k = BK / 8; // K_MAJOR: rows x k-groups
    static constexpr int scalar = ROWS * BK / threads; // 4-byte copies of the row walk
    static constexpr int quads = ROWS / 4; // 16-byte copies in one k of a slice
    static constexpr int vec = (quads * BK + threads - 1) / threads;
    static_assert(!K_MAJOR || (ROWS % 32 == 0 && BK % 8 == 0), "8 k by 32 rows per pass");
    static_assert(K_MAJOR || threads % ROWS == 0, "whole rows per pass");

    const float *base; // the batch's matrix: masked copies name it (they read nothing)
    const float *p; // copy 0 of this thread at the next slice's k
    int64_t s_row, s_k;
    int kk; // k of copy 0 within a slice
    int smem; // copy 0's offset in a stage
    int fill; // K_MAJOR: bit l, row l inside; else elements of the row (quad) inside, 0..4
    bool wide; // 16-byte copies (rows dense and aligned)
    bool inside; // all of this thread's rows inside the matrix

    __device__ __forceinline__ copier_t(const float *x, int64_t r0, int rows, int64_t s_row_,
            int64_t s_k_, int tid)
        : base(x), s_row(s_row_), s_k(s_k_) {
        int r;
        if (K_MAJOR) {
            kk = tid % 8, r = tid / 8;
            fill = 0;
#pragma unroll
            for (int l = 0; l < rows_k; ++l)
                fill |= (r0 + r + 32 * l < rows ? 1 : 0) << l;
            wide = false;
            inside = fill == (1 << rows_k) - 1;
        } else {
            wide = s_row == 1 && s_k % 4 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0;
            r = wide ? 4 * (tid % quads) : tid % ROWS;
            kk = wide ? tid / quads : tid / ROWS;
            const int64_t left = rows - (r0 + r);
            fill = left <= 0 ? 0 : left >= (wide ? 4 : 1) ? (wide ? 4 : 1) : int(left);
            inside = fill == (wide ? 4 : 1);
        }
        p = x + (r0 + r) * s_row + kk * s_k;
        smem = kk * stride + r;
    }

    // The copies of the slice at k0 into `stage`; the next call copies the following slice.
    // Slices whose rows and k all lie inside the matrix (all but the edge blocks' and K's
    // last) copy without a predicate.
    __device__ __forceinline__ void issue(float *stage, int k0, int K) {
        if (inside && k0 + BK <= K) copies<false>(stage, k0, K);
        else copies<true>(stage, k0, K);
        p += int64_t(BK) * s_k;
    }

    template <bool CHECKED>
    __device__ __forceinline__ void copies(float *stage, int k0, int K) const {
        if (K_MAJOR) {
#pragma unroll
            for (int h = 0; h < ks_k; ++h)
#pragma unroll
                for (int l = 0; l < rows_k; ++l) {
                    const bool ok = !CHECKED || (((fill >> l) & 1) && k0 + kk + 8 * h < K);
                    const float *src = p + int64_t(32 * l) * s_row + int64_t(8 * h) * s_k;
                    copy4(stage + smem + 8 * h * stride + 32 * l, ok ? src : base, ok);
                }
        } else if (wide) {
            constexpr int step = threads / quads; // k between a thread's copies
#pragma unroll
            for (int l = 0; l < vec; ++l) {
                if (quads * BK % threads != 0 && kk + step * l >= BK) break;
                const int bytes = !CHECKED ? 16 : k0 + kk + step * l < K ? 4 * fill : 0;
                const float *src = p + int64_t(step * l) * s_k;
                copy16(stage + smem + step * l * stride, bytes ? src : base, bytes);
            }
        } else {
            constexpr int step = threads / ROWS;
#pragma unroll
            for (int l = 0; l < scalar; ++l) {
                const bool ok = !CHECKED || (fill && k0 + kk + step * l < K);
                const float *src = p + int64_t(step * l) * s_k;
                copy4(stage + smem + step * l * stride, ok ? src : base, ok);
            }
        }
    }
};

// A K-major A kept as it lies in memory, [row][BK + 4] (A_ROWS entries): thread t copies the
// quad t % (BK / 4) of rows t / (BK / 4) + rows_pass l, 16 bytes each where rows are dense
// and 4-float aligned (a warp reads whole 64- or 128-byte pieces of 8 or 4 rows: a quarter
// of the transposing copies' instructions), 4 bytes per element otherwise. K's tail and rows
// past M are zero-filled.
template <int ROWS, int BK>
struct rows_copier_t {
    static constexpr int stride = BK + 4; // 4 * odd floats: 4 neighbouring rows' quads in 32 banks
    static constexpr int quads = BK / 4, rows_pass = threads / quads, passes = ROWS / rows_pass;
    // (Instantiated by every entry; sgemm() asserts its shape where A_ROWS uses it.)
    static constexpr bool fits = BK % 4 == 0 && ROWS % rows_pass == 0 && (stride / 4) % 2 == 1;

    const float *base;
    const float *p; // this thread's first row at its quad of the next slice
    int64_t s_row, s_k;
    int kq; // first k of this thread's quad within a slice
    int smem;
    int fill; // bit l: row l inside
    bool wide, inside;

    __device__ __forceinline__ rows_copier_t(const float *x, int64_t r0, int rows,
            int64_t s_row_, int64_t s_k_, int tid)
        : base(x), s_row(s_row_), s_k(s_k_) {
        kq = 4 * (tid % quads);
        const int r = tid / quads;
        fill = 0;
#pragma unroll
        for (int l = 0; l < passes; ++l)
            fill |= (r0 + r + rows_pass * l < rows ? 1 : 0) << l;
        inside = fill == (1 << passes) - 1;
        wide = s_k == 1 && s_row % 4 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0;
        p = x + (r0 + r) * s_row + kq * s_k;
        smem = r * stride + kq;
    }

    __device__ __forceinline__ void issue(float *stage, int k0, int K) {
        if (wide && inside && k0 + BK <= K) {
#pragma unroll
            for (int l = 0; l < passes; ++l)
                copy16(stage + smem + rows_pass * l * stride, p + int64_t(rows_pass * l) * s_row,
                        16);
        } else {
            const int left = K - k0 - kq; // elements of this quad inside K (may be <= 0 or > 4)
#pragma unroll
            for (int l = 0; l < passes; ++l) {
                const bool row = (fill >> l) & 1;
                const float *src = p + int64_t(rows_pass * l) * s_row;
                float *dst = stage + smem + rows_pass * l * stride;
                if (wide) {
                    const int bytes = !row || left <= 0 ? 0 : left >= 4 ? 16 : 4 * left;
                    copy16(dst, bytes ? src : base, bytes);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        const bool ok = row && j < left;
                        copy4(dst + j, ok ? src + j * s_k : base, ok);
                    }
                }
            }
        }
        p += int64_t(BK) * s_k;
    }
};

// A forward convolution over channels-last src seen as A (the implicit GEMM): A(m, k) =
// src(n, oy * stride_h - pad_h + kh * dil_h, ox * stride_w - pad_w + kw * dil_w, c) with
// m = (n, oy, ox), k = (kh, kw, c), zero in the padding. Element strides of an image, a row
// and a pixel of src (the host checks that src's offsets fit 32 bits); dil counts taps
// (1: dense).
struct conv_t {
    int ic, ih, iw, oh, ow, kw;
    int stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
    int sn, sh, sw;
};

// The convolution's A copies: the K-major walk of copier_t (k = t % 8 + 8 h, rows t / 8 +
// 32 l), each row's window corner worked out once; rows past M get a corner no tap reaches,
// so they read nothing (zero-filled). Where IC is a multiple of BK (ResNet's layers), every
// slice lies within one tap: the slice's tap and first channel advance by BK from slice to
// slice (issue() is called for slices 0, 1, 2, ... in order), with no division, no K tail
// and one bounds test per row for all its k; otherwise each k finds its tap by division.
template <int ROWS, int BK>
struct gather_t {
    static constexpr int stride = ROWS + PAD, rows_k = ROWS / 32, ks_k = BK / 8;
    const float *src;
    int pix[rows_k]; // src offset of the window's corner pixel (may lie in the padding)
    int y0[rows_k], x0[rows_k];
    int kk, smem;
    bool whole; // IC % BK == 0: slices within one tap
    int c0, tx, ty; // whole: the next slice's first channel and tap (column, row)

    gather_t() = default;
    __device__ __forceinline__ gather_t(
            const conv_t &g, const float *x, int64_t m0, int M, int tid)
        : src(x), whole(g.ic % BK == 0), c0(0), tx(0), ty(0) {
        kk = tid % 8;
        smem = kk * stride + tid / 8;
        const int per_image = g.oh * g.ow;
#pragma unroll
        for (int l = 0; l < rows_k; ++l) {
            const int m = int(m0) + tid / 8 + 32 * l;
            const int n = m / per_image, rem = m - n * per_image;
            const int oy = rem / g.ow, ox = rem - oy * g.ow;
            const int y = oy * g.stride_h - g.pad_h;
            y0[l] = m < M ? y : -(1 << 30);
            x0[l] = ox * g.stride_w - g.pad_w;
            pix[l] = m < M ? n * g.sn + y * g.sh + x0[l] * g.sw : 0;
        }
    }

    __device__ __forceinline__ void issue(const conv_t &g, float *stage, int k0, int K) {
        if (whole) {
            const int dy = ty * g.dil_h, dx = tx * g.dil_w;
            const int shift = dy * g.sh + dx * g.sw + c0 + kk;
#pragma unroll
            for (int l = 0; l < rows_k; ++l) {
                const int y = y0[l] + dy, x = x0[l] + dx;
                const bool ok = unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
                const float *p = ok ? src + (pix[l] + shift) : src;
#pragma unroll
                for (int h = 0; h < ks_k; ++h)
                    copy4(stage + smem + 8 * h * stride + 32 * l, ok ? p + 8 * h : p, ok);
            }
            c0 += BK;
            if (c0 == g.ic) {
                c0 = 0;
                if (++tx == g.kw) tx = 0, ++ty;
            }
            return;
        }
#pragma unroll
        for (int h = 0; h < ks_k; ++h) {
            // This thread's k: one tap and channel for all its rows.
            const int k = k0 + kk + 8 * h;
            const unsigned tap = unsigned(k) / unsigned(g.ic), c = unsigned(k) - tap * g.ic;
            const unsigned kh = tap / unsigned(g.kw), kw = tap - kh * g.kw;
            const int dy = int(kh) * g.dil_h, dx = int(kw) * g.dil_w;
            const int shift = dy * g.sh + dx * g.sw + int(c);
#pragma unroll
            for (int l = 0; l < rows_k; ++l) {
                const int y = y0[l] + dy, x = x0[l] + dx;
                const bool ok = k < K && unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
                copy4(stage + smem + 8 * h * stride + 32 * l, ok ? src + (pix[l] + shift) : src,
                        ok);
            }
        }
    }
};

// The convolution's A kept as rows (A_ROWS with CONV): rows_copier_t's walk (quad
// t % (BK / 4) of rows t / (BK / 4) + rows_pass l), each row's window corner worked out once
// as in gather_t. Whole slices (IC a multiple of BK) take one tap and BK channels of each
// row's pixel: 16-byte copies where src's pixels, rows and images and its start are 4-float
// aligned (a padded pixel zero-fills its quad), 4-byte ones otherwise; other ICs find each
// k's tap by division, 4-byte copies.
template <int ROWS, int BK>
struct gather_rows_t {
    using walk = rows_copier_t<ROWS, BK>;
    static constexpr int stride = walk::stride, rows_pass = walk::rows_pass,
                         passes = walk::passes > 0 ? walk::passes : 1; // (unused shapes: 0)
    const float *src;
    int pix[passes], y0[passes], x0[passes];
    int kq, smem;
    bool whole, wide;
    int c0, tx, ty;

    gather_rows_t() = default;
    __device__ __forceinline__ gather_rows_t(
            const conv_t &g, const float *x, int64_t m0, int M, int tid)
        : src(x), whole(g.ic % BK == 0), c0(0), tx(0), ty(0) {
        kq = 4 * (tid % walk::quads);
        const int r = tid / walk::quads;
        smem = r * stride + kq;
        wide = whole && g.sn % 4 == 0 && g.sh % 4 == 0 && g.sw % 4 == 0
                && reinterpret_cast<uintptr_t>(x) % 16 == 0;
        const int per_image = g.oh * g.ow;
#pragma unroll
        for (int l = 0; l < passes; ++l) {
            const int m = int(m0) + r + rows_pass * l;
            const int n = m / per_image, rem = m - n * per_image;
            const int oy = rem / g.ow, ox = rem - oy * g.ow;
            const int y = oy * g.stride_h - g.pad_h;
            y0[l] = m < M ? y : -(1 << 30);
            x0[l] = ox * g.stride_w - g.pad_w;
            pix[l] = m < M ? n * g.sn + y * g.sh + x0[l] * g.sw : 0;
        }
    }

    __device__ __forceinline__ void issue(const conv_t &g, float *stage, int k0, int K) {
        if (whole) {
            const int dy = ty * g.dil_h, dx = tx * g.dil_w;
            const int shift = dy * g.sh + dx * g.sw + c0 + kq;
#pragma unroll
            for (int l = 0; l < passes; ++l) {
                const int y = y0[l] + dy, x = x0[l] + dx;
                const bool ok = unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
                const float *p = ok ? src + (pix[l] + shift) : src;
                float *dst = stage + smem + rows_pass * l * stride;
                if (wide) {
                    copy16(dst, p, ok ? 16 : 0);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        copy4(dst + j, ok ? p + j : p, ok);
                }
            }
            c0 += BK;
            if (c0 == g.ic) {
                c0 = 0;
                if (++tx == g.kw) tx = 0, ++ty;
            }
            return;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int k = k0 + kq + j;
            const unsigned tap = unsigned(k) / unsigned(g.ic), c = unsigned(k) - tap * g.ic;
            const unsigned kh = tap / unsigned(g.kw), kw = tap - kh * g.kw;
            const int dy = int(kh) * g.dil_h, dx = int(kw) * g.dil_w;
            const int shift = dy * g.sh + dx * g.sw + int(c);
#pragma unroll
            for (int l = 0; l < passes; ++l) {
                const int y = y0[l] + dy, x = x0[l] + dx;
                const bool ok = k < K && unsigned(y) < unsigned(g.ih) && unsigned(x) < unsigned(g.iw);
                copy4(stage + smem + rows_pass * l * stride + j,
                        ok ? src + (pix[l] + shift) : src, ok);
            }
        }
    }
};

// Where the output stage writes and what it adds (pointers already at the batch's start).
struct output_t {
    const float *c, *bias;
    int64_t bias_sm, bias_sn, c_sm, c_sn;
    int n;
    epilogue_t ep;
    float c_inv;
};

// Columns nb.. nb + 3 of row m (those below N) from their scaled sums: per-column weights
// scale, bias, post-ops, dst scale, accumulation. Not inlined: one copy of this code (and of
// the eltwise) per kernel, not one per output element.
__device__ __noinline__ float4 finish(const output_t &o, float4 v4, int64_t m, int64_t nb) {
    float v[4] = {v4.x, v4.y, v4.z, v4.w};
    const float *c = o.c + m * o.c_sm;
    for (int j = 0; j < 4; ++j) {
        const int64_t n = nb + j;
        if (n >= o.n) break;
        if (o.ep.b_per_n) v[j] *= o.ep.scale_b[n];
        if (o.bias) v[j] += o.bias[m * o.bias_sm + n * o.bias_sn];
        const float old = o.ep.sum_at || o.ep.accumulate ? c[n * o.c_sn] : 0.f;
        if (o.ep.sum_at == 1) v[j] += o.ep.sum_scale * (old - o.ep.sum_zp);
        if (o.ep.elt) v[j] = gemm_eltwise(o.ep.elt, v[j], o.ep.alpha);
        if (o.ep.sum_at == 2) v[j] += o.ep.sum_scale * (old - o.ep.sum_zp);
        v[j] *= o.c_inv;
        if (o.ep.accumulate) v[j] += old;
    }
    return make_float4(v[0], v[1], v[2], v[3]);
}

// CONV: A is gathered from src (conv_t); A_KMAJOR must be true then.
// PIPE: the next k's A and B pieces come into registers while this k's FMAs run, across
// slices too (the barrier and the next slice's first shared reads sit under the last k's
// FMAs), at 8 + 16 more registers; the sm_90a entries use it.
// A_ROWS: A (K-major) stays [m][k] in shared memory (rows_copier_t), read as float4s along k:
// a thread takes its 4 WMC rows' next 4 k at once (as many shared reads per FMA as the
// [k][m] layout), its rows 4 apart so that a warp's 4 row groups read neighbouring rows.
template <int BM, int BN, int BK, int WMC, int WNC, int STAGES, bool A_KMAJOR, bool B_NMAJOR,
        bool CONV = false, bool PIPE = false, bool A_ROWS = false>
__device__ __forceinline__ void sgemm(const float *__restrict__ A, const float *__restrict__ B,
        float *C, const float *__restrict__ bias, int64_t a_off, int64_t a_sm, int64_t a_sk,
        int64_t b_off, int64_t b_sk, int64_t b_sn, int64_t c_off, int64_t c_sm, int64_t c_sn,
        int64_t bias_off, int64_t bias_sm, int64_t bias_sn, const batch_t &bt, int M, int N,
        int K, const epilogue_t &ep, const conv_t &cv = conv_t()) {
    static_assert(!CONV || A_KMAJOR, "the gather walks A along K");
    static_assert(BM / (16 * WMC) * (BN / (32 * WNC)) == threads / 32, "8 warps per block");
    static_assert(STAGES >= 2, "a slice in flight while one is multiplied");
    static_assert(!A_ROWS || (A_KMAJOR && !PIPE), "rows of a K-major matrix");
    static_assert(!A_ROWS || rows_copier_t<BM, BK>::fits,
            "whole quads, whole passes; 4 neighbouring rows' quads in 32 banks");
    constexpr int a_outer = A_ROWS ? BM : BK;
    constexpr int a_inner = A_ROWS ? rows_copier_t<BM, BK>::stride : BM + PAD;
    __shared__ __align__(16) float As[STAGES][a_outer][a_inner];
    __shared__ __align__(16) float Bs[STAGES][BK][BN + PAD];

    const int tid = threadIdx.x;
    // The launch order in bands of group_m block rows (the last band may be narrower): x
    // walks down a band's rows first, then across its columns.
    int64_t bx = blockIdx.x, by = blockIdx.y;
    {
        const int64_t id = int64_t(blockIdx.y) * gridDim.x + blockIdx.x;
        const int64_t first = id / (int64_t(group_m) * gridDim.x) * group_m;
        const int64_t height = gridDim.y - first < group_m ? gridDim.y - first : group_m;
        const int64_t in = id - first * gridDim.x;
        by = first + in % height;
        bx = in / height;
    }
    const int64_t m0 = by * BM, n0 = bx * BN;
    // The batch's offsets (the last dimension varies fastest).
    int64_t b = blockIdx.z;
    int64_t oa = a_off, ob = b_off, oc = c_off, obias = bias_off;
#pragma unroll
    for (int d = max_batch - 1; d >= 0 && gridDim.z > 1; --d) {
        const int64_t i = b % bt.dims[d];
        b /= bt.dims[d];
        oa += i * bt.a[d], ob += i * bt.b[d], oc += i * bt.c[d], obias += i * bt.bias[d];
    }

    copier_t<BM, BK, A_KMAJOR> ca(A + oa, m0, CONV || A_ROWS ? 0 : M, a_sm, a_sk, tid);
    rows_copier_t<BM, BK> ra(A + oa, m0, A_ROWS && !CONV ? M : 0, a_sm, a_sk, tid);
    copier_t<BN, BK, !B_NMAJOR> cb(B + ob, n0, N, b_sn, b_sk, tid);
    gather_t<BM, BK> ga = CONV && !A_ROWS ? gather_t<BM, BK>(cv, A + oa, m0, M, tid)
                                          : gather_t<BM, BK>();
    gather_rows_t<BM, BK> gr = CONV && A_ROWS ? gather_rows_t<BM, BK>(cv, A + oa, m0, M, tid)
                                              : gather_rows_t<BM, BK>();
    auto issue_at = [&](int slice, int stage) {
        if (CONV && A_ROWS) gr.issue(cv, &As[stage][0][0], slice * BK, K);
        else if (CONV) ga.issue(cv, &As[stage][0][0], slice * BK, K);
        else if (A_ROWS) ra.issue(&As[stage][0][0], slice * BK, K);
        else ca.issue(&As[stage][0][0], slice * BK, K);
        cb.issue(&Bs[stage][0][0], slice * BK, K);
    };
    auto issue = [&](int slice) { issue_at(slice, slice % STAGES); };

    const int warp = tid / 32, lane = tid % 32;
    constexpr int warps_n = BN / (32 * WNC);
    // A thread's rows: row + 16 i + row_step j (j < 4).
    constexpr int row_step = A_ROWS ? 4 : 1;
    const int row = (warp / warps_n) * 16 * WMC + (lane / 8) * (A_ROWS ? 1 : 4);
    const int col = (warp % warps_n) * 32 * WNC + (lane % 8) * 4;

    float acc[4 * WMC][4 * WNC];
#pragma unroll
    for (int i = 0; i < 4 * WMC; ++i)
#pragma unroll
        for (int j = 0; j < 4 * WNC; ++j)
            acc[i][j] = 0.f;

    // This k's pieces of A (4 WMC rows) and B (4 WNC columns) from shared memory, as float4s.
    auto pieces = [&](int stage, int k, float *a, float *bv) {
#pragma unroll
        for (int i = 0; i < WMC; ++i) {
            const float4 x = *reinterpret_cast<const float4 *>(&As[stage][k][row + 16 * i]);
            a[4 * i] = x.x, a[4 * i + 1] = x.y, a[4 * i + 2] = x.z, a[4 * i + 3] = x.w;
        }
#pragma unroll
        for (int j = 0; j < WNC; ++j) {
            const float4 x = *reinterpret_cast<const float4 *>(&Bs[stage][k][col + 32 * j]);
            bv[4 * j] = x.x, bv[4 * j + 1] = x.y, bv[4 * j + 2] = x.z, bv[4 * j + 3] = x.w;
        }
    };
    auto fmas = [&](const float *a, const float *bv) {
#pragma unroll
        for (int i = 0; i < 4 * WMC; ++i)
#pragma unroll
            for (int j = 0; j < 4 * WNC; ++j)
                acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
    };

    const int slices = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < slices) issue(s);
        copy_commit();
    }
    if (PIPE) {
        static_assert(!PIPE || BK % 2 == 0, "pieces alternate between two register sets");
        // Slice 0 landed; the last stage takes slice STAGES - 1 (no one reads it yet).
        copy_wait<STAGES - 2>();
        __syncthreads();
        if (STAGES - 1 < slices) issue_at(STAGES - 1, STAGES - 1);
        copy_commit();
        float a[2][4 * WMC], bv[2][4 * WNC];
        pieces(0, 0, a[0], bv[0]);
        int cur = 0; // the stage of slice s
        for (int s = 0; s < slices; ++s) {
            const int next = cur + 1 == STAGES ? 0 : cur + 1;
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                const int f = k % 2;
                if (k + 1 < BK) {
                    pieces(cur, k + 1, a[f ^ 1], bv[f ^ 1]);
                } else {
                    // Slice s + 1 has landed for every thread, and every thread has read all
                    // of slice s (its last pieces came at k - 1): its stage takes slice
                    // s + STAGES. Past the last slice the pieces read are stale and unused.
                    copy_wait<STAGES - 2>();
                    __syncthreads();
                    if (s + STAGES < slices) issue_at(s + STAGES, cur);
                    copy_commit();
                    pieces(next, 0, a[f ^ 1], bv[f ^ 1]);
                }
                fmas(a[f], bv[f]);
            }
            cur = next;
        }
    } else if (A_ROWS) {
        for (int s = 0; s < slices; ++s) {
            copy_wait<STAGES - 2>();
            __syncthreads();
            if (s + STAGES - 1 < slices) issue(s + STAGES - 1);
            copy_commit();
            const int cur = s % STAGES;
#pragma unroll
            for (int kq = 0; kq < BK; kq += 4) {
                // The next 4 k of this thread's rows, then k by k B's pieces and the FMAs.
                float4 a4[4 * WMC];
#pragma unroll
                for (int i = 0; i < 4 * WMC; ++i)
                    a4[i] = *reinterpret_cast<const float4 *>(
                            &As[cur][row + 16 * (i / 4) + row_step * (i % 4)][kq]);
#pragma unroll
                for (int kk = 0; kk < 4; ++kk) {
                    float a[4 * WMC], bv[4 * WNC];
#pragma unroll
                    for (int i = 0; i < 4 * WMC; ++i)
                        a[i] = kk == 0 ? a4[i].x : kk == 1 ? a4[i].y : kk == 2 ? a4[i].z : a4[i].w;
#pragma unroll
                    for (int j = 0; j < WNC; ++j) {
                        const float4 x =
                                *reinterpret_cast<const float4 *>(&Bs[cur][kq + kk][col + 32 * j]);
                        bv[4 * j] = x.x, bv[4 * j + 1] = x.y, bv[4 * j + 2] = x.z,
                                  bv[4 * j + 3] = x.w;
                    }
                    fmas(a, bv);
                }
            }
        }
    } else {
        for (int s = 0; s < slices; ++s) {
            // Slice s has landed for every thread, and every thread is done with slice s - 1,
            // whose stage the copies of slice s + STAGES - 1 now take.
            copy_wait<STAGES - 2>();
            __syncthreads();
            if (s + STAGES - 1 < slices) issue(s + STAGES - 1);
            copy_commit();
            const int cur = s % STAGES;
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                float a[4 * WMC], bv[4 * WNC];
                pieces(cur, k, a, bv);
                fmas(a, bv);
            }
        }
    }

    // The output stage; 4 columns of a row go out as one float4 where C allows. Anything
    // beyond common scales and a per-column bias goes through finish() (one copy of its code
    // per kernel).
    const float sab = (ep.scale_a ? ep.scale_a[0] : ep.host_a)
            * (ep.b_per_n ? 1.f : ep.scale_b ? ep.scale_b[0] : ep.host_b);
    const float c_inv = 1.f / (ep.scale_c ? ep.scale_c[0] : ep.host_c);
    const output_t out = {C + oc, bias ? bias + obias : nullptr, bias_sm, bias_sn, c_sm, c_sn, N,
            ep, c_inv};
    const bool plain = !bias && !ep.b_per_n && !ep.sum_at && !ep.elt && !ep.accumulate;
    // A bias per column alone (the convolutions' FWD_B): this thread's columns' bias read
    // once and added here, not through finish() per element (on an H200 the 1x1 256->64@56
    // took 0.263 ms with bias against 0.210 without).
    const bool col_bias = bias && bias_sm == 0 && !ep.b_per_n && !ep.sum_at && !ep.elt
            && !ep.accumulate;
    float bcol[4 * WNC];
#pragma unroll
    for (int j = 0; j < 4 * WNC; ++j) {
        const int64_t n = n0 + col + 32 * (j / 4) + j % 4;
        bcol[j] = col_bias && n < N ? out.bias[n * bias_sn] : 0.f;
    }
    const bool c_vec = c_sn == 1 && c_sm % 4 == 0 && oc % 4 == 0;
#pragma unroll
    for (int i = 0; i < 4 * WMC; ++i) {
        const int64_t m = m0 + row + (i / 4) * 16 + (i % 4) * row_step;
        if (m >= M) continue;
#pragma unroll
        for (int jc = 0; jc < WNC; ++jc) {
            const int64_t nb = n0 + col + 32 * jc;
            if (nb >= N) continue;
            float4 v = make_float4(acc[i][4 * jc] * sab, acc[i][4 * jc + 1] * sab,
                    acc[i][4 * jc + 2] * sab, acc[i][4 * jc + 3] * sab);
            if (plain) {
                v = make_float4(v.x * c_inv, v.y * c_inv, v.z * c_inv, v.w * c_inv);
            } else if (col_bias) {
                const float *bc = &bcol[4 * jc];
                v = make_float4((v.x + bc[0]) * c_inv, (v.y + bc[1]) * c_inv,
                        (v.z + bc[2]) * c_inv, (v.w + bc[3]) * c_inv);
            } else {
                v = finish(out, v, m, nb);
            }
            float *c = C + oc + m * c_sm;
            if (c_vec && nb + 3 < N) {
                *reinterpret_cast<float4 *>(c + nb) = v;
            } else {
                const float x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (nb + j < N) c[(nb + j) * c_sn] = x[j];
            }
        }
    }
}


} // namespace

// The kernels' parameters: seven buffers first (embed_ptx.py marks them global pointers).
#define SGEMM_PARAMS                                                                          \
    const float *__restrict__ a, const float *__restrict__ b, float *c,                      \
            const float *__restrict__ bias, const float *scale_a, const float *scale_b,      \
            const float *scale_c, int64_t a_off, int64_t a_sm, int64_t a_sk, int64_t b_off,  \
            int64_t b_sk, int64_t b_sn, int64_t c_off, int64_t c_sm, int64_t c_sn,           \
            int64_t bias_off, int64_t bias_sm, int64_t bias_sn, int64_t d0, int64_t d1,      \
            int64_t d2, int64_t d3, int64_t a_sb0, int64_t a_sb1, int64_t a_sb2,             \
            int64_t a_sb3, int64_t b_sb0, int64_t b_sb1, int64_t b_sb2, int64_t b_sb3,       \
            int64_t c_sb0, int64_t c_sb1, int64_t c_sb2, int64_t c_sb3, int64_t bias_sb0,    \
            int64_t bias_sb1, int64_t bias_sb2, int64_t bias_sb3, int M, int N, int K,       \
            float host_a, float host_b, float host_c, int accumulate, int b_per_n,           \
            int sum_at, float sum_scale, float sum_zp, int elt, float alpha, float beta

#define SGEMM_KERNEL(NAME, BM, BN, BK, WMC, WNC, ST, AK, BNM, MIN_BLOCKS, PIPE, ROWS)          \
    extern "C" __global__ void __launch_bounds__(threads, MIN_BLOCKS) NAME(SGEMM_PARAMS) {    \
        (void)beta;                                                                           \
        const batch_t bt = {{d0, d1, d2, d3}, {a_sb0, a_sb1, a_sb2, a_sb3},                   \
                {b_sb0, b_sb1, b_sb2, b_sb3}, {c_sb0, c_sb1, c_sb2, c_sb3},                   \
                {bias_sb0, bias_sb1, bias_sb2, bias_sb3}};                                    \
        const epilogue_t ep = {scale_a, scale_b, scale_c, host_a, host_b, host_c, b_per_n,   \
                sum_at, sum_scale, sum_zp, elt, alpha, accumulate};                           \
        sgemm<BM, BN, BK, WMC, WNC, ST, AK, BNM, false, PIPE, ROWS>(a, b, c, bias, a_off,     \
                a_sm,                                                                         \
                a_sk, b_off, b_sk, b_sn, c_off, c_sm, c_sn, bias_off, bias_sm, bias_sn, bt, M, N, \
                K, ep);                                                                       \
    }

// The implicit-GEMM convolution: A gathered from channels-last src (a), B the weights as
// K-major rows (b_sk 1, b_sn between output channels); groups as a batch dimension.
#define SGEMM_CONV_KERNEL(NAME, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, PIPE, ROWS)              \
    extern "C" __global__ void __launch_bounds__(threads, MIN_BLOCKS) NAME(SGEMM_PARAMS,      \
            int ic, int ih, int iw, int oh, int ow, int kw, int stride_h, int stride_w,       \
            int pad_h, int pad_w, int dil_h, int dil_w, int src_sn, int src_sh, int src_sw) { \
        (void)beta;                                                                           \
        const batch_t bt = {{d0, d1, d2, d3}, {a_sb0, a_sb1, a_sb2, a_sb3},                   \
                {b_sb0, b_sb1, b_sb2, b_sb3}, {c_sb0, c_sb1, c_sb2, c_sb3},                   \
                {bias_sb0, bias_sb1, bias_sb2, bias_sb3}};                                    \
        const epilogue_t ep = {scale_a, scale_b, scale_c, host_a, host_b, host_c, b_per_n,   \
                sum_at, sum_scale, sum_zp, elt, alpha, accumulate};                           \
        const conv_t cv = {ic, ih, iw, oh, ow, kw, stride_h, stride_w, pad_h, pad_w, dil_h,  \
                dil_w, src_sn, src_sh, src_sw};                                               \
        sgemm<BM, BN, BK, WMC, WNC, ST, true, false, true, PIPE, ROWS>(a, b, c, bias, a_off,   \
                a_sm,                                                                         \
                a_sk, b_off, b_sk, b_sn, c_off, c_sm, c_sn, bias_off, bias_sm, bias_sn, bt, M, \
                N, K, ep, cv);                                                                \
    }

// Names: anydnn_sgemm_<A k|m major><B n|k major>_<TILE>, anydnn_sgemm_conv_<TILE>; TILE is
// <BM>x<BN>, with k16 appended for 16-deep K slices and s<STAGES> where the stages are not
// those of the tile's first entry. Shared memory: STAGES * BK * (BM + BN + 8) * 4 bytes.
#define SGEMM_LAYOUTS(TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, PIPE)                        \
    SGEMM_KERNEL(anydnn_sgemm_kn_##TILE, BM, BN, BK, WMC, WNC, ST, true, true, MIN_BLOCKS,      \
            PIPE, false)                                                                      \
    SGEMM_KERNEL(anydnn_sgemm_kk_##TILE, BM, BN, BK, WMC, WNC, ST, true, false, MIN_BLOCKS,     \
            PIPE, false)                                                                      \
    SGEMM_KERNEL(anydnn_sgemm_mn_##TILE, BM, BN, BK, WMC, WNC, ST, false, true, MIN_BLOCKS,     \
            PIPE, false)                                                                      \
    SGEMM_KERNEL(anydnn_sgemm_mk_##TILE, BM, BN, BK, WMC, WNC, ST, false, false, MIN_BLOCKS,    \
            PIPE, false)                                                                      \
    SGEMM_CONV_KERNEL(anydnn_sgemm_conv_##TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, PIPE,  \
            false)

#define SGEMM_KMAJOR_A_LAYOUTS(TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, PIPE)               \
    SGEMM_KERNEL(anydnn_sgemm_kn_##TILE, BM, BN, BK, WMC, WNC, ST, true, true, MIN_BLOCKS,      \
            PIPE, false)                                                                      \
    SGEMM_KERNEL(anydnn_sgemm_kk_##TILE, BM, BN, BK, WMC, WNC, ST, true, false, MIN_BLOCKS,     \
            PIPE, false)                                                                      \
    SGEMM_CONV_KERNEL(anydnn_sgemm_conv_##TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, PIPE,  \
            false)

// A kept as rows (A_ROWS): K-major A only, and the convolution gathering its rows.
#define SGEMM_A_ROWS_LAYOUTS(TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS)                       \
    SGEMM_KERNEL(anydnn_sgemm_kn_##TILE, BM, BN, BK, WMC, WNC, ST, true, true, MIN_BLOCKS,      \
            false, true)                                                                      \
    SGEMM_KERNEL(anydnn_sgemm_kk_##TILE, BM, BN, BK, WMC, WNC, ST, true, false, MIN_BLOCKS,     \
            false, true)                                                                      \
    SGEMM_CONV_KERNEL(anydnn_sgemm_conv_##TILE, BM, BN, BK, WMC, WNC, ST, MIN_BLOCKS, false,   \
            true)

#if defined(ANYDNN_SGEMM_SM90) || !defined(__CUDA_ARCH__)
// The sm_90a build (a second PTX module, Hopper): the only target whose static shared arrays
// may pass 48 KiB through NVIDIA's OpenCL. 16-deep K slices in 3 or 4 stages, with the
// pieces of the next k read during this k's FMAs (PIPE); one CTA per SM at 8 x 16 (16 x 8)
// per thread, two at 8 x 8. Names end in _sm90.
SGEMM_LAYOUTS(128x256k16_sm90, 128, 256, 16, 2, 4, 3, 1, true) // 74 KiB
SGEMM_LAYOUTS(128x256k16s4_sm90, 128, 256, 16, 2, 4, 4, 1, true) // 98 KiB
SGEMM_LAYOUTS(256x128k16_sm90, 256, 128, 16, 4, 2, 3, 1, true) // 74 KiB
SGEMM_LAYOUTS(128x128k16_sm90, 128, 128, 16, 2, 2, 4, 2, true) // 66 KiB
// For convolutions' shapes (forced through ANYDNN_GPU_TUNING, or the convolutions' own pick,
// conv_sgemm_tiles): 64 output channels in 256 x 64 blocks (8 x 8 per thread, two CTAs per
// SM: half the shared reads per FMA of 128 x 64) or 512 x 64 (16 x 8, one CTA), 128 x 64 for
// fewer rows; 192 x 128 (12 x 8) for 3x3 256@14's 12544 x 256, which is 66 x 2 = 132 blocks:
// one per SM of the H100. 192 and 512 rows do not divide the 256 threads as the M-major
// copies of A need: A K-major only there (kn, kk and the convolution).
SGEMM_LAYOUTS(256x64k16_sm90, 256, 64, 16, 2, 2, 4, 2, true) // 82 KiB
SGEMM_KMAJOR_A_LAYOUTS(512x64k16_sm90, 512, 64, 16, 4, 2, 3, 1, true) // 110 KiB
SGEMM_LAYOUTS(128x64k16_sm90, 128, 64, 16, 2, 1, 4, 2, true) // 50 KiB
SGEMM_KMAJOR_A_LAYOUTS(192x128k16_sm90, 192, 128, 16, 3, 2, 4, 1, true) // 82 KiB
// 128 x 64 in 3 stages at three CTAs per SM (24 warps, 80 registers: a few spilled), for
// latency-bound shapes (the 1x1 GEMMs).
SGEMM_LAYOUTS(128x64k16m3_sm90, 128, 64, 16, 2, 1, 3, 3, true) // 38 KiB
// A kept as rows in shared memory, filled by 16-byte copies (K-major A: the 1x1
// convolutions' src and matmul's row-major A): 256 x 64 (8 x 8 per thread) in 4 stages of 16
// k or 2 of 32, two CTAs per SM; 128 x 128 likewise. Forced only: on an H200 the 200704 x 64
// x 256 GEMM (A and B K-major, no bias) took 0.250 ms on 256x64r against 0.210 on
// 256x64k16_sm90 (its 4 k per shared read leave no registers for the next pieces).
SGEMM_A_ROWS_LAYOUTS(256x64r_sm90, 256, 64, 16, 2, 2, 4, 2) // 97 KiB
SGEMM_A_ROWS_LAYOUTS(256x64rk32_sm90, 256, 64, 32, 2, 2, 2, 2) // 89 KiB
SGEMM_A_ROWS_LAYOUTS(128x128r_sm90, 128, 128, 16, 2, 2, 4, 2) // 73 KiB
// 128 x 64 (8 x 4 per thread) at three CTAs per SM: 24 warps to hide the copies' latency.
SGEMM_A_ROWS_LAYOUTS(128x64r_sm90, 128, 64, 16, 2, 1, 4, 3) // 57 KiB
#endif
#if !defined(ANYDNN_SGEMM_SM90)
// The sm_80 build (Ampere and later): static shared memory under 48 KiB.
// The size picks among 128x256, 128x128, 128x64 and 64x64 (sgemm_size_order in
// sgemm_launch.cpp), the others are forced through ANYDNN_GPU_TUNING's sgemm section, for
// timing. Two CTAs per SM at 128 registers, or one with 8 x 16 (16 x 8) elements per thread and
// up to 255 registers (fewer shared reads per FMA, half the copies and barriers per FMA).
SGEMM_LAYOUTS(128x128, 128, 128, 8, 2, 2, 4, 2, false) // 33 KiB
SGEMM_LAYOUTS(128x64, 128, 64, 8, 2, 1, 4, 2, false) // 25 KiB
SGEMM_LAYOUTS(64x64, 64, 64, 8, 1, 1, 4, 4, false) // 17 KiB
SGEMM_LAYOUTS(128x128k16, 128, 128, 16, 2, 2, 2, 2, false) // 33 KiB
SGEMM_LAYOUTS(128x64k16, 128, 64, 16, 2, 1, 3, 2, false) // 38 KiB
SGEMM_LAYOUTS(256x128, 256, 128, 8, 4, 2, 3, 1, false) // 38 KiB
SGEMM_LAYOUTS(128x256, 128, 256, 8, 2, 4, 3, 1, false) // 38 KiB
SGEMM_LAYOUTS(128x128s3, 128, 128, 8, 2, 2, 3, 2, false) // 25 KiB
// 128x256 with the next k's pieces read under this k's FMAs (PIPE), for Ampere and to tell
// that from the sm_90a entries' deeper slices on Hopper.
SGEMM_LAYOUTS(128x256p, 128, 256, 8, 2, 4, 3, 1, true) // 38 KiB
#endif
