// The element-wise part of one time step of each RNN cell, over the N rows of a batch
// (threaded over rows). Gate order: LSTM i, f, c~, o; GRU u, r, o; peephole i, f, o.
// Forward leaves the activated gates in g (vanilla keeps the pre-activation) for backward;
// it computes a slice of output channels, so threads may share a step by channels (rows
// are threaded only outside a parallel region).
#pragma once

#include "core/ops/rnn/conf.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

struct step_fwd_t {
    const conf_t *c = nullptr;
    float *g = nullptr; // N x G*DHC: x part + recurrent part (+ bias added here)
    const float *git = nullptr; // LBR: the recurrent GEMM, N x G*DHC
    const float *hprev = nullptr, *cprev = nullptr; // N x DIC, N x DHC
    float *hout = nullptr, *cout = nullptr; // N x DHC (before any projection)
    float *rh = nullptr; // GRU: r * hprev
    float *hu = nullptr; // LBR: recurrent o part with its bias
    const float *bias = nullptr, *peep = nullptr; // GB x DHC, 3 x DHC (f32)
    const float *att = nullptr; // AUGRU: N
    dim_t j0 = 0, j1 = 0; // the output channels [j0, j1) of every gate this call computes
};

void vanilla_fwd(const step_fwd_t &s);
void lstm_fwd(const step_fwd_t &s);
void gru_fwd_gates(const step_fwd_t &s); // u, r and r * hprev
void gru_fwd_state(const step_fwd_t &s); // o and h
void lbr_fwd(const step_fwd_t &s);

struct step_bwd_t {
    const conf_t *c = nullptr;
    const float *g = nullptr; // gates as forward left them
    float *dg = nullptr; // N x G*DHC gradients of the pre-activation gates
    const float *dhp = nullptr; // N x DHC gradient of the cell output
    float *dc = nullptr; // LSTM: gradient of c_t in, of c_{t-1} out
    const float *cprev = nullptr, *ccur = nullptr;
    const float *hprev = nullptr;
    const float *hu = nullptr; // LBR
    float *dhu = nullptr; // LBR: gradient of the recurrent o part
    float *dh_prev = nullptr; // GRU kinds: the direct part of the gradient of h_{t-1}
    const float *drh = nullptr; // GRU: gradient of r * hprev
    const float *peep = nullptr;
    const float *att = nullptr;
    float *datt = nullptr; // AUGRU: N, accumulated
    float *tmp = nullptr; // N x DHC
};

void vanilla_bwd(const step_bwd_t &s);
void lstm_bwd(const step_bwd_t &s);
void gru_bwd_state(const step_bwd_t &s); // du, do, dh_prev direct part, d attention
void gru_bwd_gates(const step_bwd_t &s); // dr from d(r * hprev)
void lbr_bwd(const step_bwd_t &s);

} // namespace rnn
} // namespace cpu
} // namespace anydnn
