// The GPU RNN's kernels and their launches, and the pieces both drivers use: views of user
// tensors, the f32 extras, weights as GEMM operands.
#include <algorithm>

#include "gpu/rnn/rnn.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

namespace {

static_assert(sizeof(copy_params_t) == 27 * 8, "must match rnn/rnn.cl");
static_assert(sizeof(step_params_t) == 31 * 8, "must match rnn/rnn.cl");
static_assert(sizeof(sums_params_t) == 11 * 8, "must match rnn/rnn.cl");

// n0 x n1 work-items (kernels skip those past the end) in groups of one fixed size per
// kernel: PoCL compiles a kernel once per work-group size, so sizes that followed the
// problem (local = 0) cost a compilation per new shape.
nd_range_t fixed_groups(const kernel_t &k, size_t n0, size_t n1 = 1) {
    size_t local = 64;
    while (local > 1 && local > k.max_work_group_size()) local /= 2;
    nd_range_t r;
    r.ndims = 2;
    r.global[0] = (n0 + local - 1) / local * local;
    r.global[1] = n1;
    r.local[0] = local;
    r.local[1] = 1;
    if (n0 == 0 || n1 == 0) r.global[0] = 0; // nothing to run
    return r;
}

} // namespace

status_t kernels_t::init(engine_t *engine, int64_t big_gemm_elems) {
    const char *src = "rnn/rnn.cl";
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_copy", copy_k));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_fwd_step", fwd_step));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_fwd_gru_gates", fwd_gru_gates));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_fwd_gru_state", fwd_gru_state));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_bwd_step", bwd_step));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_bwd_gru_gates", bwd_gru_gates));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_row_sums", row_sums_k));
    ANYDNN_CHECK(create_kernel(engine, src, "", "rnn_column_sums", column_sums_k));
    // A CPU device runs a copy's work-items one after another: a row each saves the index
    // math of every element (int8 LSTM t10 mb16, 128 channels, on PoCL: 15.6 -> 3.2 ms,
    // the s8 weights' copies were most of it; f32 5.0 -> 2.1 ms, by the median).
    copy_rows_ = op_tuning(engine_caps(engine)).rnn_copy_rows;
    const gemm_types_t f32;
    // Every product takes the tiled GEMM where the device runs it: even one-row steps ran
    // faster on it than as per-element dot products on PoCL (LSTM mb1, 512 channels: 5x by
    // the median), and its fixed work-groups compile once where the generic GEMM's compile
    // per shape.
    tiled_ = gemm_tiled_supported(engine)
            && gemm_tiled_.init(engine, f32, gemm_kind_t::tiled, big_gemm_elems) == dnnl_success;
    return tiled_ ? dnnl_success : gemm_generic_.init(engine, f32, gemm_kind_t::generic);
}

status_t kernels_t::copy(stream_t *st, const int64_t dims[5], const view_t &dst,
        const view_t &src, const view_t &src2, bool accumulate,
        const copy_quant_t &quant) const {
    copy_params_t p;
    int64_t n = 1;
    for (int i = 0; i < 5; ++i) {
        p.dims[i] = dims[i];
        n *= dims[i];
        p.dst_s[i] = dst.st[i];
        p.src_s[i] = src.st[i];
        p.src2_s[i] = src2.st[i];
    }
    if (n == 0) return dnnl_success;
    p.dst_off = dst.off;
    p.src_off = src.off;
    p.src2_off = src2.off;
    p.dst_dt = dst.dt;
    p.src_dt = src.dt;
    p.src2_dt = src2.dt;
    p.accumulate = accumulate ? 1 : 0;
    p.quant = quant.mode;
    p.data_scale = quant.scale;
    p.data_shift = quant.shift;
    p.run = copy_rows_ ? int32_t(std::min<int64_t>(dims[4], 1024)) : 1;
    const int64_t items = n / dims[4] * ((dims[4] + p.run - 1) / p.run);
    kernel_args_t args;
    args.add(dst.s);
    args.add(src.s);
    args.add(src2.s);
    args.add(quant.col_scales);
    args.add_value(p);
    return copy_k->launch(st, args, fixed_groups(*copy_k, size_t(items)));
}

namespace {

// C (+)= A * B, M x N over K, as the GEMM core's parameters.
gemm_params_t gemm_of(int64_t M, int64_t N, int64_t K, const mat_t &a, const mat_t &b,
        const mat_t &c, bool accumulate) {
    gemm_params_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.a_off = a.off;
    p.a_sm = a.sr;
    p.a_sk = a.sc;
    p.b_off = b.off;
    p.b_sk = b.sr;
    p.b_sn = b.sc;
    p.c_off = c.off;
    p.c_sm = c.sr;
    p.c_sn = c.sc;
    p.beta_accumulate = accumulate ? 1 : 0;
    return p;
}

} // namespace

status_t kernels_t::gemm(stream_t *st, int64_t M, int64_t N, int64_t K, const mat_t &a,
        const mat_t &b, const mat_t &c, bool accumulate) const {
    if (M == 0 || N == 0) return dnnl_success;
    if (K == 0 && accumulate) return dnnl_success;
    gemm_operands_t ops;
    ops.a = a.s;
    ops.b = b.s;
    ops.c = c.s;
    return (tiled_ ? gemm_tiled_ : gemm_generic_)
            .launch(st, ops, gemm_of(M, N, K, a, b, c, accumulate));
}

status_t kernels_t::gemm_slices(stream_t *st, int64_t M, int64_t N, const split_t &sp,
        const mat_t &a, const mat_t &b, const mat_t &c, int64_t c_s) const {
    if (M == 0 || N == 0) return dnnl_success;
    gemm_operands_t ops;
    ops.a = a.s;
    ops.b = b.s;
    ops.c = c.s;
    const gemm_kernel_t &k = tiled_ ? gemm_tiled_ : gemm_generic_;
    if (sp.full > 0) {
        gemm_params_t p = gemm_of(M, N, sp.depth, a, b, c, false);
        p.batch_dims[0] = sp.full;
        p.a_sb[0] = sp.depth * a.sc;
        p.b_sb[0] = sp.depth * b.sr;
        p.c_sb[0] = c_s;
        ANYDNN_CHECK(k.launch(st, ops, p));
    }
    if (sp.tail == 0) return dnnl_success;
    const int64_t k0 = sp.full * sp.depth;
    const mat_t at {a.s, a.off + k0 * a.sc, a.sr, a.sc}, bt {b.s, b.off + k0 * b.sr, b.sr, b.sc};
    const mat_t ct {c.s, c.off + sp.full * c_s, c.sr, c.sc};
    return k.launch(st, ops, gemm_of(M, N, sp.tail, at, bt, ct, false));
}

split_t step_split(const device_caps_t &caps, int64_t M, int64_t N, int64_t K) {
    split_t sp;
    const op_tuning_t &t = op_tuning(caps);
    if (t.rnn_split_elems <= 0 || M * N <= 0 || K < 2 * int64_t(t.rnn_split_depth)) return sp;
    const int64_t want = (int64_t(caps.compute_units) * t.rnn_split_elems + M * N - 1) / (M * N);
    const int64_t most = std::min<int64_t>(16, K / t.rnn_split_depth);
    int64_t slices = 1;
    while (slices * 2 <= std::min(want, most)) slices *= 2;
    if (slices < 2) return sp;
    sp.depth = (K + slices - 1) / slices;
    sp.full = K / sp.depth;
    sp.tail = K - sp.full * sp.depth;
    return sp;
}

status_t kernels_t::step(stream_t *st, const std::shared_ptr<kernel_t> &k,
        const memory_storage_t *a0, const memory_storage_t *a1, const memory_storage_t *a2,
        const step_params_t &p) const {
    kernel_args_t args;
    args.add(a0);
    args.add(a1);
    args.add(a2);
    args.add_value(p);
    return k->launch(st, args, fixed_groups(*k, size_t(p.H), size_t(p.N)));
}

status_t kernels_t::row_sums(stream_t *st, const memory_storage_t *bs, int64_t part,
        int64_t out, int64_t N, int64_t H) const {
    kernel_args_t args;
    args.add(bs);
    args.add_value(part);
    args.add_value(out);
    args.add_value(N);
    args.add_value(H);
    return row_sums_k->launch(st, args, fixed_groups(*row_sums_k, size_t(N)));
}

status_t kernels_t::column_sums(stream_t *st, const memory_storage_t *a,
        const memory_storage_t *b, const memory_storage_t *out, const sums_params_t &p) const {
    if (p.cols == 0) return dnnl_success;
    kernel_args_t args;
    args.add(a);
    args.add(b);
    args.add(out);
    args.add_value(p);
    return column_sums_k->launch(st, args, fixed_groups(*column_sums_k, size_t(p.cols)));
}

view_t user_view(const memory_desc_t &md, const memory_storage_t *s) {
    view_t v;
    v.s = s;
    v.dt = md.data_type;
    v.off = md.offset0;
    const int shift = 5 - md.ndims;
    for (int i = 0; i < md.ndims; ++i)
        v.st[shift + i] = md.blocking.strides[i];
    return v;
}

namespace {

// A dense f32 region of the scratchpad with dims (right-aligned to 5).
view_t dense_view(const memory_storage_t *s, size_t off, const int64_t dims[5]) {
    view_t v;
    v.s = s;
    v.off = int64_t(off);
    int64_t stride = 1;
    for (int i = 4; i >= 0; --i) {
        v.st[i] = dims[i] == 1 ? 0 : stride;
        stride *= dims[i];
    }
    return v;
}

// dims of user tensor md, right-aligned to 5.
void dims5(const memory_desc_t &md, int64_t dims[5]) {
    for (int i = 0; i < 5; ++i) dims[i] = 1;
    for (int i = 0; i < md.ndims; ++i) dims[5 - md.ndims + i] = md.dims[i];
}

} // namespace

copy_quant_t data_quant(const conf_t &c, dnnl_data_type_t dt, int32_t mode) {
    copy_quant_t q;
    if (!c.int8 || (dt != dnnl_u8 && dt != dnnl_s8)) return q;
    q.mode = mode;
    q.scale = mode == quant_dequantize ? 1.f / c.data_scale : c.data_scale;
    q.shift = c.data_shift;
    return q;
}

status_t load_extras(const exec_t &e) {
    const conf_t &c = *e.c;
    const extras_t &x = *e.x;
    const kernels_t &k = *e.k;
    int64_t dims[5];
    // Bias (zeros when absent) and peephole weights as (l, d, gate, channel).
    const int64_t bias_dims[5] = {1, c.L, c.D, c.GB, c.DHC};
    const view_t bias_src = c.with_bias ? user_view(*e.md[rnn_bias], e.mem[rnn_bias]) : view_t();
    ANYDNN_CHECK(k.copy(e.stream, bias_dims, dense_view(e.scratch, x.base + x.bias, bias_dims),
            bias_src));
    if (c.peephole) {
        const memory_desc_t &md = *e.md[rnn_weights_peephole];
        dims5(md, dims);
        ANYDNN_CHECK(k.copy(e.stream, dims, dense_view(e.scratch, x.base + x.peep, dims),
                user_view(md, e.mem[rnn_weights_peephole])));
    }
    if (c.augru) { // attention (T, N, 1) as (T, N)
        const memory_desc_t &md = *e.md[rnn_attention];
        dims5(md, dims);
        ANYDNN_CHECK(k.copy(e.stream, dims, dense_view(e.scratch, x.base + x.att, dims),
                user_view(md, e.mem[rnn_attention])));
    }
    const struct {
        int t;
        bool f32;
        size_t off;
    } weights[] = {{rnn_weights_layer, x.wl_f32, x.wl}, {rnn_weights_iter, x.wi_f32, x.wi},
            {rnn_weights_projection, x.wp_f32, x.wp}};
    for (const auto &w : weights) {
        if (w.f32 || !e.md[w.t]) continue;
        dims5(*e.md[w.t], dims);
        view_t src = user_view(*e.md[w.t], e.mem[w.t]);
        copy_quant_t q; // s8 over its columns' scales
        if (e.md[w.t]->data_type == dnnl_s8) q.col_scales = e.weights_scales;
        if (w.t == rnn_weights_projection) {
            // (l, d, i, o) as (l, d, i, 1, o): the copy's column index is then the output
            // channel o alone, the index of its scale; the dense copy's layout is the same.
            const int64_t d4[5] = {dims[1], dims[2], dims[3], 1, dims[4]};
            const int64_t s4[5] = {src.st[1], src.st[2], src.st[3], 0, src.st[4]};
            for (int i = 0; i < 5; ++i) {
                dims[i] = d4[i];
                src.st[i] = s4[i];
            }
            q.col_scales = e.md[w.t]->data_type == dnnl_s8 ? e.projection_scales : nullptr;
        }
        ANYDNN_CHECK(k.copy(e.stream, dims, dense_view(e.scratch, x.base + w.off, dims), src,
                view_t(), false, q));
    }
    return dnnl_success;
}

mat_t weights_mat(const exec_t &e, int t, int64_t l, int64_t d) {
    const memory_desc_t &md = *e.md[t];
    const extras_t &x = *e.x;
    const bool f32 = t == rnn_weights_layer ? x.wl_f32
            : t == rnn_weights_iter         ? x.wi_f32
                                            : x.wp_f32;
    const int last = md.ndims - 1;
    mat_t m;
    if (f32) {
        const auto &s = md.blocking.strides;
        m.s = e.mem[t];
        m.off = md.offset0 + l * s[0] + d * s[1];
        m.sr = s[2];
        m.sc = s[last];
        return m;
    }
    // The dense f32 copy: (l, d, input, columns).
    int64_t cols = 1;
    for (int i = 3; i <= last; ++i) cols *= md.dims[i];
    const size_t off = t == rnn_weights_layer ? x.wl : t == rnn_weights_iter ? x.wi : x.wp;
    m.s = e.scratch;
    m.off = int64_t(x.base + off) + (l * md.dims[1] + d) * md.dims[2] * cols;
    m.sr = cols;
    m.sc = 1;
    return m;
}

step_params_t step_base(const exec_t &e, int64_t l, int64_t d) {
    const conf_t &c = *e.c;
    const extras_t &x = *e.x;
    step_params_t p;
    p.N = c.N;
    p.H = c.DHC;
    p.DIC = c.DIC;
    p.SIC = c.SIC;
    p.G = c.G;
    p.cell = c.vanilla ? cell_vanilla : c.lstm ? cell_lstm : c.lbr ? cell_lbr : cell_gru;
    p.act = c.activation == dnnl_eltwise_tanh ? act_tanh
            : c.activation == dnnl_eltwise_logistic ? act_logistic
                                                    : act_relu;
    p.alpha = c.alpha;
    p.peephole = c.peephole ? 1 : 0;
    p.augru = c.augru ? 1 : 0;
    const int64_t ld = l * c.D + d;
    p.bias = int64_t(x.base + x.bias) + ld * c.GB * c.DHC;
    p.peep = int64_t(x.base + x.peep) + ld * 3 * c.DHC;
    const mat_t w = weights_mat(e, rnn_weights_iter, l, d);
    p.w_off = w.off;
    p.w_si = w.sr;
    p.w_sj = w.sc;
    return p;
}

} // namespace rnn
} // namespace gpu
} // namespace anydnn
