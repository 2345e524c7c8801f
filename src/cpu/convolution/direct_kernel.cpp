// The f32 direct-convolution microkernel (AVX-512): UR pixels x NB 16-channel blocks of dst in
// registers; each input channel broadcasts one src value per pixel against NB weight vectors.
#include "cpu/convolution/direct_kernel.hpp"

#include <utility>

#include <immintrin.h>

#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace conv {

namespace {

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,fma")))

constexpr int max_ur_by_nb[5] = {0, 12, 12, 8, 6};

// PIX > 0: the src pixel step is known here (the compiler folds it into addresses).
template <int UR, int NB, int VIC, int PIX>
ANYDNN_AVX512 void direct_avx512(const direct_geom_t &g, const direct_tile_t &t) {
    __m512 acc[UR][NB];
#pragma GCC unroll 4
    for (int j = 0; j < NB; ++j) {
        const __m512 b = t.bias ? _mm512_loadu_ps(t.bias + 16 * j) : _mm512_setzero_ps();
#pragma GCC unroll 12
        for (int i = 0; i < UR; ++i)
            acc[i][j] = b;
    }
    const dim_t pix = PIX > 0 ? PIX : g.src_pix;
    const dim_t wocb = g.wei_ocb;
    const float *s_step = t.src, *w_step = t.wei;
    for (dim_t st = 0; st < g.n_steps; ++st, s_step += g.src_step, w_step += g.wei_step) {
        // The next tile's pixels of this step (first tap) into L2: where src streams from
        // memory (1x1), its reads overlap this tile's arithmetic.
#pragma GCC unroll 12
        for (int i = UR; i < 2 * UR; ++i)
            _mm_prefetch(reinterpret_cast<const char *>(s_step + i * pix), _MM_HINT_T1);
        const float *sd = s_step, *wd = w_step;
        for (dim_t kd = 0; kd < t.nkd; ++kd, sd += g.src_kd, wd += g.wei_kd) {
            const float *sh = sd, *wh = wd;
            for (dim_t kh = 0; kh < t.nkh; ++kh, sh += g.src_kh, wh += g.wei_kh) {
                const float *s = sh, *w = wh;
                for (dim_t kw = 0; kw < t.nkw; ++kw, s += g.src_kw, w += g.wei_kw) {
#pragma GCC unroll 16
                    for (int c = 0; c < VIC; ++c) {
                        __m512 wv[NB];
#pragma GCC unroll 4
                        for (int j = 0; j < NB; ++j)
                            wv[j] = _mm512_loadu_ps(w + j * wocb + c * 16);
#pragma GCC unroll 12
                        for (int i = 0; i < UR; ++i) {
                            const __m512 a = _mm512_set1_ps(s[i * pix + c]);
#pragma GCC unroll 4
                            for (int j = 0; j < NB; ++j)
                                acc[i][j] = _mm512_fmadd_ps(a, wv[j], acc[i][j]);
                        }
                    }
                }
            }
        }
    }
#pragma GCC unroll 4
    for (int j = 0; j < NB; ++j)
#pragma GCC unroll 12
        for (int i = 0; i < UR; ++i)
            _mm512_storeu_ps(t.dst + j * g.dst_ocb + i * 16, acc[i][j]);
}

// Kernels by [vec_ic is 16][pixel step mode: run time, sw 1, sw 2][nb - 1][ur - 1].
struct table_t {
    direct_kernel_fn fn[2][3][4][12] = {};
};

template <int NB, int VIC, int PIX, int... U>
void fill_urs(direct_kernel_fn *row, std::integer_sequence<int, U...>) {
    ((row[U] = direct_avx512<U + 1, NB, VIC, PIX>), ...);
}

template <int VIC, int PIX>
void fill_mode(direct_kernel_fn (&by_nb)[4][12]) {
    fill_urs<1, VIC, PIX>(by_nb[0], std::make_integer_sequence<int, max_ur_by_nb[1]>());
    fill_urs<2, VIC, PIX>(by_nb[1], std::make_integer_sequence<int, max_ur_by_nb[2]>());
    fill_urs<3, VIC, PIX>(by_nb[2], std::make_integer_sequence<int, max_ur_by_nb[3]>());
    fill_urs<4, VIC, PIX>(by_nb[3], std::make_integer_sequence<int, max_ur_by_nb[4]>());
}

const table_t &table() {
    static const table_t t = [] {
        table_t r;
        fill_mode<16, 0>(r.fn[1][0]);
        fill_mode<16, 16>(r.fn[1][1]);
        fill_mode<16, 32>(r.fn[1][2]);
        fill_mode<1, 0>(r.fn[0][0]);
        fill_mode<1, 1>(r.fn[0][1]);
        fill_mode<1, 2>(r.fn[0][2]);
        return r;
    }();
    return t;
}

} // namespace

int direct_max_ur(int nb) {
    return nb >= 1 && nb <= 4 ? max_ur_by_nb[nb] : 0;
}

bool direct_kernels_enabled() {
    return isa_enabled(dnnl_cpu_isa_avx512_core);
}

direct_kernel_fn direct_kernel(int ur, int nb, int vec_ic, dim_t src_pix) {
    if (nb < 1 || nb > 4 || ur < 1 || ur > max_ur_by_nb[nb]) return nullptr;
    if (vec_ic != 1 && vec_ic != 16) return nullptr;
    int mode = 0;
    if (src_pix == vec_ic) mode = 1;
    else if (src_pix == 2 * vec_ic) mode = 2;
    return table().fn[vec_ic == 16][mode][nb - 1][ur - 1];
}

} // namespace conv
} // namespace cpu
} // namespace anydnn
