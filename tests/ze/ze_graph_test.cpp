// Graph partitions on a Level Zero engine (the test driver, over OpenCL on PoCL or Intel's CPU
// runtime): a fused matmul + ReLU and an attention partition (multi-query: one K/V head for
// two query heads, causal mask), as the fused kernel and as the primitive sequence whose
// temporaries come from the engine's USM, against the double references shared with the
// other tests (primitives/matmul_ref.hpp, graph/sdpa_ref.hpp); a stream of another driver's
// engine is refused.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "graph/sdpa_ref.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "primitives/matmul_ref.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using dims = logical_tensor::dims;

logical_tensor lt(size_t id, const dims &d) {
    return logical_tensor(id, dt::f32, d, logical_tensor::layout_type::strided);
}

size_t nelems(const dims &d) {
    size_t n = 1;
    for (auto x : d)
        n *= static_cast<size_t>(x);
    return n;
}

// Values in [-1, 1) that differ from element to element and from seed to seed.
std::vector<float> values(size_t n, int seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = float((i * 29 + static_cast<size_t>(seed) * 13) % 64) / 32.f - 1.f;
    return v;
}

void drop_compiled_partitions() {
    const int capacity = get_compiled_partition_cache_capacity();
    set_compiled_partition_cache_capacity(0);
    set_compiled_partition_cache_capacity(capacity);
}

class ze_graph : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const auto &d = drivers[0];
        eng = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
        strm = dnnl::stream(eng);
    }
    void TearDown() override {
        unsetenv("ANYDNN_GRAPH_SDPA_UNFUSED");
        held.clear();
        strm = dnnl::stream();
        eng = dnnl::engine();
        drop_compiled_partitions(); // they keep the engine, which must go before the context
        ze_app_t::TearDown();
    }

    // USM of the engine (a memory object of the library's, kept for the test) holding `v`.
    void *device_buffer(const std::vector<float> &v) {
        const dnnl::memory::dim n = static_cast<dnnl::memory::dim>(std::max<size_t>(v.size(), 1));
        dnnl::memory m({{n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a}, eng);
        auto *p = static_cast<float *>(m.map_data());
        if (!v.empty()) std::memcpy(p, v.data(), v.size() * sizeof(float));
        m.unmap_data(p);
        held.push_back(m);
        return m.get_data_handle();
    }
    std::vector<float> read(void *handle, size_t n) {
        for (auto &m : held)
            if (m.get_data_handle() == handle) {
                const auto *p = static_cast<const float *>(m.map_data());
                std::vector<float> v(p, p + n);
                m.unmap_data(const_cast<float *>(p));
                return v;
            }
        ADD_FAILURE() << "not a buffer of the test";
        return {};
    }

    // Compiles the graph's single partition on the Level Zero engine and runs it with
    // `inputs` (by logical tensor id, in the partition's port order); returns the output.
    std::vector<float> run_single_partition(
            graph &g, const std::map<size_t, std::vector<float>> &inputs) {
        g.finalize();
        auto parts = g.get_partitions();
        EXPECT_EQ(parts.size(), 1u);
        if (parts.size() != 1) return {};
        partition &p = parts[0];
        EXPECT_TRUE(p.is_supported());
        auto ins = p.get_input_ports();
        auto outs = p.get_output_ports();
        EXPECT_EQ(outs.size(), 1u);
        compiled_partition cp = p.compile(ins, outs, eng);
        std::vector<tensor> in_ts;
        for (auto &i : ins)
            in_ts.emplace_back(i, eng, device_buffer(inputs.at(i.get_id())));
        const logical_tensor o = cp.query_logical_tensor(outs[0].get_id());
        const size_t n = o.get_mem_size() / sizeof(float);
        void *out = device_buffer(std::vector<float>(n, NAN));
        std::vector<tensor> out_ts {tensor(o, eng, out)};
        cp.execute(strm, in_ts, out_ts);
        strm.wait();
        return read(out, n);
    }

    static void expect_close(const std::vector<float> &got, const std::vector<double> &want,
            double tol) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::fabs(want[i]))) << "at " << i;
    }

    dnnl::engine eng;
    dnnl::stream strm;
    std::vector<dnnl::memory> held;
};

// relu(src [M, K] x wei [K, N]), the product from the shared matmul reference.
std::vector<double> ref_matmul_relu(
        const std::vector<float> &a, const std::vector<float> &b, int64_t M, int64_t K, int64_t N) {
    const matmul_ref::reader_t src = [&](const int64_t *p) { return double(a[p[0] * K + p[1]]); };
    const matmul_ref::reader_t wei = [&](const int64_t *p) { return double(b[p[0] * N + p[1]]); };
    std::vector<double> c(M * N);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            const int64_t pos[2] = {m, n};
            c[m * N + n] = std::max(0.0, matmul_ref::dot(src, wei, 2, pos, K));
        }
    return c;
}

TEST_F(ze_graph, matmul_relu_partition_matches_reference) {
    for (const auto &mkn : std::vector<std::vector<int64_t>> {{5, 7, 3}, {1, 1, 1}, {17, 33, 9}}) {
        const int64_t M = mkn[0], K = mkn[1], N = mkn[2];
        SCOPED_TRACE("M " + std::to_string(M) + " K " + std::to_string(K) + " N "
                + std::to_string(N));
        graph g(dnnl::engine::kind::gpu);
        op mm(0, op::kind::MatMul, {lt(0, {M, K}), lt(1, {K, N})}, {lt(2, {M, N})});
        op relu(1, op::kind::ReLU, {lt(2, {M, N})}, {lt(3, {M, N})});
        g.add_op(mm);
        g.add_op(relu);
        const auto a = values(M * K, 1), b = values(K * N, 2);
        const auto got = run_single_partition(g, {{0, a}, {1, b}});
        expect_close(got, ref_matmul_relu(a, b, M, K, N), 1e-5);
    }
}

// Multi-query attention: `heads` query heads share one K and one V head; scores scaled by
// 1 / sqrt(D), causal mask (-inf above the diagonal) added, softmax over keys, times V.
struct mqa_t {
    int64_t heads = 2, S = 7, D = 8;
    dims q_dims() const { return {1, 1, heads, S, D}; }
    dims kv_dims() const { return {1, 1, 1, S, D}; }
    dims s_dims() const { return {1, 1, heads, S, S}; }

    void build(graph &g) const {
        op qk(0, op::kind::MatMul, {lt(0, q_dims()), lt(1, kv_dims())}, {lt(5, s_dims())});
        qk.set_attr(op::attr::transpose_b, true);
        op scale(1, op::kind::Divide, {lt(5, s_dims()), lt(3, {1})}, {lt(6, s_dims())});
        op mask(2, op::kind::Add, {lt(6, s_dims()), lt(4, {1, 1, 1, S, S})}, {lt(7, s_dims())});
        op sm(3, op::kind::SoftMax, {lt(7, s_dims())}, {lt(8, s_dims())});
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(4, op::kind::MatMul, {lt(8, s_dims()), lt(2, kv_dims())}, {lt(9, q_dims())});
        for (op *o : {&qk, &scale, &mask, &sm, &pv})
            g.add_op(*o);
    }
    std::map<size_t, std::vector<float>> inputs() const {
        std::vector<float> m(S * S);
        for (int64_t i = 0; i < S; ++i)
            for (int64_t j = 0; j < S; ++j)
                m[i * S + j] = j > i ? -INFINITY : 0.f;
        return {{0, values(nelems(q_dims()), 3)}, {1, values(nelems(kv_dims()), 4)},
                {2, values(nelems(kv_dims()), 5)}, {3, {std::sqrt(float(D))}}, {4, m}};
    }
    std::vector<double> reference() const {
        auto in = inputs();
        const auto out = sdpa_ref::forward(
                in[0], in[1], in[2], heads, 1, S, D, true, 1.0 / std::sqrt(double(D)));
        return std::vector<double>(out.begin(), out.end());
    }
};

TEST_F(ze_graph, mqa_partition_as_the_fused_kernel_matches_reference) {
    drop_compiled_partitions();
    mqa_t c;
    graph g(dnnl::engine::kind::gpu);
    c.build(g);
    expect_close(run_single_partition(g, c.inputs()), c.reference(), 1e-4);
}

TEST_F(ze_graph, mqa_partition_as_primitives_with_usm_temporaries_matches_reference) {
    // The primitive sequence keeps the scores between steps in temporaries from the
    // engine's USM, freed after the execution's event.
    drop_compiled_partitions();
    setenv("ANYDNN_GRAPH_SDPA_UNFUSED", "1", 1);
    for (int64_t S : {7, 1, 16}) {
        SCOPED_TRACE("S " + std::to_string(S));
        mqa_t c;
        c.S = S;
        graph g(dnnl::engine::kind::gpu);
        c.build(g);
        expect_close(run_single_partition(g, c.inputs()), c.reference(), 1e-4);
    }
}

TEST_F(ze_graph, stream_of_another_context_is_refused) {
    if (drivers.size() < 2) GTEST_SKIP() << "one Level Zero driver: no second context";
    const auto &d = drivers[1];
    dnnl::engine other = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
    dnnl::stream other_strm(other);
    graph g(dnnl::engine::kind::gpu);
    op relu(0, op::kind::ReLU, {lt(0, {4})}, {lt(1, {4})});
    g.add_op(relu);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    compiled_partition cp = parts[0].compile({lt(0, {4})}, {lt(1, {4})}, eng);
    tensor in(lt(0, {4}), eng, device_buffer(values(4, 6)));
    tensor out(lt(1, {4}), eng, device_buffer(std::vector<float>(4)));
    const_dnnl_graph_tensor_t ins[] = {in.get()}, outs[] = {out.get()};
    EXPECT_EQ(dnnl_graph_compiled_partition_execute(cp.get(), other_strm.get(), 1, ins, 1, outs),
            dnnl_invalid_arguments);
}

} // namespace
} // namespace ze_test
