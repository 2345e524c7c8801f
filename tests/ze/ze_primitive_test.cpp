// Primitives on a Level Zero engine (the test driver, over OpenCL on PoCL) against the CPU
// engine: eltwise, binary, matmul, reorders (on the device and across engines); a primitive
// chained to the application's own copies through events; engine cache blobs; bad input.
// They run under the validation layer's parameter checks (which refuse OpenCL C source
// modules): their programs are build-time SPIR-V (src/gpu/spirv_programs.txt) or native
// binaries built by OpenCL on the device of the same name (ANYDNN_ZE_LOG_MODULES=1 says which).
#include <dlfcn.h>

#include <cmath>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

class ze_primitive : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const auto &d = drivers[0];
        eng = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
        strm = dnnl::stream(eng);
    }
    void TearDown() override {
        strm = dnnl::stream();
        eng = dnnl::engine();
        ze_app_t::TearDown();
    }

    // Values in [-2, 2) that differ from element to element.
    static void fill(memory &m, int seed) {
        float *p = static_cast<float *>(m.map_data());
        const size_t n = m.get_desc().get_size() / sizeof(float);
        for (size_t i = 0; i < n; ++i) p[i] = float((i * 37 + seed * 11) % 64) / 16.f - 2.f;
        m.unmap_data(p);
    }
    static std::vector<float> read(const memory &m) {
        const float *p = static_cast<const float *>(m.map_data());
        std::vector<float> v(p, p + m.get_desc().get_size() / sizeof(float));
        m.unmap_data(const_cast<float *>(p));
        return v;
    }
    // The same memory on the CPU engine, with the same contents.
    static memory on_cpu(const memory &m, const dnnl::engine &cpu) {
        memory c(m.get_desc(), cpu);
        std::vector<float> v = read(m);
        float *p = static_cast<float *>(c.get_data_handle());
        std::copy(v.begin(), v.end(), p);
        return c;
    }
    static void expect_near(const std::vector<float> &got, const std::vector<float> &want,
            float tol) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            ASSERT_NEAR(got[i], want[i], tol * (1.f + std::fabs(want[i]))) << "at " << i;
    }

    // Runs `make(engine)` with the same arguments on the Level Zero and CPU engines and
    // compares `dst_arg`.
    template <typename make_t>
    void expect_same_as_cpu(const make_t &make, const std::vector<memory::desc> &mds,
            const std::vector<int> &arg_ids, int dst_arg, float tol) {
        dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
        dnnl::stream cpu_strm(cpu);
        std::unordered_map<int, memory> ze_args, cpu_args;
        for (size_t i = 0; i < mds.size(); ++i) {
            memory m(mds[i], eng);
            fill(m, static_cast<int>(i));
            ze_args[arg_ids[i]] = m;
            cpu_args[arg_ids[i]] = on_cpu(m, cpu);
        }
        dnnl::primitive p = make(eng);
        p.execute(strm, ze_args);
        strm.wait();
        make(cpu).execute(cpu_strm, cpu_args);
        cpu_strm.wait();
        expect_near(read(ze_args[dst_arg]), read(cpu_args[dst_arg]), tol);
    }

    dnnl::engine eng;
    dnnl::stream strm;
};

TEST_F(ze_primitive, eltwise_matches_cpu) {
    for (memory::dims dims : {memory::dims {1}, memory::dims {7, 13}, memory::dims {3, 5, 1, 31}}) {
        const tag t = dims.size() == 1 ? tag::a : dims.size() == 2 ? tag::ab : tag::abcd;
        memory::desc md(dims, dt::f32, t);
        // One build per algorithm (sizes are kernel arguments): few, as CI starts cold.
        for (auto alg : {dnnl::algorithm::eltwise_relu}) {
            expect_same_as_cpu(
                    [&](const dnnl::engine &e) {
                        return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(e,
                                dnnl::prop_kind::forward_inference, alg, md, md, 0.5f, 0.f));
                    },
                    {md, md}, {DNNL_ARG_SRC, DNNL_ARG_DST}, DNNL_ARG_DST, 1e-5f);
        }
    }
}

TEST_F(ze_primitive, binary_with_broadcast_matches_cpu) {
    memory::desc a({3, 5, 7}, dt::f32, tag::abc), b({1, 5, 1}, dt::f32, tag::abc);
    for (auto alg : {dnnl::algorithm::binary_add}) {
        expect_same_as_cpu(
                [&](const dnnl::engine &e) {
                    return dnnl::binary(dnnl::binary::primitive_desc(e, alg, a, b, a));
                },
                {a, b, a}, {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_DST}, DNNL_ARG_DST, 1e-6f);
    }
}

TEST_F(ze_primitive, matmul_matches_cpu) {
    for (memory::dim m : {1, 7}) {
        memory::desc src({m, 13}, dt::f32, tag::ab), wei({13, 5}, dt::f32, tag::ab),
                dst({m, 5}, dt::f32, tag::ab);
        expect_same_as_cpu(
                [&](const dnnl::engine &e) {
                    return dnnl::matmul(dnnl::matmul::primitive_desc(e, src, wei, dst));
                },
                {src, wei, dst}, {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST}, DNNL_ARG_DST,
                1e-5f);
    }
}

TEST_F(ze_primitive, reorders_on_the_device_and_across_engines) {
    memory::desc nchw({2, 3, 5, 7}, dt::f32, tag::nchw), nhwc({2, 3, 5, 7}, dt::f32, tag::nhwc);
    dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
    // CPU nchw -> Level Zero nhwc -> Level Zero nchw -> CPU nchw: the values come back.
    memory host_in(nchw, cpu), dev_nhwc(nhwc, eng), dev_nchw(nchw, eng), host_out(nchw, cpu);
    fill(host_in, 3);
    dnnl::reorder(host_in, dev_nhwc).execute(strm, host_in, dev_nhwc);
    dnnl::reorder(dev_nhwc, dev_nchw).execute(strm, dev_nhwc, dev_nchw);
    dnnl::reorder(dev_nchw, host_out).execute(strm, dev_nchw, host_out);
    strm.wait();
    expect_near(read(host_out), read(host_in), 0.f);
    // And the device's nhwc really is nhwc.
    std::vector<float> in = read(host_in), mid = read(dev_nhwc);
    const int C = 3, H = 5, W = 7;
    for (int n = 0; n < 2; ++n)
        for (int c = 0; c < C; ++c)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w)
                    ASSERT_EQ(mid[((n * H + h) * W + w) * C + c],
                            in[((n * C + c) * H + h) * W + w]);
}

// The application copies into device USM on its own list, the primitive runs after that copy's
// event, and the application copies the result out after the primitive's event.
TEST_F(ze_primitive, chained_to_the_application_work_through_events) {
    const auto &d = drivers[0];
    const int n = 1000;
    ze_command_queue_desc_t qdesc = {};
    qdesc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    ze_command_list_handle_t list = nullptr;
    ASSERT_EQ(zeCommandListCreateImmediate(d.context, d.device, &qdesc, &list), ZE_RESULT_SUCCESS);
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    ze_event_pool_handle_t pool = nullptr;
    ze_device_handle_t device = d.device;
    ASSERT_EQ(zeEventPoolCreate(d.context, &pdesc, 1, &device, &pool), ZE_RESULT_SUCCESS);
    ze_event_handle_t copied_in = nullptr, copied_out = nullptr;
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
            ZE_EVENT_SCOPE_FLAG_HOST};
    ASSERT_EQ(zeEventCreate(pool, &edesc, &copied_in), ZE_RESULT_SUCCESS);
    edesc.index = 1;
    ASSERT_EQ(zeEventCreate(pool, &edesc, &copied_out), ZE_RESULT_SUCCESS);
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void *host_in = nullptr, *host_out = nullptr, *dev_in = nullptr, *dev_out = nullptr;
    const size_t bytes = n * sizeof(float);
    ASSERT_EQ(zeMemAllocHost(d.context, &hdesc, bytes, 64, &host_in), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeMemAllocHost(d.context, &hdesc, bytes, 64, &host_out), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeMemAllocDevice(d.context, &ddesc, bytes, 64, d.device, &dev_in), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeMemAllocDevice(d.context, &ddesc, bytes, 64, d.device, &dev_out), ZE_RESULT_SUCCESS);
    for (int i = 0; i < n; ++i) static_cast<float *>(host_in)[i] = float(i % 17) - 8.f;
    {
        memory::desc md({n}, dt::f32, tag::a);
        dnnl::stream s = dnnl::ze_interop::make_stream(eng, list);
        memory src = dnnl::ze_interop::make_memory(md, eng, dev_in);
        memory dst = dnnl::ze_interop::make_memory(md, eng, dev_out);
        dnnl::eltwise_forward relu(dnnl::eltwise_forward::primitive_desc(eng,
                dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
        ASSERT_EQ(zeCommandListAppendMemoryCopy(list, dev_in, host_in, bytes, copied_in, 0, nullptr),
                ZE_RESULT_SUCCESS);
        ze_event_handle_t ran = dnnl::ze_interop::execute(
                relu, s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}}, {copied_in});
        ASSERT_NE(ran, nullptr);
        ASSERT_EQ(zeCommandListAppendMemoryCopy(list, host_out, dev_out, bytes, copied_out, 1, &ran),
                ZE_RESULT_SUCCESS);
        ASSERT_EQ(zeEventHostSynchronize(copied_out, UINT64_MAX), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeEventQueryStatus(ran), ZE_RESULT_SUCCESS);
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(static_cast<float *>(host_out)[i], std::max(0.f, float(i % 17) - 8.f)) << i;
        // Without dependencies and without asking for an event.
        EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu.get(), s.get(), 0, nullptr, 0, nullptr,
                          nullptr),
                dnnl_invalid_arguments); // src and dst missing
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src.get()}, {DNNL_ARG_DST, dst.get()}};
        EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu.get(), s.get(), 2, args, 0, nullptr,
                          nullptr),
                dnnl_success);
        s.wait();
    }
    EXPECT_EQ(zeMemFree(d.context, host_in), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(d.context, host_out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(d.context, dev_in), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(d.context, dev_out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(copied_in), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(copied_out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ze_primitive, returned_events_are_reused_safely) {
    memory::desc md({64}, dt::f32, tag::a);
    memory src(md, eng), dst(md, eng);
    fill(src, 1);
    dnnl::eltwise_forward relu(dnnl::eltwise_forward::primitive_desc(eng,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
    ze_event_handle_t first = nullptr, last = nullptr;
    for (int i = 0; i < 300; ++i) { // more than a stream's ring of returned events
        last = dnnl::ze_interop::execute(relu, strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}},
                last ? std::vector<ze_event_handle_t> {last} : std::vector<ze_event_handle_t> {});
        if (!first) first = last;
    }
    ASSERT_EQ(zeEventHostSynchronize(last, UINT64_MAX), ZE_RESULT_SUCCESS);
    strm.wait();
    std::vector<float> in = read(src), out = read(dst);
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], std::max(0.f, in[i]));
}

TEST_F(ze_primitive, cache_blob_round_trip) {
    const auto &d = drivers[0];
    memory::desc md({33}, dt::f32, tag::a);
    auto make_relu = [&](const dnnl::engine &e) {
        return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(e,
                dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
    };
    dnnl::primitive built = make_relu(eng);
    const size_t id_only = dnnl::ze_interop::get_engine_cache_blob(
            dnnl::ze_interop::make_engine(d.driver, d.device, d.context))
                                   .size();
    std::vector<uint8_t> blob = dnnl::ze_interop::get_engine_cache_blob(eng);
    EXPECT_GT(blob.size(), id_only); // holds the module binary
    dnnl::engine from_blob = dnnl::ze_interop::make_engine(d.driver, d.device, d.context, blob);
    dnnl::stream s(from_blob);
    memory src(md, from_blob), dst(md, from_blob);
    fill(src, 2);
    make_relu(from_blob).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    std::vector<float> in = read(src), out = read(dst);
    for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], std::max(0.f, in[i]));
    // Truncated or bit-flipped blobs, and one of another device, are refused before the
    // driver sees a byte.
    dnnl_engine_t e = nullptr;
    for (size_t n = 1; n < blob.size(); n += n < 256 ? 1 : blob.size() / 61 + 1) {
        EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                          &e, d.driver, d.device, d.context, n, blob.data()),
                dnnl_invalid_arguments)
                << "cut to " << n;
        EXPECT_EQ(e, nullptr);
    }
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, d.driver, d.device, d.context, blob.size() - 1, blob.data()),
            dnnl_invalid_arguments);
    for (size_t i = 0; i < blob.size(); i += i < 256 ? 1 : blob.size() / 61 + 1) {
        std::vector<uint8_t> bad = blob;
        bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
        EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                          &e, d.driver, d.device, d.context, bad.size(), bad.data()),
                dnnl_invalid_arguments)
                << "bit flipped in byte " << i;
        EXPECT_EQ(e, nullptr);
    }
    if (!d.other_devices.empty()) {
        EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(&e, d.driver,
                          d.other_devices[0], d.context, blob.size(), blob.data()),
                dnnl_invalid_arguments);
        EXPECT_EQ(e, nullptr);
    }
    // The size of the blob must match.
    size_t size = blob.size() + 1;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(eng.get(), &size, blob.data()),
            dnnl_invalid_arguments);
}

TEST_F(ze_primitive, bad_input) {
    memory::desc md({8}, dt::f32, tag::a);
    memory src(md, eng), dst(md, eng);
    dnnl::eltwise_forward relu(dnnl::eltwise_forward::primitive_desc(eng,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src.get()}, {DNNL_ARG_DST, dst.get()}};
    ze_event_handle_t done = nullptr;
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(nullptr, strm.get(), 2, args, 0, nullptr, &done),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu.get(), nullptr, 2, args, 0, nullptr, &done),
            dnnl_invalid_arguments);
    ze_event_handle_t null_event = nullptr;
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu.get(), strm.get(), 2, args, 1, &null_event,
                      &done),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu.get(), strm.get(), 2, args, 1, nullptr,
                      &done),
            dnnl_invalid_arguments);
    EXPECT_EQ(done, nullptr);
    // A primitive of another Level Zero engine on this stream.
    const auto &d = drivers[0];
    dnnl::engine other = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
    dnnl::eltwise_forward other_relu(dnnl::eltwise_forward::primitive_desc(other,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(other_relu.get(), strm.get(), 2, args, 0,
                      nullptr, &done),
            dnnl_invalid_arguments);
    // Cache blob calls with null handles.
    size_t size = 0;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(eng.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, d.driver, d.device, d.context, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      nullptr, d.driver, d.device, d.context, 4, reinterpret_cast<const uint8_t *>("abcd")),
            dnnl_invalid_arguments);
}

// A regular command list is refused where the loader can tell (Level Zero 1.9+); Debian's 1.4
// loader cannot, and the stream takes the application's word for it (docs/level_zero.md).
TEST_F(ze_primitive, regular_command_list) {
    const auto &d = drivers[0];
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_command_list_handle_t list = nullptr;
    ASSERT_EQ(zeCommandListCreate(d.context, d.device, &desc, &list), ZE_RESULT_SUCCESS);
    const bool loader_can_tell = dlsym(RTLD_DEFAULT, "zeCommandListIsImmediate") != nullptr;
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_ze_interop_stream_create(&s, eng.get(), list, 0),
            loader_can_tell ? dnnl_invalid_arguments : dnnl_success);
    if (s) {
        EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
    }
    EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

} // namespace
} // namespace ze_test
