// The application's side of OpenCL interop tests: a device, context and queues of our own,
// reference-count probes, and a tiny kernel of the application's.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl_ocl.h"

namespace interop_test {

inline cl_uint ref_count(cl_context c) {
    cl_uint n = 0;
    clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}
inline cl_uint ref_count(cl_command_queue q) {
    cl_uint n = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}
inline cl_uint ref_count(cl_mem m) {
    cl_uint n = 0;
    clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof(n), &n, nullptr);
    return n;
}

// An f32 vector of `len` values, and leaky relu (negative slope `alpha`) over it.
inline dnnl_memory_desc_t vector_md(dnnl_dim_t len) {
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {len};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a), dnnl_success);
    return md;
}
inline dnnl_primitive_t make_leaky_relu(
        dnnl_engine_t engine, const_dnnl_memory_desc_t md, float alpha) {
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                      dnnl_eltwise_relu, md, md, alpha, 0.f, nullptr),
            dnnl_success);
    dnnl_primitive_t p = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&p, pd), dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    return p;
}

// The device anydnn's GPU engine 0 uses, in a context and queues the test owns.
class ocl_app_t : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP() << "no OpenCL device";
        dnnl_engine_t e = nullptr;
        ASSERT_EQ(dnnl_engine_create(&e, dnnl_gpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_ocl_interop_get_device(e, &device), dnnl_success);
        ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
        cl_int err = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
        ASSERT_EQ(err, CL_SUCCESS);
        ctx_refs = ref_count(context);
        queue_refs = ref_count(queue);
    }
    void TearDown() override {
        if (!context) return;
        // Everything anydnn retained must be released again. Implementations drop the
        // queue references of finished events a little later (PoCL does): give them a second.
        clFinish(queue);
        for (int i = 0; i < 100 && (ref_count(queue) != queue_refs || ref_count(context) != ctx_refs);
                ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        EXPECT_EQ(ref_count(queue), queue_refs);
        EXPECT_EQ(ref_count(context), ctx_refs);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }

    cl_mem buffer(size_t bytes) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        EXPECT_EQ(err, CL_SUCCESS);
        return m;
    }

    // The application's own kernels: y[i] = x[i] * a + b (affine) on a buffer.
    cl_kernel app_kernel() {
        const char *src = "kernel void affine(global float *x, float a, float b) {"
                          "  size_t i = get_global_id(0); x[i] = x[i] * a + b; }";
        cl_int err = CL_SUCCESS;
        cl_program p = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
        EXPECT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
        cl_kernel k = clCreateKernel(p, "affine", &err);
        EXPECT_EQ(err, CL_SUCCESS);
        clReleaseProgram(p);
        return k;
    }

    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_uint ctx_refs = 0, queue_refs = 0;
};

} // namespace interop_test
