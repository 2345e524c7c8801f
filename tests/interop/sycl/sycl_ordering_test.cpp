// The application's own work on the queue our primitives run on: host tasks and an OpenCL C
// kernel of its own (through the queue's native OpenCL queue), interleaved with primitives on
// an in-order queue, chained by sycl::events on an out-of-order queue, and ordered by SYCL's
// accessor tracking for buffer memory. Each first task pauses, so work that started before it
// finished would read stale data.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "interop/sycl/sycl_fixture.hpp"

using namespace sycl_test;
namespace si = dnnl::sycl_interop;

namespace {

// The application's OpenCL C kernel: y[i] = x[i] + 0.5, on USM pointers.
const char *app_kernel_source
        = "kernel void add_half(global const float *x, global float *y) {"
          "  size_t i = get_global_id(0); y[i] = x[i] + 0.5f; }";

using set_ptr_arg_f = cl_int (*)(cl_kernel, cl_uint, const void *);

// Submits the kernel as a host task that enqueues on the queue's native OpenCL queue.
sycl::event submit_app_kernel(sycl::queue &q, const float *x, float *y, size_t n,
        std::vector<sycl::event> deps = {}) {
    return q.submit([&](sycl::handler &h) {
        h.depends_on(deps);
        h.host_task([=](sycl::interop_handle ih) {
            cl_context ctx = ih.get_native_context<sycl::backend::opencl>();
            cl_device_id dev = ih.get_native_device<sycl::backend::opencl>();
            cl_command_queue cq = ih.get_native_queue<sycl::backend::opencl>();
            cl_platform_id platform = nullptr;
            clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(platform), &platform, nullptr);
            auto set_ptr = reinterpret_cast<set_ptr_arg_f>(clGetExtensionFunctionAddressForPlatform(
                    platform, "clSetKernelArgMemPointerINTEL"));
            cl_int err = CL_SUCCESS;
            cl_program prog
                    = clCreateProgramWithSource(ctx, 1, &app_kernel_source, nullptr, &err);
            if (err == CL_SUCCESS) err = clBuildProgram(prog, 1, &dev, "", nullptr, nullptr);
            cl_kernel k = err == CL_SUCCESS ? clCreateKernel(prog, "add_half", &err) : nullptr;
            if (err == CL_SUCCESS && set_ptr) {
                set_ptr(k, 0, x);
                set_ptr(k, 1, y);
                size_t global = n;
                err = clEnqueueNDRangeKernel(cq, k, 1, nullptr, &global, nullptr, 0, nullptr,
                        nullptr);
                if (err == CL_SUCCESS) err = clFinish(cq);
            }
            if (k) clReleaseKernel(k);
            if (prog) clReleaseProgram(prog);
            if (err != CL_SUCCESS || !set_ptr) y[0] = -12345.f; // seen by the check
        });
    });
}

} // namespace

using sycl_ordering = sycl_app_t;

TEST_F(sycl_ordering, in_order_queue_interleaves_application_work) {
    const int64_t n = 257;
    auto x = random_floats(n, 21);
    float *a = usm(n), *b = usm(n), *c = usm(n), *d = usm(n);
    auto prim = relu(eng, n);
    // No waits between the steps: only the queue's order keeps them right.
    queue.submit([&](sycl::handler &h) {
        h.host_task([=] {
            pause_ms(50);
            std::copy(x.begin(), x.end(), a);
        });
    });
    si::execute(prim, strm, {{DNNL_ARG_SRC, memory(vec_md(n), eng, a)},
                                    {DNNL_ARG_DST, memory(vec_md(n), eng, b)}});
    queue.submit([&](sycl::handler &h) {
        h.host_task([=] {
            pause_ms(20);
            for (int64_t i = 0; i < n; ++i)
                b[i] = b[i] * 2.f - 3.f;
        });
    });
    submit_app_kernel(queue, b, c, n);
    // The plain execute on the same stream follows the queue's order too.
    prim.execute(strm, {{DNNL_ARG_SRC, memory(vec_md(n), eng, c)},
                               {DNNL_ARG_DST, memory(vec_md(n), eng, d)}});
    queue.wait();
    std::vector<float> want = relu_ref(x);
    for (auto &v : want)
        v = v * 2.f - 3.f + 0.5f;
    expect_equal(read(d, n), relu_ref(want));
}

TEST_F(sycl_ordering, out_of_order_queue_chains_by_events) {
    sycl::queue ooo(context, device);
    dnnl::stream s = si::make_stream(eng, ooo);
    const int64_t n = 1000;
    auto x = random_floats(n, 22);
    float *a = usm(n), *b = usm(n), *c = usm(n), *d = usm(n);
    memory ma(vec_md(n), eng, a), mb(vec_md(n), eng, b), mc(vec_md(n), eng, c),
            md(vec_md(n), eng, d);
    auto prim = relu(eng, n);
    sycl::event e1 = ooo.submit([&](sycl::handler &h) {
        h.host_task([=] {
            pause_ms(50);
            std::copy(x.begin(), x.end(), a);
        });
    });
    sycl::event e2 = si::execute(prim, s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_DST, mb}}, {e1});
    sycl::event e3 = submit_app_kernel(ooo, b, c, n, {e2});
    sycl::event e4 = ooo.submit([&](sycl::handler &h) {
        h.depends_on(e3);
        h.host_task([=] {
            pause_ms(20);
            for (int64_t i = 0; i < n; ++i)
                c[i] = -c[i];
        });
    });
    sycl::event e5 = si::execute(prim, s, {{DNNL_ARG_SRC, mc}, {DNNL_ARG_DST, md}}, {e4});
    e5.wait();
    std::vector<float> want = relu_ref(x);
    for (auto &v : want)
        v = -(v + 0.5f);
    expect_equal(read(d, n), relu_ref(want));
}

TEST_F(sycl_ordering, buffers_follow_accessor_dependencies_on_an_out_of_order_queue) {
    sycl::queue ooo(context, device);
    dnnl::stream s = si::make_stream(eng, ooo);
    const int64_t n = 77;
    auto x = random_floats(n, 23);
    sycl::buffer<float, 1> src {sycl::range<1>(n)}, dst {sycl::range<1>(n)};
    memory ms = si::make_memory(vec_md(n), eng, src), md = si::make_memory(vec_md(n), eng, dst);
    // The application writes the source through an accessor; we are given no event.
    ooo.submit([&](sycl::handler &h) {
        sycl::accessor acc(src, h, sycl::write_only);
        h.host_task([=] {
            pause_ms(50);
            for (int64_t i = 0; i < n; ++i)
                acc[i] = x[i];
        });
    });
    si::execute(relu(eng, n), s, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}});
    // ... and reads the result through one.
    sycl::host_accessor out(dst, sycl::read_only);
    std::vector<float> got(out.begin(), out.end());
    expect_equal(got, relu_ref(x));
}
