#include "runtime/ocl/program_cache.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "oneapi/dnnl/dnnl_version.h"
#include "core/sealed.hpp"
#include "runtime/binary_cache.hpp"
#include "runtime/ocl/ocl_engine.hpp"

namespace anydnn {
namespace ocl {

using binary_cache::get_bytes;
using binary_cache::get_u64;
using binary_cache::put_u64;

namespace {

std::mutex cache_mutex;
std::map<std::pair<uint64_t, std::string>, cl_program> memory_cache; // (engine, key)
program_cache_stats_t stats;

std::string cache_key(ocl_engine_t *engine, const char *source, const std::string &options) {
    const device_info_t &d = engine->info();
    return binary_cache::hash_key(std::string(source) + '\0' + options + '\0' + d.name + '\0'
            + d.platform_name + '\0' + d.device_version + '\0' + d.driver_version + '\0'
            + DNNL_VERSION_HASH + '\0' + std::to_string(DNNL_VERSION_MAJOR) + "."
            + std::to_string(DNNL_VERSION_MINOR) + "." + std::to_string(DNNL_VERSION_PATCH));
}

cl_program load_binary(ocl_engine_t *engine, const std::vector<unsigned char> &bin,
        const std::string &options) {
    const cl_api_t &cl = *cl_api();
    cl_device_id dev = engine->device();
    const unsigned char *ptr = bin.data();
    size_t size = bin.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = cl.clCreateProgramWithBinary(
            engine->context(), 1, &dev, &size, &ptr, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p) cl.clReleaseProgram(p);
        return nullptr;
    }
    if (cl.clBuildProgram(p, 1, &dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        cl.clReleaseProgram(p);
        return nullptr;
    }
    return p;
}

std::string build_log(cl_program p, cl_device_id dev) {
    size_t size = 0;
    cl_api()->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    cl_api()->clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return log;
}

status_t build_from_source(cl_context context, cl_device_id dev, const char *source,
        const std::string &options, cl_program *out) {
    const cl_api_t &cl = *cl_api();
    cl_int err = CL_SUCCESS;
    cl_program p = cl.clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clCreateProgramWithSource: %s",
            cl_error_name(err));
    err = cl.clBuildProgram(p, 1, &dev, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::string log = build_log(p, dev);
        cl.clReleaseProgram(p);
        return fail(dnnl_runtime_error, __func__, "OpenCL build failed (%s) with options '%s': %s",
                cl_error_name(err), options.c_str(), log.substr(0, 2000).c_str());
    }
    *out = p;
    return dnnl_success;
}

std::vector<unsigned char> program_binary(cl_program p) {
    size_t size = 0;
    if (cl_api()->clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr)
                    != CL_SUCCESS
            || size == 0)
        return {};
    std::vector<unsigned char> bin(size);
    unsigned char *ptr = bin.data();
    if (cl_api()->clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr)
            != CL_SUCCESS)
        return {};
    return bin;
}

// A program from PTX text (NVIDIA takes it as a program binary and compiles it for the device).
status_t build_from_ptx(ocl_engine_t *engine, const char *ptx, const std::string &options,
        cl_program *out) {
    const cl_api_t &cl = *cl_api();
    cl_device_id dev = engine->device();
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(ptx);
    const size_t size = std::strlen(ptx) + 1;
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = cl.clCreateProgramWithBinary(
            engine->context(), 1, &dev, &size, &bytes, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p) cl.clReleaseProgram(p);
        return fail(dnnl_unimplemented, __func__, "the device refused a PTX program: %s",
                cl_error_name(err != CL_SUCCESS ? err : status));
    }
    err = cl.clBuildProgram(p, 1, &dev, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::string log = build_log(p, dev);
        cl.clReleaseProgram(p);
        return fail(dnnl_runtime_error, __func__, "building a PTX program failed (%s): %s",
                cl_error_name(err), log.substr(0, 2000).c_str());
    }
    *out = p;
    return dnnl_success;
}

} // namespace

status_t get_program(ocl_engine_t *engine, const char *source, const std::string &options,
        cl_program *program, bool from_ptx) {
    const std::string key = cache_key(engine, source, (from_ptx ? "ptx:" : "") + options);
    const auto mkey = std::make_pair(engine->id(), key);
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        auto it = memory_cache.find(mkey);
        if (it != memory_cache.end()) {
            cl_api()->clRetainProgram(it->second);
            *program = it->second;
            ++stats.memory_hits;
            return dnnl_success;
        }
    }
    cl_program p = nullptr;
    // PTX is its own binary (the driver caches what it compiles): no disk cache of ours.
    const bool on_disk = !from_ptx && !binary_cache::disk_dir().empty();
    std::vector<unsigned char> bin;
    // A disk entry reaches the driver only after its header and hash check out.
    if (on_disk && binary_cache::load_entry(key, bin)) p = load_binary(engine, bin, options);
    bool loaded = p != nullptr;
    if (!p && from_ptx) {
        ANYDNN_CHECK(build_from_ptx(engine, source, options, &p));
    } else if (!p) {
        ANYDNN_CHECK(build_from_source(engine->context(), engine->device(), source, options, &p));
        if (on_disk) {
            bin = program_binary(p);
            if (!bin.empty()) binary_cache::store_entry(key, bin);
        }
    }
    std::lock_guard<std::mutex> lock(cache_mutex);
    (loaded ? stats.loaded : stats.built) += 1;
    auto ins = memory_cache.emplace(mkey, p);
    if (!ins.second) { // another thread built it meanwhile
        cl_api()->clReleaseProgram(p);
        p = ins.first->second;
    }
    cl_api()->clRetainProgram(p);
    *program = p;
    return dnnl_success;
}

status_t build_binary(cl_device_id device, const char *source, const std::string &options,
        std::vector<unsigned char> &binary) {
    const cl_api_t *cl = cl_api();
    ANYDNN_REQUIRE(cl, dnnl_runtime_error, "no OpenCL ICD loader (libOpenCL.so.1) found");
    cl_int err = CL_SUCCESS;
    // A context of its own for this build: nothing is kept between builds.
    cl_context context = cl->clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    ANYDNN_REQUIRE(err == CL_SUCCESS, dnnl_runtime_error, "clCreateContext failed: %s",
            cl_error_name(err));
    cl_program p = nullptr;
    status_t st = build_from_source(context, device, source, options, &p);
    if (st == dnnl_success) {
        binary = program_binary(p);
        cl->clReleaseProgram(p);
        if (binary.empty())
            st = fail(dnnl_runtime_error, __func__, "the OpenCL device gave no program binary");
    }
    cl->clReleaseContext(context);
    return st;
}

std::string cache_blob_id(cl_device_id device) {
    device_info_t d;
    if (probe_device(device, d) != dnnl_success) return {};
    return "anydnn-ocl-programs:" + d.name + "|" + d.platform_name + "|" + d.device_version
            + "|" + d.driver_version + "|" + DNNL_VERSION_HASH;
}

// Layout: sealed under the blob id (core/sealed.hpp), a payload of count, then per program:
// key, options, binary (each length-prefixed).
status_t export_programs(ocl_engine_t *engine, std::string &blob) {
    const std::string id = cache_blob_id(engine->device());
    std::vector<std::pair<std::string, cl_program>> programs;
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        for (const auto &e : memory_cache)
            if (e.first.first == engine->id()) {
                cl_api()->clRetainProgram(e.second);
                programs.emplace_back(e.first.second, e.second);
            }
    }
    std::string body;
    put_u64(body, programs.size());
    for (auto &p : programs) {
        std::vector<unsigned char> bin = program_binary(p.second);
        size_t size = 0;
        cl_api()->clGetProgramBuildInfo(
                p.second, engine->device(), CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size);
        std::string options(size, '\0');
        cl_api()->clGetProgramBuildInfo(p.second, engine->device(), CL_PROGRAM_BUILD_OPTIONS,
                size, options.data(), nullptr);
        while (!options.empty() && options.back() == '\0') options.pop_back();
        cl_api()->clReleaseProgram(p.second);
        put_u64(body, p.first.size());
        body += p.first;
        put_u64(body, options.size());
        body += options;
        put_u64(body, bin.size());
        body.append(reinterpret_cast<const char *>(bin.data()), bin.size());
    }
    blob = sealed::seal(id, body);
    return dnnl_success;
}

status_t import_programs(ocl_engine_t *engine, const uint8_t *blob, size_t size) {
    // Nothing of the blob reaches the driver before its header and hash check out.
    const uint8_t *p = nullptr;
    size_t body_size = 0;
    const sealed::verdict_t v
            = sealed::open(blob, size, cache_blob_id(engine->device()), &p, &body_size);
    ANYDNN_REQUIRE(v != sealed::verdict_t::wrong_key, dnnl_invalid_arguments,
            "the engine cache blob was made for another device, driver or library version");
    ANYDNN_REQUIRE(v == sealed::verdict_t::ok, dnnl_invalid_arguments,
            "the engine cache blob is unusable: %s", sealed::verdict_text(v));
    const uint8_t *end = p + body_size;
    uint64_t count = 0;
    ANYDNN_REQUIRE(get_u64(p, end, count), dnnl_invalid_arguments,
            "the engine cache blob is truncated");
    for (uint64_t i = 0; i < count; ++i) {
        std::string key, options, bin;
        ANYDNN_REQUIRE(get_bytes(p, end, key) && get_bytes(p, end, options)
                        && get_bytes(p, end, bin),
                dnnl_invalid_arguments, "the engine cache blob is truncated");
        std::vector<unsigned char> bytes(bin.begin(), bin.end());
        cl_program prog = load_binary(engine, bytes, options);
        ANYDNN_REQUIRE(prog, dnnl_invalid_arguments,
                "the device refused a program binary of the engine cache blob");
        std::lock_guard<std::mutex> lock(cache_mutex);
        auto ins = memory_cache.emplace(std::make_pair(engine->id(), key), prog);
        if (!ins.second) cl_api()->clReleaseProgram(prog);
    }
    ANYDNN_REQUIRE(p == end, dnnl_invalid_arguments, "the engine cache blob has trailing bytes");
    return dnnl_success;
}

void program_cache_drop_engine(uint64_t engine_id) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (auto it = memory_cache.begin(); it != memory_cache.end();) {
        if (it->first.first == engine_id) {
            cl_api()->clReleaseProgram(it->second);
            it = memory_cache.erase(it);
        } else {
            ++it;
        }
    }
}

program_cache_stats_t program_cache_stats() {
    std::lock_guard<std::mutex> lock(cache_mutex);
    return stats;
}

} // namespace ocl
} // namespace anydnn
