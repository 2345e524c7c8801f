// Forward element-wise step of every RNN cell kind (see cells.hpp), on the output channels
// [j0, j1) of each gate.
#include <cstring>

#include "core/ops/eltwise/eltwise_math.hpp"
#include "cpu/rnn/act.hpp"
#include "cpu/rnn/cells.hpp"
#include "cpu/rnn/rows.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

void vanilla_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, j0 = s.j0, nj = s.j1 - s.j0;
    for_rows(c.N, nj, [&](dim_t n) {
        float *g = s.g + n * H + j0;
        float *h = s.hout + n * H + j0;
        const float *b = s.bias + j0;
        for (dim_t j = 0; j < nj; ++j)
            g[j] += b[j];
        switch (c.activation) {
            case dnnl_eltwise_tanh: tanh_copy(g, h, nj, c.avx512); break;
            case dnnl_eltwise_logistic:
                std::memcpy(h, g, sizeof(float) * nj);
                sigmoid_inplace(h, nj, c.avx512);
                break;
            default:
                for (dim_t j = 0; j < nj; ++j)
                    h[j] = g[j] > 0.f ? g[j] : g[j] * c.alpha;
        }
    });
}

void lstm_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols(), j0 = s.j0, nj = s.j1 - s.j0;
    for_rows(c.N, 4 * nj, [&](dim_t n) {
        float *gi = s.g + n * GC + j0, *gf = gi + H, *gc = gi + 2 * H, *go = gi + 3 * H;
        const float *cp = s.cprev + n * H + j0;
        float *ct = s.cout + n * H + j0;
        float *h = s.hout + n * H + j0;
        const float *b = s.bias + j0;
        for (dim_t g = 0; g < 4; ++g)
            for (dim_t j = 0; j < nj; ++j)
                gi[g * H + j] += b[g * H + j];
        if (c.peephole) {
            const float *p = s.peep + j0;
            for (dim_t j = 0; j < nj; ++j) {
                gi[j] += p[j] * cp[j];
                gf[j] += p[H + j] * cp[j];
            }
        }
        sigmoid_inplace(gi, nj, c.avx512);
        sigmoid_inplace(gf, nj, c.avx512);
        tanh_inplace(gc, nj, c.avx512);
        for (dim_t j = 0; j < nj; ++j)
            ct[j] = gf[j] * cp[j] + gi[j] * gc[j];
        if (c.peephole) {
            const float *p = s.peep + 2 * H + j0;
            for (dim_t j = 0; j < nj; ++j)
                go[j] += p[j] * ct[j];
        }
        sigmoid_inplace(go, nj, c.avx512);
        tanh_copy(ct, h, nj, c.avx512);
        for (dim_t j = 0; j < nj; ++j)
            h[j] *= go[j];
    });
}

void gru_fwd_gates(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols(), j0 = s.j0, nj = s.j1 - s.j0;
    for_rows(c.N, 2 * nj, [&](dim_t n) {
        float *gu = s.g + n * GC + j0, *gr = gu + H;
        const float *hp = s.hprev + n * H + j0;
        float *rh = s.rh + n * H + j0;
        const float *b = s.bias + j0;
        for (dim_t j = 0; j < nj; ++j) {
            gu[j] += b[j];
            gr[j] += b[H + j];
        }
        sigmoid_inplace(gu, nj, c.avx512);
        sigmoid_inplace(gr, nj, c.avx512);
        for (dim_t j = 0; j < nj; ++j)
            rh[j] = gr[j] * hp[j];
    });
}

namespace {
// h = u' hprev + (1 - u') o with u' = u, or (1 - a) u for AUGRU, over nj channels.
inline void gru_blend(const conf_t &c, const float *gu, const float *go, const float *hp,
        float *h, dim_t nj, float a) {
    if (c.augru)
        for (dim_t j = 0; j < nj; ++j) {
            const float u = (1.f - a) * gu[j];
            h[j] = u * hp[j] + (1.f - u) * go[j];
        }
    else
        for (dim_t j = 0; j < nj; ++j)
            h[j] = gu[j] * hp[j] + (1.f - gu[j]) * go[j];
}
} // namespace

void gru_fwd_state(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols(), j0 = s.j0, nj = s.j1 - s.j0;
    for_rows(c.N, 3 * nj, [&](dim_t n) {
        float *gu = s.g + n * GC + j0, *go = gu + 2 * H;
        const float *b = s.bias + 2 * H + j0;
        for (dim_t j = 0; j < nj; ++j)
            go[j] += b[j];
        tanh_inplace(go, nj, c.avx512);
        gru_blend(c, gu, go, s.hprev + n * H + j0, s.hout + n * H + j0, nj,
                c.augru ? s.att[n] : 0.f);
    });
}

void lbr_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols(), j0 = s.j0, nj = s.j1 - s.j0;
    for_rows(c.N, 3 * nj, [&](dim_t n) {
        float *gu = s.g + n * GC + j0, *gr = gu + H, *go = gu + 2 * H;
        const float *git = s.git + n * GC + j0;
        float *hu = s.hu + n * H + j0;
        const float *b = s.bias + j0;
        for (dim_t j = 0; j < nj; ++j) {
            gu[j] += git[j] + b[j];
            gr[j] += git[H + j] + b[H + j];
        }
        sigmoid_inplace(gu, nj, c.avx512);
        sigmoid_inplace(gr, nj, c.avx512);
        for (dim_t j = 0; j < nj; ++j) {
            hu[j] = git[2 * H + j] + b[3 * H + j];
            go[j] += b[2 * H + j] + gr[j] * hu[j];
        }
        tanh_inplace(go, nj, c.avx512);
        gru_blend(c, gu, go, s.hprev + n * H + j0, s.hout + n * H + j0, nj,
                c.augru ? s.att[n] : 0.f);
    });
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
