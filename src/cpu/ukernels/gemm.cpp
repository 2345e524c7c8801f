// Packed GEMM (Goto/BLIS loop order): B packed in KC x NR panels (NR = 32 columns, L1),
// A packed in MC x KC blocks of MR-row panels (L2); an MR x 32 microkernel accumulates in
// registers. Threads take disjoint blocks of C and pack their own panels.
#include "cpu/ukernels/gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <immintrin.h>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

namespace {

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))

constexpr int NR = 32;
// Cache blocking: a KC x 32 panel of B stays in L1 while MC x KC of A streams from L2.
constexpr dim_t KC = 256;
constexpr dim_t MC_PANELS = 12;
constexpr dim_t NC_MAX = 2048;
constexpr int MAX_MR = 16;

// Computes a rows x 32 tile: acc = sum_k A[k*ASTRIDE + i] * B[k*32 + j]; then
// C = alpha * acc + (read_c ? beta * C : 0) for the first nvalid columns.
using kernel_fn = void (*)(dim_t K, const float *A, const float *B, float *C, dim_t ldc,
        int nvalid, float alpha, float beta, bool read_c);

template <int ROWS, int ASTRIDE>
ANYDNN_AVX512 void kernel_avx512(dim_t K, const float *A, const float *B, float *C, dim_t ldc,
        int nvalid, float alpha, float beta, bool read_c) {
    __m512 c0[ROWS], c1[ROWS];
#pragma GCC unroll 16
    for (int i = 0; i < ROWS; ++i) {
        c0[i] = _mm512_setzero_ps();
        c1[i] = _mm512_setzero_ps();
    }
    for (dim_t k = 0; k < K; ++k) {
        const __m512 b0 = _mm512_load_ps(B), b1 = _mm512_load_ps(B + 16);
#pragma GCC unroll 16
        for (int i = 0; i < ROWS; ++i) {
            const __m512 a = _mm512_set1_ps(A[i]);
            c0[i] = _mm512_fmadd_ps(a, b0, c0[i]);
            c1[i] = _mm512_fmadd_ps(a, b1, c1[i]);
        }
        A += ASTRIDE;
        B += NR;
    }
    const __mmask16 m0 = nvalid >= 16 ? __mmask16(0xffff) : __mmask16((1u << nvalid) - 1);
    const __mmask16 m1 = nvalid >= 32 ? __mmask16(0xffff)
            : nvalid <= 16              ? __mmask16(0)
                                        : __mmask16((1u << (nvalid - 16)) - 1);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
#pragma GCC unroll 16
    for (int i = 0; i < ROWS; ++i) {
        float *c = C + i * ldc;
        __m512 r0 = _mm512_mul_ps(va, c0[i]), r1 = _mm512_mul_ps(va, c1[i]);
        if (read_c) {
            r0 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m0, c), r0);
            r1 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m1, c + 16), r1);
        }
        _mm512_mask_storeu_ps(c, m0, r0);
        _mm512_mask_storeu_ps(c + 16, m1, r1);
    }
}

template <int ROWS, int ASTRIDE>
void kernel_generic(dim_t K, const float *A, const float *B, float *C, dim_t ldc, int nvalid,
        float alpha, float beta, bool read_c) {
    float acc[ROWS][NR] = {};
    for (dim_t k = 0; k < K; ++k) {
        for (int i = 0; i < ROWS; ++i) {
            const float a = A[i];
            for (int j = 0; j < NR; ++j)
                acc[i][j] += a * B[j];
        }
        A += ASTRIDE;
        B += NR;
    }
    for (int i = 0; i < ROWS; ++i) {
        float *c = C + i * ldc;
        for (int j = 0; j < nvalid; ++j)
            c[j] = alpha * acc[i][j] + (read_c ? beta * c[j] : 0.f);
    }
}

struct kernel_set_t {
    int mr;
    kernel_fn fn[MAX_MR + 1]; // by number of rows
    const char *name;
};

template <template <int, int> class K, int MR, int... R>
kernel_set_t make_set(const char *name, std::integer_sequence<int, R...>) {
    kernel_set_t s {MR, {nullptr, K<R + 1, MR>::fn...}, name};
    return s;
}

template <int ROWS, int ASTRIDE>
struct avx512_k {
    static constexpr kernel_fn fn = kernel_avx512<ROWS, ASTRIDE>;
};
template <int ROWS, int ASTRIDE>
struct generic_k {
    static constexpr kernel_fn fn = kernel_generic<ROWS, ASTRIDE>;
};

constexpr int MR_AVX512 = 14;
constexpr int MR_GENERIC = 4;

const kernel_set_t &avx512_set() {
    static const kernel_set_t s = make_set<avx512_k, MR_AVX512>(
            "avx512", std::make_integer_sequence<int, MR_AVX512>());
    return s;
}
const kernel_set_t &generic_set() {
    static const kernel_set_t s = make_set<generic_k, MR_GENERIC>(
            "generic", std::make_integer_sequence<int, MR_GENERIC>());
    return s;
}

const kernel_set_t &pick_set() {
    return isa_enabled(dnnl_cpu_isa_avx512_core) ? avx512_set() : generic_set();
}

// Element conversion to f32 while packing.
template <typename T>
inline float cvt(T v) {
    return static_cast<float>(v);
}

// A block (mc x kc) into MR-row panels: panel p holds rows p*MR.., ap[k*MR + i].
template <typename T>
void pack_a_t(const T *a, dim_t rs, dim_t cs, dim_t mc, dim_t kc, int mr, float zp, float *ap) {
    for (dim_t ir = 0; ir < mc; ir += mr) {
        const int rows = static_cast<int>(std::min<dim_t>(mr, mc - ir));
        float *dst = ap + ir * kc;
        if (cs == 1) {
            for (int i = 0; i < rows; ++i) {
                const T *src = a + (ir + i) * rs;
                for (dim_t k = 0; k < kc; ++k)
                    dst[k * mr + i] = cvt(src[k]) - zp;
            }
        } else {
            for (dim_t k = 0; k < kc; ++k)
                for (int i = 0; i < rows; ++i)
                    dst[k * mr + i] = cvt(a[(ir + i) * rs + k * cs]) - zp;
        }
    }
}

// B block (kc x nc) into 32-column panels: panel p at bp + p*kc*32, bp[k*32 + j], zero-padded.
template <typename T>
void pack_b_t(const T *b, dim_t rs, dim_t cs, dim_t kc, dim_t nc, float zp, float *bp) {
    for (dim_t jr = 0; jr < nc; jr += NR) {
        const int cols = static_cast<int>(std::min<dim_t>(NR, nc - jr));
        float *dst = bp + jr * kc;
        if (cs == 1) {
            for (dim_t k = 0; k < kc; ++k) {
                const T *src = b + k * rs + jr;
                float *d = dst + k * NR;
                for (int j = 0; j < cols; ++j)
                    d[j] = cvt(src[j]) - zp;
                for (int j = cols; j < NR; ++j)
                    d[j] = 0.f;
            }
        } else {
            if (cols < NR)
                for (dim_t k = 0; k < kc; ++k)
                    for (int j = cols; j < NR; ++j)
                        dst[k * NR + j] = 0.f;
            for (int j = 0; j < cols; ++j) {
                const T *src = b + (jr + j) * cs;
                for (dim_t k = 0; k < kc; ++k)
                    dst[k * NR + j] = cvt(src[k * rs]) - zp;
            }
        }
    }
}

struct bf16_t {
    uint16_t v;
};
struct f16_t {
    uint16_t v;
};
template <>
inline float cvt(bf16_t v) {
    return bf16_to_f32(v.v);
}
template <>
inline float cvt(f16_t v) {
    return f16_to_f32(v.v);
}

template <typename F>
void dispatch_dt(dnnl_data_type_t dt, F f) {
    switch (dt) {
        case dnnl_bf16: f(bf16_t {}); break;
        case dnnl_f16: f(f16_t {}); break;
        case dnnl_s8: f(int8_t {}); break;
        case dnnl_u8: f(uint8_t {}); break;
        case dnnl_s32: f(int32_t {}); break;
        default: f(float {}); break;
    }
}

void pack_a(const gemm_operand_t &a, dim_t m0, dim_t k0, dim_t mc, dim_t kc, int mr,
        float *ap) {
    dispatch_dt(a.dt, [&](auto tag) {
        using T = decltype(tag);
        const T *base = static_cast<const T *>(a.ptr) + m0 * a.rs + k0 * a.cs;
        pack_a_t(base, a.rs, a.cs, mc, kc, mr, a.zp, ap);
    });
}

void pack_b(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, dim_t nc, float *bp) {
    dispatch_dt(b.dt, [&](auto tag) {
        using T = decltype(tag);
        const T *base = static_cast<const T *>(b.ptr) + k0 * b.rs + n0 * b.cs;
        pack_b_t(base, b.rs, b.cs, kc, nc, b.zp, bp);
    });
}

struct free_deleter {
    void operator()(float *p) const { std::free(p); }
};
using fbuf_t = std::unique_ptr<float, free_deleter>;
fbuf_t alloc_floats(dim_t n) {
    size_t bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
    return fbuf_t(static_cast<float *>(std::aligned_alloc(64, bytes ? bytes : 64)));
}

dim_t round_up(dim_t v, dim_t m) {
    return (v + m - 1) / m * m;
}

// One thread's share: rows [m0, m0+ms), columns [n0, n0+ns) of C.
void gemm_block(const gemm_problem_t &p, const kernel_set_t &ks, dim_t m0, dim_t ms, dim_t n0,
        dim_t ns) {
    if (ms <= 0 || ns <= 0) return;
    const int mr = ks.mr;
    const dim_t K = p.K;
    if (K == 0) {
        for (dim_t i = 0; i < ms; ++i) {
            float *c = p.c + (m0 + i) * p.ldc + n0;
            for (dim_t j = 0; j < ns; ++j)
                c[j] = p.beta == 0.f ? 0.f : p.beta * c[j];
        }
        if (p.epilogue) p.epilogue(m0, n0, ms, ns);
        return;
    }
    const dim_t MC = mr * MC_PANELS;
    const dim_t NC = std::min<dim_t>(round_up(ns, NR), NC_MAX);
    const dim_t kc_max = std::min(K, KC);
    fbuf_t ap = alloc_floats(round_up(std::min(MC, ms), mr) * kc_max);
    fbuf_t bp = alloc_floats(NC * kc_max);

    for (dim_t jc = 0; jc < ns; jc += NC) {
        const dim_t nc = std::min(NC, ns - jc);
        for (dim_t pc = 0; pc < K; pc += KC) {
            const dim_t kc = std::min(KC, K - pc);
            const bool first = pc == 0, last = pc + kc == K;
            pack_b(p.b, pc, n0 + jc, kc, nc, bp.get());
            for (dim_t ic = 0; ic < ms; ic += MC) {
                const dim_t mc = std::min(MC, ms - ic);
                pack_a(p.a, m0 + ic, pc, mc, kc, mr, ap.get());
                const bool read_c = !first || p.beta != 0.f;
                auto tile = [&](dim_t ir, dim_t jr) {
                    const int cols = static_cast<int>(std::min<dim_t>(NR, nc - jr));
                    const int rows = static_cast<int>(std::min<dim_t>(mr, mc - ir));
                    float *c = p.c + (m0 + ic + ir) * p.ldc + n0 + jc + jr;
                    ks.fn[rows](kc, ap.get() + ir * kc, bp.get() + jr * kc, c, p.ldc, cols,
                            p.alpha, first ? p.beta : 1.f, read_c);
                };
                for (dim_t jr = 0; jr < nc; jr += NR)
                    for (dim_t ir = 0; ir < mc; ir += mr)
                        tile(ir, jr);
                if (last && p.epilogue) p.epilogue(m0 + ic, n0 + jc, mc, nc);
            }
        }
    }
}

// Splits C over nthr threads as a tm x tn grid minimising the largest share.
void split_grid(dim_t M, dim_t N, int mr, int nthr, int &tm, int &tn) {
    tm = 1;
    tn = nthr;
    double best = -1;
    for (int a = 1; a <= nthr; ++a) {
        if (nthr % a) continue;
        const int b = nthr / a;
        const dim_t mb = round_up((M + a - 1) / a, mr), nb = round_up((N + b - 1) / b, NR);
        // Penalise thin shares: packing and edges cost more there.
        const double cost = double(mb) * double(nb) + 8.0 * (mb + nb) * 32;
        if (best < 0 || cost < best) {
            best = cost;
            tm = a;
            tn = b;
        }
    }
}

} // namespace

void gemm(const gemm_problem_t &p) {
    if (p.M <= 0 || p.N <= 0) return;
    const kernel_set_t &ks = pick_set();
    int nthr = p.nthr > 0 ? p.nthr : max_threads();
    const double flops = double(p.M) * double(p.N) * double(p.K);
    if (flops < 64.0 * 64 * 64) nthr = 1;
    int tm, tn;
    split_grid(p.M, p.N, ks.mr, nthr, tm, tn);
    parallel(tm * tn, [&](int ithr, int nt) {
        if (nt != tm * tn) { // inside someone else's parallel region: do it all
            gemm_block(p, ks, 0, p.M, 0, p.N);
            return;
        }
        const int im = ithr / tn, in = ithr % tn;
        // Shares aligned to the tile sizes so only the last one has edges.
        const dim_t mb = round_up((p.M + tm - 1) / tm, ks.mr);
        const dim_t nb = round_up((p.N + tn - 1) / tn, NR);
        const dim_t m0 = std::min<dim_t>(p.M, im * mb), n0 = std::min<dim_t>(p.N, in * nb);
        gemm_block(p, ks, m0, std::min(mb, p.M - m0), n0, std::min(nb, p.N - n0));
    });
}

void sgemm_rowmajor(char transa, char transb, dim_t M, dim_t N, dim_t K, float alpha,
        const float *A, dim_t lda, const float *B, dim_t ldb, float beta, float *C,
        dim_t ldc, int nthr) {
    gemm_problem_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    const bool ta = transa == 'T' || transa == 't';
    const bool tb = transb == 'T' || transb == 't';
    p.a = {A, dnnl_f32, ta ? 1 : lda, ta ? lda : 1};
    p.b = {B, dnnl_f32, tb ? 1 : ldb, tb ? ldb : 1};
    p.c = C;
    p.ldc = ldc;
    p.alpha = alpha;
    p.beta = beta;
    p.nthr = nthr;
    gemm(p);
}

const char *gemm_isa_name() {
    return pick_set().name;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
