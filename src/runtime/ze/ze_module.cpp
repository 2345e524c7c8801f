#include "runtime/ze/ze_module.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/compute/kernel_spirv.hpp"
#include "core/sealed.hpp"
#include "runtime/binary_cache.hpp"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ocl/program_cache.hpp"
#include "runtime/ze/ze_engine.hpp"

namespace anydnn {
namespace ze {

namespace {

std::mutex cache_mutex;
// (engine, key) -> module; the key names source, options, device, driver and library. Never
// destroyed: engines that outlive static destruction (an application's globals) still drop
// their modules here, and no module is destroyed after the driver may have gone.
using module_map_t = std::map<std::pair<uint64_t, std::string>, std::shared_ptr<ze_module_t>>;
module_map_t &memory_cache() {
    static module_map_t *cache = new module_map_t;
    return *cache;
}
module_cache_stats_t stats;

enum class module_origin_t { spirv, native, source };

std::string module_key(ze_engine_t *engine, const char *source, const std::string &options) {
    return binary_cache::hash_key(std::string(source) + '\0' + options + '\0'
            + cache_blob_id(engine->driver(), engine->device()));
}

std::string build_log_text(ze_module_build_log_handle_t log) {
    if (!log) return {};
    const ze_api_t &ze = *ze_api();
    size_t size = 0;
    std::string text;
    if (ze.zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
        text.resize(size);
        if (ze.zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS)
            text.clear();
        while (!text.empty() && text.back() == '\0') text.pop_back();
    }
    ze.zeModuleBuildLogDestroy(log);
    return text;
}

// zeModuleCreate from `size` bytes of `format`; the build log goes into `log_text`.
ze_result_t create_module(ze_engine_t *engine, ze_module_format_t format, const void *data,
        size_t size, const char *flags, ze_module_handle_t *module, std::string *log_text) {
    ze_module_desc_t desc = {};
    desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
    desc.format = format;
    desc.inputSize = size;
    desc.pInputModule = static_cast<const uint8_t *>(data);
    desc.pBuildFlags = flags;
    ze_module_build_log_handle_t log = nullptr;
    *module = nullptr;
    const ze_result_t r = ze_api()->zeModuleCreate(engine->context(), engine->device(), &desc,
            module, log_text ? &log : nullptr);
    std::string text = build_log_text(log);
    if (log_text) *log_text = std::move(text);
    if (r != ZE_RESULT_SUCCESS && *module) {
        ze_api()->zeModuleDestroy(*module);
        *module = nullptr;
    }
    return r;
}

std::vector<unsigned char> native_binary(ze_module_handle_t module) {
    size_t size = 0;
    if (ze_api()->zeModuleGetNativeBinary(module, &size, nullptr) != ZE_RESULT_SUCCESS
            || size == 0)
        return {};
    std::vector<unsigned char> bin(size);
    if (ze_api()->zeModuleGetNativeBinary(module, &size, bin.data()) != ZE_RESULT_SUCCESS)
        return {};
    bin.resize(size);
    return bin;
}

ze_module_handle_t load_native(ze_engine_t *engine, const void *bin, size_t size) {
    ze_module_handle_t m = nullptr;
    create_module(engine, ZE_MODULE_FORMAT_NATIVE, bin, size, "", &m, nullptr);
    return m;
}

// The OpenCL devices named as `device`: Intel's GPUs have the same name in Level Zero and in
// OpenCL, and so do the test driver's devices. Empty without an OpenCL ICD loader.
std::vector<cl_device_id> opencl_namesakes(ze_device_handle_t device) {
    ze_device_properties_t props = {};
    props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    if (ze_api()->zeDeviceGetProperties(device, &props) != ZE_RESULT_SUCCESS) return {};
    const std::string name(props.name, strnlen(props.name, ZE_MAX_DEVICE_NAME));
    return ocl::devices_named(name, ZE_MAX_DEVICE_NAME - 1);
}

// A module made from what the driver takes, first that works:
//  1. SPIR-V compiled at build time for this source and these options (gpu::kernel_spirv);
//  2. a native binary: the OpenCL C built by OpenCL, with the same flags, on a device of the
//     same name (as Intel's own stack does), taken back with ZE_MODULE_FORMAT_NATIVE;
//  3. last, where no OpenCL device has the name (no ICD loader, another device): the OpenCL C
//     source as format 3. Intel's driver takes it; the validation layer's parameter checks
//     refuse it (ZE_RESULT_ERROR_INVALID_ENUMERATION).
status_t build(ze_engine_t *engine, const char *source_name, const char *source,
        const std::string &options, ze_module_handle_t *module, module_origin_t &origin) {
    const unsigned char *spirv = nullptr;
    size_t spirv_size = 0;
    std::string log;
    origin = module_origin_t::spirv;
    if (gpu::kernel_spirv(source_name, options, &spirv, &spirv_size)
            && create_module(engine, ZE_MODULE_FORMAT_IL_SPIRV, spirv, spirv_size, "", module,
                       &log)
                    == ZE_RESULT_SUCCESS)
        return dnnl_success;
    const std::string flags = "-cl-std=CL1.2 " + options;
    origin = module_origin_t::native;
    for (cl_device_id namesake : opencl_namesakes(engine->device())) {
        std::vector<unsigned char> bin;
        // A source that does not build fails here, with OpenCL's build log as the reason.
        ANYDNN_CHECK(ocl::build_binary(namesake, source, flags, bin));
        if (create_module(engine, ZE_MODULE_FORMAT_NATIVE, bin.data(), bin.size(), "", module,
                    nullptr)
                == ZE_RESULT_SUCCESS)
            return dnnl_success;
        // Refused: a namesake of another platform, whose binaries this device cannot load.
    }
    origin = module_origin_t::source;
    const ze_result_t r = create_module(engine, ZE_MODULE_FORMAT_OCLC, source,
            std::strlen(source) + 1, flags.c_str(), module, &log);
    ANYDNN_REQUIRE(r == ZE_RESULT_SUCCESS, dnnl_runtime_error,
            "Level Zero module build of %s failed (0x%x) with options '%s'%s: %s", source_name,
            static_cast<unsigned>(r), options.c_str(),
            r == ZE_RESULT_ERROR_INVALID_ENUMERATION
                    ? " (OpenCL C source refused: no OpenCL device of the same name to build a "
                      "native binary, and no SPIR-V)"
                    : "",
            log.substr(0, 2000).c_str());
    return dnnl_success;
}

const char *origin_name(module_origin_t origin) {
    switch (origin) {
        case module_origin_t::spirv: return "spirv";
        case module_origin_t::native: return "native";
        default: return "source";
    }
}

} // namespace

ze_module_t::~ze_module_t() {
    if (handle && !process_exiting()) ze_api()->zeModuleDestroy(handle);
}

status_t get_module(ze_engine_t *engine, const char *source_name, const std::string &options,
        std::shared_ptr<ze_module_t> &module) {
    const char *source = gpu::kernel_source(source_name);
    ANYDNN_REQUIRE(source, dnnl_runtime_error, "no kernel source %s", source_name);
    const std::string key = module_key(engine, source, options);
    const auto mkey = std::make_pair(engine->id(), key);
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        auto it = memory_cache().find(mkey);
        if (it != memory_cache().end()) {
            module = it->second;
            ++stats.memory_hits;
            return dnnl_success;
        }
    }
    const std::string entry = "ze-" + key;
    std::vector<unsigned char> bin;
    ze_module_handle_t m = nullptr;
    // A disk entry reaches the driver only after its header and hash check out.
    if (binary_cache::load_entry(entry, bin)) m = load_native(engine, bin.data(), bin.size());
    const bool loaded = m != nullptr;
    module_origin_t origin = module_origin_t::spirv;
    if (!m) {
        ANYDNN_CHECK(build(engine, source_name, source, options, &m, origin));
        // In the format of src/gpu/spirv_programs.txt, to find programs worth precompiling.
        if (std::getenv("ANYDNN_ZE_LOG_MODULES"))
            std::fprintf(stderr, "anydnn_ze_module,%s,%s|%s\n", origin_name(origin),
                    source_name, options.c_str());
        if (!binary_cache::disk_dir().empty()) {
            bin = native_binary(m);
            if (!bin.empty()) binary_cache::store_entry(entry, bin);
        }
    }
    auto made = std::make_shared<ze_module_t>(m);
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (loaded) ++stats.loaded;
    else if (origin == module_origin_t::spirv) ++stats.built_spirv;
    else if (origin == module_origin_t::native) ++stats.built_native;
    else ++stats.built_source;
    // Another thread may have built it meanwhile: theirs wins, ours is destroyed.
    module = memory_cache().emplace(mkey, made).first->second;
    return dnnl_success;
}

// Layout: sealed under the blob id (core/sealed.hpp), a payload of count, then per module:
// key, native binary (each length-prefixed).
status_t export_modules(ze_engine_t *engine, std::string &blob) {
    const std::string id = cache_blob_id(engine->driver(), engine->device());
    ANYDNN_REQUIRE(!id.empty(), dnnl_runtime_error, "driver or device properties unreadable");
    std::vector<std::pair<std::string, std::shared_ptr<ze_module_t>>> modules;
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        for (const auto &e : memory_cache())
            if (e.first.first == engine->id()) modules.emplace_back(e.first.second, e.second);
    }
    std::string body;
    uint64_t count = 0;
    for (const auto &m : modules) {
        const std::vector<unsigned char> bin = native_binary(m.second->handle);
        if (bin.empty()) continue; // a driver without native binaries: rebuilt from source
        binary_cache::put_bytes(body, m.first.data(), m.first.size());
        binary_cache::put_bytes(body, bin.data(), bin.size());
        ++count;
    }
    std::string counted;
    binary_cache::put_u64(counted, count);
    blob = sealed::seal(id, counted + body);
    return dnnl_success;
}

status_t import_modules(ze_engine_t *engine, const uint8_t *blob, size_t size) {
    // Nothing of the blob reaches the driver before its header and hash check out.
    const uint8_t *p = nullptr;
    size_t body_size = 0;
    const sealed::verdict_t v = sealed::open(
            blob, size, cache_blob_id(engine->driver(), engine->device()), &p, &body_size);
    ANYDNN_REQUIRE(v != sealed::verdict_t::wrong_key, dnnl_invalid_arguments,
            "the engine cache blob was made for another device, driver or library version");
    ANYDNN_REQUIRE(v == sealed::verdict_t::ok, dnnl_invalid_arguments,
            "the engine cache blob is unusable: %s", sealed::verdict_text(v));
    const uint8_t *end = p + body_size;
    uint64_t count = 0;
    ANYDNN_REQUIRE(binary_cache::get_u64(p, end, count), dnnl_invalid_arguments,
            "the engine cache blob is truncated");
    for (uint64_t i = 0; i < count; ++i) {
        std::string key, bin;
        ANYDNN_REQUIRE(binary_cache::get_bytes(p, end, key) && binary_cache::get_bytes(p, end, bin),
                dnnl_invalid_arguments, "the engine cache blob is truncated");
        ze_module_handle_t m = load_native(engine, bin.data(), bin.size());
        ANYDNN_REQUIRE(m, dnnl_invalid_arguments,
                "the device refused a module binary of the engine cache blob");
        auto made = std::make_shared<ze_module_t>(m);
        std::lock_guard<std::mutex> lock(cache_mutex);
        memory_cache().emplace(std::make_pair(engine->id(), key), made);
        ++stats.loaded;
    }
    ANYDNN_REQUIRE(p == end, dnnl_invalid_arguments, "the engine cache blob has trailing bytes");
    return dnnl_success;
}

void module_cache_drop_engine(uint64_t engine_id) {
    std::vector<std::shared_ptr<ze_module_t>> dropped; // destroyed outside the lock
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (auto it = memory_cache().begin(); it != memory_cache().end();) {
        if (it->first.first == engine_id) {
            dropped.push_back(std::move(it->second));
            it = memory_cache().erase(it);
        } else {
            ++it;
        }
    }
}

module_cache_stats_t module_cache_stats() {
    std::lock_guard<std::mutex> lock(cache_mutex);
    return stats;
}

} // namespace ze
} // namespace anydnn
