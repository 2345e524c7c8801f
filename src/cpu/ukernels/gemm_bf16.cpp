// bf16 GEMM on AVX512_BF16: C[M,N] (f32, or bf16 on store) = A[M,K] * B[K,N], both bf16.
// A 6 x 64 tile accumulates in 24 zmm with vdpbf16ps: a pair of k of one A row broadcast
// against a packed B panel row (64 columns x 2 k).
#include <cstring>

#include <immintrin.h>

#include "cpu/ukernels/gemm_lowp_common.hpp"
#include "cpu/ukernels/gemm_lowp_tiles.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

using namespace lowp;

namespace {

#define ANYDNN_BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

constexpr int G = 2; // k per 32-bit lane

// acc += pairwise bf16 dot of x and y. Written as asm because GCC 12 spills the accumulators
// of the intrinsic's tied operand every iteration.
ANYDNN_BF16 inline __m512 dpbf16(__m512 acc, __m512i x, __m512i y) {
    asm("vdpbf16ps %2, %1, %0" : "+v"(acc) : "v"(x), "v"(y));
    return acc;
}

using tile_t = bf16_tile_t;

template <bool PARTIAL_B>
ANYDNN_BF16 inline __m512i load_b(const uint16_t *b, __mmask32 m) {
    return PARTIAL_B ? _mm512_maskz_loadu_epi16(m, b) : _mm512_loadu_si512(b);
}

// PARTIAL_B: B is read on its first b_cols columns only (a panel that ends early).
template <int ROWS, bool PARTIAL_B>
ANYDNN_BF16 void tile_kernel(const tile_t &t) {
    __mmask16 m[4];
    __mmask32 bm[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
        const int left = t.nvalid - 16 * v;
        m[v] = left >= 16 ? __mmask16(0xffff) : left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1);
        const int bl = t.b_cols - 16 * v;
        bm[v] = bl >= 16 ? ~__mmask32(0) : bl <= 0 ? __mmask32(0) : (__mmask32(1) << 2 * bl) - 1;
    }
    __m512 acc[ROWS][4];
#pragma GCC unroll 8
    for (int i = 0; i < ROWS; ++i)
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v)
            acc[i][v] = t.accumulate ? _mm512_maskz_loadu_ps(m[v],
                                static_cast<const float *>(t.out) + i * t.ldo + 16 * v)
                                     : _mm512_setzero_ps();
    const uint16_t *a = t.a;
    const uint16_t *b = t.b;
    const dim_t lda = t.lda;
    for (dim_t g = 0; g < t.groups; ++g) {
        const __m512i b0 = load_b<PARTIAL_B>(b, bm[0]), b1 = load_b<PARTIAL_B>(b + 32, bm[1]),
                      b2 = load_b<PARTIAL_B>(b + 64, bm[2]), b3 = load_b<PARTIAL_B>(b + 96, bm[3]);
#pragma GCC unroll 8
        for (int i = 0; i < ROWS; ++i) {
            int32_t q;
            std::memcpy(&q, a + i * lda, sizeof(q));
            const __m512i x = _mm512_set1_epi32(q);
            acc[i][0] = dpbf16(acc[i][0], x, b0);
            acc[i][1] = dpbf16(acc[i][1], x, b1);
            acc[i][2] = dpbf16(acc[i][2], x, b2);
            acc[i][3] = dpbf16(acc[i][3], x, b3);
        }
        a += G;
        b += t.b_pitch;
    }
#pragma GCC unroll 8
    for (int i = 0; i < ROWS; ++i) {
        if (t.out_bf16) {
            uint16_t *o = static_cast<uint16_t *>(t.out) + i * t.ldo;
#pragma GCC unroll 4
            for (int v = 0; v < 4; ++v)
                _mm256_mask_storeu_epi16(
                        o + 16 * v, m[v], (__m256i)_mm512_cvtneps_pbh(acc[i][v]));
        } else {
            float *o = static_cast<float *>(t.out) + i * t.ldo;
#pragma GCC unroll 4
            for (int v = 0; v < 4; ++v)
                _mm512_mask_storeu_ps(o + 16 * v, m[v], acc[i][v]);
        }
    }
}

using tile_fn = void (*)(const tile_t &);

// By number of rows.
template <bool PARTIAL_B>
const tile_fn *kernel_table() {
    static const tile_fn table[MR + 1] = {nullptr, tile_kernel<1, PARTIAL_B>,
            tile_kernel<2, PARTIAL_B>, tile_kernel<3, PARTIAL_B>, tile_kernel<4, PARTIAL_B>,
            tile_kernel<5, PARTIAL_B>, tile_kernel<6, PARTIAL_B>};
    return table;
}

// Row-major panel (B columns contiguous): two rows of 64 columns interleaved into pairs.
ANYDNN_BF16 void pack_panel_rows(
        const uint16_t *src, dim_t rs, dim_t K, dim_t ncols, dim_t groups, uint16_t *dst) {
    auto mask_of = [](dim_t n) {
        return n >= 32 ? ~__mmask32(0) : n <= 0 ? __mmask32(0) : (__mmask32(1) << n) - 1;
    };
    const __mmask32 m0 = mask_of(ncols), m1 = mask_of(ncols - 32);
    // Output word w of the first half takes column w / 2 of row w % 2 (index + 32: row 1).
    alignas(64) uint16_t lo[32], hi[32];
    for (int w = 0; w < 32; ++w) {
        lo[w] = static_cast<uint16_t>(w / 2 + 32 * (w % 2));
        hi[w] = static_cast<uint16_t>(16 + w / 2 + 32 * (w % 2));
    }
    const __m512i ilo = _mm512_load_si512(lo), ihi = _mm512_load_si512(hi);
    for (dim_t g = 0; g < groups; ++g, dst += NR * G) {
        __m512i r[G][2];
        for (int t = 0; t < G; ++t) {
            const dim_t k = g * G + t;
            const uint16_t *s = src + k * rs;
            r[t][0] = k < K ? _mm512_maskz_loadu_epi16(m0, s) : _mm512_setzero_si512();
            r[t][1] = k < K ? _mm512_maskz_loadu_epi16(m1, s + 32) : _mm512_setzero_si512();
        }
        for (int h = 0; h < 2; ++h) {
            _mm512_store_si512(dst + 64 * h, _mm512_permutex2var_epi16(r[0][h], ilo, r[1][h]));
            _mm512_store_si512(dst + 64 * h + 32, _mm512_permutex2var_epi16(r[0][h], ihi, r[1][h]));
        }
    }
}

} // namespace

const bf16_tile_fn *bf16_tiles(bool partial_b) {
    static_assert(MR == lowp_tile_rows, "one tile height");
    return partial_b ? kernel_table<true>() : kernel_table<false>();
}

bool gemm_bf16_available() {
    return isa_enabled(dnnl_cpu_isa_avx512_core_bf16);
}

status_t gemm_bf16_check(const lowp_gemm_t &p) {
    ANYDNN_REQUIRE(p.a.dt == dnnl_bf16 && p.b.dt == dnnl_bf16, dnnl_unimplemented,
            "bf16 GEMM takes bf16 operands (got %s x %s)", dnnl_dt2str(p.a.dt),
            dnnl_dt2str(p.b.dt));
    ANYDNN_REQUIRE(p.epilogue || p.c_dt == dnnl_f32 || p.c_dt == dnnl_bf16, dnnl_unimplemented,
            "bf16 GEMM stores f32 or bf16 (got %s)", dnnl_dt2str(p.c_dt));
    return dnnl_success;
}

status_t gemm_bf16(const lowp_gemm_t &p) {
    ANYDNN_CHECK(gemm_bf16_check(p));
    const dim_t M = p.M, N = p.N, K = p.K;
    if (M == 0 || N == 0) return dnnl_success;
    status_t slabs_st;
    if (run_in_slabs(p, sizeof(uint16_t), gemm_bf16, slabs_st)) return slabs_st;

    const bool packed_b = p.b.panel_stride > 0;
    // An odd K would pair A's last element with whatever follows it: copy and pad with zero.
    const bool copy_a = p.a.cs != 1 || K % G != 0;
    const dim_t groups = div_up(K, G), kp = groups * G;

    const plan_t pl = make_plan(M, N, K, sizeof(uint16_t), p.nthr > 0 ? p.nthr : max_threads());
    const dim_t panel_elems = groups * NR * G;
    const size_t a_bytes = copy_a ? round64(M * kp * sizeof(uint16_t)) : 0;
    const size_t b_bytes = packed_b ? 0 : round64(pl.panels * panel_elems * sizeof(uint16_t));
    const size_t tile_bytes = p.epilogue ? round64(MR * NR * sizeof(float)) : 0;
    const size_t shared = a_bytes + b_bytes;
    scratch_t scratch;
    ANYDNN_REQUIRE(scratch.alloc(shared + tile_bytes * pl.nthr) == dnnl_success,
            dnnl_out_of_memory, "no memory for bf16 GEMM scratch");
    uint16_t *a_copy = reinterpret_cast<uint16_t *>(scratch.at(0));
    uint16_t *b_packed = reinterpret_cast<uint16_t *>(scratch.at(a_bytes));

    const uint16_t *a_rows = copy_a ? a_copy : static_cast<const uint16_t *>(p.a.ptr);
    const dim_t lda = copy_a ? kp : p.a.rs;
    const uint16_t *b_src = static_cast<const uint16_t *>(p.b.ptr);
    const uint16_t *b_panels = packed_b ? b_src : b_packed;
    const dim_t b_stride = packed_b ? p.b.panel_stride : panel_elems;
    // A's copy by rows and B's panels by panels, split between the threads.
    if (copy_a || !packed_b)
        parallel(pl.nthr, [&](int ithr, int nthr) {
            dim_t m0, m1, p0, p1;
            balance211(M, nthr, ithr, m0, m1);
            balance211(pl.panels, nthr, ithr, p0, p1);
            if (copy_a)
                copy_rows<uint16_t>(p.a, m0, m1, K, kp, a_copy, [](uint16_t v) { return v; });
            for (dim_t pn = p0; !packed_b && pn < p1; ++pn) {
                const dim_t n0 = pn * NR, ncols = std::min<dim_t>(NR, N - n0);
                uint16_t *dst = b_packed + pn * panel_elems;
                if (p.b.cs == 1)
                    pack_panel_rows(b_src + n0, p.b.rs, K, ncols, groups, dst);
                else
                    pack_panel_any<uint16_t, G>(p.b, K, N, n0, groups, dst);
            }
        });

    const size_t c_size = data_type_size(p.c_dt);
    for_each_item(pl, [&](int ithr, dim_t pn, dim_t t0, dim_t t1) {
        float *tile_buf = reinterpret_cast<float *>(scratch.at(shared + tile_bytes * ithr));
        const dim_t n0 = pn * NR;
        tile_t t;
        t.lda = lda;
        t.groups = groups;
        t.b = b_panels + pn * b_stride;
        t.out_bf16 = !p.epilogue && p.c_dt == dnnl_bf16;
        t.nvalid = static_cast<int>(std::min<dim_t>(NR, N - n0));
        for (dim_t ti = t0; ti < t1; ++ti) {
            const dim_t m0 = ti * MR;
            const int rows = static_cast<int>(std::min<dim_t>(MR, M - m0));
            t.a = a_rows + m0 * lda;
            if (p.epilogue) {
                t.out = tile_buf;
                t.ldo = NR;
            } else {
                t.out = static_cast<char *>(p.c) + (m0 * p.ldc + n0) * c_size;
                t.ldo = p.ldc;
            }
            kernel_table<false>()[rows](t);
            if (p.epilogue) p.epilogue(m0, n0, rows, t.nvalid, tile_buf, NR);
        }
    });
    return dnnl_success;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
