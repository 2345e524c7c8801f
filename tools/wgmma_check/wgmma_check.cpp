// bf16/f16 matmul on GPU engine 0 (ANYDNN_OCL_DEVICE picks the device):
//   wgmma_check check        fixed cases (tails in M, N, K; both layouts of each operand;
//                            batch and broadcast; f32 or 16-bit dst; bias) on random data,
//                            dst poisoned with NaN before the run, against a double
//                            reference; prints the implementation and the largest error.
//                            Values k/64 make f32 sums exact: f32 dst must match exactly.
//   wgmma_check perf M N K [reps]   bf16 row-major, bf16 dst: median wall time of one
//                            execution to completion, and of `reps` back-to-back ones.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

float half_to_float(uint16_t h) {
    const uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? std::ldexp(float(m), -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : std::ldexp(float(m | 1024), int(e) - 25);
    return s ? -v : v;
}
float bf16_to_float(uint16_t h) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
// Values of the form k/64 with |k| <= 64 are exact in bf16 and f16.
uint16_t exact16(float v, dt t) {
    if (t == dt::bf16) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        return uint16_t(u >> 16);
    }
    if (v == 0.f) return 0;
    int e = 0;
    const float m = std::frexp(std::fabs(v), &e); // v = m * 2^e, m in [0.5, 1)
    const uint16_t sign = v < 0 ? 0x8000 : 0;
    const int exp = e - 1 + 15;
    const uint16_t mant = uint16_t(std::lround((m * 2.f - 1.f) * 1024.f));
    return uint16_t(sign | (exp << 10) | mant);
}

struct case_t {
    int64_t batch_a, batch_b, M, N, K;
    dt type, dst_type;
    bool a_col, b_col, bias;
};

template <typename F>
void with_mapped(const memory &m, F f) {
    void *p = m.map_data<void>();
    f(p);
    m.unmap_data(p);
}

bool run_case(engine &eng, stream &s, const case_t &c, std::mt19937 &rng) {
    const int64_t B = std::max(c.batch_a, c.batch_b);
    const bool batched = B > 1 || c.batch_a != c.batch_b;
    auto md3 = [&](int64_t b, int64_t r, int64_t k, bool col, dt t) {
        if (!batched) return memory::desc({r, k}, t, col ? tag::ba : tag::ab);
        return memory::desc({b, r, k}, t, col ? tag::acb : tag::abc);
    };
    memory::desc a_md = md3(c.batch_a, c.M, c.K, c.a_col, c.type);
    memory::desc b_md = md3(c.batch_b, c.K, c.N, c.b_col, c.type);
    memory::desc c_md = md3(B, c.M, c.N, false, c.dst_type);
    memory::desc bias_md;
    if (c.bias)
        bias_md = batched ? memory::desc({1, 1, c.N}, dt::f32, tag::abc)
                          : memory::desc({1, c.N}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng, a_md, b_md, bias_md, c_md);
    const std::string impl = pd.impl_info_str();
    memory a(a_md, eng), b(b_md, eng), d(c_md, eng), bias;
    if (c.bias) bias = memory(bias_md, eng);

    std::uniform_int_distribution<int> dist(-64, 64);
    std::vector<double> av(c.batch_a * c.M * c.K), bv(c.batch_b * c.K * c.N), biasv(c.N, 0.0);
    // Logical order (batch, row, col); the memories may hold them transposed.
    auto fill = [&](const memory &m, std::vector<double> &v, int64_t nb, int64_t r, int64_t k,
                        bool col) {
        with_mapped(m, [&](void *p) {
            uint16_t *h = static_cast<uint16_t *>(p);
            for (int64_t ib = 0; ib < nb; ++ib)
                for (int64_t i = 0; i < r; ++i)
                    for (int64_t j = 0; j < k; ++j) {
                        const float x = dist(rng) / 64.f;
                        v[(ib * r + i) * k + j] = x;
                        h[ib * r * k + (col ? j * r + i : i * k + j)] = exact16(x, c.type);
                    }
        });
    };
    fill(a, av, c.batch_a, c.M, c.K, c.a_col);
    fill(b, bv, c.batch_b, c.K, c.N, c.b_col);
    if (c.bias)
        with_mapped(bias, [&](void *p) {
            for (int64_t n = 0; n < c.N; ++n)
                static_cast<float *>(p)[n] = float(biasv[n] = dist(rng) / 16.0);
        });
    const size_t dst_bytes = c_md.get_size();
    with_mapped(d, [&](void *p) { std::memset(p, 0xff, dst_bytes); }); // NaN everywhere

    matmul prim(pd);
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, d}};
    if (c.bias) args[DNNL_ARG_BIAS] = bias;
    prim.execute(s, args);
    s.wait();

    double worst = 0;
    int64_t bad = 0;
    with_mapped(d, [&](void *p) {
        for (int64_t ib = 0; ib < B; ++ib)
            for (int64_t m = 0; m < c.M; ++m)
                for (int64_t n = 0; n < c.N; ++n) {
                    const int64_t ia = c.batch_a > 1 ? ib : 0, jb = c.batch_b > 1 ? ib : 0;
                    double ref = biasv[n], mag = std::fabs(biasv[n]);
                    for (int64_t k = 0; k < c.K; ++k) {
                        const double x = av[(ia * c.M + m) * c.K + k] * bv[(jb * c.K + k) * c.N + n];
                        ref += x;
                        mag += std::fabs(x);
                    }
                    const int64_t i = (ib * c.M + m) * c.N + n;
                    double got;
                    if (c.dst_type == dt::f32) got = static_cast<float *>(p)[i];
                    else if (c.dst_type == dt::bf16) got = bf16_to_float(static_cast<uint16_t *>(p)[i]);
                    else got = half_to_float(static_cast<uint16_t *>(p)[i]);
                    // f32 accumulation, then rounding to the dst type.
                    const double rel = c.dst_type == dt::f32 ? 0.0
                            : c.dst_type == dt::bf16 ? 1.0 / 256 : 1.0 / 2048;
                    const double tol = rel * std::fabs(ref) + 2e-6 * mag + 1e-6;
                    const double err = std::fabs(got - ref);
                    if (!(err <= tol)) {
                        if (bad < 3)
                            std::printf("    b%lld m%lld n%lld: got %g want %g\n", (long long)ib,
                                    (long long)m, (long long)n, got, ref);
                        ++bad;
                    }
                    if (err == err) worst = std::max(worst, err / (tol > 0 ? tol : 1));
                }
    });
    std::printf("%s  b%lld/%lld %lldx%lldx%lld %s a:%s b:%s dst:%s%s  impl %s  worst err/tol "
                "%.3g  %lld bad\n",
            bad ? "FAIL" : "ok  ", (long long)c.batch_a, (long long)c.batch_b, (long long)c.M,
            (long long)c.N, (long long)c.K, c.type == dt::bf16 ? "bf16" : "f16",
            c.a_col ? "col" : "row", c.b_col ? "col" : "row",
            c.dst_type == dt::f32 ? "f32" : c.dst_type == dt::bf16 ? "bf16" : "f16",
            c.bias ? " bias" : "", impl.c_str(), worst, (long long)bad);
    return bad == 0;
}

int check(engine &eng, stream &s) {
    std::mt19937 rng(7);
    std::vector<case_t> cases;
    for (bool a_col : {false, true})
        for (bool b_col : {false, true}) {
            cases.push_back({1, 1, 256, 256, 256, dt::bf16, dt::f32, a_col, b_col, false});
            cases.push_back({1, 1, 200, 328, 136, dt::bf16, dt::bf16, a_col, b_col, false});
            cases.push_back({1, 1, 136, 264, 520, dt::f16, dt::f32, a_col, b_col, false});
        }
    cases.push_back({1, 1, 1, 8, 8, dt::bf16, dt::f32, false, false, false});
    cases.push_back({1, 1, 129, 257, 72, dt::bf16, dt::f32, false, false, true});
    cases.push_back({1, 1, 77, 331, 1000, dt::bf16, dt::bf16, false, false, false});
    cases.push_back({1, 1, 64, 64, 8, dt::f16, dt::f16, false, true, false});
    cases.push_back({3, 3, 130, 70, 96, dt::bf16, dt::f32, false, false, false});
    cases.push_back({3, 1, 100, 136, 200, dt::bf16, dt::bf16, true, false, true});
    cases.push_back({1, 4, 64, 200, 128, dt::f16, dt::f32, false, true, false});
    cases.push_back({1, 1, 512, 512, 2048, dt::bf16, dt::f32, false, false, false});
    // Few tiles, deep K: split along K (uneven slices, bias and conversion in the sum).
    cases.push_back({1, 1, 77, 96, 1000, dt::bf16, dt::f32, false, true, true});
    cases.push_back({2, 2, 100, 64, 1536, dt::bf16, dt::bf16, true, false, true});
    cases.push_back({1, 1, 128, 512, 4096, dt::f16, dt::f16, false, false, false});
    // Not for the wgmma kernel (rows of 100 elements are not 16-byte aligned): a fallback.
    cases.push_back({1, 1, 50, 60, 100, dt::bf16, dt::f32, false, false, false});
    int failed = 0;
    for (const case_t &c : cases)
        failed += !run_case(eng, s, c, rng);
    std::printf("%d of %zu cases failed\n", failed, cases.size());
    return failed ? 1 : 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int perf(engine &eng, stream &s, int64_t M, int64_t N, int64_t K, int reps) {
    memory::desc a_md({M, K}, dt::bf16, tag::ab), b_md({K, N}, dt::bf16, tag::ab),
            c_md({M, N}, dt::bf16, tag::ab);
    matmul::primitive_desc pd(eng, a_md, b_md, c_md);
    memory a(a_md, eng), b(b_md, eng), d(c_md, eng);
    with_mapped(a, [&](void *p) { std::memset(p, 0x3c, a_md.get_size()); });
    with_mapped(b, [&](void *p) { std::memset(p, 0x3c, b_md.get_size()); });
    auto t0 = std::chrono::steady_clock::now();
    matmul prim(pd);
    const double create_ms
            = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, d}};
    for (int i = 0; i < 3; ++i)
        prim.execute(s, args);
    s.wait();
    std::vector<double> one, many;
    for (int r = 0; r < 7; ++r) {
        for (int i = 0; i < 5; ++i) {
            auto t = std::chrono::steady_clock::now();
            prim.execute(s, args);
            s.wait();
            one.push_back(std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t).count());
        }
        auto t = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
            prim.execute(s, args);
        s.wait();
        many.push_back(std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - t).count() / reps);
    }
    const double flop = 2.0 * M * N * K;
    std::printf("PERF %lldx%lldx%lld bf16 impl %s create %.1f ms  one %.4f ms (%.1f TFLOP/s)  "
                "back-to-back %.4f ms (%.1f TFLOP/s)\n",
            (long long)M, (long long)N, (long long)K, pd.impl_info_str(), create_ms, median(one),
            flop / median(one) * 1e-9, median(many), flop / median(many) * 1e-9);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    try {
        engine eng(engine::kind::gpu, 0);
        stream s(eng);
        if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return check(eng, s);
        if (argc >= 5 && std::strcmp(argv[1], "perf") == 0)
            return perf(eng, s, std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                    argc > 5 ? std::atoi(argv[5]) : 20);
        std::fprintf(stderr, "usage: wgmma_check check | perf M N K [reps]\n");
        return 2;
    } catch (const dnnl::error &e) {
        std::printf("dnnl error %d: %s\n", int(e.status), e.what());
        return 1;
    }
}
