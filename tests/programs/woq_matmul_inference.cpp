// Weight-only-quantized matmul the way LLM inference writes it with oneDNN (weights
// decompression): activations stay f32 or bf16, the weights of a linear layer are 4-bit
// integers (s4 or u4, two to a byte) with one scale and one zero point per group of G input
// channels and per output channel, and the fpmath mode with apply_to_int lets the library
// compute in the activations' precision. Two layers: f32 activations with s4 weights stored
// N x K (transposed, as checkpoints hold them) and s8 zero points; bf16 activations with u4
// weights stored K x N, u4 zero points and f16 scales.
//
// Checked against plain loops that dequantize each weight, (q - zp) * scale, and multiply in
// double: f32 within 1e-5 of the size of the sum's terms, bf16 within 2e-2 (the bf16 rounding
// of activations, weights and results). Usage: woq_matmul_inference [cpu|gpu]; exits 0 when
// the results match, 1 when they do not, 77 when the engine is absent.
#include <cmath>
#include <cstdint>
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

const memory::dim M = 5, K = 256, N = 96, G = 32; // tokens, hidden, outputs, group size

float bf16_round(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    b += 0x7fff + ((b >> 16) & 1);
    b &= 0xffff0000u;
    std::memcpy(&f, &b, 4);
    return f;
}

uint16_t to_bf16(float f) {
    const float r = bf16_round(f);
    uint32_t b;
    std::memcpy(&b, &r, 4);
    return static_cast<uint16_t>(b >> 16);
}

float from_bf16(uint16_t h) {
    const uint32_t b = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

uint16_t to_f16(float f) {
    const _Float16 h = static_cast<_Float16>(f);
    uint16_t r;
    std::memcpy(&r, &h, 2);
    return r;
}

float from_f16(uint16_t v) {
    _Float16 h;
    std::memcpy(&h, &v, 2);
    return static_cast<float>(h);
}

void write_bytes(memory &m, const void *src, size_t n) {
    void *p = m.map_data();
    std::memcpy(p, src, n);
    m.unmap_data(p);
}

// 4-bit values, element i in the low nibble of byte i / 2 when i is even.
std::vector<uint8_t> pack_nibbles(const std::vector<int> &v) {
    std::vector<uint8_t> b((v.size() + 1) / 2, 0);
    for (size_t i = 0; i < v.size(); ++i)
        b[i / 2] |= static_cast<uint8_t>((v[i] & 0xf) << (i % 2 ? 4 : 0));
    return b;
}

struct layer_t {
    const char *name;
    dt act, wei, zp_dt, scale_dt;
    bool weights_nk; // stored N x K (format ba)
    fpmath_mode mode;
    double tolerance;
};

int run_layer(const engine &eng, stream &s, const layer_t &l) {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> act_dist(-1.f, 1.f), scale_dist(0.002f, 0.02f);
    const bool is_signed = l.wei == dt::s4;
    std::uniform_int_distribution<int> q_dist(is_signed ? -8 : 0, is_signed ? 7 : 15);
    std::uniform_int_distribution<int> zp_dist(is_signed ? -2 : 6, is_signed ? 2 : 9);

    // The model: activations, quantized weights q(k, n), per group scales and zero points.
    std::vector<float> x(M * K);
    for (auto &v : x)
        v = l.act == dt::bf16 ? bf16_round(act_dist(gen)) : act_dist(gen);
    std::vector<int> q(K * N), zp(K / G * N);
    std::vector<float> scale(K / G * N);
    for (auto &v : q)
        v = q_dist(gen);
    for (auto &v : zp)
        v = zp_dist(gen);
    for (auto &v : scale)
        v = l.scale_dt == dt::f16 ? from_f16(to_f16(scale_dist(gen))) : scale_dist(gen);

    // Library objects: weights in their storage order, parameters {K / G, N}.
    memory::desc src_md({M, K}, l.act, tag::ab);
    memory::desc wei_md({K, N}, l.wei, l.weights_nk ? tag::ba : tag::ab);
    memory::desc dst_md({M, N}, l.act, tag::ab);
    memory::desc scale_md({K / G, N}, l.scale_dt, tag::ab);
    memory::desc zp_md({K / G, N}, l.zp_dt, tag::ab);

    primitive_attr attr;
    attr.set_scales(DNNL_ARG_WEIGHTS, (1 << 0) | (1 << 1), {G, 1}, l.scale_dt);
    attr.set_zero_points(DNNL_ARG_WEIGHTS, (1 << 0) | (1 << 1), {G, 1}, l.zp_dt);
    attr.set_fpmath_mode(l.mode, true);
    matmul::primitive_desc pd(eng, src_md, wei_md, dst_md, attr);

    memory src(src_md, eng), wei(wei_md, eng), dst(dst_md, eng), sc(scale_md, eng),
            zpm(zp_md, eng);
    if (l.act == dt::bf16) {
        std::vector<uint16_t> b(x.size());
        for (size_t i = 0; i < x.size(); ++i)
            b[i] = to_bf16(x[i]);
        write_bytes(src, b.data(), b.size() * 2);
    } else {
        write_bytes(src, x.data(), x.size() * 4);
    }
    std::vector<int> stored(K * N);
    for (memory::dim k = 0; k < K; ++k)
        for (memory::dim n = 0; n < N; ++n)
            stored[l.weights_nk ? n * K + k : k * N + n] = q[k * N + n];
    const auto packed = pack_nibbles(stored);
    write_bytes(wei, packed.data(), packed.size());
    if (l.scale_dt == dt::f16) {
        std::vector<uint16_t> h(scale.size());
        for (size_t i = 0; i < h.size(); ++i)
            h[i] = to_f16(scale[i]);
        write_bytes(sc, h.data(), h.size() * 2);
    } else {
        write_bytes(sc, scale.data(), scale.size() * 4);
    }
    if (l.zp_dt == dt::s8) {
        std::vector<int8_t> z(zp.begin(), zp.end());
        write_bytes(zpm, z.data(), z.size());
    } else {
        const auto z = pack_nibbles(zp);
        write_bytes(zpm, z.data(), z.size());
    }

    matmul(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, sc},
            {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, zpm}});
    s.wait();

    std::vector<float> got(M * N);
    void *p = dst.map_data();
    for (memory::dim i = 0; i < M * N; ++i)
        got[i] = l.act == dt::bf16 ? from_bf16(static_cast<uint16_t *>(p)[i])
                                   : static_cast<float *>(p)[i];
    dst.unmap_data(p);

    // Plain loops: dequantize, multiply, compare against the size of the terms.
    long long bad = 0;
    double worst = 0;
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = 0, mag = 0;
            for (memory::dim k = 0; k < K; ++k) {
                const memory::dim g = (k / G) * N + n;
                const double w = (q[k * N + n] - zp[g]) * static_cast<double>(scale[g]);
                acc += x[m * K + k] * w;
                mag += std::fabs(x[m * K + k] * w);
            }
            const double err = std::fabs(got[m * N + n] - acc) / std::max(mag, 1e-3);
            worst = std::max(worst, err);
            if (!(err <= l.tolerance)) ++bad;
        }
    std::printf("%s: %s, %lld of %lld outputs beyond tolerance (worst relative error %.2e)\n",
            l.name, pd.impl_info_str(), bad, (long long)(M * N), worst);
    return bad == 0 ? 0 : 1;
}

int run(engine::kind kind) {
    engine eng(kind, 0);
    stream s(eng);
    const layer_t layers[] = {
            {"f32 x s4 (N x K storage, s8 zero points)", dt::f32, dt::s4, dt::s8, dt::f32, true,
                    fpmath_mode::strict, 1e-5},
            {"bf16 x u4 (K x N storage, u4 zero points, f16 scales)", dt::bf16, dt::u4, dt::u4,
                    dt::f16, false, fpmath_mode::bf16, 2e-2},
    };
    int rc = 0;
    for (const auto &l : layers)
        rc |= run_layer(eng, s, l);
    return rc;
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
