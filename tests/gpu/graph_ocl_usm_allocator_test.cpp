// The graph OpenCL allocator as oneDNN's applications write it: Intel USM (clSharedMemAllocINTEL
// in the context the call-back is given, clMemBlockingFreeINTEL in the context the free
// call-back is given, after its event). Every free must name a context in which the
// allocation is live: the call-back's status is recorded and must be CL_SUCCESS. Partitions
// with temporaries (multi-query attention as the primitive sequence, a gated MLP) and tensors
// the library allocates, checked against the shared double references. And a memory pool as
// oneDNN's graph examples keep one: the call-backs never free, the pool frees everything in
// the contexts it was given after the engine (with its own context) and the compiled
// partitions are gone (issue 19: that context had been destroyed). Runs where the OpenCL
// device has Intel USM (Intel's CPU runtime under ctest's intel_opencl_runtime run); skipped
// elsewhere.
#include <cmath>
#include <mutex>
#include <set>

#include "gpu/graph_ocl_fixture.hpp"
#include "graph/sdpa_ref.hpp"
#include "primitives/matmul_ref.hpp"

namespace {

using namespace graph_test;
using namespace graph_ocl_test;

using shared_alloc_f = void *(*)(cl_context, cl_device_id, const cl_ulong *, size_t, cl_uint,
        cl_int *);
using blocking_free_f = cl_int (*)(cl_context, void *);

// The application's USM call-backs and what they saw.
struct usm_app_t {
    shared_alloc_f shared_alloc = nullptr;
    blocking_free_f blocking_free = nullptr;
    std::mutex mutex;
    std::set<std::pair<cl_context, void *>> live; // (context allocated in, pointer)
    size_t allocs = 0, frees = 0, bad_frees = 0;
    cl_int last_error = CL_SUCCESS;
};
usm_app_t &usm_app() {
    static usm_app_t a;
    return a;
}

void *usm_malloc(size_t size, size_t alignment, cl_device_id device, cl_context context) {
    auto &a = usm_app();
    cl_int err = CL_SUCCESS;
    void *p = a.shared_alloc(context, device, nullptr, size, static_cast<cl_uint>(alignment), &err);
    std::lock_guard<std::mutex> lock(a.mutex);
    ++a.allocs;
    if (p) a.live.insert({context, p});
    return p;
}

void usm_free(void *buf, cl_device_id, cl_context context, cl_event event) {
    auto &a = usm_app();
    if (event) clWaitForEvents(1, &event);
    const cl_int err = a.blocking_free(context, buf);
    std::lock_guard<std::mutex> lock(a.mutex);
    ++a.frees;
    if (err != CL_SUCCESS || !a.live.erase({context, buf})) {
        ++a.bad_frees;
        a.last_error = err;
    }
}

class graph_ocl_usm_t : public interop_test::ocl_app_t {
protected:
    void SetUp() override {
        ocl_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        cl_platform_id platform = nullptr;
        ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform,
                          nullptr),
                CL_SUCCESS);
        auto &a = usm_app();
        a.shared_alloc = reinterpret_cast<shared_alloc_f>(
                clGetExtensionFunctionAddressForPlatform(platform, "clSharedMemAllocINTEL"));
        a.blocking_free = reinterpret_cast<blocking_free_f>(
                clGetExtensionFunctionAddressForPlatform(platform, "clMemBlockingFreeINTEL"));
        if (!a.shared_alloc || !a.blocking_free)
            GTEST_SKIP() << "the OpenCL device has no Intel USM";
        a.allocs = a.frees = a.bad_frees = 0;
        a.last_error = CL_SUCCESS;
        alloc = gocl::make_allocator(usm_malloc, usm_free);
        eng = gocl::make_engine_with_allocator(device, context, alloc);
        strm = dnnl::ocl_interop::make_stream(eng, queue);
    }
    void TearDown() override {
        if (eng) {
            held.clear();
            strm = dnnl::stream();
            eng = dnnl::engine();
            drop_compiled_partitions();
            auto &a = usm_app();
            EXPECT_EQ(a.bad_frees, 0u) << "last status " << a.last_error;
            EXPECT_EQ(a.allocs, a.frees);
            EXPECT_TRUE(a.live.empty()) << a.live.size() << " allocations never freed";
        }
        ocl_app_t::TearDown();
    }

    // Runs the graph's single partition with tensors the library allocates (through the
    // allocator), filled and read through the queue; returns output `out_id`.
    std::vector<float> run(graph &g, const std::map<size_t, std::vector<float>> &inputs,
            size_t out_id) {
        g.finalize();
        auto parts = g.get_partitions();
        EXPECT_EQ(parts.size(), 1u);
        if (parts.size() != 1) return {};
        auto ins = parts[0].get_input_ports();
        auto outs = parts[0].get_output_ports();
        compiled_partition cp = parts[0].compile(ins, outs, eng);
        std::vector<tensor> in_ts, out_ts;
        for (auto &i : ins) {
            tensor t(i, eng); // allocated by the library through the allocator
            const auto &v = inputs.at(i.get_id());
            EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, t.get_data_handle(), v.data(),
                              v.size() * sizeof(float), 0, nullptr, nullptr),
                    CL_SUCCESS);
            in_ts.push_back(t);
        }
        size_t n = 0;
        for (auto &o : outs) {
            tensor t(cp.query_logical_tensor(o.get_id()), eng);
            if (o.get_id() == out_id) n = o.get_mem_size() / sizeof(float);
            out_ts.push_back(t);
        }
        cl_event done = gocl::execute(cp, strm, in_ts, out_ts);
        EXPECT_NE(done, nullptr);
        std::vector<float> got(n);
        for (size_t k = 0; k < outs.size(); ++k)
            if (outs[k].get_id() == out_id)
                EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, got.data(),
                                  out_ts[k].get_data_handle(), n * sizeof(float), 1, &done,
                                  nullptr),
                        CL_SUCCESS);
        clReleaseEvent(done);
        held = in_ts;
        held.insert(held.end(), out_ts.begin(), out_ts.end());
        return got;
    }

    allocator alloc;
    dnnl::engine eng;
    dnnl::stream strm;
    std::vector<tensor> held;
};

void expect_close_to(const std::vector<float> &got, const std::vector<double> &want, double tol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * (1.0 + std::fabs(want[i]))) << "at " << i;
}

TEST_F(graph_ocl_usm_t, mqa_as_primitives_frees_in_the_allocations_context) {
    const int64_t H = 4, S = 9, D = 8;
    const lt_dims qd {1, 1, H, S, D}, kvd {1, 1, 1, S, D}, sd {1, 1, H, S, S};
    sdpa_unfused_t unfused; // the primitive sequence: scores live in temporaries
    graph g(dnnl::engine::kind::gpu);
    op qk(1, op::kind::MatMul, {lt(0, qd), lt(1, kvd)}, {lt(5, sd)});
    qk.set_attr(op::attr::transpose_b, true);
    op scale(2, op::kind::Multiply, {lt(5, sd), lt(3, {1})}, {lt(6, sd)});
    op sm(4, op::kind::SoftMax, {lt(6, sd)}, {lt(8, sd)});
    sm.set_attr(op::attr::axis, int64_t(-1));
    op pv(5, op::kind::MatMul, {lt(8, sd), lt(2, kvd)}, {lt(9, qd)});
    for (op *o : {&qk, &scale, &sm, &pv})
        g.add_op(*o);
    const auto q = random_floats(H * S * D, 1), k = random_floats(S * D, 2),
               v = random_floats(S * D, 3);
    const float sc = 1.f / std::sqrt(float(D));
    const auto got = run(g, {{0, q}, {1, k}, {2, v}, {3, {sc}}}, 9);
    const auto out = sdpa_ref::forward(q, k, v, H, 1, S, D, false, sc);
    const std::vector<double> want(out.begin(), out.end());
    expect_close_to(got, want, 1e-4);
}

TEST_F(graph_ocl_usm_t, gated_mlp_frees_in_the_allocations_context) {
    const int64_t M = 3, Hd = 8, I = 12;
    graph g(dnnl::engine::kind::gpu);
    op gate(1, op::kind::MatMul, {lt(0, {M, Hd}), lt(1, {Hd, I})}, {lt(4, {M, I})});
    op sig(2, op::kind::Sigmoid, {lt(4, {M, I})}, {lt(5, {M, I})});
    op swish(3, op::kind::Multiply, {lt(4, {M, I}), lt(5, {M, I})}, {lt(6, {M, I})});
    op up(4, op::kind::MatMul, {lt(0, {M, Hd}), lt(2, {Hd, I})}, {lt(7, {M, I})});
    op mul(5, op::kind::Multiply, {lt(6, {M, I}), lt(7, {M, I})}, {lt(8, {M, I})});
    op down(6, op::kind::MatMul, {lt(8, {M, I}), lt(3, {I, Hd})}, {lt(9, {M, Hd})});
    for (op *o : {&gate, &sig, &swish, &up, &mul, &down})
        g.add_op(*o);
    const auto x = random_floats(M * Hd, 4), wg = random_floats(Hd * I, 5),
               wu = random_floats(Hd * I, 6), wd = random_floats(I * Hd, 7);
    const auto got = run(g, {{0, x}, {1, wg}, {2, wu}, {3, wd}}, 9);
    // down(swish(x wg) * (x wu)), each product from the shared matmul reference.
    auto product = [](const std::vector<float> &a, const std::vector<double> &ad,
                           const std::vector<float> &b, int64_t rows, int64_t K, int64_t cols) {
        const matmul_ref::reader_t src = [&](const int64_t *p) {
            return ad.empty() ? double(a[p[0] * K + p[1]]) : ad[p[0] * K + p[1]];
        };
        const matmul_ref::reader_t wei
                = [&](const int64_t *p) { return double(b[p[0] * cols + p[1]]); };
        std::vector<double> c(rows * cols);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t n = 0; n < cols; ++n) {
                const int64_t pos[2] = {r, n};
                c[r * cols + n] = matmul_ref::dot(src, wei, 2, pos, K);
            }
        return c;
    };
    const auto gated = product(x, {}, wg, M, Hd, I), upped = product(x, {}, wu, M, Hd, I);
    std::vector<double> hidden(M * I);
    for (size_t i = 0; i < hidden.size(); ++i)
        hidden[i] = gated[i] / (1.0 + std::exp(-gated[i])) * upped[i];
    const auto want = product({}, hidden, wd, M, I, Hd);
    expect_close_to(got, want, 1e-4);
}

// A pool as oneDNN's graph examples keep one: allocations are never freed by the free
// call-back (it marks them reusable) but all at once, in the context each was made in, when
// the application clears the pool.
struct pool_t {
    std::mutex mutex;
    std::vector<std::pair<cl_context, void *>> all;
    std::set<void *> in_use;
};
pool_t &pool() {
    static pool_t p;
    return p;
}

void *pool_malloc(size_t size, size_t alignment, cl_device_id device, cl_context context) {
    void *p = usm_malloc(size, alignment, device, context);
    auto &pl = pool();
    std::lock_guard<std::mutex> lock(pl.mutex);
    if (p) {
        pl.all.emplace_back(context, p);
        pl.in_use.insert(p);
    }
    return p;
}

void pool_free(void *buf, cl_device_id, cl_context, cl_event event) {
    if (event) clWaitForEvents(1, &event);
    auto &pl = pool();
    std::lock_guard<std::mutex> lock(pl.mutex);
    pl.in_use.erase(buf);
}

TEST_F(graph_ocl_usm_t, pooled_allocations_are_freed_in_their_context_after_the_engine_is_gone) {
    const int64_t M = 5, Hd = 4, I = 6;
    auto &pl = pool();
    pl.all.clear();
    pl.in_use.clear();
    {
        // An engine of its own context (dnnl_engine_create), as the examples make it.
        allocator pool_alloc = gocl::make_allocator(pool_malloc, pool_free);
        dnnl::engine own = dnnl::graph::make_engine_with_allocator(
                dnnl::engine::kind::gpu, 0, pool_alloc);
        cl_platform_id platform = nullptr;
        ASSERT_EQ(clGetDeviceInfo(dnnl::ocl_interop::get_device(own), CL_DEVICE_PLATFORM,
                          sizeof(platform), &platform, nullptr),
                CL_SUCCESS);
        if (!clGetExtensionFunctionAddressForPlatform(platform, "clSharedMemAllocINTEL"))
            GTEST_SKIP() << "the engine's OpenCL device has no Intel USM";
        dnnl::stream own_strm(own);
        graph g(dnnl::engine::kind::gpu);
        op gate(1, op::kind::MatMul, {lt(0, {M, Hd}), lt(1, {Hd, I})}, {lt(4, {M, I})});
        op sig(2, op::kind::Sigmoid, {lt(4, {M, I})}, {lt(5, {M, I})});
        op swish(3, op::kind::Multiply, {lt(4, {M, I}), lt(5, {M, I})}, {lt(6, {M, I})});
        op up(4, op::kind::MatMul, {lt(0, {M, Hd}), lt(2, {Hd, I})}, {lt(7, {M, I})});
        op mul(5, op::kind::Multiply, {lt(6, {M, I}), lt(7, {M, I})}, {lt(8, {M, I})});
        op down(6, op::kind::MatMul, {lt(8, {M, I}), lt(3, {I, Hd})}, {lt(9, {M, Hd})});
        for (op *o : {&gate, &sig, &swish, &up, &mul, &down})
            g.add_op(*o);
        g.finalize();
        auto parts = g.get_partitions();
        ASSERT_EQ(parts.size(), 1u);
        auto ins = parts[0].get_input_ports();
        auto outs = parts[0].get_output_ports();
        compiled_partition cp = parts[0].compile(ins, outs, own);
        std::vector<tensor> in_ts, out_ts;
        for (auto &i : ins)
            in_ts.emplace_back(i, own); // zeros: what is computed does not matter here
        for (auto &o : outs)
            out_ts.emplace_back(o, own);
        cp.execute(own_strm, in_ts, out_ts);
        own_strm.wait();
    }
    drop_compiled_partitions(); // the last reference to the engine goes
    auto &a = usm_app();
    EXPECT_GT(pl.all.size(), 0u);
    EXPECT_TRUE(pl.in_use.empty()) << pl.in_use.size() << " allocations not given back";
    for (auto &p : pl.all) {
        EXPECT_EQ(a.blocking_free(p.first, p.second), CL_SUCCESS)
                << "the allocation's context can no longer be used";
        std::lock_guard<std::mutex> lock(a.mutex);
        ++a.frees;
        a.live.erase(p);
    }
    pl.all.clear();
}

} // namespace
