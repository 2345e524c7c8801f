// Whether an OpenCL device loads PTX text as a program binary (NVIDIA's driver does), and the
// highest target it takes: probed by loading tiny PTX programs, once per device.
#pragma once

#include "runtime/ocl/cl_api.hpp"

namespace anydnn {
namespace ocl {

// 90 where `.target sm_90a` PTX holding a wgmma instruction loads, 80 where sm_80 PTX loads,
// 0 where PTX does not load (every non-NVIDIA runtime) or ANYDNN_OCL_PTX=off.
int ptx_binary_sm(cl_context context, cl_device_id device);

} // namespace ocl
} // namespace anydnn
