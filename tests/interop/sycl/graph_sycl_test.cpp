// Graph API SYCL interop (dnnl_graph_sycl.h / .hpp): the application's allocator (shared USM,
// counted: every allocation freed, each after the event it was given), engines made with it,
// and partitions executed after sycl::events, checked against a plain SDPA reference.
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_graph_sycl.hpp"

#include "interop/sycl/sycl_fixture.hpp"

using namespace sycl_test;
using namespace dnnl::graph;
namespace gsi = dnnl::graph::sycl_interop;

namespace {

struct app_alloc_state_t {
    std::mutex mutex;
    size_t allocs = 0, frees = 0, events_given = 0, unknown_frees = 0, max_alignment = 0;
    std::map<void *, size_t> live;
};
app_alloc_state_t &app_alloc() {
    static app_alloc_state_t s;
    return s;
}

void *app_malloc(size_t size, size_t alignment, const void *dev, const void *ctx) {
    auto &s = app_alloc();
    void *p = sycl::aligned_alloc_shared(alignment, size,
            *static_cast<const sycl::device *>(dev), *static_cast<const sycl::context *>(ctx));
    std::lock_guard<std::mutex> lock(s.mutex);
    ++s.allocs;
    s.max_alignment = std::max(s.max_alignment, alignment);
    s.live[p] = size;
    return p;
}

void app_free(void *buf, const void *dev, const void *ctx, void *event) {
    auto &s = app_alloc();
    if (event) static_cast<sycl::event *>(event)->wait();
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        ++s.frees;
        if (event) ++s.events_given;
        if (!s.live.erase(buf)) ++s.unknown_frees;
    }
    sycl::free(buf, *static_cast<const sycl::context *>(ctx));
}

logical_tensor lt(size_t id, const logical_tensor::dims &dims) {
    return logical_tensor(id, logical_tensor::data_type::f32, dims,
            logical_tensor::layout_type::strided);
}

// softmax(Q K^T * scale) V over [1, H, S, D], the reference.
std::vector<float> sdpa_ref(const std::vector<float> &q, const std::vector<float> &k,
        const std::vector<float> &v, int64_t H, int64_t S, int64_t D, float scale) {
    std::vector<float> out(H * S * D, 0.f), row(S);
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < S; ++i) {
            float mx = -INFINITY;
            for (int64_t j = 0; j < S; ++j) {
                double acc = 0;
                for (int64_t d = 0; d < D; ++d)
                    acc += double(q[(h * S + i) * D + d]) * k[(h * S + j) * D + d];
                row[j] = float(acc) * scale;
                mx = std::max(mx, row[j]);
            }
            double sum = 0;
            for (auto &r : row)
                sum += (r = std::exp(r - mx));
            for (int64_t d = 0; d < D; ++d) {
                double acc = 0;
                for (int64_t j = 0; j < S; ++j)
                    acc += row[j] / sum * v[(h * S + j) * D + d];
                out[(h * S + i) * D + d] = float(acc);
            }
        }
    return out;
}

class graph_sycl : public sycl_app_t {
protected:
    void SetUp() override {
        sycl_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto &s = app_alloc();
        s.allocs = s.frees = s.events_given = s.unknown_frees = s.max_alignment = 0;
        s.live.clear();
        alloc = gsi::make_allocator(app_malloc, app_free);
        geng = gsi::make_engine_with_allocator(device, context, alloc);
        gstrm = dnnl::sycl_interop::make_stream(geng, queue);
    }
    allocator alloc;
    dnnl::engine geng;
    dnnl::stream gstrm;
};

} // namespace

TEST_F(graph_sycl, sdpa_partition_uses_the_application_allocator) {
    // The unfused lowering exchanges scores through a temporary area: from the allocator.
    setenv("ANYDNN_GRAPH_SDPA_UNFUSED", "1", 1);
    const int64_t H = 2, S = 7, D = 3;
    const logical_tensor::dims qd {1, H, S, D}, sd {1, H, S, S};
    graph g(dnnl::engine::kind::gpu);
    op qk(1, op::kind::MatMul, {lt(0, qd), lt(1, qd)}, {lt(5, sd)});
    qk.set_attr(op::attr::transpose_b, true);
    op scale(2, op::kind::Multiply, {lt(5, sd), lt(3, {1})}, {lt(6, sd)});
    op sm(4, op::kind::SoftMax, {lt(6, sd)}, {lt(8, sd)});
    sm.set_attr(op::attr::axis, int64_t(-1));
    op pv(5, op::kind::MatMul, {lt(8, sd), lt(2, qd)}, {lt(9, qd)});
    for (op *o : {&qk, &scale, &sm, &pv})
        g.add_op(*o);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    auto ins = parts[0].get_input_ports(), outs = parts[0].get_output_ports();
    compiled_partition cp = parts[0].compile(ins, outs, geng);
    unsetenv("ANYDNN_GRAPH_SDPA_UNFUSED");

    const float sc = 1.f / std::sqrt(float(D));
    std::map<size_t, std::vector<float>> data {{0, random_floats(H * S * D, 1)},
            {1, random_floats(H * S * D, 2)}, {2, random_floats(H * S * D, 3)}, {3, {sc}}};
    for (auto &d : data)
        for (auto &x : d.second)
            x *= 0.1f;
    data[3] = {sc};
    std::vector<tensor> in_ts, out_ts;
    float *filled[4] = {};
    for (auto &i : ins) {
        float *p = usm(data[i.get_id()].size());
        filled[i.get_id()] = p;
        in_ts.emplace_back(i, geng, p);
    }
    float *out = usm(H * S * D);
    out_ts.emplace_back(outs[0], geng, out);
    // The inputs are written by the application's task, which the execution waits for.
    sycl::event ready = queue.submit([&](sycl::handler &h) {
        h.host_task([=] {
            pause_ms(30);
            for (auto &d : data)
                std::copy(d.second.begin(), d.second.end(), filled[d.first]);
        });
    });
    sycl::event done = gsi::execute(cp, gstrm, in_ts, out_ts, {ready});
    done.wait();
    auto want = sdpa_ref(data[0], data[1], data[2], H, S, D, sc);
    auto got = read(out, want.size());
    for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::fabs(want[i]))) << i;
    auto &s = app_alloc();
    EXPECT_GT(s.allocs, 0u);
    EXPECT_EQ(s.frees, s.allocs);
    EXPECT_EQ(s.events_given, s.frees);
    EXPECT_EQ(s.unknown_frees, 0u);
    EXPECT_GE(s.max_alignment, 64u);

    // The application's scratchpad instead of the allocator (execute_v2).
    logical_tensor sp_lt = cp.get_scratchpad_logical_tensor();
    ASSERT_GT(sp_lt.get_mem_size(), 0u);
    tensor sp(sp_lt, geng, usm<uint8_t>(sp_lt.get_mem_size()));
    const size_t before = s.allocs;
    std::fill(out, out + want.size(), 0.f);
    gsi::execute(cp, gstrm, in_ts, out_ts, sp).wait();
    EXPECT_EQ(s.allocs, before);
    got = read(out, want.size());
    for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::fabs(want[i]))) << i;

    // The C entry points without dependencies or an event.
    std::vector<const_dnnl_graph_tensor_t> ci, co;
    for (auto &t : in_ts)
        ci.push_back(t.get());
    for (auto &t : out_ts)
        co.push_back(t.get());
    EXPECT_EQ(dnnl_graph_sycl_interop_compiled_partition_execute(cp.get(), gstrm.get(),
                      ci.size(), ci.data(), co.size(), co.data(), nullptr, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_sycl_interop_compiled_partition_execute_v2(cp.get(), gstrm.get(),
                      ci.size(), ci.data(), co.size(), co.data(), sp.get(), nullptr, nullptr),
            dnnl_success);
    // Not a SYCL stream; no outputs.
    dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    dnnl::stream cpu_strm(cpu);
    EXPECT_EQ(dnnl_graph_sycl_interop_compiled_partition_execute(cp.get(), cpu_strm.get(),
                      ci.size(), ci.data(), co.size(), co.data(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_sycl_interop_compiled_partition_execute(cp.get(), gstrm.get(),
                      ci.size(), ci.data(), 0, co.data(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(s.frees, s.allocs);
}

TEST_F(graph_sycl, tensors_allocated_by_the_library_come_from_the_allocator) {
    auto &s = app_alloc();
    {
        tensor t(lt(0, {3, 5}), geng);
        EXPECT_NE(t.get_data_handle(), nullptr);
        EXPECT_EQ(s.allocs, 1u);
        EXPECT_EQ(s.live.count(t.get_data_handle()), 1u);
    }
    EXPECT_EQ(s.frees, 1u);
}

TEST_F(graph_sycl, bad_arguments_are_a_status) {
    dnnl_graph_allocator_t a = nullptr;
    EXPECT_EQ(dnnl_graph_sycl_interop_allocator_create(nullptr, app_malloc, app_free),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_sycl_interop_allocator_create(&a, nullptr, app_free),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_sycl_interop_allocator_create(&a, app_malloc, nullptr),
            dnnl_invalid_arguments);
    dnnl_graph_allocator_t host = nullptr;
    ASSERT_EQ(dnnl_graph_allocator_create(&host, nullptr, nullptr), dnnl_success);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_graph_sycl_interop_make_engine_with_allocator(&e, &device, &context, host),
            dnnl_invalid_arguments); // no SYCL call-backs
    EXPECT_EQ(dnnl_graph_sycl_interop_make_engine_with_allocator(
                      &e, &device, &context, alloc.get()),
            dnnl_success);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
    EXPECT_EQ(dnnl_graph_sycl_interop_make_engine_with_allocator(
                      nullptr, &device, &context, alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_sycl_interop_make_engine_with_allocator(
                      &e, nullptr, &context, alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_sycl_interop_make_engine_with_allocator(
                      &e, &device, nullptr, alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_allocator_destroy(host), dnnl_success);
}
