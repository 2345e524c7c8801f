// Modules from the SPIR-V compiled at build time (src/gpu/spirv_programs.txt): a relu forward
// in f32 runs under the validation layer's parameter checks, which refuse OpenCL C source
// modules. ctest ze_test_driver.modules_without_opencl runs it with OpenCL hidden from the
// library (no native binaries either), where the module can only have come from SPIR-V (the
// disk cache is off).
#include <cstdlib>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

using ze_spirv = ze_app_t;

TEST_F(ze_spirv, relu_f32_runs_from_build_time_spirv) {
#ifndef ANYDNN_ZE_TEST_HAVE_SPIRV
    GTEST_SKIP() << "built without clang-15 and llvm-spirv-15: no SPIR-V in the library";
#endif
    setenv("ONEDNN_KERNEL_CACHE_DIR", "off", 1); // no native binary from an earlier run
    const auto &d = drivers[0];
    dnnl::engine eng = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
    dnnl::stream strm(eng);
    dnnl::memory::desc md({5, 67}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
    dnnl::memory src(md, eng), dst(md, eng);
    float *p = static_cast<float *>(src.map_data());
    for (int i = 0; i < 5 * 67; ++i) p[i] = float(i % 13) - 6.f;
    src.unmap_data(p);
    dnnl::eltwise_forward relu(dnnl::eltwise_forward::primitive_desc(eng,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, md));
    relu.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    const float *q = static_cast<const float *>(dst.map_data());
    for (int i = 0; i < 5 * 67; ++i) ASSERT_EQ(q[i], std::max(0.f, float(i % 13) - 6.f)) << i;
    dst.unmap_data(const_cast<float *>(q));
    unsetenv("ONEDNN_KERNEL_CACHE_DIR");
}

} // namespace
} // namespace ze_test
