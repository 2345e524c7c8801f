// Backward element-wise step of every RNN cell kind (see cells.hpp): gradients of the
// pre-activation gates from the gradient of the cell output (and of c for LSTM).
#include "core/ops/eltwise/eltwise_math.hpp"
#include "cpu/rnn/act.hpp"
#include "cpu/rnn/cells.hpp"
#include "cpu/rnn/rows.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

void vanilla_bwd(const step_bwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC;
    for_rows(c.N, H, [&](dim_t n) {
        const float *g = s.g + n * H, *dh = s.dhp + n * H;
        float *dg = s.dg + n * H;
        for (dim_t j = 0; j < H; ++j)
            dg[j] = eltwise_bwd_scalar(c.activation, dh[j], g[j], c.alpha, 0.f);
    });
}

void lstm_bwd(const step_bwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        const float *gi = s.g + n * GC, *gf = gi + H, *gc = gi + 2 * H, *go = gi + 3 * H;
        float *dgi = s.dg + n * GC, *dgf = dgi + H, *dgc = dgi + 2 * H, *dgo = dgi + 3 * H;
        const float *cp = s.cprev + n * H, *ct = s.ccur + n * H, *dh = s.dhp + n * H;
        float *dc = s.dc + n * H;
        float *tc = s.tmp + n * H;
        tanh_copy(ct, tc, H, c.avx512);
        for (dim_t j = 0; j < H; ++j) {
            const float o = go[j], i = gi[j], f = gf[j], cc = gc[j];
            const float dgo_j = dh[j] * tc[j] * o * (1.f - o);
            float dct = dc[j] + dh[j] * o * (1.f - tc[j] * tc[j]);
            if (c.peephole) dct += dgo_j * s.peep[2 * H + j];
            const float dgi_j = dct * cc * i * (1.f - i);
            const float dgf_j = dct * cp[j] * f * (1.f - f);
            dgo[j] = dgo_j;
            dgi[j] = dgi_j;
            dgf[j] = dgf_j;
            dgc[j] = dct * i * (1.f - cc * cc);
            float dcp = dct * f;
            if (c.peephole) dcp += dgi_j * s.peep[j] + dgf_j * s.peep[H + j];
            dc[j] = dcp;
        }
    });
}

namespace {
// Gradients of u and o and the direct part of dh_{t-1} for h = u' hprev + (1 - u') o;
// returns the attention gradient of the row.
inline float gru_unblend(const conf_t &c, const float *g, const float *hp, const float *dh,
        float *dg, float *dh_prev, float a) {
    const dim_t H = c.DHC;
    const float *gu = g, *go = g + 2 * H;
    float *dgu = dg, *dgo = dg + 2 * H;
    const float keep = c.augru ? 1.f - a : 1.f;
    float da = 0.f;
    for (dim_t j = 0; j < H; ++j) {
        const float u = gu[j], o = go[j], ue = keep * u;
        const float due = dh[j] * (hp[j] - o);
        da -= due * u;
        dgu[j] = due * keep * u * (1.f - u);
        dgo[j] = dh[j] * (1.f - ue) * (1.f - o * o);
        dh_prev[j] = dh[j] * ue;
    }
    return da;
}
} // namespace

void gru_bwd_state(const step_bwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        const float da = gru_unblend(c, s.g + n * GC, s.hprev + n * H, s.dhp + n * H,
                s.dg + n * GC, s.dh_prev + n * H, c.augru ? s.att[n] : 0.f);
        if (c.augru) s.datt[n] += da;
    });
}

void gru_bwd_gates(const step_bwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        const float *gr = s.g + n * GC + H, *hp = s.hprev + n * H, *drh = s.drh + n * H;
        float *dgr = s.dg + n * GC + H, *dhp = s.dh_prev + n * H;
        for (dim_t j = 0; j < H; ++j) {
            const float r = gr[j];
            dgr[j] = drh[j] * hp[j] * r * (1.f - r);
            dhp[j] += drh[j] * r;
        }
    });
}

void lbr_bwd(const step_bwd_t &s) {
    const conf_t &c = *s.c;
    const dim_t H = c.DHC, GC = c.gate_cols();
    for_rows(c.N, GC, [&](dim_t n) {
        float *dg = s.dg + n * GC;
        const float da = gru_unblend(c, s.g + n * GC, s.hprev + n * H, s.dhp + n * H, dg,
                s.dh_prev + n * H, c.augru ? s.att[n] : 0.f);
        if (c.augru) s.datt[n] += da;
        const float *gr = s.g + n * GC + H, *hu = s.hu + n * H;
        float *dgr = dg + H, *dgo = dg + 2 * H, *dhu = s.dhu + n * H;
        for (dim_t j = 0; j < H; ++j) {
            const float r = gr[j];
            dgr[j] = dgo[j] * hu[j] * r * (1.f - r);
            dhu[j] = dgo[j] * r;
        }
    });
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
