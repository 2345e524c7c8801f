// Graph API OpenCL interop (dnnl_graph_ocl.h / .hpp): the application's allocator (SVM here,
// counted: every allocation freed, after the event it was given), engines made with it (also
// from a cache blob), and partitions executed with cl_event dependencies. Each graph runs on
// the OpenCL engine and on the CPU engine (checked against references in tests/graph) and the
// results agree. Skipped without an OpenCL device.
#include "gpu/graph_ocl_fixture.hpp"
#include "graph/sdpa_ref.hpp"
#include "primitives/convolution_ref.hpp"
#include "primitives/eltwise_ref.hpp"
#include "primitives/group_normalization_ref.hpp"
#include "primitives/matmul_ref.hpp"
#include "primitives/post_ops_ref.hpp"

using namespace graph_test;
using namespace graph_ocl_test;

namespace {

// MatMul + BiasAdd-style bias + ReLU: one partition.
build_t matmul_bias_relu(int64_t M, int64_t K, int64_t N) {
    return [=](graph &g) {
        op mm(10, op::kind::MatMul, {lt(0, {M, K}), lt(1, {K, N}), lt(2, {N})}, {lt(3, {M, N})});
        op relu(11, op::kind::ReLU, {lt(3, {M, N})}, {lt(4, {M, N})});
        g.add_op(mm);
        g.add_op(relu);
    };
}

buffers_t matmul_inputs(int64_t M, int64_t K, int64_t N) {
    return {{0, bytes_of(random_floats(M * K, 1))}, {1, bytes_of(random_floats(K * N, 2))},
            {2, bytes_of(random_floats(N, 3))}};
}

// Scaled dot-product attention (optionally causal): Q K^T * scale (+ mask), softmax, times V.
build_t sdpa(int64_t H, int64_t S, int64_t D, bool mask, dt type) {
    return [=](graph &g) {
        const lt_dims qd {1, H, S, D}, sd {1, H, S, S};
        op qk(1, op::kind::MatMul, {lt(0, qd, type), lt(1, qd, type)}, {lt(5, sd, type)});
        qk.set_attr(op::attr::transpose_b, true);
        op scale(2, op::kind::Multiply, {lt(5, sd, type), lt(3, {1}, type)}, {lt(6, sd, type)});
        op add(3, op::kind::Add, {lt(6, sd, type), lt(4, {1, 1, S, S}, type)}, {lt(7, sd, type)});
        op sm(4, op::kind::SoftMax, {lt(mask ? 7 : 6, sd, type)}, {lt(8, sd, type)});
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(5, op::kind::MatMul, {lt(8, sd, type), lt(2, qd, type)}, {lt(9, qd, type)});
        g.add_op(qk);
        g.add_op(scale);
        if (mask) g.add_op(add);
        g.add_op(sm);
        g.add_op(pv);
    };
}

buffers_t sdpa_inputs(int64_t H, int64_t S, int64_t D, bool mask, dt type) {
    auto enc = [&](const std::vector<float> &v) {
        return type == dt::bf16 ? bf16_bytes(v) : bytes_of(v);
    };
    buffers_t in;
    for (size_t id : {0, 1, 2})
        in[id] = enc(random_floats(H * S * D, 40 + (unsigned)id));
    in[3] = enc({1.f / std::sqrt((float)D)});
    if (mask) {
        std::vector<float> m(S * S);
        for (int64_t i = 0; i < S; ++i)
            for (int64_t j = 0; j < S; ++j)
                m[i * S + j] = j > i ? -INFINITY : 0.f;
        in[4] = enc(m);
    }
    return in;
}

// matmul_bias_relu's dst from its inputs: relu(src x weights + bias).
std::vector<float> matmul_bias_relu_reference(int64_t M, int64_t K, int64_t N, const buffers_t &in) {
    const std::vector<float> a = floats_of(in.at(0), dt::f32), b = floats_of(in.at(1), dt::f32),
                             bias = floats_of(in.at(2), dt::f32);
    std::vector<float> out;
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            const int64_t pos[2] = {m, n};
            const double acc = matmul_ref::dot([&](const int64_t *p) { return double(a[size_t(p[0] * K + p[1])]); },
                    [&](const int64_t *p) { return double(b[size_t(p[0] * N + p[1])]); }, 2, pos, K);
            out.push_back(float(std::max(0.0, acc + bias[size_t(n)])));
        }
    return out;
}

// sdpa's dst from its inputs (the scale as stored).
std::vector<float> sdpa_reference(
        int64_t H, int64_t S, int64_t D, bool mask, dt type, const buffers_t &in) {
    return sdpa_ref::forward(floats_of(in.at(0), type), floats_of(in.at(1), type),
            floats_of(in.at(2), type), H, H, S, D, mask, floats_of(in.at(3), type)[0]);
}

} // namespace

TEST(graph_ocl, allocator_create_checks_its_arguments) {
    dnnl_graph_allocator_t a = nullptr;
    EXPECT_EQ(dnnl_graph_ocl_interop_allocator_create(nullptr, app_malloc, app_free),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_allocator_create(&a, nullptr, app_free),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_allocator_create(&a, app_malloc, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_ocl_interop_allocator_create(&a, app_malloc, app_free), dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_destroy(a), dnnl_success);
}

TEST_F(graph_ocl_t, make_engine_checks_its_arguments) {
    dnnl_engine_t e = nullptr;
    dnnl_graph_allocator_t host = nullptr;
    ASSERT_EQ(dnnl_graph_allocator_create(&host, nullptr, nullptr), dnnl_success);
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(nullptr, device, context,
                      alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(&e, device, context, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(&e, device, context, host),
            dnnl_invalid_arguments); // no OpenCL call-backs
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(
                      &e, device, context, (const_dnnl_graph_allocator_t)&e),
            dnnl_invalid_arguments); // not an allocator
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(&e, nullptr, context,
                      alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_with_allocator(&e, device, nullptr,
                      alloc.get()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
                      &e, device, context, alloc.get(), 0, nullptr),
            dnnl_invalid_arguments);
    const uint8_t junk[16] = {1, 2, 3};
    EXPECT_NE(dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
                      &e, device, context, alloc.get(), sizeof(junk), junk),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_destroy(host), dnnl_success);
}

TEST_F(graph_ocl_t, matmul_bias_relu_matches_reference) {
    const buffers_t in = matmul_inputs(5, 7, 9);
    expect_reference(matmul_bias_relu(5, 7, 9), in, 4, matmul_bias_relu_reference(5, 7, 9, in), 1,
            1e-5f);
}

TEST_F(graph_ocl_t, layer_norm_add_relu_matches_reference) {
    const lt_dims d {2, 3, 10};
    build_t b = [=](graph &g) {
        op ln(1, op::kind::LayerNorm, {lt(0, d), lt(1, {10}), lt(2, {10})}, {lt(3, d)});
        ln.set_attr(op::attr::keep_stats, false);
        ln.set_attr(op::attr::epsilon, 1e-5f);
        op add(2, op::kind::Add, {lt(3, d), lt(4, d)}, {lt(5, d)});
        op relu(3, op::kind::ReLU, {lt(5, d)}, {lt(6, d)});
        g.add_op(ln);
        g.add_op(add);
        g.add_op(relu);
    };
    buffers_t in {{0, bytes_of(random_floats(60, 18))},
            {1, bytes_of(random_floats(10, 19, 0.5f, 1.5f))}, {2, bytes_of(random_floats(10, 20))},
            {4, bytes_of(random_floats(60, 21))}};
    // Layer norm's rows are group normalization's {rows, C, 1} with one group.
    const std::vector<float> x = floats_of(in[0], dt::f32), gamma = floats_of(in[1], dt::f32),
                             beta = floats_of(in[2], dt::f32), other = floats_of(in[4], dt::f32);
    const std::vector<double> xd(x.begin(), x.end());
    const group_normalization_ref::shape_t rows({6, 10, 1}, 1);
    std::vector<double> mu, va;
    group_normalization_ref::statistics(xd, rows, mu, va);
    std::vector<float> want;
    for (size_t e = 0; e < x.size(); ++e) {
        const double y = group_normalization_ref::forward(
                xd[e], mu[e / 10], va[e / 10], 1e-5, gamma[e % 10], beta[e % 10]);
        want.push_back(float(std::max(0.0, y + other[e])));
    }
    expect_reference(b, in, 6, want, 1, 1e-4f);
}

TEST_F(graph_ocl_t, binary_eltwise_chain_matches_reference) {
    const lt_dims d {3, 17};
    build_t b = [=](graph &g) {
        op mul(1, op::kind::Multiply, {lt(0, d), lt(1, {1, 17})}, {lt(2, d)});
        op sig(2, op::kind::Sigmoid, {lt(2, d)}, {lt(3, d)});
        op sub(3, op::kind::Subtract, {lt(3, d), lt(4, d)}, {lt(5, d)});
        op tanh(4, op::kind::Tanh, {lt(5, d)}, {lt(6, d)});
        for (auto *o : {&mul, &sig, &sub, &tanh})
            g.add_op(*o);
    };
    buffers_t in {{0, bytes_of(random_floats(51, 5))}, {1, bytes_of(random_floats(17, 6))},
            {4, bytes_of(random_floats(51, 7))}};
    const std::vector<float> a = floats_of(in[0], dt::f32), w = floats_of(in[1], dt::f32),
                             c = floats_of(in[4], dt::f32);
    std::vector<float> want;
    for (size_t e = 0; e < a.size(); ++e) {
        double v = post_ops_ref::binary(dnnl_binary_mul, a[e], w[e % 17], 0);
        v = eltwise_ref::forward(dnnl_eltwise_logistic, v, 0, 0);
        v = post_ops_ref::binary(dnnl_binary_sub, v, c[e], 0);
        want.push_back(float(eltwise_ref::forward(dnnl_eltwise_tanh, v, 0, 0)));
    }
    expect_reference(b, in, 6, want, 1, 1e-5f);
}

TEST_F(graph_ocl_t, sdpa_causal_f32_matches_reference_without_temporaries) {
    {
        buffers_t in = sdpa_inputs(2, 16, 8, true, dt::f32);
        expect_reference(sdpa(2, 16, 8, true, dt::f32), in, 9,
                sdpa_reference(2, 16, 8, true, dt::f32, in), 1, 1e-4f, dt::f32);
    }
    // One fused kernel: the scores never reach memory, nothing is allocated.
    EXPECT_EQ(app_alloc_state().allocs, 0u);
}

TEST_F(graph_ocl_t, sdpa_unfused_causal_f32_matches_reference_and_uses_the_allocator) {
    sdpa_unfused_t unfused;
    {
        buffers_t in = sdpa_inputs(2, 16, 8, true, dt::f32);
        expect_reference(sdpa(2, 16, 8, true, dt::f32), in, 9,
                sdpa_reference(2, 16, 8, true, dt::f32, in), 1, 1e-4f, dt::f32);
    }
    // The unfused steps exchange scores through the temporary area: from the allocator.
    EXPECT_GT(app_alloc_state().allocs, 0u);
    EXPECT_EQ(app_alloc_state().events_given, app_alloc_state().frees);
    EXPECT_GE(app_alloc_state().max_alignment, 64u);
}

TEST_F(graph_ocl_t, sdpa_bf16_matches_reference) {
    {
        buffers_t in = sdpa_inputs(2, 16, 8, false, dt::bf16);
        expect_reference(sdpa(2, 16, 8, false, dt::bf16), in, 9,
                sdpa_reference(2, 16, 8, false, dt::bf16, in), 1, 2e-2f, dt::bf16);
    }
}

TEST_F(graph_ocl_t, execute_waits_for_dependencies_and_returns_an_event) {
    const int64_t M = 4, K = 6, N = 5;
    buffers_t in = matmul_inputs(M, K, N);
    prepared_t p;
    prepare(matmul_bias_relu(M, K, N), in, p);
    ASSERT_FALSE(HasFatalFailure());
    // A blocking free call-back would wait for the gate inside execute: defer the frees.
    app_alloc_state().deferred = true;
    execute_after_gate(p);
    ASSERT_FALSE(HasFatalFailure());
    app_free_pending(context);
    auto got = download(p.out_ptr, p.out_bytes);
    expect_near_scaled(floats_of(got, dt::f32), matmul_bias_relu_reference(M, K, N, in), 1e-5f);

    // The C entry points: no returned event requested; the plain execute on the same stream.
    std::vector<const_dnnl_graph_tensor_t> ci, co;
    for (auto &t : p.in)
        ci.push_back(t.get());
    for (auto &t : p.out)
        co.push_back(t.get());
    EXPECT_EQ(dnnl_graph_ocl_interop_compiled_partition_execute(p.cp.get(), strm.get(), ci.size(),
                      ci.data(), co.size(), co.data(), nullptr, 0, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_compiled_partition_execute(
                      p.cp.get(), strm.get(), ci.size(), ci.data(), co.size(), co.data()),
            dnnl_success);
    strm.wait();
    EXPECT_EQ(download(p.out_ptr, got.size()), got);
}

TEST_F(graph_ocl_t, execute_v2_uses_the_users_scratchpad_not_the_allocator) {
    sdpa_unfused_t unfused; // the primitive sequence needs a temporary area
    const int64_t H = 2, S = 8, D = 4;
    graph g(dnnl::engine::kind::gpu);
    sdpa(H, S, D, false, dt::f32)(g);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    auto ins = parts[0].get_input_ports();
    auto outs = parts[0].get_output_ports();
    compiled_partition cp = parts[0].compile(ins, outs, eng);
    logical_tensor sp_lt = cp.get_scratchpad_logical_tensor();
    ASSERT_GT(sp_lt.get_mem_size(), 0u);
    buffers_t in = sdpa_inputs(H, S, D, false, dt::f32);
    std::vector<tensor> in_ts, out_ts;
    for (auto &i : ins)
        in_ts.emplace_back(i, eng, upload(in[i.get_id()], i.get_mem_size()));
    void *out = svm(outs[0].get_mem_size());
    out_ts.emplace_back(outs[0], eng, out);
    tensor sp(sp_lt, eng, svm(sp_lt.get_mem_size()));
    const size_t before = app_alloc_state().allocs;
    cl_event done = gocl::execute(cp, strm, in_ts, out_ts, sp);
    ASSERT_NE(done, nullptr);
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
    EXPECT_EQ(app_alloc_state().allocs, before);
    auto got = download(out, outs[0].get_mem_size());
    expect_near_scaled(floats_of(got, dt::f32), sdpa_reference(H, S, D, false, dt::f32, in), 1e-4f);
}

TEST_F(graph_ocl_t, tensors_allocated_by_the_library_come_from_the_allocator) {
    const size_t before = app_alloc_state().allocs;
    {
        tensor t(lt(0, {3, 5}), eng, DNNL_MEMORY_ALLOCATE);
        EXPECT_NE(t.get_data_handle(), nullptr);
        EXPECT_EQ(app_alloc_state().allocs, before + 1);
        EXPECT_EQ(app_alloc_state().live.count(t.get_data_handle()), 1u);
    }
    EXPECT_EQ(app_alloc_state().frees, app_alloc_state().allocs);
}

TEST_F(graph_ocl_t, engine_from_cache_blob_runs_partitions) {
    buffers_t bufs = matmul_inputs(3, 4, 5);
    run_gpu(matmul_bias_relu(3, 4, 5), bufs); // builds programs on eng
    size_t size = 0;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(eng.get(), &size, nullptr), dnnl_success);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(eng.get(), &size, blob.data()), dnnl_success);
    strm = dnnl::stream();
    eng = gocl::make_engine_with_allocator(device, context, alloc, blob);
    strm = dnnl::ocl_interop::make_stream(eng, queue);
    {
        buffers_t in = sdpa_inputs(1, 8, 4, true, dt::f32);
        expect_reference(sdpa(1, 8, 4, true, dt::f32), in, 9,
                sdpa_reference(1, 8, 4, true, dt::f32, in), 1, 1e-4f, dt::f32);
    }
    const size_t before = app_alloc_state().allocs;
    tensor t(lt(0, {3, 5}), eng, DNNL_MEMORY_ALLOCATE);
    EXPECT_EQ(app_alloc_state().allocs, before + 1); // the blob's engine uses the allocator too
}

TEST_F(graph_ocl_t, bad_executions_return_a_status) {
    graph g(dnnl::engine::kind::gpu);
    matmul_bias_relu(2, 3, 4)(g);
    g.finalize();
    auto p = g.get_partitions()[0];
    auto ins = p.get_input_ports();
    auto outs = p.get_output_ports();
    compiled_partition cp = p.compile(ins, outs, eng);
    std::vector<tensor> ts;
    std::vector<const_dnnl_graph_tensor_t> ci, co;
    for (auto &i : ins) {
        ts.emplace_back(i, eng, svm(i.get_mem_size()));
        ci.push_back(ts.back().get());
    }
    ts.emplace_back(outs[0], eng, svm(outs[0].get_mem_size()));
    co.push_back(ts.back().get());
    cl_event ev = nullptr;
    auto exec = [&](const_dnnl_graph_compiled_partition_t c, dnnl_stream_t s, size_t nout,
                        const cl_event *deps, int ndeps) {
        return dnnl_graph_ocl_interop_compiled_partition_execute(
                c, s, ci.size(), ci.data(), nout, co.data(), deps, ndeps, &ev);
    };
    EXPECT_EQ(exec(nullptr, strm.get(), 1, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(exec((const_dnnl_graph_compiled_partition_t)&ci, strm.get(), 1, nullptr, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(exec(cp.get(), nullptr, 1, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(exec(cp.get(), strm.get(), 0, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(exec(cp.get(), strm.get(), 1, nullptr, 2), dnnl_invalid_arguments);
    EXPECT_EQ(exec(cp.get(), strm.get(), 1, nullptr, -1), dnnl_invalid_arguments);
    cl_event null_dep = nullptr;
    EXPECT_EQ(exec(cp.get(), strm.get(), 1, &null_dep, 1), dnnl_invalid_arguments);
    // A CPU stream, and a partition compiled for the CPU engine.
    dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    dnnl::stream cpu_strm(cpu);
    EXPECT_EQ(exec(cp.get(), cpu_strm.get(), 1, nullptr, 0), dnnl_invalid_arguments);
    graph gc(dnnl::engine::kind::cpu);
    matmul_bias_relu(2, 3, 4)(gc);
    gc.finalize();
    auto pc = gc.get_partitions()[0];
    compiled_partition cpc = pc.compile(pc.get_input_ports(), pc.get_output_ports(), cpu);
    EXPECT_EQ(exec(cpc.get(), strm.get(), 1, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_ocl_interop_compiled_partition_execute_v2(cp.get(), strm.get(),
                      ci.size(), ci.data(), 1, co.data(),
                      (const_dnnl_graph_tensor_t)&ci, nullptr, 0, &ev),
            dnnl_invalid_arguments); // not a tensor
    EXPECT_EQ(ev, nullptr);
    // Compiling a GPU partition for the CPU engine is refused.
    EXPECT_THROW(p.compile(ins, outs, cpu), dnnl::error);
}

// The SDPA partition at batch 1, 16 heads, sequence 1024, head size 64 on the OpenCL engine
// against the reference, f32 and bf16. Too slow for a CPU OpenCL device in CI: runs when
// ANYDNN_GRAPH_SDPA_LARGE=1 (the H100 check).
TEST_F(graph_ocl_t, sdpa_large_f32_and_bf16_match_reference) {
    const char *on = std::getenv("ANYDNN_GRAPH_SDPA_LARGE");
    if (!on || std::string(on) != "1") GTEST_SKIP() << "set ANYDNN_GRAPH_SDPA_LARGE=1";
    const int64_t H = 16, S = 1024, D = 64;
    for (dt type : {dt::f32, dt::bf16}) {
        SCOPED_TRACE(type == dt::f32 ? "f32" : "bf16");
        for (bool mask : {false, true}) {
            SCOPED_TRACE(mask ? "causal" : "no mask");
            const auto t0 = std::chrono::steady_clock::now();
            {
                buffers_t in = sdpa_inputs(H, S, D, mask, type);
                expect_reference(sdpa(H, S, D, mask, type), in, 9,
                        sdpa_reference(H, S, D, mask, type, in), 1, type == dt::f32 ? 1e-4f : 3e-2f, type);
            }
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                                     .count();
            const double ms = gpu_median_ms(
                    sdpa(H, S, D, mask, type), sdpa_inputs(H, S, D, mask, type), 5);
            double unfused_ms = 0;
            {
                sdpa_unfused_t unfused;
                unfused_ms = gpu_median_ms(
                        sdpa(H, S, D, mask, type), sdpa_inputs(H, S, D, mask, type), 5);
            }
            std::printf("sdpa 1x%lldx%lldx%lld %s %s: matches the reference (check took %.2f s); "
                        "OpenCL partition execute median of 5: fused kernel %.3f ms, "
                        "primitive sequence %.3f ms\n",
                    (long long)H, (long long)S, (long long)D, type == dt::f32 ? "f32" : "bf16",
                    mask ? "causal" : "no mask", s, ms, unfused_ms);
        }
    }
}

TEST_F(graph_ocl_t, conv_nxc_bias_add_relu_matches_reference) {
    build_t b = [](graph &g) {
        op conv(1, op::kind::Convolution, {lt(0, {1, 5, 5, 3}), lt(1, {3, 3, 3, 4}), lt(2, {4})},
                {lt(4, {1, 5, 5, 4})});
        conv.set_attr(op::attr::strides, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::pads_begin, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::pads_end, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::dilations, std::vector<int64_t> {1, 1});
        conv.set_attr(op::attr::data_format, std::string("NXC"));
        conv.set_attr(op::attr::weights_format, std::string("XIO"));
        op add(2, op::kind::Add, {lt(4, {1, 5, 5, 4}), lt(3, {1, 5, 5, 4})}, {lt(5, {1, 5, 5, 4})});
        op relu(3, op::kind::ReLU, {lt(5, {1, 5, 5, 4})}, {lt(6, {1, 5, 5, 4})});
        g.add_op(conv);
        g.add_op(add);
        g.add_op(relu);
    };
    buffers_t in {{0, bytes_of(random_floats(75, 8))}, {1, bytes_of(random_floats(108, 9))},
            {2, bytes_of(random_floats(4, 10))}, {3, bytes_of(random_floats(100, 11))}};
    // convolution_ref's relation in dense nchw / oihw indices, read from NHWC src and HWIO
    // weights; dst NHWC.
    convolution_ref::problem_t p;
    p.mb = 1;
    p.ic = 3;
    p.oc = 4;
    p.i[0] = p.i[1] = 5;
    const std::vector<float> x = floats_of(in[0], dt::f32), w = floats_of(in[1], dt::f32),
                             bias = floats_of(in[2], dt::f32), other = floats_of(in[3], dt::f32);
    std::vector<double> acc(100, 0.0); // nchw
    convolution_ref::relation(p, false, [&](int64_t si, int64_t wi, int64_t di) {
        const int64_t c = si / 25, hw = si % 25; // src nchw -> nhwc
        const int64_t o = wi / 27, ci = wi / 9 % 3, k = wi % 9; // oihw -> hwio
        acc[size_t(di)] += double(x[size_t(hw * 3 + c)]) * w[size_t((k * 3 + ci) * 4 + o)];
    });
    std::vector<float> want(100);
    for (int64_t o = 0; o < 4; ++o)
        for (int64_t hw = 0; hw < 25; ++hw) {
            const size_t nhwc = size_t(hw * 4 + o);
            want[nhwc] = float(std::max(0.0, acc[size_t(o * 25 + hw)] + bias[size_t(o)] + other[nhwc]));
        }
    expect_reference(b, in, 6, want, 1, 1e-5f);
}

// What the OpenCL engine cannot run yet is refused at compile, never computed wrongly:
// quantization constants (int8 patterns) and host scalars.
// Quantization parameters are constants of the compiled partition, uploaded by its first
// step; host scalars are not supported on OpenCL engines yet.
TEST_F(graph_ocl_t, int8_partitions_run_and_host_scalars_are_unimplemented) {
    const build_t dq_matmul = [](graph &g) {
        op dq(1, op::kind::Dequantize, {lt(0, {4, 8}, dt::u8)}, {lt(10, {4, 8})});
        dq.set_attr(op::attr::scales, std::vector<float> {0.05f});
        dq.set_attr(op::attr::zps, std::vector<int64_t> {128});
        dq.set_attr(op::attr::qtype, std::string("per_tensor"));
        op mm(2, op::kind::MatMul, {lt(10, {4, 8}), lt(1, {8, 6})}, {lt(12, {4, 6})});
        g.add_op(dq);
        g.add_op(mm);
    };
    std::vector<uint8_t> a(32);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = uint8_t(i * 41 % 256);
    const auto b = random_floats(48, 5);
    std::vector<float> want(24, 0.f);
    for (int m = 0; m < 4; ++m)
        for (int n = 0; n < 6; ++n) {
            double acc = 0;
            for (int k = 0; k < 8; ++k)
                acc += (double(a[m * 8 + k]) - 128) * 0.05 * b[k * 6 + n];
            want[m * 6 + n] = float(acc);
        }
    expect_reference(dq_matmul, {{0, a}, {1, bytes_of(b)}}, 12, want, 1, 1e-5f);

    graph g(dnnl::engine::kind::gpu);
    const logical_tensor s(3, dt::f32, lt_dims {}, logical_tensor::layout_type::strided,
            logical_tensor::property_type::host_scalar);
    g.add_op(op(1, op::kind::Multiply, {lt(0, {2, 3}), s}, {lt(1, {2, 3})}));
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    try {
        parts[0].compile(parts[0].get_input_ports(), parts[0].get_output_ports(), eng);
        FAIL() << "a host scalar compiled on an OpenCL engine";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}
