// A small CNN trained for a few steps the way oneDNN's training examples write one:
// convolution -> ReLU -> max pooling, forward in training mode and backward to the input and
// the weights, with the library choosing every layout (`any`) and reorders between the
// application's plain layouts and the chosen ones only where they differ. The backward
// primitives take the forward ones as hints, max pooling keeps its workspace, and the SGD
// update of the weights is a sum primitive (w + (-lr) dw) in the application's layout.
//
// The loss is sum(pool_dst * G) for a fixed G, so diff_dst of the pooling is G. Every step's
// pooled output, input gradient, weight and bias gradients and the updated weights are
// checked against plain loops. Usage: cnn_training_loop [cpu|gpu]; exits 0 when the results
// match, 1 when they do not, 77 when the engine is absent.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

// Odd sizes: no dimension hides another, and the pooling drops the last row and column.
const memory::dim N = 2, IC = 16, H = 9, W = 9, OC = 19, K = 3, PAD = 1;
const memory::dim PK = 2, PH = (H - PK) / PK + 1, PW = (W - PK) / PK + 1;
const int STEPS = 3;
const float LR = 0.05f;

std::vector<float> random_vector(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

void write(memory &m, const std::vector<float> &v) {
    float *p = m.map_data<float>();
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    m.unmap_data(p);
}

std::vector<float> read(const memory &m, size_t n) {
    std::vector<float> v(n);
    float *p = m.map_data<float>();
    std::memcpy(v.data(), p, n * sizeof(float));
    m.unmap_data(p);
    return v;
}

// The plain-loop model, in double, nchw / oihw.
struct reference_t {
    std::vector<double> w, b;

    size_t x_at(memory::dim n, memory::dim c, memory::dim h, memory::dim w_) const {
        return ((n * IC + c) * H + h) * W + w_;
    }
    size_t y_at(memory::dim n, memory::dim c, memory::dim h, memory::dim w_) const {
        return ((n * OC + c) * H + h) * W + w_;
    }
    size_t w_at(memory::dim o, memory::dim i, memory::dim kh, memory::dim kw) const {
        return ((o * IC + i) * K + kh) * K + kw;
    }
    size_t p_at(memory::dim n, memory::dim c, memory::dim h, memory::dim w_) const {
        return ((n * OC + c) * PH + h) * PW + w_;
    }

    // One step; returns pooled output, diff_src, diff_weights, diff_bias, then updates w, b.
    void step(const std::vector<float> &x, const std::vector<float> &g, std::vector<double> &pooled,
            std::vector<double> &dx, std::vector<double> &dw, std::vector<double> &db) {
        std::vector<double> conv(N * OC * H * W), relu(conv.size());
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim o = 0; o < OC; ++o)
                for (memory::dim oh = 0; oh < H; ++oh)
                    for (memory::dim ow = 0; ow < W; ++ow) {
                        double s = b[o];
                        for (memory::dim i = 0; i < IC; ++i)
                            for (memory::dim kh = 0; kh < K; ++kh)
                                for (memory::dim kw = 0; kw < K; ++kw) {
                                    memory::dim ih = oh + kh - PAD, iw = ow + kw - PAD;
                                    if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                    s += x[x_at(n, i, ih, iw)] * w[w_at(o, i, kh, kw)];
                                }
                        conv[y_at(n, o, oh, ow)] = s;
                        relu[y_at(n, o, oh, ow)] = s > 0 ? s : 0;
                    }
        // Max pooling forward, and its backward: G goes to the first maximum of each window.
        pooled.assign(N * OC * PH * PW, 0);
        std::vector<double> drelu(conv.size(), 0.0);
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim c = 0; c < OC; ++c)
                for (memory::dim ph = 0; ph < PH; ++ph)
                    for (memory::dim pw = 0; pw < PW; ++pw) {
                        size_t best = y_at(n, c, ph * PK, pw * PK);
                        for (memory::dim kh = 0; kh < PK; ++kh)
                            for (memory::dim kw = 0; kw < PK; ++kw) {
                                size_t at = y_at(n, c, ph * PK + kh, pw * PK + kw);
                                if (relu[at] > relu[best]) best = at;
                            }
                        pooled[p_at(n, c, ph, pw)] = relu[best];
                        drelu[best] += g[p_at(n, c, ph, pw)];
                    }
        std::vector<double> dconv(conv.size());
        for (size_t i = 0; i < conv.size(); ++i)
            dconv[i] = conv[i] > 0 ? drelu[i] : 0;
        dx.assign(N * IC * H * W, 0);
        dw.assign(w.size(), 0);
        db.assign(OC, 0);
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim o = 0; o < OC; ++o)
                for (memory::dim oh = 0; oh < H; ++oh)
                    for (memory::dim ow = 0; ow < W; ++ow) {
                        const double d = dconv[y_at(n, o, oh, ow)];
                        db[o] += d;
                        for (memory::dim i = 0; i < IC; ++i)
                            for (memory::dim kh = 0; kh < K; ++kh)
                                for (memory::dim kw = 0; kw < K; ++kw) {
                                    memory::dim ih = oh + kh - PAD, iw = ow + kw - PAD;
                                    if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                    dx[x_at(n, i, ih, iw)] += d * w[w_at(o, i, kh, kw)];
                                    dw[w_at(o, i, kh, kw)] += d * x[x_at(n, i, ih, iw)];
                                }
                    }
        for (size_t i = 0; i < w.size(); ++i)
            w[i] -= LR * dw[i];
        for (memory::dim o = 0; o < OC; ++o)
            b[o] -= LR * db[o];
    }
};

int mismatches = 0;

void compare(const char *what, int step, const std::vector<float> &got,
        const std::vector<double> &want) {
    double scale = 1e-6;
    for (double v : want)
        scale = std::fmax(scale, std::fabs(v));
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(got[i] - want[i]) > 1e-4 * scale + 1e-6) {
            std::printf("step %d, %s[%zu]: got %g, expected %g\n", step, what, i, got[i], want[i]);
            ++mismatches;
            return;
        }
}

// The tutorials' idiom: use the user's memory if the primitive wants its layout, else a
// reorder into a memory of the primitive's layout.
memory prepare(memory user, const memory::desc &want, const engine &eng, stream &s) {
    if (user.get_desc() == want) return user;
    memory m(want, eng);
    reorder(user, m).execute(s, user, m);
    return m;
}

int run(engine::kind kind) {
    engine eng(kind, 0);
    stream s(eng);

    const memory::dims src_dims = {N, IC, H, W}, wei_dims = {OC, IC, K, K}, bia_dims = {OC},
                       dst_dims = {N, OC, H, W}, pool_dims = {N, OC, PH, PW};
    const memory::dims strides = {1, 1}, pads = {PAD, PAD};

    // The application's data, in its own plain layouts.
    memory user_src({src_dims, dt::f32, tag::nchw}, eng), user_wei({wei_dims, dt::f32, tag::oihw}, eng),
            user_bia({bia_dims, dt::f32, tag::x}, eng), user_diff_pool({pool_dims, dt::f32, tag::nchw}, eng),
            user_pool({pool_dims, dt::f32, tag::nchw}, eng), user_diff_src({src_dims, dt::f32, tag::nchw}, eng),
            user_diff_wei({wei_dims, dt::f32, tag::oihw}, eng), user_diff_bia({bia_dims, dt::f32, tag::x}, eng);
    const auto x = random_vector(N * IC * H * W, 1), g = random_vector(N * OC * PH * PW, 2);
    reference_t ref;
    {
        auto w0 = random_vector(OC * IC * K * K, 3), b0 = random_vector(OC, 4);
        ref.w.assign(w0.begin(), w0.end());
        ref.b.assign(b0.begin(), b0.end());
        write(user_wei, w0);
        write(user_bia, b0);
    }
    write(user_src, x);
    write(user_diff_pool, g);

    // Forward: the library picks the layouts.
    auto any = [](const memory::dims &d) { return memory::desc(d, dt::f32, tag::any); };
    convolution_forward::primitive_desc conv_pd(eng, prop_kind::forward_training,
            algorithm::convolution_direct, any(src_dims), any(wei_dims),
            memory::desc(bia_dims, dt::f32, tag::x), any(dst_dims), strides, pads, pads);
    eltwise_forward::primitive_desc relu_pd(eng, prop_kind::forward_training,
            algorithm::eltwise_relu, conv_pd.dst_desc(), conv_pd.dst_desc(), 0.f);
    pooling_forward::primitive_desc pool_pd(eng, prop_kind::forward_training,
            algorithm::pooling_max, relu_pd.dst_desc(), any(pool_dims), {PK, PK}, {PK, PK},
            {0, 0}, {0, 0}, {0, 0});

    // Backward, with the forward primitive descriptors as hints.
    pooling_backward::primitive_desc pool_bwd_pd(eng, algorithm::pooling_max,
            relu_pd.dst_desc(), pool_pd.dst_desc(), {PK, PK}, {PK, PK}, {0, 0}, {0, 0}, {0, 0},
            pool_pd);
    eltwise_backward::primitive_desc relu_bwd_pd(eng, algorithm::eltwise_relu,
            conv_pd.dst_desc(), conv_pd.dst_desc(), conv_pd.dst_desc(), 0.f, relu_pd);
    convolution_backward_data::primitive_desc conv_bwd_data_pd(eng, algorithm::convolution_direct,
            any(src_dims), conv_pd.weights_desc(), conv_pd.dst_desc(), strides, pads, pads, conv_pd);
    convolution_backward_weights::primitive_desc conv_bwd_wei_pd(eng,
            algorithm::convolution_direct, conv_pd.src_desc(), any(wei_dims),
            memory::desc(bia_dims, dt::f32, tag::x), conv_pd.dst_desc(), strides, pads, pads,
            conv_pd);
    // SGD: w + (-lr) dw, in the application's layouts.
    sum::primitive_desc update_w_pd(eng, {1.f, -LR}, {user_wei.get_desc(), user_wei.get_desc()});
    sum::primitive_desc update_b_pd(eng, {1.f, -LR}, {user_bia.get_desc(), user_bia.get_desc()});

    memory conv_dst(conv_pd.dst_desc(), eng), relu_dst(relu_pd.dst_desc(), eng),
            pool_dst(pool_pd.dst_desc(), eng), workspace(pool_pd.workspace_desc(), eng),
            diff_relu(pool_bwd_pd.diff_src_desc(), eng), diff_conv(relu_bwd_pd.diff_src_desc(), eng),
            diff_src(conv_bwd_data_pd.diff_src_desc(), eng),
            diff_wei(conv_bwd_wei_pd.diff_weights_desc(), eng), diff_bia(user_bia.get_desc(), eng);

    for (int step = 0; step < STEPS; ++step) {
        memory src = prepare(user_src, conv_pd.src_desc(), eng, s);
        memory wei = prepare(user_wei, conv_pd.weights_desc(), eng, s);
        convolution_forward(conv_pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                {DNNL_ARG_BIAS, user_bia}, {DNNL_ARG_DST, conv_dst}});
        eltwise_forward(relu_pd).execute(s, {{DNNL_ARG_SRC, conv_dst}, {DNNL_ARG_DST, relu_dst}});
        pooling_forward(pool_pd).execute(s, {{DNNL_ARG_SRC, relu_dst}, {DNNL_ARG_DST, pool_dst},
                {DNNL_ARG_WORKSPACE, workspace}});
        reorder(pool_dst, user_pool).execute(s, pool_dst, user_pool);

        memory diff_pool = prepare(user_diff_pool, pool_bwd_pd.diff_dst_desc(), eng, s);
        pooling_backward(pool_bwd_pd).execute(s, {{DNNL_ARG_DIFF_DST, diff_pool},
                {DNNL_ARG_DIFF_SRC, diff_relu}, {DNNL_ARG_WORKSPACE, workspace}});
        eltwise_backward(relu_bwd_pd).execute(s, {{DNNL_ARG_SRC, conv_dst},
                {DNNL_ARG_DIFF_DST, diff_relu}, {DNNL_ARG_DIFF_SRC, diff_conv}});
        memory wei_for_bwd = prepare(user_wei, conv_bwd_data_pd.weights_desc(), eng, s);
        convolution_backward_data(conv_bwd_data_pd).execute(s, {{DNNL_ARG_DIFF_DST, diff_conv},
                {DNNL_ARG_WEIGHTS, wei_for_bwd}, {DNNL_ARG_DIFF_SRC, diff_src}});
        memory src_for_bwd = prepare(user_src, conv_bwd_wei_pd.src_desc(), eng, s);
        convolution_backward_weights(conv_bwd_wei_pd).execute(s, {{DNNL_ARG_SRC, src_for_bwd},
                {DNNL_ARG_DIFF_DST, diff_conv}, {DNNL_ARG_DIFF_WEIGHTS, diff_wei},
                {DNNL_ARG_DIFF_BIAS, diff_bia}});
        reorder(diff_src, user_diff_src).execute(s, diff_src, user_diff_src);
        reorder(diff_wei, user_diff_wei).execute(s, diff_wei, user_diff_wei);
        reorder(diff_bia, user_diff_bia).execute(s, diff_bia, user_diff_bia);
        // Update in place: the sum's dst is its first source.
        sum(update_w_pd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, user_wei},
                {DNNL_ARG_MULTIPLE_SRC + 1, user_diff_wei}, {DNNL_ARG_DST, user_wei}});
        sum(update_b_pd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, user_bia},
                {DNNL_ARG_MULTIPLE_SRC + 1, user_diff_bia}, {DNNL_ARG_DST, user_bia}});
        s.wait();

        std::vector<double> pooled, dx, dw, db;
        ref.step(x, g, pooled, dx, dw, db);
        compare("pooled", step, read(user_pool, pooled.size()), pooled);
        compare("diff_src", step, read(user_diff_src, dx.size()), dx);
        compare("diff_weights", step, read(user_diff_wei, dw.size()), dw);
        compare("diff_bias", step, read(user_diff_bia, db.size()), db);
        compare("weights", step, read(user_wei, ref.w.size()), ref.w);
        compare("bias", step, read(user_bia, ref.b.size()), ref.b);
    }
    std::printf("cnn_training_loop on %s: %d steps, %s\n", kind == engine::kind::cpu ? "cpu" : "gpu",
            STEPS, mismatches ? "MISMATCH" : "all match");
    return mismatches ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "cpu";
    const engine::kind kind = which == "gpu" ? engine::kind::gpu : engine::kind::cpu;
    if (engine::get_count(kind) == 0) {
        std::printf("no %s engine\n", which.c_str());
        return 77;
    }
    try {
        return run(kind);
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
}
