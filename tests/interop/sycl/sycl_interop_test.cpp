// SYCL interop (dnnl_sycl.h / .hpp): engines over the application's device and context,
// streams over its queues, USM of every kind and buffer memory, each checked by running
// primitives against plain references; bad input gives a status.
#include "interop/sycl/sycl_fixture.hpp"

using namespace sycl_test;
namespace si = dnnl::sycl_interop;

using sycl_interop = sycl_app_t;

TEST_F(sycl_interop, engine_keeps_device_and_context) {
    EXPECT_TRUE(si::get_device(eng) == device);
    EXPECT_TRUE(si::get_context(eng) == context);
    EXPECT_EQ(eng.get_kind(), dnnl::engine::kind::gpu); // it runs our GPU (OpenCL) kernels
    void *d = nullptr, *c = nullptr;
    ASSERT_EQ(dnnl_sycl_interop_engine_get_device(eng.get(), &d), dnnl_success);
    ASSERT_EQ(dnnl_sycl_interop_engine_get_context(eng.get(), &c), dnnl_success);
    EXPECT_TRUE(*static_cast<sycl::device *>(d) == device);
    EXPECT_TRUE(*static_cast<sycl::context *>(c) == context);
    // The engine keeps its own copies: the application's may go.
    dnnl::engine e2;
    {
        sycl::context ctx2(device);
        e2 = si::make_engine(device, ctx2);
    }
    sycl::queue q2(si::get_context(e2), device, sycl::property::queue::in_order {});
    dnnl::stream s2 = si::make_stream(e2, q2);
    memory m(vec_md(5), e2);
    EXPECT_EQ(si::get_memory_kind(m), si::memory_kind::usm);
}

TEST_F(sycl_interop, stream_wraps_in_order_and_out_of_order_queues) {
    EXPECT_TRUE(si::get_queue(strm) == queue);
    sycl::queue ooo(context, device);
    dnnl::stream s = si::make_stream(eng, ooo);
    EXPECT_TRUE(si::get_queue(s) == ooo);
    void *q = nullptr;
    ASSERT_EQ(dnnl_sycl_interop_stream_get_queue(s.get(), &q), dnnl_success);
    EXPECT_TRUE(*static_cast<sycl::queue *>(q) == ooo);
    // A stream the library makes has a queue of its own, in order unless asked otherwise.
    dnnl::stream own(eng);
    EXPECT_TRUE(si::get_queue(own).is_in_order());
    EXPECT_TRUE(si::get_queue(own).get_context() == context);
    dnnl::stream own_ooo(eng, dnnl::stream::flags::out_of_order);
    EXPECT_FALSE(si::get_queue(own_ooo).is_in_order());
    // ... and runs primitives.
    const int64_t n = 19;
    auto x = random_floats(n, 3);
    float *src = usm(n), *dst = usm(n);
    write(src, x);
    relu(eng, n).execute(own_ooo, {{DNNL_ARG_SRC, memory(vec_md(n), eng, src)},
                                          {DNNL_ARG_DST, memory(vec_md(n), eng, dst)}});
    own_ooo.wait();
    expect_equal(read(dst, n), relu_ref(x));
}

TEST_F(sycl_interop, usm_of_every_kind_runs_a_primitive) {
    for (auto kind : {sycl::usm::alloc::device, sycl::usm::alloc::shared, sycl::usm::alloc::host})
        for (int64_t n : {1, 37, 1031}) {
            SCOPED_TRACE("usm kind " + std::to_string(int(kind)) + ", n " + std::to_string(n));
            auto x = random_floats(n, unsigned(n));
            float *src = usm(n, kind), *dst = usm(n, kind);
            write(src, x);
            memory ms(vec_md(n), eng, src), md(vec_md(n), eng, dst);
            EXPECT_EQ(si::get_memory_kind(ms), si::memory_kind::usm);
            EXPECT_EQ(ms.get_data_handle(), src); // the user's pointer, not a copy
            sycl::event done = si::execute(relu(eng, n), strm,
                    {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
            done.wait();
            EXPECT_EQ(done.get_info<sycl::info::event::command_execution_status>(),
                    sycl::info::event_command_status::complete);
            expect_equal(read(dst, n), relu_ref(x));
        }
    // Zero-size tensors run (and do nothing).
    memory z(vec_md(0), eng);
    si::execute(relu(eng, 0), strm, {{DNNL_ARG_SRC, z}, {DNNL_ARG_DST, z}}).wait();
}

TEST_F(sycl_interop, memory_the_library_allocates) {
    const int64_t n = 100;
    auto x = random_floats(n, 7);
    // USM by default, of the engine's context; mapped for the host.
    memory src(vec_md(n), eng), dst = si::make_memory(vec_md(n), eng, si::memory_kind::usm);
    EXPECT_EQ(si::get_memory_kind(src), si::memory_kind::usm);
    EXPECT_NE(sycl::get_pointer_type(src.get_data_handle(), context), sycl::usm::alloc::unknown);
    float *p = src.map_data<float>();
    std::copy(x.begin(), x.end(), p);
    src.unmap_data(p);
    relu(eng, n).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    float *q = dst.map_data<float>();
    std::vector<float> got(q, q + n);
    dst.unmap_data(q);
    expect_equal(got, relu_ref(x));
    // A buffer when asked for one: mapped through a host accessor.
    memory b = si::make_memory(vec_md(n), eng, si::memory_kind::buffer);
    EXPECT_EQ(si::get_memory_kind(b), si::memory_kind::buffer);
    EXPECT_GE(si::get_buffer<float>(b).size(), size_t(n));
    relu(eng, n).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, b}});
    strm.wait();
    float *r = b.map_data<float>();
    got.assign(r, r + n);
    b.unmap_data(r);
    expect_equal(got, relu_ref(x));
}

TEST_F(sycl_interop, usm_and_buffer_memory_on_one_primitive) {
    const int64_t n = 333;
    auto a = random_floats(n, 11), b = random_floats(n, 12), b2 = random_floats(n, 13);
    float *a_usm = usm(n);
    write(a_usm, a);
    sycl::buffer<float, 1> b_buf(b.data(), sycl::range<1>(n));
    b_buf.set_write_back(false);
    sycl::buffer<float, 2> d_buf(sycl::range<2>(n, 1)); // any buffer<T, N> is taken
    memory ma(vec_md(n), eng, a_usm);
    memory mb = si::make_memory(vec_md(n), eng, b_buf);
    memory md = si::make_memory(vec_md(n), eng, d_buf);
    EXPECT_EQ(si::get_memory_kind(mb), si::memory_kind::buffer);
    auto prim = add(eng, n);
    si::execute(prim, strm, {{DNNL_ARG_SRC_0, ma}, {DNNL_ARG_SRC_1, mb}, {DNNL_ARG_DST, md}});
    auto check = [&](const std::vector<float> &second) {
        sycl::host_accessor acc(d_buf, sycl::read_only); // waits for our task
        for (int64_t i = 0; i < n; ++i)
            ASSERT_EQ(acc[i][0], a[i] + second[i]) << i;
    };
    check(b);
    // get_buffer shares the data of the buffer given.
    {
        auto d1 = si::get_buffer<float>(md);
        sycl::host_accessor acc(d1, sycl::read_only);
        EXPECT_EQ(acc[n - 1], a[n - 1] + b[n - 1]);
        auto d2 = si::get_buffer<float, 2>(md);
        EXPECT_EQ(d2.get_range()[0], size_t(n));
    }
    // set_buffer swaps the second input.
    sycl::buffer<float, 1> b2_buf(b2.data(), sycl::range<1>(n));
    b2_buf.set_write_back(false);
    si::set_buffer(mb, b2_buf);
    si::execute(prim, strm, {{DNNL_ARG_SRC_0, ma}, {DNNL_ARG_SRC_1, mb}, {DNNL_ARG_DST, md}});
    check(b2);
}

TEST_F(sycl_interop, gpu_engines_by_index_are_sycl_ones_when_asked) {
    setenv("ANYDNN_GPU_RUNTIME", "sycl", 1);
    const size_t count = dnnl::engine::get_count(dnnl::engine::kind::gpu);
    dnnl::engine e;
    if (count > 0) e = dnnl::engine(dnnl::engine::kind::gpu, 0);
    unsetenv("ANYDNN_GPU_RUNTIME");
    ASSERT_GT(count, 0u);
    EXPECT_TRUE(si::get_device(e) == device); // the one SYCL device here
    dnnl::stream s(e);
    EXPECT_TRUE(si::get_queue(s).is_in_order());
    const int64_t n = 45;
    auto x = random_floats(n, 5);
    memory src(vec_md(n), e), dst(vec_md(n), e);
    float *p = src.map_data<float>();
    std::copy(x.begin(), x.end(), p);
    src.unmap_data(p);
    relu(e, n).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    float *q = dst.map_data<float>();
    std::vector<float> got(q, q + n);
    dst.unmap_data(q);
    expect_equal(got, relu_ref(x));
}

TEST_F(sycl_interop, bad_input_is_a_status) {
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_sycl_interop_engine_create(nullptr, &device, &context), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_engine_create(&e, nullptr, &context), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_engine_create(&e, &device, nullptr), dnnl_invalid_arguments);
    // A device that is not in the context (a sub-device's context), where the device can be
    // partitioned.
    std::vector<sycl::device> subs;
    try {
        subs = device.create_sub_devices<sycl::info::partition_property::partition_equally>(1);
    } catch (const sycl::exception &) {
    }
    if (!subs.empty()) {
        sycl::context sub_ctx(subs[0]);
        EXPECT_EQ(dnnl_sycl_interop_engine_create(&e, &device, &sub_ctx), dnnl_invalid_arguments);
    }
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_sycl_interop_stream_create(&s, eng.get(), nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_stream_create(nullptr, eng.get(), &queue), dnnl_invalid_arguments);
    // A queue of another context than the engine's.
    sycl::context other(device);
    sycl::queue foreign(other, device);
    EXPECT_EQ(dnnl_sycl_interop_stream_create(&s, eng.get(), &foreign), dnnl_invalid_arguments);
    // Not SYCL objects of ours: the CPU engine, its stream and memory.
    dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    dnnl::stream cpu_strm(cpu);
    memory cpu_mem(vec_md(4), cpu);
    void *out = nullptr;
    EXPECT_EQ(dnnl_sycl_interop_engine_get_device(cpu.get(), &out), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_engine_get_context(cpu.get(), &out), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_stream_get_queue(cpu_strm.get(), &out), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_stream_create(&s, cpu.get(), &queue), dnnl_invalid_arguments);
    dnnl_sycl_interop_memory_kind_t kind;
    EXPECT_EQ(dnnl_sycl_interop_memory_get_memory_kind(cpu_mem.get(), &kind),
            dnnl_invalid_arguments);
    // Wrong memory kind: a host pointer that is not USM; an unknown kind; set_buffer and
    // get_buffer on USM memory.
    const int64_t n = 16;
    auto md = vec_md(n);
    float host[n];
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_sycl_interop_memory_create(&m, md.get(), eng.get(), dnnl_sycl_interop_usm, host),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_memory_create(&m, md.get(), eng.get(),
                      static_cast<dnnl_sycl_interop_memory_kind_t>(7), DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_memory_create(&m, md.get(), cpu.get(), dnnl_sycl_interop_usm,
                      DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    memory usm_mem(md, eng);
    sycl::buffer<uint8_t, 1> big(sycl::range<1>(n * sizeof(float)));
    EXPECT_EQ(dnnl_sycl_interop_memory_set_buffer(usm_mem.get(), &big), dnnl_invalid_arguments);
    EXPECT_THROW(si::get_buffer<float>(usm_mem), dnnl::error);
    // A buffer too small for the descriptor, at creation and when swapped in.
    sycl::buffer<uint8_t, 1> small(sycl::range<1>(n * sizeof(float) - 1));
    EXPECT_EQ(dnnl_sycl_interop_memory_create(
                      &m, md.get(), eng.get(), dnnl_sycl_interop_buffer, &small),
            dnnl_invalid_arguments);
    memory buf_mem = si::make_memory(md, eng, si::memory_kind::buffer);
    EXPECT_EQ(dnnl_sycl_interop_memory_set_buffer(buf_mem.get(), &small), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_memory_set_buffer(buf_mem.get(), &big), dnnl_success);
    // Execution on a stream of another engine, or on a stream that is not SYCL's.
    auto prim = relu(eng, n);
    dnnl::engine eng2 = si::make_engine(device, context);
    sycl::queue q2(context, device);
    dnnl::stream strm2 = si::make_stream(eng2, q2);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, usm_mem.get()}, {DNNL_ARG_DST, usm_mem.get()}};
    EXPECT_EQ(dnnl_sycl_interop_primitive_execute(prim.get(), strm2.get(), 2, args, nullptr,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_primitive_execute(prim.get(), cpu_strm.get(), 2, args, nullptr,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_primitive_execute(prim.get(), strm.get(), -1, args, nullptr,
                      nullptr),
            dnnl_invalid_arguments);
    // No dependencies and no event wanted: fine.
    EXPECT_EQ(dnnl_sycl_interop_primitive_execute(prim.get(), strm.get(), 2, args, nullptr,
                      nullptr),
            dnnl_success);
    // Destroyed objects.
    ASSERT_EQ(dnnl_sycl_interop_engine_create(&e, &device, &context), dnnl_success);
    ASSERT_EQ(dnnl_sycl_interop_stream_create(&s, e, &queue), dnnl_success);
    ASSERT_EQ(dnnl_sycl_interop_memory_create(
                      &m, md.get(), e, dnnl_sycl_interop_buffer, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_destroy(m), dnnl_success);
    ASSERT_EQ(dnnl_stream_destroy(s), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    EXPECT_EQ(dnnl_sycl_interop_engine_get_device(e, &out), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_stream_get_queue(s, &out), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_memory_get_memory_kind(m, &kind), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_memory_set_buffer(m, &big), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sycl_interop_stream_create(&s, e, &queue), dnnl_invalid_arguments);
}
