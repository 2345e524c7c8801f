// The vector brgemm kernels: the shared GEMM's tile microkernels (cpu/ukernels) driven over
// the batch. f32: rows x 32 tiles reading A and B in place. bf16 / int8: rows x 64 tiles on a
// pack32 B (k pairs / quads of a column side by side, groups ldb columns apart). Batch element
// by batch element (its A block then serves every panel of N from cache), each adds its
// product to the tiles of C (the first one writes them unless add_C): no copies, no scratch.
#include "cpu/ukernel/brgemm_kernels.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"
#include "cpu/ukernels/gemm_lowp_tiles.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

namespace {

using ukernels::detail::div_up;

// Equal-height tiles of at most mr rows: tile t covers rows [M t / n, M (t + 1) / n).
struct row_tiles_t {
    dim_t M, n;
    row_tiles_t(dim_t M, int mr) : M(M), n(div_up(M, mr)) {}
    dim_t first(dim_t t) const { return M * t / n; }
    int rows(dim_t t) const { return static_cast<int>(M * (t + 1) / n - M * t / n); }
};

void f32_kernel(const brgemm_conf_t &c, const brgemm_call_t &call) {
    constexpr int NR = ukernels::detail::panel_cols;
    const auto &full = ukernels::detail::avx512_tiles();
    const auto &edge = ukernels::detail::avx512_tiles_masked_b();
    // A is read in place: rows a multiple of 4 KiB apart share L1 sets, and 14 of them
    // outnumber the ways. Half-height tiles keep them resident (FMA-bound either way).
    const bool set_aliasing = c.lda * dim_t(sizeof(float)) % 4096 == 0;
    const row_tiles_t tiles(c.M, set_aliasing ? full.mr / 2 : full.mr);
    float *acc = static_cast<float *>(call.acc);
    for (dim_t i = 0; i < c.batch; ++i) {
        const float *a = reinterpret_cast<const float *>(call.a + call.offsets[2 * i]);
        const bool read_c = i > 0 || call.add;
        for (dim_t j = 0; j < c.N; j += NR) {
            const int cols = static_cast<int>(std::min<dim_t>(NR, c.N - j));
            const auto &tk = cols == NR ? full : edge;
            const float *b = reinterpret_cast<const float *>(call.b + call.offsets[2 * i + 1]) + j;
            for (dim_t t = 0; t < tiles.n; ++t) {
                const dim_t m = tiles.first(t);
                tk.fn[tiles.rows(t)](c.K, a + m * c.lda, c.lda, b, c.ldb,
                        acc + m * call.ldacc + j, call.ldacc, cols, 1.f, 1.f, read_c);
            }
        }
    }
}

void bf16_kernel(const brgemm_conf_t &c, const brgemm_call_t &call) {
    constexpr int NR = 64, G = 2;
    const row_tiles_t tiles(c.M, ukernels::lowp_tile_rows);
    float *acc = static_cast<float *>(call.acc);
    ukernels::bf16_tile_t t;
    t.groups = c.K / G;
    t.lda = c.lda;
    t.ldo = call.ldacc;
    t.out_bf16 = false;
    t.b_pitch = c.ldb * G;
    for (dim_t i = 0; i < c.batch; ++i) {
        const uint16_t *a = reinterpret_cast<const uint16_t *>(call.a + call.offsets[2 * i]);
        t.accumulate = i > 0 || call.add;
        for (dim_t j = 0; j < c.N; j += NR) {
            t.nvalid = static_cast<int>(std::min<dim_t>(NR, c.N - j));
            t.b_cols = static_cast<int>(std::min<dim_t>(NR, c.ldb - j));
            const ukernels::bf16_tile_fn *fn = ukernels::bf16_tiles(t.b_cols < NR);
            t.b = reinterpret_cast<const uint16_t *>(call.b + call.offsets[2 * i + 1]) + j * G;
            for (dim_t r = 0; r < tiles.n; ++r) {
                const dim_t m = tiles.first(r);
                t.a = a + m * c.lda;
                t.out = acc + m * call.ldacc + j;
                fn[tiles.rows(r)](t);
            }
        }
    }
}

// vpdpbusd multiplies u8 by s8: A u8 x B s8 and A s8 x B u8 go in as they are. Equal
// signedness reads A with its top bit flipped (s8 a as u8 a + 128, u8 a as s8 a - 128) and
// takes 128 column sums of B back out of each batch element's product (col_comp).
void int8_kernel(const brgemm_conf_t &c, const brgemm_call_t &call) {
    constexpr int NR = 64, G = 4;
    const row_tiles_t tiles(c.M, ukernels::lowp_tile_rows);
    ukernels::int8_tile_t t;
    t.groups = c.K / G;
    t.lda = c.lda;
    t.ldo = call.ldacc;
    t.b_pitch = c.ldb * G;
    t.row_comp = nullptr;
    const bool flip = c.a_dt == c.b_dt;
    const bool b_unsigned = c.b_dt == dnnl_u8;
    const bool a_unsigned = flip ? !b_unsigned : c.a_dt == dnnl_u8;
    const int32_t comp_scale = !flip ? 0 : b_unsigned ? 128 : -128;
    alignas(64) int32_t comp[NR];
    int32_t *acc = static_cast<int32_t *>(call.acc);
    for (dim_t i = 0; i < c.batch; ++i) {
        const uint8_t *a = reinterpret_cast<const uint8_t *>(call.a + call.offsets[2 * i]);
        t.accumulate = i > 0 || call.add;
        for (dim_t j = 0; j < c.N; j += NR) {
            t.nvalid = static_cast<int>(std::min<dim_t>(NR, c.N - j));
            t.b_cols = static_cast<int>(std::min<dim_t>(NR, c.ldb - j));
            const ukernels::int8_tile_fn *fn
                    = ukernels::int8_tiles(a_unsigned, t.b_cols < NR, flip);
            t.b = reinterpret_cast<const uint8_t *>(call.b + call.offsets[2 * i + 1]) + j * G;
            t.col_comp = nullptr;
            if (flip) {
                ukernels::int8_panel_col_sums(t.b, t.groups, t.b_pitch, t.b_cols, b_unsigned, comp);
                for (int n = 0; n < NR; ++n)
                    comp[n] *= comp_scale;
                t.col_comp = comp;
            }
            for (dim_t r = 0; r < tiles.n; ++r) {
                const dim_t m = tiles.first(r);
                t.a = a + m * c.lda;
                t.out = acc + m * call.ldacc + j;
                fn[tiles.rows(r)](t);
            }
        }
    }
}

} // namespace

brgemm_kernel_fn brgemm_f32_avx512(const brgemm_conf_t &c) {
    const bool ok = c.a_dt == dnnl_f32 && c.b_dt == dnnl_f32 && c.b_pack == dnnl_pack_type_no_trans
            && isa_enabled(dnnl_cpu_isa_avx512_core);
    return ok ? f32_kernel : nullptr;
}

// A is read in k pairs / quads in place: K must fill them (no element past K is read).
brgemm_kernel_fn brgemm_bf16_avx512(const brgemm_conf_t &c) {
    const bool ok = c.a_dt == dnnl_bf16 && c.b_dt == dnnl_bf16 && c.b_pack == dnnl_pack_type_pack32 && c.K % 2 == 0
            && isa_enabled(dnnl_cpu_isa_avx512_core_bf16);
    return ok ? bf16_kernel : nullptr;
}

brgemm_kernel_fn brgemm_int8_vnni(const brgemm_conf_t &c) {
    const bool ok = c.b_pack == dnnl_pack_type_pack32 && c.K % 4 == 0
            && (c.a_dt == dnnl_u8 || c.a_dt == dnnl_s8)
            && isa_enabled(dnnl_cpu_isa_avx512_core_vnni);
    return ok ? int8_kernel : nullptr;
}

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
