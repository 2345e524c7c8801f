// The test driver's own mapping of Level Zero onto OpenCL (tests/ze_driver), through the loader
// and the raw Level Zero API: USM, immediate lists and events, modules (OpenCL C source,
// SPIR-V, native binaries), kernels and their arguments, timestamps. The library's own Level
// Zero tests rely on all of this.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <CL/cl.h>

#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

constexpr auto module_format_opencl_c = static_cast<ze_module_format_t>(3);

std::string read_file(const char *path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A Level Zero descriptor or property struct, zeroed, with its structure type.
template <typename T> T with_stype(ze_structure_type_t stype) {
    T t = {};
    t.stype = stype;
    return t;
}

// The OpenCL device named `name` (the test driver names its devices after them), or null.
cl_device_id opencl_device_named(const char *name) {
    cl_uint nplatforms = 0;
    if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS) return nullptr;
    std::vector<cl_platform_id> platforms(nplatforms);
    if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS) return nullptr;
    for (cl_platform_id p : platforms) {
        cl_device_id devices[16];
        cl_uint n = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 16, devices, &n) != CL_SUCCESS) continue;
        for (cl_uint i = 0; i < n && i < 16; ++i) {
            char device_name[ZE_MAX_DEVICE_NAME] = {};
            clGetDeviceInfo(devices[i], CL_DEVICE_NAME, sizeof(device_name) - 1, device_name,
                    nullptr);
            if (std::string(device_name) == name) return devices[i];
        }
    }
    return nullptr;
}

bool parameter_validation_on() {
    const char *v = std::getenv("ZE_ENABLE_PARAMETER_VALIDATION");
    return v && std::string(v) == "1";
}

class ze_test_driver : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        d = drivers[0];
        auto desc = with_stype<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
        desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        ASSERT_EQ(
                zeCommandListCreateImmediate(d.context, d.device, &desc, &list), ZE_RESULT_SUCCESS);
        auto pool_desc = with_stype<ze_event_pool_desc_t>(ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
        pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
        pool_desc.count = 4;
        ASSERT_EQ(zeEventPoolCreate(d.context, &pool_desc, 1, &d.device, &pool), ZE_RESULT_SUCCESS);
        for (uint32_t i = 0; i < 2; ++i) {
            ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i,
                    ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
            ASSERT_EQ(zeEventCreate(pool, &event_desc, &events[i]), ZE_RESULT_SUCCESS);
        }
    }
    void TearDown() override {
        for (void *p : allocations)
            EXPECT_EQ(zeMemFree(d.context, p), ZE_RESULT_SUCCESS);
        for (auto e : events) {
            if (e) {
                EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
            }
        }
        if (pool) {
            EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
        }
        if (list) {
            EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
        }
        ze_app_t::TearDown();
    }

    template <typename T> T *shared(size_t n) {
        auto dd = with_stype<ze_device_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
        auto hd = with_stype<ze_host_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
        void *p = nullptr;
        EXPECT_EQ(zeMemAllocShared(d.context, &dd, &hd, n * sizeof(T), 64, d.device, &p),
                ZE_RESULT_SUCCESS);
        allocations.push_back(p);
        return static_cast<T *>(p);
    }

    // Appends a signal of events[0] and waits for everything appended so far.
    void finish() {
        ASSERT_EQ(zeCommandListAppendSignalEvent(list, events[0]), ZE_RESULT_SUCCESS);
        ASSERT_EQ(zeEventHostSynchronize(events[0], UINT64_MAX), ZE_RESULT_SUCCESS);
        ASSERT_EQ(zeEventHostReset(events[0]), ZE_RESULT_SUCCESS);
    }

    // A module of the test kernels in `format`; the build log into `log`.
    ze_result_t create_module(ze_module_format_t format, const std::string &input,
            ze_module_handle_t *module, std::string *log = nullptr, const char *flags = "") {
        auto desc = with_stype<ze_module_desc_t>(ZE_STRUCTURE_TYPE_MODULE_DESC);
        desc.format = format;
        desc.inputSize = input.size();
        desc.pInputModule = reinterpret_cast<const uint8_t *>(input.data());
        desc.pBuildFlags = flags;
        ze_module_build_log_handle_t build_log = nullptr;
        const ze_result_t r = zeModuleCreate(d.context, d.device, &desc, module, &build_log);
        if (build_log) {
            size_t size = 0;
            EXPECT_EQ(zeModuleBuildLogGetString(build_log, &size, nullptr), ZE_RESULT_SUCCESS);
            std::string text(size, '\0');
            EXPECT_EQ(zeModuleBuildLogGetString(build_log, &size, &text[0]), ZE_RESULT_SUCCESS);
            if (log) *log = text.c_str();
            EXPECT_EQ(zeModuleBuildLogDestroy(build_log), ZE_RESULT_SUCCESS);
        }
        return r;
    }

    // The test kernels in whichever form the driver and the validation layer let through:
    // OpenCL C source without parameter validation, else SPIR-V; null (skipped) when neither.
    ze_module_handle_t any_module() {
        ze_module_handle_t m = nullptr;
        if (!parameter_validation_on()) {
            EXPECT_EQ(
                    create_module(module_format_opencl_c, read_file(ANYDNN_ZE_TEST_KERNELS_CL), &m),
                    ZE_RESULT_SUCCESS);
            return m;
        }
#ifdef ANYDNN_ZE_TEST_KERNELS_SPV
        std::string log;
        const ze_result_t r = create_module(
                ZE_MODULE_FORMAT_IL_SPIRV, read_file(ANYDNN_ZE_TEST_KERNELS_SPV), &m, &log);
        if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) return nullptr;
        EXPECT_EQ(r, ZE_RESULT_SUCCESS) << log;
#endif
        return m;
    }

    ze_kernel_handle_t kernel(ze_module_handle_t m, const char *name) {
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
        ze_kernel_handle_t k = nullptr;
        EXPECT_EQ(zeKernelCreate(m, &desc, &k), ZE_RESULT_SUCCESS);
        return k;
    }

    // y += 2 x over n = 1000 items (a tail group) through `m`, checked.
    void expect_axpy(ze_module_handle_t m) {
        const uint32_t n = 1000;
        float *x = shared<float>(n), *y = shared<float>(n);
        for (uint32_t i = 0; i < n; ++i) {
            x[i] = float(i);
            y[i] = 1.f;
        }
        ze_kernel_handle_t k = kernel(m, "axpy");
        ASSERT_NE(k, nullptr);
        const float a = 2.f;
        EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(y), &y), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(x), &x), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeKernelSetArgumentValue(k, 2, sizeof(a), &a), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeKernelSetArgumentValue(k, 3, sizeof(n), &n), ZE_RESULT_SUCCESS);
        EXPECT_EQ(zeKernelSetGroupSize(k, 64, 1, 1), ZE_RESULT_SUCCESS);
        const ze_group_count_t groups = {(n + 63) / 64, 1, 1};
        EXPECT_EQ(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
                ZE_RESULT_SUCCESS);
        finish();
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(y[i], 1.f + 2.f * float(i)) << i;
        EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    }

    ze_app_driver_t d;
    ze_command_list_handle_t list = nullptr;
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t events[2] = {};
    std::vector<void *> allocations;
};

TEST_F(ze_test_driver, devices_report_their_opencl_device) {
    auto compute =
            with_stype<ze_device_compute_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES);
    ASSERT_EQ(zeDeviceGetComputeProperties(d.device, &compute), ZE_RESULT_SUCCESS);
    EXPECT_GE(compute.maxTotalGroupSize, 64u);
    EXPECT_GE(compute.maxGroupSizeX, 64u);
    EXPECT_GT(compute.maxSharedLocalMemory, 0u);
    auto module =
            with_stype<ze_device_module_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES);
    ASSERT_EQ(zeDeviceGetModuleProperties(d.device, &module), ZE_RESULT_SUCCESS);
    EXPECT_NE(module.fp32flags, 0u);
    EXPECT_GT(module.maxArgumentsSize, 0u);
    uint32_t count = 0;
    ASSERT_EQ(zeDeviceGetMemoryProperties(d.device, &count, nullptr), ZE_RESULT_SUCCESS);
    ASSERT_EQ(count, 1u);
    auto memory =
            with_stype<ze_device_memory_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
    ASSERT_EQ(zeDeviceGetMemoryProperties(d.device, &count, &memory), ZE_RESULT_SUCCESS);
    EXPECT_GT(memory.totalSize, 0u);
    auto props = with_stype<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
    ASSERT_EQ(zeDeviceGetProperties(d.device, &props), ZE_RESULT_SUCCESS);
    // The OpenCL device's type: CPU for PoCL and Intel's CPU runtime.
    cl_device_id cl_device = opencl_device_named(props.name);
    ASSERT_NE(cl_device, nullptr) << "no OpenCL device named " << props.name;
    cl_device_type cl_type = 0;
    ASSERT_EQ(clGetDeviceInfo(cl_device, CL_DEVICE_TYPE, sizeof(cl_type), &cl_type, nullptr),
            CL_SUCCESS);
    EXPECT_EQ(props.type,
            (cl_type & CL_DEVICE_TYPE_CPU) ? ZE_DEVICE_TYPE_CPU : ZE_DEVICE_TYPE_GPU);
    EXPECT_EQ(props.timerResolution, 1u); // nanoseconds
    EXPECT_GT(std::strlen(props.name), 0u);
    if (!d.other_devices.empty()) { // the same OpenCL device: the same name, another uuid
        auto other = with_stype<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
        ASSERT_EQ(zeDeviceGetProperties(d.other_devices[0], &other), ZE_RESULT_SUCCESS);
        EXPECT_STREQ(other.name, props.name);
        EXPECT_NE(std::memcmp(other.uuid.id, props.uuid.id, ZE_MAX_DEVICE_UUID_SIZE), 0);
    }
}

TEST_F(ze_test_driver, allocations_are_known_by_their_context) {
    const size_t n = 256;
    float *s = shared<float>(n);
    auto props = with_stype<ze_memory_allocation_properties_t>(
            ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
    ze_device_handle_t owner = nullptr;
    ASSERT_EQ(zeMemGetAllocProperties(d.context, s + 7, &props, &owner), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_SHARED); // inside the allocation too
    EXPECT_EQ(owner, d.device);
    void *base = nullptr;
    size_t size = 0;
    ASSERT_EQ(zeMemGetAddressRange(d.context, s + 7, &base, &size), ZE_RESULT_SUCCESS);
    EXPECT_EQ(base, s);
    EXPECT_EQ(size, n * sizeof(float));
    auto hd = with_stype<ze_host_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
    void *h = nullptr;
    ASSERT_EQ(zeMemAllocHost(d.context, &hd, 100, 0, &h), ZE_RESULT_SUCCESS);
    allocations.push_back(h);
    ASSERT_EQ(zeMemGetAllocProperties(d.context, h, &props, &owner), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_HOST);
    EXPECT_EQ(owner, nullptr);
    float on_stack = 0.f;
    ASSERT_EQ(zeMemGetAllocProperties(d.context, &on_stack, &props, nullptr), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_UNKNOWN);
    if (drivers.size() > 1) { // another driver's context does not know it
        ASSERT_EQ(
                zeMemGetAllocProperties(drivers[1].context, s, &props, nullptr), ZE_RESULT_SUCCESS);
        EXPECT_EQ(props.type, ZE_MEMORY_TYPE_UNKNOWN);
    }
    EXPECT_EQ(zeMemFree(d.context, &on_stack), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ze_test_driver, fill_and_copy_on_an_immediate_list) {
    const size_t n = 1001; // odd: not a multiple of any vector
    auto dd = with_stype<ze_device_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
    void *dev = nullptr;
    ASSERT_EQ(zeMemAllocDevice(d.context, &dd, n * sizeof(float), 64, d.device, &dev),
            ZE_RESULT_SUCCESS);
    allocations.push_back(dev);
    float *out = shared<float>(n);
    const float pattern = 2.5f;
    ASSERT_EQ(zeCommandListAppendMemoryFill(
                      list, dev, &pattern, sizeof(pattern), n * sizeof(float), nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
    std::vector<float> host(n, 0.f);
    ASSERT_EQ(zeCommandListAppendMemoryCopy(list, out, dev, n * sizeof(float), nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
    // From USM to the application's own (non-USM) memory as well, signalling an event.
    ASSERT_EQ(zeCommandListAppendMemoryCopy(
                      list, host.data(), dev, n * sizeof(float), events[1], 0, nullptr),
            ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(events[1], UINT64_MAX), ZE_RESULT_SUCCESS);
    for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], pattern) << i;
        ASSERT_EQ(host[i], pattern) << i;
    }
    // A 3-byte pattern is not one OpenCL can fill with.
    EXPECT_EQ(zeCommandListAppendMemoryFill(list, dev, &pattern, 3, 3, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_SIZE);
}

TEST_F(ze_test_driver, synchronous_lists_finish_each_append) {
    auto desc = with_stype<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t sync = nullptr;
    ASSERT_EQ(zeCommandListCreateImmediate(d.context, d.device, &desc, &sync), ZE_RESULT_SUCCESS);
    const size_t n = 36; // 16-byte pattern, 9 repeats
    uint32_t *p = shared<uint32_t>(n);
    const uint32_t pattern[4] = {1, 2, 3, 4};
    ASSERT_EQ(zeCommandListAppendMemoryFill(
                      sync, p, pattern, sizeof(pattern), n * sizeof(uint32_t), nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(p[i], pattern[i % 4]) << i; // no wait needed
    // A zero-size copy is a no-op that still signals.
    ASSERT_EQ(zeCommandListAppendMemoryCopy(sync, p, p + 4, 0, events[1], 0, nullptr),
            ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventQueryStatus(events[1]), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(sync), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, appends_wait_for_events_signalled_later_from_the_host) {
    const size_t n = 64;
    float *src = shared<float>(n), *dst = shared<float>(n);
    for (size_t i = 0; i < n; ++i) {
        src[i] = float(i);
        dst[i] = -1.f;
    }
    // events[1] is signalled by nothing yet: the copy waits for the host.
    ASSERT_EQ(zeCommandListAppendWaitOnEvents(list, 1, &events[1]), ZE_RESULT_SUCCESS);
    ASSERT_EQ(
            zeCommandListAppendMemoryCopy(list, dst, src, n * sizeof(float), events[0], 0, nullptr),
            ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventHostSynchronize(events[0], 1000000), ZE_RESULT_NOT_READY); // 1 ms
    EXPECT_EQ(zeEventQueryStatus(events[0]), ZE_RESULT_NOT_READY);
    EXPECT_EQ(dst[0], -1.f);
    ASSERT_EQ(zeEventHostSignal(events[1]), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(events[0], UINT64_MAX), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventQueryStatus(events[0]), ZE_RESULT_SUCCESS);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(dst[i], float(i));
    // Reset: not signalled until signalled again, by a command this time.
    ASSERT_EQ(zeEventHostReset(events[1]), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventQueryStatus(events[1]), ZE_RESULT_NOT_READY);
    ASSERT_EQ(zeCommandListAppendBarrier(list, events[1], 1, &events[0]), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventHostSynchronize(events[1], UINT64_MAX), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, a_wait_appended_before_its_signal_follows_the_signal) {
    // Another immediate list signals events[1] after this list already waits for it.
    auto desc = with_stype<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
    ze_command_list_handle_t other = nullptr;
    ASSERT_EQ(zeCommandListCreateImmediate(d.context, d.device, &desc, &other), ZE_RESULT_SUCCESS);
    int *value = shared<int>(1);
    *value = 0;
    const int one = 1;
    ASSERT_EQ(zeCommandListAppendMemoryFill(
                      list, value, &one, sizeof(one), sizeof(one), events[0], 1, &events[1]),
            ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventQueryStatus(events[0]), ZE_RESULT_NOT_READY);
    ASSERT_EQ(zeCommandListAppendSignalEvent(other, events[1]), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(events[0], UINT64_MAX), ZE_RESULT_SUCCESS);
    EXPECT_EQ(*value, 1);
    EXPECT_EQ(zeCommandListDestroy(other), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, regular_lists_take_no_commands) {
    auto desc = with_stype<ze_command_list_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC);
    ze_command_list_handle_t regular = nullptr;
    ASSERT_EQ(zeCommandListCreate(d.context, d.device, &desc, &regular), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListAppendSignalEvent(regular, events[0]),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    EXPECT_EQ(zeCommandListAppendBarrier(regular, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    EXPECT_EQ(zeCommandListClose(regular), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(regular), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, opencl_c_source_modules_build_and_launch) {
    ze_module_handle_t m = nullptr;
    const std::string source = read_file(ANYDNN_ZE_TEST_KERNELS_CL);
    ASSERT_FALSE(source.empty());
    const ze_result_t r = create_module(module_format_opencl_c, source, &m);
    if (parameter_validation_on()) {
        // The validation layer knows only SPIR-V and native modules: it refuses format 3
        // before the driver sees it (the library must fall back, or use SPIR-V).
        EXPECT_EQ(r, ZE_RESULT_ERROR_INVALID_ENUMERATION);
        GTEST_SKIP() << "OpenCL C modules are refused by the validation layer";
    }
    ASSERT_EQ(r, ZE_RESULT_SUCCESS);
    uint32_t count = 0;
    ASSERT_EQ(zeModuleGetKernelNames(m, &count, nullptr), ZE_RESULT_SUCCESS);
    EXPECT_EQ(count, 3u);
    expect_axpy(m);
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "no_such_kernel"};
    ze_kernel_handle_t k = nullptr;
    EXPECT_EQ(zeKernelCreate(m, &desc, &k), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, spirv_modules_build_and_launch_where_the_device_takes_them) {
#ifndef ANYDNN_ZE_TEST_KERNELS_SPV
    GTEST_SKIP() << "no clang-15 and llvm-spirv-15 at build time: no SPIR-V to give";
#else
    auto props =
            with_stype<ze_device_module_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES);
    ASSERT_EQ(zeDeviceGetModuleProperties(d.device, &props), ZE_RESULT_SUCCESS);
    ze_module_handle_t m = nullptr;
    std::string log;
    const ze_result_t r = create_module(
            ZE_MODULE_FORMAT_IL_SPIRV, read_file(ANYDNN_ZE_TEST_KERNELS_SPV), &m, &log);
    if (props.spirvVersionSupported == 0) {
        EXPECT_EQ(r, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        GTEST_SKIP() << "the OpenCL device takes no SPIR-V: " << log;
    }
    ASSERT_EQ(r, ZE_RESULT_SUCCESS) << log;
    expect_axpy(m);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
#endif
}

TEST_F(ze_test_driver, native_binaries_make_the_module_again) {
    ze_module_handle_t m = any_module();
    if (!m) GTEST_SKIP() << "no module format gets through to this OpenCL device";
    size_t size = 0;
    ASSERT_EQ(zeModuleGetNativeBinary(m, &size, nullptr), ZE_RESULT_SUCCESS);
    ASSERT_GT(size, 0u);
    std::string binary(size, '\0');
    ASSERT_EQ(zeModuleGetNativeBinary(m, &size, reinterpret_cast<uint8_t *>(&binary[0])),
            ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    ze_module_handle_t again = nullptr;
    ASSERT_EQ(create_module(ZE_MODULE_FORMAT_NATIVE, binary, &again), ZE_RESULT_SUCCESS);
    expect_axpy(again);
    EXPECT_EQ(zeModuleDestroy(again), ZE_RESULT_SUCCESS);
    ze_module_handle_t bad = nullptr;
    EXPECT_EQ(create_module(ZE_MODULE_FORMAT_NATIVE, "not a binary", &bad),
            ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
}

// What an application does with OpenCL C under the validation layer: builds it with OpenCL on
// the device of the same name and gives the binary to Level Zero as a native module.
TEST_F(ze_test_driver, an_opencl_binary_of_the_same_device_is_a_native_module) {
    auto props = with_stype<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
    ASSERT_EQ(zeDeviceGetProperties(d.device, &props), ZE_RESULT_SUCCESS);
    cl_device_id device = opencl_device_named(props.name);
    ASSERT_NE(device, nullptr) << "no OpenCL device named " << props.name;
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    const std::string source = read_file(ANYDNN_ZE_TEST_KERNELS_CL);
    const char *text = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program, 1, &device, "-cl-kernel-arg-info", nullptr, nullptr),
            CL_SUCCESS);
    size_t size = 0;
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr),
            CL_SUCCESS);
    std::string binary(size, '\0');
    unsigned char *bits = reinterpret_cast<unsigned char *>(&binary[0]);
    ASSERT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(bits), &bits, nullptr),
            CL_SUCCESS);
    clReleaseProgram(program);
    clReleaseContext(context);
    ze_module_handle_t m = nullptr;
    ASSERT_EQ(create_module(ZE_MODULE_FORMAT_NATIVE, binary, &m), ZE_RESULT_SUCCESS);
    expect_axpy(m);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, local_memory_arguments_and_group_sizes) {
    ze_module_handle_t m = any_module();
    if (!m) GTEST_SKIP() << "no module format gets through to this OpenCL device";
    ze_kernel_handle_t k = kernel(m, "group_sum");
    auto props = with_stype<ze_kernel_properties_t>(ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
    ASSERT_EQ(zeKernelGetProperties(k, &props), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.numKernelArgs, 3u);
    EXPECT_EQ(props.requiredGroupSizeX, 0u);
    EXPECT_GE(props.maxSubgroupSize, 1u);
    uint32_t x = 0, y = 0, z = 0;
    ASSERT_EQ(zeKernelSuggestGroupSize(k, 96, 1, 1, &x, &y, &z), ZE_RESULT_SUCCESS);
    EXPECT_EQ(96u % x, 0u);
    EXPECT_EQ(y, 1u);
    EXPECT_EQ(zeKernelSetGroupSize(k, 0, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    const uint32_t group = 8, ngroups = 5;
    float *in = shared<float>(group * ngroups), *out = shared<float>(ngroups);
    for (uint32_t i = 0; i < group * ngroups; ++i)
        in[i] = float(i);
    ASSERT_EQ(zeKernelSetGroupSize(k, group, 1, 1), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(out), &out), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(in), &in), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 2, group * sizeof(float), nullptr), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 3, 4, &group),
            ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    const ze_group_count_t groups = {ngroups, 1, 1};
    ASSERT_EQ(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
    finish();
    for (uint32_t g = 0; g < ngroups; ++g) {
        float expected = 0.f;
        for (uint32_t i = 0; i < group; ++i)
            expected += float(g * group + i);
        EXPECT_EQ(out[g], expected) << g;
    }
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE); // its kernel first
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);

    // A required group size is the kernel's group size and the only one it takes.
    ze_kernel_handle_t fixed = kernel(m, "fixed_group");
    ASSERT_EQ(zeKernelGetProperties(fixed, &props), ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.requiredGroupSizeX, 4u);
    ASSERT_EQ(zeKernelSuggestGroupSize(fixed, 64, 1, 1, &x, &y, &z), ZE_RESULT_SUCCESS);
    EXPECT_EQ(x, 4u);
    EXPECT_EQ(zeKernelSetGroupSize(fixed, 8, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    int *sizes = shared<int>(8);
    EXPECT_EQ(zeKernelSetArgumentValue(fixed, 0, sizeof(sizes), &sizes), ZE_RESULT_SUCCESS);
    const ze_group_count_t two = {2, 1, 1};
    ASSERT_EQ(zeCommandListAppendLaunchKernel(list, fixed, &two, nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
    finish();
    for (int i = 0; i < 8; ++i)
        EXPECT_EQ(sizes[i], 4) << i;
    EXPECT_EQ(zeKernelDestroy(fixed), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
}

// A failed build returns no log handle (the loader could not pass it on): the driver prints it.
// PoCL builds a kernel once per group size: suggestions divide the global size and come from
// few sizes (powers of two), except that a long odd dimension gets no groups of a few items.
TEST_F(ze_test_driver, suggested_group_sizes_divide_the_global_size_and_are_few) {
    ze_module_handle_t m = any_module();
    if (!m) GTEST_SKIP() << "no module format gets through to this OpenCL device";
    ze_kernel_handle_t k = kernel(m, "group_sum");
    std::set<uint32_t> sizes;
    for (uint32_t n = 1; n <= 2000; ++n) {
        uint32_t x = 0, y = 0, z = 0;
        ASSERT_EQ(zeKernelSuggestGroupSize(k, n, 1, 1, &x, &y, &z), ZE_RESULT_SUCCESS);
        ASSERT_GT(x, 0u);
        EXPECT_EQ(n % x, 0u) << n;
        EXPECT_EQ(x & (x - 1), 0u) << n << " -> " << x; // a power of two
        sizes.insert(x);
    }
    EXPECT_LE(sizes.size(), 12u);
    // 3 * 5 * 7 * 11 * 13 items: no power of two divides it, groups of 105 (3 * 5 * 7) do.
    uint32_t x = 0, y = 0, z = 0;
    ASSERT_EQ(zeKernelSuggestGroupSize(k, 15015, 1, 1, &x, &y, &z), ZE_RESULT_SUCCESS);
    EXPECT_EQ(15015u % x, 0u);
    EXPECT_GE(x, 8u);
    // Over two dimensions the sizes stay within the kernel's limit.
    auto props = with_stype<ze_kernel_properties_t>(ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
    ASSERT_EQ(zeKernelGetProperties(k, &props), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeKernelSuggestGroupSize(k, 4096, 4096, 1, &x, &y, &z), ZE_RESULT_SUCCESS);
    EXPECT_EQ(4096u % x + 4096u % y, 0u);
    EXPECT_LE(uint64_t(x) * y * z, uint64_t(props.maxSubgroupSize) * props.maxNumSubgroups);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
}

TEST_F(ze_test_driver, build_failures_return_no_module_and_no_log) {
    ze_module_handle_t m = nullptr;
    std::string log;
    const ze_result_t r = parameter_validation_on()
                                  ? create_module(ZE_MODULE_FORMAT_IL_SPIRV, "not SPIR-V", &m, &log)
                                  : create_module(module_format_opencl_c,
                                          "kernel void k(global int *p) { p[0] = q; }", &m, &log);
    EXPECT_NE(r, ZE_RESULT_SUCCESS);
    EXPECT_TRUE(log.empty());
    EXPECT_EQ(m, nullptr);
}

TEST_F(ze_test_driver, kernel_timestamps_bound_the_kernel) {
    ze_module_handle_t m = any_module();
    if (!m) GTEST_SKIP() << "no module format gets through to this OpenCL device";
    ze_kernel_handle_t k = kernel(m, "fixed_group");
    int *sizes = shared<int>(4);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(sizes), &sizes), ZE_RESULT_SUCCESS);
    const ze_group_count_t one = {1, 1, 1};
    ze_kernel_timestamp_result_t ts = {};
    ASSERT_EQ(zeCommandListAppendLaunchKernel(list, k, &one, events[1], 0, nullptr),
            ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(events[1], UINT64_MAX), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventQueryKernelTimestamp(events[1], &ts), ZE_RESULT_SUCCESS);
    EXPECT_GT(ts.global.kernelStart, 0u);
    EXPECT_GE(ts.global.kernelEnd, ts.global.kernelStart);
    EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
}

} // namespace
} // namespace ze_test
