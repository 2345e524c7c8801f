// dnnl_ze_interop_*: every entry point checks its arguments and, where it needs Level Zero,
// says what is missing (no loader, no driver, or Level Zero engines not implemented yet);
// CPU and OpenCL engines, streams and memory are refused and keep working.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze.hpp"

namespace {

// Whether this process can reach a Level Zero driver, asked of the loader directly (the
// library's answer is what is under test). ANYDNN_ZE_LIBRARY=none hides the loader from us.
bool loader_hidden() {
    const char *env = std::getenv("ANYDNN_ZE_LIBRARY");
    return env && std::strcmp(env, "none") == 0;
}
bool has_ze_driver() {
    if (loader_hidden()) return false;
    void *lib = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    auto init = reinterpret_cast<decltype(&zeInit)>(dlsym(lib, "zeInit"));
    auto get = reinterpret_cast<decltype(&zeDriverGet)>(dlsym(lib, "zeDriverGet"));
    uint32_t count = 0;
    return init && get && init(ZE_INIT_FLAG_GPU_ONLY) == ZE_RESULT_SUCCESS
            && get(&count, nullptr) == ZE_RESULT_SUCCESS && count > 0;
}

// Handles no driver ever made: they must be refused without being dereferenced.
const auto fake_driver = reinterpret_cast<ze_driver_handle_t>(0x10);
const auto fake_device = reinterpret_cast<ze_device_handle_t>(0x20);
const auto fake_context = reinterpret_cast<ze_context_handle_t>(0x30);
const auto fake_list = reinterpret_cast<ze_command_list_handle_t>(0x40);
const auto fake_event = reinterpret_cast<ze_event_handle_t>(0x50);

// A CPU or OpenCL engine with a stream, a memory and a relu on it.
struct other_runtime_objects_t {
    explicit other_runtime_objects_t(dnnl_engine_kind_t kind) {
        EXPECT_EQ(dnnl_engine_create(&engine, kind, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags), dnnl_success);
        dnnl_dims_t dims = {8};
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a),
                dnnl_success);
        EXPECT_EQ(dnnl_memory_create(&memory, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, engine,
                          dnnl_forward_inference, dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr),
                dnnl_success);
        EXPECT_EQ(dnnl_primitive_create(&relu, pd), dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }
    ~other_runtime_objects_t() {
        dnnl_primitive_destroy(relu);
        dnnl_memory_destroy(memory);
        dnnl_memory_desc_destroy(md);
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }

    // Every dnnl_ze_interop call that takes an engine, stream or primitive refuses ours.
    void expect_refused() {
        size_t size = 0;
        std::vector<uint8_t> blob(16);
        EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(engine, &size, nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(engine, &size, blob.data()),
                dnnl_invalid_arguments);
        ze_context_handle_t context = nullptr;
        ze_device_handle_t device = nullptr;
        ze_driver_handle_t driver = nullptr;
        EXPECT_EQ(dnnl_ze_interop_engine_get_context(engine, &context), dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_ze_interop_engine_get_device(engine, &device), dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_ze_interop_engine_get_driver(engine, &driver), dnnl_invalid_arguments);
        EXPECT_EQ(context, nullptr);
        EXPECT_EQ(device, nullptr);
        EXPECT_EQ(driver, nullptr);
        dnnl_stream_t s = nullptr;
        EXPECT_EQ(dnnl_ze_interop_stream_create(&s, engine, fake_list, 0), dnnl_invalid_arguments);
        EXPECT_EQ(s, nullptr);
        ze_command_list_handle_t list = nullptr;
        EXPECT_EQ(dnnl_ze_interop_stream_get_list(stream, &list), dnnl_invalid_arguments);
        EXPECT_EQ(list, nullptr);
        dnnl_memory_t m = nullptr;
        void *handle = DNNL_MEMORY_ALLOCATE;
        EXPECT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &handle),
                dnnl_invalid_arguments);
        EXPECT_EQ(m, nullptr);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, memory}, {DNNL_ARG_DST, memory}};
        ze_event_handle_t done = nullptr;
        EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, 0, nullptr, &done),
                dnnl_invalid_arguments);
        EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu, stream, 2, args, 1, &fake_event, &done),
                dnnl_invalid_arguments);
        EXPECT_EQ(done, nullptr);
    }

    // The relu still runs on the engine's own stream after all that.
    void expect_working() {
        std::vector<float> in = {-2, -1, 0, 1, 2, 3, -4, 5};
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(memory, &p), dnnl_success);
        std::memcpy(p, in.data(), in.size() * sizeof(float));
        ASSERT_EQ(dnnl_memory_unmap_data(memory, p), dnnl_success);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, memory}, {DNNL_ARG_DST, memory}};
        ASSERT_EQ(dnnl_primitive_execute(relu, stream, 2, args), dnnl_success);
        ASSERT_EQ(dnnl_stream_wait(stream), dnnl_success);
        ASSERT_EQ(dnnl_memory_map_data(memory, &p), dnnl_success);
        for (size_t i = 0; i < in.size(); ++i)
            EXPECT_EQ(static_cast<float *>(p)[i], in[i] > 0 ? in[i] : 0.f) << i;
        ASSERT_EQ(dnnl_memory_unmap_data(memory, p), dnnl_success);
    }

    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    dnnl_memory_desc_t md = nullptr;
    dnnl_memory_t memory = nullptr;
    dnnl_primitive_t relu = nullptr;
};

TEST(ze_interop, null_handles_are_refused) {
    dnnl_engine_t e = nullptr;
    size_t size = 0;
    uint8_t byte = 0;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(nullptr, fake_device, &size, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(fake_driver, nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(fake_driver, fake_device, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(nullptr, fake_driver, fake_device, fake_context),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, nullptr, fake_device, fake_context),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, fake_driver, nullptr, fake_context),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, fake_driver, fake_device, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, fake_driver, fake_device, fake_context, 0, &byte),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, fake_driver, fake_device, fake_context, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, nullptr, fake_device, fake_context, 1, &byte),
            dnnl_invalid_arguments);
    EXPECT_EQ(e, nullptr);
    ze_context_handle_t context;
    ze_device_handle_t device;
    ze_driver_handle_t driver;
    EXPECT_EQ(dnnl_ze_interop_engine_get_context(nullptr, &context), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_device(nullptr, &device), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_get_driver(nullptr, &driver), dnnl_invalid_arguments);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_ze_interop_stream_create(&s, nullptr, fake_list, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_stream_create(nullptr, nullptr, fake_list, 0),
            dnnl_invalid_arguments);
    ze_command_list_handle_t list;
    EXPECT_EQ(dnnl_ze_interop_stream_get_list(nullptr, &list), dnnl_invalid_arguments);
    dnnl_memory_t m = nullptr;
    void *handle = DNNL_MEMORY_ALLOCATE;
    EXPECT_EQ(dnnl_ze_interop_memory_create(&m, nullptr, nullptr, 1, &handle),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_memory_create(nullptr, nullptr, nullptr, 1, &handle),
            dnnl_invalid_arguments);
    ze_event_handle_t done = nullptr;
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(nullptr, nullptr, 0, nullptr, 0, nullptr, &done),
            dnnl_invalid_arguments);
}

TEST(ze_interop, engine_creation_says_what_is_missing) {
    dnnl_engine_t e = nullptr;
    size_t size = 0;
    uint8_t byte = 0;
    // Without a driver: a runtime error (nothing to make an engine on). With one: the fake
    // handles are not the driver's, which is found out without dereferencing them.
    const dnnl_status_t expected = has_ze_driver() ? dnnl_invalid_arguments : dnnl_runtime_error;
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, fake_driver, fake_device, fake_context), expected);
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, fake_driver, fake_device, fake_context, 1, &byte),
            expected);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(fake_driver, fake_device, &size, nullptr),
            expected);
    EXPECT_EQ(e, nullptr);
    EXPECT_THROW(dnnl::ze_interop::make_engine(fake_driver, fake_device, fake_context),
            dnnl::error);
    EXPECT_THROW(dnnl::ze_interop::get_engine_cache_blob_id(fake_driver, fake_device),
            dnnl::error);
}

TEST(ze_interop, cpu_engine_is_refused_and_untouched) {
    other_runtime_objects_t cpu(dnnl_cpu);
    cpu.expect_refused();
    cpu.expect_working();
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    EXPECT_THROW(dnnl::ze_interop::get_device(eng), dnnl::error);
    dnnl::memory::desc md({4}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    EXPECT_THROW(dnnl::ze_interop::make_memory(md, eng), dnnl::error);
}

TEST(ze_interop, opencl_engine_is_refused_and_untouched) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP() << "no OpenCL device";
    const size_t gpus = dnnl_engine_get_count(dnnl_gpu);
    other_runtime_objects_t gpu(dnnl_gpu);
    gpu.expect_refused();
    gpu.expect_working();
    EXPECT_EQ(dnnl_engine_get_count(dnnl_gpu), gpus);
}

} // namespace
