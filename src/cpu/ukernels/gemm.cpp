// Packed GEMM driver (Goto/BLIS loop order): per thread, C blocks of NC columns; per depth
// block of KC, B packed into 32-column panels (one panel in L1 at a time) and A rows packed MC
// at a time (L2). Threads take chunks of C in turn and pack their own operands: no barriers.
#include "cpu/ukernels/gemm.hpp"

#include <algorithm>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

namespace {

using detail::alloc_floats;
using detail::div_up;
using detail::fbuf_t;
using detail::panel_cols;
using detail::tile_kernels_t;

// Cache blocking (Zen 4/5: 32-48 KiB L1D, 1 MiB L2): a KC x 32 panel of B stays in L1 while
// MC rows of A (MC x KC) and the KC x NC block of B stay in L2.
constexpr dim_t KC = 1024;
constexpr dim_t MC_TILES = 8;
constexpr dim_t NC = 512;
constexpr dim_t DQ_KC = 256;
// Work sharing: chunks of C taken in turn (see chunk_grid), none smaller than this.
constexpr dim_t CHUNKS_PER_THREAD = 4;
constexpr dim_t MIN_CHUNK_TILES = 8, MIN_CHUNK_PANELS = 4;

const tile_kernels_t &pick_tiles() {
    return isa_enabled(dnnl_cpu_isa_avx512_core) ? detail::avx512_tiles() : detail::generic_tiles();
}

dim_t round_up(dim_t v, dim_t m) {
    return (v + m - 1) / m * m;
}

void scale_c(const gemm_problem_t &p, dim_t m0, dim_t ms, dim_t n0, dim_t ns) {
    for (dim_t i = 0; i < ms; ++i) {
        float *c = p.c + (m0 + i) * p.ldc + n0;
        for (dim_t j = 0; j < ns; ++j)
            c[j] = p.beta == 0.f ? 0.f : p.beta * c[j];
    }
}

// The source rows of the next B block, asked for into L2 a slice at a time while the last
// tiles of the current block compute: its DRAM reads overlap arithmetic instead of stalling
// the packing. Only for row-major B (the layout whose packing streams many far-apart rows).
struct b_block_prefetch_t {
    const char *base = nullptr;
    dim_t rows = 0, pitch = 0, bytes = 0;
    b_block_prefetch_t(const gemm_operand_t &b, dim_t k0, dim_t kc, dim_t n0, dim_t nc) {
        if (b.cs != 1 || kc <= 0 || nc <= 0) return;
        const dim_t es = static_cast<dim_t>(data_type_size(b.dt));
        const bool nibbles = b.dt == dnnl_s4 || b.dt == dnnl_u4; // two elements a byte
        const dim_t e0 = (b.dq ? b.dq->b_off : 0) + k0 * b.rs + n0;
        base = static_cast<const char *>(b.ptr) + (nibbles ? e0 / 2 : e0 * es);
        rows = kc;
        pitch = nibbles ? b.rs / 2 : b.rs * es;
        bytes = nibbles ? (nc + 1) / 2 : nc * es;
    }
    void slice(dim_t part, dim_t parts) const {
        if (!base) return;
        for (dim_t r = rows * part / parts; r < rows * (part + 1) / parts; ++r)
            for (dim_t off = 0; off < bytes; off += 64)
                __builtin_prefetch(base + r * pitch + off, 0, 2);
    }
};

// One thread's share: rows [m0, m0+ms), columns [n0, n0+ns) of C.
void gemm_block(
        const gemm_problem_t &p, const tile_kernels_t &tk, dim_t m0, dim_t ms, dim_t n0, dim_t ns) {
    if (ms <= 0 || ns <= 0) return;
    const int mr = tk.mr;
    const dim_t K = p.K;
    if (K == 0) {
        scale_c(p, m0, ms, n0, ns);
        if (p.epilogue) p.epilogue(m0, n0, ms, ns);
        return;
    }
    // B packed by the caller is read in place.
    const bool b_packed = p.b.panel_stride > 0;
    // Equal blocks: rows of at most MC_TILES tiles, depth of at most KC. One tile of rows
    // against packed B is memory-bound: whole panels, back to back, make one long stream.
    const dim_t mc_max = div_up(ms, div_up(ms, mr * MC_TILES));
    // Decompressed B for a single block of rows is packed a panel at a time, just before its
    // tiles read it, and in depths whose panel fits L1 (DQ_KC x 32 floats).
    const bool per_panel = p.b.dq && ms <= mc_max;
    const dim_t kc_cap = per_panel ? DQ_KC : b_packed && ms <= mr ? K : KC;
    const dim_t kc_max = std::min(K, round_up(div_up(K, div_up(K, kc_cap)), 16));
    const dim_t nc_max = std::min<dim_t>(round_up(ns, panel_cols), NC);
    // Row pitch off a multiple of 4 KiB so packed rows do not share L1 sets.
    const dim_t lda_p = round_up(kc_max, 16) + 16;
    fbuf_t ap = alloc_floats(mc_max * lda_p);
    fbuf_t bp = b_packed ? nullptr : alloc_floats((per_panel ? panel_cols : nc_max) * kc_max);

    for (dim_t jc = 0; jc < ns; jc += NC) {
        const dim_t nc = std::min(NC, ns - jc);
        for (dim_t pc = 0; pc < K; pc += kc_max) {
            const dim_t kc = std::min(kc_max, K - pc);
            const bool first = pc == 0, last = pc + kc == K;
            const bool read_c = !first || p.beta != 0.f;
            const float beta = first ? p.beta : 1.f;
            const bool next_jc = pc + kc >= K;
            const dim_t next_pc = next_jc ? 0 : pc + kc, next_n = next_jc ? jc + NC : jc;
            const b_block_prefetch_t next(p.b, next_pc, std::min(kc_max, K - next_pc), n0 + next_n,
                    std::min(NC, ns - next_n));
            for (dim_t ic = 0; ic < ms; ic += mc_max) {
                const dim_t mc = std::min(mc_max, ms - ic);
                // Tiles of equal height: no thin last tile.
                const dim_t tiles = div_up(mc, mr);
                const dim_t panels = div_up(nc, panel_cols);
                const bool last_ic = ic + mc == ms;
                detail::pack_a(p.a, m0 + ic, pc, mc, kc, lda_p, ap.get());
                if (ic == 0 && !b_packed && !per_panel)
                    detail::pack_b(p.b, pc, n0 + jc, kc, nc, bp.get());
                for (dim_t jp = 0; jp < panels; ++jp) {
                    const dim_t jr = jp * panel_cols;
                    const int cols = static_cast<int>(std::min<dim_t>(panel_cols, nc - jr));
                    if (per_panel) detail::pack_b(p.b, pc, n0 + jc + jr, kc, cols, bp.get());
                    const float *panel =
                            b_packed ? static_cast<const float *>(p.b.ptr)
                                               + (n0 + jc + jr) / panel_cols * p.b.panel_stride
                                               + pc * panel_cols
                                     : bp.get() + (per_panel ? 0 : jr * kc);
                    float *c = p.c + (m0 + ic) * p.ldc + n0 + jc + jr;
                    for (dim_t t = 0; t < tiles; ++t) {
                        const dim_t ir = mc * t / tiles;
                        const int rows = static_cast<int>(mc * (t + 1) / tiles - ir);
                        tk.fn[rows](kc, ap.get() + ir * lda_p, lda_p, panel, panel_cols,
                                c + ir * p.ldc, p.ldc, cols, p.alpha, beta, read_c);
                        if (last_ic) next.slice(jp * tiles + t, panels * tiles);
                    }
                }
                if (last && p.epilogue) p.epilogue(m0 + ic, n0 + jc, mc, nc);
            }
        }
    }
}

// Splits C into a cm x cn grid of chunks that threads take in turn: at least
// CHUNKS_PER_THREAD per thread (a thread the OS holds up leaves its chunks to the others) and
// a multiple of the thread count (even shares when none is held up), then the least operand
// traffic (each chunk reads its rows of A and its columns of B).
void chunk_grid(dim_t M, dim_t N, int mr, int nthr, bool b_packed, dim_t &cm, dim_t &cn) {
    cm = cn = 1;
    if (nthr <= 1) return;
    const dim_t max_m = std::max<dim_t>(1, div_up(M, mr * MIN_CHUNK_TILES));
    const dim_t max_n = std::max<dim_t>(1, div_up(N, panel_cols * MIN_CHUNK_PANELS));
    const dim_t want = std::min<dim_t>(nthr * CHUNKS_PER_THREAD, max_m * max_n);
    double best = -1;
    for (dim_t a = 1; a <= max_m; ++a)
        for (dim_t b = 1; b <= max_n; ++b) {
            if (a * b < want || a * b > 4 * want) continue;
            // B packed by the caller costs only its reads, a quarter of packing it.
            const double traffic = double(b) * M + double(a) * N * (b_packed ? 0.25 : 1.0);
            const double cost = traffic * (a * b % nthr == 0 ? 1.0 : 2.0);
            if (best < 0 || cost < best) {
                best = cost;
                cm = a;
                cn = b;
            }
        }
}

} // namespace

void gemm(const gemm_problem_t &p) {
    if (p.M <= 0 || p.N <= 0) return;
    const tile_kernels_t &tk = pick_tiles();
    int nthr = p.nthr > 0 ? p.nthr : max_threads();
    const double flops = double(p.M) * double(p.N) * double(p.K);
    if (flops < 64.0 * 64 * 64) nthr = 1;
    // Small M streams B once; packed B is streamed panel by panel by the tiles themselves.
    if (tk.mr == detail::avx512_tiles().mr && p.b.panel_stride == 0 && detail::gemv_avx512(p, nthr))
        return;
    dim_t cm, cn;
    chunk_grid(p.M, p.N, tk.mr, nthr, p.b.panel_stride > 0, cm, cn);
    // Chunks aligned to the tile sizes so only the last row and column have edges.
    const dim_t mb = round_up(div_up(p.M, cm), tk.mr);
    const dim_t nb = round_up(div_up(p.N, cn), panel_cols);
    detail::for_chunks(cm * cn, nthr, [&](int, dim_t i) {
        const dim_t m0 = std::min(p.M, i % cm * mb), n0 = std::min(p.N, i / cm * nb);
        gemm_block(p, tk, m0, std::min(mb, p.M - m0), n0, std::min(nb, p.N - n0));
    });
}

void sgemm_rowmajor(char transa, char transb, dim_t M, dim_t N, dim_t K, float alpha,
        const float *A, dim_t lda, const float *B, dim_t ldb, float beta, float *C, dim_t ldc,
        int nthr) {
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
    return pick_tiles().name;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
