// The GPU reorder to and from the 4-bit floats f4_e2m1 and f4_e3m0 (ocl:reorder:nibbles
// writes a 4-bit dst a byte per work-item; other kernels read 4-bit src), on the cases and
// the encoding of tests/primitives/reorder_f4_ref.hpp; what it refuses, refused with a
// reason. Skipped without an OpenCL device.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/device_copy.hpp"
#include "gpu/reorder_nibbles_gpu.hpp"
#include "oneapi/dnnl/dnnl.h"
#include "primitives/reorder_f4_ref.hpp"

namespace {

using namespace reorder_f4_ref;
using c_tensor::tensor_t;
using reorder_nibbles_gpu::engines_t;

void run(const engines_t &e, const case_t &c) {
    SCOPED_TRACE(c.name());
    dnnl_memory_desc_t smd = gpu_test::md(c.dims, c.sdt, c.stag);
    dnnl_memory_desc_t dmd = gpu_test::md(c.dims, c.ddt, c.dtag);
    tensor_t src(e.cpu, smd), dst(e.cpu, dmd);
    fill(c, src, dst);
    gpu_test::device_memory_t dsrc(e.gpu, smd), ddst(e.gpu, dmd);
    dsrc.upload(src);
    ddst.upload(dst);
    dnnl_primitive_attr_t attr = make_attr(c);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, smd, e.gpu, dmd, e.gpu, attr),
            dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    if (is_f4(c.ddt)) {
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        EXPECT_STREQ(name, "ocl:reorder:nibbles");
    }
    std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, dsrc.mem}, {DNNL_ARG_DST, ddst.mem}};
    std::vector<std::unique_ptr<gpu_test::device_memory_t>> scales;
    for (auto arg : {DNNL_ARG_SRC, DNNL_ARG_DST}) {
        const int mask = arg == DNNL_ARG_SRC ? c.src_scale_mask : c.dst_scale_mask;
        if (mask < 0) continue;
        const std::vector<float> s = scales_of(mask, c.dims);
        dnnl_memory_desc_t smd1 = gpu_test::md({int64_t(s.size())}, dnnl_f32, dnnl_a);
        tensor_t host(e.cpu, smd1);
        std::memcpy(host.data(), s.data(), s.size() * sizeof(float));
        scales.emplace_back(new gpu_test::device_memory_t(e.gpu, smd1));
        scales.back()->upload(host);
        dnnl_memory_desc_destroy(smd1);
        args.push_back({DNNL_ARG_ATTR_SCALES | arg, scales.back()->mem});
    }
    gpu_test::execute(e.gpu, pd, args);
    dnnl_primitive_desc_destroy(pd);
    ddst.download(dst);
    check(c, dst);
    dnnl_memory_desc_destroy(smd);
    dnnl_memory_desc_destroy(dmd);
}

TEST(reorder_f4_gpu, converts_with_rounding_saturation_and_scales) {
    SKIP_WITHOUT_GPU();
    engines_t e;
    for (const case_t &c : short_cases())
        run(e, c);
}

// A 4-bit dst with gaps (a strided view) or on another engine is refused (s4/u4:
// reorder_int4_test.cpp).
TEST(reorder_f4_gpu, refuses_dst_with_gaps_and_cross_engine) {
    SKIP_WITHOUT_GPU();
    engines_t e;
    reorder_nibbles_gpu::expect_gapped_and_cross_engine_refused(e, dnnl_f4_e2m1, dnnl_f4_e3m0);
}

} // namespace
