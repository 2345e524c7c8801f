// ocl:convolution:implicit_sgemm_f32 (the f32 PTX GEMM gathering A from src) on devices
// without it: the OpenCL CPU devices here refuse it with the tuning table's reason, and the
// convolution still runs on gemm_nhwc. The kernel's numerics are checked on the host
// (tests/internal/sgemm_emulated_test.cpp) and on NVIDIA GPUs (tools/gpu_bench/gemm_variants.sh
// sgemm). Verbose dispatch is read from the environment once per process: ctest runs each
// test in a process of its own.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// The impl a forward f32 convolution of a 3x3 window gets, and the verbose dispatch lines.
std::string create(const dnnl::engine &eng, dnnl::memory::dims src, dnnl::memory::dims wei,
        dnnl::memory::dims dst, dnnl::memory::dims pad, std::string &log) {
    ::testing::internal::CaptureStdout();
    dnnl::convolution_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_inference,
            dnnl::algorithm::convolution_direct, {src, dt::f32, tag::any},
            {wei, dt::f32, tag::any}, {dst, dt::f32, tag::any}, {1, 1}, pad, pad);
    log = ::testing::internal::GetCapturedStdout();
    return pd.impl_info_str();
}

} // namespace

TEST(conv_implicit_sgemm, refused_with_the_reason_where_the_table_gives_no_ptx_kernels) {
    setenv("ONEDNN_VERBOSE", "dispatch", 1);
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) GTEST_SKIP() << "no GPU device";
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    std::string log;
    const std::string impl = create(eng, {2, 5, 9, 9}, {7, 5, 3, 3}, {2, 7, 9, 9}, {1, 1}, log);
    unsetenv("ONEDNN_VERBOSE");
    EXPECT_NE(impl, "ocl:convolution:implicit_sgemm_f32");
    const size_t at = log.find("implicit_sgemm_f32,skipped: ");
    if (at == std::string::npos && log.find("dispatch") == std::string::npos)
        GTEST_SKIP() << "verbose was read before this test (run it in a process of its own)";
    ASSERT_NE(at, std::string::npos) << log;
    const std::string line = log.substr(at, log.find('\n', at) - at);
    EXPECT_NE(line.find("not sgemm_ptx"), std::string::npos) << line;
}

TEST(conv_implicit_sgemm, pointwise_and_half_types_are_left_to_others) {
    setenv("ONEDNN_VERBOSE", "dispatch", 1);
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) GTEST_SKIP() << "no GPU device";
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    std::string log;
    create(eng, {1, 8, 4, 4}, {8, 8, 1, 1}, {1, 8, 4, 4}, {0, 0}, log);
    unsetenv("ONEDNN_VERBOSE");
    const size_t at = log.find("implicit_sgemm_f32,skipped: ");
    if (at == std::string::npos && log.find("dispatch") == std::string::npos)
        GTEST_SKIP() << "verbose was read before this test (run it in a process of its own)";
    ASSERT_NE(at, std::string::npos) << log;
    const std::string line = log.substr(at, log.find('\n', at) - at);
    EXPECT_NE(line.find("1x1 stride-1"), std::string::npos) << line;
}
