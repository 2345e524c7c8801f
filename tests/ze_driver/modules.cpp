// Modules over OpenCL programs, built for the module's device:
//   ZE_MODULE_FORMAT_IL_SPIRV  clCreateProgramWithIL where the device takes SPIR-V (Intel's CPU
//                              runtime); else, where it takes SPIR 1.2 (PoCL), the SPIR-V
//                              translated back to LLVM bitcode by llvm-spirv; else refused with
//                              ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
//   ZE_MODULE_FORMAT_NATIVE    clCreateProgramWithBinary (what zeModuleGetNativeBinary gives);
//   format 3                   OpenCL C source (the value Intel's driver takes for it), built
//                              with pBuildFlags. The validation layer's parameter checks refuse
//                              it before it gets here.
// Build logs are OpenCL's; a failure's log goes to stderr (see module_create).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "ze_driver/spirv_to_spir.hpp"
#include "ze_driver/ze_driver.hpp"

namespace ze_driver {

namespace {

constexpr ze_module_format_t module_format_opencl_c = static_cast<ze_module_format_t>(3);

std::string program_build_log(cl_program program, cl_device_id device) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size)
                    != CL_SUCCESS
            || size == 0)
        return {};
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
    log.resize(std::strlen(log.c_str()));
    return log;
}

std::vector<std::string> program_kernel_names(cl_program program) {
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size) != CL_SUCCESS)
        return {};
    std::string all(size, '\0');
    clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, &all[0], nullptr);
    all.resize(std::strlen(all.c_str()));
    std::vector<std::string> names;
    std::stringstream ss(all);
    for (std::string name; std::getline(ss, name, ';');)
        if (!name.empty()) names.push_back(name);
    return names;
}

// Level Zero build flags, less the ones only Intel's compiler knows ("-ze-..."), plus argument
// information (which tells pointers from other arguments in zeKernelSetArgumentValue).
std::string build_options(const char *flags, bool from_spir) {
    std::string options;
    std::stringstream ss(flags ? flags : "");
    for (std::string word; ss >> word;)
        if (word.rfind("-ze-", 0) != 0) options += word + " ";
    if (from_spir) options += "-x spir -spir-std=1.2 ";
    options += "-cl-kernel-arg-info";
    return options;
}

void set_build_log(ze_module_build_log_handle_t *out, std::string text) {
    if (!out) return;
    auto *log = new build_log_t{std::move(text)};
    register_object(log, typeid(build_log_t));
    *out = handle_of<ze_module_build_log_handle_t>(log);
}

// Creates the program of `desc` on the device; `log` says why when it cannot.
ze_result_t create_program(context_t *c, device_t *d, const ze_module_desc_t *desc,
        cl_program *program, bool *from_spir, std::string &log) {
    const auto *input = desc->pInputModule;
    const size_t size = desc->inputSize;
    const bool constants = desc->pConstants && desc->pConstants->numConstants;
    cl_int status = CL_SUCCESS;
    *from_spir = false;
    if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV) {
        if (d->takes_spirv) {
            *program = clCreateProgramWithIL(c->cl, input, size, &status);
            for (uint32_t i = 0;
                    status == CL_SUCCESS && constants && i < desc->pConstants->numConstants; ++i)
                // Sizes are not given by Level Zero: every constant this driver takes is 4 bytes.
                status = clSetProgramSpecializationConstant(*program,
                        desc->pConstants->pConstantIds[i], sizeof(uint32_t),
                        desc->pConstants->pConstantValues[i]);
            return from_cl(status);
        }
        if (constants || !d->takes_spir || !spirv_translator_available()) {
            log = "the OpenCL device takes no SPIR-V";
            return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
        }
        std::vector<uint8_t> bitcode;
        if (!spirv_to_spir(input, size, bitcode, log)) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        const unsigned char *bits = bitcode.data();
        const size_t nbits = bitcode.size();
        *program = clCreateProgramWithBinary(c->cl, 1, &d->cl, &nbits, &bits, nullptr, &status);
        *from_spir = true;
        return from_cl(status);
    }
    if (constants) {
        log = "specialization constants are taken with SPIR-V only";
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    }
    if (desc->format == ZE_MODULE_FORMAT_NATIVE) {
        cl_int binary_status = CL_SUCCESS;
        *program =
                clCreateProgramWithBinary(c->cl, 1, &d->cl, &size, &input, &binary_status, &status);
        if (status == CL_SUCCESS && binary_status != CL_SUCCESS) {
            clReleaseProgram(*program);
            *program = nullptr;
            return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
        }
        return status == CL_INVALID_BINARY || status == CL_INVALID_VALUE
                       ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                       : from_cl(status);
    }
    if (desc->format == module_format_opencl_c) {
        const char *source = reinterpret_cast<const char *>(input);
        *program = clCreateProgramWithSource(c->cl, 1, &source, &size, &status);
        return from_cl(status);
    }
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
}

} // namespace

uint32_t spirv_version(const device_t &d) {
    if (d.takes_spirv) {
        size_t size = 0;
        clGetDeviceInfo(d.cl, CL_DEVICE_IL_VERSION, 0, nullptr, &size);
        std::string il(size, '\0');
        clGetDeviceInfo(d.cl, CL_DEVICE_IL_VERSION, size, &il[0], nullptr);
        // "SPIR-V_1.0 SPIR-V_1.1 ...": the highest minor version listed.
        uint32_t best = 0;
        for (size_t pos = il.find("SPIR-V_1."); pos != std::string::npos;
                pos = il.find("SPIR-V_1.", pos + 1))
            best = std::max<uint32_t>(best, ZE_MAKE_VERSION(1, std::atoi(&il[pos + 9])));
        return best;
    }
    return d.takes_spir && spirv_translator_available() ? spirv_translator_version() : 0;
}

ze_result_t ZE_APICALL module_create(ze_context_handle_t context, ze_device_handle_t device,
        const ze_module_desc_t *desc, ze_module_handle_t *module,
        ze_module_build_log_handle_t *build_log) {
    context_t *c = nullptr;
    device_t *d = nullptr;
    {
        lock_t lock(objects_mutex());
        c = live<context_t>(context);
        d = live_device(device);
        if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    }
    if (!desc || !desc->pInputModule || !module) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->inputSize == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (!c->has(d)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    std::string log;
    cl_program program = nullptr;
    bool from_spir = false;
    ze_result_t r = create_program(c, d, desc, &program, &from_spir, log);
    if (r == ZE_RESULT_SUCCESS) {
        // Built unlocked: it takes long, and other threads go on meanwhile.
        const std::string options = build_options(desc->pBuildFlags, from_spir);
        const cl_int status = clBuildProgram(program, 1, &d->cl, options.c_str(), nullptr, nullptr);
        log = program_build_log(program, d->cl);
        if (status != CL_SUCCESS) {
            r = status == CL_INVALID_BINARY ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                                            : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        }
    }
    lock_t lock(objects_mutex());
    if (r != ZE_RESULT_SUCCESS) {
        // No log handle with a failure: with several drivers the loader wraps the handles it
        // returns only on success, and would crash on an unwrapped one. The log goes to stderr.
        if (build_log) *build_log = nullptr;
        if (r != ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
            std::fprintf(stderr, "anydnn Level Zero test driver: module build failed:\n%s\n",
                    log.c_str());
        if (program) clReleaseProgram(program);
        return r;
    }
    set_build_log(build_log, log);
    auto *m = new module_t;
    m->context = c;
    m->device = d;
    m->program = program;
    m->kernel_names = program_kernel_names(program);
    register_object(m, typeid(module_t));
    *module = handle_of<ze_module_handle_t>(m);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_destroy(ze_module_handle_t module) {
    lock_t lock(objects_mutex());
    auto *m = live<module_t>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (m->live_kernels) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE; // its kernels first
    unregister_object(m);
    clReleaseProgram(m->program);
    delete m;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_native_binary(
        ze_module_handle_t module, size_t *size, uint8_t *binary) {
    lock_t lock(objects_mutex());
    auto *m = live<module_t>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The program's binaries are per OpenCL device of its context: pick the module's.
    cl_uint ndevices = 0;
    clGetProgramInfo(m->program, CL_PROGRAM_NUM_DEVICES, sizeof(ndevices), &ndevices, nullptr);
    std::vector<cl_device_id> devices(ndevices);
    std::vector<size_t> sizes(ndevices);
    if (ndevices == 0
            || clGetProgramInfo(m->program, CL_PROGRAM_DEVICES, ndevices * sizeof(cl_device_id),
                       devices.data(), nullptr)
                       != CL_SUCCESS
            || clGetProgramInfo(m->program, CL_PROGRAM_BINARY_SIZES, ndevices * sizeof(size_t),
                       sizes.data(), nullptr)
                       != CL_SUCCESS)
        return ZE_RESULT_ERROR_UNKNOWN;
    const size_t i = std::find(devices.begin(), devices.end(), m->device->cl) - devices.begin();
    if (i == ndevices || sizes[i] == 0) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    if (!binary || *size == 0) {
        *size = sizes[i];
        return ZE_RESULT_SUCCESS;
    }
    if (*size < sizes[i]) return ZE_RESULT_ERROR_INVALID_SIZE;
    std::vector<unsigned char> ours(sizes[i]);
    std::vector<unsigned char *> binaries(ndevices, nullptr);
    binaries[i] = ours.data();
    const cl_int status = clGetProgramInfo(m->program, CL_PROGRAM_BINARIES,
            ndevices * sizeof(unsigned char *), binaries.data(), nullptr);
    if (status != CL_SUCCESS) return from_cl(status);
    std::memcpy(binary, ours.data(), ours.size());
    *size = ours.size();
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_kernel_names(
        ze_module_handle_t module, uint32_t *count, const char **names) {
    lock_t lock(objects_mutex());
    auto *m = live<module_t>(module);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    std::vector<const char *> all;
    for (auto &n : m->kernel_names)
        all.push_back(n.c_str());
    return list_handles(count, names, all);
}

ze_result_t ZE_APICALL build_log_destroy(ze_module_build_log_handle_t build_log) {
    lock_t lock(objects_mutex());
    auto *log = live<build_log_t>(build_log);
    if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    unregister_object(log);
    delete log;
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_get_string(
        ze_module_build_log_handle_t build_log, size_t *size, char *text) {
    lock_t lock(objects_mutex());
    auto *log = live<build_log_t>(build_log);
    if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return copy_string(log->text, size, text);
}

} // namespace ze_driver
