// `make demo`, interop part: an application that owns its OpenCL context, queue and buffers
// hands them to anydnn. One in-order queue runs the application's own kernel and our
// primitives on the application's buffers, with no copies and no extra synchronisation; the
// result is checked against the same primitives on the CPU engine.
#include <cmath>
#include <cstdio>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

// The application's kernel: x = x * a + b.
const char *app_source = "kernel void affine(global float *x, float a, float b) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    x[i] = x[i] * a + b;\n"
                         "}\n";

bool check(cl_int err, const char *what) {
    if (err != CL_SUCCESS) std::printf("%s failed (%d)\n", what, err);
    return err == CL_SUCCESS;
}

// relu then + bias[c], on any engine, in place on `x` (dst = x).
void relu_add_bias(const engine &eng, stream &s, memory &x, memory &bias, memory &y) {
    const memory::desc &md = x.get_desc();
    eltwise_forward(eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
                            algorithm::eltwise_relu, md, md, 0.f, 0.f))
            .execute(s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, x}});
    binary(binary::primitive_desc(eng, algorithm::binary_add, md, bias.get_desc(), md))
            .execute(s, {{DNNL_ARG_SRC_0, x}, {DNNL_ARG_SRC_1, bias}, {DNNL_ARG_DST, y}});
}

} // namespace

int main() {
    if (engine::get_count(engine::kind::gpu) == 0) {
        std::printf("OpenCL interop demo: no OpenCL device, skipped\n");
        return 0;
    }
    const memory::dim N = 2, C = 19, H = 7, W = 5;
    const size_t count = N * C * H * W;
    std::vector<float> src(count), bias(C);
    for (size_t i = 0; i < count; ++i) src[i] = std::sin(0.37f * static_cast<float>(i)) * 4.f;
    for (memory::dim c = 0; c < C; ++c) bias[c] = 0.25f * static_cast<float>(c) - 2.f;

    // The application's own OpenCL objects (the device anydnn would pick as gpu engine 0).
    cl_device_id device = ocl_interop::get_device(engine(engine::kind::gpu, 0));
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (!check(err, "clCreateContext")) return 1;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    cl_mem x_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, count * 4, nullptr, &err);
    cl_mem y_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, count * 4, nullptr, &err);
    cl_mem bias_buf = clCreateBuffer(context, CL_MEM_READ_WRITE, C * 4, nullptr, &err);
    cl_program program = clCreateProgramWithSource(context, 1, &app_source, nullptr, &err);
    if (!check(clBuildProgram(program, 1, &device, "", nullptr, nullptr), "clBuildProgram"))
        return 1;
    cl_kernel affine = clCreateKernel(program, "affine", &err);
    clEnqueueWriteBuffer(queue, x_buf, CL_FALSE, 0, count * 4, src.data(), 0, nullptr, nullptr);
    clEnqueueWriteBuffer(queue, bias_buf, CL_FALSE, 0, C * 4, bias.data(), 0, nullptr, nullptr);

    char name[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
    std::printf("OpenCL interop demo on %s: application kernel x*2-1 -> relu -> + bias[c]\n",
            name);

    std::vector<float> result(count), expected(count);
    {
        // Wrap: engine = device + context, stream = queue, memory = the application's buffers.
        engine eng = ocl_interop::make_engine(device, context);
        stream s = ocl_interop::make_stream(eng, queue);
        memory::desc md({N, C, H, W}, dt::f32, tag::nchw);
        memory::desc bias_md({1, C, 1, 1}, dt::f32, tag::nchw);
        memory x = ocl_interop::make_memory(md, eng, x_buf);
        memory y = ocl_interop::make_memory(md, eng, y_buf);
        memory b = ocl_interop::make_memory(bias_md, eng, bias_buf);

        float a = 2.f, c = -1.f;
        const size_t global = count;
        clSetKernelArg(affine, 0, sizeof(cl_mem), &x_buf);
        clSetKernelArg(affine, 1, sizeof(float), &a);
        clSetKernelArg(affine, 2, sizeof(float), &c);
        clEnqueueNDRangeKernel(queue, affine, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
        relu_add_bias(eng, s, x, b, y); // same queue: ordered after the kernel
        std::printf("  ran on %s\n", eltwise_forward::primitive_desc(eng,
                                              prop_kind::forward_inference,
                                              algorithm::eltwise_relu, md, md, 0.f, 0.f)
                                              .impl_info_str());
        clEnqueueReadBuffer(queue, y_buf, CL_TRUE, 0, count * 4, result.data(), 0, nullptr,
                nullptr);

        // The same on the CPU engine.
        engine cpu(engine::kind::cpu, 0);
        stream cs(cpu);
        std::vector<float> xs(count);
        for (size_t i = 0; i < count; ++i) xs[i] = src[i] * a + c;
        memory cx(md, cpu, xs.data()), cy(md, cpu, expected.data()), cb(bias_md, cpu, bias.data());
        relu_add_bias(cpu, cs, cx, cb, cy);
        cs.wait();
    }
    double max_err = 0;
    for (size_t i = 0; i < count; ++i)
        max_err = std::fmax(max_err, std::fabs(result[i] - expected[i]));
    std::printf("  max |OpenCL - CPU engine| = %g -> %s\n", max_err, max_err == 0 ? "OK" : "MISMATCH");

    clReleaseKernel(affine);
    clReleaseProgram(program);
    for (cl_mem m : {x_buf, y_buf, bias_buf}) clReleaseMemObject(m);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return max_err == 0 ? 0 : 1;
}
