// LSTM forward, every step of one (layer, direction) in one launch (sm_90a PTX, loaded through
// OpenCL as a program binary): the persistent recurrent kernel of gpu/rnn/persistent.cpp.
//
// The gates already hold the input part of every step (the host's one big GEMM). CTA b owns
// hidden units [b * units, (b + 1) * units) with all four of their gate columns, keeps their
// recurrent weights (H x units x 4) in shared memory across the steps, and per step computes
// its gate columns for all N rows from h(t-1), applies the cell to its units and writes
// gates (activated), c(t) and h(t) as rnn.cl's rnn_fwd_step does; then a grid-wide barrier
// (an arrival counter, release / acquire at GPU scope) before the next step reads h(t).
// The grid must be co-resident: the host launches at most one CTA per compute unit, and the
// shared array (past half an SM's shared memory) lets only one fit on each. A barrier that
// waits past spin_limit polls sets the error word beside the counter and every CTA leaves,
// its units' h and c of the steps left set to NaN.
//
// Products: a thread owns 4 rows x 4 units x 4 gates of one of `kgroups` K slices (its warp
// mostly one slice: the weights' shared reads are broadcasts), h read in chunk_k-deep chunks,
// the next one loaded before this one's FMAs; the K slices' partial sums meet in shared
// memory, added in slice order.
#include <cstdint>

namespace {

constexpr int threads = 256;
// Shared floats: the weights slice (96 KiB) and the partial sums (68 KiB); 164 KiB in all
// keeps one CTA per SM on Hopper (228 KiB per SM).
constexpr int w_cap = 24576;
// Each thread's 64 partial sums 68 floats apart: neighbours' 16-byte stores fall in
// different banks.
constexpr int part_pitch = 68;
constexpr int part_cap = threads * part_pitch;
constexpr unsigned spin_limit = 1u << 22;
// Quads of k per chunk of h in registers (two chunks live: 4 rows x 2 x chunk_quads float4s).
constexpr int chunk_quads = 2;
constexpr int chunk_k = 4 * chunk_quads;

#if defined(__CUDA_ARCH__)
__device__ __forceinline__ unsigned load_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void add_release(unsigned *p, unsigned v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed(unsigned *p, unsigned v) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
#else
inline unsigned load_acquire(const unsigned *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
inline void add_release(unsigned *p, unsigned v) {
    __atomic_fetch_add(p, v, __ATOMIC_RELEASE);
}
inline void store_relaxed(unsigned *p, unsigned v) {
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
#endif

// h, which other CTAs stored before the barrier: plain loads, ordered after their stores by
// the barrier's acquire (which invalidates this SM's L1) and the CTA barrier after it; cached
// in L1, so a 32-byte sector comes from L2 once for a thread's two neighbouring quads.
__device__ __forceinline__ float4 load_h(const float4 *p) {
    return *p;
}
__device__ __forceinline__ float load_h(const float *p) {
    return *p;
}

__device__ __forceinline__ float sigmoid(float x) {
    return 1.f / (1.f + expf(-x));
}

// Four k of one row of h from `k` on, zeros at and past `ke` (and for rows past N: row null).
__device__ __forceinline__ float4 load_quad(const float *row, int k, int ke, bool vec) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (!row) return v;
    if (vec && k + 4 <= ke) return load_h(reinterpret_cast<const float4 *>(row + k));
    if (k < ke) v.x = load_h(row + k);
    if (k + 1 < ke) v.y = load_h(row + k + 1);
    if (k + 2 < ke) v.z = load_h(row + k + 2);
    if (k + 3 < ke) v.w = load_h(row + k + 3);
    return v;
}

__device__ __forceinline__ float lane(const float4 &v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// chunk_k k of h (4 rows) from k on.
__device__ __forceinline__ void load_chunk(float4 (&h)[4][chunk_quads], const float *const (&rows)[4],
        int k, int ke, bool vec) {
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int q = 0; q < chunk_quads; ++q)
            h[r][q] = load_quad(rows[r], k + 4 * q, ke, vec);
}

// acc[r][u * 4 + g] += h(r, k) * W(k, u, g) over the chunk's k (those under ke where
// `tail`: the shared rows past H are not weights).
template <bool tail>
__device__ __forceinline__ void multiply_chunk(float (&acc)[4][16],
        const float4 (&h)[4][chunk_quads], const float *wsm, int u4, int ub, int k, int ke) {
#pragma unroll
    for (int q = 0; q < chunk_quads; ++q)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int kk = k + 4 * q + i;
            if (tail && kk >= ke) continue;
            const float4 *wr = reinterpret_cast<const float4 *>(wsm + (kk * u4 + ub * 4) * 4);
            float w[16];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const float4 v = wr[u];
                w[u * 4] = v.x, w[u * 4 + 1] = v.y, w[u * 4 + 2] = v.z, w[u * 4 + 3] = v.w;
            }
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const float hv = lane(h[r][q], i);
#pragma unroll
                for (int c = 0; c < 16; ++c)
                    acc[r][c] = fmaf(hv, w[c], acc[r][c]);
            }
        }
}

// Waits until every CTA has arrived `target` times in all; false (the error word set) where
// that takes more than spin_limit polls or another CTA gave up.
__device__ __forceinline__ bool grid_barrier(
        unsigned *counter, unsigned *error, unsigned target, int *ok_shared) {
    __syncthreads();
    if (threadIdx.x == 0) {
        int ok = 1;
        __threadfence();
        add_release(counter, 1);
        unsigned spins = 0;
        while (load_acquire(counter) < target) {
            if ((++spins & 1023) == 0 && (load_acquire(error) != 0 || spins > spin_limit)) {
                store_relaxed(error, 1);
                ok = 0;
                break;
            }
#if !defined(__CUDA_ARCH__)
            host_spin_pause();
#endif
        }
        *ok_shared = ok;
    }
    __syncthreads();
    return *ok_shared != 0;
}

} // namespace

// ws: the workspace (gates, h, c), scr: the scratchpad (f32 bias; two words at `sync`: the
// arrival counter, zero at launch, and the error word), w: the recurrent weights, f32.
// Offsets in floats: gates0 = gates of step 0 ([N][4 H] per step), h0 = h(l, d, 0) (step s
// reads h at h0 + s N H, step 0 at hprev0 with row pitch ld0, writes h0 + (s + 1) N H), c0
// likewise, bias ([4][H]), W(k, col) at w_off + k w_si + col w_sj.
extern "C" __global__ void __launch_bounds__(threads, 1) anydnn_lstm_fwd_persistent(float *ws,
        float *scr, const float *w, int64_t gates0, int64_t h0, int64_t hprev0, int64_t ld0,
        int64_t c0, int64_t bias, int64_t w_off, int64_t w_si, int64_t w_sj, int64_t sync,
        int T, int N, int H, int units, int kgroups) {
#if defined(__CUDA_ARCH__)
    __shared__ __align__(16) float smem[w_cap + part_cap + 4];
#else
    float *smem = host_block_shared(w_cap + part_cap + 4);
#endif
    float *wsm = smem, *part = smem + w_cap;
    int *ok_shared = reinterpret_cast<int *>(part + part_cap);
    const int tid = int(threadIdx.x);
    const int j0 = int(blockIdx.x) * units;
    const int uc = min(units, H - j0); // this CTA's units (the last may have fewer)
    const int u4 = (units + 3) / 4 * 4;
    for (int i = tid; i < H * u4 * 4; i += threads) {
        const int g = i % 4, u = (i / 4) % u4, k = i / (4 * u4);
        wsm[i] = u < uc ? w[w_off + k * w_si + (int64_t(g) * H + j0 + u) * w_sj] : 0.f;
    }
    const int rblocks = (N + 3) / 4, items = rblocks * (u4 / 4);
    // Neighbouring threads take neighbouring items of one K slice: a warp reads one or two
    // rows of weights (broadcast) per k.
    const int per_pass = threads / kgroups, slot = tid % per_pass, kg = tid / per_pass;
    const int kslice = ((H + kgroups - 1) / kgroups + 3) / 4 * 4;
    const int kb = min(H, kg * kslice), ke = min(H, kb + kslice);
    unsigned *counter = reinterpret_cast<unsigned *>(scr + sync), *error = counter + 1;
    const int64_t NH = int64_t(N) * H;
    // The (row, unit) pair this thread's first cell of every step takes (the first pass's
    // i = tid below): its bias and c stay in registers across the steps, and the gates'
    // input part of each step is loaded before that step's products.
    const int first_n = (tid / 16 % rblocks) * 4 + tid / 4 % 4;
    const int first_u = (tid / 16 / rblocks) * 4 + tid % 4;
    const bool first = tid < per_pass * 16 && tid / 16 < items && first_n < N && first_u < uc;
    const int64_t first_at = int64_t(first_n) * H + j0 + first_u;
    float first_b[4] = {0.f, 0.f, 0.f, 0.f}, first_x[4] = {0.f, 0.f, 0.f, 0.f}, first_c = 0.f;
    if (first) {
#pragma unroll
        for (int q = 0; q < 4; ++q)
            first_b[q] = scr[bias + q * H + j0 + first_u];
        first_c = ws[c0 + first_at];
    }
    __syncthreads();
    for (int s = 0; s < T; ++s) {
        const int64_t hp = s == 0 ? hprev0 : h0 + s * NH, ld = s == 0 ? ld0 : H;
        const bool vec = hp % 4 == 0 && ld % 4 == 0;
        if (first) {
            const float *g = ws + gates0 + s * 4 * NH + int64_t(first_n) * 4 * H + j0 + first_u;
#pragma unroll
            for (int q = 0; q < 4; ++q)
                first_x[q] = g[q * H];
        }
        for (int pass = 0; pass * per_pass < items; ++pass) {
            const int item = pass * per_pass + slot;
            if (kg < kgroups && item < items) {
                const int rb = item % rblocks, ub = item / rblocks;
                const float *rows[4];
#pragma unroll
                for (int r = 0; r < 4; ++r)
                    rows[r] = rb * 4 + r < N ? ws + hp + (rb * 4 + r) * ld : nullptr;
                float acc[4][16];
#pragma unroll
                for (int r = 0; r < 4; ++r)
#pragma unroll
                    for (int c = 0; c < 16; ++c)
                        acc[r][c] = 0.f;
                float4 cur[4][chunk_quads], next[4][chunk_quads];
                if (kb < ke) load_chunk(cur, rows, kb, ke, vec);
                for (int k = kb; k < ke; k += chunk_k) {
                    if (k + chunk_k < ke) load_chunk(next, rows, k + chunk_k, ke, vec);
                    if (k + chunk_k <= ke)
                        multiply_chunk<false>(acc, cur, wsm, u4, ub, k, ke);
                    else
                        multiply_chunk<true>(acc, cur, wsm, u4, ub, k, ke);
#pragma unroll
                    for (int r = 0; r < 4; ++r)
#pragma unroll
                        for (int q = 0; q < chunk_quads; ++q)
                            cur[r][q] = next[r][q];
                }
                float4 *dst = reinterpret_cast<float4 *>(
                        part + (int64_t(kg) * per_pass + slot) * part_pitch);
#pragma unroll
                for (int r = 0; r < 4; ++r)
#pragma unroll
                    for (int u = 0; u < 4; ++u)
                        dst[r * 4 + u] = make_float4(acc[r][u * 4], acc[r][u * 4 + 1],
                                acc[r][u * 4 + 2], acc[r][u * 4 + 3]);
            }
            __syncthreads();
            // The cell for (row, unit) pairs of this pass's items.
            for (int i = tid; i < per_pass * 16; i += threads) {
                const int il = i / 16, r = (i / 4) % 4, uq = i % 4;
                const int item = pass * per_pass + il;
                if (item >= items) continue;
                const int n = (item % rblocks) * 4 + r, u = (item / rblocks) * 4 + uq;
                if (n >= N || u >= uc) continue;
                float a[4] = {0.f, 0.f, 0.f, 0.f};
                for (int q = 0; q < kgroups; ++q) {
                    const float4 v = reinterpret_cast<const float4 *>(
                            part + (int64_t(q) * per_pass + il) * part_pitch)[r * 4 + uq];
                    a[0] += v.x, a[1] += v.y, a[2] += v.z, a[3] += v.w;
                }
                const int j = j0 + u;
                float *g = ws + gates0 + s * 4 * NH + int64_t(n) * 4 * H + j;
                const float *b = scr + bias + j;
                const int64_t at = int64_t(n) * H + j;
                const bool pre = pass == 0 && i == tid; // the inputs are in registers
                float x[4];
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    x[q] = (pre ? first_x[q] + first_b[q] : g[q * H] + b[q * H]) + a[q];
                const float cp = pre ? first_c : ws[c0 + s * NH + at];
                const float gi = sigmoid(x[0]), gf = sigmoid(x[1]);
                const float gc = tanhf(x[2]), go = sigmoid(x[3]);
                const float ct = gf * cp + gi * gc;
                if (pre) first_c = ct;
                g[0] = gi;
                g[H] = gf;
                g[2 * H] = gc;
                g[3 * H] = go;
                ws[c0 + (s + 1) * NH + at] = ct;
                ws[h0 + (s + 1) * NH + at] = go * tanhf(ct);
            }
            __syncthreads();
        }
        if (s + 1 < T && !grid_barrier(counter, error, unsigned(s + 1) * gridDim.x, ok_shared)) {
            // The grid is not co-resident (or another CTA gave up): this CTA's states of the
            // steps left are NaN, so the outputs show it rather than stale values.
            const float nan = __int_as_float(0x7fc00000);
            for (int64_t i = tid; i < (T - 1 - s) * int64_t(N) * uc; i += threads) {
                const int u = int(i % uc), n = int(i / uc % N);
                const int64_t at = (s + 2 + i / uc / N) * NH + int64_t(n) * H + j0 + u;
                ws[c0 + at] = nan;
                ws[h0 + at] = nan;
            }
            return;
        }
    }
}
