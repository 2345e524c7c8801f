// The graph OpenCL interop tests' fixture: the application's allocator (SVM, counted: every
// allocation freed, after the event it was given), an engine and stream made with it, and
// helpers that run a graph on the OpenCL engine and check it against a reference. Skipped
// without an OpenCL device.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <mutex>
#include <set>
#include <string>

#include "graph/graph_runner.hpp"
#include "interop/ocl_fixture.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.hpp"

namespace graph_ocl_test {

using namespace graph_test;
namespace gocl = dnnl::graph::ocl_interop;


// The application's allocator: SVM, every live pointer recorded.
struct app_allocator_t {
    std::mutex mutex;
    std::set<void *> live;
    size_t allocs = 0, frees = 0, unknown_frees = 0, events_given = 0;
    size_t max_alignment = 0;
    // Deferred mode: the free call-back keeps (buffer, event) and returns at once, as an
    // application must when the event may wait for something it has not done yet.
    bool deferred = false;
    std::vector<std::pair<void *, cl_event>> pending;
};
inline app_allocator_t &app_alloc_state() {
    static app_allocator_t s;
    return s;
}

inline void app_free(void *buf, cl_device_id, cl_context context, cl_event event);

// Frees what deferred mode kept, each after its event.
inline void app_free_pending(cl_context context) {
    auto &s = app_alloc_state();
    std::vector<std::pair<void *, cl_event>> pending;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        pending.swap(s.pending);
        s.deferred = false;
    }
    for (auto &p : pending) {
        app_free(p.first, nullptr, context, p.second);
        clReleaseEvent(p.second);
    }
}

inline void *app_malloc(size_t size, size_t alignment, cl_device_id, cl_context context) {
    void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, size, static_cast<cl_uint>(alignment));
    auto &s = app_alloc_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (p) s.live.insert(p);
    ++s.allocs;
    s.max_alignment = std::max(s.max_alignment, alignment);
    return p;
}

inline void app_free(void *buf, cl_device_id, cl_context context, cl_event event) {
    auto &s = app_alloc_state();
    if (s.deferred && event) {
        std::lock_guard<std::mutex> lock(s.mutex);
        clRetainEvent(event);
        s.pending.emplace_back(buf, event);
        return;
    }
    if (event) clWaitForEvents(1, &event); // the memory is in use until the event completes
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        ++s.frees;
        if (event) ++s.events_given;
        if (!s.live.erase(buf)) {
            ++s.unknown_frees;
            return;
        }
    }
    clSVMFree(context, buf);
}

inline std::vector<uint8_t> bytes_of(const std::vector<float> &v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

inline std::vector<uint8_t> bf16_bytes(const std::vector<float> &v) {
    std::vector<uint8_t> b(v.size() * 2);
    for (size_t i = 0; i < v.size(); ++i) {
        uint32_t u;
        std::memcpy(&u, &v[i], 4);
        const uint16_t h = static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
        std::memcpy(&b[2 * i], &h, 2);
    }
    return b;
}

inline float bf16_at(const std::vector<uint8_t> &b, size_t i) {
    uint16_t h;
    std::memcpy(&h, &b[2 * i], 2);
    const uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline float f16_at(const std::vector<uint8_t> &b, size_t i) {
    uint16_t h;
    std::memcpy(&h, &b[2 * i], 2);
    const int e = (h >> 10) & 31, m = h & 1023;
    const float mag = e == 0 ? std::ldexp(float(m), -24)
            : e == 31        ? INFINITY
                             : std::ldexp(float(1024 + m), e - 25);
    return (h & 0x8000) ? -mag : mag;
}

// The values of a buffer of type t (f32, bf16 or f16) as floats.
inline std::vector<float> floats_of(const std::vector<uint8_t> &b, dt t) {
    std::vector<float> v;
    const size_t n = b.size() / (t == dt::f32 ? 4 : 2);
    for (size_t i = 0; i < n; ++i) {
        float f = 0;
        if (t == dt::f32) std::memcpy(&f, &b[4 * i], 4);
        v.push_back(t == dt::f32 ? f : t == dt::bf16 ? bf16_at(b, i) : f16_at(b, i));
    }
    return v;
}

using build_t = std::function<void(graph &)>;
using buffers_t = std::map<size_t, std::vector<uint8_t>>;

inline void drop_compiled_partitions() {
    int capacity = 0;
    dnnl_graph_get_compiled_partition_cache_capacity(&capacity);
    dnnl_graph_set_compiled_partition_cache_capacity(0);
    dnnl_graph_set_compiled_partition_cache_capacity(capacity);
}

// While alive, sdpa partitions on OpenCL engines compile to the primitive sequence
// (ANYDNN_GRAPH_SDPA_UNFUSED=1), not the fused kernel; cached partitions are dropped on the
// way in and out so that no compile sees the other lowering.
struct sdpa_unfused_t {
    sdpa_unfused_t() {
        drop_compiled_partitions();
        setenv("ANYDNN_GRAPH_SDPA_UNFUSED", "1", 1);
    }
    ~sdpa_unfused_t() {
        unsetenv("ANYDNN_GRAPH_SDPA_UNFUSED");
        drop_compiled_partitions();
    }
};

class graph_ocl_t : public interop_test::ocl_app_t {
protected:
    void SetUp() override {
        ocl_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        auto &s = app_alloc_state();
        s.allocs = s.frees = s.unknown_frees = s.events_given = 0;
        s.deferred = false;
        alloc = gocl::make_allocator(app_malloc, app_free);
        eng = gocl::make_engine_with_allocator(device, context, alloc);
        strm = dnnl::ocl_interop::make_stream(eng, queue);
    }
    void TearDown() override {
        if (context) {
            strm = dnnl::stream();
            eng = dnnl::engine();
            // Cached compiled partitions keep their engine (and so the context) alive.
            drop_compiled_partitions();
            app_free_pending(context);
            for (void *p : own)
                clSVMFree(context, p);
            own.clear();
            auto &s = app_alloc_state();
            EXPECT_TRUE(s.live.empty()) << s.live.size() << " allocations never freed";
            EXPECT_EQ(s.allocs, s.frees);
            EXPECT_EQ(s.unknown_frees, 0u);
        }
        ocl_app_t::TearDown();
    }

    // Device memory of the test's own (not the graph allocator's).
    void *svm(size_t bytes) {
        void *p = clSVMAlloc(context, CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4), 0);
        EXPECT_NE(p, nullptr);
        own.push_back(p);
        return p;
    }
    void *upload(const std::vector<uint8_t> &b, size_t bytes) {
        void *p = svm(bytes);
        if (!b.empty()) {
            EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, p, b.data(), std::min(bytes, b.size()),
                              0, nullptr, nullptr),
                    CL_SUCCESS);
        }
        return p;
    }
    std::vector<uint8_t> download(const void *p, size_t bytes) {
        std::vector<uint8_t> b(bytes);
        if (bytes) {
            EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, b.data(), p, bytes, 0, nullptr, nullptr),
                    CL_SUCCESS);
        }
        return b;
    }

    // Runs every partition (fusion policy) of the graph on the OpenCL engine, through
    // gocl::execute; values flow between partitions through `bufs`. Returns the partitions.
    size_t run_gpu(const build_t &build, buffers_t &bufs) {
        graph g(dnnl::engine::kind::gpu);
        build(g);
        g.finalize();
        auto parts = g.get_partitions(partition::policy::fusion);
        for (auto &p : parts) {
            EXPECT_TRUE(p.is_supported());
            EXPECT_EQ(p.get_engine_kind(), dnnl::engine::kind::gpu);
            auto ins = p.get_input_ports();
            auto outs = p.get_output_ports();
            std::vector<logical_tensor> outs_any;
            for (auto &o : outs)
                outs_any.emplace_back(o.get_id(), o.get_data_type(), -1,
                        logical_tensor::layout_type::any);
            compiled_partition cp = p.compile(ins, outs_any, eng);
            std::vector<tensor> in_ts, out_ts;
            for (auto &i : ins)
                in_ts.emplace_back(i, eng, upload(bufs[i.get_id()], i.get_mem_size()));
            std::vector<std::pair<size_t, void *>> out_ptrs;
            for (auto &o : outs) {
                logical_tensor r = cp.query_logical_tensor(o.get_id());
                void *ptr = svm(r.get_mem_size());
                out_ptrs.emplace_back(o.get_id(), ptr);
                out_ts.emplace_back(r, eng, ptr);
                bufs[o.get_id()].assign(r.get_mem_size(), 0);
            }
            cl_event done = gocl::execute(cp, strm, in_ts, out_ts);
            EXPECT_NE(done, nullptr);
            EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
            clReleaseEvent(done);
            for (auto &o : out_ptrs)
                bufs[o.first] = download(o.second, bufs[o.first].size());
        }
        return parts.size();
    }

    // The graph's single partition compiled on the OpenCL engine, its inputs uploaded and
    // its outputs in the test's own SVM.
    struct prepared_t {
        compiled_partition cp;
        std::vector<tensor> in, out;
        void *out_ptr = nullptr; // of the first output
        size_t out_bytes = 0;
    };
    void prepare(const build_t &build, buffers_t &inputs, prepared_t &p) {
        graph g(dnnl::engine::kind::gpu);
        build(g);
        g.finalize();
        auto parts = g.get_partitions();
        ASSERT_EQ(parts.size(), 1u);
        auto ins = parts[0].get_input_ports();
        auto outs = parts[0].get_output_ports();
        p.cp = parts[0].compile(ins, outs, eng);
        for (auto &i : ins)
            p.in.emplace_back(i, eng, upload(inputs[i.get_id()], i.get_mem_size()));
        for (auto &o : outs)
            p.out.emplace_back(o, eng, svm(o.get_mem_size()));
        p.out_ptr = p.out[0].get_data_handle();
        p.out_bytes = outs[0].get_mem_size();
    }

    // Executes `p` after a user event and expects nothing of it to complete before the
    // event does; returns once it has run.
    void execute_after_gate(prepared_t &p) {
        cl_int err = CL_SUCCESS;
        cl_event gate = clCreateUserEvent(context, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        cl_event done = gocl::execute(p.cp, strm, p.in, p.out, {gate});
        ASSERT_NE(done, nullptr);
        cl_int state = CL_COMPLETE;
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(state), &state, nullptr);
        EXPECT_NE(state, CL_COMPLETE) << "ran before its dependency";
        clSetUserEventStatus(gate, CL_COMPLETE);
        ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
        clReleaseEvent(done);
        clReleaseEvent(gate);
    }

    // Median wall time (ms) of executing the graph's single partition on the OpenCL
    // engine, each execution waited for; after one warm-up run.
    double gpu_median_ms(const build_t &build, buffers_t inputs, int reps) {
        prepared_t p;
        prepare(build, inputs, p);
        if (HasFatalFailure()) return 0;
        std::vector<double> ms;
        for (int r = 0; r <= reps; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            cl_event done = gocl::execute(p.cp, strm, p.in, p.out);
            clWaitForEvents(1, &done);
            clReleaseEvent(done);
            const auto t1 = std::chrono::steady_clock::now();
            if (r > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        return ms.empty() ? 0 : ms[ms.size() / 2];
    }

    // The graph on the OpenCL engine against a reference: expects `partitions` partitions and
    // output `id` (of type t) within tol of `want`, errors relative to the reference's largest
    // magnitude (small averages such as attention outputs would pass any absolute tolerance).
    void expect_reference(const build_t &build, const buffers_t &inputs, size_t id,
            const std::vector<float> &want, size_t partitions, float tol, dt t = dt::f32) {
        buffers_t gpu = inputs;
        EXPECT_EQ(run_gpu(build, gpu), partitions);
        expect_near_scaled(floats_of(gpu[id], t), want, tol);
    }
    static void expect_near_scaled(
            const std::vector<float> &got, const std::vector<float> &want, float tol) {
        ASSERT_EQ(got.size(), want.size());
        float scale = 0.f;
        for (float w : want)
            scale = std::max(scale, std::fabs(w));
        ASSERT_GT(scale, 0.f) << "all zeros";
        for (size_t i = 0; i < want.size(); ++i)
            ASSERT_NEAR(got[i], want[i], tol * scale) << "at " << i;
    }

    dnnl::graph::allocator alloc;
    dnnl::engine eng;
    dnnl::stream strm;
    std::vector<void *> own;
};

} // namespace graph_ocl_test
