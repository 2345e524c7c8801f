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
// are float4s its warp shares (no bank conflicts). K goes in BK-deep slices through two
// shared buffers: the next slice is read into registers while the current one is multiplied
// (one barrier per slice). Rows of A and columns of B past M and N read a clamped (valid)
// address: they only feed outputs that are never stored. K's tail reads zeros.
#include <cstdint>

namespace {

constexpr int threads = 256;
constexpr int max_batch = 4;

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
    int elt; // 0 none, 1 relu (alpha: negative slope), 2 gelu_erf, 3 gelu_tanh, 4 swish
    float alpha;
    int accumulate;
};

// One copy of the eltwise code per kernel, not one per output element.
__device__ __noinline__ float eltwise(int alg, float x, float alpha) {
    switch (alg) {
        case 1: return x > 0.f ? x : alpha * x;
        case 2: return 0.5f * x * (1.f + erff(x * 0.70710678118654752f));
        case 3: {
            const float g = 0.79788456080286536f * x * (1.f + 0.044715f * x * x);
            return 0.5f * x * (1.f + tanhf(g));
        }
        case 4: return x / (1.f + expf(-alpha * x));
        default: return x;
    }
}

// K-major copies store transposed: 8 k rows of 4 words land in 32 banks.
constexpr int PAD = 4;

// One operand's copy plan (X: A with rows m, or B with columns n as rows).
struct Walk {
    int64_t start; // element offset of copy 0 (without the batch's)
    int step; // elements between copies l and l + 1
    int k; // k of copy 0 within the slice
    int smem; // shared offset of copy 0 within a buffer
    unsigned ok; // bit l: copy l's row is inside the matrix
};

// The plan of a ROWS x BK slice whose rows start at r0 of `rows`; K_MAJOR: neighbouring
// threads walk k (the K-major layout), else rows.
template <bool K_MAJOR, int ROWS, int BK>
__device__ __forceinline__ Walk walk(int tid, int64_t r0, int rows, int64_t s_row, int64_t s_k) {
    constexpr int copies = ROWS * BK / threads;
    Walk w;
    if (K_MAJOR) {
        const int ri = tid / BK;
        w.k = tid % BK;
        w.start = (r0 + ri) * s_row + w.k * s_k;
        w.step = int((threads / BK) * s_row);
        w.smem = w.k * (ROWS + PAD) + ri;
        w.ok = 0;
        for (int l = 0; l < copies; ++l)
            w.ok |= (r0 + ri + l * (threads / BK) < rows ? 1u : 0u) << l;
    } else {
        const int ri = tid % ROWS;
        w.k = tid / ROWS;
        w.start = min(r0 + ri, int64_t(rows) - 1) * s_row + w.k * s_k;
        w.step = int((threads / ROWS) * s_k);
        w.smem = w.k * (ROWS + PAD) + ri;
        w.ok = (1u << copies) - 1;
    }
    return w;
}

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

// The rows a thread gathers (a K-major walk: copy l is row ri + l * (threads / BK), k fixed
// within the slice): each row's window corner, worked out once; rows past M get a corner no
// tap reaches, so they read zeros.
template <int LA>
struct Gather {
    int pix[LA]; // src offset of the window's corner pixel (may lie in the padding)
    int y0[LA], x0[LA];
};

template <int LA, int BK>
__device__ __forceinline__ Gather<LA> gather(const conv_t &g, int tid, int64_t m0, int M) {
    Gather<LA> q;
    const int per_image = g.oh * g.ow;
#pragma unroll
    for (int l = 0; l < LA; ++l) {
        const int m = int(m0) + tid / BK + l * (threads / BK);
        const int n = m / per_image, rem = m - n * per_image;
        const int oy = rem / g.ow, ox = rem - oy * g.ow;
        const int y0 = oy * g.stride_h - g.pad_h;
        q.y0[l] = m < M ? y0 : -(1 << 30);
        q.x0[l] = ox * g.stride_w - g.pad_w;
        q.pix[l] = m < M ? n * g.sn + y0 * g.sh + q.x0[l] * g.sw : 0;
    }
    return q;
}

// Where the output stage writes and what it adds (pointers already at the batch's start).
struct output_t {
    const float *c, *bias;
    int64_t bias_sm, bias_sn, c_sm, c_sn;
    int n;
    epilogue_t ep;
    float c_inv;
};

// Columns nb.. nb + 3 of row m (those below N) from their scaled sums: per-column weights
// scale, bias, post-ops, dst scale, accumulation.
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
        if (o.ep.elt) v[j] = eltwise(o.ep.elt, v[j], o.ep.alpha);
        if (o.ep.sum_at == 2) v[j] += o.ep.sum_scale * (old - o.ep.sum_zp);
        v[j] *= o.c_inv;
        if (o.ep.accumulate) v[j] += old;
    }
    return make_float4(v[0], v[1], v[2], v[3]);
}

// CONV: A is gathered from src (conv_t) by a K-major walk; A_KMAJOR must be true then.
template <int BM, int BN, int BK, int WMC, int WNC, bool A_KMAJOR, bool B_NMAJOR, bool CONV = false>
__device__ __forceinline__ void sgemm(const float *__restrict__ A, const float *__restrict__ B,
        float *C, const float *__restrict__ bias, int64_t a_off, int64_t a_sm, int64_t a_sk,
        int64_t b_off, int64_t b_sk, int64_t b_sn, int64_t c_off, int64_t c_sm, int64_t c_sn,
        int64_t bias_off, int64_t bias_sm, int64_t bias_sn, const batch_t &bt, int M, int N,
        int K, const epilogue_t &ep, const conv_t &cv = conv_t()) {
    static_assert(!CONV || A_KMAJOR, "the gather walks A along K");
    static_assert(BM / (16 * WMC) * (BN / (32 * WNC)) == threads / 32, "8 warps per block");
    constexpr int LA = BM * BK / threads, LB = BN * BK / threads; // loads per thread per slice
    __shared__ __align__(16) float As[2][BK][BM + PAD];
    __shared__ __align__(16) float Bs[2][BK][BN + PAD];

    const int tid = threadIdx.x;
    const int64_t m0 = int64_t(blockIdx.y) * BM, n0 = int64_t(blockIdx.x) * BN;
    // The batch's offsets (the last dimension varies fastest).
    int64_t b = blockIdx.z;
    int64_t oa = a_off, ob = b_off, oc = c_off, obias = bias_off;
#pragma unroll
    for (int d = max_batch - 1; d >= 0 && gridDim.z > 1; --d) {
        const int64_t i = b % bt.dims[d];
        b /= bt.dims[d];
        oa += i * bt.a[d], ob += i * bt.b[d], oc += i * bt.c[d], obias += i * bt.bias[d];
    }

    // Where each thread's copies of a slice come from and go to: copy l of a thread is copy
    // 0 moved by a fixed step along the walked dimension (rows of a K-major operand, k
    // otherwise). Row steps within a block fit 32 bits (the host checks). Rows of an
    // M-major operand past M are clamped; those of a K-major one are skipped (ok bits).
    const Walk wa = walk<A_KMAJOR, BM, BK>(tid, m0, M, a_sm, a_sk);
    const Walk wb = walk<!B_NMAJOR, BN, BK>(tid, n0, N, b_sn, b_sk);
    const float *pa = A + oa + wa.start, *pb = B + ob + wb.start;
    const Gather<LA> ga = CONV ? gather<LA, BK>(cv, tid, m0, M) : Gather<LA>();
    const int a_step = int(BK * a_sk), b_step = int(BK * b_sk); // within 32 bits, as the steps

    // Blocks inside M and N read whole slices without checks but for K's tail: the branch is
    // the same for every thread of the block, and the loads need no predicates.
    const bool edge = m0 + BM > M || n0 + BN > N;
    float ra[LA], rb[LB];
    // Slice k0 into registers; `checked`: rows past M or N, or K's end, may be inside it.
    auto read = [&](int k0, bool checked) {
        if (CONV) {
            // This thread's k in the slice: one tap and channel for all its rows.
            const int k = k0 + wa.k;
            const unsigned tap = unsigned(k) / unsigned(cv.ic), c = unsigned(k) - tap * cv.ic;
            const unsigned kh = tap / unsigned(cv.kw), kw = tap - kh * cv.kw;
            const int dy = int(kh) * cv.dil_h, dx = int(kw) * cv.dil_w;
            const int shift = dy * cv.sh + dx * cv.sw + int(c);
            const float *src = A + oa;
#pragma unroll
            for (int l = 0; l < LA; ++l) {
                const int y = ga.y0[l] + dy, x = ga.x0[l] + dx;
                const bool ok = k < K && unsigned(y) < unsigned(cv.ih)
                                && unsigned(x) < unsigned(cv.iw);
                ra[l] = ok ? __ldg(src + (ga.pix[l] + shift)) : 0.f;
            }
        } else if (!checked) {
#pragma unroll
            for (int l = 0; l < LA; ++l)
                ra[l] = __ldg(pa + l * wa.step);
        } else {
#pragma unroll
            for (int l = 0; l < LA; ++l) {
                const int k = wa.k + (A_KMAJOR ? 0 : l * (threads / BM));
                const bool ok = ((wa.ok >> l) & 1) && k0 + k < K;
                ra[l] = ok ? __ldg(pa + l * wa.step) : 0.f;
            }
        }
        if (!checked) {
#pragma unroll
            for (int l = 0; l < LB; ++l)
                rb[l] = __ldg(pb + l * wb.step);
        } else {
#pragma unroll
            for (int l = 0; l < LB; ++l) {
                const int k = wb.k + (B_NMAJOR ? l * (threads / BN) : 0);
                const bool ok = ((wb.ok >> l) & 1) && k0 + k < K;
                rb[l] = ok ? __ldg(pb + l * wb.step) : 0.f;
            }
        }
        pa += a_step;
        pb += b_step;
    };
    auto write = [&](int buf) {
#pragma unroll
        for (int l = 0; l < LA; ++l)
            (&As[buf][0][0])[wa.smem + l * (A_KMAJOR ? threads / BK : (threads / BM) * (BM + PAD))]
                    = ra[l];
#pragma unroll
        for (int l = 0; l < LB; ++l)
            (&Bs[buf][0][0])[wb.smem + l * (B_NMAJOR ? (threads / BN) * (BN + PAD) : threads / BK)]
                    = rb[l];
    };

    const int warp = tid / 32, lane = tid % 32;
    constexpr int warps_n = BN / (32 * WNC);
    const int row = (warp / warps_n) * 16 * WMC + (lane / 8) * 4;
    const int col = (warp % warps_n) * 32 * WNC + (lane % 8) * 4;

    float acc[4 * WMC][4 * WNC];
#pragma unroll
    for (int i = 0; i < 4 * WMC; ++i)
#pragma unroll
        for (int j = 0; j < 4 * WNC; ++j)
            acc[i][j] = 0.f;

    const int slices = (K + BK - 1) / BK;
    if (slices > 0) {
        read(0, edge || K < BK);
        write(0);
    }
    __syncthreads();
    for (int s = 0; s < slices; ++s) {
        const int cur = s & 1;
        const bool more = s + 1 < slices;
        if (more) read((s + 1) * BK, edge || (s + 2) * BK > K);
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[4 * WMC], bv[4 * WNC];
#pragma unroll
            for (int i = 0; i < WMC; ++i) {
                const float4 x = *reinterpret_cast<const float4 *>(&As[cur][k][row + 16 * i]);
                a[4 * i] = x.x, a[4 * i + 1] = x.y, a[4 * i + 2] = x.z, a[4 * i + 3] = x.w;
            }
#pragma unroll
            for (int j = 0; j < WNC; ++j) {
                const float4 x = *reinterpret_cast<const float4 *>(&Bs[cur][k][col + 32 * j]);
                bv[4 * j] = x.x, bv[4 * j + 1] = x.y, bv[4 * j + 2] = x.z, bv[4 * j + 3] = x.w;
            }
#pragma unroll
            for (int i = 0; i < 4 * WMC; ++i)
#pragma unroll
                for (int j = 0; j < 4 * WNC; ++j)
                    acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
        }
        // The other buffer was last read before the previous barrier: free to fill.
        if (more) write(cur ^ 1);
        __syncthreads();
    }

    // The output stage; 4 columns of a row go out as one float4 where C allows. Anything
    // beyond common scales goes through finish() (one copy of its code per kernel).
    const float sab = (ep.scale_a ? ep.scale_a[0] : ep.host_a)
            * (ep.b_per_n ? 1.f : ep.scale_b ? ep.scale_b[0] : ep.host_b);
    const float c_inv = 1.f / (ep.scale_c ? ep.scale_c[0] : ep.host_c);
    const output_t out = {C + oc, bias ? bias + obias : nullptr, bias_sm, bias_sn, c_sm, c_sn, N,
            ep, c_inv};
    const bool plain = !bias && !ep.b_per_n && !ep.sum_at && !ep.elt && !ep.accumulate;
    const bool c_vec = c_sn == 1 && c_sm % 4 == 0 && oc % 4 == 0;
#pragma unroll
    for (int i = 0; i < 4 * WMC; ++i) {
        const int64_t m = m0 + row + (i / 4) * 16 + i % 4;
        if (m >= M) continue;
#pragma unroll
        for (int jc = 0; jc < WNC; ++jc) {
            const int64_t nb = n0 + col + 32 * jc;
            if (nb >= N) continue;
            float4 v = make_float4(acc[i][4 * jc] * sab, acc[i][4 * jc + 1] * sab,
                    acc[i][4 * jc + 2] * sab, acc[i][4 * jc + 3] * sab);
            if (plain)
                v = make_float4(v.x * c_inv, v.y * c_inv, v.z * c_inv, v.w * c_inv);
            else
                v = finish(out, v, m, nb);
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

#define SGEMM_KERNEL(NAME, BM, BN, BK, WMC, WNC, AK, BNM, MIN_BLOCKS)                          \
    extern "C" __global__ void __launch_bounds__(threads, MIN_BLOCKS) NAME(SGEMM_PARAMS) {    \
        (void)beta;                                                                           \
        const batch_t bt = {{d0, d1, d2, d3}, {a_sb0, a_sb1, a_sb2, a_sb3},                   \
                {b_sb0, b_sb1, b_sb2, b_sb3}, {c_sb0, c_sb1, c_sb2, c_sb3},                   \
                {bias_sb0, bias_sb1, bias_sb2, bias_sb3}};                                    \
        const epilogue_t ep = {scale_a, scale_b, scale_c, host_a, host_b, host_c, b_per_n,   \
                sum_at, sum_scale, sum_zp, elt, alpha, accumulate};                           \
        sgemm<BM, BN, BK, WMC, WNC, AK, BNM>(a, b, c, bias, a_off, a_sm, a_sk, b_off, b_sk,   \
                b_sn, c_off, c_sm, c_sn, bias_off, bias_sm, bias_sn, bt, M, N, K, ep);        \
    }

// The implicit-GEMM convolution: A gathered from channels-last src (a), B the weights as
// K-major rows (b_sk 1, b_sn between output channels); groups as a batch dimension.
#define SGEMM_CONV_KERNEL(NAME, BM, BN, BK, WMC, WNC, MIN_BLOCKS)                              \
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
        sgemm<BM, BN, BK, WMC, WNC, true, false, true>(a, b, c, bias, a_off, a_sm, a_sk,      \
                b_off, b_sk, b_sn, c_off, c_sm, c_sn, bias_off, bias_sm, bias_sn, bt, M, N,   \
                K, ep, cv);                                                                   \
    }

// Names: anydnn_sgemm_<A k|m major><B n|k major>_<TILE>, anydnn_sgemm_conv_<TILE>; TILE is
// <BM>x<BN>, with k16 appended for 16-deep K slices.
#define SGEMM_LAYOUTS(TILE, BM, BN, BK, WMC, WNC, MIN_BLOCKS)                                  \
    SGEMM_KERNEL(anydnn_sgemm_kn_##TILE, BM, BN, BK, WMC, WNC, true, true, MIN_BLOCKS)          \
    SGEMM_KERNEL(anydnn_sgemm_kk_##TILE, BM, BN, BK, WMC, WNC, true, false, MIN_BLOCKS)         \
    SGEMM_KERNEL(anydnn_sgemm_mn_##TILE, BM, BN, BK, WMC, WNC, false, true, MIN_BLOCKS)         \
    SGEMM_KERNEL(anydnn_sgemm_mk_##TILE, BM, BN, BK, WMC, WNC, false, false, MIN_BLOCKS)        \
    SGEMM_CONV_KERNEL(anydnn_sgemm_conv_##TILE, BM, BN, BK, WMC, WNC, MIN_BLOCKS)

SGEMM_LAYOUTS(128x128, 128, 128, 8, 2, 2, 2)
SGEMM_LAYOUTS(128x64, 128, 64, 8, 2, 1, 2)
SGEMM_LAYOUTS(64x64, 64, 64, 8, 1, 1, 4)
// Half the barriers per K (forced through ANYDNN_GPU_TUNING's sgemm section, for timing).
SGEMM_LAYOUTS(128x128k16, 128, 128, 16, 2, 2, 2)
SGEMM_LAYOUTS(128x64k16, 128, 64, 16, 2, 1, 2)
// 8 x 16 (16 x 8) elements per thread, one CTA per SM with up to 255 registers: fewer shared
// reads per FMA (forced through ANYDNN_GPU_TUNING, for timing).
SGEMM_LAYOUTS(256x128, 256, 128, 8, 4, 2, 1)
SGEMM_LAYOUTS(128x256, 128, 256, 8, 2, 4, 1)
