// `make demo`: a program written against the oneDNN C++ API. It builds an NCHW tensor,
// reorders it to the blocked nChw16c layout, applies ReLU, adds a per-channel bias with
// binary broadcasting, reorders back and checks the result against plain loops.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
}

// Runs one primitive and reports how long creation and execution took.
template <typename primitive_type>
void run_step(const char *what, const typename primitive_type::primitive_desc &pd, stream &s,
        const std::unordered_map<int, memory> &args) {
    auto t0 = std::chrono::steady_clock::now();
    primitive_type p(pd);
    double create_ms = ms_since(t0);
    auto t1 = std::chrono::steady_clock::now();
    p.execute(s, args);
    s.wait();
    std::printf("  %-28s impl %-24s create %7.3f ms  execute %7.3f ms\n", what,
            pd.impl_info_str(), create_ms, ms_since(t1));
}

} // namespace

int main() {
    const memory::dim N = 2, C = 19, H = 7, W = 5; // C not a multiple of 16: a blocked tail
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    std::printf("anydnn %d.%d.%d demo on the %s engine\n", version()->major,
            version()->minor, version()->patch, "cpu");

    std::vector<float> src(N * C * H * W), bias(C);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = std::sin(0.37f * static_cast<float>(i)) * 4.f;
    for (memory::dim c = 0; c < C; ++c)
        bias[c] = 0.25f * static_cast<float>(c) - 2.f;

    memory::desc plain_md({N, C, H, W}, dt::f32, tag::nchw);
    memory::desc blocked_md({N, C, H, W}, dt::f32, tag::nChw16c);
    memory::desc bias_md({1, C, 1, 1}, dt::f32, tag::nchw);
    memory user_src(plain_md, eng, src.data());
    memory user_bias(bias_md, eng, bias.data());
    memory blocked(blocked_md, eng), activated(blocked_md, eng), biased(blocked_md, eng);
    memory result(plain_md, eng);

    std::printf("pipeline: nchw -> nChw16c -> relu -> + bias[c] -> nchw, %lldx%lldx%lldx%lld f32\n",
            (long long)N, (long long)C, (long long)H, (long long)W);
    run_step<reorder>("reorder nchw->nChw16c", reorder::primitive_desc(user_src, blocked), s,
            {{DNNL_ARG_FROM, user_src}, {DNNL_ARG_TO, blocked}});
    run_step<eltwise_forward>("eltwise relu",
            eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
                    algorithm::eltwise_relu, blocked_md, blocked_md, 0.f, 0.f),
            s, {{DNNL_ARG_SRC, blocked}, {DNNL_ARG_DST, activated}});
    run_step<binary>("binary add (broadcast C)",
            binary::primitive_desc(eng, algorithm::binary_add, blocked_md, bias_md, blocked_md),
            s, {{DNNL_ARG_SRC_0, activated}, {DNNL_ARG_SRC_1, user_bias}, {DNNL_ARG_DST, biased}});
    run_step<reorder>("reorder nChw16c->nchw", reorder::primitive_desc(biased, result), s,
            {{DNNL_ARG_FROM, biased}, {DNNL_ARG_TO, result}});

    // The same computation with plain loops.
    const float *out = static_cast<const float *>(result.get_data_handle());
    double max_err = 0;
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim c = 0; c < C; ++c)
            for (memory::dim hw = 0; hw < H * W; ++hw) {
                size_t i = static_cast<size_t>((n * C + c) * H * W + hw);
                float expected = std::fmax(src[i], 0.f) + bias[c];
                max_err = std::fmax(max_err, std::fabs(out[i] - expected));
            }
    std::printf("first values: ");
    for (int i = 0; i < 6; ++i)
        std::printf("%.4f ", out[i]);
    std::printf("...\nmax |difference| from plain loops: %g -> %s\n", max_err,
            max_err == 0 ? "OK" : "MISMATCH");
    return max_err == 0 ? 0 : 1;
}
