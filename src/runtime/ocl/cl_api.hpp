// The OpenCL entry points we call, resolved from the ICD loader with dlopen so that the
// library loads and runs CPU-only on machines without OpenCL.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>

namespace anydnn {
namespace ocl {

// X(name) for every core function the runtime uses.
#define ANYDNN_CL_FUNCTIONS(X) \
    X(clGetPlatformIDs) \
    X(clGetPlatformInfo) \
    X(clGetDeviceIDs) \
    X(clGetDeviceInfo) \
    X(clRetainDevice) \
    X(clReleaseDevice) \
    X(clCreateContext) \
    X(clRetainContext) \
    X(clReleaseContext) \
    X(clGetContextInfo) \
    X(clCreateCommandQueueWithProperties) \
    X(clRetainCommandQueue) \
    X(clReleaseCommandQueue) \
    X(clGetCommandQueueInfo) \
    X(clCreateBuffer) \
    X(clRetainMemObject) \
    X(clReleaseMemObject) \
    X(clGetMemObjectInfo) \
    X(clSVMAlloc) \
    X(clSVMFree) \
    X(clCreateProgramWithSource) \
    X(clCreateProgramWithBinary) \
    X(clBuildProgram) \
    X(clGetProgramInfo) \
    X(clGetProgramBuildInfo) \
    X(clRetainProgram) \
    X(clReleaseProgram) \
    X(clCreateKernel) \
    X(clRetainKernel) \
    X(clReleaseKernel) \
    X(clSetKernelArg) \
    X(clSetKernelArgSVMPointer) \
    X(clGetKernelWorkGroupInfo) \
    X(clEnqueueNDRangeKernel) \
    X(clEnqueueReadBuffer) \
    X(clEnqueueWriteBuffer) \
    X(clEnqueueCopyBuffer) \
    X(clEnqueueFillBuffer) \
    X(clEnqueueMapBuffer) \
    X(clEnqueueUnmapMemObject) \
    X(clEnqueueSVMMap) \
    X(clEnqueueSVMUnmap) \
    X(clEnqueueSVMMemcpy) \
    X(clEnqueueMarkerWithWaitList) \
    X(clEnqueueBarrierWithWaitList) \
    X(clWaitForEvents) \
    X(clGetEventInfo) \
    X(clGetEventProfilingInfo) \
    X(clRetainEvent) \
    X(clReleaseEvent) \
    X(clFlush) \
    X(clFinish) \
    X(clGetExtensionFunctionAddressForPlatform)

// Intel unified shared memory (cl_intel_unified_shared_memory), per platform.
struct intel_usm_api_t {
    void *(CL_API_CALL *clHostMemAllocINTEL)(
            cl_context, const cl_ulong *, size_t, cl_uint, cl_int *) = nullptr;
    void *(CL_API_CALL *clDeviceMemAllocINTEL)(
            cl_context, cl_device_id, const cl_ulong *, size_t, cl_uint, cl_int *) = nullptr;
    void *(CL_API_CALL *clSharedMemAllocINTEL)(
            cl_context, cl_device_id, const cl_ulong *, size_t, cl_uint, cl_int *) = nullptr;
    cl_int(CL_API_CALL *clMemBlockingFreeINTEL)(cl_context, void *) = nullptr;
    cl_int(CL_API_CALL *clGetMemAllocInfoINTEL)(
            cl_context, const void *, cl_uint, size_t, void *, size_t *) = nullptr;
    cl_int(CL_API_CALL *clSetKernelArgMemPointerINTEL)(cl_kernel, cl_uint, const void *) = nullptr;
    cl_int(CL_API_CALL *clEnqueueMemcpyINTEL)(cl_command_queue, cl_bool, void *, const void *,
            size_t, cl_uint, const cl_event *, cl_event *) = nullptr;
    bool complete() const {
        return clHostMemAllocINTEL && clDeviceMemAllocINTEL && clSharedMemAllocINTEL
                && clMemBlockingFreeINTEL && clGetMemAllocInfoINTEL
                && clSetKernelArgMemPointerINTEL && clEnqueueMemcpyINTEL;
    }
};

struct cl_api_t {
#define ANYDNN_CL_MEMBER(name) decltype(&::name) name = nullptr;
    ANYDNN_CL_FUNCTIONS(ANYDNN_CL_MEMBER)
#undef ANYDNN_CL_MEMBER
};

// The loaded API, or null when no ICD loader is present (then there are no OpenCL engines).
const cl_api_t *cl_api();

// Short name of an OpenCL error code for messages.
const char *cl_error_name(cl_int err);

} // namespace ocl
} // namespace anydnn

// Fails the calling function with dnnl_runtime_error when an OpenCL call does not succeed.
#define ANYDNN_CL_CHECK(call) \
    do { \
        cl_int anydnn_cl_err_ = (call); \
        ANYDNN_REQUIRE(anydnn_cl_err_ == CL_SUCCESS, dnnl_runtime_error, "%s failed: %s", \
                #call, ::anydnn::ocl::cl_error_name(anydnn_cl_err_)); \
    } while (0)
