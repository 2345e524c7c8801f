// The OpenCL side of the GPU compute interface (core/compute/compute.hpp).
#include <map>
#include <mutex>
#include <string>

#include "core/compute/compute.hpp"
#include "runtime/ocl/ocl_compute.hpp"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/ocl/ocl_stream.hpp"
#include "runtime/ocl/program_cache.hpp"
#include "runtime/ocl/ptx_probe.hpp"

namespace anydnn {
namespace ocl {

namespace {

// Kernel arguments are state of the cl_kernel: one launch at a time sets and enqueues them.
// A cl_kernel whose argument was once an SVM pointer may refuse a cl_mem there later (NVIDIA
// does), so each mix of USM and buffer arguments gets a cl_kernel of its own.
struct ocl_kernel_t : public gpu::kernel_t {
    ocl_kernel_t(cl_program program, std::string name, cl_kernel first, size_t max_wg)
        : program_(program), name_(std::move(name)), max_wg_(max_wg) {
        kernels_[0] = first;
    }
    ~ocl_kernel_t() override {
        for (auto &k : kernels_) cl_api()->clReleaseKernel(k.second);
        cl_api()->clReleaseProgram(program_);
    }

    status_t launch(stream_t *stream, const gpu::kernel_args_t &args,
            const gpu::nd_range_t &range) const override {
        auto *s = static_cast<ocl_stream_t *>(stream);
        ANYDNN_REQUIRE(s->engine()->runtime() == runtime_kind_t::ocl, dnnl_invalid_arguments,
                "an OpenCL kernel launched on a stream of another runtime");
        uint64_t usm_mask = 0;
        for (size_t i = 0; i < args.args().size() && i < 64; ++i) {
            const auto *st = static_cast<const ocl_storage_t *>(args.args()[i].storage);
            if (st && st->kind() == dnnl_ocl_interop_usm) usm_mask |= uint64_t(1) << i;
        }
        std::lock_guard<std::mutex> lock(mutex_);
        cl_kernel kernel = nullptr;
        ANYDNN_CHECK(kernel_for(usm_mask, kernel));
        const cl_api_t &cl = *cl_api();
        cl_uint i = 0;
        for (const auto &a : args.args()) {
            if (a.local_bytes) {
                ANYDNN_CL_CHECK(cl.clSetKernelArg(kernel, i, a.local_bytes, nullptr));
            } else if (!a.bytes.empty()) {
                ANYDNN_CL_CHECK(cl.clSetKernelArg(kernel, i, a.bytes.size(), a.bytes.data()));
            } else if (a.storage) {
                auto *st = static_cast<const ocl_storage_t *>(a.storage);
                ANYDNN_CHECK(st->set_kernel_arg(kernel, i));
            } else {
                cl_mem null_mem = nullptr;
                ANYDNN_CL_CHECK(cl.clSetKernelArg(kernel, i, sizeof(cl_mem), &null_mem));
            }
            ++i;
        }
        for (int d = 0; d < range.ndims; ++d)
            if (range.global[d] == 0) return dnnl_success; // nothing to run
        return s->enqueue_kernel(kernel, static_cast<cl_uint>(range.ndims), range.global,
                range.has_local() ? range.local : nullptr);
    }
    size_t max_work_group_size() const override { return max_wg_; }

private:
    // Caller holds mutex_.
    status_t kernel_for(uint64_t usm_mask, cl_kernel &kernel) const {
        auto it = kernels_.find(usm_mask);
        if (it != kernels_.end()) {
            kernel = it->second;
            return dnnl_success;
        }
        cl_int err = CL_SUCCESS;
        kernel = cl_api()->clCreateKernel(program_, name_.c_str(), &err);
        ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clCreateKernel(%s): %s",
                name_.c_str(), cl_error_name(err));
        kernels_[usm_mask] = kernel;
        return dnnl_success;
    }

    cl_program program_;
    std::string name_;
    mutable std::map<uint64_t, cl_kernel> kernels_; // by mask of USM arguments
    size_t max_wg_;
    mutable std::mutex mutex_;
};

} // namespace

namespace {

// Kernel `name` of a built program (whose reference it takes over).
status_t kernel_of(ocl_engine_t *e, cl_program program, const char *name,
        std::shared_ptr<gpu::kernel_t> &kernel) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = ocl::cl_api()->clCreateKernel(program, name, &err);
    if (err != CL_SUCCESS) ocl::cl_api()->clReleaseProgram(program);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clCreateKernel(%s): %s", name,
            ocl::cl_error_name(err));
    size_t max_wg = 1;
    ocl::cl_api()->clGetKernelWorkGroupInfo(k, e->device(), CL_KERNEL_WORK_GROUP_SIZE,
            sizeof(max_wg), &max_wg, nullptr);
    kernel = std::make_shared<ocl::ocl_kernel_t>(program, name, k, max_wg);
    return dnnl_success;
}

} // namespace

status_t create_kernel(ocl_engine_t *e, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    using namespace gpu;
    const char *source = kernel_source(source_name);
    ANYDNN_REQUIRE(source, dnnl_runtime_error, "no kernel source %s", source_name);
    cl_program program = nullptr;
    ANYDNN_CHECK(ocl::get_program(e, source, "-cl-std=CL1.2 " + options, &program));
    return kernel_of(e, program, name, kernel);
}

status_t create_ptx_kernel(
        ocl_engine_t *e, const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    ANYDNN_REQUIRE(gpu::engine_caps(e).ptx_binary_sm > 0, dnnl_unimplemented,
            "the OpenCL device does not load PTX programs");
    const char *ptx = gpu::ptx_module(name);
    ANYDNN_REQUIRE(ptx, dnnl_unimplemented, "no PTX kernel %s in this build", name);
    cl_program program = nullptr;
    ANYDNN_CHECK(ocl::get_program(e, ptx, "", &program, true));
    return kernel_of(e, program, name, kernel);
}

namespace {

// Whether the probe kernel with inline mma.sync, ldmatrix and cp.async builds on the device.
// Only compilers that take inline PTX are asked (others would reject the asm anyway).
bool probe_inline_mma_sync(ocl_engine_t *e) {
    if (!e->info().nvidia_ptx) return false;
    const char *source = gpu::kernel_source("tuning/probe_mma_sync.cl");
    cl_program program = nullptr;
    if (!source || get_program(e, source, "-cl-std=CL1.2", &program) != dnnl_success)
        return false;
    cl_api()->clReleaseProgram(program);
    return true;
}

} // namespace

gpu::device_caps_t device_caps(ocl_engine_t *e) {
    gpu::device_caps_t c;
    {
        const device_info_t &d = e->info();
        c.name = d.name;
        c.vendor = d.vendor;
        if (d.nv_compute_major > 0)
            c.arch = "sm_" + std::to_string(d.nv_compute_major)
                    + std::to_string(d.nv_compute_minor);
        c.compute_units = d.compute_units;
        c.max_work_group_size = d.max_work_group_size;
        c.local_mem_size = d.local_mem_size;
        c.global_mem_cache_size = d.global_mem_cache_size;
        c.fp16 = d.fp16;
        c.fp64 = d.fp64;
        c.subgroups = d.khr_subgroups || d.intel_subgroups;
        c.intel_subgroups = d.intel_subgroups;
        c.nvidia_ptx = d.nvidia_ptx;
        c.is_cpu = d.type & CL_DEVICE_TYPE_CPU;
    }
    c.inline_mma_sync = probe_inline_mma_sync(e);
    c.ptx_binary_sm = ptx_binary_sm(e->context(), e->device());
    return c;
}

} // namespace ocl
} // namespace anydnn
