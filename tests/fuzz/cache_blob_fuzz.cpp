// Cache data the library reads back, from fuzzed bytes: the sealed envelope itself, the
// length-prefixed fields of engine blobs, disk-cache entries, primitive cache blobs (CPU)
// and OpenCL engine cache blobs (the first OpenCL device, PoCL here). A bad blob is a miss or
// dnnl_invalid_arguments; nothing of it may reach a driver before its hash checks out.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "fuzz_input.hpp"
#include "oneapi/dnnl/dnnl_ocl.h"

#include "core/sealed.hpp"
#include "runtime/binary_cache.hpp"

namespace {

using namespace anydnn;

void check(bool ok) {
    if (!ok) std::abort();
}

// An opened envelope's payload lies inside the data.
void open_envelope(const uint8_t *data, size_t size, const std::string &key) {
    const uint8_t *payload = nullptr;
    size_t payload_size = 0;
    if (sealed::open(data, size, key, &payload, &payload_size) == sealed::verdict_t::ok)
        check(payload >= data && payload + payload_size <= data + size);
}

// The fields of an engine blob's payload, read until they run out.
void read_fields(const uint8_t *p, const uint8_t *end) {
    uint64_t count = 0;
    if (!binary_cache::get_u64(p, end, count)) return;
    std::string s;
    for (uint64_t i = 0; i < count && binary_cache::get_bytes(p, end, s); ++i)
        check(p <= end);
}

std::string &cache_dir() {
    static std::string dir;
    return dir;
}

// A disk-cache entry holding these bytes is a miss unless it is a real entry.
void disk_entry(const uint8_t *data, size_t size) {
    if (cache_dir().empty() || binary_cache::disk_dir().empty()) return;
    const std::string name = "0123456789abcdef0123456789abcdef";
    {
        std::ofstream f(cache_dir() + "/" + name + ".bin", std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    }
    std::vector<unsigned char> payload;
    binary_cache::load_entry(name, payload);
}

dnnl_primitive_desc_t eltwise_pd() {
    static dnnl_primitive_desc_t pd = [] {
        dnnl_engine_t e = nullptr;
        dnnl_engine_create(&e, dnnl_cpu, 0);
        dnnl_memory_desc_t md = nullptr;
        dnnl_dims_t dims = {2, 3};
        dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab);
        dnnl_primitive_desc_t p = nullptr;
        dnnl_eltwise_forward_primitive_desc_create(&p, e, dnnl_forward_inference,
                dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr);
        dnnl_memory_desc_destroy(md);
        return p;
    }();
    return pd;
}

void primitive_blob(const uint8_t *data, size_t size) {
    dnnl_primitive_t prim = nullptr;
    if (dnnl_primitive_create_from_cache_blob(&prim, eltwise_pd(), size, data) == dnnl_success)
        dnnl_primitive_destroy(prim);
}

struct ocl_device_t {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
};

const ocl_device_t &ocl_device() {
    static ocl_device_t d = [] {
        ocl_device_t r;
        cl_platform_id platform = nullptr;
        cl_uint n = 0;
        if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) return r;
        if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &r.device, &n) != CL_SUCCESS || n == 0)
            return r;
        r.context = clCreateContext(nullptr, 1, &r.device, nullptr, nullptr, nullptr);
        return r;
    }();
    return d;
}

void engine_blob(const uint8_t *data, size_t size) {
    const ocl_device_t &d = ocl_device();
    if (!d.context) return;
    dnnl_engine_t e = nullptr;
    if (dnnl_ocl_interop_engine_create_from_cache_blob(&e, d.device, d.context, size, data)
            == dnnl_success)
        dnnl_engine_destroy(e);
}

} // namespace

// The disk cache goes to a directory of this process, set before the library reads it.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    char tmpl[] = "/tmp/anydnn_fuzz_cacheXXXXXX";
    if (mkdtemp(tmpl)) {
        cache_dir() = tmpl;
        setenv("ONEDNN_KERNEL_CACHE_DIR", tmpl, 1);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const uint8_t mode = data[0] % 5;
    ++data, --size;
    switch (mode) {
        case 0: open_envelope(data, size, "key"); break;
        case 1: read_fields(data, data + size); break;
        case 2: disk_entry(data, size); break;
        case 3: primitive_blob(data, size); break;
        default: engine_blob(data, size); break;
    }
    return 0;
}
