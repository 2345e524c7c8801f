// Times two properties of the OpenCL runtime on GPU engine 0 (issue 7's goals):
//   create   : primitive creation time of a set of eltwise primitives in this process, wall
//              clock and the process's CPU time (steadier on a busy machine); run it twice
//              with one ONEDNN_KERNEL_CACHE_DIR (first cold, then warm from disk).
//   overhead : host time of dnnl_ocl_interop_primitive_execute against a bare
//              clEnqueueNDRangeKernel of an equivalent kernel on the same queue.
// Usage: ocl_runtime_bench create|overhead
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <sys/resource.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "oneapi/dnnl/dnnl_ocl.h"

namespace {

using clock_type = std::chrono::steady_clock;

double us_since(clock_type::time_point t) {
    return std::chrono::duration<double, std::micro>(clock_type::now() - t).count();
}

// User + system CPU time of the whole process (all threads), in ms.
double cpu_ms() {
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3
            + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

#define CHECK(call) \
    do { \
        if ((call) != 0) { \
            std::fprintf(stderr, "%s failed\n", #call); \
            return 1; \
        } \
    } while (0)

dnnl_primitive_t eltwise(dnnl_engine_t e, dnnl_alg_kind_t alg, const_dnnl_memory_desc_t md) {
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_primitive_t p = nullptr;
    if (dnnl_eltwise_forward_primitive_desc_create(
                &pd, e, dnnl_forward_inference, alg, md, md, 0.f, 0.f, nullptr)
            == dnnl_success)
        dnnl_primitive_create(&p, pd);
    dnnl_primitive_desc_destroy(pd);
    return p;
}

int create_mode(dnnl_engine_t e) {
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {64, 1024};
    CHECK(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
    const dnnl_alg_kind_t algs[] = {dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_elu,
            dnnl_eltwise_gelu_erf, dnnl_eltwise_logistic, dnnl_eltwise_swish,
            dnnl_eltwise_exp, dnnl_eltwise_sqrt};
    auto t = clock_type::now();
    const double cpu0 = cpu_ms();
    for (dnnl_alg_kind_t alg : algs) {
        dnnl_primitive_t p = eltwise(e, alg, md);
        if (!p) return 1;
        dnnl_primitive_destroy(p);
    }
    const double wall = us_since(t) / 1000.0;
    std::printf("create: %zu primitives in %.1f ms (cpu %.1f ms)\n", sizeof(algs) / sizeof(algs[0]),
            wall, cpu_ms() - cpu0);
    dnnl_memory_desc_destroy(md);
    return 0;
}

const char *relu_source = "kernel void relu(const global float *s, global float *d, long n) {\n"
                          "  long i = get_global_id(0); if (i < n) d[i] = fmax(s[i], 0.f); }\n";

int overhead_mode(dnnl_engine_t e) {
    cl_device_id dev = nullptr;
    cl_context ctx = nullptr;
    CHECK(dnnl_ocl_interop_get_device(e, &dev));
    CHECK(dnnl_ocl_interop_engine_get_context(e, &ctx));
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
    dnnl_stream_t s = nullptr;
    CHECK(dnnl_ocl_interop_stream_create(&s, e, q));
    const long n = 1024;
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {n};
    CHECK(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a));
    dnnl_memory_t src = nullptr, dst = nullptr;
    CHECK(dnnl_memory_create(&src, md, e, DNNL_MEMORY_ALLOCATE));
    CHECK(dnnl_memory_create(&dst, md, e, DNNL_MEMORY_ALLOCATE));
    cl_mem sbuf = nullptr, dbuf = nullptr;
    CHECK(dnnl_ocl_interop_memory_get_mem_object(src, &sbuf));
    CHECK(dnnl_ocl_interop_memory_get_mem_object(dst, &dbuf));
    dnnl_primitive_t prim = eltwise(e, dnnl_eltwise_relu, md);

    cl_program program = clCreateProgramWithSource(ctx, 1, &relu_source, nullptr, &err);
    CHECK(clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
    cl_kernel k = clCreateKernel(program, "relu", &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &sbuf);
    clSetKernelArg(k, 1, sizeof(cl_mem), &dbuf);
    clSetKernelArg(k, 2, sizeof(long), &n);
    const size_t global = n;
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};

    // Host time per submission, in batches followed by a wait; medians over repetitions.
    const int batch = 200, reps = 15;
    std::vector<double> bare, ours;
    for (int r = 0; r < reps; ++r) {
        auto t = clock_type::now();
        for (int i = 0; i < batch; ++i) {
            cl_event ev = nullptr;
            clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &ev);
            clReleaseEvent(ev);
        }
        bare.push_back(us_since(t) / batch);
        clFinish(q);
        t = clock_type::now();
        for (int i = 0; i < batch; ++i) {
            cl_event ev = nullptr;
            dnnl_ocl_interop_primitive_execute(prim, s, 2, args, nullptr, 0, &ev);
            clReleaseEvent(ev);
        }
        ours.push_back(us_since(t) / batch);
        clFinish(q);
    }
    std::sort(bare.begin(), bare.end());
    std::sort(ours.begin(), ours.end());
    std::printf("overhead: bare clEnqueueNDRangeKernel %.2f us, dnnl_ocl_interop_primitive_execute "
                "%.2f us per call (medians of %d x %d; min %.2f / %.2f): +%.2f us\n",
            bare[reps / 2], ours[reps / 2], reps, batch, bare[0], ours[0],
            ours[reps / 2] - bare[reps / 2]);
    clReleaseKernel(k);
    clReleaseProgram(program);
    dnnl_primitive_destroy(prim);
    dnnl_memory_destroy(src);
    dnnl_memory_destroy(dst);
    dnnl_memory_desc_destroy(md);
    dnnl_stream_destroy(s);
    clReleaseCommandQueue(q);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s create|overhead\n", argv[0]);
        return 2;
    }
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        std::printf("no OpenCL device\n");
        return 0;
    }
    dnnl_engine_t e = nullptr;
    CHECK(dnnl_engine_create(&e, dnnl_gpu, 0));
    int rc = std::strcmp(argv[1], "create") == 0 ? create_mode(e) : overhead_mode(e);
    dnnl_engine_destroy(e);
    return rc;
}
