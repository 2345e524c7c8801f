// Concurrency stress: threads that create and execute primitives at the same time on one
// engine (the primitive cache and the kernel/program caches shared), one primitive executed
// on many streams, graphs compiled and executed from several threads, and engines and streams
// created and destroyed concurrently. Every result is checked against a plain reference.
//
//   anydnn_concurrency_stress [--engine=cpu|gpu] [--seconds=S] [--threads=T] [--scenario=NAME]
//
// Scenarios: create_execute, shared_stream, shared_primitive, engines_streams, graph, all (default). The GPU
// engine is the first OpenCL GPU-kind device, or the one ANYDNN_OCL_DEVICE names (PoCL here,
// the H100 with ANYDNN_OCL_DEVICE=NVIDIA). Exit status 0 when every check passed.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

struct options_t {
    dnnl::engine::kind kind = dnnl::engine::kind::cpu;
    double seconds = 2;
    int threads = 8;
    std::string scenario = "all";
};

std::atomic<long> checks {0}, failures {0}, errors {0};
std::mutex report_mutex;

void fail(const std::string &what) {
    ++failures;
    std::lock_guard<std::mutex> lock(report_mutex);
    if (failures <= 10) std::fprintf(stderr, "FAIL: %s\n", what.c_str());
}

// Deterministic inputs: small values, different per seed.
std::vector<float> values(size_t n, int seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<float>(static_cast<int>((i * 13 + seed * 7) % 17) - 8) * 0.125f;
    return v;
}

// Graph tensors on an OpenCL engine are USM pointers: their memories are USM there.
dnnl::memory new_memory(const dnnl::memory::desc &md, const dnnl::engine &e, bool usm = false) {
    if (usm && e.get_kind() == dnnl::engine::kind::gpu)
        return dnnl::ocl_interop::make_memory(md, e, dnnl::ocl_interop::memory_kind::usm);
    return dnnl::memory(md, e);
}

dnnl::memory filled(const dnnl::memory::desc &md, const dnnl::engine &e,
        const std::vector<float> &v, bool usm = false) {
    dnnl::memory m = new_memory(md, e, usm);
    float *p = m.map_data<float>();
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    m.unmap_data(p);
    return m;
}

std::vector<float> read(const dnnl::memory &m, size_t n) {
    std::vector<float> v(n);
    float *p = m.map_data<float>();
    std::memcpy(v.data(), p, n * sizeof(float));
    m.unmap_data(p);
    return v;
}

void expect_near(const std::vector<float> &got, const std::vector<float> &want,
        const std::string &what) {
    ++checks;
    for (size_t i = 0; i < want.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= 1e-4f * (1.f + std::fabs(want[i])))) {
            fail(what + ": element " + std::to_string(i) + " is " + std::to_string(got[i])
                    + ", expected " + std::to_string(want[i]));
            return;
        }
}

// Runs body(thread index, iteration) on `threads` threads until the time is up; a thrown
// dnnl::error counts as a failure.
void on_threads(const options_t &o, const std::function<void(int, long)> &body) {
    const auto end = std::chrono::steady_clock::now()
            + std::chrono::milliseconds(static_cast<long>(o.seconds * 1000));
    std::vector<std::thread> ts;
    for (int t = 0; t < o.threads; ++t)
        ts.emplace_back([&, t] {
            for (long it = 0; std::chrono::steady_clock::now() < end; ++it) {
                try {
                    body(t, it);
                } catch (const dnnl::error &e) {
                    ++errors;
                    fail(std::string("dnnl::error: ") + e.what());
                }
            }
        });
    for (auto &t : ts) t.join();
}

// One of a few small problems (shared between threads so that the caches hit and miss).
void eltwise_case(const dnnl::engine &e, dnnl::stream &s, int shape, int seed) {
    const dnnl::memory::dim n = 3 + shape * 5;
    const float alpha = 0.5f + shape, beta = -1.f;
    dnnl::memory::desc md({2, n}, dt::f32, tag::ab);
    dnnl::eltwise_forward::primitive_desc pd(e, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::eltwise_linear, md, md, alpha, beta);
    dnnl::eltwise_forward prim(pd);
    auto x = values(2 * n, seed);
    auto src = filled(md, e, x);
    dnnl::memory dst(md, e);
    prim.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = alpha * x[i] + beta;
    expect_near(read(dst, want.size()), want, "eltwise_linear " + std::to_string(n));
}

void binary_case(const dnnl::engine &e, dnnl::stream &s, int shape, int seed) {
    const dnnl::memory::dim n = 4 + shape * 3;
    dnnl::memory::desc md({n, 5}, dt::f32, tag::ab), md1({1, 5}, dt::f32, tag::ab);
    dnnl::binary::primitive_desc pd(e, dnnl::algorithm::binary_mul, md, md1, md);
    dnnl::binary prim(pd);
    auto a = values(n * 5, seed), b = values(5, seed + 1);
    auto m0 = filled(md, e, a), m1 = filled(md1, e, b);
    dnnl::memory dst(md, e);
    prim.execute(s, {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<float> want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = a[i] * b[i % 5];
    expect_near(read(dst, want.size()), want, "binary_mul " + std::to_string(n));
}

void matmul_case(const dnnl::engine &e, dnnl::stream &s, int shape, int seed) {
    const dnnl::memory::dim M = 3 + shape, K = 7, N = 5 + 2 * shape;
    dnnl::memory::desc a_md({M, K}, dt::f32, tag::ab), b_md({K, N}, dt::f32, tag::ab),
            c_md({M, N}, dt::f32, tag::ab);
    dnnl::matmul::primitive_desc pd(e, a_md, b_md, c_md);
    dnnl::matmul prim(pd);
    auto a = values(M * K, seed), b = values(K * N, seed + 3);
    auto ma = filled(a_md, e, a), mb = filled(b_md, e, b);
    dnnl::memory mc(c_md, e);
    prim.execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    s.wait();
    std::vector<float> want(M * N, 0.f);
    for (dnnl::memory::dim i = 0; i < M; ++i)
        for (dnnl::memory::dim j = 0; j < N; ++j)
            for (dnnl::memory::dim k = 0; k < K; ++k) want[i * N + j] += a[i * K + k] * b[k * N + j];
    expect_near(read(mc, want.size()), want, "matmul " + std::to_string(M));
}

void softmax_case(const dnnl::engine &e, dnnl::stream &s, int shape, int seed) {
    const dnnl::memory::dim n = 6 + shape;
    dnnl::memory::desc md({3, n}, dt::f32, tag::ab);
    dnnl::softmax_forward::primitive_desc pd(e, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::softmax_accurate, md, md, 1);
    dnnl::softmax_forward prim(pd);
    auto x = values(3 * n, seed);
    auto src = filled(md, e, x);
    dnnl::memory dst(md, e);
    prim.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<float> want(x.size());
    for (dnnl::memory::dim r = 0; r < 3; ++r) {
        float mx = -INFINITY, sum = 0;
        for (dnnl::memory::dim c = 0; c < n; ++c) mx = std::fmax(mx, x[r * n + c]);
        for (dnnl::memory::dim c = 0; c < n; ++c) sum += std::exp(x[r * n + c] - mx);
        for (dnnl::memory::dim c = 0; c < n; ++c) want[r * n + c] = std::exp(x[r * n + c] - mx) / sum;
    }
    expect_near(read(dst, want.size()), want, "softmax " + std::to_string(n));
}

// A convolution in the layouts the library picks (tag any): reorders in and out, zero
// padding of blocked layouts, and a scratchpad on some engines.
void conv_case(const dnnl::engine &e, dnnl::stream &s, int shape, int seed) {
    const dnnl::memory::dim N = 2, IC = 3 + shape, OC = 8 + 3 * shape, H = 5, W = 6;
    dnnl::memory::desc src_md({N, IC, H, W}, dt::f32, tag::nchw),
            w_md({OC, IC, 3, 3}, dt::f32, tag::oihw), dst_md({N, OC, H, W}, dt::f32, tag::nchw);
    auto any = [](const dnnl::memory::desc &md) {
        return dnnl::memory::desc(md.get_dims(), dt::f32, tag::any);
    };
    dnnl::convolution_forward::primitive_desc pd(e, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, any(src_md), any(w_md), any(dst_md), {1, 1},
            {1, 1}, {1, 1});
    auto x = values(N * IC * H * W, seed), w = values(OC * IC * 9, seed + 5);
    auto src = filled(src_md, e, x), wei = filled(w_md, e, w);
    dnnl::memory csrc(pd.src_desc(), e), cwei(pd.weights_desc(), e), cdst(pd.dst_desc(), e);
    dnnl::reorder(src, csrc).execute(s, src, csrc);
    dnnl::reorder(wei, cwei).execute(s, wei, cwei);
    dnnl::convolution_forward(pd).execute(
            s, {{DNNL_ARG_SRC, csrc}, {DNNL_ARG_WEIGHTS, cwei}, {DNNL_ARG_DST, cdst}});
    dnnl::memory dst(dst_md, e);
    dnnl::reorder(cdst, dst).execute(s, cdst, dst);
    s.wait();
    std::vector<float> want(N * OC * H * W, 0.f);
    for (int n = 0; n < N; ++n)
        for (int oc = 0; oc < OC; ++oc)
            for (int oh = 0; oh < H; ++oh)
                for (int ow = 0; ow < W; ++ow) {
                    float acc = 0;
                    for (int ic = 0; ic < IC; ++ic)
                        for (int kh = 0; kh < 3; ++kh)
                            for (int kw = 0; kw < 3; ++kw) {
                                const int ih = oh + kh - 1, iw = ow + kw - 1;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                acc += x[((n * IC + ic) * H + ih) * W + iw]
                                        * w[((oc * IC + ic) * 3 + kh) * 3 + kw];
                            }
                    want[((n * OC + oc) * H + oh) * W + ow] = acc;
                }
    expect_near(read(dst, want.size()), want, "convolution " + std::to_string(IC));
}

using case_t = void (*)(const dnnl::engine &, dnnl::stream &, int, int);
const case_t cases[] = {eltwise_case, binary_case, matmul_case, softmax_case, conv_case};
constexpr int n_cases = sizeof(cases) / sizeof(cases[0]);

// Every thread creates (cache hits and misses alike) and executes on its own stream.
void create_execute(const options_t &o, const dnnl::engine &e) {
    std::vector<dnnl::stream> streams;
    for (int t = 0; t < o.threads; ++t) streams.emplace_back(e);
    on_threads(o, [&](int t, long it) {
        const int pick = static_cast<int>((t * 7 + it) % (3 * n_cases));
        cases[pick % n_cases](e, streams[t], pick / n_cases, t + static_cast<int>(it));
    });
}

// Every thread creates and executes on one stream of the engine, as oneDNN allows for
// device streams (each thread waits for the stream before it reads its results).
void shared_stream(const options_t &o, const dnnl::engine &e) {
    dnnl::stream s(e);
    on_threads(o, [&](int t, long it) {
        const int pick = static_cast<int>((t * 7 + it) % (3 * n_cases));
        cases[pick % n_cases](e, s, pick / n_cases, t + static_cast<int>(it));
    });
}

// One primitive, executed by every thread on a stream of its own.
void shared_primitive(const options_t &o, const dnnl::engine &e) {
    const dnnl::memory::dim M = 9, K = 11, N = 13;
    dnnl::memory::desc a_md({M, K}, dt::f32, tag::ab), b_md({K, N}, dt::f32, tag::ab),
            c_md({M, N}, dt::f32, tag::ab);
    dnnl::matmul prim(dnnl::matmul::primitive_desc(e, a_md, b_md, c_md));
    std::vector<dnnl::stream> streams;
    for (int t = 0; t < o.threads; ++t) streams.emplace_back(e);
    on_threads(o, [&](int t, long it) {
        auto a = values(M * K, t), b = values(K * N, static_cast<int>(it));
        auto ma = filled(a_md, e, a), mb = filled(b_md, e, b);
        dnnl::memory mc(c_md, e);
        prim.execute(streams[t], {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
        streams[t].wait();
        std::vector<float> want(M * N, 0.f);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j)
                for (int k = 0; k < K; ++k) want[i * N + j] += a[i * K + k] * b[k * N + j];
        expect_near(read(mc, want.size()), want, "shared matmul");
    });
}

// Engines (CPU: a new one each time; GPU: new engines of the same device) and streams made
// and dropped while other threads do the same.
void engines_streams(const options_t &o, const dnnl::engine &) {
    on_threads(o, [&](int t, long it) {
        dnnl::engine e(o.kind, 0);
        for (int k = 0; k < 3; ++k) {
            dnnl::stream s(e);
            cases[(t + k + it) % n_cases](e, s, static_cast<int>(it % 3), t + k);
        }
    });
}

// A graph (matmul, then add and relu) built, compiled and run by every thread.
void graph_case(const options_t &o, const dnnl::engine &e) {
    using namespace dnnl::graph;
    using ldt = logical_tensor::data_type;
    using lay = logical_tensor::layout_type;
    std::vector<dnnl::stream> streams;
    for (int t = 0; t < o.threads; ++t) streams.emplace_back(e);
    on_threads(o, [&](int t, long it) {
        const int64_t M = 4 + (it % 3), K = 6, N = 5;
        logical_tensor a(0, ldt::f32, {M, K}, lay::strided), b(1, ldt::f32, {K, N}, lay::strided),
                c(2, ldt::f32, {M, N}, lay::strided), d(3, ldt::f32, {M, N}, lay::strided),
                sum(4, ldt::f32, {M, N}, lay::strided), out(5, ldt::f32, {M, N}, lay::strided);
        op mm(0, op::kind::MatMul, {a, b}, {c}, "mm");
        op add(1, op::kind::Add, {c, d}, {sum}, "add");
        op relu(2, op::kind::ReLU, {sum}, {out}, "relu");
        graph g(e.get_kind());
        g.add_op(mm);
        g.add_op(add);
        g.add_op(relu);
        g.finalize();
        auto parts = g.get_partitions();
        auto x = values(M * K, t), w = values(K * N, static_cast<int>(it)), y = values(M * N, t + 2);
        std::vector<float> want(M * N);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                float acc = 0;
                for (int k = 0; k < K; ++k) acc += x[i * K + k] * w[k * N + j];
                want[i * N + j] = std::fmax(0.f, acc + y[i * N + j]);
            }
        // Intermediate values of unfused partitions live in memories of the engine.
        std::vector<dnnl::memory> mems;
        std::map<size_t, dnnl::memory> by_id;
        auto mem_of = [&](const logical_tensor &lt, const std::vector<float> *init) {
            auto it2 = by_id.find(lt.get_id());
            if (it2 != by_id.end()) return it2->second;
            dnnl::memory::desc md({lt.get_dims()}, dt::f32, tag::ab);
            dnnl::memory m = init ? filled(md, e, *init, true) : new_memory(md, e, true);
            by_id[lt.get_id()] = m;
            return m;
        };
        mem_of(a, &x), mem_of(b, &w), mem_of(d, &y);
        for (auto &p : parts) {
            if (!p.is_supported()) {
                fail("graph partition not supported");
                return;
            }
            auto ins = p.get_input_ports(), outs = p.get_output_ports();
            compiled_partition cp = p.compile(ins, outs, e);
            std::vector<tensor> tin, tout;
            for (auto &lt : ins) tin.emplace_back(lt, e, mem_of(lt, nullptr).get_data_handle());
            for (auto &lt : outs) tout.emplace_back(lt, e, mem_of(lt, nullptr).get_data_handle());
            cp.execute(streams[t], tin, tout);
        }
        streams[t].wait();
        expect_near(read(mem_of(out, nullptr), want.size()), want, "graph matmul+add+relu");
    });
}

bool parse(int argc, char **argv, options_t &o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&](const char *key) -> const char * {
            size_t n = std::strlen(key);
            return a.compare(0, n, key) == 0 ? a.c_str() + n : nullptr;
        };
        if (const char *v = val("--engine=")) {
            if (std::strcmp(v, "gpu") == 0) o.kind = dnnl::engine::kind::gpu;
            else if (std::strcmp(v, "cpu") != 0) return false;
        } else if (const char *v = val("--seconds=")) {
            o.seconds = std::atof(v);
        } else if (const char *v = val("--threads=")) {
            o.threads = std::atoi(v);
        } else if (const char *v = val("--scenario=")) {
            o.scenario = v;
        } else {
            return false;
        }
    }
    return o.threads > 0 && o.seconds >= 0;
}

} // namespace

int main(int argc, char **argv) {
    options_t o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: %s [--engine=cpu|gpu] [--seconds=S] [--threads=T] "
                "[--scenario=create_execute|shared_stream|shared_primitive|engines_streams|graph|all]\n", argv[0]);
        return 2;
    }
    if (dnnl::engine::get_count(o.kind) == 0) {
        std::printf("no %s engine: skipped\n", o.kind == dnnl::engine::kind::gpu ? "gpu" : "cpu");
        return 77;
    }
    dnnl::engine e(o.kind, 0);
    struct { const char *name; void (*run)(const options_t &, const dnnl::engine &); } all[] = {
            {"create_execute", create_execute}, {"shared_stream", shared_stream},
            {"shared_primitive", shared_primitive},
            {"engines_streams", engines_streams}, {"graph", graph_case}};
    bool any = false;
    for (auto &s : all) {
        if (o.scenario != "all" && o.scenario != s.name) continue;
        any = true;
        const long before = checks;
        s.run(o, e);
        std::printf("%s: %ld checks\n", s.name, checks - before);
        std::fflush(stdout);
    }
    if (!any) return 2;
    std::printf("%ld checks, %ld failures (%ld errors) on %d threads, %.1f s per scenario\n",
            checks.load(), failures.load(), errors.load(), o.threads, o.seconds);
    return failures == 0 ? 0 : 1;
}
