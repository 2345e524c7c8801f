// Constant tensor cache: constant weights packed once for their primitive and reused by later
// executions (counted through ONEDNN_VERBOSE exec lines: the packing reorder runs only when
// the cache has no copy), new weights buffers and disabled / full caches repack every time.
#include <string>

#include "graph_runner.hpp"

using namespace graph_test;

namespace {

constexpr int64_t M = 8, K = 64, N = 48;

std::vector<float> ref_matmul(const std::vector<float> &a, const std::vector<float> &b) {
    std::vector<float> c(M * N);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            double acc = 0;
            for (int64_t k = 0; k < K; ++k)
                acc += double(a[m * K + k]) * b[k * N + n];
            c[m * N + n] = float(acc);
        }
    return c;
}

size_t count(const std::string &text, const std::string &word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
        ++n;
    return n;
}

// MatMul with constant weights, compiled once on the CPU engine.
struct constant_matmul_t {
    dnnl::engine eng{dnnl::engine::kind::cpu, 0};
    dnnl::stream strm{eng};
    logical_tensor src = lt(0, {M, K});
    logical_tensor wei{1, dt::f32, {K, N}, logical_tensor::layout_type::strided,
            logical_tensor::property_type::constant};
    logical_tensor dst = lt(2, {M, N});
    compiled_partition cp;
    std::vector<float> a = random_floats(M * K, 1);

    constant_matmul_t() {
        graph g(dnnl::engine::kind::cpu);
        g.add_op(op(0, op::kind::MatMul, {src, wei}, {dst}, "mm"));
        g.finalize();
        auto parts = g.get_partitions();
        EXPECT_EQ(parts.size(), 1u);
        cp = parts[0].compile({src, wei}, {dst}, eng);
    }

    // Executes with weights b (at its own address) and returns how many reorders ran.
    size_t run(std::vector<float> &b, const char *what) {
        std::vector<float> c(M * N, -1.f);
        tensor ts(src, eng, a.data()), tw(wei, eng, b.data()), td(dst, eng, c.data());
        dnnl_set_verbose(1);
        testing::internal::CaptureStdout();
        cp.execute(strm, {ts, tw}, {td});
        strm.wait();
        const std::string out = testing::internal::GetCapturedStdout();
        dnnl_set_verbose(0);
        expect_close(c, ref_matmul(a, b), 1e-5f, what);
        return count(out, ",reorder,");
    }
};

struct cache_settings_t { // restores the process-wide settings a test changes
    int flag = get_constant_tensor_cache();
    size_t capacity = get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu);
    ~cache_settings_t() {
        set_constant_tensor_cache(flag);
        set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, capacity);
    }
};

} // namespace

TEST(constant_cache, second_execution_skips_the_weights_packing) {
    cache_settings_t keep;
    set_constant_tensor_cache(1);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 64);
    constant_matmul_t mm;
    std::vector<float> b = random_floats(K * N, 2);
    // The weights are packed at all (else this test checks nothing).
    EXPECT_EQ(mm.run(b, "first execution"), 1u);
    EXPECT_EQ(mm.run(b, "second execution"), 0u);
    EXPECT_EQ(mm.run(b, "third execution"), 0u);
}

TEST(constant_cache, another_weights_buffer_is_packed_again) {
    cache_settings_t keep;
    set_constant_tensor_cache(1);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 64);
    constant_matmul_t mm;
    std::vector<float> b1 = random_floats(K * N, 3), b2 = random_floats(K * N, 4);
    EXPECT_EQ(mm.run(b1, "weights 1"), 1u);
    EXPECT_EQ(mm.run(b2, "weights 2"), 1u);
    EXPECT_EQ(mm.run(b1, "weights 1 again"), 0u);
    EXPECT_EQ(mm.run(b2, "weights 2 again"), 0u);
}

TEST(constant_cache, disabled_or_zero_capacity_packs_every_execution) {
    cache_settings_t keep;
    constant_matmul_t mm;
    std::vector<float> b = random_floats(K * N, 5);
    set_constant_tensor_cache(0);
    EXPECT_EQ(mm.run(b, "disabled 1"), 1u);
    EXPECT_EQ(mm.run(b, "disabled 2"), 1u);
    set_constant_tensor_cache(1);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 0);
    EXPECT_EQ(mm.run(b, "capacity 0 (1)"), 1u);
    EXPECT_EQ(mm.run(b, "capacity 0 (2)"), 1u);
    // Setting a capacity flushes: the first execution after it packs again.
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 64);
    EXPECT_EQ(mm.run(b, "capacity 64 (1)"), 1u);
    EXPECT_EQ(mm.run(b, "capacity 64 (2)"), 0u);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 64);
    EXPECT_EQ(mm.run(b, "after a flush"), 1u);
}

TEST(constant_cache, variable_weights_are_never_cached) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    runner_t r(eng);
    graph g(dnnl::engine::kind::cpu);
    g.add_op(op(0, op::kind::MatMul, {lt(0, {M, K}), lt(1, {K, N})}, {lt(2, {M, N})}, "mm"));
    g.finalize();
    const auto a = random_floats(M * K, 6);
    r.set(0, a);
    for (unsigned seed : {7u, 8u}) { // new weights in the same buffer
        const auto b = random_floats(K * N, seed);
        r.set(1, b);
        r.run(g, partition::policy::fusion);
        expect_close(r.get<float>(2), ref_matmul(a, b), 1e-5f, "variable weights");
    }
}
