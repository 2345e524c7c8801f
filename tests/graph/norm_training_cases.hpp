// Graphs of the normalization training ops with the outputs plain formulas written here
// expect: BatchNormForwardTraining (batch and running statistics), BatchNormTrainingBackward
// and LayerNormBackward, with and without the affine parameters.
#pragma once

#include "graph/training_cases.hpp"

namespace training_cases {

// Mean and population variance of each channel of NCHW / NHWC data.
inline void channel_stats(bool nxc, int64_t N, int64_t C, int64_t H, int64_t W,
        const std::vector<float> &x, std::vector<double> &mean, std::vector<double> &var) {
    mean.assign(C, 0.0);
    var.assign(C, 0.0);
    const double m = double(N * H * W);
    for (int pass = 0; pass < 2; ++pass)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t h = 0; h < H; ++h)
                    for (int64_t w = 0; w < W; ++w) {
                        const double v = x[at4(nxc, C, H, W, n, c, h, w)];
                        if (pass == 0) mean[c] += v / m;
                        else var[c] += (v - mean[c]) * (v - mean[c]) / m;
                    }
}

// BatchNormForwardTraining(src, mean, variance[, gamma, beta]) -> dst, running_mean,
// running_variance, batch_mean, batch_variance; running = momentum * given + (1 - momentum)
// * batch.
inline case_t batch_norm_training(bool nxc, bool affine, int64_t N, int64_t C, int64_t H, int64_t W) {
    const lt_dims sd = data_dims(nxc, N, C, H, W);
    const float eps = 1e-3f, momentum = 0.1f;
    const auto x = random_floats(nelems(sd), 111, -2.f, 3.f);
    const auto old_mean = random_floats(C, 112), old_var = random_floats(C, 113, 0.5f, 2.f);
    const auto gamma = random_floats(C, 114, 0.5f, 1.5f), beta = random_floats(C, 115);
    std::vector<double> mean, var;
    channel_stats(nxc, N, C, H, W, x, mean, var);
    std::vector<float> dst(x.size()), rmean(C), rvar(C);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t w = 0; w < W; ++w) {
                    const size_t i = at4(nxc, C, H, W, n, c, h, w);
                    const double y = (x[i] - mean[c]) / std::sqrt(var[c] + eps);
                    dst[i] = float(affine ? gamma[c] * y + beta[c] : y);
                }
    for (int64_t c = 0; c < C; ++c) {
        rmean[c] = float(momentum * old_mean[c] + (1.0 - momentum) * mean[c]);
        rvar[c] = float(momentum * old_var[c] + (1.0 - momentum) * var[c]);
    }
    case_t k;
    k.name = std::string("BatchNormForwardTraining ") + (nxc ? "NXC" : "NCX")
            + (affine ? " affine" : "");
    k.build = [=](graph &g) {
        std::vector<logical_tensor> ins {lt(0, sd), lt(1, {C}), lt(2, {C})};
        if (affine) {
            ins.push_back(lt(3, {C}));
            ins.push_back(lt(4, {C}));
        }
        op o(1, op::kind::BatchNormForwardTraining, ins,
                {lt(5, sd), lt(6, {C}), lt(7, {C}), lt(8, {C}), lt(9, {C})});
        o.set_attr(op::attr::epsilon, eps);
        o.set_attr(op::attr::momentum, momentum);
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    k.inputs = {{0, bytes(x)}, {1, bytes(old_mean)}, {2, bytes(old_var)}};
    if (affine) {
        k.inputs[3] = bytes(gamma);
        k.inputs[4] = bytes(beta);
    }
    k.want[5] = dst;
    k.want[6] = rmean;
    k.want[7] = rvar;
    k.want[8] = std::vector<float>(mean.begin(), mean.end());
    k.want[9] = std::vector<float>(var.begin(), var.end());
    return k;
}

// Gradients of y = g * (x - mean) / sqrt(var + eps) + b over groups of m elements that share
// mean and var: diff_b = sum(dy), diff_g = sum(dy * xhat),
// diff_x = g / sqrt(var + eps) * (dy - diff_b / m - xhat * diff_g / m).
struct norm_grads_t {
    std::vector<float> diff_src, diff_gamma, diff_beta;
};

// BatchNormTrainingBackward(src, diff_dst, mean, variance[, gamma]) -> diff_src[, diff_gamma,
// diff_beta]; without gamma the scale is one.
inline case_t batch_norm_backward(bool nxc, bool with_gamma, size_t outputs, int64_t N, int64_t C,
        int64_t H, int64_t W) {
    const lt_dims sd = data_dims(nxc, N, C, H, W);
    const float eps = 1e-3f;
    const auto x = random_floats(nelems(sd), 121, -2.f, 2.f);
    const auto dy = random_floats(nelems(sd), 122);
    const auto gamma = random_floats(C, 123, 0.5f, 1.5f);
    std::vector<double> mean, var;
    channel_stats(nxc, N, C, H, W, x, mean, var);
    const double m = double(N * H * W);
    std::vector<double> db(C, 0.0), dg(C, 0.0);
    auto each = [&](const std::function<void(size_t, int64_t)> &f) {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < C; ++c)
                for (int64_t h = 0; h < H; ++h)
                    for (int64_t w = 0; w < W; ++w)
                        f(at4(nxc, C, H, W, n, c, h, w), c);
    };
    auto xhat = [&](size_t i, int64_t c) { return (x[i] - mean[c]) / std::sqrt(var[c] + eps); };
    each([&](size_t i, int64_t c) {
        db[c] += dy[i];
        dg[c] += dy[i] * xhat(i, c);
    });
    std::vector<float> dx(x.size());
    each([&](size_t i, int64_t c) {
        const double g = with_gamma ? gamma[c] : 1.0;
        dx[i] = float(g / std::sqrt(var[c] + eps) * (dy[i] - db[c] / m - xhat(i, c) * dg[c] / m));
    });
    const std::vector<float> meanf(mean.begin(), mean.end()), varf(var.begin(), var.end());
    case_t k;
    k.name = std::string("BatchNormTrainingBackward ") + (nxc ? "NXC" : "NCX")
            + (with_gamma ? " gamma" : "") + " outputs " + std::to_string(outputs);
    k.build = [=](graph &g) {
        std::vector<logical_tensor> ins {lt(0, sd), lt(1, sd), lt(2, {C}), lt(3, {C})};
        if (with_gamma) ins.push_back(lt(4, {C}));
        std::vector<logical_tensor> outs {lt(5, sd), lt(6, {C}), lt(7, {C})};
        outs.resize(outputs);
        op o(1, op::kind::BatchNormTrainingBackward, ins, outs);
        o.set_attr(op::attr::epsilon, eps);
        o.set_attr(op::attr::data_format, std::string(nxc ? "NXC" : "NCX"));
        g.add_op(o);
    };
    k.inputs = {{0, bytes(x)}, {1, bytes(dy)}, {2, bytes(meanf)}, {3, bytes(varf)}};
    if (with_gamma) k.inputs[4] = bytes(gamma);
    k.want[5] = dx;
    if (outputs > 1) k.want[6] = std::vector<float>(dg.begin(), dg.end());
    if (outputs > 2) k.want[7] = std::vector<float>(db.begin(), db.end());
    return k;
}

// LayerNormBackward(src, diff_dst, mean, variance[, gamma, beta]) over the axes from
// begin_norm_axis on; without use_affine only diff_src.
inline case_t layer_norm_backward(const lt_dims &dims, int64_t begin_axis, bool affine) {
    const int nd = int(dims.size());
    const int b = int(begin_axis < 0 ? begin_axis + nd : begin_axis);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < nd; ++i)
        (i < b ? outer : inner) *= dims[i];
    const lt_dims stat_dims(dims.begin(), dims.begin() + b);
    const lt_dims param_dims(dims.begin() + b, dims.end());
    const float eps = 1e-4f;
    const auto x = random_floats(nelems(dims), 131, -2.f, 2.f);
    const auto dy = random_floats(nelems(dims), 132);
    const auto gamma = random_floats(inner, 133, 0.5f, 1.5f), beta = random_floats(inner, 134);
    std::vector<float> meanf(outer), varf(outer), dx(x.size());
    std::vector<double> dg(inner, 0.0), db(inner, 0.0);
    for (int64_t r = 0; r < outer; ++r) {
        const float *xr = &x[r * inner];
        const float *dyr = &dy[r * inner];
        double mu = 0, var = 0;
        for (int64_t j = 0; j < inner; ++j)
            mu += xr[j] / double(inner);
        for (int64_t j = 0; j < inner; ++j)
            var += (xr[j] - mu) * (xr[j] - mu) / double(inner);
        meanf[r] = float(mu);
        varf[r] = float(var);
        const double rs = 1.0 / std::sqrt(double(varf[r]) + eps);
        double sum_gdy = 0, sum_gdy_xhat = 0;
        for (int64_t j = 0; j < inner; ++j) {
            const double xhat = (xr[j] - double(meanf[r])) * rs;
            const double gdy = (affine ? gamma[j] : 1.0) * dyr[j];
            sum_gdy += gdy;
            sum_gdy_xhat += gdy * xhat;
            dg[j] += dyr[j] * xhat;
            db[j] += dyr[j];
        }
        for (int64_t j = 0; j < inner; ++j) {
            const double xhat = (xr[j] - double(meanf[r])) * rs;
            const double gdy = (affine ? gamma[j] : 1.0) * dyr[j];
            dx[r * inner + j] = float(rs * (gdy - sum_gdy / inner - xhat * sum_gdy_xhat / inner));
        }
    }
    case_t k;
    k.name = "LayerNormBackward " + std::to_string(nd) + "D axis " + std::to_string(begin_axis)
            + (affine ? " affine" : "");
    k.build = [=](graph &g) {
        std::vector<logical_tensor> ins {lt(0, dims), lt(1, dims), lt(2, stat_dims), lt(3, stat_dims)};
        std::vector<logical_tensor> outs {lt(6, dims)};
        if (affine) {
            ins.push_back(lt(4, param_dims));
            ins.push_back(lt(5, param_dims));
            outs.push_back(lt(7, param_dims));
            outs.push_back(lt(8, param_dims));
        }
        op o(1, op::kind::LayerNormBackward, ins, outs);
        o.set_attr(op::attr::begin_norm_axis, begin_axis);
        o.set_attr(op::attr::use_affine, affine);
        o.set_attr(op::attr::epsilon, eps);
        g.add_op(o);
    };
    k.inputs = {{0, bytes(x)}, {1, bytes(dy)}, {2, bytes(meanf)}, {3, bytes(varf)}};
    if (affine) {
        k.inputs[4] = bytes(gamma);
        k.inputs[5] = bytes(beta);
    }
    k.want[6] = dx;
    // A one-element row normalizes to 0 and so does its gradient; the library's is 0 up to
    // the rounding of 1/sqrt(eps) * dy (about 1e-6 here), not to 1e-4 of a zero output.
    if (inner == 1 && !affine) k.tol = 10.f;
    if (affine) {
        k.want[7] = std::vector<float>(dg.begin(), dg.end());
        k.want[8] = std::vector<float>(db.begin(), db.end());
    }
    return k;
}

inline std::vector<case_t> norm_training_cases() {
    std::vector<case_t> all;
    for (bool nxc : {false, true}) {
        for (bool affine : {false, true})
            all.push_back(batch_norm_training(nxc, affine, 2, 3, 5, 7));
        all.push_back(batch_norm_training(nxc, true, 1, 1, 1, 1));
        all.push_back(batch_norm_backward(nxc, true, 3, 2, 3, 5, 7));
        all.push_back(batch_norm_backward(nxc, true, 1, 3, 5, 2, 3));
        all.push_back(batch_norm_backward(nxc, false, 3, 2, 17, 3, 1));
    }
    all.push_back(layer_norm_backward({3, 5, 17}, -1, true));
    all.push_back(layer_norm_backward({2, 3, 5}, 1, true));
    all.push_back(layer_norm_backward({4, 33}, -1, false));
    all.push_back(layer_norm_backward({1, 7}, -1, true));
    all.push_back(layer_norm_backward({1, 1}, -1, false));
    return all;
}

} // namespace training_cases
