// Kernels over cl_kernel: arguments by value (a USM pointer goes to clSetKernelArgSVMPointer,
// a null value with a size is local memory), the group size kept for the launch
// (command_lists.cpp: global size = group count x group size), properties from OpenCL's
// kernel queries.
#include <algorithm>
#include <cstring>

#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

template <typename T> T kernel_info(const kernel_t *k, cl_kernel_work_group_info what) {
    T value{};
    clGetKernelWorkGroupInfo(k->cl, k->module->device->cl, what, sizeof(value), &value, nullptr);
    return value;
}

// Per argument: 1 when it is a global or constant pointer, 0 when not, -1 when OpenCL cannot
// say (a program without argument information).
std::vector<int> pointer_arguments(cl_kernel kernel) {
    cl_uint n = 0;
    clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(n), &n, nullptr);
    std::vector<int> pointers(n, -1);
    for (cl_uint i = 0; i < n; ++i) {
        cl_kernel_arg_address_qualifier q = 0;
        if (clGetKernelArgInfo(kernel, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(q), &q, nullptr)
                == CL_SUCCESS)
            pointers[i] = q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT;
    }
    return pointers;
}

bool required_group_size(const kernel_t *k, size_t required[3]) {
    clGetKernelWorkGroupInfo(k->cl, k->module->device->cl, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
            3 * sizeof(size_t), required, nullptr);
    return required[0] != 0;
}

bool only_small_prime_factors(size_t d) {
    for (size_t p : {2, 3, 5, 7})
        while (d % p == 0) d /= p;
    return d == 1;
}

// The group size suggested for n work-items within limit. PoCL builds a kernel once per group
// size, so the suggestion is the largest power of two dividing n: a few sizes serve every
// shape. Where that leaves groups under 8 work-items on a long dimension (odd sizes), millions
// of tiny groups would cost more than one more build: then the largest divisor made of the
// primes 2, 3, 5 and 7.
size_t suggested_group_dimension(uint32_t n, size_t limit) {
    if (n == 0) return 1;
    size_t g = 1;
    while (g * 2 <= limit && n % (g * 2) == 0) g *= 2;
    if (g >= 8 || n < 4096) return g;
    for (size_t d = std::min<size_t>(n, limit); d > g; --d)
        if (n % d == 0 && only_small_prime_factors(d)) return d;
    return g;
}
} // namespace

ze_result_t ZE_APICALL kernel_create(
        ze_module_handle_t module, const ze_kernel_desc_t *desc, ze_kernel_handle_t *kernel) {
    lock_t lock(objects_mutex());
    auto *m = live<module_t>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!desc || !desc->pKernelName || !kernel) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    cl_int status = CL_SUCCESS;
    cl_kernel cl = clCreateKernel(m->program, desc->pKernelName, &status);
    if (status != CL_SUCCESS) {
        return status == CL_INVALID_KERNEL_NAME || status == CL_INVALID_KERNEL_DEFINITION
                       ? ZE_RESULT_ERROR_INVALID_KERNEL_NAME
                       : from_cl(status);
    }
    auto *k = new kernel_t;
    k->module = m;
    k->cl = cl;
    k->name = desc->pKernelName;
    k->pointer_arg = pointer_arguments(cl);
    size_t required[3] = {};
    if (required_group_size(k, required))
        for (int i = 0; i < 3; ++i)
            k->group_size[i] = static_cast<uint32_t>(required[i]);
    ++m->live_kernels;
    register_object(k, typeid(kernel_t));
    *kernel = handle_of<ze_kernel_handle_t>(k);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_destroy(ze_kernel_handle_t kernel) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    unregister_object(k);
    --k->module->live_kernels;
    clReleaseKernel(k->cl);
    delete k;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_group_size(
        ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    const uint32_t size[3] = {x, y, z};
    size_t items[3] = {1, 1, 1}, required[3] = {};
    clGetDeviceInfo(
            k->module->device->cl, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items, nullptr);
    const bool has_required = required_group_size(k, required);
    uint64_t total = 1;
    for (int i = 0; i < 3; ++i) {
        if (size[i] == 0 || size[i] > items[i] || (has_required && size[i] != required[i]))
            return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
        total *= size[i];
    }
    if (total > kernel_info<size_t>(k, CL_KERNEL_WORK_GROUP_SIZE))
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    std::copy(size, size + 3, k->group_size);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_suggest_group_size(ze_kernel_handle_t kernel, uint32_t gx,
        uint32_t gy, uint32_t gz, uint32_t *x, uint32_t *y, uint32_t *z) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!x || !y || !z) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    size_t size[3] = {};
    if (!required_group_size(k, size)) {
        // Divisors of the global sizes, x first, within the kernel's limits.
        size_t items[3] = {1, 1, 1};
        clGetDeviceInfo(k->module->device->cl, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(items), items,
                nullptr);
        size_t left = std::max<size_t>(1, kernel_info<size_t>(k, CL_KERNEL_WORK_GROUP_SIZE));
        const uint32_t global[3] = {gx, gy, gz};
        for (int i = 0; i < 3; ++i) {
            size[i] = suggested_group_dimension(global[i], std::min(left, items[i]));
            left /= size[i];
        }
    }
    *x = static_cast<uint32_t>(size[0]);
    *y = static_cast<uint32_t>(size[1]);
    *z = static_cast<uint32_t>(size[2]);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_argument_value(
        ze_kernel_handle_t kernel, uint32_t index, size_t size, const void *value) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (index >= k->pointer_arg.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    if (!value) return from_cl(clSetKernelArg(k->cl, index, size, nullptr)); // local memory
    const int known = k->pointer_arg[index];
    if (known == 1 && size != sizeof(void *)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    void *ptr = nullptr;
    if (size == sizeof(void *)) std::memcpy(&ptr, value, sizeof(ptr));
    allocation_t *a = ptr && known != 0 ? find_allocation(ptr) : nullptr;
    const bool usm = a && a->context == k->module->context;
    if (known == 1 || (known == -1 && usm)) {
        if (!ptr) {
            const cl_mem none = nullptr; // a null pointer argument
            return from_cl(clSetKernelArg(k->cl, index, sizeof(none), &none));
        }
        return from_cl(clSetKernelArgSVMPointer(k->cl, index, ptr));
    }
    return from_cl(clSetKernelArg(k->cl, index, size, value));
}

ze_result_t ZE_APICALL kernel_get_properties(ze_kernel_handle_t kernel, ze_kernel_properties_t *p) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const device_t *d = k->module->device;
    size_t required[3] = {};
    required_group_size(k, required);
    const size_t max_group = kernel_info<size_t>(k, CL_KERNEL_WORK_GROUP_SIZE);
    p->numKernelArgs = static_cast<uint32_t>(k->pointer_arg.size());
    p->requiredGroupSizeX = static_cast<uint32_t>(required[0]);
    p->requiredGroupSizeY = static_cast<uint32_t>(required[1]);
    p->requiredGroupSizeZ = static_cast<uint32_t>(required[2]);
    p->requiredNumSubGroups = 0;
    p->requiredSubgroupSize = 0;
    // Without subgroups (PoCL) each work item is its own subgroup.
    p->maxSubgroupSize = 1;
    p->maxNumSubgroups = static_cast<uint32_t>(max_group);
    if (!d->subgroup_sizes.empty()) {
        const size_t local[3] = {k->group_size[0], k->group_size[1], k->group_size[2]};
        size_t value = 0;
        if (clGetKernelSubGroupInfo(k->cl, d->cl, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                    sizeof(local), local, sizeof(value), &value, nullptr)
                        == CL_SUCCESS
                && value)
            p->maxSubgroupSize = static_cast<uint32_t>(value);
        else
            p->maxSubgroupSize =
                    *std::max_element(d->subgroup_sizes.begin(), d->subgroup_sizes.end());
        constexpr cl_kernel_sub_group_info compile_sub_group_size_intel = 0x410A;
        if (clGetKernelSubGroupInfo(k->cl, d->cl, compile_sub_group_size_intel, 0, nullptr,
                    sizeof(value), &value, nullptr)
                == CL_SUCCESS)
            p->requiredSubgroupSize = static_cast<uint32_t>(value);
        if (clGetKernelSubGroupInfo(k->cl, d->cl, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr,
                    sizeof(value), &value, nullptr)
                == CL_SUCCESS)
            p->requiredNumSubGroups = static_cast<uint32_t>(value);
        p->maxNumSubgroups =
                static_cast<uint32_t>((max_group + p->maxSubgroupSize - 1) / p->maxSubgroupSize);
    }
    p->localMemSize = static_cast<uint32_t>(kernel_info<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE));
    p->privateMemSize = static_cast<uint32_t>(kernel_info<cl_ulong>(k, CL_KERNEL_PRIVATE_MEM_SIZE));
    p->spillMemSize = 0;
    fill_uuid(p->uuid.kid, k);
    fill_uuid(p->uuid.mid, k->module);
    // Extensions: the preferred group size multiple.
    for (auto *ext = static_cast<ze_base_properties_t *>(p->pNext); ext;
            ext = static_cast<ze_base_properties_t *>(ext->pNext))
        if (ext->stype == ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES)
            reinterpret_cast<ze_kernel_preferred_group_size_properties_t *>(ext)
                    ->preferredMultiple = static_cast<uint32_t>(
                    kernel_info<size_t>(k, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE));
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_get_name(ze_kernel_handle_t kernel, size_t *size, char *name) {
    lock_t lock(objects_mutex());
    auto *k = live<kernel_t>(kernel);
    if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return copy_string(k->name, size, name);
}

} // namespace ze_driver
