// RNN problem description for the CPU kernels: sizes and buffer layout from the op
// descriptor, layout resolution and argument list.
#include "core/ops/rnn/conf.hpp"

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

const int fwd_arg[rnn_tensor_count] = {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER,
        DNNL_ARG_SRC_ITER_C, DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_WEIGHTS_LAYER,
        DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_WEIGHTS_PEEPHOLE, DNNL_ARG_WEIGHTS_PROJECTION,
        DNNL_ARG_BIAS, DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
const int diff_arg[rnn_tensor_count] = {DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER,
        DNNL_ARG_DIFF_SRC_ITER_C, DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
        DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
        DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS, DNNL_ARG_DIFF_DST_LAYER,
        DNNL_ARG_DIFF_DST_ITER, DNNL_ARG_DIFF_DST_ITER_C};

namespace {

const char *const names[rnn_tensor_count] = {"src_layer", "src_iter", "src_iter_c",
        "attention", "weights_layer", "weights_iter", "weights_peephole", "weights_projection",
        "bias", "dst_layer", "dst_iter", "dst_iter_c"};

bool is_weights(int k) {
    return k == rnn_weights_layer || k == rnn_weights_iter || k == rnn_weights_projection;
}

// Appends n floats, keeping every region 64-byte aligned.
size_t take(size_t &top, size_t n) {
    size_t at = top;
    top += (n + 15) / 16 * 16;
    return at;
}

// The kernels read weights as matrices (input channel) x (gate, output channel): the gate
// and channel dimensions must merge into one stride.
bool weights_mergeable(const memory_desc_t &md) {
    if (md.ndims != 5) return true;
    const auto &s = md.blocking.strides;
    return md.dims[3] == 1 || s[3] == md.dims[4] * s[4];
}

// Diff weights are GEMM outputs: one of the two matrix dimensions must be unit-stride.
bool diff_weights_writable(const memory_desc_t &md) {
    const auto &s = md.blocking.strides;
    const dim_t si = s[2], sj = md.ndims == 5 ? s[4] : s[3];
    return weights_mergeable(md) && (sj == 1 || si == 1);
}

status_t resolve(memory_desc_t &md, const memory_desc_t *hint_md) {
    if (md.ndims == 0 || md.format_kind != dnnl_format_kind_any) return dnnl_success;
    if (hint_md && hint_md->ndims == md.ndims && hint_md->data_type == md.data_type
            && hint_md->format_kind == dnnl_blocked) {
        md = *hint_md;
        return dnnl_success;
    }
    // Plain row-major (tnc, ldnc, ldigo, ldgo, ldio): what every kernel reads fastest.
    dnnl_dims_t dims;
    for (int i = 0; i < md.ndims; ++i) dims[i] = md.dims[i];
    return md_init_with_strides(md, md.ndims, dims, md.data_type, nullptr);
}

bool dt_ok(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

// int8: u8 or s8 data (src_iter and outputs also f32), s8 weights, f32 bias and cell states.
bool int8_dt_ok(int k, dnnl_data_type_t dt) {
    const bool data8 = dt == dnnl_u8 || dt == dnnl_s8;
    switch (k) {
        case rnn_weights_layer:
        case rnn_weights_iter:
        case rnn_weights_projection: return dt == dnnl_s8;
        case rnn_src_layer: return data8;
        case rnn_src_iter:
        case rnn_dst_layer:
        case rnn_dst_iter: return data8 || dt == dnnl_f32;
        default: return dt == dnnl_f32;
    }
}

} // namespace

const rnn_desc_t &desc_of(const primitive_desc_t &pd) {
    return std::get<rnn_desc_t>(pd.desc);
}

status_t init_conf(conf_t &c, const rnn_desc_t &d, const primitive_attr_t &attr) {
    const auto &m = d.mds;
    c.int8 = m[rnn_weights_layer].data_type == dnnl_s8;
    if (c.int8) {
        ANYDNN_REQUIRE(d.prop_kind == dnnl_forward_inference, dnnl_unimplemented,
                "int8 RNN is inference only");
        ANYDNN_REQUIRE(d.cell_kind == dnnl_vanilla_lstm || d.cell_kind == dnnl_vanilla_gru
                        || d.cell_kind == dnnl_lbr_gru,
                dnnl_unimplemented, "int8 RNN is LSTM, GRU or LBR-GRU");
        ANYDNN_REQUIRE((m[rnn_src_layer].data_type == dnnl_u8
                               || m[rnn_src_layer].data_type == dnnl_s8)
                        && m[rnn_weights_iter].data_type == dnnl_s8,
                dnnl_unimplemented, "int8 RNN takes u8 or s8 src_layer and s8 weights");
        const dim_t cols = m[rnn_weights_layer].dims[3] * m[rnn_weights_layer].dims[4];
        const size_t ns = attr.rnn_weights_scales.size();
        ANYDNN_REQUIRE((attr.rnn_weights_mask == 0 && ns <= 1)
                        || (attr.rnn_weights_mask == 24 && dim_t(ns) == cols),
                dnnl_unimplemented,
                "int8 weights scales need mask 0 (one scale) or 24 (per gate and channel)");
        // Projection weights (DHC x DIC): one scale, or one per output channel (mask 8).
        const memory_desc_t &wp = m[rnn_weights_projection];
        const size_t np = attr.rnn_weights_projection_scales.size();
        const int pmask = attr.rnn_weights_projection_mask;
        ANYDNN_REQUIRE(wp.ndims == 0 || wp.data_type == dnnl_s8, dnnl_unimplemented,
                "int8 LSTM projection weights are s8");
        ANYDNN_REQUIRE((pmask == 0 && np <= 1)
                        || (wp.ndims != 0 && pmask == 8 && dim_t(np) == wp.dims[3]),
                dnnl_unimplemented,
                "int8 projection weights scales need mask 0 (one scale) or 8 (per output "
                "channel)");
        ANYDNN_REQUIRE(attr.rnn_data_scale != 0.f, dnnl_invalid_arguments,
                "data scale is zero");
        c.data_scale = attr.rnn_data_scale;
        c.data_shift = attr.rnn_data_shift;
    }
    c.cell = d.cell_kind;
    c.activation = d.activation_kind;
    c.alpha = d.alpha;
    c.beta = d.beta;
    c.direction = d.direction;
    c.vanilla = d.cell_kind == dnnl_vanilla_rnn;
    c.lstm = d.cell_kind == dnnl_vanilla_lstm;
    c.gru = !c.vanilla && !c.lstm;
    c.lbr = d.cell_kind == dnnl_lbr_gru || d.cell_kind == dnnl_lbr_augru;
    c.augru = d.cell_kind == dnnl_vanilla_augru || d.cell_kind == dnnl_lbr_augru;
    c.peephole = m[rnn_weights_peephole].ndims != 0;
    c.projection = m[rnn_weights_projection].ndims != 0;
    c.with_src_iter = m[rnn_src_iter].ndims != 0;
    c.with_src_iter_c = m[rnn_src_iter_c].ndims != 0;
    c.with_bias = m[rnn_bias].ndims != 0;
    c.with_dst_iter = m[rnn_dst_iter].ndims != 0;
    c.with_dst_iter_c = m[rnn_dst_iter_c].ndims != 0;
    c.backward = d.prop_kind == dnnl_backward;
    c.training = d.prop_kind != dnnl_forward_inference;
    c.diff_overwrite = (d.flags & dnnl_rnn_flags_diff_weights_overwrite) != 0;
    const auto &wl = m[rnn_weights_layer];
    c.L = wl.dims[0];
    c.D = wl.dims[1];
    c.SLC = wl.dims[2];
    c.G = wl.dims[3];
    c.DHC = wl.dims[4];
    c.SIC = m[rnn_weights_iter].dims[2];
    c.DIC = c.projection ? m[rnn_weights_projection].dims[3] : c.DHC;
    c.T = m[rnn_src_layer].dims[0];
    c.N = m[rnn_src_layer].dims[1];
    c.DLC = m[rnn_dst_layer].dims[2];
    c.GB = c.G + (c.lbr ? 1 : 0);

    // The API lets src_iter's channels differ from the state's for one time step only
    // (LSTM and vanilla RNN): ws_h0 and bs_dh0 hold those rows and their gradient.
    const size_t LD = size_t(c.L * c.D), T = size_t(c.T), N = size_t(c.N);
    size_t top = 0;
    c.ws_x0 = take(top, size_t(c.D) * T * N * size_t(c.SLC));
    c.ws_h = take(top, LD * (T + 1) * N * size_t(c.DIC));
    c.ws_h0 = c.own_h0() ? take(top, LD * N * size_t(c.SIC)) : 0;
    c.ws_c = c.lstm ? take(top, LD * (T + 1) * N * size_t(c.DHC)) : 0;
    c.ws_gates = take(top, LD * T * N * size_t(c.gate_cols()));
    c.ws_hp = c.projection ? take(top, LD * T * N * size_t(c.DHC)) : 0;
    c.ws_rh = (c.gru && !c.lbr) ? take(top, LD * T * N * size_t(c.DHC)) : 0;
    c.ws_hu = c.lbr ? take(top, LD * T * N * size_t(c.DHC)) : 0;
    c.ws_floats = top;

    top = 0;
    c.fs_bias = take(top, size_t(c.GB * c.DHC));
    c.fs_peep = take(top, size_t(3 * c.DHC));
    c.fs_git = take(top, c.lbr ? N * size_t(c.gate_cols()) : 0);
    c.fs_att = take(top, c.augru ? T * N : 0);
    c.fs_wl = take(top, c.int8 ? size_t(c.SLC * c.gate_cols()) : 0);
    c.fs_wi = take(top, c.int8 ? size_t(c.SIC * c.gate_cols()) : 0);
    c.fs_wp = take(top, c.int8 && c.projection ? size_t(c.DHC * c.DIC) : 0);
    c.fs_floats = top;

    top = 0;
    const size_t xcols = size_t(std::max(c.SLC, c.DIC));
    c.bs_dg = take(top, T * N * size_t(c.gate_cols()));
    c.bs_dhu = take(top, c.lbr ? T * N * size_t(c.DHC) : 0);
    c.bs_dhall = take(top, c.projection ? T * N * size_t(c.DIC) : 0);
    c.bs_dh_state = take(top, N * size_t(c.DIC));
    c.bs_dh0 = take(top, c.own_h0() ? N * size_t(c.SIC) : 0);
    c.bs_dh_cell = take(top, N * size_t(c.DIC));
    c.bs_dhp = take(top, N * size_t(c.DHC));
    c.bs_dc = take(top, N * size_t(c.DHC));
    c.bs_drh = take(top, N * size_t(c.DHC));
    c.bs_tmp = take(top, N * size_t(c.DHC));
    c.bs_dx = take(top, size_t(c.D) * T * N * xcols);
    c.bs_datt = take(top, c.augru ? T * N : 0);
    c.bs_dsrc = take(top, T * N * size_t(c.SLC));
    c.bs_bias = take(top, size_t(c.GB * c.DHC));
    c.bs_peep = take(top, size_t(3 * c.DHC));
    c.bs_dbias = take(top, size_t(c.GB * c.DHC));
    c.bs_dpeep = take(top, size_t(3 * c.DHC));
    c.bs_att = take(top, N);
    c.bs_floats = top;
    return dnnl_success;
}

status_t init_args(primitive_desc_t &pd, const conf_t &c) {
    const rnn_desc_t &d = desc_of(pd);
    const primitive_desc_t *hint = pd.hint;
    for (int k = 0; k < rnn_tensor_count; ++k) {
        memory_desc_t md = d.mds[k];
        ANYDNN_CHECK(resolve(md, hint ? &hint->arg_md(fwd_arg[k]) : nullptr));
        if (md.ndims == 0) continue;
        ANYDNN_REQUIRE(c.int8 ? int8_dt_ok(k, md.data_type) : dt_ok(md.data_type),
                dnnl_unimplemented, "%s data type %s is not %s", names[k],
                dnnl_dt2str(md.data_type), c.int8 ? "the int8 one" : "f32, bf16 or f16");
        ANYDNN_REQUIRE(is_plain(md), dnnl_unimplemented, "%s layout is not plain", names[k]);
        ANYDNN_REQUIRE(!is_weights(k) || weights_mergeable(md), dnnl_unimplemented,
                "%s layout separates gates from output channels", names[k]);
        pd.args[fwd_arg[k]] = md;
    }
    if (c.backward) {
        ANYDNN_REQUIRE(hint != nullptr, dnnl_unimplemented, "backward needs the forward hint");
        for (int k = 0; k < rnn_tensor_count; ++k) {
            memory_desc_t md = d.diff_mds[k];
            ANYDNN_CHECK(resolve(md, nullptr));
            if (md.ndims == 0) continue;
            ANYDNN_REQUIRE(dt_ok(md.data_type), dnnl_unimplemented,
                    "diff_%s data type %s is not f32, bf16 or f16", names[k],
                    dnnl_dt2str(md.data_type));
            ANYDNN_REQUIRE(is_plain(md), dnnl_unimplemented, "diff_%s layout is not plain",
                    names[k]);
            ANYDNN_REQUIRE(!is_weights(k) || diff_weights_writable(md), dnnl_unimplemented,
                    "diff_%s layout has no unit-stride matrix dimension", names[k]);
            pd.args[diff_arg[k]] = md;
        }
    }
    if (c.training) {
        memory_desc_t ws;
        const dnnl_dims_t dims = {dim_t(c.workspace_bytes())};
        ANYDNN_CHECK(md_init_with_tag(ws, 1, dims, dnnl_u8, dnnl_a));
        if (c.backward) {
            const memory_desc_t &hw = hint->arg_md(DNNL_ARG_WORKSPACE);
            ANYDNN_REQUIRE(md_equal(hw, ws), dnnl_unimplemented,
                    "hint_fwd_pd has no matching workspace (create it for forward_training "
                    "with the same implementation)");
        }
        pd.args[DNNL_ARG_WORKSPACE] = ws;
    }
    const size_t floats = c.backward ? c.bs_floats
            : c.training                ? c.fs_floats
                                        : c.ws_floats + c.fs_floats;
    pd.scratchpad_size = floats * sizeof(float);
    return dnnl_success;
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
