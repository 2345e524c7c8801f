// A Level Zero application that hands its own objects to the library, as oneDNN's interop
// examples do for other runtimes: the engine comes from its driver, device and context, the
// stream from its immediate command list, memory from its USM allocations (host, device,
// shared). Its own copies and the library's primitives share the command list, ordered by
// Level Zero events (dnnl::ze_interop::execute with dependencies, and the event it returns).
// Then the same with memory the library allocates, and an engine recreated from the first
// one's cache blob.
//
// y = relu(x W) + r (matmul, ReLU in place, binary add), checked against plain loops. Usage:
// ze_interop_flow gpu; exits 0 when the results match, 1 when they do not, 77 without a Level
// Zero driver (1 when ANYDNN_ZE_TEST_REQUIRE_DRIVER is set, as under ctest, which loads the
// test driver of tests/ze_driver).
#include <level_zero/ze_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ze.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

const memory::dim M = 7, K = 19, N = 13; // no tile of any kernel divides them

int failures = 0;

#define ZE_CHECK(call)                                                                             \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS) {                                                             \
            std::printf("%s failed: 0x%x\n", #call, unsigned(r_));                                 \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

struct inputs_t {
    std::vector<float> x, w, r;
};

inputs_t make_inputs() {
    inputs_t in{std::vector<float>(M * K), std::vector<float>(K * N), std::vector<float>(M * N)};
    for (size_t i = 0; i < in.x.size(); ++i)
        in.x[i] = float((i * 37) % 41) / 20.f - 1.f;
    for (size_t i = 0; i < in.w.size(); ++i)
        in.w[i] = float((i * 23) % 29) / 14.f - 1.f;
    for (size_t i = 0; i < in.r.size(); ++i)
        in.r[i] = float((i * 11) % 13) / 6.f - 1.f;
    return in;
}

std::vector<double> expected(const inputs_t &in) {
    std::vector<double> y(M * N);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = 0;
            for (memory::dim k = 0; k < K; ++k)
                acc += double(in.x[m * K + k]) * in.w[k * N + n];
            y[m * N + n] = (acc > 0 ? acc : 0) + in.r[m * N + n];
        }
    return y;
}

void check(const std::string &what, const float *got, const std::vector<double> &want) {
    const double tol = 4e-7 * K; // f32 sums of K products of values below 1
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(got[i] - want[i]) > tol * (1.0 + std::fabs(want[i]))) {
            std::printf(
                    "%s: element %zu is %.8g, expected %.8g\n", what.c_str(), i, got[i], want[i]);
            ++failures;
            return;
        }
}

struct model_t {
    memory::desc x_md{{M, K}, dt::f32, tag::ab}, w_md{{K, N}, dt::f32, tag::ab},
            y_md{{M, N}, dt::f32, tag::ab};
    matmul mm;
    eltwise_forward relu;
    binary add;

    explicit model_t(const engine &eng)
        : mm(matmul::primitive_desc(eng, x_md, w_md, y_md)),
          relu(eltwise_forward::primitive_desc(
                  eng, prop_kind::forward_inference, algorithm::eltwise_relu, y_md, y_md, 0.f)),
          add(binary::primitive_desc(eng, algorithm::binary_add, y_md, y_md, y_md)) {}
};

// The application's objects: its driver's first device, a context, an immediate command list,
// an event pool, and its USM.
struct app_t {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    ze_command_list_handle_t list = nullptr;
    ze_event_pool_handle_t pool = nullptr;
    std::vector<void *> allocations;

    bool open() {
        uint32_t count = 0;
        if (zeInit(ZE_INIT_FLAG_GPU_ONLY) != ZE_RESULT_SUCCESS
                || zeDriverGet(&count, nullptr) != ZE_RESULT_SUCCESS || count == 0)
            return false;
        count = 1;
        ZE_CHECK(zeDriverGet(&count, &driver));
        uint32_t ndevices = 1;
        ZE_CHECK(zeDeviceGet(driver, &ndevices, &device));
        ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
        ZE_CHECK(zeContextCreate(driver, &cdesc, &context));
        ze_command_queue_desc_t qdesc = {};
        qdesc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
        ZE_CHECK(zeCommandListCreateImmediate(context, device, &qdesc, &list));
        ze_event_pool_desc_t pdesc = {
                ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 8};
        ZE_CHECK(zeEventPoolCreate(context, &pdesc, 1, &device, &pool));
        return true;
    }
    ~app_t() {
        for (void *p : allocations)
            zeMemFree(context, p);
        if (pool) zeEventPoolDestroy(pool);
        if (list) zeCommandListDestroy(list);
        if (context) zeContextDestroy(context);
    }
    ze_event_handle_t event(uint32_t index) {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index,
                ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
        ze_event_handle_t e = nullptr;
        ZE_CHECK(zeEventCreate(pool, &desc, &e));
        return e;
    }
    float *host(size_t n) {
        ze_host_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
        void *p = nullptr;
        ZE_CHECK(zeMemAllocHost(context, &desc, n * sizeof(float), 64, &p));
        allocations.push_back(p);
        return static_cast<float *>(p);
    }
    float *on_device(size_t n) {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
        void *p = nullptr;
        ZE_CHECK(zeMemAllocDevice(context, &desc, n * sizeof(float), 64, device, &p));
        allocations.push_back(p);
        return static_cast<float *>(p);
    }
    float *shared(size_t n) {
        ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
        ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
        void *p = nullptr;
        ZE_CHECK(zeMemAllocShared(context, &ddesc, &hdesc, n * sizeof(float), 64, device, &p));
        allocations.push_back(p);
        return static_cast<float *>(p);
    }
};

// The application stages x and W from host USM into device USM with its own copies, the
// primitives wait for those copies' events, and its copy of y back to the host waits for the
// add's event. r is shared USM the application writes directly.
void run_on_application_usm(app_t &app, const engine &eng, const char *what, const inputs_t &in) {
    stream s = ze_interop::make_stream(eng, app.list);
    if (ze_interop::get_list(s) != app.list) {
        std::printf("%s: the stream does not hand back the application's command list\n", what);
        ++failures;
    }
    const model_t model(eng);
    float *x_host = app.host(M * K), *w_host = app.host(K * N), *y_host = app.host(M * N);
    float *x_dev = app.on_device(M * K), *w_dev = app.on_device(K * N),
          *h_dev = app.on_device(M * N), *y_dev = app.on_device(M * N), *r = app.shared(M * N);
    std::copy(in.x.begin(), in.x.end(), x_host);
    std::copy(in.w.begin(), in.w.end(), w_host);
    std::copy(in.r.begin(), in.r.end(), r);
    std::fill(y_host, y_host + M * N, -99.f);

    ze_event_handle_t x_in = app.event(0), w_in = app.event(1), y_out = app.event(2);
    ZE_CHECK(zeCommandListAppendMemoryCopy(
            app.list, x_dev, x_host, M * K * sizeof(float), x_in, 0, nullptr));
    ZE_CHECK(zeCommandListAppendMemoryCopy(
            app.list, w_dev, w_host, K * N * sizeof(float), w_in, 0, nullptr));
    memory x_mem = ze_interop::make_memory(model.x_md, eng, x_dev),
           w_mem = ze_interop::make_memory(model.w_md, eng, w_dev),
           h_mem = ze_interop::make_memory(model.y_md, eng, h_dev),
           r_mem = ze_interop::make_memory(model.y_md, eng, r),
           y_mem = ze_interop::make_memory(model.y_md, eng, y_dev);
    if (y_mem.get_data_handle() != y_dev) {
        std::printf("%s: memory does not hand back the application's pointer\n", what);
        ++failures;
    }
    ze_event_handle_t mm_done = ze_interop::execute(model.mm, s,
            {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_DST, h_mem}},
            {x_in, w_in});
    ze_event_handle_t relu_done = ze_interop::execute(
            model.relu, s, {{DNNL_ARG_SRC, h_mem}, {DNNL_ARG_DST, h_mem}}, {mm_done});
    ze_event_handle_t add_done = ze_interop::execute(model.add, s,
            {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}}, {relu_done});
    ZE_CHECK(zeCommandListAppendMemoryCopy(
            app.list, y_host, y_dev, M * N * sizeof(float), y_out, 1, &add_done));
    ZE_CHECK(zeEventHostSynchronize(y_out, UINT64_MAX));
    check(std::string(what) + ", application USM", y_host, expected(in));
    s.wait();
    for (ze_event_handle_t e : {x_in, w_in, y_out})
        ZE_CHECK(zeEventDestroy(e));
}

void fill(memory &m, const std::vector<float> &v) {
    float *p = m.map_data<float>();
    std::copy(v.begin(), v.end(), p);
    m.unmap_data(p);
}

// Memory the library allocates on a stream the library makes, filled and read by mapping.
void run_on_library_memory(const engine &eng, const char *what, const inputs_t &in) {
    stream s(eng);
    const model_t model(eng);
    memory x_mem = ze_interop::make_memory(model.x_md, eng),
           w_mem = ze_interop::make_memory(model.w_md, eng),
           h_mem = ze_interop::make_memory(model.y_md, eng),
           r_mem = ze_interop::make_memory(model.y_md, eng),
           y_mem = ze_interop::make_memory(model.y_md, eng);
    fill(x_mem, in.x);
    fill(w_mem, in.w);
    fill(r_mem, in.r);
    model.mm.execute(s, {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_DST, h_mem}});
    model.relu.execute(s, {{DNNL_ARG_SRC, h_mem}, {DNNL_ARG_DST, h_mem}});
    model.add.execute(s, {{DNNL_ARG_SRC_0, h_mem}, {DNNL_ARG_SRC_1, r_mem}, {DNNL_ARG_DST, y_mem}});
    s.wait();
    const float *p = y_mem.map_data<float>();
    check(std::string(what) + ", library memory", p, expected(in));
    y_mem.unmap_data(const_cast<float *>(p));
}

} // namespace

int main(int argc, char **argv) {
    (void)argc, (void)argv; // Level Zero only: the kind argument is always gpu
    app_t app;
    if (!app.open()) {
        std::printf("no Level Zero driver\n");
        return std::getenv("ANYDNN_ZE_TEST_REQUIRE_DRIVER") ? 1 : 77;
    }
    try {
        const inputs_t in = make_inputs();
        engine eng = ze_interop::make_engine(app.driver, app.device, app.context);
        if (ze_interop::get_driver(eng) != app.driver || ze_interop::get_device(eng) != app.device
                || ze_interop::get_context(eng) != app.context) {
            std::printf("the engine does not hand back the application's driver, device and "
                        "context\n");
            ++failures;
        }
        run_on_application_usm(app, eng, "engine from the application's context", in);
        run_on_library_memory(eng, "engine from the application's context", in);

        // A second engine from the first one's cache blob: its modules come from the blob.
        std::vector<uint8_t> blob = ze_interop::get_engine_cache_blob(eng);
        engine again = ze_interop::make_engine(app.driver, app.device, app.context, blob);
        run_on_application_usm(app, again, "engine from a cache blob", in);
        std::printf("ze_interop_flow: cache blob %zu bytes, %s\n", blob.size(),
                failures ? "MISMATCH" : "all match");
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
    return failures ? 1 : 0;
}
