#include "runtime/ze/ze_engine.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/impl_lists.hpp"
#include "core/primitive_cache.hpp"
#include "core/primitive_desc.hpp"
#include "oneapi/dnnl/dnnl_version.h"
#include "runtime/ze/ze_compute.hpp"
#include "runtime/ze/ze_memory.hpp"
#include "runtime/ze/ze_module.hpp"
#include "runtime/ze/ze_stream.hpp"

namespace anydnn {
namespace ze {

namespace {

// Whether `device` can allocate in `context`: a context made without the device refuses.
bool context_has_device(ze_context_handle_t context, ze_device_handle_t device) {
    ze_device_mem_alloc_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
    void *probe = nullptr;
    if (ze_api()->zeMemAllocDevice(context, &desc, 64, 64, device, &probe) != ZE_RESULT_SUCCESS)
        return false;
    ze_api()->zeMemFree(context, probe);
    return true;
}

void append_hex(std::string &out, const uint8_t *bytes, size_t n) {
    char two[3];
    for (size_t i = 0; i < n; ++i) {
        std::snprintf(two, sizeof(two), "%02x", bytes[i]);
        out += two;
    }
}

} // namespace

ze_engine_t::ze_engine_t(
        ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context)
    : engine_t(dnnl_gpu, runtime_kind_t::ze, 0)
    , driver_(driver)
    , device_(device)
    , context_(context) {}

status_t ze_engine_t::create(ze_engine_t **engine, ze_driver_handle_t driver,
        ze_device_handle_t device, ze_context_handle_t context) {
    ANYDNN_REQUIRE(driver_has_device(driver, device), dnnl_invalid_arguments,
            "device is not a device of driver (or driver is not a Level Zero driver)");
    ANYDNN_REQUIRE(ze_api()->zeContextGetStatus(context) == ZE_RESULT_SUCCESS,
            dnnl_invalid_arguments, "context is not a usable Level Zero context");
    ANYDNN_REQUIRE(context_has_device(context, device), dnnl_invalid_arguments,
            "device cannot allocate in context (a context made without the device?)");
    *engine = new ze_engine_t(driver, device, context);
    return dnnl_success;
}

status_t ze_engine_t::create_own(ze_engine_t **engine, size_t index) {
    const auto &devices = all_devices();
    ANYDNN_REQUIRE(index < devices.size(), dnnl_invalid_arguments,
            "no Level Zero device with index %zu (there are %zu)", index, devices.size());
    ze_context_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
    ze_context_handle_t context = nullptr;
    ANYDNN_CHECK(ze_check(ze_api()->zeContextCreate(devices[index].first, &desc, &context),
            "zeContextCreate"));
    const status_t st = create(engine, devices[index].first, devices[index].second, context);
    if (st != dnnl_success) {
        ze_api()->zeContextDestroy(context);
        return st;
    }
    (*engine)->owns_context_ = true;
    return dnnl_success;
}

ze_engine_t::~ze_engine_t() {
    if (process_exiting()) return;
    // Cached primitives free device memory through the context: they go while it exists (the
    // base destructor would drop them after).
    primitive_cache().drop_engine(id());
    module_cache_drop_engine(id());
    if (owns_context_) ze_api()->zeContextDestroy(context_);
}

status_t ze_engine_t::create_stream(dnnl_stream **stream, unsigned flags) {
    ze_stream_t *s = nullptr;
    ANYDNN_CHECK(ze_stream_t::create(&s, this, nullptr, flags));
    *stream = s;
    return dnnl_success;
}

status_t ze_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    void *ptr = nullptr;
    const bool owned = handle == DNNL_MEMORY_ALLOCATE;
    if (owned) {
        ANYDNN_CHECK(usm_allocate_shared(this, size, &ptr));
    } else if (handle != DNNL_MEMORY_NONE) {
        ANYDNN_REQUIRE(usm_type(this, handle) != ZE_MEMORY_TYPE_UNKNOWN, dnnl_invalid_arguments,
                "handle is not a USM pointer of the engine's context");
        ptr = handle;
    }
    storage = std::make_unique<ze_usm_storage_t>(this, ptr, size, owned);
    return dnnl_success;
}

const std::vector<impl_entry_t> &ze_engine_t::impl_list(dnnl_primitive_kind_t kind) const {
    return gpu_impl_list(kind); // the same kernels serve every GPU runtime
}

status_t ze_engine_t::create_kernel(const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<gpu::kernel_t> &kernel) {
    return ze::create_kernel(this, source_name, options, name, kernel);
}

gpu::device_caps_t ze_engine_t::device_caps() {
    return ze::device_caps(this);
}

status_t ze_engine_t::copy_to_device(stream_t *stream, const memory_storage_t *storage,
        size_t offset, const void *host, size_t bytes) {
    return ze::transfer(stream, storage, offset, const_cast<void *>(host), bytes, true);
}

status_t ze_engine_t::copy_from_device(stream_t *stream, void *host,
        const memory_storage_t *storage, size_t offset, size_t bytes) {
    return ze::transfer(stream, storage, offset, host, bytes, false);
}

const std::vector<std::pair<ze_driver_handle_t, ze_device_handle_t>> &all_devices() {
    static const auto devices = [] {
        std::vector<std::pair<ze_driver_handle_t, ze_device_handle_t>> all;
        for (ze_driver_handle_t driver : ze_drivers()) {
            uint32_t count = 0;
            if (ze_api()->zeDeviceGet(driver, &count, nullptr) != ZE_RESULT_SUCCESS) continue;
            std::vector<ze_device_handle_t> list(count);
            if (ze_api()->zeDeviceGet(driver, &count, list.data()) != ZE_RESULT_SUCCESS)
                continue;
            for (uint32_t i = 0; i < count; ++i) all.emplace_back(driver, list[i]);
        }
        return all;
    }();
    return devices;
}

bool gpu_runtime_is_ze() {
    const char *env = std::getenv("ANYDNN_GPU_RUNTIME");
    return env && std::strcmp(env, "ze") == 0;
}

ze_engine_t *as_ze(engine_t *e) {
    return e && e->runtime() == runtime_kind_t::ze ? static_cast<ze_engine_t *>(e) : nullptr;
}

std::string cache_blob_id(ze_driver_handle_t driver, ze_device_handle_t device) {
    ze_driver_properties_t drv = {};
    drv.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
    ze_device_properties_t dev = {};
    dev.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    if (ze_api()->zeDriverGetProperties(driver, &drv) != ZE_RESULT_SUCCESS
            || ze_api()->zeDeviceGetProperties(device, &dev) != ZE_RESULT_SUCCESS)
        return {};
    std::string id = "anydnn-ze-modules:";
    append_hex(id, drv.uuid.id, ZE_MAX_DRIVER_UUID_SIZE);
    id += "|" + std::to_string(drv.driverVersion) + "|";
    append_hex(id, dev.uuid.id, ZE_MAX_DEVICE_UUID_SIZE);
    id += "|" + std::string(dev.name) + "|" + DNNL_VERSION_HASH;
    return id;
}

} // namespace ze
} // namespace anydnn
