// Builds one OpenCL C file on the first OpenCL device whose name contains NAME and writes its
// build log and program binary (on NVIDIA's OpenCL the binary is the PTX text): to read what
// that compiler made of our inline PTX, and with -cl-nv-verbose its ptxas register counts.
//   ocl_build_dump NAME SOURCE.cl "OPTIONS" OUT_PREFIX     (writes OUT_PREFIX.log, .bin)
// The source is taken as it is: expand our #include lines first (scripts/embed_cl.py).
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace {

template <typename F>
F sym(void *lib, const char *name) {
    return reinterpret_cast<F>(dlsym(lib, name));
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s NAME SOURCE.cl OPTIONS OUT_PREFIX\n", argv[0]);
        return 2;
    }
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
    if (!lib) {
        std::fprintf(stderr, "no libOpenCL.so.1\n");
        return 1;
    }
    auto get_platforms = sym<decltype(&clGetPlatformIDs)>(lib, "clGetPlatformIDs");
    auto get_devices = sym<decltype(&clGetDeviceIDs)>(lib, "clGetDeviceIDs");
    auto device_info = sym<decltype(&clGetDeviceInfo)>(lib, "clGetDeviceInfo");
    auto create_context = sym<decltype(&clCreateContext)>(lib, "clCreateContext");
    auto create_program
            = sym<decltype(&clCreateProgramWithSource)>(lib, "clCreateProgramWithSource");
    auto build_program = sym<decltype(&clBuildProgram)>(lib, "clBuildProgram");
    auto build_info = sym<decltype(&clGetProgramBuildInfo)>(lib, "clGetProgramBuildInfo");
    auto program_info = sym<decltype(&clGetProgramInfo)>(lib, "clGetProgramInfo");

    cl_platform_id platforms[8];
    cl_uint np = 0;
    get_platforms(8, platforms, &np);
    cl_device_id device = nullptr;
    for (cl_uint p = 0; p < np && !device; ++p) {
        cl_device_id devs[8];
        cl_uint nd = 0;
        if (get_devices(platforms[p], CL_DEVICE_TYPE_ALL, 8, devs, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd && !device; ++d) {
            char name[256] = {};
            device_info(devs[d], CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
            if (std::strstr(name, argv[1])) device = devs[d];
        }
    }
    if (!device) {
        std::fprintf(stderr, "no device named like %s\n", argv[1]);
        return 1;
    }
    std::ifstream in(argv[2]);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string source = ss.str();
    const char *src = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_context ctx = create_context(nullptr, 1, &device, nullptr, nullptr, &err);
    cl_program prog = create_program(ctx, 1, &src, nullptr, &err);
    const cl_int built = build_program(prog, 1, &device, argv[3], nullptr, nullptr);
    size_t size = 0;
    build_info(prog, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    build_info(prog, device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
    std::ofstream(std::string(argv[4]) + ".log") << "build status " << built << "\n" << log;
    std::printf("%s: build status %d, log %zu bytes\n", argv[2], built, log.size());
    if (built != CL_SUCCESS) return 1;
    size_t bin_size = 0;
    program_info(prog, CL_PROGRAM_BINARY_SIZES, sizeof(bin_size), &bin_size, nullptr);
    std::vector<unsigned char> bin(bin_size);
    unsigned char *ptr = bin.data();
    program_info(prog, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr);
    std::ofstream(std::string(argv[4]) + ".bin", std::ios::binary)
            .write(reinterpret_cast<const char *>(bin.data()),
                    static_cast<std::streamsize>(bin.size()));
    return 0;
}
