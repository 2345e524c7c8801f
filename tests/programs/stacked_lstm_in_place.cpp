// A stacked LSTM built in place, the way oneDNN's RNN examples build one: the first layer
// takes the model's input width, so it is a primitive of its own; the upper layers share
// one primitive. Every state lives in one buffer: the initial and final states of all layers
// in one {L, 1, N, C} memory each, which each primitive sees through a submemory descriptor
// (its layers' window, an offset into the buffer), and the top layer writes its output into
// a window of a wider destination whose other channels hold a skip feature copied there by a
// reorder (a concatenation in place). Primitives are made from the submemory descriptors and
// executed with the parent memory objects, as oneDNN programs do.
//
// The result is checked against plain loops. Usage: stacked_lstm_in_place [cpu|gpu];
// exits 0 when the results match, 1 when they do not, 77 when the engine is absent.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

// Problem sizes: odd on purpose, so no size hides another.
const memory::dim T = 4, N = 3, IC = 5, C = 6, L = 3, SKIP = 2;

std::vector<float> random_vector(size_t n, unsigned seed, float range) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-range, range);
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

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// One LSTM layer over T steps, ldigo weights {in, 4, C}, bias {4, C}, gates i, f, c~, o.
void reference_layer(const std::vector<double> &x, memory::dim in, const float *wl, const float *wi,
        const float *bias, std::vector<double> &h, std::vector<double> &c, std::vector<double> &y) {
    y.assign(T * N * C, 0.0);
    for (memory::dim t = 0; t < T; ++t) {
        std::vector<double> hn(N * C), cn(N * C);
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim o = 0; o < C; ++o) {
                double g[4];
                for (int k = 0; k < 4; ++k) {
                    double s = bias[k * C + o];
                    for (memory::dim i = 0; i < in; ++i)
                        s += x[(t * N + n) * in + i] * wl[(i * 4 + k) * C + o];
                    for (memory::dim i = 0; i < C; ++i)
                        s += h[n * C + i] * wi[(i * 4 + k) * C + o];
                    g[k] = s;
                }
                const double ct = sigmoid(g[1]) * c[n * C + o] + sigmoid(g[0]) * std::tanh(g[2]);
                cn[n * C + o] = ct;
                hn[n * C + o] = sigmoid(g[3]) * std::tanh(ct);
            }
        h = hn, c = cn;
        for (memory::dim i = 0; i < N * C; ++i)
            y[t * N * C + i] = h[i];
    }
}

int run(engine::kind kind) {
    engine eng(kind, 0);
    stream strm(eng);

    // The model's tensors, in the user's plain layouts.
    const std::vector<float> x = random_vector(T * N * IC, 1, 1.f);
    const std::vector<float> skip = random_vector(T * N * SKIP, 2, 1.f);
    const std::vector<float> wl0 = random_vector(IC * 4 * C, 3, 0.5f);
    const std::vector<float> wl_up = random_vector((L - 1) * C * 4 * C, 4, 0.5f);
    const std::vector<float> wi = random_vector(L * C * 4 * C, 5, 0.5f);
    const std::vector<float> bias = random_vector(L * 4 * C, 6, 0.5f);
    const std::vector<float> h0 = random_vector(L * N * C, 7, 1.f);
    const std::vector<float> c0 = random_vector(L * N * C, 8, 1.f);

    memory::desc x_md({T, N, IC}, dt::f32, tag::tnc);
    memory::desc mid_md({T, N, C}, dt::f32, tag::tnc);
    // The network's output: the skip feature's channels, then the LSTM's.
    memory::desc out_md({T, N, SKIP + C}, dt::f32, tag::tnc);
    // Every layer's states in one buffer each.
    memory::desc states_md({L, 1, N, C}, dt::f32, tag::ldnc);
    memory::desc wi_all_md({L, 1, C, 4, C}, dt::f32, tag::ldigo);
    memory::desc bias_all_md({L, 1, 4, C}, dt::f32, tag::ldgo);

    memory x_mem(x_md, eng), mid_mem(mid_md, eng), out_mem(out_md, eng);
    memory h0_mem(states_md, eng), c0_mem(states_md, eng);
    memory hT_mem(states_md, eng), cT_mem(states_md, eng);
    memory wi_mem(wi_all_md, eng), bias_mem(bias_all_md, eng);
    memory wl0_mem({{1, 1, IC, 4, C}, dt::f32, tag::ldigo}, eng);
    memory wl_up_mem({{L - 1, 1, C, 4, C}, dt::f32, tag::ldigo}, eng);
    write(x_mem, x), write(h0_mem, h0), write(c0_mem, c0), write(wi_mem, wi);
    write(bias_mem, bias), write(wl0_mem, wl0), write(wl_up_mem, wl_up);
    write(out_mem, std::vector<float>(T * N * (SKIP + C), -7.f));

    // Layer 0 sees window [0, 1) of the state and weights buffers, layers 1.. the rest.
    auto window = [](const memory::desc &md, memory::dim first, memory::dim count) {
        memory::dims dims = md.get_dims(), offsets(dims.size(), 0);
        dims[0] = count;
        offsets[0] = first;
        return md.submemory_desc(dims, offsets);
    };
    const memory::desc out_lstm = out_md.submemory_desc({T, N, C}, {0, 0, SKIP});
    const memory::desc out_skip = out_md.submemory_desc({T, N, SKIP}, {0, 0, 0});

    lstm_forward::primitive_desc first(eng, prop_kind::forward_inference,
            rnn_direction::unidirectional_left2right, x_md, window(states_md, 0, 1),
            window(states_md, 0, 1), wl0_mem.get_desc(), window(wi_all_md, 0, 1),
            window(bias_all_md, 0, 1), mid_md, window(states_md, 0, 1), window(states_md, 0, 1));
    lstm_forward::primitive_desc upper(eng, prop_kind::forward_inference,
            rnn_direction::unidirectional_left2right, mid_md, window(states_md, 1, L - 1),
            window(states_md, 1, L - 1), wl_up_mem.get_desc(), window(wi_all_md, 1, L - 1),
            window(bias_all_md, 1, L - 1), out_lstm, window(states_md, 1, L - 1),
            window(states_md, 1, L - 1));
    // The skip feature comes in another layout and is reordered into its window.
    memory skip_mem({{T, N, SKIP}, dt::f32, tag::ntc}, eng);
    {
        std::vector<float> ntc(T * N * SKIP);
        for (memory::dim t = 0; t < T; ++t)
            for (memory::dim n = 0; n < N; ++n)
                for (memory::dim s = 0; s < SKIP; ++s)
                    ntc[(n * T + t) * SKIP + s] = skip[(t * N + n) * SKIP + s];
        write(skip_mem, ntc);
    }
    reorder::primitive_desc skip_pd(eng, skip_mem.get_desc(), eng, out_skip);

    lstm_forward(first).execute(
            strm, {{DNNL_ARG_SRC_LAYER, x_mem}, {DNNL_ARG_SRC_ITER, h0_mem},
                          {DNNL_ARG_SRC_ITER_C, c0_mem}, {DNNL_ARG_WEIGHTS_LAYER, wl0_mem},
                          {DNNL_ARG_WEIGHTS_ITER, wi_mem}, {DNNL_ARG_BIAS, bias_mem},
                          {DNNL_ARG_DST_LAYER, mid_mem}, {DNNL_ARG_DST_ITER, hT_mem},
                          {DNNL_ARG_DST_ITER_C, cT_mem}});
    lstm_forward(upper).execute(
            strm, {{DNNL_ARG_SRC_LAYER, mid_mem}, {DNNL_ARG_SRC_ITER, h0_mem},
                          {DNNL_ARG_SRC_ITER_C, c0_mem}, {DNNL_ARG_WEIGHTS_LAYER, wl_up_mem},
                          {DNNL_ARG_WEIGHTS_ITER, wi_mem}, {DNNL_ARG_BIAS, bias_mem},
                          {DNNL_ARG_DST_LAYER, out_mem}, {DNNL_ARG_DST_ITER, hT_mem},
                          {DNNL_ARG_DST_ITER_C, cT_mem}});
    reorder(skip_pd).execute(strm, skip_mem, out_mem);
    strm.wait();

    // Plain loops: layer by layer, each with its own initial state.
    std::vector<double> in(x.begin(), x.end()), y;
    std::vector<double> want_h(L * N * C), want_c(L * N * C);
    memory::dim in_c = IC;
    for (memory::dim l = 0; l < L; ++l) {
        std::vector<double> h(h0.begin() + l * N * C, h0.begin() + (l + 1) * N * C);
        std::vector<double> c(c0.begin() + l * N * C, c0.begin() + (l + 1) * N * C);
        const float *wl = l == 0 ? wl0.data() : wl_up.data() + (l - 1) * C * 4 * C;
        reference_layer(in, in_c, wl, wi.data() + l * C * 4 * C, bias.data() + l * 4 * C, h, c, y);
        std::copy(h.begin(), h.end(), want_h.begin() + l * N * C);
        std::copy(c.begin(), c.end(), want_c.begin() + l * N * C);
        in = y;
        in_c = C;
    }
    int bad = 0;
    auto check = [&](const char *what, double want, float got) {
        if (std::fabs(got - want) <= 1e-5 * (1 + std::fabs(want))) return;
        if (bad++ < 10) std::printf("%s: got %g, want %g\n", what, got, want);
    };
    const std::vector<float> out = read(out_mem, T * N * (SKIP + C));
    for (memory::dim r = 0; r < T * N; ++r) {
        for (memory::dim s = 0; s < SKIP; ++s)
            check("skip channels", skip[r * SKIP + s], out[r * (SKIP + C) + s]);
        for (memory::dim j = 0; j < C; ++j)
            check("top layer output", y[r * C + j], out[r * (SKIP + C) + SKIP + j]);
    }
    const std::vector<float> hT = read(hT_mem, L * N * C), cT = read(cT_mem, L * N * C);
    for (memory::dim i = 0; i < L * N * C; ++i) {
        check("final h", want_h[i], hT[i]);
        check("final c", want_c[i], cT[i]);
    }
    std::printf("stacked_lstm_in_place on %s: %s\n", kind == engine::kind::cpu ? "cpu" : "gpu",
            bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "cpu";
    const engine::kind kind = which == "gpu" ? engine::kind::gpu : engine::kind::cpu;
    if (engine::get_count(kind) == 0) {
        std::printf("no %s engine: skipped\n", which.c_str());
        return 77;
    }
    try {
        return run(kind);
    } catch (const error &e) {
        std::printf("oneDNN error: %s (status %d)\n", e.what(), static_cast<int>(e.status));
        return 1;
    }
}
