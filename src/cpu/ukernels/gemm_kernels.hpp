// Internal pieces of the shared f32 GEMM (cpu/ukernels/gemm): register-blocked tile kernels
// over packed panels, the packing routines that feed them, and the small-M (GEMV) paths.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>

#include "core/parallel.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace detail {

// 64-byte aligned scratch floats, freed with the owner.
struct free_deleter {
    void operator()(float *p) const {
        std::free(p);
    }
};
using fbuf_t = std::unique_ptr<float, free_deleter>;
inline fbuf_t alloc_floats(dim_t n) {
    const size_t bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
    return fbuf_t(static_cast<float *>(std::aligned_alloc(64, bytes ? bytes : 64)));
}

inline dim_t div_up(dim_t v, dim_t m) {
    return (v + m - 1) / m;
}

// f(ithr, i) for every chunk i of [0, n), threads taking the next chunk as they finish: a
// thread the OS holds up (the machine is shared) leaves the rest of the work to the others.
template <typename F> void for_chunks(dim_t n, int nthr, F f) {
    std::atomic<dim_t> next{0};
    parallel(static_cast<int>(std::min<dim_t>(nthr, n)), [&](int ithr, int) {
        for (dim_t i = next++; i < n; i = next++)
            f(ithr, i);
    });
}

// Columns of one packed B panel: element (k, j) at panel[k * panel_cols + j], zero-padded.
constexpr int panel_cols = 32;

// rows x 32 tile of C from a packed A block (row r at a + r * lda, lda >= K) and 32 columns
// of B (row k at b + k * ldb: a packed panel with ldb = 32, or f32 B read in place):
// acc = A * B; C = alpha * acc + (read_c ? beta * C : 0) on the first `cols` columns.
using tile_fn = void (*)(dim_t K, const float *a, dim_t lda, const float *b, dim_t ldb, float *c,
        dim_t ldc, int cols, float alpha, float beta, bool read_c);

// The kernels of one ISA: fn[r] computes r rows (1..mr).
struct tile_kernels_t {
    int mr;
    tile_fn fn[16];
    const char *name;
};
const tile_kernels_t &avx512_tiles();
// The same, reading only the first `cols` columns of B (for B read in place up to its edge).
const tile_kernels_t &avx512_tiles_masked_b();
const tile_kernels_t &generic_tiles();

// Packs rows [m0, m0+mc) x depth [k0, k0+kc) of `a` as f32 rows of pitch lda_p (minus zp).
void pack_a(
        const gemm_operand_t &a, dim_t m0, dim_t k0, dim_t mc, dim_t kc, dim_t lda_p, float *ap);
// Packs depth [k0, k0+kc) x columns [n0, n0+nc) of `b` as 32-column panels, panel p at
// bp + p * kc * 32, the last one zero-padded.
void pack_b(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, dim_t nc, float *bp);
// The same for B with b.dq: integer weights decompressed into the f32 panels
// (cpu/ukernels/gemm_dequant.cpp).
void pack_b_dequant(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, dim_t nc, float *bp);

// Small M with f32 operands: streams B once (AVX-512). Returns false when it does not apply.
bool gemv_avx512(const gemm_problem_t &p, int nthr);

} // namespace detail
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
