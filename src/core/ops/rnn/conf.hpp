// One RNN problem as the CPU kernels see it: sizes, cell kind, which optional tensors are
// there, and where each piece of state lives in the workspace and scratchpad.
//
// Each direction is its own stack of L layers (layer l > 0 reads layer l - 1 of the same
// direction); only the last layer's outputs meet in dst_layer (concat or sum). Every
// per-step buffer is kept in processing order: step k of a right-to-left stack is time
// T - 1 - k, so step k's previous state is row block k and the layer GEMMs see all steps at once.
#pragma once

#include <cstddef>

#include "core/op_desc.hpp"
#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

struct conf_t {
    dnnl_alg_kind_t cell = dnnl_alg_kind_undef;
    dnnl_alg_kind_t activation = dnnl_alg_kind_undef; // vanilla only
    float alpha = 0.f, beta = 0.f;
    dnnl_rnn_direction_t direction = dnnl_unidirectional_left2right;
    bool vanilla = false, lstm = false, gru = false, lbr = false, augru = false;
    bool peephole = false, projection = false;
    bool with_src_iter = false, with_src_iter_c = false, with_bias = false;
    bool with_dst_iter = false, with_dst_iter_c = false;
    bool training = false, backward = false, diff_overwrite = false;
    bool avx512 = false; // set by the CPU engine: its activations may use AVX-512
    // int8 inference: u8 or s8 data (f32 = (q - shift) / scale), s8 weights (f32 = s8 / scale of
    // the gate column, or one scale); dequantized to f32 and computed like f32.
    bool int8 = false;
    float data_scale = 1.f, data_shift = 0.f;
    dim_t L = 0, D = 0, T = 0, N = 0, SLC = 0, SIC = 0, DHC = 0, DIC = 0, DLC = 0;
    dim_t G = 0, GB = 0; // gates, bias gates (LBR has one more)

    dim_t gate_cols() const { return G * DHC; }
    dim_t in_cols(dim_t l) const { return l == 0 ? SLC : DIC; }
    // Time of step k for stack d.
    dim_t time_of(dim_t d, dim_t k) const {
        const bool r2l = direction == dnnl_unidirectional_right2left || d == 1;
        return r2l ? T - 1 - k : k;
    }

    // Workspace (forward training and backward) or scratchpad (inference), in floats.
    // ws_h0: the initial states in rows of SIC channels where SIC != DIC (one time step, as
    // oneDNN allows); otherwise they are step 0 of ws_h.
    size_t ws_x0 = 0, ws_h = 0, ws_h0 = 0, ws_c = 0, ws_gates = 0, ws_hp = 0, ws_rh = 0,
           ws_hu = 0;
    size_t ws_floats = 0;
    // Forward scratch after the workspace part: f32 bias and peephole of one (l, d), the
    // recurrent GEMM result of LBR cells, the attention of all steps, int8 weights in f32.
    size_t fs_bias = 0, fs_peep = 0, fs_git = 0, fs_att = 0, fs_wl = 0, fs_wi = 0, fs_wp = 0;
    size_t fs_floats = 0;
    // Backward scratch: gate gradients of all steps, LBR's recurrent-o gradients, the
    // projected-state gradients, per-step rows, the layer-input gradients per direction,
    // diff attention and diff src_layer sums.
    // bs_dh0: the gradient of initial states of SIC channels (own_h0), N rows.
    size_t bs_dg = 0, bs_dhu = 0, bs_dhall = 0, bs_dh_state = 0, bs_dh0 = 0, bs_dh_cell = 0,
           bs_dhp = 0;
    size_t bs_dc = 0, bs_drh = 0, bs_tmp = 0, bs_dx = 0, bs_datt = 0, bs_dsrc = 0, bs_bias = 0;
    size_t bs_peep = 0, bs_dbias = 0, bs_dpeep = 0, bs_att = 0, bs_floats = 0;

    // Offsets (floats) of one (layer, direction, step) block.
    size_t x0(dim_t d) const { return ws_x0 + size_t(d * T * N * SLC); }
    size_t h(dim_t l, dim_t d, dim_t s) const {
        return ws_h + size_t(((l * D + d) * (T + 1) + s) * N * DIC);
    }
    bool own_h0() const { return SIC != DIC; }
    // The previous state step k reads, and its row pitch.
    size_t hprev(dim_t l, dim_t d, dim_t k) const {
        return k == 0 && own_h0() ? ws_h0 + size_t((l * D + d) * N * SIC) : h(l, d, k);
    }
    dim_t hprev_ld(dim_t k) const { return k == 0 && own_h0() ? SIC : DIC; }
    size_t c(dim_t l, dim_t d, dim_t s) const {
        return ws_c + size_t(((l * D + d) * (T + 1) + s) * N * DHC);
    }
    size_t gates(dim_t l, dim_t d, dim_t k) const {
        return ws_gates + size_t(((l * D + d) * T + k) * N * G * DHC);
    }
    size_t per_step(size_t base, dim_t l, dim_t d, dim_t k) const {
        return base + size_t(((l * D + d) * T + k) * N * DHC);
    }
    size_t workspace_bytes() const { return ws_floats * sizeof(float); }
};

const rnn_desc_t &desc_of(const primitive_desc_t &pd);

// DNNL_ARG_* of each rnn_tensor_t, and of its gradient.
extern const int fwd_arg[rnn_tensor_count];
extern const int diff_arg[rnn_tensor_count];

// Reads the descriptor and attributes into conf (sizes, flags, buffer layout); fails for
// problems the implementation does not take.
status_t init_conf(conf_t &conf, const rnn_desc_t &d, const primitive_attr_t &attr);

// Resolves `any` layouts (from the forward hint for backward), checks every layout is one
// the kernels read (plain; weights with gates and channels adjacent), fills pd.args and
// the scratchpad size.
status_t init_args(primitive_desc_t &pd, const conf_t &conf);

} // namespace rnn
} // namespace cpu
} // namespace anydnn
