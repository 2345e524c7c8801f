// LSTM and vanilla RNN whose src_iter has other channels than the state (sic != dic), which
// oneDNN accepts for one time step: the first step of a model fed another model's state. Run
// as a program would, on the CPU engine and on the first GPU engine when one is present, and
// checked against plain loops.
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;

std::vector<float> random_vector(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-0.8f, 0.8f);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

std::vector<float> read(const memory &m, size_t n) {
    std::vector<float> v(n);
    const float *p = m.map_data<float>();
    for (size_t i = 0; i < n; ++i)
        v[i] = p[i];
    m.unmap_data(const_cast<float *>(p));
    return v;
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

struct sizes_t {
    memory::dim n, slc, sic, dhc;
};

// One step, one layer, one direction: gates = x Wl + h Wi + b (ldigo weights).
void check_one_step(const engine &eng, bool lstm, const sizes_t &s) {
    SCOPED_TRACE(testing::Message() << where(eng) << (lstm ? " lstm" : " rnn") << " n" << s.n
                                    << " slc" << s.slc << " sic" << s.sic << " dhc" << s.dhc);
    const memory::dim G = lstm ? 4 : 1, N = s.n, H = s.dhc;
    stream strm(eng);
    memory::desc x_md({1, N, s.slc}, dt::f32, tag::tnc), y_md({1, N, H}, dt::f32, tag::tnc);
    memory::desc hi_md({1, 1, N, s.sic}, dt::f32, tag::ldnc);
    memory::desc ho_md({1, 1, N, H}, dt::f32, tag::ldnc), c_md = ho_md;
    memory::desc wl_md({1, 1, s.slc, G, H}, dt::f32, tag::ldigo);
    memory::desc wi_md({1, 1, s.sic, G, H}, dt::f32, tag::ldigo);
    memory::desc b_md({1, 1, G, H}, dt::f32, tag::ldgo);
    const std::vector<float> x = random_vector(N * s.slc, 1), hi = random_vector(N * s.sic, 2);
    const std::vector<float> ci = random_vector(N * H, 3), wl = random_vector(s.slc * G * H, 4);
    const std::vector<float> wi = random_vector(s.sic * G * H, 5), b = random_vector(G * H, 6);
    memory x_m = filled(x_md, eng, x), hi_m = filled(hi_md, eng, hi), ci_m = filled(c_md, eng, ci);
    memory wl_m = filled(wl_md, eng, wl), wi_m = filled(wi_md, eng, wi), b_m = filled(b_md, eng, b);
    memory y_m(y_md, eng), ho_m(ho_md, eng), co_m(c_md, eng);
    if (lstm) {
        lstm_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, x_md, hi_md, c_md, wl_md, wi_md, b_md,
                y_md, ho_md, c_md);
        lstm_forward(pd).execute(strm,
                {{DNNL_ARG_SRC_LAYER, x_m}, {DNNL_ARG_SRC_ITER, hi_m}, {DNNL_ARG_SRC_ITER_C, ci_m},
                        {DNNL_ARG_WEIGHTS_LAYER, wl_m}, {DNNL_ARG_WEIGHTS_ITER, wi_m},
                        {DNNL_ARG_BIAS, b_m}, {DNNL_ARG_DST_LAYER, y_m}, {DNNL_ARG_DST_ITER, ho_m},
                        {DNNL_ARG_DST_ITER_C, co_m}});
    } else {
        vanilla_rnn_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::eltwise_tanh, rnn_direction::unidirectional_left2right, x_md, hi_md,
                wl_md, wi_md, b_md, y_md, ho_md);
        vanilla_rnn_forward(pd).execute(
                strm, {{DNNL_ARG_SRC_LAYER, x_m}, {DNNL_ARG_SRC_ITER, hi_m},
                              {DNNL_ARG_WEIGHTS_LAYER, wl_m}, {DNNL_ARG_WEIGHTS_ITER, wi_m},
                              {DNNL_ARG_BIAS, b_m}, {DNNL_ARG_DST_LAYER, y_m},
                              {DNNL_ARG_DST_ITER, ho_m}});
    }
    strm.wait();
    const std::vector<float> y = read(y_m, N * H), ho = read(ho_m, N * H);
    const std::vector<float> co = lstm ? read(co_m, N * H) : std::vector<float>();
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim o = 0; o < H; ++o) {
            double g[4];
            for (memory::dim k = 0; k < G; ++k) {
                double acc = b[k * H + o];
                for (memory::dim i = 0; i < s.slc; ++i)
                    acc += double(x[n * s.slc + i]) * wl[(i * G + k) * H + o];
                for (memory::dim i = 0; i < s.sic; ++i)
                    acc += double(hi[n * s.sic + i]) * wi[(i * G + k) * H + o];
                g[k] = acc;
            }
            double h, c = 0;
            if (lstm) {
                c = sigmoid(g[1]) * ci[n * H + o] + sigmoid(g[0]) * std::tanh(g[2]);
                h = sigmoid(g[3]) * std::tanh(c);
            } else {
                h = std::tanh(g[0]);
            }
            const size_t i = n * H + o;
            ASSERT_NEAR(y[i], h, 1e-5) << n << "," << o;
            ASSERT_NEAR(ho[i], h, 1e-5) << n << "," << o;
            if (lstm) ASSERT_NEAR(co[i], c, 1e-5) << n << "," << o;
        }
}

TEST(rnn_src_iter_channels, one_step_with_more_or_fewer_src_iter_channels_matches_loops) {
    for (const engine &eng : engines())
        for (bool lstm : {true, false})
            for (const sizes_t &s : {sizes_t{3, 5, 11, 7}, sizes_t{1, 4, 2, 9}, sizes_t{2, 6, 1, 6},
                         sizes_t{5, 17, 33, 16}})
                check_one_step(eng, lstm, s);
}

} // namespace
