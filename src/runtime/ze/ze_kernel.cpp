// Level Zero kernels: zeKernelCreate from a cached module (ze_module.hpp); a launch sets the
// arguments (USM pointers by value, local memory as a size), picks a group size that divides
// the global size exactly (Level Zero launches whole groups, and kernels rely on the exact
// global size as they do on OpenCL), and appends the launch to the stream's immediate
// in-order command list.
#include <algorithm>
#include <mutex>

#include "runtime/ze/ze_compute.hpp"
#include "runtime/ze/ze_engine.hpp"
#include "runtime/ze/ze_module.hpp"
#include "runtime/ze/ze_stream.hpp"

namespace anydnn {
namespace ze {

namespace {

// The largest power of two that divides n and is at most limit: where the driver's suggestion
// does not divide the global size, a divisor from a small set of sizes.
uint32_t power_of_two_divisor(size_t n, size_t limit) {
    size_t g = 1;
    while (g * 2 <= limit && n % (g * 2) == 0) g *= 2;
    return static_cast<uint32_t>(g);
}

struct ze_kernel_t : public gpu::kernel_t {
    ze_kernel_t(std::shared_ptr<ze_module_t> module, ze_kernel_handle_t kernel, size_t max_wg)
        : module_(std::move(module)), kernel_(kernel), max_wg_(max_wg) {}
    ~ze_kernel_t() override {
        if (!process_exiting()) ze_api()->zeKernelDestroy(kernel_);
    }

    status_t launch(stream_t *stream, const gpu::kernel_args_t &args,
            const gpu::nd_range_t &range) const override {
        ANYDNN_REQUIRE(stream && stream->engine()->runtime() == runtime_kind_t::ze,
                dnnl_invalid_arguments, "a Level Zero kernel launched on a stream of another runtime");
        for (int d = 0; d < range.ndims; ++d)
            if (range.global[d] == 0) return dnnl_success; // nothing to run
        for (int d = 0; d < 3; ++d)
            ANYDNN_REQUIRE(range.global[d] <= UINT32_MAX, dnnl_unimplemented,
                    "global size %zu is beyond Level Zero's 32-bit group counts",
                    range.global[d]);
        const ze_api_t &ze = *ze_api();
        // Arguments and group size are state of the kernel until the launch is appended.
        std::lock_guard<std::mutex> lock(mutex_);
        uint32_t i = 0;
        for (const auto &a : args.args()) {
            ze_result_t r;
            if (a.local_bytes) {
                r = ze.zeKernelSetArgumentValue(kernel_, i, a.local_bytes, nullptr);
            } else if (!a.bytes.empty()) {
                r = ze.zeKernelSetArgumentValue(kernel_, i, a.bytes.size(), a.bytes.data());
            } else {
                void *ptr = a.storage ? a.storage->data_handle() : nullptr;
                r = ze.zeKernelSetArgumentValue(kernel_, i, sizeof(ptr), &ptr);
            }
            ANYDNN_CHECK(ze_check(r, "zeKernelSetArgumentValue"));
            ++i;
        }
        uint32_t group[3] = {1, 1, 1};
        ANYDNN_CHECK(group_size(range, group));
        ANYDNN_CHECK(ze_check(ze.zeKernelSetGroupSize(kernel_, group[0], group[1], group[2]),
                "zeKernelSetGroupSize"));
        ze_group_count_t count;
        count.groupCountX = static_cast<uint32_t>(range.global[0] / group[0]);
        count.groupCountY = static_cast<uint32_t>(range.global[1] / group[1]);
        count.groupCountZ = static_cast<uint32_t>(range.global[2] / group[2]);
        auto *s = static_cast<ze_stream_t *>(stream);
        return ze_check(ze.zeCommandListAppendLaunchKernel(
                                s->list(), kernel_, &count, nullptr, 0, nullptr),
                "zeCommandListAppendLaunchKernel");
    }
    size_t max_work_group_size() const override { return max_wg_; }

private:
    // The caller's local size (which must divide the global size, as on OpenCL 1.2), else the
    // driver's suggestion, as OpenCL leaves a null local size to the implementation (the
    // driver knows which sizes it runs well and which cost it a build). Level Zero launches
    // whole groups and kernels rely on the exact global size: a suggestion that does not
    // divide it comes down to a power-of-two divisor. Caller holds mutex_.
    status_t group_size(const gpu::nd_range_t &range, uint32_t group[3]) const {
        if (range.has_local()) {
            for (int d = 0; d < 3; ++d) {
                const size_t l = d < range.ndims ? std::max<size_t>(range.local[d], 1) : 1;
                ANYDNN_REQUIRE(range.global[d] % l == 0, dnnl_runtime_error,
                        "global size %zu is not a multiple of the group size %zu",
                        range.global[d], l);
                group[d] = static_cast<uint32_t>(l);
            }
            return dnnl_success;
        }
        uint32_t suggested[3] = {1, 1, 1};
        if (ze_api()->zeKernelSuggestGroupSize(kernel_, static_cast<uint32_t>(range.global[0]),
                    static_cast<uint32_t>(range.global[1]),
                    static_cast<uint32_t>(range.global[2]), &suggested[0], &suggested[1],
                    &suggested[2])
                != ZE_RESULT_SUCCESS) {
            suggested[0] = 64; // a common size, within every device's limit
            suggested[1] = suggested[2] = 1;
        }
        size_t budget = std::max<size_t>(max_wg_, 1);
        for (int d = 0; d < 3; ++d) {
            const size_t s = std::min<size_t>(std::max<uint32_t>(suggested[d], 1), budget);
            group[d] = range.global[d] % s == 0 ? static_cast<uint32_t>(s)
                                                : power_of_two_divisor(range.global[d], s);
            budget /= group[d];
        }
        return dnnl_success;
    }

    std::shared_ptr<ze_module_t> module_; // outlives the kernel
    ze_kernel_handle_t kernel_;
    size_t max_wg_;
    mutable std::mutex mutex_;
};

} // namespace

status_t transfer(stream_t *stream, const memory_storage_t *storage, size_t offset, void *host,
        size_t bytes, bool to_device) {
    if (bytes == 0) return dnnl_success;
    ANYDNN_REQUIRE(storage && storage->data_handle(), dnnl_invalid_arguments,
            "device copy of memory without a USM pointer");
    auto *s = static_cast<ze_stream_t *>(stream);
    char *dev = static_cast<char *>(storage->data_handle()) + offset;
    void *dst = to_device ? static_cast<void *>(dev) : host;
    const void *src = to_device ? host : static_cast<const void *>(dev);
    ANYDNN_CHECK(ze_check(
            ze_api()->zeCommandListAppendMemoryCopy(s->list(), dst, src, bytes, nullptr, 0, nullptr),
            "zeCommandListAppendMemoryCopy"));
    // The host side must be read (or written) before we return.
    return s->wait();
}

status_t create_kernel(ze_engine_t *engine, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    std::shared_ptr<ze_module_t> module;
    ANYDNN_CHECK(get_module(engine, source_name, options, module));
    ze_kernel_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
    desc.pKernelName = name;
    ze_kernel_handle_t k = nullptr;
    const ze_result_t r = ze_api()->zeKernelCreate(module->handle, &desc, &k);
    ANYDNN_REQUIRE(r == ZE_RESULT_SUCCESS, dnnl_runtime_error, "zeKernelCreate(%s) failed (0x%x)",
            name, static_cast<unsigned>(r));
    size_t max_wg = gpu::engine_caps(engine).max_work_group_size;
    ze_kernel_properties_t props = {};
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    if (ze_api()->zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS
            && props.maxSubgroupSize > 0 && props.maxNumSubgroups > 0)
        max_wg = std::min<size_t>(max_wg, size_t(props.maxSubgroupSize) * props.maxNumSubgroups);
    kernel = std::make_shared<ze_kernel_t>(std::move(module), k, max_wg);
    return dnnl_success;
}

gpu::device_caps_t device_caps(ze_engine_t *engine) {
    gpu::device_caps_t c;
    const ze_api_t &ze = *ze_api();
    ze_device_properties_t dev = {};
    dev.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    if (ze.zeDeviceGetProperties(engine->device(), &dev) == ZE_RESULT_SUCCESS) {
        c.name = dev.name;
        c.compute_units = std::max<uint32_t>(
                1, dev.numSlices * dev.numSubslicesPerSlice * dev.numEUsPerSubslice);
        c.is_cpu = dev.type == ZE_DEVICE_TYPE_CPU;
    }
    ze_device_compute_properties_t compute = {};
    compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    if (ze.zeDeviceGetComputeProperties(engine->device(), &compute) == ZE_RESULT_SUCCESS) {
        c.max_work_group_size = std::max<uint32_t>(compute.maxTotalGroupSize, 1);
        c.local_mem_size = compute.maxSharedLocalMemory;
    }
    ze_device_module_properties_t module = {};
    module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
    if (ze.zeDeviceGetModuleProperties(engine->device(), &module) == ZE_RESULT_SUCCESS) {
        c.fp16 = module.flags & ZE_DEVICE_MODULE_FLAG_FP16;
        c.fp64 = module.flags & ZE_DEVICE_MODULE_FLAG_FP64;
    }
    // Sub-group kernels are written for OpenCL's extensions: not assumed on Level Zero yet.
    return c;
}

} // namespace ze
} // namespace anydnn
