// An OpenCL application that hands its own objects to the library, as oneDNN's OpenCL interop
// examples do: its context and queue become the engine and stream; its cl_mem buffers become
// memory objects; its own kernel and the library's primitives share the queue, ordered by
// events (dnnl::ocl_interop::execute with dependencies); results come back through its own
// clEnqueueReadBuffer. Then the same with memory the library allocates (USM), a buffer swapped
// under a memory object, and an engine recreated from the first one's cache blob.
//
// y = relu(2 x) + b, checked against plain loops. Usage: ocl_interop_flow gpu (the application
// picks the platform ANYDNN_OCL_DEVICE names, else the first device); exits 0 when the results
// match, 1 when they do not, 77 without an OpenCL device.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

const memory::dim N = 1031; // not a multiple of any work-group size

const char *app_source = "kernel void twice(global const float *x, global float *y) {"
                         "  size_t i = get_global_id(0); y[i] = 2.0f * x[i]; }";

int failures = 0;

#define APP_CHECK(call) \
    do { \
        cl_int err_ = (call); \
        if (err_ != CL_SUCCESS) { \
            std::printf("%s failed: %d\n", #call, err_); \
            std::exit(1); \
        } \
    } while (0)

// The application's device: the platform ANYDNN_OCL_DEVICE names (as the library's own
// engines do), else the first device of any platform.
cl_device_id pick_device() {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return nullptr;
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    const char *want = std::getenv("ANYDNN_OCL_DEVICE");
    for (cl_platform_id p : ps) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
        cl_device_id d = nullptr;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) != CL_SUCCESS) continue;
        if (!want || std::string(name).find(want) != std::string::npos) return d;
    }
    return nullptr;
}

std::vector<float> expected(const std::vector<float> &x, const std::vector<float> &b) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        y[i] = std::fmax(0.f, 2.f * x[i]) + b[i];
    return y;
}

void check(const char *what, const std::vector<float> &got, const std::vector<float> &want) {
    for (size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i]) { // 2x, max and one add: exact in f32
            std::printf("%s: element %zu is %g, expected %g\n", what, i, got[i], want[i]);
            ++failures;
            return;
        }
}

struct app_t {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel twice;

    explicit app_t(cl_device_id d) : device(d) {
        cl_int err = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        APP_CHECK(err);
        queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
        APP_CHECK(err);
        program = clCreateProgramWithSource(context, 1, &app_source, nullptr, &err);
        APP_CHECK(err);
        APP_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
        twice = clCreateKernel(program, "twice", &err);
        APP_CHECK(err);
    }
    ~app_t() {
        clReleaseKernel(twice);
        clReleaseProgram(program);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    cl_mem buffer(const std::vector<float> &init) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, init.size() * sizeof(float),
                nullptr, &err);
        APP_CHECK(err);
        APP_CHECK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, init.size() * sizeof(float),
                init.data(), 0, nullptr, nullptr));
        return m;
    }
    std::vector<float> read(cl_mem m, const std::vector<cl_event> &after) {
        std::vector<float> v(N);
        APP_CHECK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, N * sizeof(float), v.data(),
                cl_uint(after.size()), after.empty() ? nullptr : after.data(), nullptr));
        return v;
    }
    // The application's own kernel, y = 2 x, without waiting; returns its event.
    cl_event run_twice(cl_mem x, cl_mem y) {
        APP_CHECK(clSetKernelArg(twice, 0, sizeof(cl_mem), &x));
        APP_CHECK(clSetKernelArg(twice, 1, sizeof(cl_mem), &y));
        size_t global = N;
        cl_event done = nullptr;
        APP_CHECK(clEnqueueNDRangeKernel(queue, twice, 1, nullptr, &global, nullptr, 0, nullptr,
                &done));
        return done;
    }
};

// relu in place on t, then y = t + b: two primitives after the application's kernel.
void run_model(app_t &app, const engine &eng, const char *what, const std::vector<float> &x,
        const std::vector<float> &b) {
    stream s = ocl_interop::make_stream(eng, app.queue);
    if (ocl_interop::get_command_queue(s) != app.queue) {
        std::printf("%s: the stream does not hand back the application's queue\n", what);
        ++failures;
    }
    memory::desc md({N}, dt::f32, tag::a);
    eltwise_forward relu(eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f));
    binary add(binary::primitive_desc(eng, algorithm::binary_add, md, md, md));

    // The application's buffers as memory objects.
    cl_mem x_buf = app.buffer(x), t_buf = app.buffer(std::vector<float>(N, -7.f)),
           b_buf = app.buffer(b), y_buf = app.buffer(std::vector<float>(N, 0.f));
    memory t_mem = ocl_interop::make_memory(md, eng, t_buf),
           b_mem = ocl_interop::make_memory(md, eng, b_buf),
           y_mem = ocl_interop::make_memory(md, eng, y_buf);
    if (ocl_interop::get_mem_object(y_mem) != y_buf
            || ocl_interop::get_memory_kind(y_mem) != ocl_interop::memory_kind::buffer) {
        std::printf("%s: memory does not hand back the application's buffer\n", what);
        ++failures;
    }
    cl_event app_done = app.run_twice(x_buf, t_buf);
    cl_event relu_done = ocl_interop::execute(relu, s, {{DNNL_ARG_SRC, t_mem},
            {DNNL_ARG_DST, t_mem}}, {app_done});
    cl_event add_done = ocl_interop::execute(add, s, {{DNNL_ARG_SRC_0, t_mem},
            {DNNL_ARG_SRC_1, b_mem}, {DNNL_ARG_DST, y_mem}}, {relu_done});
    check(what, app.read(y_buf, {add_done}), expected(x, b));
    for (cl_event e : {app_done, relu_done, add_done})
        clReleaseEvent(e);

    // Another destination buffer swapped in under the same memory object.
    cl_mem y2_buf = app.buffer(std::vector<float>(N, 5.f));
    ocl_interop::set_mem_object(y_mem, y2_buf);
    add.execute(s, {{DNNL_ARG_SRC_0, t_mem}, {DNNL_ARG_SRC_1, b_mem}, {DNNL_ARG_DST, y_mem}});
    s.wait();
    check((std::string(what) + ", swapped buffer").c_str(), app.read(y2_buf, {}), expected(x, b));

    // Memory the library allocates (USM), filled and read through map/unmap.
    memory u_in = ocl_interop::make_memory(md, eng, ocl_interop::memory_kind::usm),
           u_out = ocl_interop::make_memory(md, eng, ocl_interop::memory_kind::usm);
    float *p = u_in.map_data<float>();
    for (memory::dim i = 0; i < N; ++i)
        p[i] = 2.f * x[i];
    u_in.unmap_data(p);
    relu.execute(s, {{DNNL_ARG_SRC, u_in}, {DNNL_ARG_DST, u_in}});
    add.execute(s, {{DNNL_ARG_SRC_0, u_in}, {DNNL_ARG_SRC_1, b_mem}, {DNNL_ARG_DST, u_out}});
    s.wait();
    const float *q = u_out.map_data<float>();
    check((std::string(what) + ", library USM").c_str(), std::vector<float>(q, q + N),
            expected(x, b));
    u_out.unmap_data(const_cast<float *>(q));

    for (cl_mem m : {x_buf, t_buf, b_buf, y_buf, y2_buf})
        clReleaseMemObject(m);
}

} // namespace

int main(int argc, char **argv) {
    (void)argc, (void)argv; // OpenCL only: the kind argument is always gpu
    cl_device_id device = pick_device();
    if (!device) {
        std::printf("no OpenCL device\n");
        return 77;
    }
    try {
        app_t app(device);
        std::vector<float> x(N), b(N);
        for (memory::dim i = 0; i < N; ++i) {
            x[i] = float((i * 37) % 101) / 8.f - 6.f;
            b[i] = float((i * 11) % 13) / 4.f - 1.f;
        }
        engine eng = ocl_interop::make_engine(app.device, app.context);
        if (ocl_interop::get_context(eng) != app.context || ocl_interop::get_device(eng) != app.device) {
            std::printf("the engine does not hand back the application's context and device\n");
            ++failures;
        }
        run_model(app, eng, "engine from the application's context", x, b);

        // A second engine from the first one's cache blob: the programs come from the blob.
        std::vector<uint8_t> blob = ocl_interop::get_engine_cache_blob(eng);
        engine again = ocl_interop::make_engine(app.device, app.context, blob);
        run_model(app, again, "engine from a cache blob", x, b);
        std::printf("ocl_interop_flow: cache blob %zu bytes, %s\n", blob.size(),
                failures ? "MISMATCH" : "all match");
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
    return failures ? 1 : 0;
}
