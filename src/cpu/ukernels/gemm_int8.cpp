// int8 GEMM on AVX512_VNNI: C[M,N] (s32) = sum_k (A - za)(B - zb), A and B u8 or s8.
// A 6 x 64 tile accumulates in 24 zmm with vpdpbusd: four k of one A row broadcast against a
// packed B panel row (64 columns x 4 k); zero points and signedness become per-row and
// per-column corrections added once at the end.
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

#define ANYDNN_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")))

constexpr int G = 4; // k per 32-bit lane

// acc += dot of unsigned bytes of u with signed bytes of s, four at a time. Written as asm
// because GCC 12 spills the accumulators of the intrinsic's tied operand every iteration.
ANYDNN_VNNI inline __m512i dpbusd(__m512i acc, __m512i u, __m512i s) {
    asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s));
    return acc;
}

using tile_t = int8_tile_t;

template <bool PARTIAL_B>
ANYDNN_VNNI inline __m512i load_b(const uint8_t *b, __mmask64 m) {
    return PARTIAL_B ? _mm512_maskz_loadu_epi8(m, b) : _mm512_loadu_si512(b);
}

// vpdpbusd multiplies unsigned bytes of its first source by signed bytes of its second:
// A_UNSIGNED puts A there, else B (u8 weights against s8 src). PARTIAL_B: B is read on its
// first b_cols columns only (a panel that ends early). FLIP_A: A's bytes are read with the
// sign bit flipped (a +- 128), for operands of equal signedness (the caller corrects by
// col_comp).
template <int ROWS, bool A_UNSIGNED, bool PARTIAL_B, bool FLIP_A = false>
ANYDNN_VNNI void tile_kernel(const tile_t &t) {
    __mmask16 m[4];
    __mmask64 bm[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
        const int left = t.nvalid - 16 * v;
        m[v] = left >= 16 ? __mmask16(0xffff) : left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1);
        const int bl = t.b_cols - 16 * v;
        bm[v] = bl >= 16 ? ~__mmask64(0) : bl <= 0 ? __mmask64(0) : (__mmask64(1) << 4 * bl) - 1;
    }
    __m512i acc[ROWS][4];
#pragma GCC unroll 8
    for (int i = 0; i < ROWS; ++i)
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v)
            acc[i][v] = t.accumulate ? _mm512_maskz_loadu_epi32(m[v], t.out + i * t.ldo + 16 * v)
                                     : _mm512_setzero_si512();
    const uint8_t *a = t.a;
    const uint8_t *b = t.b;
    const dim_t lda = t.lda;
    for (dim_t g = 0; g < t.groups; ++g) {
        const __m512i b0 = load_b<PARTIAL_B>(b, bm[0]), b1 = load_b<PARTIAL_B>(b + 64, bm[1]),
                      b2 = load_b<PARTIAL_B>(b + 128, bm[2]), b3 = load_b<PARTIAL_B>(b + 192, bm[3]);
#pragma GCC unroll 8
        for (int i = 0; i < ROWS; ++i) {
            int32_t q;
            std::memcpy(&q, a + i * lda, sizeof(q));
            const __m512i x = FLIP_A ? _mm512_set1_epi32(q ^ int32_t(0x80808080))
                                     : _mm512_set1_epi32(q);
            if (A_UNSIGNED) {
                acc[i][0] = dpbusd(acc[i][0], x, b0);
                acc[i][1] = dpbusd(acc[i][1], x, b1);
                acc[i][2] = dpbusd(acc[i][2], x, b2);
                acc[i][3] = dpbusd(acc[i][3], x, b3);
            } else {
                acc[i][0] = dpbusd(acc[i][0], b0, x);
                acc[i][1] = dpbusd(acc[i][1], b1, x);
                acc[i][2] = dpbusd(acc[i][2], b2, x);
                acc[i][3] = dpbusd(acc[i][3], b3, x);
            }
        }
        a += G;
        b += t.b_pitch;
    }
    __m512i cc[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
        cc[v] = t.col_comp ? _mm512_loadu_si512(t.col_comp + 16 * v) : _mm512_setzero_si512();
    }
#pragma GCC unroll 8
    for (int i = 0; i < ROWS; ++i) {
        const __m512i rc = t.row_comp ? _mm512_set1_epi32(t.row_comp[i]) : _mm512_setzero_si512();
        int32_t *o = t.out + i * t.ldo;
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v)
            _mm512_mask_storeu_epi32(o + 16 * v, m[v],
                    _mm512_add_epi32(_mm512_add_epi32(acc[i][v], cc[v]), rc));
    }
}

using tile_fn = void (*)(const tile_t &);

// By number of rows.
template <bool A_UNSIGNED, bool PARTIAL_B = false>
const tile_fn *kernel_table() {
    static const tile_fn table[MR + 1] = {nullptr, tile_kernel<1, A_UNSIGNED, PARTIAL_B>,
            tile_kernel<2, A_UNSIGNED, PARTIAL_B>, tile_kernel<3, A_UNSIGNED, PARTIAL_B>,
            tile_kernel<4, A_UNSIGNED, PARTIAL_B>, tile_kernel<5, A_UNSIGNED, PARTIAL_B>,
            tile_kernel<6, A_UNSIGNED, PARTIAL_B>};
    return table;
}
const tile_fn *kernels_a_unsigned() {
    return kernel_table<true>();
}
const tile_fn *kernels_b_unsigned() {
    return kernel_table<false>();
}

// Row-major panel (B columns contiguous): four rows of 64 bytes interleaved into quads
// with byte/word unpacks, then the 128-bit lanes put back in column order.
ANYDNN_VNNI void pack_panel_rows(
        const uint8_t *src, dim_t rs, dim_t K, dim_t ncols, dim_t groups, uint8_t *dst) {
    const __mmask64 mask = ncols >= 64 ? ~__mmask64(0) : (__mmask64(1) << ncols) - 1;
    for (dim_t g = 0; g < groups; ++g, dst += NR * G) {
        __m512i r[G];
        for (int t = 0; t < G; ++t) {
            const dim_t k = g * G + t;
            r[t] = k < K ? _mm512_maskz_loadu_epi8(mask, src + k * rs) : _mm512_setzero_si512();
        }
        const __m512i lo01 = _mm512_unpacklo_epi8(r[0], r[1]), hi01 = _mm512_unpackhi_epi8(r[0], r[1]);
        const __m512i lo23 = _mm512_unpacklo_epi8(r[2], r[3]), hi23 = _mm512_unpackhi_epi8(r[2], r[3]);
        // Lane L of q0..q3 holds columns 16L + 0..3, 4..7, 8..11, 12..15.
        const __m512i q0 = _mm512_unpacklo_epi16(lo01, lo23), q1 = _mm512_unpackhi_epi16(lo01, lo23);
        const __m512i q2 = _mm512_unpacklo_epi16(hi01, hi23), q3 = _mm512_unpackhi_epi16(hi01, hi23);
        // (maskz with a full mask: the plain form's undefined source warns in GCC 12)
        const __mmask16 all = 0xffff;
        const __m512i t0 = _mm512_maskz_shuffle_i32x4(all, q0, q1, 0x44),
                      t1 = _mm512_maskz_shuffle_i32x4(all, q2, q3, 0x44);
        const __m512i t2 = _mm512_maskz_shuffle_i32x4(all, q0, q1, 0xee),
                      t3 = _mm512_maskz_shuffle_i32x4(all, q2, q3, 0xee);
        _mm512_store_si512(dst, _mm512_maskz_shuffle_i32x4(all, t0, t1, 0x88));
        _mm512_store_si512(dst + 64, _mm512_maskz_shuffle_i32x4(all, t0, t1, 0xdd));
        _mm512_store_si512(dst + 128, _mm512_maskz_shuffle_i32x4(all, t2, t3, 0x88));
        _mm512_store_si512(dst + 192, _mm512_maskz_shuffle_i32x4(all, t2, t3, 0xdd));
    }
}

bool is_x8(dnnl_data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8;
}

} // namespace

// Ones against the panel on vpdpbusd; masked loads so a panel may end early.
ANYDNN_VNNI void int8_panel_col_sums(const uint8_t *b, dim_t groups, dim_t b_pitch, int b_cols,
        bool b_unsigned, int32_t *sums) {
    __m512i acc[4];
    __mmask64 bm[4];
    for (int v = 0; v < 4; ++v) {
        acc[v] = _mm512_setzero_si512();
        const int bl = b_cols - 16 * v;
        bm[v] = bl >= 16 ? ~__mmask64(0) : bl <= 0 ? __mmask64(0) : (__mmask64(1) << 4 * bl) - 1;
    }
    const __m512i ones = _mm512_set1_epi8(1);
    for (dim_t g = 0; g < groups; ++g, b += b_pitch)
        for (int v = 0; v < 4; ++v) {
            const __m512i x = _mm512_maskz_loadu_epi8(bm[v], b + 64 * v);
            acc[v] = b_unsigned ? dpbusd(acc[v], x, ones) : dpbusd(acc[v], ones, x);
        }
    for (int v = 0; v < 4; ++v)
        _mm512_storeu_si512(sums + 16 * v, acc[v]);
}

template <bool A_UNSIGNED, bool PARTIAL_B>
const tile_fn *flip_table() {
    static const tile_fn table[MR + 1] = {nullptr, tile_kernel<1, A_UNSIGNED, PARTIAL_B, true>,
            tile_kernel<2, A_UNSIGNED, PARTIAL_B, true>, tile_kernel<3, A_UNSIGNED, PARTIAL_B, true>,
            tile_kernel<4, A_UNSIGNED, PARTIAL_B, true>, tile_kernel<5, A_UNSIGNED, PARTIAL_B, true>,
            tile_kernel<6, A_UNSIGNED, PARTIAL_B, true>};
    return table;
}

const int8_tile_fn *int8_tiles(bool a_unsigned, bool partial_b, bool flip_a) {
    static_assert(MR == lowp_tile_rows, "one tile height");
    if (flip_a)
        return a_unsigned ? (partial_b ? flip_table<true, true>() : flip_table<true, false>())
                          : (partial_b ? flip_table<false, true>() : flip_table<false, false>());
    if (partial_b) return a_unsigned ? kernel_table<true, true>() : kernel_table<false, true>();
    return a_unsigned ? kernels_a_unsigned() : kernels_b_unsigned();
}

bool gemm_int8_available() {
    return isa_enabled(dnnl_cpu_isa_avx512_core_vnni);
}

status_t gemm_int8_check(const lowp_gemm_t &p) {
    ANYDNN_REQUIRE(is_x8(p.a.dt) && is_x8(p.b.dt), dnnl_unimplemented,
            "int8 GEMM takes u8/s8 operands (got %s x %s)", dnnl_dt2str(p.a.dt),
            dnnl_dt2str(p.b.dt));
    ANYDNN_REQUIRE(p.epilogue || p.c_dt == dnnl_s32, dnnl_unimplemented,
            "int8 GEMM stores s32 (got %s)", dnnl_dt2str(p.c_dt));
    return dnnl_success;
}

status_t gemm_int8(const lowp_gemm_t &p) {
    ANYDNN_CHECK(gemm_int8_check(p));
    const dim_t M = p.M, N = p.N, K = p.K;
    if (M == 0 || N == 0) return dnnl_success;
    status_t slabs_st;
    if (run_in_slabs(p, 1, gemm_int8, slabs_st)) return slabs_st;

    // a' is what the kernel reads: vpdpbusd needs one unsigned and one signed side, so two
    // operands of the same signedness shift A by 128 (a = a' - shift).
    const bool a_u8 = p.a.dt == dnnl_u8, b_u8 = p.b.dt == dnnl_u8;
    const bool flip_a = a_u8 == b_u8;
    const bool a_unsigned_side = flip_a ? !a_u8 : a_u8;
    const int32_t shift = !flip_a ? 0 : a_u8 ? -128 : 128;
    const bool packed_b = p.b.panel_stride > 0;
    const bool copy_a = flip_a || p.a.cs != 1 || K % G != 0;
    const dim_t groups = div_up(K, G), kp = groups * G;
    // sum (a' - A0)(b - B0) = dot(a', b) - A0 colsum(b) - B0 rowsum(a') + K A0 B0
    const int64_t A0 = int64_t(shift) + p.a.zp, B0 = p.b.zp;
    const bool need_col = A0 != 0, need_row = B0 != 0;

    const plan_t pl = make_plan(M, N, K, 1, p.nthr > 0 ? p.nthr : max_threads());
    const dim_t panel_elems = groups * NR * G;
    const size_t a_bytes = copy_a ? round64(M * kp) : 0;
    const size_t row_bytes = need_row ? round64(M * sizeof(int32_t)) : 0;
    const size_t b_bytes = packed_b ? 0 : round64(pl.panels * panel_elems);
    const size_t col_bytes = need_col ? round64(pl.panels * NR * sizeof(int32_t)) : 0;
    const size_t tile_bytes = p.epilogue ? round64(MR * NR * sizeof(int32_t)) : 0;
    const size_t shared = a_bytes + row_bytes + b_bytes + col_bytes;
    scratch_t scratch;
    ANYDNN_REQUIRE(scratch.alloc(shared + tile_bytes * pl.nthr) == dnnl_success,
            dnnl_out_of_memory, "no memory for int8 GEMM scratch");
    uint8_t *a_copy = reinterpret_cast<uint8_t *>(scratch.at(0));
    int32_t *row_comp = reinterpret_cast<int32_t *>(scratch.at(a_bytes));
    uint8_t *b_packed = reinterpret_cast<uint8_t *>(scratch.at(a_bytes + row_bytes));
    int32_t *col_comp = reinterpret_cast<int32_t *>(scratch.at(a_bytes + row_bytes + b_bytes));

    const uint8_t *a_rows = copy_a ? a_copy : static_cast<const uint8_t *>(p.a.ptr);
    const dim_t lda = copy_a ? kp : p.a.rs;
    const uint8_t *b_src = static_cast<const uint8_t *>(p.b.ptr);
    const uint8_t *b_panels = packed_b ? b_src : b_packed;
    const dim_t b_stride = packed_b ? p.b.panel_stride : panel_elems;
    // Everything the tiles share, split between the threads: A's copy and row corrections
    // by rows, B's panels and column corrections by panels.
    if (copy_a || need_row || !packed_b || need_col)
        parallel(pl.nthr, [&](int ithr, int nthr) {
            dim_t m0, m1, p0, p1;
            balance211(M, nthr, ithr, m0, m1);
            balance211(pl.panels, nthr, ithr, p0, p1);
            if (copy_a) {
                const uint8_t x = flip_a ? 0x80 : 0;
                copy_rows<uint8_t>(p.a, m0, m1, K, kp, a_copy,
                        [x](uint8_t v) { return static_cast<uint8_t>(v ^ x); });
            }
            for (dim_t m = m0; need_row && m < m1; ++m) {
                const uint8_t *r = a_rows + m * lda;
                int64_t s = 0;
                for (dim_t k = 0; k < K; ++k)
                    s += a_unsigned_side ? int64_t(r[k]) : int64_t(int8_t(r[k]));
                row_comp[m] = static_cast<int32_t>(-B0 * s);
            }
            for (dim_t pn = p0; pn < p1; ++pn) {
                const dim_t n0 = pn * NR, ncols = std::min<dim_t>(NR, N - n0);
                uint8_t *dst = b_packed + pn * panel_elems;
                if (!packed_b && p.b.cs == 1)
                    pack_panel_rows(b_src + n0, p.b.rs, K, ncols, groups, dst);
                else if (!packed_b)
                    pack_panel_any<uint8_t, G>(p.b, K, N, n0, groups, dst);
                if (!need_col) continue;
                int32_t *cc = col_comp + pn * NR;
                int8_panel_col_sums(b_panels + pn * b_stride, groups, NR * G, NR, b_u8, cc);
                for (int j = 0; j < NR; ++j)
                    cc[j] = static_cast<int32_t>(K * A0 * B0 - A0 * cc[j]);
            }
        });

    const tile_fn *kernels = a_unsigned_side ? kernels_a_unsigned() : kernels_b_unsigned();
    for_each_item(pl, [&](int ithr, dim_t pn, dim_t t0, dim_t t1) {
        int32_t *tile_buf = reinterpret_cast<int32_t *>(scratch.at(shared + tile_bytes * ithr));
        const dim_t n0 = pn * NR;
        tile_t t;
        t.lda = lda;
        t.groups = groups;
        t.b = b_panels + pn * b_stride;
        t.col_comp = need_col ? col_comp + pn * NR : nullptr;
        t.nvalid = static_cast<int>(std::min<dim_t>(NR, N - n0));
        for (dim_t ti = t0; ti < t1; ++ti) {
            const dim_t m0 = ti * MR;
            const int rows = static_cast<int>(std::min<dim_t>(MR, M - m0));
            t.a = a_rows + m0 * lda;
            t.row_comp = need_row ? row_comp + m0 : nullptr;
            if (p.epilogue) {
                t.out = tile_buf;
                t.ldo = NR;
            } else {
                t.out = static_cast<int32_t *>(p.c) + m0 * p.ldc + n0;
                t.ldo = p.ldc;
            }
            kernels[rows](t);
            if (p.epilogue) p.epilogue(m0, n0, rows, t.nvalid, tile_buf, NR);
        }
    });
    return dnnl_success;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
