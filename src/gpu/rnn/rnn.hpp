// The GPU RNN (ocl:rnn:gemm) host side: kernel argument structs mirrored from rnn/rnn.cl,
// the kernels of one primitive, and the forward and backward drivers. The problem, the
// workspace and the backward scratch are core/ops/rnn/conf.hpp's; the GPU adds f32 copies of
// bias, peepholes, attention and non-f32 weights after them (extras_t).
#pragma once

#include <cstdint>
#include <memory>

#include "core/compute/compute.hpp"
#include "core/ops/rnn/conf.hpp"
#include "core/primitive.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/rnn/persistent.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

using cpu::rnn::conf_t;

// Mirror rnn/rnn.cl.
enum { cell_vanilla = 0, cell_lstm = 1, cell_gru = 2, cell_lbr = 3 };
enum { act_relu = 0, act_tanh = 1, act_logistic = 2 };
enum { quant_none = 0, quant_dequantize = 1, quant_quantize = 2 };

struct copy_params_t {
    int64_t dims[5] = {1, 1, 1, 1, 1};
    int64_t dst_off = 0, dst_s[5] = {};
    int64_t src_off = 0, src_s[5] = {};
    int64_t src2_off = 0, src2_s[5] = {};
    int32_t dst_dt = dnnl_f32, src_dt = dnnl_f32, src2_dt = dnnl_f32, accumulate = 0;
    int32_t quant = quant_none;
    float data_scale = 1.f, data_shift = 0.f;
    int32_t run = 1; // elements along dimension 4 per work-item
};

// int8 conversions of one copy: u8 or s8 data from or to f32 (cpu/rnn/forward.cpp's formulas),
// and s8 weights divided by their column's scale (a device array: G * DHC floats for the
// layer and recurrent weights, DIC for the projection).
struct copy_quant_t {
    int32_t mode = quant_none;
    float scale = 1.f, shift = 0.f; // dequantize: scale = 1 / data scale
    const memory_storage_t *col_scales = nullptr;
};

struct step_params_t {
    int64_t N = 0, H = 0, DIC = 0, SIC = 0, G = 0;
    int64_t gates = 0, hprev = 0, hout = 0, cprev = 0, cout = 0, rh = 0, hu = 0;
    int64_t bias = 0, peep = 0, att = 0;
    int64_t w_off = 0, w_si = 0, w_sj = 0;
    int64_t dg = 0, dhp = 0, dc = 0, dhu = 0, dh_prev = 0, drh = 0, datt_part = 0;
    int32_t cell = 0, act = 0, peephole = 0, augru = 0;
    float alpha = 0.f;
    int32_t gemm_done = 0; // the recurrent products come from the GEMM (large steps)
    // Split products (gemm_done): partial sums of `slices` K slices in the scratchpad, slice s
    // of gate column col for row n at part + s * part_s + n * G * H + col; 0: the GEMM added
    // its products into the gates (LBR: the o part into hu).
    int64_t part = 0, part_s = 0;
    int32_t slices = 0, pad = 0;
};

// How a per-step product M x N over K is split along K: `full` slices `depth` deep, then
// one of the remaining `tail` inputs where K is not a multiple. slices() == 0: not split.
struct split_t {
    int64_t full = 0, depth = 0, tail = 0;
    int64_t slices() const { return full + (tail > 0 ? 1 : 0); }
};
// The device's split (op_tuning's rnn_split_*): slices (a power of two, at most 16, none
// under the least depth) until C gives each compute unit rnn_split_elems elements.
split_t step_split(const device_caps_t &caps, int64_t M, int64_t N, int64_t K);

struct sums_params_t {
    int64_t rows = 0, cols = 0, a_off = 0, a_ld = 0, b_off = 0, b_ld = 0;
    int64_t out_off = 0, out_sg = 0, out_sj = 0, H = 1;
    int32_t with_b = 0, pad = 0;
};

// Offsets (floats, in the scratchpad) of the GPU's own f32 copies; 0 sizes when unused.
struct extras_t {
    size_t base = 0; // where the extras start (after the workspace or backward scratch)
    size_t bias = 0, peep = 0, att = 0, wl = 0, wi = 0, wp = 0, datt_part = 0, floats = 0;
    size_t part = 0; // the split recurrent products' partial sums (forward)
    size_t sync = 0; // the persistent kernel's arrival counter and error word
    bool wl_f32 = true, wi_f32 = true, wp_f32 = true; // the user's weights are read directly
};

// A tensor in device memory as seen by rnn_copy: element offset, type, 5 strides.
struct view_t {
    const memory_storage_t *s = nullptr;
    int32_t dt = dnnl_f32;
    int64_t off = 0, st[5] = {};
};

// An f32 matrix: element (r, c) at off + r * sr + c * sc.
struct mat_t {
    const memory_storage_t *s = nullptr;
    int64_t off = 0, sr = 0, sc = 0;
};

// The built kernels and the launches the drivers make of them.
struct kernels_t {
    // big_gemm_elems: the largest product's elements of C (picks the tiled GEMM's tiles).
    status_t init(engine_t *engine, int64_t big_gemm_elems);

    status_t copy(stream_t *st, const int64_t dims[5], const view_t &dst, const view_t &src,
            const view_t &src2 = view_t(), bool accumulate = false,
            const copy_quant_t &quant = copy_quant_t()) const;
    // Whether products run on the tiled GEMM (then the recurrent ones are GEMMs too, not
    // dot products in the cell kernels).
    bool tiled() const { return tiled_; }
    // C (+)= A * B, M x N over K.
    status_t gemm(stream_t *st, int64_t M, int64_t N, int64_t K, const mat_t &a, const mat_t &b,
            const mat_t &c, bool accumulate) const;
    // The partial products of `sp`'s K slices: slice s of A * B into c shifted by s * c_s
    // (one batched launch for the full slices, one for the tail).
    status_t gemm_slices(stream_t *st, int64_t M, int64_t N, const split_t &sp, const mat_t &a,
            const mat_t &b, const mat_t &c, int64_t c_s) const;
    status_t step(stream_t *st, const std::shared_ptr<kernel_t> &k,
            const memory_storage_t *a0, const memory_storage_t *a1,
            const memory_storage_t *a2, const step_params_t &p) const;
    status_t row_sums(stream_t *st, const memory_storage_t *bs, int64_t part, int64_t out,
            int64_t N, int64_t H) const;
    status_t column_sums(stream_t *st, const memory_storage_t *a, const memory_storage_t *b,
            const memory_storage_t *out, const sums_params_t &p) const;

    std::shared_ptr<kernel_t> copy_k, fwd_step, fwd_gru_gates, fwd_gru_state, bwd_step,
            bwd_gru_gates, row_sums_k, column_sums_k;
    // The persistent LSTM forward and its launch shape; null: the per-step path.
    std::shared_ptr<kernel_t> persistent;
    persistent_shape_t persistent_shape;

private:
    gemm_kernel_t gemm_generic_, gemm_tiled_;
    bool tiled_ = false;
    bool copy_rows_ = false; // copies take a row per work-item (CPU devices)
};

// The tensors of one execution: user memories by rnn_tensor_t (and their gradients), the
// workspace (training) and the scratchpad.
struct exec_t {
    const conf_t *c = nullptr;
    const extras_t *x = nullptr;
    const kernels_t *k = nullptr;
    stream_t *stream = nullptr;
    const memory_desc_t *md[rnn_tensor_count] = {}, *diff_md[rnn_tensor_count] = {};
    const memory_storage_t *mem[rnn_tensor_count] = {}, *diff_mem[rnn_tensor_count] = {};
    const memory_storage_t *ws = nullptr, *scratch = nullptr;
    const memory_storage_t *weights_scales = nullptr; // int8 with scales: G * DHC floats
    const memory_storage_t *projection_scales = nullptr; // int8 projection: DIC floats
};

status_t run_forward(const exec_t &e);
status_t run_backward(const exec_t &e);

// Helpers the drivers share (rnn/common.cpp).
// A plain user tensor with its dimensions right-aligned to 5 (leading strides 0).
view_t user_view(const memory_desc_t &md, const memory_storage_t *s);
// The u8 or s8 data conversion of a copy from (dequantize) or to (quantize) a tensor of type dt;
// none for other types.
copy_quant_t data_quant(const conf_t &c, dnnl_data_type_t dt, int32_t mode);
// Copies bias, peepholes, attention and non-f32 weights into their f32 extras.
status_t load_extras(const exec_t &e);
// The recurrent, layer and projection weights of (l, d) as f32 matrices (input x column).
mat_t weights_mat(const exec_t &e, int k, int64_t l, int64_t d);
// Step parameters common to all steps of (l, d).
step_params_t step_base(const exec_t &e, int64_t l, int64_t d);

} // namespace rnn
} // namespace gpu
} // namespace anydnn
