// bf16/f16 matmul on GPU engine 0 (ANYDNN_OCL_DEVICE picks the device):
//   wgmma_check check        fixed cases (tails in M, N, K; both layouts of each operand;
//                            batch and broadcast; f32 or 16-bit dst; bias) on random data,
//                            dst poisoned with NaN before the run, against a double
//                            reference; prints the implementation and the largest error.
//                            Values k/64 make f32 sums exact: f32 dst must match exactly.
//                            Epilogue cases add scales (src, dst common; weights per N),
//                            a sum (dst filled with known values) and an eltwise.
//   wgmma_check concurrent   one split-K primitive executed by two threads, each with its
//                            own stream and data, many times at once; both checked.
//   wgmma_check perf M N K [reps [epi]]   bf16 row-major, bf16 dst: median wall time of one
//                            execution to completion, and of `reps` back-to-back ones;
//                            `epi`: with a src scale, a sum and gelu_erf.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
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

// The epilogue of a case: scales (0: none), a sum (0: none; its scale), an eltwise.
struct epilogue_t {
    float src_scale = 0.f, dst_scale = 0.f;
    bool wei_per_n = false; // per-N weights scales (powers of two)
    float sum = 0.f;
    bool sum_first = true; // the sum before the eltwise
    algorithm elt = algorithm::undef;
    float alpha = 0.f;
    std::string str() const {
        std::string s;
        if (src_scale) s += " src_scale";
        if (wei_per_n) s += " wei_scale/n";
        if (dst_scale) s += " dst_scale";
        if (sum && sum_first) s += " sum";
        if (elt == algorithm::eltwise_relu) s += " relu";
        if (elt == algorithm::eltwise_gelu_erf) s += " gelu_erf";
        if (elt == algorithm::eltwise_gelu_tanh) s += " gelu_tanh";
        if (elt == algorithm::eltwise_swish) s += " swish";
        if (sum && !sum_first) s += " sum";
        return s;
    }
};

double eltwise_ref(algorithm a, double x, double alpha) {
    switch (a) {
        case algorithm::eltwise_relu: return x > 0 ? x : alpha * x;
        case algorithm::eltwise_gelu_erf: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
        case algorithm::eltwise_gelu_tanh:
            return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * x * (1 + 0.044715 * x * x)));
        case algorithm::eltwise_swish: return x / (1 + std::exp(-alpha * x));
        default: return x;
    }
}

template <typename F>
void with_mapped(const memory &m, F f) {
    void *p = m.map_data<void>();
    f(p);
    m.unmap_data(p);
}

bool run_case(engine &eng, stream &s, const case_t &c, std::mt19937 &rng,
        const epilogue_t &e = epilogue_t()) {
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
    primitive_attr attr;
    post_ops po;
    if (e.sum && e.sum_first) po.append_sum(e.sum);
    if (e.elt != algorithm::undef) po.append_eltwise(e.elt, e.alpha, 0.f);
    if (e.sum && !e.sum_first) po.append_sum(e.sum);
    attr.set_post_ops(po);
    const int n_mask = 1 << (batched ? 2 : 1);
    if (e.src_scale) attr.set_scales_mask(DNNL_ARG_SRC, 0);
    if (e.wei_per_n) attr.set_scales_mask(DNNL_ARG_WEIGHTS, n_mask);
    if (e.dst_scale) attr.set_scales_mask(DNNL_ARG_DST, 0);
    matmul::primitive_desc pd(eng, a_md, b_md, bias_md, c_md, attr);
    const std::string impl = pd.impl_info_str();
    memory a(a_md, eng), b(b_md, eng), d(c_md, eng), bias;
    if (c.bias) bias = memory(bias_md, eng);
    auto scalar = [&](float v) {
        memory m(memory::desc({1}, dt::f32, tag::a), eng);
        with_mapped(m, [&](void *p) { *static_cast<float *>(p) = v; });
        return m;
    };
    std::vector<double> wscale(c.N, 1.0);
    memory wscale_m;
    if (e.wei_per_n) {
        wscale_m = memory(memory::desc({c.N}, dt::f32, tag::a), eng);
        std::uniform_int_distribution<int> pow2(-2, 1);
        with_mapped(wscale_m, [&](void *p) {
            for (int64_t n = 0; n < c.N; ++n)
                static_cast<float *>(p)[n] = float(wscale[n] = std::ldexp(1.0, pow2(rng)));
        });
    }

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
    const int64_t c_elems = B * c.M * c.N;
    std::vector<double> old(c_elems, 0.0);
    if (e.sum) { // dst's values before: k/64, exact in every dst type
        with_mapped(d, [&](void *p) {
            for (int64_t i = 0; i < c_elems; ++i) {
                const float x = dist(rng) / 64.f;
                old[i] = x;
                if (c.dst_type == dt::f32) static_cast<float *>(p)[i] = x;
                else static_cast<uint16_t *>(p)[i] = exact16(x, c.dst_type);
            }
        });
    } else {
        with_mapped(d, [&](void *p) { std::memset(p, 0xff, dst_bytes); }); // NaN everywhere
    }

    matmul prim(pd);
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, d}};
    if (c.bias) args[DNNL_ARG_BIAS] = bias;
    if (e.src_scale) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = scalar(e.src_scale);
    if (e.wei_per_n) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS] = wscale_m;
    if (e.dst_scale) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = scalar(e.dst_scale);
    prim.execute(s, args);
    s.wait();

    double worst = 0;
    int64_t bad = 0;
    with_mapped(d, [&](void *p) {
        for (int64_t ib = 0; ib < B; ++ib)
            for (int64_t m = 0; m < c.M; ++m)
                for (int64_t n = 0; n < c.N; ++n) {
                    const int64_t ia = c.batch_a > 1 ? ib : 0, jb = c.batch_b > 1 ? ib : 0;
                    double acc = 0, mag = std::fabs(biasv[n]);
                    for (int64_t k = 0; k < c.K; ++k) {
                        const double x = av[(ia * c.M + m) * c.K + k] * bv[(jb * c.K + k) * c.N + n];
                        acc += x;
                        mag += std::fabs(x);
                    }
                    const int64_t i = (ib * c.M + m) * c.N + n;
                    const double ab = (e.src_scale ? e.src_scale : 1.0) * wscale[n];
                    double ref = acc * ab + biasv[n];
                    mag *= ab;
                    if (e.sum && e.sum_first) ref += e.sum * old[i];
                    ref = eltwise_ref(e.elt, ref, e.alpha);
                    if (e.sum && !e.sum_first) ref += e.sum * old[i];
                    if (e.dst_scale) ref /= e.dst_scale, mag /= e.dst_scale;
                    // The eltwise functions in f32: a few ulps of the value.
                    if (e.elt != algorithm::undef) mag += 4 * std::fabs(ref) + 1;
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
    std::printf("%s  b%lld/%lld %lldx%lldx%lld %s a:%s b:%s dst:%s%s%s  impl %s  worst err/tol "
                "%.3g  %lld bad\n",
            bad ? "FAIL" : "ok  ", (long long)c.batch_a, (long long)c.batch_b, (long long)c.M,
            (long long)c.N, (long long)c.K, c.type == dt::bf16 ? "bf16" : "f16",
            c.a_col ? "col" : "row", c.b_col ? "col" : "row",
            c.dst_type == dt::f32 ? "f32" : c.dst_type == dt::bf16 ? "bf16" : "f16",
            c.bias ? " bias" : "", e.str().c_str(), impl.c_str(), worst, (long long)bad);
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
    // The epilogue: through the _epi kernels (many tiles) and the split-K sum (few, deep K).
    std::vector<epilogue_t> epis;
    epilogue_t e;
    e.src_scale = 0.5f, e.dst_scale = 4.f, e.wei_per_n = true;
    epis.push_back(e); // scales alone
    e = epilogue_t();
    e.sum = 1.f;
    epis.push_back(e); // sum alone
    const algorithm elts[] = {algorithm::eltwise_relu, algorithm::eltwise_gelu_erf,
            algorithm::eltwise_gelu_tanh, algorithm::eltwise_swish};
    for (int i = 0; i < 4; ++i) {
        e = epilogue_t();
        e.elt = elts[i];
        e.alpha = i == 0 ? 0.125f : i == 3 ? 0.75f : 0.f;
        e.src_scale = i % 2 ? 2.f : 0.f;
        e.wei_per_n = i >= 2;
        e.dst_scale = i == 1 ? 0.5f : 0.f;
        e.sum = i == 2 ? 0.5f : i == 3 ? 1.f : 0.f;
        e.sum_first = i != 3;
        epis.push_back(e);
    }
    const case_t epi_cases[] = {
            {1, 1, 200, 328, 136, dt::bf16, dt::bf16, false, false, true},
            {1, 1, 136, 264, 520, dt::f16, dt::f32, true, true, false},
            {2, 2, 130, 1000, 256, dt::bf16, dt::f32, false, true, true},
            {1, 1, 77, 96, 1000, dt::bf16, dt::bf16, false, true, true}, // split K
            {2, 1, 100, 64, 1536, dt::f16, dt::f16, true, false, false}, // split K, batch
    };
    int epi_count = 0;
    for (const case_t &c : epi_cases)
        for (const epilogue_t &ep : epis) {
            failed += !run_case(eng, s, c, rng, ep);
            ++epi_count;
        }
    std::printf("%d of %zu cases failed\n", failed, cases.size() + epi_count);
    return failed ? 1 : 0;
}

// One split-K primitive (f32 slices in the scratchpad), two threads with a stream each and
// their own data, `reps` rounds of three executions; every round's dst checked.
int concurrent(engine &eng, int reps) {
    const int64_t M = 128, N = 256, K = 4096;
    memory::desc a_md({M, K}, dt::bf16, tag::ab), b_md({K, N}, dt::bf16, tag::ab),
            c_md({M, N}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng, a_md, b_md, c_md);
    matmul prim(pd);
    int bad[2] = {0, 0};
    auto worker = [&](int t) {
        stream s(eng);
        std::mt19937 rng(100 + t);
        std::uniform_int_distribution<int> dist(-64, 64);
        std::vector<double> av(M * K), bv(K * N), ref(M * N, 0.0);
        memory a(a_md, eng), b(b_md, eng), d(c_md, eng);
        with_mapped(a, [&](void *p) {
            for (int64_t i = 0; i < M * K; ++i)
                static_cast<uint16_t *>(p)[i] = exact16(float(av[i] = dist(rng) / 64.0), dt::bf16);
        });
        with_mapped(b, [&](void *p) {
            for (int64_t i = 0; i < K * N; ++i)
                static_cast<uint16_t *>(p)[i] = exact16(float(bv[i] = dist(rng) / 64.0), dt::bf16);
        });
        for (int64_t m = 0; m < M; ++m)
            for (int64_t k = 0; k < K; ++k)
                for (int64_t n = 0; n < N; ++n)
                    ref[m * N + n] += av[m * K + k] * bv[k * N + n];
        std::unordered_map<int, memory> args
                = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, d}};
        for (int r = 0; r < reps; ++r) {
            with_mapped(d, [&](void *p) { std::memset(p, 0xff, c_md.get_size()); });
            for (int i = 0; i < 3; ++i)
                prim.execute(s, args);
            s.wait();
            with_mapped(d, [&](void *p) {
                for (int64_t i = 0; i < M * N; ++i) // exact: k/64 products, f32 sums of 4096
                    if (!(std::fabs(static_cast<float *>(p)[i] - ref[i]) <= 1e-3)) ++bad[t];
            });
        }
    };
    std::thread t0(worker, 0), t1(worker, 1);
    t0.join();
    t1.join();
    std::printf("%s  concurrent %lldx%lldx%lld bf16->f32 impl %s: two streams x %d rounds, "
                "%d + %d wrong elements\n",
            bad[0] + bad[1] ? "FAIL" : "ok  ", (long long)M, (long long)N, (long long)K,
            pd.impl_info_str(), reps, bad[0], bad[1]);
    return bad[0] + bad[1] ? 1 : 0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int perf(engine &eng, stream &s, int64_t M, int64_t N, int64_t K, int reps, bool epi) {
    memory::desc a_md({M, K}, dt::bf16, tag::ab), b_md({K, N}, dt::bf16, tag::ab),
            c_md({M, N}, dt::bf16, tag::ab);
    // epi: a src scale, a sum and gelu_erf, the epilogue's work at its heaviest.
    primitive_attr attr;
    if (epi) {
        post_ops po;
        po.append_sum(1.f);
        po.append_eltwise(algorithm::eltwise_gelu_erf, 0.f, 0.f);
        attr.set_post_ops(po);
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
    }
    matmul::primitive_desc pd(eng, a_md, b_md, c_md, attr);
    memory a(a_md, eng), b(b_md, eng), d(c_md, eng);
    memory scale(memory::desc({1}, dt::f32, tag::a), eng);
    with_mapped(scale, [&](void *p) { *static_cast<float *>(p) = 0.5f; });
    with_mapped(d, [&](void *p) { std::memset(p, 0, c_md.get_size()); });
    with_mapped(a, [&](void *p) { std::memset(p, 0x3c, a_md.get_size()); });
    with_mapped(b, [&](void *p) { std::memset(p, 0x3c, b_md.get_size()); });
    auto t0 = std::chrono::steady_clock::now();
    matmul prim(pd);
    const double create_ms
            = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, d}};
    if (epi) args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = scale;
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
    std::printf("PERF %lldx%lldx%lld bf16%s impl %s create %.1f ms  one %.4f ms (%.1f TFLOP/s)  "
                "back-to-back %.4f ms (%.1f TFLOP/s)\n",
            (long long)M, (long long)N, (long long)K, epi ? " +scale,sum,gelu_erf" : "",
            pd.impl_info_str(), create_ms, median(one),
            flop / median(one) * 1e-9, median(many), flop / median(many) * 1e-9);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    try {
        engine eng(engine::kind::gpu, 0);
        stream s(eng);
        if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return check(eng, s);
        if (argc >= 2 && std::strcmp(argv[1], "concurrent") == 0)
            return concurrent(eng, argc > 2 ? std::atoi(argv[2]) : 20);
        if (argc >= 5 && std::strcmp(argv[1], "perf") == 0)
            return perf(eng, s, std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                    argc > 5 ? std::atoi(argv[5]) : 20, argc > 6 && !std::strcmp(argv[6], "epi"));
        std::fprintf(stderr,
                "usage: wgmma_check check | concurrent [reps] | perf M N K [reps [epi]]\n");
        return 2;
    } catch (const dnnl::error &e) {
        std::printf("dnnl error %d: %s\n", int(e.status), e.what());
        return 1;
    }
}
