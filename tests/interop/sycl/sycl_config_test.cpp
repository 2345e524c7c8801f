// dnnl_config.h in a SYCL build: a program written for oneDNN's SYCL build (here one that
// defines ANYDNN_GPU_RUNTIME_SYCL, as if compiled by a SYCL compiler) sees
// DNNL_GPU_RUNTIME == DNNL_RUNTIME_SYCL; the library reports OpenCL, its primary runtime.
#define ANYDNN_GPU_RUNTIME_SYCL
#include "oneapi/dnnl/dnnl.h"

#include <gtest/gtest.h>

static_assert(DNNL_GPU_RUNTIME == DNNL_RUNTIME_SYCL, "a SYCL program sees the SYCL runtime");
#ifndef DNNL_WITH_SYCL
#error "DNNL_WITH_SYCL must be defined where the SYCL layer is built"
#endif
static_assert(ANYDNN_GPU_RUNTIMES
                == (DNNL_RUNTIME_OCL | DNNL_RUNTIME_ZE | DNNL_RUNTIME_SYCL),
        "every GPU runtime of the build");

TEST(sycl_config, library_reports_opencl_programs_compiled_as_sycl_see_sycl) {
    EXPECT_EQ(dnnl_version()->gpu_runtime, DNNL_RUNTIME_OCL);
    EXPECT_EQ(DNNL_CPU_RUNTIME, DNNL_RUNTIME_OMP);
}
