// Times one problem of the perf batch on oneDNN v2 (Debian's libdnnl-dev 2.6.3: the v2 C++
// API, which benchdnn's v3 source cannot build against). compare_v2.py runs it beside our
// benchdnn on the same shapes. Usage (one problem per run):
//   onednn2_harness matmul f32|bf16|int8 M K N
//   onednn2_harness eltwise relu|gelu_erf N C
//   onednn2_harness softmax N C
//   onednn2_harness lnorm fwd_i|fwd_d N C
//   onednn2_harness reorder N C H W              (nchw -> nChw16c)
//   onednn2_harness conv any|plain MB IC IH OC OH KH SH PH
//   onednn2_harness pool max|avg_np fwd_i|fwd_d nChw16c|nhwc MB IC IH OH KH SH PH
//   onednn2_harness bnorm fwd_i|fwd_d nChw16c|nhwc MB IC IH
// Prints "min_ms median_ms".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "dnnl.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

engine eng(engine::kind::cpu, 0);
stream strm(eng);

memory filled(const memory::desc &md) {
    memory m(md, eng);
    // Arbitrary non-trivial bytes: timing only.
    auto *p = static_cast<unsigned char *>(m.get_data_handle());
    for (size_t i = 0; i < md.get_size(); ++i) p[i] = static_cast<unsigned char>((i * 37) % 61);
    return m;
}

// Runs `p` with `args` until ~1 s or 1000 runs after warm-up; prints min and median.
void time_it(primitive p, std::unordered_map<int, memory> args) {
    for (int i = 0; i < 3; ++i) p.execute(strm, args);
    strm.wait();
    std::vector<double> ms;
    double total = 0;
    while (total < 1000 && ms.size() < 1000) {
        auto t = std::chrono::steady_clock::now();
        p.execute(strm, args);
        strm.wait();
        double d = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t)
                           .count();
        ms.push_back(d);
        total += d;
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%.4f %.4f\n", ms.front(), ms[ms.size() / 2]);
}

long arg(char **argv, int i) { return std::atol(argv[i]); }

int matmul_problem(char **argv) {
    std::string t = argv[2];
    long M = arg(argv, 3), K = arg(argv, 4), N = arg(argv, 5);
    dt a = dt::f32, b = dt::f32, c = dt::f32;
    if (t == "bf16") a = b = c = dt::bf16;
    if (t == "int8") a = dt::u8, b = dt::s8, c = dt::s32;
    memory::desc src({M, K}, a, tag::ab), wei({K, N}, b, tag::ab), dst({M, N}, c, tag::ab);
    matmul::primitive_desc pd(matmul::desc(src, wei, dst), eng);
    time_it(matmul(pd), {{DNNL_ARG_SRC, filled(src)}, {DNNL_ARG_WEIGHTS, filled(wei)},
                                {DNNL_ARG_DST, memory(dst, eng)}});
    return 0;
}

int eltwise_problem(char **argv) {
    algorithm alg = std::string(argv[2]) == "relu" ? algorithm::eltwise_relu
                                                   : algorithm::eltwise_gelu_erf;
    memory::desc md({arg(argv, 3), arg(argv, 4)}, dt::f32, tag::ab);
    eltwise_forward::primitive_desc pd(
            eltwise_forward::desc(prop_kind::forward_inference, alg, md, 0.f, 0.f), eng);
    time_it(eltwise_forward(pd), {{DNNL_ARG_SRC, filled(md)}, {DNNL_ARG_DST, memory(md, eng)}});
    return 0;
}

int softmax_problem(char **argv) {
    memory::desc md({arg(argv, 2), arg(argv, 3)}, dt::f32, tag::ab);
    softmax_forward::primitive_desc pd(
            softmax_forward::desc(prop_kind::forward_inference, md, 1), eng);
    time_it(softmax_forward(pd), {{DNNL_ARG_SRC, filled(md)}, {DNNL_ARG_DST, memory(md, eng)}});
    return 0;
}

int lnorm_problem(char **argv) {
    bool training = std::string(argv[2]) == "fwd_d";
    memory::desc md({arg(argv, 3), arg(argv, 4)}, dt::f32, tag::ab);
    auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
    layer_normalization_forward::primitive_desc pd(
            layer_normalization_forward::desc(training ? prop_kind::forward_training
                                                       : prop_kind::forward_inference,
                    md, 1e-5f, flags),
            eng);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, filled(md)},
            {DNNL_ARG_DST, memory(md, eng)}, {DNNL_ARG_SCALE, filled(pd.weights_desc())},
            {DNNL_ARG_SHIFT, filled(pd.weights_desc())}};
    if (training) {
        args[DNNL_ARG_MEAN] = memory(pd.mean_desc(), eng);
        args[DNNL_ARG_VARIANCE] = memory(pd.variance_desc(), eng);
    }
    time_it(layer_normalization_forward(pd), args);
    return 0;
}

int reorder_problem(char **argv) {
    memory::dims d = {arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5)};
    memory src = filled(memory::desc(d, dt::f32, tag::nchw));
    memory dst(memory::desc(d, dt::f32, tag::nChw16c), eng);
    time_it(reorder(src, dst), {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
    return 0;
}

int conv_problem(char **argv) {
    bool any = std::string(argv[2]) == "any";
    long mb = arg(argv, 3), ic = arg(argv, 4), ih = arg(argv, 5), oc = arg(argv, 6),
         oh = arg(argv, 7), kh = arg(argv, 8), sh = arg(argv, 9), ph = arg(argv, 10);
    tag t = any ? tag::any : tag::nchw, w = any ? tag::any : tag::oihw;
    memory::desc src({mb, ic, ih, ih}, dt::f32, t), wei({oc, ic, kh, kh}, dt::f32, w),
            bia({oc}, dt::f32, tag::a), dst({mb, oc, oh, oh}, dt::f32, t);
    long pr = (oh - 1) * sh - ih + kh - ph; // right padding that gives oh
    convolution_forward::primitive_desc pd(
            convolution_forward::desc(prop_kind::forward_inference,
                    algorithm::convolution_direct, src, wei, bia, dst, {sh, sh}, {ph, ph},
                    {pr, pr}),
            eng);
    time_it(convolution_forward(pd),
            {{DNNL_ARG_SRC, filled(pd.src_desc())}, {DNNL_ARG_WEIGHTS, filled(pd.weights_desc())},
                    {DNNL_ARG_BIAS, filled(bia)}, {DNNL_ARG_DST, memory(pd.dst_desc(), eng)}});
    return 0;
}

tag layout(const char *s) { return std::string(s) == "nhwc" ? tag::nhwc : tag::nChw16c; }

int pool_problem(char **argv) {
    algorithm alg = std::string(argv[2]) == "max" ? algorithm::pooling_max
                                                  : algorithm::pooling_avg_exclude_padding;
    bool training = std::string(argv[3]) == "fwd_d";
    tag t = layout(argv[4]);
    long mb = arg(argv, 5), ic = arg(argv, 6), ih = arg(argv, 7), oh = arg(argv, 8),
         kh = arg(argv, 9), sh = arg(argv, 10), ph = arg(argv, 11);
    long pr = (oh - 1) * sh - ih + kh - ph;
    memory::desc src({mb, ic, ih, ih}, dt::f32, t), dst({mb, ic, oh, oh}, dt::f32, t);
    pooling_forward::primitive_desc pd(
            pooling_forward::desc(training ? prop_kind::forward_training
                                           : prop_kind::forward_inference,
                    alg, src, dst, {sh, sh}, {kh, kh}, {ph, ph}, {pr, pr}),
            eng);
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, filled(src)}, {DNNL_ARG_DST, memory(dst, eng)}};
    if (training && alg == algorithm::pooling_max)
        args[DNNL_ARG_WORKSPACE] = memory(pd.workspace_desc(), eng);
    time_it(pooling_forward(pd), args);
    return 0;
}

int bnorm_problem(char **argv) {
    bool training = std::string(argv[2]) == "fwd_d";
    tag t = layout(argv[3]);
    long mb = arg(argv, 4), ic = arg(argv, 5), ih = arg(argv, 6);
    memory::desc md({mb, ic, ih, ih}, dt::f32, t);
    auto flags = normalization_flags::use_scale | normalization_flags::use_shift;
    if (!training) flags = flags | normalization_flags::use_global_stats;
    batch_normalization_forward::primitive_desc pd(
            batch_normalization_forward::desc(training ? prop_kind::forward_training
                                                       : prop_kind::forward_inference,
                    md, 1e-5f, flags),
            eng);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, filled(md)},
            {DNNL_ARG_DST, memory(md, eng)}, {DNNL_ARG_SCALE, filled(pd.weights_desc())},
            {DNNL_ARG_SHIFT, filled(pd.weights_desc())},
            {DNNL_ARG_MEAN, filled(pd.mean_desc())},
            {DNNL_ARG_VARIANCE, filled(pd.variance_desc())}};
    time_it(batch_normalization_forward(pd), args);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: see the comment at the top of onednn2_harness.cpp\n");
        return 2;
    }
    const std::string what = argv[1];
    try {
        if (what == "matmul" && argc == 6) return matmul_problem(argv);
        if (what == "eltwise" && argc == 5) return eltwise_problem(argv);
        if (what == "softmax" && argc == 4) return softmax_problem(argv);
        if (what == "lnorm" && argc == 5) return lnorm_problem(argv);
        if (what == "reorder" && argc == 6) return reorder_problem(argv);
        if (what == "conv" && argc == 11) return conv_problem(argv);
        if (what == "pool" && argc == 12) return pool_problem(argv);
        if (what == "bnorm" && argc == 7) return bnorm_problem(argv);
    } catch (const dnnl::error &e) {
        std::fprintf(stderr, "oneDNN: %s (status %d)\n", e.what(), static_cast<int>(e.status));
        return 1;
    }
    std::fprintf(stderr, "unknown problem\n");
    return 2;
}
