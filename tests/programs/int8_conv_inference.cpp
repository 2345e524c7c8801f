// Quantized convolution inference the way oneDNN's int8 examples write it: f32 activations and
// weights are quantized by reorders with scales (the weights per output channel), the
// convolution runs u8 x s8 with a source zero point, a bias, a ReLU post-op and an s8
// destination, its scales passed at execution time (runtime scales, oneDNN v3), and a last
// reorder dequantizes the result. Layouts are the library's choice (`any`).
//
// Checked against plain loops that apply the same quantization: every s8 output may differ
// from the reference by one step (rounding of values on a tie), no more. Usage:
// int8_conv_inference [cpu|gpu]; exits 0 when the results match, 1 when they do not, 77 when
// the engine is absent.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

const memory::dim N = 2, IC = 7, H = 11, W = 10, OC = 19, K = 3, STRIDE = 2, PAD = 1;
const memory::dim OH = (H + 2 * PAD - K) / STRIDE + 1, OW = (W + 2 * PAD - K) / STRIDE + 1;
const int32_t SRC_ZP = 10;
const float SRC_SCALE = 2.f / 245.f, DST_SCALE = 0.05f;

std::vector<float> random_vector(size_t n, unsigned seed, float lo, float hi) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

template <typename T>
void write(memory &m, const std::vector<T> &v) {
    void *p = m.map_data();
    std::memcpy(p, v.data(), v.size() * sizeof(T));
    m.unmap_data(p);
}

template <typename T>
std::vector<T> read(const memory &m, size_t n) {
    std::vector<T> v(n);
    void *p = m.map_data();
    std::memcpy(v.data(), p, n * sizeof(T));
    m.unmap_data(p);
    return v;
}

memory scalar(const engine &eng, float v) {
    memory m({{1}, dt::f32, tag::x}, eng);
    write(m, std::vector<float> {v});
    return m;
}

template <typename T>
T saturate_round(double v) {
    const double r = std::nearbyint(v);
    return static_cast<T>(std::min<double>(std::max<double>(r, std::numeric_limits<T>::min()),
            std::numeric_limits<T>::max()));
}

int run(engine::kind kind) {
    engine eng(kind, 0);
    stream s(eng);
    const memory::dims src_dims = {N, IC, H, W}, wei_dims = {OC, IC, K, K}, bia_dims = {OC},
                       dst_dims = {N, OC, OH, OW};

    // The model's f32 data.
    const auto x = random_vector(N * IC * H * W, 1, -0.2f, 1.8f);
    const auto w = random_vector(OC * IC * K * K, 2, -1.f, 1.f);
    const auto b = random_vector(OC, 3, -0.5f, 0.5f);
    std::vector<float> wei_scales(OC);
    for (memory::dim o = 0; o < OC; ++o) {
        float m = 0;
        for (memory::dim i = 0; i < IC * K * K; ++i)
            m = std::max(m, std::fabs(w[o * IC * K * K + i]));
        wei_scales[o] = m / 127.f;
    }

    memory user_src({src_dims, dt::f32, tag::nchw}, eng), user_wei({wei_dims, dt::f32, tag::oihw}, eng),
            user_bia({bia_dims, dt::f32, tag::x}, eng), user_dst({dst_dims, dt::f32, tag::nchw}, eng);
    write(user_src, x);
    write(user_wei, w);
    write(user_bia, b);

    // The convolution, layouts left to the library; scales and zero points given at execute.
    primitive_attr conv_attr;
    conv_attr.set_scales_mask(DNNL_ARG_SRC, 0);
    conv_attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1 << 0);
    conv_attr.set_scales_mask(DNNL_ARG_DST, 0);
    conv_attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
    post_ops ops;
    ops.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    conv_attr.set_post_ops(ops);
    convolution_forward::primitive_desc conv_pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, {src_dims, dt::u8, tag::any},
            {wei_dims, dt::s8, tag::any}, {bia_dims, dt::f32, tag::x}, {dst_dims, dt::s8, tag::any},
            {STRIDE, STRIDE}, {PAD, PAD}, {PAD, PAD}, conv_attr);

    // Quantize: src = x / SRC_SCALE + SRC_ZP as u8; weights per output channel as s8.
    memory src(conv_pd.src_desc(), eng), wei(conv_pd.weights_desc(), eng), dst(conv_pd.dst_desc(), eng);
    primitive_attr q_src_attr, q_wei_attr, dq_attr;
    q_src_attr.set_scales_mask(DNNL_ARG_DST, 0);
    q_src_attr.set_zero_points_mask(DNNL_ARG_DST, 0);
    q_wei_attr.set_scales_mask(DNNL_ARG_DST, 1 << 0);
    dq_attr.set_scales_mask(DNNL_ARG_SRC, 0);
    memory src_zp({{1}, dt::s32, tag::x}, eng);
    write(src_zp, std::vector<int32_t> {SRC_ZP});
    memory wei_scales_mem({{OC}, dt::f32, tag::x}, eng);
    write(wei_scales_mem, wei_scales);
    memory src_scale = scalar(eng, SRC_SCALE), dst_scale = scalar(eng, DST_SCALE);

    reorder(reorder::primitive_desc(user_src, src, q_src_attr))
            .execute(s, {{DNNL_ARG_FROM, user_src}, {DNNL_ARG_TO, src},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, src_scale},
                    {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, src_zp}});
    reorder(reorder::primitive_desc(user_wei, wei, q_wei_attr))
            .execute(s, {{DNNL_ARG_FROM, user_wei}, {DNNL_ARG_TO, wei},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, wei_scales_mem}});
    convolution_forward(conv_pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
            {DNNL_ARG_BIAS, user_bia}, {DNNL_ARG_DST, dst},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, src_scale},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, wei_scales_mem},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, dst_scale},
            {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, src_zp}});
    // Dequantize: dst_f32 = DST_SCALE * dst (into the application's plain layout).
    memory dst_plain_s8({dst_dims, dt::s8, tag::nchw}, eng);
    reorder(dst, dst_plain_s8).execute(s, dst, dst_plain_s8);
    reorder(reorder::primitive_desc(dst, user_dst, dq_attr))
            .execute(s, {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, user_dst},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, dst_scale}});
    s.wait();

    // The reference, quantizing the same way.
    std::vector<uint8_t> xq(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        xq[i] = saturate_round<uint8_t>(double(x[i]) / SRC_SCALE + SRC_ZP);
    std::vector<int8_t> wq(w.size());
    for (memory::dim o = 0; o < OC; ++o)
        for (memory::dim i = 0; i < IC * K * K; ++i)
            wq[o * IC * K * K + i] = saturate_round<int8_t>(double(w[o * IC * K * K + i]) / wei_scales[o]);
    const auto got = read<int8_t>(dst_plain_s8, N * OC * OH * OW);
    const auto got_f32 = read<float>(user_dst, N * OC * OH * OW);
    int bad = 0, off_by_one = 0;
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim o = 0; o < OC; ++o)
            for (memory::dim oh = 0; oh < OH; ++oh)
                for (memory::dim ow = 0; ow < OW; ++ow) {
                    int64_t acc = 0;
                    for (memory::dim i = 0; i < IC; ++i)
                        for (memory::dim kh = 0; kh < K; ++kh)
                            for (memory::dim kw = 0; kw < K; ++kw) {
                                const memory::dim ih = oh * STRIDE + kh - PAD,
                                                  iw = ow * STRIDE + kw - PAD;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                acc += (int64_t(xq[((n * IC + i) * H + ih) * W + iw]) - SRC_ZP)
                                        * wq[((o * IC + i) * K + kh) * K + kw];
                            }
                    const double f = double(SRC_SCALE) * wei_scales[o] * double(acc) + b[o];
                    const int8_t want = saturate_round<int8_t>(std::max(f, 0.0) / DST_SCALE);
                    const size_t at = ((n * OC + o) * OH + oh) * OW + ow;
                    const int diff = std::abs(int(got[at]) - int(want));
                    if (diff > 1 || got_f32[at] != DST_SCALE * float(got[at])) {
                        if (bad++ < 5)
                            std::printf("dst[%zu]: got %d (%g as f32), expected %d\n", at,
                                    int(got[at]), got_f32[at], int(want));
                    }
                    off_by_one += diff == 1;
                }
    std::printf("int8_conv_inference on %s: %lld outputs, %d off by one step, %d wrong\n",
            kind == engine::kind::cpu ? "cpu" : "gpu", (long long)(N * OC * OH * OW), off_by_one,
            bad);
    // Ties are rare: many off-by-one results would mean a systematic rounding difference.
    return bad == 0 && off_by_one * 100 <= N * OC * OH * OW ? 0 : 1;
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
