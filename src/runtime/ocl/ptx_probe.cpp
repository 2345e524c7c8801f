#include "runtime/ocl/ptx_probe.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace anydnn {
namespace ocl {

namespace {

// One kernel writing a word through a buffer argument; the sm_90a one also fences the
// warpgroup tensor cores, so only a driver that takes sm_90a's instructions loads it.
std::string probe_ptx(const char *target, bool wgmma) {
    return std::string(".version 8.0\n.target ") + target
            + "\n.address_size 64\n\n"
              ".visible .entry anydnn_ptx_probe(.param .u64 .ptr .global .align 4 out)\n{\n"
              "    .reg .b32 %r<2>;\n    .reg .b64 %rd<3>;\n"
              "    ld.param.u64 %rd1, [out];\n    cvta.to.global.u64 %rd2, %rd1;\n"
            + (wgmma ? "    wgmma.fence.sync.aligned;\n" : "")
            + "    mov.u32 %r1, 1;\n    st.global.u32 [%rd2], %r1;\n    ret;\n}\n";
}

bool loads(cl_context context, cl_device_id device, const std::string &ptx) {
    const cl_api_t &cl = *cl_api();
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(ptx.c_str());
    const size_t size = ptx.size() + 1;
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = cl.clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &status, &err);
    if (!p) return false;
    bool ok = err == CL_SUCCESS && status == CL_SUCCESS
            && cl.clBuildProgram(p, 1, &device, "", nullptr, nullptr) == CL_SUCCESS;
    if (ok) {
        cl_kernel k = cl.clCreateKernel(p, "anydnn_ptx_probe", &err);
        ok = k && err == CL_SUCCESS;
        if (k) cl.clReleaseKernel(k);
    }
    cl.clReleaseProgram(p);
    return ok;
}

} // namespace

int ptx_binary_sm(cl_context context, cl_device_id device) {
    const char *env = std::getenv("ANYDNN_OCL_PTX");
    if (env && std::strcmp(env, "off") == 0) return 0;
    static std::mutex mutex;
    static std::map<cl_device_id, int> probed;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = probed.find(device);
    if (it != probed.end()) return it->second;
    int sm = 0;
    if (loads(context, device, probe_ptx("sm_90a", true)))
        sm = 90;
    else if (loads(context, device, probe_ptx("sm_80", false)))
        sm = 80;
    probed[device] = sm;
    return sm;
}

} // namespace ocl
} // namespace anydnn
