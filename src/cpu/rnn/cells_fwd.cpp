// Forward element-wise step of every RNN cell kind (see cells.hpp).
#include <cstring>

#include "cpu/eltwise/eltwise_math.hpp"
#include "cpu/rnn/act.hpp"
#include "cpu/rnn/cells.hpp"
#include "cpu/rnn/rows.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

void vanilla_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC;
    for_rows(c.N, H, [&](dim_t n) {
        float *g = s.g + n * H;
        float *h = s.hout + n * H;
        for (dim_t j = 0; j < H; ++j)
            g[j] += s.bias[j];
        switch (c.activation) {
            case dnnl_eltwise_tanh: tanh_copy(g, h, H, c.avx512); break;
            case dnnl_eltwise_logistic:
                std::memcpy(h, g, sizeof(float) * H);
                sigmoid_inplace(h, H, c.avx512);
                break;
            default:
                for (dim_t j = 0; j < H; ++j)
                    h[j] = g[j] > 0.f ? g[j] : g[j] * c.alpha;
        }
    });
}

void lstm_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        float *gi = s.g + n * GC, *gf = gi + H, *gc = gi + 2 * H, *go = gi + 3 * H;
        const float *cp = s.cprev + n * H;
        float *ct = s.cout + n * H;
        float *h = s.hout + n * H;
        for (dim_t j = 0; j < GC; ++j)
            gi[j] += s.bias[j];
        if (c.peephole)
            for (dim_t j = 0; j < H; ++j) {
                gi[j] += s.peep[j] * cp[j];
                gf[j] += s.peep[H + j] * cp[j];
            }
        sigmoid_inplace(gi, 2 * H, c.avx512);
        tanh_inplace(gc, H, c.avx512);
        for (dim_t j = 0; j < H; ++j)
            ct[j] = gf[j] * cp[j] + gi[j] * gc[j];
        if (c.peephole)
            for (dim_t j = 0; j < H; ++j)
                go[j] += s.peep[2 * H + j] * ct[j];
        sigmoid_inplace(go, H, c.avx512);
        tanh_copy(ct, h, H, c.avx512);
        for (dim_t j = 0; j < H; ++j)
            h[j] *= go[j];
    });
}

void gru_fwd_gates(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        float *gu = s.g + n * GC, *gr = gu + H;
        const float *hp = s.hprev + n * H;
        float *rh = s.rh + n * H;
        for (dim_t j = 0; j < 2 * H; ++j)
            gu[j] += s.bias[j];
        sigmoid_inplace(gu, 2 * H, c.avx512);
        for (dim_t j = 0; j < H; ++j)
            rh[j] = gr[j] * hp[j];
    });
}

namespace {
// h = u' hprev + (1 - u') o with u' = u, or (1 - a) u for AUGRU.
inline void gru_blend(const conf_t &c, const float *gu, const float *go, const float *hp,
        float *h, float a) {
    const dim_t H = c.DHC;
    if (c.augru)
        for (dim_t j = 0; j < H; ++j) {
            const float u = (1.f - a) * gu[j];
            h[j] = u * hp[j] + (1.f - u) * go[j];
        }
    else
        for (dim_t j = 0; j < H; ++j)
            h[j] = gu[j] * hp[j] + (1.f - gu[j]) * go[j];
}
} // namespace

void gru_fwd_state(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        float *gu = s.g + n * GC, *go = gu + 2 * H;
        for (dim_t j = 0; j < H; ++j)
            go[j] += s.bias[2 * H + j];
        tanh_inplace(go, H, c.avx512);
        gru_blend(c, gu, go, s.hprev + n * H, s.hout + n * H, c.augru ? s.att[n] : 0.f);
    });
}

void lbr_fwd(const step_fwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        float *gu = s.g + n * GC, *gr = gu + H, *go = gu + 2 * H;
        const float *git = s.git + n * GC;
        float *hu = s.hu + n * H;
        for (dim_t j = 0; j < 2 * H; ++j)
            gu[j] += git[j] + s.bias[j];
        sigmoid_inplace(gu, 2 * H, c.avx512);
        for (dim_t j = 0; j < H; ++j) {
            hu[j] = git[2 * H + j] + s.bias[3 * H + j];
            go[j] += s.bias[2 * H + j] + gr[j] * hu[j];
        }
        tanh_inplace(go, H, c.avx512);
        gru_blend(c, gu, go, s.hprev + n * H, s.hout + n * H, c.augru ? s.att[n] : 0.f);
    });
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
