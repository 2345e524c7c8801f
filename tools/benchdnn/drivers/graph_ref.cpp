#include "graph_ref.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "data_types.hpp"
#include "knobs.hpp"
#include "graph_ref_conv.hpp"
#include "graph_ref_train.hpp"
#include "ref_math.hpp"

namespace benchdnn {

namespace {

using op_kind_t = dnnl_graph_op_kind_t;

// Element-wise ops as a oneDNN eltwise algorithm with its alpha and beta.
bool eltwise_alg(const graph_op_t &op, dnnl_alg_kind_t &alg, double &alpha, double &beta) {
    alpha = beta = 0;
    switch (op.kind) {
    case dnnl_graph_op_abs: alg = dnnl_eltwise_abs; return true;
    case dnnl_graph_op_clamp:
        alg = dnnl_eltwise_clip;
        alpha = op.f32(dnnl_graph_op_attr_min, 0);
        beta = op.f32(dnnl_graph_op_attr_max, 0);
        return true;
    case dnnl_graph_op_elu:
        alg = dnnl_eltwise_elu;
        alpha = op.f32(dnnl_graph_op_attr_alpha, 1);
        return true;
    case dnnl_graph_op_exp: alg = dnnl_eltwise_exp; return true;
    case dnnl_graph_op_gelu:
        alg = op.str(dnnl_graph_op_attr_mode, "gelu_erf") == "gelu_tanh" ? dnnl_eltwise_gelu_tanh
                                                                         : dnnl_eltwise_gelu_erf;
        return true;
    case dnnl_graph_op_hard_sigmoid:
        alg = dnnl_eltwise_hardsigmoid;
        alpha = op.f32(dnnl_graph_op_attr_alpha, 0);
        beta = op.f32(dnnl_graph_op_attr_beta, 0);
        return true;
    case dnnl_graph_op_hard_swish:
        alg = dnnl_eltwise_hardswish;
        alpha = 1.0 / 6;
        beta = 0.5;
        return true;
    case dnnl_graph_op_leaky_relu:
        alg = dnnl_eltwise_relu;
        alpha = op.f32(dnnl_graph_op_attr_alpha, 0);
        return true;
    case dnnl_graph_op_log: alg = dnnl_eltwise_log; return true;
    case dnnl_graph_op_mish: alg = dnnl_eltwise_mish; return true;
    case dnnl_graph_op_reciprocal:
        alg = dnnl_eltwise_pow;
        alpha = 1;
        beta = -1;
        return true;
    case dnnl_graph_op_relu: alg = dnnl_eltwise_relu; return true;
    case dnnl_graph_op_round: alg = dnnl_eltwise_round; return true;
    case dnnl_graph_op_sigmoid: alg = dnnl_eltwise_logistic; return true;
    case dnnl_graph_op_softplus:
        alg = dnnl_eltwise_soft_relu;
        alpha = op.f32(dnnl_graph_op_attr_beta, 1);
        return true;
    case dnnl_graph_op_sqrt: alg = dnnl_eltwise_sqrt; return true;
    case dnnl_graph_op_square: alg = dnnl_eltwise_square; return true;
    case dnnl_graph_op_tanh: alg = dnnl_eltwise_tanh; return true;
    default: return false;
    }
}

bool binary_alg(op_kind_t kind, dnnl_alg_kind_t &alg) {
    switch (kind) {
    case dnnl_graph_op_add: alg = dnnl_binary_add; return true;
    case dnnl_graph_op_subtract: alg = dnnl_binary_sub; return true;
    case dnnl_graph_op_multiply: alg = dnnl_binary_mul; return true;
    case dnnl_graph_op_divide: alg = dnnl_binary_div; return true;
    case dnnl_graph_op_maximum: alg = dnnl_binary_max; return true;
    case dnnl_graph_op_minimum: alg = dnnl_binary_min; return true;
    case dnnl_graph_op_greater_equal: alg = dnnl_binary_ge; return true;
    case dnnl_graph_op_squared_difference: alg = dnnl_binary_sub; return true;
    default: return false;
    }
}

[[noreturn]] void fail(const graph_op_t &op, const std::string &what) {
    ref_fail(op, what);
}

// Element-wise backward ops as the forward algorithm whose gradient they take (the
// *_use_dst_for_bwd form when the op reads the destination).
bool eltwise_bwd_alg(const graph_op_t &op, dnnl_alg_kind_t &alg, double &alpha, double &beta) {
    alpha = beta = 0;
    const bool dst = op.flag(dnnl_graph_op_attr_use_dst, true);
    switch (op.kind) {
    case dnnl_graph_op_abs_backward: alg = dnnl_eltwise_abs; return true;
    case dnnl_graph_op_clamp_backward:
        alg = dst ? dnnl_eltwise_clip_v2_use_dst_for_bwd : dnnl_eltwise_clip_v2;
        alpha = op.f32(dnnl_graph_op_attr_min, 0);
        beta = op.f32(dnnl_graph_op_attr_max, 0);
        return true;
    case dnnl_graph_op_elu_backward:
        alg = dst ? dnnl_eltwise_elu_use_dst_for_bwd : dnnl_eltwise_elu;
        alpha = op.f32(dnnl_graph_op_attr_alpha, 1);
        return true;
    case dnnl_graph_op_gelu_backward:
        alg = op.str(dnnl_graph_op_attr_mode, "gelu_erf") == "gelu_tanh" ? dnnl_eltwise_gelu_tanh
                                                                         : dnnl_eltwise_gelu_erf;
        return true;
    case dnnl_graph_op_hard_sigmoid_backward:
        alg = dnnl_eltwise_hardsigmoid;
        alpha = op.f32(dnnl_graph_op_attr_alpha, 0);
        beta = op.f32(dnnl_graph_op_attr_beta, 0);
        return true;
    case dnnl_graph_op_hard_swish_backward:
        alg = dnnl_eltwise_hardswish;
        alpha = 1.0 / 6;
        beta = 0.5;
        return true;
    case dnnl_graph_op_mish_backward: alg = dnnl_eltwise_mish; return true;
    case dnnl_graph_op_relu_backward:
        alg = dst ? dnnl_eltwise_relu_use_dst_for_bwd : dnnl_eltwise_relu;
        return true;
    case dnnl_graph_op_sigmoid_backward:
        alg = dst ? dnnl_eltwise_logistic_use_dst_for_bwd : dnnl_eltwise_logistic;
        return true;
    case dnnl_graph_op_softplus_backward:
        alg = dnnl_eltwise_soft_relu;
        alpha = op.f32(dnnl_graph_op_attr_beta, 1);
        return true;
    case dnnl_graph_op_sqrt_backward:
        alg = dst ? dnnl_eltwise_sqrt_use_dst_for_bwd : dnnl_eltwise_sqrt;
        return true;
    case dnnl_graph_op_tanh_backward:
        alg = dst ? dnnl_eltwise_tanh_use_dst_for_bwd : dnnl_eltwise_tanh;
        return true;
    default: return false;
    }
}

int axis_of(int64_t axis, size_t ndims, const graph_op_t &op) {
    const int64_t n = static_cast<int64_t>(ndims);
    if (axis < -n || axis >= n) fail(op, "axis " + std::to_string(axis) + " out of range");
    return static_cast<int>(axis < 0 ? axis + n : axis);
}

// Index into `in` (dims right-aligned to out, size-1 dims broadcast) of out position pos.
int64_t broadcast_index(const dims_t &in, const dims_t &out, const int64_t *pos) {
    int64_t idx = 0;
    const size_t shift = out.size() - in.size();
    for (size_t d = 0; d < in.size(); ++d)
        idx = idx * in[d] + (in[d] == 1 ? 0 : pos[d + shift]);
    return idx;
}

bool broadcastable(const dims_t &in, const dims_t &out) {
    if (in.size() > out.size()) return false;
    const size_t shift = out.size() - in.size();
    for (size_t d = 0; d < in.size(); ++d)
        if (in[d] != 1 && in[d] != out[d + shift]) return false;
    return true;
}

// out[i] = f(position of i) over out's dims.
void for_each(ref_value_t &out, const std::function<double(const int64_t *)> &f) {
    const int64_t n = product(out.dims);
    out.v.assign(static_cast<size_t>(n), 0);
    std::vector<int64_t> pos(out.dims.size() + 1);
    for (int64_t i = 0; i < n; ++i) {
        logical_position(out.dims, i, pos.data());
        out.v[i] = f(pos.data());
    }
}

struct op_run_t {
    const graph_op_t &op;
    ref_values_t &values;

    const ref_value_t &in(size_t i) const {
        if (i >= op.inputs.size()) fail(op, "missing input " + std::to_string(i));
        auto it = values.find(op.inputs[i].id);
        if (it == values.end()) fail(op, "input tensor has no value yet");
        return it->second;
    }
    ref_value_t &out(size_t i) {
        if (i >= op.outputs.size()) fail(op, "missing output " + std::to_string(i));
        ref_value_t &o = values[op.outputs[i].id];
        o.dims = op.outputs[i].shape;
        o.dt = op.outputs[i].dt;
        o.mag.clear();
        return o;
    }
    void check_broadcast(const ref_value_t &src, const dims_t &dst) const {
        if (!broadcastable(src.dims, dst))
            fail(op, dims2str(src.dims) + " does not broadcast to " + dims2str(dst));
    }

    void eltwise() {
        dnnl_alg_kind_t alg;
        double alpha, beta;
        eltwise_alg(op, alg, alpha, beta);
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        if (product(s.dims) != product(d.dims)) fail(op, "output size differs from input");
        d.v.resize(s.v.size());
        for (size_t i = 0; i < s.v.size(); ++i)
            d.v[i] = eltwise_fwd(alg, s.v[i], alpha, beta);
    }

    void binary() {
        dnnl_alg_kind_t alg = dnnl_binary_add;
        binary_alg(op.kind, alg);
        const ref_value_t &a = in(0), &b = in(1);
        ref_value_t &d = out(0);
        check_broadcast(a, d.dims);
        check_broadcast(b, d.dims);
        const bool squared = op.kind == dnnl_graph_op_squared_difference;
        for_each(d, [&](const int64_t *p) {
            const double r = binary_op(alg, a.v[broadcast_index(a.dims, d.dims, p)],
                    b.v[broadcast_index(b.dims, d.dims, p)]);
            return squared ? r * r : r;
        });
    }

    void conv_family() {
        std::vector<const ref_value_t *> ins;
        for (size_t i = 0; i < op.inputs.size(); ++i)
            ins.push_back(&in(i));
        ref_conv_family(op, ins, out(0));
    }

    void pool_or_norm_backward() {
        std::vector<const ref_value_t *> ins;
        for (size_t i = 0; i < op.inputs.size(); ++i)
            ins.push_back(&in(i));
        std::vector<ref_value_t *> outs;
        for (size_t i = 0; i < op.outputs.size(); ++i)
            outs.push_back(&out(i));
        ref_pool_or_norm_backward(op, ins, outs);
    }

    // diff_src of an element-wise op from (src or dst, diff_dst).
    void eltwise_backward() {
        dnnl_alg_kind_t alg;
        double alpha, beta;
        eltwise_bwd_alg(op, alg, alpha, beta);
        const ref_value_t &s = in(0), &dd = in(1);
        ref_value_t &d = out(0);
        if (s.v.size() != dd.v.size() || product(d.dims) != product(s.dims))
            fail(op, "source, diff_dst and diff_src differ in size");
        d.v.resize(s.v.size());
        for (size_t i = 0; i < s.v.size(); ++i)
            d.v[i] = eltwise_bwd(alg, dd.v[i], s.v[i], alpha, beta);
    }

    // diff_src of (Log)SoftMax from (diff_dst, dst).
    void softmax_backward(bool log) {
        const ref_value_t &dd = in(0), &y = in(1);
        ref_value_t &d = out(0);
        if (dd.dims != y.dims || d.dims != y.dims) fail(op, "diff_dst, dst and diff_src differ");
        d.v.assign(y.v.size(), 0);
        const int axis = axis_of(op.s64(dnnl_graph_op_attr_axis, 1), y.dims.size(), op);
        const int64_t len = y.dims[axis];
        int64_t inner = 1;
        for (size_t i = axis + 1; i < y.dims.size(); ++i)
            inner *= y.dims[i];
        const int64_t outer = len ? product(y.dims) / (len * inner) : 0;
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t in_ = 0; in_ < inner; ++in_) {
                auto at = [&](int64_t k) { return (o * len + k) * inner + in_; };
                double sum = 0;
                for (int64_t k = 0; k < len; ++k)
                    sum += log ? dd.v[at(k)] : dd.v[at(k)] * y.v[at(k)];
                for (int64_t k = 0; k < len; ++k)
                    d.v[at(k)] = log ? dd.v[at(k)] - std::exp(y.v[at(k)]) * sum
                                     : y.v[at(k)] * (dd.v[at(k)] - sum);
            }
    }

    // PReLU: x for x > 0, slope * x otherwise; a 1D slope with per_channel_broadcast follows
    // the channel axis, any other slope broadcasts numpy-style.
    void prelu() {
        const ref_value_t &x = in(0), &w = in(1);
        ref_value_t &d = out(0);
        if (d.dims != x.dims) fail(op, "output shape differs from input");
        const bool nxc = op.str(dnnl_graph_op_attr_data_format, "NXC") == "NXC";
        const bool per_channel = op.flag(dnnl_graph_op_attr_per_channel_broadcast, true);
        const size_t nd = x.dims.size();
        dims_t wd = w.dims;
        if (wd.size() == 1 && nd > 1 && per_channel) { // the channel axis
            wd.assign(nd, 1);
            wd[nxc ? nd - 1 : 1] = w.dims[0];
        }
        if (!broadcastable(wd, d.dims))
            fail(op, dims2str(w.dims) + " does not broadcast to " + dims2str(d.dims));
        for_each(d, [&](const int64_t *p) {
            const double v = x.v[linear_index(x.dims, p)];
            return v > 0 ? v : v * w.v[broadcast_index(wd, d.dims, p)];
        });
    }

    // GenIndex: every element holds its own index along the axis.
    void gen_index() {
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        if (d.dims != s.dims) fail(op, "output shape differs from input");
        const int axis = axis_of(op.s64(dnnl_graph_op_attr_axis, 0), d.dims.size(), op);
        for_each(d, [&](const int64_t *p) { return static_cast<double>(p[axis]); });
    }

    void select() {
        const ref_value_t &c = in(0), &a = in(1), &b = in(2);
        ref_value_t &d = out(0);
        check_broadcast(c, d.dims);
        check_broadcast(a, d.dims);
        check_broadcast(b, d.dims);
        for_each(d, [&](const int64_t *p) {
            return c.v[broadcast_index(c.dims, d.dims, p)] != 0
                           ? a.v[broadcast_index(a.dims, d.dims, p)]
                           : b.v[broadcast_index(b.dims, d.dims, p)];
        });
    }

    // Channel axis of data_format: NCX -> 1, NXC -> last.
    int channel_axis(size_t ndims) const {
        return op.str(dnnl_graph_op_attr_data_format, "NXC") == "NCX" ? 1
                                                                      : static_cast<int>(ndims) - 1;
    }

    void bias_add() {
        const ref_value_t &s = in(0), &b = in(1);
        ref_value_t &d = out(0);
        if (s.dims.size() < 2) fail(op, "source needs 2 or more dimensions");
        const int c = channel_axis(s.dims.size());
        if (product(b.dims) != s.dims[c]) fail(op, "bias size is not the channel count");
        d.dims = s.dims;
        for_each(d, [&](const int64_t *p) { return s.v[linear_index(s.dims, p)] + b.v[p[c]]; });
    }

    void matmul() {
        const ref_value_t &a = in(0), &b = in(1);
        ref_value_t &d = out(0);
        const size_t nd = d.dims.size();
        if (a.dims.size() < 2 || b.dims.size() < 2 || nd < 2)
            fail(op, "the reference needs 2D or more inputs");
        const bool ta = op.flag(dnnl_graph_op_attr_transpose_a, false);
        const bool tb = op.flag(dnnl_graph_op_attr_transpose_b, false);
        const size_t an = a.dims.size(), bn = b.dims.size();
        const int64_t M = ta ? a.dims[an - 1] : a.dims[an - 2];
        const int64_t K = ta ? a.dims[an - 2] : a.dims[an - 1];
        const int64_t Kb = tb ? b.dims[bn - 1] : b.dims[bn - 2];
        const int64_t N = tb ? b.dims[bn - 2] : b.dims[bn - 1];
        if (K != Kb) fail(op, "inner dimensions differ");
        if (d.dims[nd - 2] != M || d.dims[nd - 1] != N) fail(op, "output is not MxN");
        const ref_value_t *bias = op.inputs.size() > 2 ? &in(2) : nullptr;
        if (bias) check_broadcast(*bias, d.dims);
        // Row by row: for each k, a[m][k] times row k of B added into the output row, so the
        // inner loop runs over n (contiguous in B unless it is transposed). The sum over k keeps
        // its order. Batch offsets come from the broadcast index of position (batch, 0, 0).
        const int64_t a_m = ta ? 1 : a.dims[an - 1], a_k = ta ? a.dims[an - 1] : 1;
        const int64_t b_k = tb ? 1 : b.dims[bn - 1], b_n = tb ? b.dims[bn - 1] : 1;
        d.v.assign(static_cast<size_t>(product(d.dims)), 0);
        const int64_t batches = M > 0 && N > 0 ? product(d.dims) / (M * N) : 0;
        dims_t bdims(d.dims.begin(), d.dims.end() - 2);
        std::vector<int64_t> pos(nd + 1, 0);
        std::vector<double> row(static_cast<size_t>(N)), mrow(static_cast<size_t>(N));
        d.mag.assign(d.v.size(), 0);
        for (int64_t bi = 0; bi < batches; ++bi) {
            logical_position(bdims, bi, pos.data());
            pos[nd - 2] = pos[nd - 1] = 0;
            const double *ab = a.v.data() + broadcast_index(a.dims, d.dims, pos.data());
            const double *bb = b.v.data() + broadcast_index(b.dims, d.dims, pos.data());
            for (int64_t m = 0; m < M; ++m) {
                std::fill(row.begin(), row.end(), 0.0);
                std::fill(mrow.begin(), mrow.end(), 0.0);
                for (int64_t k = 0; k < K; ++k) {
                    const double av = ab[m * a_m + k * a_k];
                    const double *bk = bb + k * b_k;
                    for (int64_t n = 0; n < N; ++n) {
                        row[n] += av * bk[n * b_n];
                        mrow[n] += std::fabs(av * bk[n * b_n]);
                    }
                }
                std::copy(row.begin(), row.end(), d.v.begin() + (bi * M + m) * N);
                std::copy(mrow.begin(), mrow.end(), d.mag.begin() + (bi * M + m) * N);
            }
        }
        if (bias) {
            std::vector<int64_t> p(nd + 1);
            for (int64_t i = 0; i < product(d.dims); ++i) {
                logical_position(d.dims, i, p.data());
                d.v[i] += bias->v[broadcast_index(bias->dims, d.dims, p.data())];
            }
        }
    }

    // Softmax (log_softmax) along one axis: rows are the positions of the other axes.
    void softmax(bool log) {
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        d.dims = s.dims;
        d.v.assign(s.v.size(), 0);
        const int axis = axis_of(op.s64(dnnl_graph_op_attr_axis, log ? -1 : 1), s.dims.size(), op);
        const int64_t len = s.dims[axis];
        int64_t inner = 1;
        for (size_t i = axis + 1; i < s.dims.size(); ++i)
            inner *= s.dims[i];
        const int64_t outer = len ? product(s.dims) / (len * inner) : 0;
        const bool inf_as_zero = op.str(dnnl_graph_op_attr_mode, "none") == "inf_as_zero";
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t in_ = 0; in_ < inner; ++in_) {
                auto at = [&](int64_t k) { return (o * len + k) * inner + in_; };
                double mx = -INFINITY, sum = 0;
                for (int64_t k = 0; k < len; ++k)
                    mx = std::max(mx, s.v[at(k)]);
                if (inf_as_zero && mx == -INFINITY) continue;
                for (int64_t k = 0; k < len; ++k)
                    sum += std::exp(s.v[at(k)] - mx);
                for (int64_t k = 0; k < len; ++k)
                    d.v[at(k)] =
                            log ? s.v[at(k)] - mx - std::log(sum) : std::exp(s.v[at(k)] - mx) / sum;
            }
    }

    void layer_norm() {
        const ref_value_t &s = in(0);
        const bool affine = op.flag(dnnl_graph_op_attr_use_affine, true);
        const ref_value_t *gamma = affine && op.inputs.size() > 1 ? &in(1) : nullptr;
        const ref_value_t *beta = affine && op.inputs.size() > 2 ? &in(2) : nullptr;
        const int begin =
                axis_of(op.s64(dnnl_graph_op_attr_begin_norm_axis, -1), s.dims.size(), op);
        const double eps = op.f32(dnnl_graph_op_attr_epsilon, 1e-5f);
        int64_t len = 1;
        for (size_t i = begin; i < s.dims.size(); ++i)
            len *= s.dims[i];
        const int64_t rows = len ? product(s.dims) / len : 0;
        if ((gamma && product(gamma->dims) != len) || (beta && product(beta->dims) != len))
            fail(op, "gamma / beta do not cover the normalized dimensions");
        ref_value_t &d = out(0);
        d.v.assign(s.v.size(), 0);
        std::vector<double> mean(rows), var(rows);
        for (int64_t r = 0; r < rows; ++r) {
            const double *x = &s.v[r * len];
            double m = 0, v = 0;
            for (int64_t i = 0; i < len; ++i)
                m += x[i];
            m /= len;
            for (int64_t i = 0; i < len; ++i)
                v += (x[i] - m) * (x[i] - m);
            v /= len;
            mean[r] = m;
            var[r] = v;
            const double inv = 1 / std::sqrt(v + eps);
            for (int64_t i = 0; i < len; ++i)
                d.v[r * len + i] =
                        (x[i] - m) * inv * (gamma ? gamma->v[i] : 1) + (beta ? beta->v[i] : 0);
        }
        if (op.outputs.size() > 1) out(1).v = mean;
        if (op.outputs.size() > 2) out(2).v = var;
    }

    // Dequantize (to f32) and Quantize (to int): per tensor or along one axis.
    void quantization(bool quantize) {
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        const std::vector<float> scales = op.f32s(dnnl_graph_op_attr_scales);
        const dims_t zps = op.s64s(dnnl_graph_op_attr_zps, dims_t());
        const bool per_channel = op.str(dnnl_graph_op_attr_qtype, "per_tensor") == "per_channel";
        const int axis =
                per_channel ? axis_of(op.s64(dnnl_graph_op_attr_axis, 1), s.dims.size(), op) : 0;
        const size_t groups = per_channel ? static_cast<size_t>(s.dims[axis]) : 1;
        if (scales.size() != groups || (!zps.empty() && zps.size() != groups))
            fail(op, "scales / zps do not match the quantization groups");
        d.dims = s.dims;
        for_each(d, [&](const int64_t *p) {
            const size_t g = per_channel ? static_cast<size_t>(p[axis]) : 0;
            const double x = s.v[linear_index(s.dims, p)];
            const double zp = zps.empty() ? 0 : static_cast<double>(zps[g]);
            return quantize ? x / scales[g] + zp : (x - zp) * scales[g];
        });
    }

    void transpose() {
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        const dims_t order = op.s64s(dnnl_graph_op_attr_order, dims_t());
        if (order.size() != s.dims.size()) fail(op, "order does not name every dimension");
        std::vector<int> perm(order.size());
        for (size_t i = 0; i < order.size(); ++i) {
            perm[i] = axis_of(order[i], order.size(), op);
            if (d.dims[i] != s.dims[perm[i]]) fail(op, "output shape is not the permuted input");
        }
        std::vector<int64_t> spos(s.dims.size());
        for_each(d, [&](const int64_t *p) {
            for (size_t i = 0; i < perm.size(); ++i)
                spos[perm[i]] = p[i];
            return s.v[linear_index(s.dims, spos.data())];
        });
    }

    void copy() { // TypeCast, Reorder, StaticReshape: same values, maybe new dims / type
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        if (product(s.dims) != product(d.dims)) fail(op, "output size differs from input");
        d.v = s.v;
    }

    void reduce() {
        const ref_value_t &s = in(0);
        ref_value_t &d = out(0);
        const dims_t axes = op.s64s(dnnl_graph_op_attr_axes, dims_t());
        std::vector<bool> reduced(s.dims.size(), false);
        for (int64_t a : axes)
            reduced[axis_of(a, s.dims.size(), op)] = true;
        dims_t kept; // dst dims with reduced axes as 1
        for (size_t i = 0; i < s.dims.size(); ++i)
            kept.push_back(reduced[i] ? 1 : s.dims[i]);
        if (product(kept) != product(d.dims)) fail(op, "output size is not the reduced size");
        const int64_t n = product(s.dims), m = product(kept);
        const int64_t count = m ? n / m : 0;
        const op_kind_t k = op.kind;
        const double init = k == dnnl_graph_op_reduce_max    ? -INFINITY
                            : k == dnnl_graph_op_reduce_min  ? INFINITY
                            : k == dnnl_graph_op_reduce_prod ? 1
                                                             : 0;
        d.v.assign(static_cast<size_t>(m), init);
        std::vector<int64_t> pos(s.dims.size() + 1);
        for (int64_t i = 0; i < n; ++i) {
            logical_position(s.dims, i, pos.data());
            for (size_t a = 0; a < s.dims.size(); ++a)
                if (reduced[a]) pos[a] = 0;
            double &acc = d.v[linear_index(kept, pos.data())];
            const double x = s.v[i];
            switch (k) {
            case dnnl_graph_op_reduce_max: acc = std::max(acc, x); break;
            case dnnl_graph_op_reduce_min: acc = std::min(acc, x); break;
            case dnnl_graph_op_reduce_prod: acc *= x; break;
            case dnnl_graph_op_reduce_l1: acc += std::fabs(x); break;
            case dnnl_graph_op_reduce_l2: acc += x * x; break;
            default: acc += x; break; // sum, mean
            }
        }
        for (double &x : d.v) {
            if (k == dnnl_graph_op_reduce_mean) x /= count;
            if (k == dnnl_graph_op_reduce_l2) x = std::sqrt(x);
        }
    }

    void concat() {
        ref_value_t &d = out(0);
        const int axis = axis_of(op.s64(dnnl_graph_op_attr_axis, 0), d.dims.size(), op);
        std::vector<const ref_value_t *> srcs;
        std::vector<int64_t> start;
        int64_t at = 0;
        for (size_t i = 0; i < op.inputs.size(); ++i) {
            srcs.push_back(&in(i));
            start.push_back(at);
            at += srcs.back()->dims.size() == d.dims.size() ? srcs.back()->dims[axis] : 0;
        }
        if (at != d.dims[axis]) fail(op, "inputs do not add up to the output along the axis");
        std::vector<int64_t> spos(d.dims.size());
        for_each(d, [&](const int64_t *p) {
            size_t i = srcs.size() - 1;
            while (i > 0 && p[axis] < start[i])
                --i;
            std::copy(p, p + d.dims.size(), spos.begin());
            spos[axis] -= start[i];
            return srcs[i]->v[linear_index(srcs[i]->dims, spos.data())];
        });
    }

    bool carries_magnitude(const graph_op_t &o) const {
        dnnl_alg_kind_t alg;
        double a, b;
        if (eltwise_alg(o, alg, a, b) || binary_alg(o.kind, alg)) return true;
        return o.kind == dnnl_graph_op_bias_add || o.kind == dnnl_graph_op_type_cast
                || o.kind == dnnl_graph_op_reorder || o.kind == dnnl_graph_op_static_reshape;
    }

    void run() {
        dnnl_alg_kind_t alg;
        double a, b;
        if (eltwise_alg(op, alg, a, b))
            eltwise();
        else if (eltwise_bwd_alg(op, alg, a, b))
            eltwise_backward();
        else if (binary_alg(op.kind, alg))
            binary();
        else if (ref_is_conv_family(op.kind))
            conv_family();
        else if (ref_is_pool_or_norm_backward(op.kind))
            pool_or_norm_backward();
        else
            switch (op.kind) {
            case dnnl_graph_op_select: select(); break;
            case dnnl_graph_op_gen_index: gen_index(); break;
            case dnnl_graph_op_softmax_backward: softmax_backward(false); break;
            case dnnl_graph_op_log_softmax_backward: softmax_backward(true); break;
            case dnnl_graph_op_prelu: prelu(); break;
            case dnnl_graph_op_bias_add: bias_add(); break;
            case dnnl_graph_op_matmul: matmul(); break;
            case dnnl_graph_op_softmax: softmax(false); break;
            case dnnl_graph_op_log_softmax: softmax(true); break;
            case dnnl_graph_op_layer_norm: layer_norm(); break;
            case dnnl_graph_op_dequantize: quantization(false); break;
            case dnnl_graph_op_quantize: quantization(true); break;
            case dnnl_graph_op_static_transpose: transpose(); break;
            case dnnl_graph_op_type_cast:
            case dnnl_graph_op_reorder:
            case dnnl_graph_op_static_reshape: copy(); break;
            case dnnl_graph_op_reduce_l1:
            case dnnl_graph_op_reduce_l2:
            case dnnl_graph_op_reduce_max:
            case dnnl_graph_op_reduce_mean:
            case dnnl_graph_op_reduce_min:
            case dnnl_graph_op_reduce_prod:
            case dnnl_graph_op_reduce_sum: reduce(); break;
            case dnnl_graph_op_concat: concat(); break;
            case dnnl_graph_op_end: break; // marks a graph output
            default: fail(op, "no reference for this op kind");
            }
        // Element-wise ops keep the magnitude of the accumulation they read.
        if (op.outputs.size() == 1 && !op.inputs.empty() && carries_magnitude(op)) {
            ref_value_t &o = values[op.outputs[0].id];
            const ref_value_t &src = in(0);
            if (o.mag.empty() && src.mag.size() == o.v.size()) o.mag = src.mag;
        }
        // What the library stores: each output in its own data type.
        for (const auto &lt : op.outputs) {
            ref_value_t &o = values[lt.id];
            if (static_cast<int64_t>(o.v.size()) != product(o.dims))
                fail(op, "reference produced the wrong number of values");
            for (double &x : o.v)
                x = round_to_dt(x, o.dt);
        }
    }
};

} // namespace

void ref_fail(const graph_op_t &op, const std::string &what) {
    throw std::invalid_argument("reference: op " + std::to_string(op.id) + " ("
                                + graph_op_kind_name(op.kind) + "): " + what);
}

std::string ref_unsupported(const graph_op_t &op) {
    dnnl_alg_kind_t alg;
    double a, b;
    if (eltwise_alg(op, alg, a, b) || eltwise_bwd_alg(op, alg, a, b) || binary_alg(op.kind, alg)
            || ref_is_conv_family(op.kind) || ref_is_pool_or_norm_backward(op.kind))
        return {};
    switch (op.kind) {
    case dnnl_graph_op_select:
    case dnnl_graph_op_gen_index:
    case dnnl_graph_op_softmax_backward:
    case dnnl_graph_op_log_softmax_backward:
    case dnnl_graph_op_prelu:
    case dnnl_graph_op_bias_add:
    case dnnl_graph_op_matmul:
    case dnnl_graph_op_softmax:
    case dnnl_graph_op_log_softmax:
    case dnnl_graph_op_layer_norm:
    case dnnl_graph_op_dequantize:
    case dnnl_graph_op_quantize:
    case dnnl_graph_op_static_transpose:
    case dnnl_graph_op_type_cast:
    case dnnl_graph_op_reorder:
    case dnnl_graph_op_static_reshape:
    case dnnl_graph_op_reduce_l1:
    case dnnl_graph_op_reduce_l2:
    case dnnl_graph_op_reduce_max:
    case dnnl_graph_op_reduce_mean:
    case dnnl_graph_op_reduce_min:
    case dnnl_graph_op_reduce_prod:
    case dnnl_graph_op_reduce_sum:
    case dnnl_graph_op_concat:
    case dnnl_graph_op_end: return {};
    default: return std::string("no reference for ") + graph_op_kind_name(op.kind);
    }
}

void ref_run(const graph_case_t &c, ref_values_t &values) {
    std::vector<bool> done(c.ops.size(), false);
    for (size_t finished = 0; finished < c.ops.size();) {
        bool progress = false;
        for (size_t i = 0; i < c.ops.size(); ++i) {
            if (done[i]) continue;
            const auto &op = c.ops[i];
            bool ready = true;
            for (const auto &lt : op.inputs)
                ready = ready && values.count(lt.id);
            if (!ready) continue;
            op_run_t{op, values}.run();
            done[i] = progress = true;
            ++finished;
        }
        if (!progress) throw std::invalid_argument("reference: the ops form a cycle");
    }
}

double graph_flops(const graph_case_t &c) {
    double flops = 0;
    for (const auto &op : c.ops) {
        if (op.outputs.empty() || op.inputs.size() < 2) continue;
        const double out = static_cast<double>(product(op.outputs[0].shape));
        const dims_t &w = op.inputs[1].shape;
        if (op.kind == dnnl_graph_op_matmul && op.inputs[0].shape.size() >= 2) {
            const dims_t &a = op.inputs[0].shape;
            const bool ta = op.flag(dnnl_graph_op_attr_transpose_a, false);
            flops += 2 * out * static_cast<double>(a[a.size() - (ta ? 2 : 1)]);
        } else if (op.kind == dnnl_graph_op_convolution && !w.empty()) {
            const double oc = static_cast<double>(
                    op.str(dnnl_graph_op_attr_weights_format, "XIO") == "XIO" ? w.back() : w[0]);
            flops += 2 * out * static_cast<double>(product(w)) / oc;
        }
    }
    return flops;
}

bool graph_has_transcendental(const graph_case_t &c) {
    for (const auto &op : c.ops) {
        dnnl_alg_kind_t alg;
        double a, b;
        if ((eltwise_alg(op, alg, a, b) || eltwise_bwd_alg(op, alg, a, b))
                && eltwise_is_transcendental(alg))
            return true;
        switch (op.kind) {
        case dnnl_graph_op_softmax:
        case dnnl_graph_op_log_softmax:
        case dnnl_graph_op_softmax_backward:
        case dnnl_graph_op_log_softmax_backward:
        case dnnl_graph_op_layer_norm: return true;
        default: break;
        }
    }
    return false;
}

} // namespace benchdnn
