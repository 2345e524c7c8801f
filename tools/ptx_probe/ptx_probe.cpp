// Asks an NVIDIA OpenCL device what our PTX kernels depend on, and prints the answers:
// - whether a buffer argument (clSetKernelArg with a cl_mem) reaches a PTX `.param .u64`
//   with and without the `.ptr .global` attribute;
// - how much statically sized `.shared` memory a work-group can have (48 KB to 227 KB);
// - how NVIDIA's own OpenCL C compiler declares global and local pointer parameters (the PTX
//   it returns as the program binary), and whether a `local` argument may exceed 48 KB.
// Usage: ptx_probe [device name part, default NVIDIA]
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

namespace {

cl_device_id find_device(const char *part) {
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    for (cl_platform_id p : ps) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS) continue;
        std::vector<cl_device_id> ds(nd);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
        for (cl_device_id d : ds) {
            char name[256] = {};
            clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof(name), name, nullptr);
            char vendor[256] = {};
            clGetDeviceInfo(d, CL_DEVICE_VENDOR, sizeof(vendor), vendor, nullptr);
            if (std::strstr(name, part) || std::strstr(vendor, part)) return d;
        }
    }
    return nullptr;
}

struct ctx_t {
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
};

std::string build_log(cl_program p, cl_device_id d) {
    size_t n = 0;
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string s(n, '\0');
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr);
    return s;
}

cl_program load_ptx(const ctx_t &c, const std::string &ptx) {
    const unsigned char *b = reinterpret_cast<const unsigned char *>(ptx.c_str());
    size_t n = ptx.size() + 1;
    cl_int st = 0, err = 0;
    cl_program p = clCreateProgramWithBinary(c.ctx, 1, &c.dev, &n, &b, &st, &err);
    if (err != CL_SUCCESS) {
        std::printf("  clCreateProgramWithBinary: %d/%d\n", err, st);
        return nullptr;
    }
    err = clBuildProgram(p, 1, &c.dev, "", nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::printf("  clBuildProgram: %d: %s\n", err, build_log(p, c.dev).substr(0, 600).c_str());
        clReleaseProgram(p);
        return nullptr;
    }
    return p;
}

// Runs kernel `k` of one 256-thread group with a 1024-word output buffer; returns the
// enqueue/finish status and the first words.
cl_int run1(const ctx_t &c, cl_kernel k, std::vector<cl_uint> &out, size_t local_arg = 0) {
    cl_int err = 0;
    out.assign(1024, 0xdeadbeef);
    cl_mem buf = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            out.size() * 4, out.data(), &err);
    clSetKernelArg(k, 0, sizeof(cl_mem), &buf);
    if (local_arg) {
        err = clSetKernelArg(k, 1, local_arg, nullptr);
        if (err != CL_SUCCESS) {
            clReleaseMemObject(buf);
            return err;
        }
    }
    size_t g = 256, l = 256;
    err = clEnqueueNDRangeKernel(c.q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr);
    cl_int fin = clFinish(c.q);
    if (err == CL_SUCCESS) err = fin;
    clEnqueueReadBuffer(c.q, buf, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr);
    clReleaseMemObject(buf);
    return err;
}

const char *header = ".version 8.0\n.target sm_90a\n.address_size 64\n\n";

void probe_params(const ctx_t &c) {
    std::printf("== buffer parameter forms\n");
    // The form that may fault goes last (a fault leaves the context unusable).
    const char *forms[] = {".param .u64 .ptr .global .align 4 out",
            ".param .u64 .ptr .global .align 16 out", ".param .u64 out"};
    for (const char *form : forms) {
        std::string ptx = std::string(header) + ".visible .entry w(" + form
                + ")\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<5>;\n"
                  " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
                  " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
                  " add.u32 %r2, %r1, 1000;\n st.global.u32 [%rd4], %r2;\n ret;\n}\n";
        cl_program p = load_ptx(c, ptx);
        if (!p) continue;
        cl_int err = 0;
        cl_kernel k = clCreateKernel(p, "w", &err);
        std::vector<cl_uint> out;
        err = run1(c, k, out);
        std::printf("  [%s]: run %d, out[0]=%u out[255]=%u (want 1000, 1255)\n", form, err, out[0],
                out[255]);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

void probe_static_shared(const ctx_t &c) {
    std::printf("== static .shared per work-group\n");
    for (int kb : {48, 64, 100, 160, 192, 227}) {
        const int bytes = kb * 1024;
        // Each thread writes its id at the far end of the array, then reads a neighbour's.
        std::string ptx = std::string(header)
                + ".visible .entry s(.param .u64 .ptr .global .align 4 out) .reqntid 256\n{\n"
                  " .shared .align 16 .b8 buf[" + std::to_string(bytes) + "];\n"
                  " .reg .b32 %r<8>;\n .reg .b64 %rd<5>;\n"
                  " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n"
                  " mov.u32 %r1, %tid.x;\n mov.u32 %r2, buf;\n shl.b32 %r3, %r1, 2;\n"
                  " add.u32 %r4, %r2, " + std::to_string(bytes - 1024) + ";\n add.u32 %r5, %r4, %r3;\n"
                  " st.shared.u32 [%r5], %r1;\n bar.sync 0;\n xor.b32 %r6, %r3, 4;\n"
                  " add.u32 %r7, %r4, %r6;\n ld.shared.u32 %r6, [%r7];\n"
                  " mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd2, %rd3;\n"
                  " st.global.u32 [%rd4], %r6;\n ret;\n}\n";
        cl_program p = load_ptx(c, ptx);
        if (!p) {
            std::printf("  %d KB: does not build\n", kb);
            continue;
        }
        cl_int err = 0;
        cl_kernel k = clCreateKernel(p, "s", &err);
        cl_ulong lm = 0;
        size_t wg = 0;
        clGetKernelWorkGroupInfo(k, c.dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(lm), &lm, nullptr);
        clGetKernelWorkGroupInfo(k, c.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr);
        std::vector<cl_uint> out;
        err = run1(c, k, out);
        std::printf("  %d KB: kernel local mem %llu, wg size %zu, run %d, out[0]=%u out[1]=%u "
                    "(want 1, 0)\n",
                kb, (unsigned long long)lm, wg, err, out[0], out[1]);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
}

void probe_opencl_c(const ctx_t &c) {
    std::printf("== NVIDIA's OpenCL C parameters and local arguments\n");
    const char *src = "kernel void l(global uint *out, local uint *tmp) {\n"
                      "  uint i = get_local_id(0); tmp[i] = i + 7; barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[i] = tmp[i ^ 1]; }\n";
    cl_int err = 0;
    cl_program p = clCreateProgramWithSource(c.ctx, 1, &src, nullptr, &err);
    if (clBuildProgram(p, 1, &c.dev, "", nullptr, nullptr) != CL_SUCCESS) {
        std::printf("  build failed: %s\n", build_log(p, c.dev).c_str());
        return;
    }
    size_t n = 0;
    clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(n), &n, nullptr);
    std::string bin(n, '\0');
    char *ptr = bin.data();
    clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr);
    size_t at = bin.find(".entry");
    std::printf("  binary (%zu bytes) from .entry:\n%s\n", n,
            at == std::string::npos ? bin.substr(0, 800).c_str() : bin.substr(at, 700).c_str());
    size_t ext = bin.find(".extern");
    if (ext != std::string::npos) std::printf("  %s\n", bin.substr(ext, 120).c_str());
    cl_kernel k = clCreateKernel(p, "l", &err);
    for (size_t kb : {16, 48, 64, 100, 200}) {
        std::vector<cl_uint> out;
        err = run1(c, k, out, kb * 1024);
        std::printf("  local arg %zu KB: run %d, out[0]=%u (want 8)\n", kb, err, out[0]);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
}

} // namespace

int main(int argc, char **argv) {
    ctx_t c {};
    c.dev = find_device(argc > 1 ? argv[1] : "NVIDIA");
    if (!c.dev) {
        std::printf("no such OpenCL device\n");
        return 1;
    }
    char name[256] = {};
    clGetDeviceInfo(c.dev, CL_DEVICE_NAME, sizeof(name), name, nullptr);
    cl_ulong lm = 0;
    clGetDeviceInfo(c.dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lm), &lm, nullptr);
    std::printf("device %s, CL_DEVICE_LOCAL_MEM_SIZE %llu\n", name, (unsigned long long)lm);
    // Each probe in a context of its own.
    for (void (*probe)(const ctx_t &) : {probe_static_shared, probe_opencl_c, probe_params}) {
        cl_int err = 0;
        c.ctx = clCreateContext(nullptr, 1, &c.dev, nullptr, nullptr, &err);
        c.q = clCreateCommandQueueWithProperties(c.ctx, c.dev, nullptr, &err);
        probe(c);
        clReleaseCommandQueue(c.q);
        clReleaseContext(c.ctx);
    }
    return 0;
}
