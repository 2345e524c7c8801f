// What the bf16 and int8 GEMMs share: how threads split C, one scratch allocation, the copy
// of A into contiguous k-padded rows, the plain packing of one B panel and the packed
// weights layout.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>

#include "core/parallel.hpp"
#include "cpu/ukernels/gemm_lowp.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace lowp {

constexpr int NR = lowp_panel_cols;
constexpr int MR = 6; // rows per microkernel tile: 6 x 4 accumulators + 4 B vectors

inline dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}

// Work items are (block of rows, panel) pairs, blocks outermost. A block of A rows is sized to
// stay in L2 while the panels pass by, so A is read from memory about once, not once per
// panel; each panel is reused by every tile of the block. Items go in order to whichever
// thread asks next: on a shared machine a descheduled thread does not hold the others up at
// the end as a static split would.
struct plan_t {
    int nthr = 1;
    dim_t tiles = 0, panels = 0;
    dim_t block_tiles = 1, blocks = 1; // row tiles per block
};
inline plan_t make_plan(dim_t M, dim_t N, dim_t K, size_t elem_size, int nthr) {
    plan_t pl;
    pl.tiles = div_up(M, MR);
    pl.panels = div_up(N, NR);
    // Below ~1 M multiply-adds a second thread costs more than it brings.
    if (double(M) * N * K < double(1 << 20)) nthr = 1;
    pl.nthr = static_cast<int>(std::max<dim_t>(1, std::min<dim_t>(nthr, pl.tiles * pl.panels)));
    constexpr dim_t a_block_bytes = 384 * 1024; // of a 1 MiB L2, beside one panel
    const dim_t row_bytes = std::max<dim_t>(1, K * static_cast<dim_t>(elem_size) * MR);
    dim_t bt = std::max<dim_t>(1, a_block_bytes / row_bytes);
    // At least ~4 items per thread, so the last one to finish waits little.
    bt = std::min(bt, std::max<dim_t>(1, pl.tiles * pl.panels / (4 * pl.nthr)));
    pl.block_tiles = std::min(bt, pl.tiles);
    pl.blocks = div_up(pl.tiles, pl.block_tiles);
    return pl;
}

// f(ithr, panel, first tile, end tile) for every item.
template <typename F>
void for_each_item(const plan_t &pl, F f) {
    std::atomic<dim_t> next {0};
    const dim_t items = pl.panels * pl.blocks;
    parallel(pl.nthr, [&](int ithr, int) {
        for (dim_t i = next++; i < items; i = next++) {
            const dim_t t0 = (i / pl.panels) * pl.block_tiles;
            f(ithr, i % pl.panels, t0, std::min(pl.tiles, t0 + pl.block_tiles));
        }
    });
}

// Plain B is packed whole before the tiles start; a very wide one goes in column slabs, one
// after another, so that copy stays bounded. Returns false when p needs no split.
template <typename Gemm>
bool run_in_slabs(const lowp_gemm_t &p, size_t elem_size, Gemm gemm, status_t &st) {
    constexpr size_t max_packed_bytes = size_t(64) << 20;
    const size_t k_bytes = static_cast<size_t>(std::max<dim_t>(1, p.K)) * elem_size;
    if (p.b.panel_stride > 0 || k_bytes * static_cast<size_t>(p.N) <= max_packed_bytes)
        return false;
    const dim_t slab = std::max<dim_t>(NR, dim_t(max_packed_bytes / k_bytes) / NR * NR);
    st = dnnl_success;
    for (dim_t n0 = 0; n0 < p.N && st == dnnl_success; n0 += slab) {
        lowp_gemm_t q = p;
        q.N = std::min(slab, p.N - n0);
        q.b.ptr = static_cast<const char *>(p.b.ptr) + n0 * p.b.cs * elem_size;
        if (p.c) q.c = static_cast<char *>(p.c) + n0 * data_type_size(p.c_dt);
        if (p.epilogue)
            q.epilogue = [&p, n0](dim_t m0, dim_t n, dim_t mb, dim_t nb, void *v, dim_t ldv) {
                p.epilogue(m0, n0 + n, mb, nb, v, ldv);
            };
        st = gemm(q);
    }
    return true;
}

// One aligned allocation carved into pieces by the caller.
struct scratch_t {
    std::unique_ptr<char, void (*)(void *)> mem {nullptr, std::free};
    status_t alloc(size_t bytes) {
        if (bytes == 0) return dnnl_success;
        mem.reset(static_cast<char *>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
        return mem ? dnnl_success : dnnl_out_of_memory;
    }
    char *at(size_t offset) const { return mem.get() + offset; }
};
inline size_t round64(size_t bytes) {
    return (bytes + 63) / 64 * 64;
}

// Rows [m0, m1) of A (type T, any strides) into dst with row pitch kp >= K, each element
// passed through f, zeros after K.
template <typename T, typename F>
void copy_rows(const lowp_matrix_t &a, dim_t m0, dim_t m1, dim_t K, dim_t kp, T *dst, F f) {
    const T *src = static_cast<const T *>(a.ptr);
    for (dim_t m = m0; m < m1; ++m) {
        T *d = dst + m * kp;
        const T *s = src + m * a.rs;
        if (a.cs == 1)
            for (dim_t k = 0; k < K; ++k)
                d[k] = f(s[k]);
        else
            for (dim_t k = 0; k < K; ++k)
                d[k] = f(s[k * a.cs]);
        for (dim_t k = K; k < kp; ++k)
            d[k] = 0;
    }
}

// Panel of B starting at column n0 (type T, any strides) packed with G consecutive k per
// column: dst[(g * NR + j) * G + t] = B[g * G + t][n0 + j], zeros outside K x N.
template <typename T, int G>
void pack_panel_any(const lowp_matrix_t &b, dim_t K, dim_t N, dim_t n0, dim_t groups, T *dst) {
    const T *src = static_cast<const T *>(b.ptr);
    const dim_t ncols = std::min<dim_t>(NR, N - n0);
    for (dim_t g = 0; g < groups; ++g)
        for (int t = 0; t < G; ++t) {
            const dim_t k = g * G + t;
            T *d = dst + g * NR * G + t;
            if (k >= K) {
                for (int j = 0; j < NR; ++j)
                    d[j * G] = 0;
                continue;
            }
            const T *s = src + k * b.rs + n0 * b.cs;
            for (dim_t j = 0; j < ncols; ++j)
                d[j * G] = s[j * b.cs];
            for (dim_t j = ncols; j < NR; ++j)
                d[j * G] = 0;
        }
}

} // namespace lowp
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
