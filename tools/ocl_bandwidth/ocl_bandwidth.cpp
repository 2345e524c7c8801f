// Times memory-bound primitives on GPU engine 0 (relu 16384x1024, binary add 16384x1024,
// reorder nchw -> nChw16c 16x256x56x56, all f32) side by side with a plain OpenCL copy kernel
// moving the same bytes (half read, half written) on the same queue. Rounds interleave the
// copy and the primitive; each time is one execution to completion (wall clock).
// Usage: ocl_bandwidth [rounds]   Prints per case: medians, min-max spread, copy/primitive.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/resource.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "oneapi/dnnl/dnnl_ocl.h"

namespace {

using clock_type = std::chrono::steady_clock;

double ms_since(clock_type::time_point t) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
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
            std::exit(1); \
        } \
    } while (0)

const char *copy_source = R"(
kernel void copy(const global float *src, global float *dst) {
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
)";

struct stats_t {
    double median, lo, hi;
};

stats_t stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

// A primitive with its arguments, all memories of the engine, zero-filled.
struct op_t {
    std::string name;
    dnnl_primitive_t prim = nullptr;
    std::vector<dnnl_exec_arg_t> args;
    size_t bytes = 0; // read + written by one execution
};

dnnl_memory_t make_memory(dnnl_engine_t e, cl_command_queue q, const_dnnl_memory_desc_t md,
        size_t &bytes) {
    dnnl_memory_t m = nullptr;
    CHECK(dnnl_memory_create(&m, md, e, DNNL_MEMORY_ALLOCATE));
    cl_mem mem = nullptr;
    CHECK(dnnl_ocl_interop_memory_get_mem_object(m, &mem));
    const size_t size = dnnl_memory_desc_get_size(md);
    const float zero = 0.f;
    CHECK(clEnqueueFillBuffer(q, mem, &zero, sizeof(zero), 0, size, 0, nullptr, nullptr));
    bytes += size;
    return m;
}

op_t make_op(const char *name, dnnl_engine_t e, cl_command_queue q,
        dnnl_primitive_desc_t pd, const std::vector<int> &args) {
    op_t op;
    op.name = name;
    CHECK(dnnl_primitive_create(&op.prim, pd));
    for (int arg : args) {
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        op.args.push_back({arg, make_memory(e, q, md, op.bytes)});
    }
    const char *impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    op.name += std::string(" (") + (impl ? impl : "?") + ")";
    dnnl_primitive_desc_destroy(pd);
    return op;
}

} // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 11;
    dnnl_engine_t e = nullptr;
    dnnl_stream_t s = nullptr;
    CHECK(dnnl_engine_create(&e, dnnl_gpu, 0));
    CHECK(dnnl_stream_create(&s, e, dnnl_stream_in_order));
    cl_context ctx = nullptr;
    cl_device_id dev = nullptr;
    cl_command_queue q = nullptr;
    CHECK(dnnl_ocl_interop_engine_get_context(e, &ctx));
    CHECK(dnnl_ocl_interop_get_device(e, &dev));
    CHECK(dnnl_ocl_interop_stream_get_command_queue(s, &q));

    cl_int err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &copy_source, nullptr, &err);
    CHECK(err);
    CHECK(clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", nullptr, nullptr));
    cl_kernel copy = clCreateKernel(prog, "copy", &err);
    CHECK(err);

    std::vector<op_t> ops;
    {
        dnnl_memory_desc_t md = nullptr;
        dnnl_dims_t dims = {16384, 1024};
        CHECK(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab));
        dnnl_primitive_desc_t pd = nullptr;
        CHECK(dnnl_eltwise_forward_primitive_desc_create(
                &pd, e, dnnl_forward_inference, dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr));
        ops.push_back(make_op("relu 16384x1024", e, q, pd, {DNNL_ARG_SRC, DNNL_ARG_DST}));
        CHECK(dnnl_binary_primitive_desc_create(&pd, e, dnnl_binary_add, md, md, md, nullptr));
        ops.push_back(make_op("binary add 16384x1024", e, q, pd,
                {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_DST}));
        dnnl_memory_desc_destroy(md);
    }
    {
        dnnl_memory_desc_t src = nullptr, dst = nullptr;
        dnnl_dims_t dims = {16, 256, 56, 56};
        CHECK(dnnl_memory_desc_create_with_tag(&src, 4, dims, dnnl_f32, dnnl_nchw));
        CHECK(dnnl_memory_desc_create_with_tag(&dst, 4, dims, dnnl_f32, dnnl_nChw16c));
        dnnl_primitive_desc_t pd = nullptr;
        CHECK(dnnl_reorder_primitive_desc_create(&pd, src, e, dst, e, nullptr));
        ops.push_back(make_op("reorder nchw->nChw16c 16x256x56x56", e, q, pd,
                {DNNL_ARG_FROM, DNNL_ARG_TO}));
        dnnl_memory_desc_destroy(src);
        dnnl_memory_desc_destroy(dst);
    }

    std::printf("device: GPU engine 0, %d interleaved rounds, times in ms (median [min-max])\n",
            rounds);
    std::printf("%-58s %26s %26s %8s %8s\n", "primitive", "primitive", "copy same bytes",
            "copy/prim", "cpu c/p");
    for (op_t &op : ops) {
        // The copy reads half the primitive's bytes and writes the other half.
        const size_t n = op.bytes / 2 / sizeof(float);
        cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
        CHECK(err);
        cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
        CHECK(err);
        const float zero = 0.f;
        CHECK(clEnqueueFillBuffer(q, a, &zero, sizeof(zero), 0, n * sizeof(float), 0, nullptr,
                nullptr));
        CHECK(clEnqueueFillBuffer(q, b, &zero, sizeof(zero), 0, n * sizeof(float), 0, nullptr,
                nullptr));
        CHECK(clSetKernelArg(copy, 0, sizeof(cl_mem), &a));
        CHECK(clSetKernelArg(copy, 1, sizeof(cl_mem), &b));
        CHECK(clFinish(q));
        std::vector<double> tp, tc, up, uc;
        for (int r = -2; r < rounds; ++r) { // two warm-up rounds
            auto t = clock_type::now();
            double u = cpu_ms();
            CHECK(clEnqueueNDRangeKernel(q, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
            CHECK(clFinish(q));
            const double c = ms_since(t), cu = cpu_ms() - u;
            t = clock_type::now();
            u = cpu_ms();
            CHECK(dnnl_primitive_execute(op.prim, s, static_cast<int>(op.args.size()),
                    op.args.data()));
            CHECK(dnnl_stream_wait(s));
            const double p = ms_since(t), pu = cpu_ms() - u;
            if (r >= 0) {
                tc.push_back(c);
                tp.push_back(p);
                uc.push_back(cu);
                up.push_back(pu);
            }
        }
        const stats_t P = stats(tp), C = stats(tc);
        char pbuf[64], cbuf[64];
        std::snprintf(pbuf, sizeof(pbuf), "%.2f [%.2f-%.2f]", P.median, P.lo, P.hi);
        std::snprintf(cbuf, sizeof(cbuf), "%.2f [%.2f-%.2f]", C.median, C.lo, C.hi);
        std::printf("%-58s %26s %26s %8.2f %8.2f\n", op.name.c_str(), pbuf, cbuf,
                C.median / P.median, stats(uc).median / stats(up).median);
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        for (auto &arg : op.args) dnnl_memory_destroy(arg.memory);
        dnnl_primitive_destroy(op.prim);
    }
    clReleaseKernel(copy);
    clReleaseProgram(prog);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(e);
    return 0;
}
